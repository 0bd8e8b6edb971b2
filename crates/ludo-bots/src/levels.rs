//! The CPU levels and the players behind them.

use std::fmt;
use std::str::FromStr;

use ludo_rules::{Game, Move, MoveList};

use crate::expert::ExpertPlayer;
use crate::hard::HardPlayer;
use crate::heuristic::{Scorer, Weights};
use crate::player::{Player, RandomPlayer};
use crate::rng::Rng;

/// A CPU strength.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    /// A uniformly random legal move.
    Random,
    /// Sensible, with the mistakes of a beginner.
    Easy,
    /// A solid one-move heuristic.
    Medium,
    /// A one-ply expectimax over the opponents' throws, close moves settled by rollouts.
    Hard,
    /// A value network learned against `medium`, close moves settled by rollouts.
    Expert,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 5] = [
        Level::Random,
        Level::Easy,
        Level::Medium,
        Level::Hard,
        Level::Expert,
    ];

    /// The level's name, as on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Level::Random => "random",
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Expert => "expert",
        }
    }

    /// Whether this level plays as itself in a game under `rules` with `seats` seats:
    /// `expert` only where its network was trained ([`crate::expert::plays`]), every other level
    /// everywhere. Where it does not, the level is not offered.
    pub fn plays(self, rules: &ludo_rules::Rules, seats: usize) -> bool {
        self != Level::Expert || crate::expert::plays(rules, seats)
    }

    /// A player of this level.
    pub fn player(self) -> Box<dyn Player + Send> {
        match self {
            Level::Random => Box::new(RandomPlayer),
            Level::Easy => Box::new(EasyPlayer),
            Level::Medium => Box::new(MediumPlayer),
            Level::Hard => Box::new(HardPlayer::default()),
            Level::Expert => Box::new(ExpertPlayer::default()),
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Level {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Level::ALL
            .into_iter()
            .find(|l| l.name() == s)
            .ok_or_else(|| format!("`{s}` is not a level (random, easy, medium, hard, expert)"))
    }
}

/// The best-scoring move; ties go to the lowest piece index.
pub(crate) fn best(game: &Game, moves: &MoveList, weights: Weights) -> Move {
    let first = *moves
        .get(0)
        .expect("a choice is made among at least one move");
    if moves.len() == 1 {
        return first;
    }
    let scorer = Scorer::new(game, weights);
    let mut best = (scorer.score(&first), first);
    for m in moves.iter().skip(1) {
        let score = scorer.score(m);
        if score > best.0 {
            best = (score, *m);
        }
    }
    best.1
}

/// `medium`: the best move by the one-move heuristic.
#[derive(Clone, Copy, Debug, Default)]
pub struct MediumPlayer;

impl Player for MediumPlayer {
    fn name(&self) -> &'static str {
        "medium"
    }

    fn choose(&mut self, game: &Game, moves: &MoveList, _rng: &mut Rng) -> Move {
        best(game, moves, Weights::MEDIUM)
    }
}

/// `easy`: greedy for captures and exits, blind to danger, and one move in three made without
/// thinking.
#[derive(Clone, Copy, Debug, Default)]
pub struct EasyPlayer;

impl Player for EasyPlayer {
    fn name(&self) -> &'static str {
        "easy"
    }

    fn choose(&mut self, game: &Game, moves: &MoveList, rng: &mut Rng) -> Move {
        if rng.below(3) == 0 {
            return RandomPlayer.choose(game, moves, rng);
        }
        best(game, moves, Weights::EASY)
    }
}
