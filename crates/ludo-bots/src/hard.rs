//! `hard`: a one-ply expectimax. Each candidate move is played; then, for every opponent in
//! turn, every throw it could make is weighed by its chance, the opponent answers as `medium`
//! would, and the position is valued by a race evaluation. The move with the best expected value
//! is played. Everything goes through the engine, so every house rule is read as it is.

use ludo_rules::{Colour, Game, Move, MoveList, Phase, Throw};

use crate::heuristic::{Scorer, Weights};
use crate::player::Player;
use crate::rng::Rng;

/// The throws of one roll and their chances (two dice as unordered pairs).
fn outcomes(dice: u8) -> Vec<(Throw, f32)> {
    if dice == 1 {
        return (1..=6).map(|d| (Throw::one(d), 1.0 / 6.0)).collect();
    }
    let mut all = Vec::with_capacity(21);
    for d1 in 1..=6 {
        for d2 in d1..=6 {
            let chance = if d1 == d2 { 1.0 } else { 2.0 } / 36.0;
            all.push((Throw::two(d1, d2), chance));
        }
    }
    all
}

/// What the race evaluation counts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Evaluation {
    /// A piece out of the base is worth this many squares more than its progress.
    pub out: f32,
    /// A piece in the home column (out of reach) is worth this many squares more.
    pub home: f32,
    /// A finished piece is worth this many squares more.
    pub finished: f32,
    /// How much the strongest opponent's race counts against ours.
    pub leader: f32,
    /// How much the opponents' mean race counts against ours.
    pub field: f32,
    /// An extra throw, in squares.
    pub extra_throw: f32,
    /// How many squares one point of the `medium` heuristic's score is worth.
    pub heuristic: f32,
}

impl Evaluation {
    /// The evaluation `hard` plays with.
    pub const HARD: Evaluation = Evaluation {
        out: 12.0,
        home: 6.0,
        finished: 6.0,
        leader: 0.4,
        field: 0.6,
        extra_throw: 4.0,
        heuristic: 1.0,
    };

    /// One seat's race: what its pieces are worth.
    fn race(&self, game: &Game, seat: Colour) -> f32 {
        let g = game.geometry();
        game.pieces(seat)
            .iter()
            .filter_map(|p| p.steps())
            .map(|steps| {
                let mut value = self.out + f32::from(steps);
                if steps > g.door() {
                    value += self.home;
                }
                if g.is_finished(steps) {
                    value += self.finished;
                }
                value
            })
            .sum()
    }

    /// How good `game` is for `me`.
    pub fn value(&self, game: &Game, me: Colour) -> f32 {
        if let Some(place) = game.place(me) {
            return if place == 1 { 1.0e6 } else { -1.0e6 };
        }
        if game.done().contains(&me) {
            return 1.0e6;
        }
        let mine = self.race(game, me);
        let (mut leader, mut sum, mut count) = (0.0f32, 0.0, 0);
        for &other in game.seats() {
            if other != me && !game.done().contains(&other) {
                let race = self.race(game, other);
                leader = leader.max(race);
                sum += race;
                count += 1;
            }
        }
        let mean = if count == 0 { 0.0 } else { sum / count as f32 };
        mine - self.leader * leader - self.field * mean
    }
}

/// The `hard` player.
#[derive(Clone, Debug)]
pub struct HardPlayer {
    evaluation: Evaluation,
    outcomes: [Vec<(Throw, f32)>; 2],
}

impl Default for HardPlayer {
    fn default() -> Self {
        HardPlayer::new(Evaluation::HARD)
    }
}

impl HardPlayer {
    /// A `hard` player with its own evaluation.
    pub fn new(evaluation: Evaluation) -> HardPlayer {
        HardPlayer {
            evaluation,
            outcomes: [outcomes(1), outcomes(2)],
        }
    }

    /// The expected value for `me` after `opponent` throws once in `game` and answers as
    /// `medium` would.
    fn after_reply(&self, game: &Game, me: Colour, opponent: Colour) -> f32 {
        let scorer = Scorer::for_seat(game, opponent, Weights::MEDIUM);
        let still = self.evaluation.value(game, me);
        let outcomes = &self.outcomes[usize::from(game.options().dice == 2)];
        outcomes
            .iter()
            .map(|&(throw, chance)| {
                let moves = game.moves_of(opponent, throw);
                let value = match best_of(&moves, |m| scorer.score(m)) {
                    None => still,
                    Some(reply) => self.evaluation.value(&game.with_move(opponent, &reply), me),
                };
                chance * value
            })
            .sum()
    }

    /// The expected value of playing `m` in `game` for the seat to play.
    fn value_of(&self, game: &Game, m: &Move, scorer: &Scorer) -> f32 {
        let me = game.seat();
        let heuristic = self.evaluation.heuristic * scorer.score(m);
        let mut after = *game;
        after.play_unchecked(m);
        let now = self.evaluation.value(&after, me);
        if after.phase() == Phase::Over {
            return now;
        }
        let mut value = now + heuristic;
        for &other in game.seats() {
            if other != me {
                value += self.after_reply(&after, me, other) - now;
            }
        }
        if after.seat() == me && after.phase() == Phase::Roll {
            value += self.evaluation.extra_throw;
        }
        value
    }
}

/// The move with the highest value; ties go to the lowest piece index.
fn best_of(moves: &MoveList, mut value: impl FnMut(&Move) -> f32) -> Option<Move> {
    let mut best: Option<(f32, Move)> = None;
    for m in moves.iter() {
        let v = value(m);
        if best.is_none_or(|(b, _)| v > b) {
            best = Some((v, *m));
        }
    }
    best.map(|(_, m)| m)
}

impl Player for HardPlayer {
    fn name(&self) -> &'static str {
        "hard"
    }

    fn choose(&mut self, game: &Game, moves: &MoveList, _rng: &mut Rng) -> Move {
        if moves.len() == 1 {
            return *moves.get(0).expect("one move");
        }
        let scorer = Scorer::new(game, Weights::MEDIUM);
        best_of(moves, |m| self.value_of(game, m, &scorer))
            .expect("a choice is made among at least one move")
    }
}
