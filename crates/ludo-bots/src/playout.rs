//! Playing a whole game with seeded dice and CPU players: what simulations, benchmarks and
//! arenas are made of.

use ludo_rules::{Game, MoveList, Phase, Throw};

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
    if game.dice_to_throw() == 1 {
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
                let moves = game.roll_unchecked(throw_dice(game, dice));
                tally.throws += 1;
                if !moves.is_empty() {
                    play_choice(game, &moves, players, choices);
                    tally.moves += 1;
                }
            }
            Phase::Move => {
                play_choice(game, &game.legal_moves(), players, choices);
                tally.moves += 1;
            }
        }
    }
    (game.phase() == Phase::Over).then_some(tally)
}

/// The seat to play chooses one of `moves`, and the game plays it.
#[inline]
fn play_choice(
    game: &mut Game,
    moves: &MoveList,
    players: &mut [&mut dyn Player],
    choices: &mut Rng,
) {
    let player = if players.len() == 1 {
        &mut players[0]
    } else {
        let seat = game.seat();
        let index = game.seats().iter().position(|&s| s == seat).unwrap_or(0);
        &mut players[index % players.len()]
    };
    let m = player.choose(game, moves, choices);
    game.play_unchecked(&m);
}
