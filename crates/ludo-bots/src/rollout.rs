//! Choosing among close candidate moves by truncated rollouts: each candidate is played on for
//! a few turns by `medium` in every seat, every candidate on the same dice (common random
//! numbers, so that the dice's luck cancels out of the comparison), and the positions reached
//! are valued.

use ludo_rules::{Game, Move, Phase};

use crate::heuristic::Weights;
use crate::levels::best;
use crate::playout::throw_dice;
use crate::rng::Rng;

/// How the close candidates of a decision are sampled.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sampling {
    /// Candidates within this many squares of the best searched value are sampled.
    pub margin: f32,
    /// At most this many candidates (the best searched) are sampled.
    pub candidates: usize,
    /// Rollouts per candidate (0: no sampling, the best searched move is played).
    pub samples: u32,
    /// Turns each rollout lasts.
    pub turns: u32,
    /// How much the searched value counts next to the rollouts' mean.
    pub blend: f32,
}

impl Sampling {
    /// Sampling as `hard` does it: up to 4 candidates within 20 squares of the best, 128
    /// rollouts of 16 turns each, the mean leaf value added to the searched value.
    ///
    /// Chosen by arenas of 2,000 games (seed 7, ± 2.1) against three `medium` players under
    /// `qdan`, where the searched value alone won 30.6%: 3 candidates within 10 squares and 64
    /// rollouts of 8 turns, 30.7%; of 16 turns, 33.3%; of 8 turns added to the searched value,
    /// 33.4%; 4 candidates within 20 squares, 16 turns, added: 34.6%, with 128 rollouts 35.5%
    /// (32 turns with 64 rollouts, 35.3%); 6 candidates within 40 squares, 32.6%.
    pub const HARD: Sampling = Sampling {
        margin: 20.0,
        candidates: 4,
        samples: 128,
        turns: 16,
        blend: 1.0,
    };
}

/// Chooses among `searched` (legal moves of `game` with their searched values, at least one).
/// The candidates close to the best are each played, then rolled out [`Sampling::samples`]
/// times on shared dice drawn from `rng`, and `leaf` values where each rollout stopped; the
/// candidate with the highest mean leaf value plus [`Sampling::blend`] times its searched value
/// is chosen (ties to the one searched best). Without close rivals, or once a seat is done,
/// the best searched move is chosen.
pub fn sample(
    game: &Game,
    searched: &[(f32, Move)],
    sampling: &Sampling,
    rng: &mut Rng,
    leaf: impl Fn(&Game) -> f32,
) -> Move {
    sample_by(game, searched, sampling, rng, |next, seed| {
        roll_out(next, &mut Rng::new(seed), sampling.turns);
        leaf(next)
    })
}

/// [`sample`] with rollouts of one's own: `roll` plays each candidate's position on, from the
/// seed every candidate shares in that round, and values where it stopped
/// ([`Sampling::turns`] is not read here).
pub(crate) fn sample_by(
    game: &Game,
    searched: &[(f32, Move)],
    sampling: &Sampling,
    rng: &mut Rng,
    mut roll: impl FnMut(&mut Game, u64) -> f32,
) -> Move {
    let s = sampling;
    let top = searched.iter().map(|x| x.0).fold(f32::MIN, f32::max);
    let mut close: Vec<(f32, Move)> = searched
        .iter()
        .filter(|x| x.0 >= top - s.margin)
        .copied()
        .collect();
    // Stable: among equal values the first listed stays first.
    close.sort_by(|a, b| b.0.total_cmp(&a.0));
    close.truncate(s.candidates.max(1));
    if close.len() == 1 || s.samples == 0 || !game.done().is_empty() {
        return close[0].1;
    }
    let mut seeds = rng.fork();
    let mut sums = vec![0.0f32; close.len()];
    for _ in 0..s.samples {
        let seed = seeds.next_u64();
        for (sum, (_, m)) in sums.iter_mut().zip(&close) {
            let mut next = *game;
            next.play_unchecked(m);
            *sum += roll(&mut next, seed);
        }
    }
    let n = s.samples as f32;
    let mut best = (f32::MIN, close[0].1);
    for (sum, (value, m)) in sums.iter().zip(&close) {
        let score = sum / n + s.blend * value;
        if score > best.0 {
            best = (score, *m);
        }
    }
    best.1
}

/// Plays `game` on with `medium` in every seat until `turns` turns have passed (a turn passes
/// when the seat to play changes) or the game is over. Dice come from `dice`.
pub fn roll_out(game: &mut Game, dice: &mut Rng, turns: u32) {
    let mut seat = game.seat();
    let mut passed = 0;
    while passed < turns {
        match game.phase() {
            Phase::Over => return,
            Phase::Rolloff => {
                game.roll(throw_dice(game, dice))
                    .expect("a roll-off takes one die");
            }
            Phase::Roll => {
                let moves = game.roll_unchecked(throw_dice(game, dice));
                if !moves.is_empty() {
                    let m = best(game, &moves, Weights::MEDIUM);
                    game.play_unchecked(&m);
                }
            }
            Phase::Move => {
                let m = best(game, &game.legal_moves(), Weights::MEDIUM);
                game.play_unchecked(&m);
            }
        }
        if game.seat() != seat {
            seat = game.seat();
            passed += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ludo_rules::{Colour, Rules};

    fn start() -> Game {
        Game::new(Rules::default(), &Colour::ALL).unwrap()
    }

    #[test]
    fn a_rollout_stops_once_the_asked_turns_have_passed() {
        for seed in 0..50 {
            let mut game = start();
            roll_out(&mut game, &mut Rng::new(seed), 4);
            // Four turns from yellow's first: the turn is back with yellow, or the game is over.
            assert!(
                game.is_over() || game.seat() == Colour::Yellow,
                "seed {seed}"
            );
        }
    }

    #[test]
    fn rollouts_on_the_same_dice_end_in_the_same_position() {
        let (mut a, mut b) = (start(), start());
        roll_out(&mut a, &mut Rng::new(3), 40);
        roll_out(&mut b, &mut Rng::new(3), 40);
        assert_eq!(a, b);
    }

    #[test]
    fn a_move_far_ahead_of_the_others_is_chosen_without_rollouts() {
        let game = Game::from_json(
            r#"{"rules":"qdan","seats":["yellow","red"],
            "pieces":{"yellow":[10,20,"base","base"],"red":[39,"base","base","base"]},
            "turn":{"seat":"yellow","phase":"move","roll":[3],"throws":1}}"#,
        )
        .unwrap();
        let moves = game.legal_moves();
        let (first, second) = (*moves.get(0).unwrap(), *moves.get(1).unwrap());
        let searched = [(0.0, first), (Sampling::HARD.margin + 1.0, second)];
        let mut rng = Rng::new(1);
        let leaf = |_: &Game| -> f32 { panic!("no rollout was needed") };
        assert_eq!(
            sample(&game, &searched, &Sampling::HARD, &mut rng, leaf),
            second
        );
        assert_eq!(rng, Rng::new(1));
    }

    #[test]
    fn a_long_enough_rollout_ends_the_game() {
        let mut game = start();
        roll_out(&mut game, &mut Rng::new(5), 100_000);
        assert!(game.is_over());
    }
}
