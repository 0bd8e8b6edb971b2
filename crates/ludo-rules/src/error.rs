//! The ways an engine call fails: a position that cannot occur, or an action the rules forbid.
//! Each error has a stable code and parameters for programs (a client says it in its reader's
//! words), and an English sentence for logs (`Display`).

use std::collections::BTreeMap;
use std::fmt;

use serde_json::{Value, json};

use crate::colour::Colour;
use crate::game::Phase;
use crate::options::OptionsError;
use crate::throw::Throw;

/// An engine error as programs read it: a stable snake_case code and the values it speaks of.
pub trait Fault: std::error::Error {
    /// The stable code of the error's kind.
    fn code(&self) -> &'static str;
    /// The values the error speaks of, as a JSON object (empty when there are none).
    fn params(&self) -> Value;
}

/// A position that cannot be read or cannot occur. `field` names the place in the JSON
/// (`pieces.red[2]`, `turn.phase`, `rules`…) and `reason` says what is wrong there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError {
    /// Where in the position the fault is.
    pub field: String,
    /// What is wrong with it.
    pub reason: PositionFault,
}

/// What is wrong with a position, with the values involved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionFault {
    /// The JSON does not read as a position (`detail` is the reader's English message).
    Unreadable {
        /// What the JSON reader said.
        detail: String,
    },
    /// The rules' options contradict each other.
    Options(OptionsError),
    /// Not 2 to 4 seats.
    SeatCount {
        /// Seats given.
        count: usize,
    },
    /// A colour listed twice.
    ListedTwice {
        /// The colour.
        seat: Colour,
    },
    /// Seats out of clockwise order on the cross.
    NotClockwise {
        /// The seats as given.
        seats: Vec<Colour>,
    },
    /// A colour that does not play in this game.
    NotPlaying {
        /// The colour.
        seat: Colour,
    },
    /// A seat's pieces are missing.
    PiecesMissing,
    /// Not four pieces.
    PieceCount {
        /// Pieces given.
        count: usize,
    },
    /// A progress beyond the Ludo finish.
    BeyondFinish {
        /// The progress given.
        progress: u8,
        /// The finish's progress.
        last: u8,
    },
    /// A progress beyond the horse board's home cell 6.
    BeyondHome {
        /// The progress given.
        progress: u8,
        /// Home cell 6's progress.
        last: u8,
    },
    /// Horses home that do not fill cells 6, 5, 4, 3 in that order without a gap.
    HorseHomeOrder,
    /// Two own pieces on one square without stacking.
    Stacked {
        /// The first piece.
        first: u8,
        /// The second piece.
        second: u8,
        /// Their progress.
        progress: u8,
    },
    /// Pieces of two colours on a square that is not safe.
    SharedSquare {
        /// The colour listed first.
        first: Colour,
        /// The other colour.
        second: Colour,
        /// The track square.
        square: u8,
    },
    /// A seat finished every piece but is not listed as done.
    FinishedNotListed {
        /// The seat.
        seat: Colour,
    },
    /// A seat listed as done has pieces still to finish.
    ListedNotFinished {
        /// The seat.
        seat: Colour,
    },
    /// A finished game with the wrong number of done seats.
    DoneCountOver {
        /// Done seats a finished game has under these rules.
        expected: usize,
        /// Done seats given.
        done: usize,
    },
    /// So many done seats that the game would have ended.
    DoneEndsGame {
        /// Done seats given.
        done: usize,
    },
    /// The seat to act is done and never throws again.
    SeatDone {
        /// The seat.
        seat: Colour,
    },
    /// A throw outside phase `move`.
    RollOutsideMove {
        /// The phase.
        phase: Phase,
    },
    /// More bonus throws in a row than throws this turn.
    StreakOverThrows,
    /// A third bonus throw in a row, which ends the turn.
    ThirdBonus,
    /// Turn counters that are not 0 in phase `rolloff` or `over`.
    CountersNotZero {
        /// The phase.
        phase: Phase,
    },
    /// In phase `over`, the seat is not the one that finished last.
    OverSeatNotLast,
    /// Phase `move` without the throw being played.
    MoveWithoutRoll,
    /// A throw with the wrong number of dice for these rules.
    RollDice {
        /// Dice these rules throw.
        wanted: u8,
        /// Dice given.
        given: u8,
    },
    /// Phase `move` with no throw counted this turn.
    MoveWithoutThrows,
    /// The bonus streak does not match the throw being played.
    StreakMismatch {
        /// The throw.
        throw: Throw,
    },
    /// Phase `move` with a throw that offers no legal move.
    RollWithoutMove {
        /// The throw.
        throw: Throw,
    },
    /// A finished game without every seat's place.
    PlacesMissing,
    /// Places that do not follow from the position.
    PlacesWrong {
        /// The places that do.
        expected: BTreeMap<Colour, u8>,
    },
    /// Places before the game is over.
    PlacesEarly,
    /// A roll-off under rules where the first listed seat starts.
    RolloffNotInRules,
    /// A roll-off after a piece has moved.
    RolloffAfterStart,
    /// Roll-off throws outside phase `rolloff`.
    RolloffOutsidePhase,
    /// A roll-off throw with a die face outside 1..=6.
    RolloffFace {
        /// The face.
        face: u8,
    },
    /// A roll-off of fewer than two seats.
    RolloffTooFew,
    /// Every seat has thrown, so the roll-off is decided.
    RolloffDecided,
    /// Roll-off throws out of seat order.
    RolloffOrder,
    /// In a roll-off, the seat to act is not the first still to throw.
    RolloffSeat,
}

impl PositionFault {
    /// Every code a position fault may have (those of [`OptionsError`] included).
    pub const CODES: &'static [&'static str] = &[
        "unreadable",
        "seat_count",
        "listed_twice",
        "not_clockwise",
        "not_playing",
        "pieces_missing",
        "piece_count",
        "beyond_finish",
        "beyond_home",
        "horse_home_order",
        "stacked",
        "shared_square",
        "finished_not_listed",
        "listed_not_finished",
        "done_count_over",
        "done_ends_game",
        "seat_done",
        "roll_outside_move",
        "streak_over_throws",
        "third_bonus",
        "counters_not_zero",
        "over_seat_not_last",
        "move_without_roll",
        "roll_dice",
        "move_without_throws",
        "streak_mismatch",
        "roll_without_move",
        "places_missing",
        "places_wrong",
        "places_early",
        "rolloff_not_in_rules",
        "rolloff_after_start",
        "rolloff_outside_phase",
        "rolloff_face",
        "rolloff_too_few",
        "rolloff_decided",
        "rolloff_order",
        "rolloff_seat",
    ];

    /// The stable code of the fault (an options contradiction has its own).
    pub fn code(&self) -> &'static str {
        use PositionFault as F;
        match self {
            F::Unreadable { .. } => "unreadable",
            F::Options(e) => e.code(),
            F::SeatCount { .. } => "seat_count",
            F::ListedTwice { .. } => "listed_twice",
            F::NotClockwise { .. } => "not_clockwise",
            F::NotPlaying { .. } => "not_playing",
            F::PiecesMissing => "pieces_missing",
            F::PieceCount { .. } => "piece_count",
            F::BeyondFinish { .. } => "beyond_finish",
            F::BeyondHome { .. } => "beyond_home",
            F::HorseHomeOrder => "horse_home_order",
            F::Stacked { .. } => "stacked",
            F::SharedSquare { .. } => "shared_square",
            F::FinishedNotListed { .. } => "finished_not_listed",
            F::ListedNotFinished { .. } => "listed_not_finished",
            F::DoneCountOver { .. } => "done_count_over",
            F::DoneEndsGame { .. } => "done_ends_game",
            F::SeatDone { .. } => "seat_done",
            F::RollOutsideMove { .. } => "roll_outside_move",
            F::StreakOverThrows => "streak_over_throws",
            F::ThirdBonus => "third_bonus",
            F::CountersNotZero { .. } => "counters_not_zero",
            F::OverSeatNotLast => "over_seat_not_last",
            F::MoveWithoutRoll => "move_without_roll",
            F::RollDice { .. } => "roll_dice",
            F::MoveWithoutThrows => "move_without_throws",
            F::StreakMismatch { .. } => "streak_mismatch",
            F::RollWithoutMove { .. } => "roll_without_move",
            F::PlacesMissing => "places_missing",
            F::PlacesWrong { .. } => "places_wrong",
            F::PlacesEarly => "places_early",
            F::RolloffNotInRules => "rolloff_not_in_rules",
            F::RolloffAfterStart => "rolloff_after_start",
            F::RolloffOutsidePhase => "rolloff_outside_phase",
            F::RolloffFace { .. } => "rolloff_face",
            F::RolloffTooFew => "rolloff_too_few",
            F::RolloffDecided => "rolloff_decided",
            F::RolloffOrder => "rolloff_order",
            F::RolloffSeat => "rolloff_seat",
        }
    }

    /// The values the fault speaks of, as a JSON object.
    pub fn params(&self) -> Value {
        use PositionFault as F;
        match self {
            F::Unreadable { detail } => json!({ "detail": detail }),
            F::Options(e) => e.params(),
            F::SeatCount { count } | F::PieceCount { count } => json!({ "count": count }),
            F::ListedTwice { seat }
            | F::NotPlaying { seat }
            | F::FinishedNotListed { seat }
            | F::ListedNotFinished { seat }
            | F::SeatDone { seat } => json!({ "seat": seat }),
            F::NotClockwise { seats } => json!({ "seats": seats }),
            F::BeyondFinish { progress, last } | F::BeyondHome { progress, last } => {
                json!({ "progress": progress, "last": last })
            }
            F::Stacked {
                first,
                second,
                progress,
            } => json!({ "first": first, "second": second, "progress": progress }),
            F::SharedSquare {
                first,
                second,
                square,
            } => json!({ "first": first, "second": second, "square": square }),
            F::DoneCountOver { expected, done } => json!({ "expected": expected, "done": done }),
            F::DoneEndsGame { done } => json!({ "done": done }),
            F::RollOutsideMove { phase } | F::CountersNotZero { phase } => {
                json!({ "phase": phase })
            }
            F::RollDice { wanted, given } => json!({ "wanted": wanted, "given": given }),
            F::StreakMismatch { throw } | F::RollWithoutMove { throw } => {
                json!({ "throw": throw })
            }
            F::PlacesWrong { expected } => json!({ "expected": expected }),
            F::RolloffFace { face } => json!({ "face": face }),
            F::PiecesMissing
            | F::HorseHomeOrder
            | F::StreakOverThrows
            | F::ThirdBonus
            | F::OverSeatNotLast
            | F::MoveWithoutRoll
            | F::MoveWithoutThrows
            | F::PlacesMissing
            | F::PlacesEarly
            | F::RolloffNotInRules
            | F::RolloffAfterStart
            | F::RolloffOutsidePhase
            | F::RolloffTooFew
            | F::RolloffDecided
            | F::RolloffOrder
            | F::RolloffSeat => json!({}),
        }
    }
}

impl fmt::Display for PositionFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use PositionFault as F;
        match self {
            F::Unreadable { detail } => f.write_str(detail),
            F::Options(e) => write!(f, "{e}"),
            F::SeatCount { count } => write!(f, "{count} seats; a game has 2 to 4"),
            F::ListedTwice { seat } => write!(f, "{seat} is listed twice"),
            F::NotClockwise { seats } => {
                let names: Vec<&str> = seats.iter().map(|c| c.name()).collect();
                write!(
                    f,
                    "{} are not in clockwise order (yellow, blue, red, green from any seat)",
                    names.join(", ")
                )
            }
            F::NotPlaying { seat } => write!(f, "{seat} does not play"),
            F::PiecesMissing => f.write_str("missing"),
            F::PieceCount { count } => write!(f, "{count} pieces; every seat has 4"),
            F::BeyondFinish { progress, last } => {
                write!(f, "progress {progress} is beyond the finish ({last})")
            }
            F::BeyondHome { progress, last } => {
                write!(f, "progress {progress} is beyond home cell 6 ({last})")
            }
            F::HorseHomeOrder => {
                f.write_str("horses home must fill cells 6, 5, 4, 3 in that order, without a gap")
            }
            F::Stacked {
                first,
                second,
                progress,
            } => write!(
                f,
                "pieces {first} and {second} share progress {progress}, but stacking is off"
            ),
            F::SharedSquare {
                first,
                second,
                square,
            } => write!(
                f,
                "{first} and {second} share track square {square}, which is not safe \
                 (the later one would have captured the other)"
            ),
            F::FinishedNotListed { seat } => {
                write!(f, "{seat} has finished every piece but is not listed")
            }
            F::ListedNotFinished { seat } => {
                write!(f, "{seat} is listed but has pieces still to finish")
            }
            F::DoneCountOver { expected, done } => {
                write!(
                    f,
                    "a finished game has {expected} done seat(s) here, not {done}"
                )
            }
            F::DoneEndsGame { done } => write!(f, "{done} done seat(s) would have ended the game"),
            F::SeatDone { seat } => write!(f, "{seat} is done and never throws again"),
            F::RollOutsideMove { phase } => write!(f, "must be null in phase {phase}"),
            F::StreakOverThrows => f.write_str("is more than the throws made this turn"),
            F::ThirdBonus => f.write_str("a third bonus throw in a row ends the turn"),
            F::CountersNotZero { phase } => write!(f, "counters are 0 in phase {phase}"),
            F::OverSeatNotLast => f.write_str("in phase over, it is the seat that finished last"),
            F::MoveWithoutRoll => f.write_str("phase move needs the throw being played"),
            F::RollDice { wanted, given } => {
                write!(f, "these rules throw {wanted} dice, not {given}")
            }
            F::MoveWithoutThrows => f.write_str("phase move counts the throw being played"),
            F::StreakMismatch { throw } => {
                write!(f, "does not match the throw {throw} being played")
            }
            F::RollWithoutMove { throw } => write!(
                f,
                "{throw} offers no legal move, so phase move cannot occur"
            ),
            F::PlacesMissing => f.write_str("a finished game has every seat's place"),
            F::PlacesWrong { expected } => write!(
                f,
                "do not follow from the position: expected {}",
                serde_json::to_string(expected).unwrap_or_default()
            ),
            F::PlacesEarly => f.write_str("must be null until the game is over"),
            F::RolloffNotInRules => f.write_str("a roll-off needs first_player = highest_roll"),
            F::RolloffAfterStart => f.write_str("a roll-off comes before any piece has moved"),
            F::RolloffOutsidePhase => f.write_str("only a position in phase rolloff has one"),
            F::RolloffFace { face } => write!(f, "die face {face} is outside 1..6"),
            F::RolloffTooFew => f.write_str("a roll-off is between two seats or more"),
            F::RolloffDecided => f.write_str("every seat has thrown, so the roll-off is decided"),
            F::RolloffOrder => f.write_str("seats throw in seat order"),
            F::RolloffSeat => f.write_str("in a roll-off, the first seat still to throw acts"),
        }
    }
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
        params["field"] = json!(self.field);
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

/// What an action that came in the wrong phase was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Act {
    /// A throw of the dice (phase `roll` or `rolloff`).
    Throw,
    /// A move (phase `move`).
    Move,
}

impl Act {
    /// The action's name in codes and JSON: `throw` or `move`.
    pub const fn name(self) -> &'static str {
        match self {
            Act::Throw => "throw",
            Act::Move => "move",
        }
    }
}

/// An action the rules forbid in this position. The game is left unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The action belongs to another phase (a move while a throw is awaited, and so on).
    WrongPhase {
        /// The action tried.
        wanted: Act,
        /// The phase the game is in.
        phase: Phase,
    },
    /// The throw has the wrong number of dice for these rules (a roll-off is always one die).
    WrongDice {
        /// Dice the rules throw here.
        wanted: u8,
        /// Dice given.
        given: u8,
    },
    /// A piece index outside 0..4.
    NoSuchPiece(u8),
    /// The piece has no legal move with this throw.
    NoMove {
        /// The seat to play.
        seat: Colour,
        /// The piece asked for.
        piece: u8,
    },
}

impl PlayError {
    /// Every code an illegal action may have.
    pub const CODES: &'static [&'static str] =
        &["wrong_phase", "wrong_dice", "no_such_piece", "no_move"];

    /// The stable code of the refusal.
    pub const fn code(&self) -> &'static str {
        match self {
            PlayError::WrongPhase { .. } => "wrong_phase",
            PlayError::WrongDice { .. } => "wrong_dice",
            PlayError::NoSuchPiece(_) => "no_such_piece",
            PlayError::NoMove { .. } => "no_move",
        }
    }

    /// The values the refusal speaks of: `action` and `phase`; `wanted` and `given` dice;
    /// `piece`; `seat` and `piece`.
    pub fn params(&self) -> Value {
        match self {
            PlayError::WrongPhase { wanted, phase } => {
                json!({ "action": wanted.name(), "phase": phase })
            }
            PlayError::WrongDice { wanted, given } => json!({ "wanted": wanted, "given": given }),
            PlayError::NoSuchPiece(piece) => json!({ "piece": piece }),
            PlayError::NoMove { seat, piece } => json!({ "seat": seat, "piece": piece }),
        }
    }
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::WrongPhase { wanted, phase } => {
                let needs = match wanted {
                    Act::Throw => "a throw needs phase roll or rolloff",
                    Act::Move => "a move needs phase move",
                };
                write!(f, "{needs}, but the game is in phase {phase}")
            }
            PlayError::WrongDice { wanted, given } => {
                write!(f, "this throw needs {wanted} dice, {given} given")
            }
            PlayError::NoSuchPiece(piece) => {
                write!(f, "piece {piece} does not exist (pieces are 0..3)")
            }
            PlayError::NoMove { seat, piece } => {
                write!(f, "{seat} piece {piece} has no legal move with this throw")
            }
        }
    }
}

impl std::error::Error for PlayError {}

impl Fault for PlayError {
    fn code(&self) -> &'static str {
        PlayError::code(self)
    }

    fn params(&self) -> Value {
        PlayError::params(self)
    }
}

/// Every code an engine error may have: positions, options, illegal actions and throws. No
/// code belongs to two kinds.
pub fn all_codes() -> Vec<&'static str> {
    [
        PositionFault::CODES,
        OptionsError::CODES,
        PlayError::CODES,
        crate::throw::ThrowError::CODES,
    ]
    .concat()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::throw::ThrowError;

    /// One fault of every kind: the match has no wildcard, so a new kind must be added here.
    fn one_of_each() -> Vec<PositionFault> {
        use PositionFault as F;
        let kinds = [
            F::Unreadable {
                detail: String::new(),
            },
            F::Options(OptionsError::NoWayOut),
            F::SeatCount { count: 5 },
            F::ListedTwice { seat: Colour::Red },
            F::NotClockwise { seats: vec![] },
            F::NotPlaying { seat: Colour::Red },
            F::PiecesMissing,
            F::PieceCount { count: 3 },
            F::BeyondFinish {
                progress: 60,
                last: 56,
            },
            F::BeyondHome {
                progress: 62,
                last: 61,
            },
            F::HorseHomeOrder,
            F::Stacked {
                first: 0,
                second: 1,
                progress: 3,
            },
            F::SharedSquare {
                first: Colour::Red,
                second: Colour::Blue,
                square: 3,
            },
            F::FinishedNotListed { seat: Colour::Red },
            F::ListedNotFinished { seat: Colour::Red },
            F::DoneCountOver {
                expected: 1,
                done: 0,
            },
            F::DoneEndsGame { done: 1 },
            F::SeatDone { seat: Colour::Red },
            F::RollOutsideMove { phase: Phase::Roll },
            F::StreakOverThrows,
            F::ThirdBonus,
            F::CountersNotZero { phase: Phase::Over },
            F::OverSeatNotLast,
            F::MoveWithoutRoll,
            F::RollDice {
                wanted: 1,
                given: 2,
            },
            F::MoveWithoutThrows,
            F::StreakMismatch {
                throw: Throw::one(6),
            },
            F::RollWithoutMove {
                throw: Throw::one(3),
            },
            F::PlacesMissing,
            F::PlacesWrong {
                expected: BTreeMap::new(),
            },
            F::PlacesEarly,
            F::RolloffNotInRules,
            F::RolloffAfterStart,
            F::RolloffOutsidePhase,
            F::RolloffFace { face: 7 },
            F::RolloffTooFew,
            F::RolloffDecided,
            F::RolloffOrder,
            F::RolloffSeat,
        ];
        for kind in &kinds {
            match kind {
                F::Unreadable { .. }
                | F::Options(_)
                | F::SeatCount { .. }
                | F::ListedTwice { .. }
                | F::NotClockwise { .. }
                | F::NotPlaying { .. }
                | F::PiecesMissing
                | F::PieceCount { .. }
                | F::BeyondFinish { .. }
                | F::BeyondHome { .. }
                | F::HorseHomeOrder
                | F::Stacked { .. }
                | F::SharedSquare { .. }
                | F::FinishedNotListed { .. }
                | F::ListedNotFinished { .. }
                | F::DoneCountOver { .. }
                | F::DoneEndsGame { .. }
                | F::SeatDone { .. }
                | F::RollOutsideMove { .. }
                | F::StreakOverThrows
                | F::ThirdBonus
                | F::CountersNotZero { .. }
                | F::OverSeatNotLast
                | F::MoveWithoutRoll
                | F::RollDice { .. }
                | F::MoveWithoutThrows
                | F::StreakMismatch { .. }
                | F::RollWithoutMove { .. }
                | F::PlacesMissing
                | F::PlacesWrong { .. }
                | F::PlacesEarly
                | F::RolloffNotInRules
                | F::RolloffAfterStart
                | F::RolloffOutsidePhase
                | F::RolloffFace { .. }
                | F::RolloffTooFew
                | F::RolloffDecided
                | F::RolloffOrder
                | F::RolloffSeat => {}
            }
        }
        kinds.to_vec()
    }

    fn one_play_error_of_each() -> Vec<PlayError> {
        let errors = vec![
            PlayError::WrongPhase {
                wanted: Act::Move,
                phase: Phase::Roll,
            },
            PlayError::WrongDice {
                wanted: 1,
                given: 2,
            },
            PlayError::NoSuchPiece(4),
            PlayError::NoMove {
                seat: Colour::Red,
                piece: 2,
            },
        ];
        for e in &errors {
            match e {
                PlayError::WrongPhase { .. }
                | PlayError::WrongDice { .. }
                | PlayError::NoSuchPiece(_)
                | PlayError::NoMove { .. } => {}
            }
        }
        errors
    }

    #[test]
    fn every_position_fault_has_a_listed_code_and_object_params() {
        let kinds = one_of_each();
        let own: Vec<&str> = kinds
            .iter()
            .filter(|k| !matches!(k, PositionFault::Options(_)))
            .map(PositionFault::code)
            .collect();
        assert_eq!(own, PositionFault::CODES, "one code per kind, in order");
        for kind in &kinds {
            assert!(kind.params().is_object(), "{kind:?}");
        }
    }

    #[test]
    fn every_play_error_has_a_listed_code() {
        let codes: Vec<&str> = one_play_error_of_each()
            .iter()
            .map(PlayError::code)
            .collect();
        assert_eq!(codes, PlayError::CODES);
    }

    #[test]
    fn no_code_belongs_to_two_kinds_of_error() {
        let mut codes = all_codes();
        let n = codes.len();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), n, "{codes:?}");
    }

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
    }

    #[test]
    fn an_illegal_action_gives_the_values_it_speaks_of() {
        let e = PlayError::NoMove {
            seat: Colour::Green,
            piece: 3,
        };
        assert_eq!(e.code(), "no_move");
        assert_eq!(e.params(), json!({"seat": "green", "piece": 3}));
        let e = PlayError::WrongPhase {
            wanted: Act::Throw,
            phase: Phase::Move,
        };
        assert_eq!(e.params(), json!({"action": "throw", "phase": "move"}));
        assert_eq!(
            e.to_string(),
            "a throw needs phase roll or rolloff, but the game is in phase move"
        );
        assert_eq!(
            ThrowError::Face(9).params(),
            json!({"face": 9}),
            "a throw's face"
        );
    }
}
