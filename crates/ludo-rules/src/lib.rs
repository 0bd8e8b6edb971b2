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

mod board;
mod colour;
mod error;
mod game;
mod movegen;
mod moves;
mod nomove;
mod options;
mod places;
mod position;
mod progress;
mod rulebook;
mod rules;
mod throw;
mod turn;

pub use board::Geometry;
pub use colour::{BySeat, Colour, UnknownColour};
pub use error::{Act, Fault, PlayError, PositionError, PositionFault, all_codes};
pub use game::{Game, Phase};
pub use moves::{Captures, Move, MoveList};
pub use nomove::{Refusal, WhyNoMove};
pub use options::{
    Board, FaceSet, FirstPlayer, Layout, NoPieceOut, Options, OptionsError, Passing, Preset, Safe,
};
pub use position::{Setup, TurnSetup};
pub use progress::Progress;
pub use rulebook::{Own, Qdan, Rulebook};
pub use rules::Rules;
pub use throw::{Throw, ThrowError};
