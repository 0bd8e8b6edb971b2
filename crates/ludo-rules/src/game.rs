//! A checked game: the only state the engine plays, always a position that can occur.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::board::Geometry;
use crate::colour::{BySeat, Colour};
use crate::options::Options;
use crate::progress::Progress;
use crate::rules::Rules;
use crate::throw::Throw;

/// What the seat to act does next (`rules.md` §4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Before the first turn: each seat in the roll-off throws one die.
    Rolloff,
    /// The seat throws.
    Roll,
    /// The seat chooses one of the moves the throw offers.
    Move,
    /// The game has ended; every seat has a place.
    Over,
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Phase::Rolloff => "rolloff",
            Phase::Roll => "roll",
            Phase::Move => "move",
            Phase::Over => "over",
        })
    }
}

/// Up to four colours in order: the seats in turn order, or the done seats in finishing order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct ColourList {
    colours: [Colour; 4],
    len: u8,
}

impl ColourList {
    pub(crate) const EMPTY: ColourList = ColourList {
        colours: [Colour::Yellow; 4],
        len: 0,
    };

    pub(crate) fn push(&mut self, colour: Colour) {
        self.colours[self.len as usize] = colour;
        self.len += 1;
    }

    #[inline]
    pub(crate) fn as_slice(&self) -> &[Colour] {
        &self.colours[..self.len as usize]
    }

    #[inline]
    pub(crate) fn contains(&self, colour: Colour) -> bool {
        self.as_slice().contains(&colour)
    }
}

/// The square of a piece that is not on the track (in the base, the home column or finished).
pub(crate) const OFF_TRACK: u8 = u8::MAX;

/// A roll-off entry: out of the roll-off, waiting to throw, or the face thrown.
pub(crate) const ROLLOFF_OUT: u8 = 0;
pub(crate) const ROLLOFF_WAITING: u8 = 7;

/// The track squares one colour's pieces stand on, one bit per square: kept beside the pieces so
/// that the move generator reads the board's occupancy instead of working it out on every throw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Stands {
    /// Squares holding at least one piece of the colour.
    pub(crate) once: u64,
    /// Squares holding two or more pieces of the colour: its blockades.
    pub(crate) twice: u64,
}

impl Stands {
    /// Where pieces on these track squares (or [`OFF_TRACK`]) stand.
    #[inline]
    pub(crate) fn of(squares: [u8; 4]) -> Stands {
        let (mut once, mut twice) = (0u64, 0u64);
        for square in squares {
            // A piece off the track lands on bit 63, above every track square, cleared below.
            let bit = 1u64 << (square & 63);
            twice |= once & bit;
            once |= bit;
        }
        const TRACK: u64 = !(1 << 63);
        Stands {
            once: once & TRACK,
            twice: twice & TRACK,
        }
    }
}

/// The state of the current turn (`position.md` §1, field `turn`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Turn {
    pub(crate) seat: Colour,
    pub(crate) phase: Phase,
    pub(crate) roll: Option<Throw>,
    pub(crate) bonus_streak: u8,
    pub(crate) throws: u8,
    pub(crate) rolloff: BySeat<u8>,
}

impl Turn {
    pub(crate) fn fresh(seat: Colour, phase: Phase) -> Turn {
        Turn {
            seat,
            phase,
            roll: None,
            bonus_streak: 0,
            throws: 0,
            rolloff: BySeat([ROLLOFF_OUT; 4]),
        }
    }
}

/// A game that can be played: rules, seats, pieces and turn, always a position that can occur.
///
/// Read one from JSON with [`Game::from_json`] (or from a [`crate::Setup`]), or start one with
/// [`Game::new`]; act on it with [`Game::roll`] and [`Game::play`], which leave it unchanged on
/// error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Game {
    pub(crate) rules: Rules,
    pub(crate) geometry: Geometry,
    pub(crate) seats: ColourList,
    pub(crate) arm: BySeat<u8>,
    /// Each seat's start square, kept beside its arm for the move generator.
    pub(crate) start: BySeat<u8>,
    /// The seat after each seat in turn order, kept for passing the turn.
    pub(crate) next: BySeat<Colour>,
    pub(crate) pieces: BySeat<[Progress; 4]>,
    /// The track square of every piece, or [`OFF_TRACK`]: kept beside `pieces` for the move
    /// generator, and changed only with them.
    pub(crate) squares: BySeat<[u8; 4]>,
    /// Each colour's squares as masks, worked out from `squares` whenever they change.
    pub(crate) stands: BySeat<Stands>,
    pub(crate) turn: Turn,
    pub(crate) done: ColourList,
    pub(crate) places: Option<BySeat<u8>>,
}

impl Game {
    /// The rules in force.
    #[inline]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The options in force.
    #[inline]
    pub fn options(&self) -> &Options {
        self.rules.options()
    }

    /// The board's numbers.
    #[inline]
    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// The seats in turn order.
    #[inline]
    pub fn seats(&self) -> &[Colour] {
        self.seats.as_slice()
    }

    /// The arm a seat sits on.
    #[inline]
    pub fn arm(&self, seat: Colour) -> u8 {
        self.arm[seat]
    }

    /// A seat's four pieces by index.
    #[inline]
    pub fn pieces(&self, seat: Colour) -> [Progress; 4] {
        self.pieces[seat]
    }

    /// The seat to act (in phase `over`, the seat that made the last move).
    #[inline]
    pub fn seat(&self) -> Colour {
        self.turn.seat
    }

    /// The phase of the game.
    #[inline]
    pub fn phase(&self) -> Phase {
        self.turn.phase
    }

    /// In phase `move`, the throw being played.
    #[inline]
    pub fn roll_in_play(&self) -> Option<Throw> {
        self.turn.roll
    }

    /// Bonus throws in a row this turn.
    #[inline]
    pub fn bonus_streak(&self) -> u8 {
        self.turn.bonus_streak
    }

    /// Throws made this turn.
    #[inline]
    pub fn throws(&self) -> u8 {
        self.turn.throws
    }

    /// In phase `rolloff`: `None` for a seat out of the roll-off, `Some(None)` for a seat still
    /// to throw, `Some(Some(face))` for a seat that has thrown.
    pub fn rolloff(&self, seat: Colour) -> Option<Option<u8>> {
        match self.turn.rolloff[seat] {
            ROLLOFF_OUT => None,
            ROLLOFF_WAITING => Some(None),
            face => Some(Some(face)),
        }
    }

    /// The seats that finished all their pieces, in the order they did.
    #[inline]
    pub fn done(&self) -> &[Colour] {
        self.done.as_slice()
    }

    /// In phase `over`, every seat's place (shared places repeat).
    pub fn place(&self, seat: Colour) -> Option<u8> {
        self.places.map(|p| p[seat])
    }

    /// Whether the game has ended.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.turn.phase == Phase::Over
    }

    /// How many dice the seat to act throws now: one in a roll-off, else the rules' dice.
    pub fn dice_to_throw(&self) -> u8 {
        match self.turn.phase {
            Phase::Rolloff => 1,
            _ => self.options().dice,
        }
    }
}

/// Each seat's start square on this board.
pub(crate) fn start_squares(geometry: &Geometry, arm: &BySeat<u8>) -> BySeat<u8> {
    BySeat(arm.0.map(|a| geometry.start_square(a)))
}

/// The seat after each seat in turn order (unseated colours map to themselves).
pub(crate) fn next_seats(seats: &ColourList) -> BySeat<Colour> {
    let mut next = BySeat(Colour::ALL);
    let order = seats.as_slice();
    for (i, &seat) in order.iter().enumerate() {
        next[seat] = order[(i + 1) % order.len()];
    }
    next
}
