//! The rules of Ludo — the Qdan-style default with its house rules, the classic rules — and of the
//! Vietnamese two-dice game cờ cá ngựa, as one pure engine: no I/O, no clock, no randomness (a
//! throw is always an input).
//!
//! A position is read from JSON (the shape of `spec/position.md`) into a checked [`Game`], played
//! with [`Game::roll`] and [`Game::play`], and written back with [`Game::to_json`].
//!
//! ```
//! use ludo_rules::{Colour, Game, Phase, Rules, Throw};
//!
//! let mut game = Game::new(Rules::default(), &[Colour::Yellow, Colour::Red]).unwrap();
//! let moves = game.roll(Throw::one(6)).unwrap();
//! assert_eq!(moves.len(), 4); // every piece may leave the base
//! game.play(0).unwrap();
//! assert_eq!(game.phase(), Phase::Roll); // a six earns another throw
//! assert_eq!(game.seat(), Colour::Yellow);
//! ```
//!
//! # Layers
//!
//! Each module uses only modules of the layers before it, and of its own layer only those listed
//! before it, so no two modules depend on each other:
//!
//! 1. values: `error` (the [`Fault`] trait and the `faults!` macro every error enum is declared
//!    with), `colour`, `progress`, `moves`, `throw`, `options`;
//! 2. what the options make: `board` (the [`Geometry`]) and `rules` ([`Rules`]);
//! 3. the state: `game` ([`Game`], [`Phase`] and the turn's counters);
//! 4. reading the rules from a game: `rulebook`, then `pieces` (where pieces stand);
//! 5. play: `movegen`, `nomove`, `places`, `turn` (throws and moves, and [`PlayError`]), then
//!    `position` (starting and reading positions, and [`PositionError`]).
//!
//! Each error is declared beside the code that raises it, in the module of its layer
//! (`error.rs` explains how); [`all_codes`] gathers their codes.

mod board;
mod colour;
mod error;
mod game;
mod movegen;
mod moves;
mod nomove;
mod options;
mod pieces;
mod places;
mod position;
mod progress;
mod rulebook;
mod rules;
mod throw;
mod turn;

pub use board::Geometry;
pub use colour::{BySeat, Colour, UnknownColour};
pub use error::Fault;
pub use game::{Game, Phase};
pub use moves::{Captures, Move, MoveList};
pub use nomove::{Refusal, WhyNoMove};
pub use options::{
    Board, FaceSet, FirstPlayer, Layout, NoPieceOut, Options, OptionsError, Passing, Preset, Safe,
};
pub use position::{PositionError, PositionFault, Setup, TurnSetup};
pub use progress::Progress;
pub use rulebook::{Own, Qdan, Rulebook};
pub use rules::Rules;
pub use throw::{Throw, ThrowError};
pub use turn::{Act, PlayError};

/// Every code an engine error may have: positions, options, illegal actions and throws. No code
/// belongs to two kinds (`tests/error_codes.rs` checks, and that `docs/protocol.md` lists each).
pub fn all_codes() -> Vec<&'static str> {
    [
        PositionFault::CODES,
        OptionsError::CODES,
        PlayError::CODES,
        ThrowError::CODES,
    ]
    .concat()
}
