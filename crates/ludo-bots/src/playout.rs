//! Playing a whole game with seeded dice and CPU players: what simulations, benchmarks and
//! arenas are made of.

#[cfg(not(target_arch = "wasm32"))]
use ludo_rules::Qdan;
use ludo_rules::{Game, Move, MoveList, Own, Phase, Rulebook, Throw};

use crate::player::Player;
use crate::rng::Rng;

/// What one game counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Throws made, roll-off throws included.
    pub throws: u64,
    /// Moves played.
    pub moves: u64,
}

impl Tally {
    /// Actions: throws and moves.
    pub const fn actions(&self) -> u64 {
        self.throws + self.moves
    }
}

impl std::ops::AddAssign for Tally {
    fn add_assign(&mut self, other: Tally) {
        self.throws += other.throws;
        self.moves += other.moves;
    }
}

/// One throw of the dice the game asks for now.
#[inline]
pub fn throw_dice(game: &Game, rng: &mut Rng) -> Throw {
    throw_of(game.dice_to_throw(), rng)
}

/// One throw of `dice` dice (1 or 2).
#[inline(always)]
fn throw_of(dice: u8, rng: &mut Rng) -> Throw {
    if dice == 1 {
        Throw::one(rng.die())
    } else {
        Throw::two(rng.die(), rng.die())
    }
}

/// Plays `game` to its end with the fast path: `dice` throws, `choose` picks each move for the
/// seat to play (by its index in [`Game::seats`]). Gives up after `max_actions` (a game that
/// long would be a bug) and returns `None` then.
pub fn play_out(
    game: &mut Game,
    dice: &mut Rng,
    players: &mut [&mut dyn Player],
    choices: &mut Rng,
    max_actions: u64,
) -> Option<Tally> {
    if let [only] = players {
        return play_out_by(game, dice, &mut **only, choices, max_actions);
    }
    play_out_choosing(game, dice, choices, max_actions, |game, moves, rng| {
        let seat = game.seat();
        let index = game.seats().iter().position(|&s| s == seat).unwrap_or(0);
        players[index % players.len()].choose(game, moves, rng)
    })
}

/// [`play_out`] with one player for every seat, its type known when compiled: its choices are
/// inlined into the loop (what random simulations and the engine's benchmark use).
pub fn play_out_by<P: Player + ?Sized>(
    game: &mut Game,
    dice: &mut Rng,
    player: &mut P,
    choices: &mut Rng,
    max_actions: u64,
) -> Option<Tally> {
    play_out_choosing(game, dice, choices, max_actions, |game, moves, rng| {
        player.choose(game, moves, rng)
    })
}

/// The playout loop, with `choose` picking each move among the legal ones. A `qdan` game is
/// played with the preset's rules known when compiled ([`Qdan`]); in the browser every game
/// reads its own, which keeps the module one loop smaller.
#[inline(always)]
fn play_out_choosing(
    game: &mut Game,
    dice: &mut Rng,
    choices: &mut Rng,
    max_actions: u64,
    choose: impl FnMut(&Game, &MoveList, &mut Rng) -> Move,
) -> Option<Tally> {
    #[cfg(not(target_arch = "wasm32"))]
    if let Some(qdan) = Qdan::of(game) {
        return play_out_by_rules(qdan, game, dice, choices, max_actions, choose);
    }
    play_out_by_rules(Own, game, dice, choices, max_actions, choose)
}

/// [`play_out_choosing`] with the rules read from `rules`.
#[inline(always)]
fn play_out_by_rules<R: Rulebook>(
    rules: R,
    game: &mut Game,
    dice: &mut Rng,
    choices: &mut Rng,
    max_actions: u64,
    mut choose: impl FnMut(&Game, &MoveList, &mut Rng) -> Move,
) -> Option<Tally> {
    let mut tally = Tally::default();
    while tally.actions() < max_actions {
        match game.phase() {
            Phase::Over => return Some(tally),
            Phase::Rolloff => {
                game.roll(throw_dice(game, dice))
                    .expect("a roll-off takes one die");
                tally.throws += 1;
            }
            Phase::Roll => {
                // Outside a roll-off, the rules' dice.
                let throw = throw_of(rules.options(game).dice, dice);
                let moves = game.roll_by(rules, throw);
                tally.throws += 1;
                if !moves.is_empty() {
                    let m = choose(game, &moves, choices);
                    game.play_by(rules, &m);
                    tally.moves += 1;
                }
            }
            Phase::Move => {
                let m = choose(game, &game.legal_moves(), choices);
                game.play_by(rules, &m);
                tally.moves += 1;
            }
        }
    }
    (game.phase() == Phase::Over).then_some(tally)
}
