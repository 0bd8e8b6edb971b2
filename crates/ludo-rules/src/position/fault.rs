//! What is wrong with a position that cannot be read or cannot occur: the faults the checks of
//! [`crate::Game::from_json`], [`crate::Game::from_setup`] and [`crate::Game::new`] find, each
//! with the field at fault.

use std::collections::BTreeMap;
use std::fmt;

use serde_json::Value;

use crate::colour::Colour;
use crate::error::{Fault, faults};
use crate::game::Phase;
use crate::options::OptionsError;
use crate::throw::Throw;

/// A position that cannot be read or cannot occur. `field` names the place in the JSON
/// (`pieces.red[2]`, `turn.phase`, `rules`…) and `reason` says what is wrong there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError {
    /// Where in the position the fault is.
    pub field: String,
    /// What is wrong with it.
    pub reason: PositionFault,
}

impl PositionError {
    /// A fault at `field` (empty for the position as a whole).
    pub fn new(field: impl Into<String>, reason: PositionFault) -> PositionError {
        PositionError {
            field: field.into(),
            reason,
        }
    }

    /// The stable code of the fault.
    pub fn code(&self) -> &'static str {
        self.reason.code()
    }

    /// The fault's values, with the field at fault as `field`.
    pub fn params(&self) -> Value {
        let mut params = self.reason.params();
        params["field"] = Value::from(self.field.as_str());
        params
    }
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() {
            write!(f, "{}", self.reason)
        } else {
            write!(f, "{}: {}", self.field, self.reason)
        }
    }
}

impl std::error::Error for PositionError {}

impl Fault for PositionError {
    fn code(&self) -> &'static str {
        PositionError::code(self)
    }

    fn params(&self) -> Value {
        PositionError::params(self)
    }
}

/// The seats' names, as a list in English.
fn names(seats: &[Colour]) -> String {
    seats
        .iter()
        .map(|c| c.name())
        .collect::<Vec<_>>()
        .join(", ")
}

faults! {
    /// What is wrong with a position, with the values involved.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub enum PositionFault {
        /// The JSON does not read as a position (`detail` is the reader's English message).
        Unreadable {
            /// What the JSON reader said.
            detail: String,
        } => "unreadable": "{detail}";
        /// The rules' options contradict each other.
        Options(error: OptionsError) => error;
        /// Not 2 to 4 seats.
        SeatCount {
            /// Seats given.
            count: usize,
        } => "seat_count": "{count} seats; a game has 2 to 4";
        /// A colour listed twice.
        ListedTwice {
            /// The colour.
            seat: Colour,
        } => "listed_twice": "{seat} is listed twice";
        /// Seats out of clockwise order on the cross.
        NotClockwise {
            /// The seats as given.
            seats: Vec<Colour>,
        } => "not_clockwise":
            "{} are not in clockwise order (yellow, blue, red, green from any seat)", names(seats);
        /// A colour that does not play in this game.
        NotPlaying {
            /// The colour.
            seat: Colour,
        } => "not_playing": "{seat} does not play";
        /// A seat's pieces are missing.
        PiecesMissing => "pieces_missing": "missing";
        /// Not four pieces.
        PieceCount {
            /// Pieces given.
            count: usize,
        } => "piece_count": "{count} pieces; every seat has 4";
        /// A progress beyond the Ludo finish.
        BeyondFinish {
            /// The progress given.
            progress: u8,
            /// The finish's progress.
            last: u8,
        } => "beyond_finish": "progress {progress} is beyond the finish ({last})";
        /// A progress beyond the horse board's home cell 6.
        BeyondHome {
            /// The progress given.
            progress: u8,
            /// Home cell 6's progress.
            last: u8,
        } => "beyond_home": "progress {progress} is beyond home cell 6 ({last})";
        /// Horses home that do not fill cells 6, 5, 4, 3 in that order without a gap.
        HorseHomeOrder => "horse_home_order":
            "horses home must fill cells 6, 5, 4, 3 in that order, without a gap";
        /// Two own pieces on one square without stacking.
        Stacked {
            /// The first piece.
            first: u8,
            /// The second piece.
            second: u8,
            /// Their progress.
            progress: u8,
        } => "stacked": "pieces {first} and {second} share progress {progress}, but stacking is off";
        /// Pieces of two colours on a square that is not safe.
        SharedSquare {
            /// The colour listed first.
            first: Colour,
            /// The other colour.
            second: Colour,
            /// The track square.
            square: u8,
        } => "shared_square":
            "{first} and {second} share track square {square}, which is not safe \
             (the later one would have captured the other)";
        /// A seat finished every piece but is not listed as done.
        FinishedNotListed {
            /// The seat.
            seat: Colour,
        } => "finished_not_listed": "{seat} has finished every piece but is not listed";
        /// A seat listed as done has pieces still to finish.
        ListedNotFinished {
            /// The seat.
            seat: Colour,
        } => "listed_not_finished": "{seat} is listed but has pieces still to finish";
        /// A finished game with the wrong number of done seats.
        DoneCountOver {
            /// Done seats a finished game has under these rules.
            expected: usize,
            /// Done seats given.
            done: usize,
        } => "done_count_over": "a finished game has {expected} done seat(s) here, not {done}";
        /// So many done seats that the game would have ended.
        DoneEndsGame {
            /// Done seats given.
            done: usize,
        } => "done_ends_game": "{done} done seat(s) would have ended the game";
        /// The seat to act is done and never throws again.
        SeatDone {
            /// The seat.
            seat: Colour,
        } => "seat_done": "{seat} is done and never throws again";
        /// A throw outside phase `move`.
        RollOutsideMove {
            /// The phase.
            phase: Phase,
        } => "roll_outside_move": "must be null in phase {phase}";
        /// More bonus throws in a row than throws this turn.
        StreakOverThrows => "streak_over_throws": "is more than the throws made this turn";
        /// A third bonus throw in a row, which ends the turn.
        ThirdBonus => "third_bonus": "a third bonus throw in a row ends the turn";
        /// Turn counters that are not 0 in phase `rolloff` or `over`.
        CountersNotZero {
            /// The phase.
            phase: Phase,
        } => "counters_not_zero": "counters are 0 in phase {phase}";
        /// In phase `over`, the seat is not the one that finished last.
        OverSeatNotLast => "over_seat_not_last": "in phase over, it is the seat that finished last";
        /// Phase `move` without the throw being played.
        MoveWithoutRoll => "move_without_roll": "phase move needs the throw being played";
        /// A throw with the wrong number of dice for these rules.
        RollDice {
            /// Dice these rules throw.
            wanted: u8,
            /// Dice given.
            given: u8,
        } => "roll_dice": "these rules throw {wanted} dice, not {given}";
        /// Phase `move` with no throw counted this turn.
        MoveWithoutThrows => "move_without_throws": "phase move counts the throw being played";
        /// The bonus streak does not match the throw being played.
        StreakMismatch {
            /// The throw.
            throw: Throw,
        } => "streak_mismatch": "does not match the throw {throw} being played";
        /// Phase `move` with a throw that offers no legal move.
        RollWithoutMove {
            /// The throw.
            throw: Throw,
        } => "roll_without_move": "{throw} offers no legal move, so phase move cannot occur";
        /// A finished game without every seat's place.
        PlacesMissing => "places_missing": "a finished game has every seat's place";
        /// Places that do not follow from the position.
        PlacesWrong {
            /// The places that do.
            expected: BTreeMap<Colour, u8>,
        } => "places_wrong":
            "do not follow from the position: expected {}",
            serde_json::to_string(expected).unwrap_or_default();
        /// Places before the game is over.
        PlacesEarly => "places_early": "must be null until the game is over";
        /// A roll-off under rules where the first listed seat starts.
        RolloffNotInRules => "rolloff_not_in_rules": "a roll-off needs first_player = highest_roll";
        /// A roll-off after a piece has moved.
        RolloffAfterStart => "rolloff_after_start": "a roll-off comes before any piece has moved";
        /// Roll-off throws outside phase `rolloff`.
        RolloffOutsidePhase => "rolloff_outside_phase": "only a position in phase rolloff has one";
        /// A roll-off throw with a die face outside 1..=6.
        RolloffFace {
            /// The face.
            face: u8,
        } => "rolloff_face": "die face {face} is outside 1..6";
        /// A roll-off of fewer than two seats.
        RolloffTooFew => "rolloff_too_few": "a roll-off is between two seats or more";
        /// Every seat has thrown, so the roll-off is decided.
        RolloffDecided => "rolloff_decided": "every seat has thrown, so the roll-off is decided";
        /// Roll-off throws out of seat order.
        RolloffOrder => "rolloff_order": "seats throw in seat order";
        /// In a roll-off, the seat to act is not the first still to throw.
        RolloffSeat => "rolloff_seat": "in a roll-off, the first seat still to throw acts";
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_position_error_gives_its_field_and_the_values_it_speaks_of() {
        let e = PositionError::new(
            "pieces.red",
            PositionFault::Stacked {
                first: 0,
                second: 2,
                progress: 9,
            },
        );
        assert_eq!(e.code(), "stacked");
        assert_eq!(
            e.params(),
            json!({"field": "pieces.red", "first": 0, "second": 2, "progress": 9})
        );
        assert_eq!(
            e.to_string(),
            "pieces.red: pieces 0 and 2 share progress 9, but stacking is off"
        );
    }

    #[test]
    fn an_options_contradiction_in_a_position_keeps_its_own_code_and_option() {
        let e = PositionError::new(
            "rules",
            PositionFault::Options(OptionsError::TwoDiceExactFinish),
        );
        assert_eq!(e.code(), "two_dice_exact_finish");
        assert_eq!(
            e.params(),
            json!({"field": "rules", "option": "exact_finish"})
        );
        assert!(!PositionFault::CODES.contains(&"two_dice_exact_finish"));
    }

    #[test]
    fn a_position_error_of_the_whole_position_has_no_field_in_its_message() {
        let e = PositionError::new("", PositionFault::SeatCount { count: 5 });
        assert_eq!(e.to_string(), "5 seats; a game has 2 to 4");
        assert_eq!(e.params(), json!({"field": "", "count": 5}));
    }
}
