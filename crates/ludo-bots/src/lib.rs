//! CPU players for Ludo and cờ cá ngựa, the seeded generator they use, and whole-game playouts.
//!
//! ```
//! use ludo_bots::{RandomPlayer, Rng, play_out};
//! use ludo_rules::{Colour, Game, Rules};
//!
//! let mut game = Game::new(Rules::default(), &Colour::ALL).unwrap();
//! let mut random = RandomPlayer;
//! let tally = play_out(&mut game, &mut Rng::new(1), &mut [&mut random], &mut Rng::new(2), 100_000);
//! assert!(game.is_over() && tally.unwrap().moves > 0);
//! ```

pub mod analysis;
mod arena;
mod danger;
pub mod expert;
mod hard;
mod heuristic;
mod levels;
mod player;
mod playout;
mod rng;
mod rollout;

pub use analysis::{Analysis, AnalysisError, Choice, analyse};
pub use arena::{ArenaError, Entrant, Standings, run_arena, seats_for};
pub use danger::Danger;
pub use expert::ExpertPlayer;
pub use hard::{Evaluation, HardPlayer};
pub use heuristic::{Scorer, Weights};
pub use levels::{EasyPlayer, Level, MediumPlayer};
pub use player::{Player, RandomPlayer};
pub use playout::{Tally, play_out, play_out_by, throw_dice};
pub use rng::Rng;
pub use rollout::Sampling;
