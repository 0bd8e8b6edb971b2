//! The one trait every CPU player implements, and the simplest player.

use ludo_rules::{Game, Move, MoveList};

use crate::levels::Level;
use crate::rng::Rng;

/// A CPU player: a position in phase `move` and its legal moves in, one of those moves out.
///
/// Players see only the rules API and the generator they are handed, so the same position and
/// the same seed give the same choice.
pub trait Player {
    /// The level's name, as written on the command line.
    fn name(&self) -> &'static str;

    /// Chooses one of `moves` (never empty), the legal moves of `game`.
    fn choose(&mut self, game: &Game, moves: &MoveList, rng: &mut Rng) -> Move;

    /// Tells the player who it plays against: each other seat's CPU level, or `None` for a
    /// person. Only `expert` takes it into account (see [`crate::expert::Model`]).
    fn facing(&mut self, _opponents: &[Option<Level>]) {}
}

/// The baseline: a uniformly random legal move.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomPlayer;

impl Player for RandomPlayer {
    fn name(&self) -> &'static str {
        "random"
    }

    #[inline]
    fn choose(&mut self, _game: &Game, moves: &MoveList, rng: &mut Rng) -> Move {
        let pick = rng.below(moves.len() as u32) as usize;
        *moves
            .get(pick)
            .expect("a choice is made among at least one move")
    }
}
