//! How the expert's value networks are learned: by temporal differences (TD(λ)), playing against
//! `medium` (or `random`) players in every other seat of the game the network is for (its
//! [`Key`]).
//!
//! The learner plays each game greedily on its own network (the move whose position after it
//! the network values most), taking the seats in turn game by game. After each game every
//! position it moved to is moved toward its λ-return: the outcome (1 for a win, 0 otherwise)
//! for the last, and for each earlier one `(1 − λ)` times the value of the next position plus
//! `λ` times the next one's return. The dice of game `n` come from `seed` and `n`, so a run is
//! repeatable.

use ludo_rules::{Colour, Game, Phase};

use super::features::encode;
use super::greedy;
use super::net::Net;
use crate::levels::Level;
use crate::playout::throw_dice;
use crate::rng::Rng;

/// The settings of a training run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Training {
    /// Games to play.
    pub games: u64,
    /// Where the dice come from.
    pub seed: u64,
    /// Step size of each update.
    pub rate: f32,
    /// How far back each outcome reaches (0: the next position only, 1: the outcome only).
    pub lambda: f32,
    /// The level of the players it learns against.
    pub opponents: Level,
}

impl Training {
    /// The settings the shipped networks were trained with, for `games` games against three
    /// players of level `opponents`.
    pub const fn standard(games: u64, seed: u64, opponents: Level) -> Training {
        Training {
            games,
            seed,
            rate: 0.01,
            lambda: 0.7,
            opponents,
        }
    }
}

/// One position the learner moved to: its inputs and the value it had then.
struct Step {
    active: Vec<u16>,
    value: f32,
}

/// Trains `net` for the game its key names as `training` says. `progress` hears, every `every` games and after the last,
/// the network so far, how many games were played, and how many of the games since it last
/// heard the learner won, of how many.
pub fn train(
    net: &mut Net,
    training: &Training,
    every: u64,
    mut progress: impl FnMut(&Net, u64, u64, u64),
) {
    let fresh = net.key().variant.game();
    let seats = fresh.seats().to_vec();
    let mut steps = Vec::new();
    let (mut won_lately, mut reported) = (0, 0);
    for n in 0..training.games {
        let learner = seats[(n % seats.len() as u64) as usize];
        let seed = training.seed.wrapping_mul(1_000_003).wrapping_add(n);
        steps.clear();
        let won = play_against(net, fresh, (training.opponents, learner), seed, &mut steps);
        won_lately += u64::from(won);
        let mut target = if won { 1.0 } else { 0.0 };
        for t in (0..steps.len()).rev() {
            net.learn(&steps[t].active, target, training.rate);
            target = (1.0 - training.lambda) * steps[t].value + training.lambda * target;
        }
        let played = n + 1;
        if played % every.max(1) == 0 || played == training.games {
            progress(net, played, won_lately, played - reported);
            (won_lately, reported) = (0, played);
        }
    }
}

/// Plays `game` (one that has not started) until a seat is done: `learner` greedy on `net`, the
/// others players of level `opponents`. Records the learner's positions after its moves; whether
/// it won.
fn play_against(
    net: &Net,
    mut game: Game,
    (opponents, learner): (Level, Colour),
    seed: u64,
    steps: &mut Vec<Step>,
) -> bool {
    let mut dice = Rng::new(seed);
    let mut choices = Rng::new(!seed);
    let mut others = opponents.player();
    let mut active = Vec::new();
    while game.done().is_empty() && game.phase() != Phase::Over {
        let moves = match game.phase() {
            Phase::Move => game.legal_moves(),
            _ => game.roll_unchecked(throw_dice(&game, &mut dice)),
        };
        if moves.is_empty() {
            continue;
        }
        let m = if game.seat() == learner {
            let (m, value) = greedy(net, &game, &moves, &mut active);
            let mut after = game;
            after.play_unchecked(&m);
            encode(&after, learner, &mut active);
            steps.push(Step {
                active: active.clone(),
                value,
            });
            m
        } else {
            others.choose(&game, &moves, &mut choices)
        };
        game.play_unchecked(&m);
    }
    game.done().first() == Some(&learner)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expert::Key;

    #[test]
    fn training_is_repeatable_and_changes_the_network() {
        let run = || {
            let mut net = Net::untrained(Key::STANDARD, 1);
            train(
                &mut net,
                &Training::standard(20, 5, Level::Medium),
                10,
                |_, _, _, _| {},
            );
            net
        };
        let (a, b) = (run(), run());
        assert_eq!(a, b);
        assert_ne!(a, Net::untrained(Key::STANDARD, 1));
    }

    #[test]
    fn progress_is_heard_every_so_many_games_and_after_the_last() {
        let mut heard = Vec::new();
        let mut net = Net::untrained(Key::STANDARD, 1);
        train(
            &mut net,
            &Training::standard(25, 5, Level::Random),
            10,
            |_, n, won, of| heard.push((n, won, of)),
        );
        let counts: Vec<(u64, u64)> = heard.iter().map(|h| (h.0, h.2)).collect();
        assert_eq!(counts, [(10, 10), (20, 10), (25, 5)]);
        assert!(heard.iter().all(|&(_, won, of)| won <= of));
    }
}
