//! Positions: the starting position ([`Game::new`]), positions as JSON (`position.md` §1) read
//! into the unchecked [`Setup`], and the checks that turn it into a [`Game`] or refuse it with the
//! field at fault ([`PositionError`], declared in `position/fault.rs`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::board::Geometry;
use crate::colour::{BySeat, Colour};
use crate::game::{
    ColourList, Game, OFF_TRACK, Phase, ROLLOFF_OUT, ROLLOFF_WAITING, Stands, Turn, next_seats,
    start_squares,
};
use crate::options::{Board, FirstPlayer, Layout, Options};
use crate::progress::Progress;
use crate::rulebook::Own;
use crate::rules::Rules;
use crate::throw::Throw;

mod fault;

use fault::PositionFault as F;
pub use fault::{PositionError, PositionFault};

/// A position as read from JSON, not yet checked. Only [`Game`] can be played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// The preset and the options that override it.
    #[serde(default)]
    pub rules: Rules,
    /// The colours that play, in turn order.
    pub seats: Vec<Colour>,
    /// Each seat's four pieces by index.
    pub pieces: BTreeMap<Colour, Vec<Progress>>,
    /// The current turn.
    pub turn: TurnSetup,
    /// Seats that finished all their pieces, in the order they did.
    #[serde(default)]
    pub done: Vec<Colour>,
    /// Every seat's place, in phase `over` only.
    #[serde(default)]
    pub places: Option<BTreeMap<Colour, u8>>,
}

/// The `turn` object of a position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TurnSetup {
    /// The seat to act.
    pub seat: Colour,
    /// The phase.
    pub phase: Phase,
    /// In phase `move`, the throw being played.
    #[serde(default)]
    pub roll: Option<Throw>,
    /// Bonus throws in a row this turn.
    #[serde(default)]
    pub bonus_streak: u8,
    /// Throws made this turn.
    #[serde(default)]
    pub throws: u8,
    /// In phase `rolloff`, each seat's throw so far (`null` while still to throw).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rolloff: Option<BTreeMap<Colour, Option<u8>>>,
}

fn err<T>(field: impl Into<String>, reason: F) -> Result<T, PositionError> {
    Err(PositionError::new(field, reason))
}

/// Why a position's JSON does not read: a contradiction between its rules' options when that is
/// the cause, else the JSON reader's message.
fn unreadable(json: &str, field: String, detail: String) -> PositionError {
    let contradiction = field
        .starts_with("rules")
        .then(|| serde_json::from_str::<serde_json::Value>(json).ok())
        .flatten()
        .and_then(|position| Rules::check_json(&position.get("rules")?.to_string()).err())
        .and_then(Result::ok);
    match contradiction {
        Some(e) => PositionError::new("rules", F::Options(e)),
        None => PositionError::new(field, F::Unreadable { detail }),
    }
}

impl Game {
    /// The starting position for these rules and seats (in turn order): every piece in the base,
    /// and a roll-off first with `first_player = highest_roll`.
    ///
    /// # Errors
    /// When the seats are not 2 to 4 different colours, or not in clockwise order where colours
    /// have fixed arms.
    pub fn new(rules: Rules, seats: &[Colour]) -> Result<Game, PositionError> {
        let (list, arm) = check_seats(rules.options(), seats)?;
        let first = seats[0];
        let mut turn = Turn::fresh(first, Phase::Roll);
        if rules.options().first_player == FirstPlayer::HighestRoll {
            turn.phase = Phase::Rolloff;
            for &seat in seats {
                turn.rolloff[seat] = ROLLOFF_WAITING;
            }
        }
        let geometry = Geometry::new(rules.options(), seats.len());
        Ok(Game {
            rules,
            geometry,
            seats: list,
            arm,
            start: start_squares(&geometry, &arm),
            next: next_seats(&list),
            pieces: BySeat([[Progress::BASE; 4]; 4]),
            squares: BySeat([[OFF_TRACK; 4]; 4]),
            stands: BySeat([Stands::default(); 4]),
            turn,
            done: ColourList::EMPTY,
            places: None,
        })
    }

    /// Reads a position from JSON and checks it.
    ///
    /// # Errors
    /// JSON that does not parse as a position, or a position that cannot occur; the error names
    /// the field.
    pub fn from_json(json: &str) -> Result<Game, PositionError> {
        let de = &mut serde_json::Deserializer::from_str(json);
        let setup: Setup = serde_path_to_error::deserialize(de).map_err(|e| {
            let path = e.path().to_string();
            let field = if path == "." { String::new() } else { path };
            unreadable(json, field, e.into_inner().to_string())
        })?;
        Game::from_setup(&setup)
    }

    /// The position as JSON (`position.md` §1).
    pub fn to_json(&self) -> String {
        serde_json::to_string(&self.to_setup()).expect("a position always serialises")
    }

    /// Checks a setup and makes it a game.
    ///
    /// # Errors
    /// A position that cannot occur; the error names the field and says why.
    pub fn from_setup(setup: &Setup) -> Result<Game, PositionError> {
        let rules = setup.rules;
        let options = rules.options();
        let (seats, arm) = check_seats(options, &setup.seats)?;
        let geometry = Geometry::new(options, setup.seats.len());
        let pieces = read_pieces(setup, &geometry)?;
        let done = read_done(setup, &seats)?;
        let t = &setup.turn;
        if !seats.contains(t.seat) {
            return err("turn.seat", F::NotPlaying { seat: t.seat });
        }
        let mut turn = Turn {
            seat: t.seat,
            phase: t.phase,
            roll: t.roll,
            bonus_streak: t.bonus_streak,
            throws: t.throws,
            rolloff: BySeat([ROLLOFF_OUT; 4]),
        };
        match (t.phase, &t.rolloff) {
            (Phase::Rolloff, rolloff) => {
                turn.rolloff = read_rolloff(setup, rolloff.as_ref())?;
            }
            (_, Some(_)) => return err("turn.rolloff", F::RolloffOutsidePhase),
            (_, None) => {}
        }
        let game = Game {
            rules,
            geometry,
            seats,
            arm,
            start: start_squares(&geometry, &arm),
            next: next_seats(&seats),
            pieces,
            squares: BySeat([[OFF_TRACK; 4]; 4]),
            stands: BySeat([Stands::default(); 4]),
            turn,
            done,
            places: None,
        };
        let mut game = game;
        game.place_all();
        game.check_done()?;
        game.check_turn()?;
        game.with_places(setup)
    }

    /// The position as an unchecked setup, ready to write as JSON.
    pub fn to_setup(&self) -> Setup {
        let seats = self.seats();
        let rolloff = (self.turn.phase == Phase::Rolloff).then(|| {
            seats
                .iter()
                .filter_map(|&s| self.rolloff(s).map(|face| (s, face)))
                .collect()
        });
        Setup {
            rules: self.rules,
            seats: seats.to_vec(),
            pieces: seats
                .iter()
                .map(|&s| (s, self.pieces[s].to_vec()))
                .collect(),
            turn: TurnSetup {
                seat: self.turn.seat,
                phase: self.turn.phase,
                roll: self.turn.roll,
                bonus_streak: self.turn.bonus_streak,
                throws: self.turn.throws,
                rolloff,
            },
            done: self.done().to_vec(),
            places: self
                .places
                .map(|p| seats.iter().map(|&s| (s, p[s])).collect()),
        }
    }

    fn check_done(&self) -> Result<(), PositionError> {
        for &seat in self.seats() {
            let finished = self.all_finished(Own, seat);
            if finished != self.done.contains(seat) {
                let reason = if finished {
                    F::FinishedNotListed { seat }
                } else {
                    F::ListedNotFinished { seat }
                };
                return err("done", reason);
            }
        }
        let (n, done) = (self.seats().len(), self.done().len());
        let over = self.turn.phase == Phase::Over;
        let expected_when_over = if self.options().rank_everyone {
            n - 1
        } else {
            1
        };
        let fits = if over {
            done == expected_when_over
        } else {
            done < expected_when_over
        };
        if !fits {
            let reason = if over {
                F::DoneCountOver {
                    expected: expected_when_over,
                    done,
                }
            } else {
                F::DoneEndsGame { done }
            };
            return err("done", reason);
        }
        Ok(())
    }

    fn check_turn(&self) -> Result<(), PositionError> {
        let t = &self.turn;
        let options = self.options();
        if t.phase != Phase::Over && self.done.contains(t.seat) {
            return err("turn.seat", F::SeatDone { seat: t.seat });
        }
        if t.phase != Phase::Move && t.roll.is_some() {
            return err("turn.roll", F::RollOutsideMove { phase: t.phase });
        }
        if t.bonus_streak > t.throws {
            return err("turn.bonus_streak", F::StreakOverThrows);
        }
        if options.three_bonus_forfeit && t.bonus_streak >= 3 {
            return err("turn.bonus_streak", F::ThirdBonus);
        }
        match t.phase {
            Phase::Rolloff | Phase::Over if t.throws != 0 || t.bonus_streak != 0 => {
                err("turn.throws", F::CountersNotZero { phase: t.phase })
            }
            Phase::Over => {
                if self.done.as_slice().last() != Some(&t.seat) {
                    return err("turn.seat", F::OverSeatNotLast);
                }
                Ok(())
            }
            Phase::Rolloff | Phase::Roll => Ok(()),
            Phase::Move => self.check_move_phase(),
        }
    }

    fn check_move_phase(&self) -> Result<(), PositionError> {
        let t = &self.turn;
        let options = self.options();
        let Some(throw) = t.roll else {
            return err("turn.roll", F::MoveWithoutRoll);
        };
        if throw.dice() != options.dice {
            return err(
                "turn.roll",
                F::RollDice {
                    wanted: options.dice,
                    given: throw.dice(),
                },
            );
        }
        if t.throws == 0 {
            return err("turn.throws", F::MoveWithoutThrows);
        }
        if options.is_bonus_throw(throw) != (t.bonus_streak > 0) {
            return err("turn.bonus_streak", F::StreakMismatch { throw });
        }
        if self.legal_moves().is_empty() {
            return err("turn.roll", F::RollWithoutMove { throw });
        }
        Ok(())
    }

    fn with_places(mut self, setup: &Setup) -> Result<Game, PositionError> {
        match (self.turn.phase, &setup.places) {
            (Phase::Over, None) => err("places", F::PlacesMissing),
            (Phase::Over, Some(given)) => {
                let places = self.compute_places();
                let expected: BTreeMap<Colour, u8> =
                    self.seats().iter().map(|&s| (s, places[s])).collect();
                if *given != expected {
                    return err("places", F::PlacesWrong { expected });
                }
                self.places = Some(places);
                Ok(self)
            }
            (_, Some(_)) => err("places", F::PlacesEarly),
            (_, None) => Ok(self),
        }
    }
}

/// Checks the seats and gives each its arm.
fn check_seats(
    options: &Options,
    seats: &[Colour],
) -> Result<(ColourList, BySeat<u8>), PositionError> {
    if !(2..=4).contains(&seats.len()) {
        return Err(PositionError::new(
            "seats",
            F::SeatCount { count: seats.len() },
        ));
    }
    let mut list = ColourList::EMPTY;
    let mut arm = BySeat([0; 4]);
    for (i, &seat) in seats.iter().enumerate() {
        if list.contains(seat) {
            return Err(PositionError::new("seats", F::ListedTwice { seat }));
        }
        list.push(seat);
        arm[seat] = match options.layout {
            Layout::ByPlayers => i as u8,
            Layout::Cross => seat.fixed_arm(),
        };
    }
    if options.layout == Layout::Cross {
        let first = seats[0].fixed_arm();
        let clockwise = seats
            .windows(2)
            .all(|w| (w[0].fixed_arm() + 4 - first) % 4 < (w[1].fixed_arm() + 4 - first) % 4);
        if !clockwise {
            return Err(PositionError::new(
                "seats",
                F::NotClockwise {
                    seats: seats.to_vec(),
                },
            ));
        }
    }
    Ok((list, arm))
}

fn read_pieces(setup: &Setup, g: &Geometry) -> Result<BySeat<[Progress; 4]>, PositionError> {
    let options = setup.rules.options();
    let mut pieces = BySeat([[Progress::BASE; 4]; 4]);
    for colour in setup.pieces.keys() {
        if !setup.seats.contains(colour) {
            return err(format!("pieces.{colour}"), F::NotPlaying { seat: *colour });
        }
    }
    for &seat in &setup.seats {
        let field = format!("pieces.{seat}");
        let Some(given) = setup.pieces.get(&seat) else {
            return err(field, F::PiecesMissing);
        };
        let Ok(four) = <[Progress; 4]>::try_from(given.as_slice()) else {
            return err(field, F::PieceCount { count: given.len() });
        };
        for (i, p) in four.iter().enumerate() {
            if let Some(steps) = p.steps()
                && steps > g.last()
            {
                let (progress, last) = (steps, g.last());
                let reason = match options.board {
                    Board::Ludo => F::BeyondFinish { progress, last },
                    Board::Horse => F::BeyondHome { progress, last },
                };
                return err(format!("{field}[{i}]"), reason);
            }
        }
        if options.board == Board::Horse {
            check_horse_home(&field, &four, g)?;
        }
        if !options.stacking {
            check_no_stacks(&field, &four, g)?;
        }
        pieces[seat] = four;
    }
    check_no_foreign_neighbours(setup, &pieces, g)?;
    Ok(pieces)
}

/// Horses home fill cells 6, 5, 4, 3 in that order without a gap.
fn check_horse_home(
    field: &str,
    pieces: &[Progress; 4],
    g: &Geometry,
) -> Result<(), PositionError> {
    let mut home: Vec<u8> = pieces
        .iter()
        .filter_map(|p| p.steps())
        .filter(|&s| s > g.door())
        .collect();
    home.sort_unstable_by(|a, b| b.cmp(a));
    let filled_in_order = home
        .iter()
        .enumerate()
        .all(|(k, &s)| s == g.last() - k as u8);
    if filled_in_order {
        Ok(())
    } else {
        err(field, F::HorseHomeOrder)
    }
}

/// Without stacking, no two own pieces share a square (the Ludo finish excepted).
fn check_no_stacks(field: &str, pieces: &[Progress; 4], g: &Geometry) -> Result<(), PositionError> {
    for i in 0..4 {
        for j in i + 1..4 {
            let (a, b) = (pieces[i], pieces[j]);
            if a == b && !a.is_base() && !(g.board() == Board::Ludo && g.is_finished(a.raw())) {
                return err(
                    field,
                    F::Stacked {
                        first: i as u8,
                        second: j as u8,
                        progress: a.raw(),
                    },
                );
            }
        }
    }
    Ok(())
}

/// Pieces of different colours share a track square only where it is safe: elsewhere the one
/// that came last would have captured the other.
fn check_no_foreign_neighbours(
    setup: &Setup,
    pieces: &BySeat<[Progress; 4]>,
    g: &Geometry,
) -> Result<(), PositionError> {
    let options = setup.rules.options();
    let mut owner: [Option<Colour>; 64] = [None; 64];
    for (i, &seat) in setup.seats.iter().enumerate() {
        let arm = match options.layout {
            Layout::ByPlayers => i as u8,
            Layout::Cross => seat.fixed_arm(),
        };
        for p in pieces[seat] {
            let Some(steps) = p.steps().filter(|&s| s <= g.door()) else {
                continue;
            };
            let square = g.square(arm, steps);
            match owner[square as usize] {
                Some(other) if other != seat && !g.is_safe(square) => {
                    return err(
                        "pieces",
                        F::SharedSquare {
                            first: other,
                            second: seat,
                            square,
                        },
                    );
                }
                _ => owner[square as usize] = Some(seat),
            }
        }
    }
    Ok(())
}

fn read_done(setup: &Setup, seats: &ColourList) -> Result<ColourList, PositionError> {
    let mut done = ColourList::EMPTY;
    for &seat in &setup.done {
        if !seats.contains(seat) {
            return err("done", F::NotPlaying { seat });
        }
        if done.contains(seat) {
            return err("done", F::ListedTwice { seat });
        }
        done.push(seat);
    }
    Ok(done)
}

fn read_rolloff(
    setup: &Setup,
    given: Option<&BTreeMap<Colour, Option<u8>>>,
) -> Result<BySeat<u8>, PositionError> {
    let field = "turn.rolloff";
    if setup.rules.options().first_player != FirstPlayer::HighestRoll {
        return err("turn.phase", F::RolloffNotInRules);
    }
    let all_in_base = setup.pieces.values().flatten().all(|p| p.is_base());
    if !all_in_base || !setup.done.is_empty() {
        return err("turn.phase", F::RolloffAfterStart);
    }
    let mut rolloff = BySeat([ROLLOFF_OUT; 4]);
    match given {
        None => {
            for &seat in &setup.seats {
                rolloff[seat] = ROLLOFF_WAITING;
            }
        }
        Some(map) => {
            for (&seat, &face) in map {
                if !setup.seats.contains(&seat) {
                    return err(field, F::NotPlaying { seat });
                }
                rolloff[seat] = match face {
                    None => ROLLOFF_WAITING,
                    Some(f @ 1..=6) => f,
                    Some(face) => return err(field, F::RolloffFace { face }),
                };
            }
        }
    }
    let order: Vec<u8> = setup
        .seats
        .iter()
        .map(|&s| rolloff[s])
        .filter(|&e| e != ROLLOFF_OUT)
        .collect();
    if order.len() < 2 {
        return err(field, F::RolloffTooFew);
    }
    let Some(waiting) = order.iter().position(|&e| e == ROLLOFF_WAITING) else {
        return err(field, F::RolloffDecided);
    };
    if order[waiting..].iter().any(|&e| e != ROLLOFF_WAITING) {
        return err(field, F::RolloffOrder);
    }
    let next = setup
        .seats
        .iter()
        .copied()
        .find(|&s| rolloff[s] == ROLLOFF_WAITING);
    if next != Some(setup.turn.seat) {
        return err("turn.seat", F::RolloffSeat);
    }
    if setup.turn.roll.is_some() {
        return err(
            "turn.roll",
            F::RollOutsideMove {
                phase: Phase::Rolloff,
            },
        );
    }
    Ok(rolloff)
}
