//! `expert`: a value network learned by playing against `medium` (see [`train`]), checked by
//! rollouts on the moves it finds close.
//!
//! Each legal move is played on a copy of the game and the position after it valued by the
//! network: the chance that the mover wins ([`Net::value`] of [`features::encode`]). The moves
//! within [`Search::margin`] of the best are then played on [`Search::samples`] times each, on
//! the same dice for every candidate: the other seats as `medium` plays, the mover greedily on the
//! network, until the mover has made [`Search::decisions`] more moves; the network's value of the
//! position after the last of them (1 or 0 where a seat finished first) is averaged. The
//! candidate with the best average is played. Against `medium` the rollouts model the opponents
//! exactly, and the network values where they stop far better than a hand-set evaluation.
//!
//! The network was trained for `qdan` with four seats (see [`features::fits`]). Under other
//! rules and seat counts, and once a seat is done (when only places are left to play for),
//! `expert` plays as `hard`.
//!
//! Natively the network is built into the program ([`shipped`]). The browser's module leaves
//! it out (it would weigh on every page's first load) and is handed its bytes with
//! [`install`] when an `expert` is first asked for; until then `expert` plays as `hard` there.
//!
//! Deterministic: the rollouts' dice come from the generator handed to [`Player::choose`].

mod features;
mod net;
mod train;

use std::sync::OnceLock;

use ludo_rules::{Colour, Game, Move, MoveList, Phase};

pub use features::{INPUTS, encode, fits};
pub use net::{HIDDEN, Net, NetError};
pub use train::{Training, train};

use crate::hard::HardPlayer;
use crate::levels::MediumPlayer;
use crate::player::Player;
use crate::playout::throw_dice;
use crate::rng::Rng;

/// The network `expert` plays with, built into native programs.
#[cfg(not(target_arch = "wasm32"))]
const SHIPPED: &[u8] = include_bytes!("value.bin");

/// The network in use, read once.
static NETWORK: OnceLock<Net> = OnceLock::new();

/// The network `expert` plays with: natively always; in the browser once [`install`]ed.
pub fn shipped() -> Option<&'static Net> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        Some(NETWORK.get_or_init(|| Net::from_bytes(SHIPPED).expect("the shipped network reads")))
    }
    #[cfg(target_arch = "wasm32")]
    {
        NETWORK.get()
    }
}

/// Hands over the network's bytes (those of `value.bin`, as the server serves them). Natively
/// the built-in network is kept and the bytes are only checked.
///
/// # Errors
/// When the bytes are not a network of this shape.
pub fn install(bytes: &[u8]) -> Result<(), NetError> {
    let net = Net::from_bytes(bytes)?;
    let _ = NETWORK.set(net);
    Ok(())
}

/// How `expert` checks its close moves.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Search {
    /// Moves within this chance of winning of the best are checked.
    pub margin: f32,
    /// At most this many moves (the best valued) are checked.
    pub candidates: usize,
    /// Rollouts per checked move.
    pub samples: u32,
    /// Moves of the mover's own each rollout lasts.
    pub decisions: u32,
}

impl Search {
    /// The search `expert` plays with.
    pub const EXPERT: Search = Search {
        margin: 0.05,
        candidates: 4,
        samples: 64,
        decisions: 4,
    };
}

/// The `expert` player.
#[derive(Clone, Debug)]
pub struct ExpertPlayer {
    net: Option<&'static Net>,
    search: Search,
    hard: HardPlayer,
}

impl Default for ExpertPlayer {
    fn default() -> Self {
        ExpertPlayer::new(shipped(), Search::EXPERT)
    }
}

impl ExpertPlayer {
    /// An `expert` with this network (as `hard` without one) and search.
    pub fn new(net: Option<&'static Net>, search: Search) -> ExpertPlayer {
        ExpertPlayer {
            net,
            search,
            hard: HardPlayer::default(),
        }
    }
}

/// The move whose position after it `net` values most for the seat to play (a move that wins
/// is worth 1), with that value; `active` is scratch space.
pub(crate) fn greedy(
    net: &Net,
    game: &Game,
    moves: &MoveList,
    active: &mut Vec<u16>,
) -> (Move, f32) {
    let me = game.seat();
    let mut best: Option<(f32, Move)> = None;
    for m in moves.iter() {
        let value = value_after(net, game, m, me, active);
        if best.is_none_or(|(b, _)| value > b) {
            best = Some((value, *m));
        }
    }
    let (value, m) = best.expect("a choice is made among at least one move");
    (m, value)
}

/// The value for `me` of `game` after `m`.
fn value_after(net: &Net, game: &Game, m: &Move, me: Colour, active: &mut Vec<u16>) -> f32 {
    let mut after = *game;
    after.play_unchecked(m);
    if after.done().first() == Some(&me) {
        return 1.0;
    }
    encode(&after, me, active);
    net.value(active)
}

/// Plays `game` on, the other seats as `medium` and `me` greedily on `net`, until `me` has made
/// `decisions` moves or a seat is done; the value for `me` of where it stopped.
fn roll_out(net: &Net, game: &mut Game, me: Colour, dice: &mut Rng, decisions: u32) -> f32 {
    let mut active = Vec::with_capacity(64);
    let mut unused = Rng::new(0);
    let mut made = 0;
    let mut last = None;
    loop {
        if let Some(first) = game.done().first() {
            return if *first == me { 1.0 } else { 0.0 };
        }
        if made == decisions {
            break;
        }
        let moves = match game.phase() {
            Phase::Move => game.legal_moves(),
            Phase::Over => break,
            _ => game.roll_unchecked(throw_dice(game, dice)),
        };
        if moves.is_empty() {
            continue;
        }
        let m = if game.seat() == me {
            let (m, value) = greedy(net, game, &moves, &mut active);
            made += 1;
            last = Some(value);
            m
        } else {
            last = None;
            MediumPlayer.choose(game, &moves, &mut unused)
        };
        game.play_unchecked(&m);
    }
    last.unwrap_or_else(|| {
        encode(game, me, &mut active);
        net.value(&active)
    })
}

impl Player for ExpertPlayer {
    fn name(&self) -> &'static str {
        "expert"
    }

    fn choose(&mut self, game: &Game, moves: &MoveList, rng: &mut Rng) -> Move {
        if moves.len() == 1 {
            return *moves.get(0).expect("one move");
        }
        let net = match self.net {
            Some(net) if fits(game) && game.done().is_empty() => net,
            _ => return self.hard.choose(game, moves, rng),
        };
        let s = &self.search;
        let me = game.seat();
        let mut active = Vec::with_capacity(64);
        let mut valued: Vec<(f32, Move)> = moves
            .iter()
            .map(|m| (value_after(net, game, m, me, &mut active), *m))
            .collect();
        // Stable: among equal values the first listed stays first.
        valued.sort_by(|a, b| b.0.total_cmp(&a.0));
        let top = valued[0].0;
        valued.retain(|v| v.0 >= top - s.margin);
        valued.truncate(s.candidates.max(1));
        if valued.len() == 1 || s.samples == 0 {
            return valued[0].1;
        }
        let mut seeds = rng.fork();
        let mut sums = vec![0.0f32; valued.len()];
        for _ in 0..s.samples {
            let seed = seeds.next_u64();
            for (sum, (_, m)) in sums.iter_mut().zip(&valued) {
                let mut next = *game;
                next.play_unchecked(m);
                *sum += roll_out(net, &mut next, me, &mut Rng::new(seed), s.decisions);
            }
        }
        let mut best = (f32::MIN, valued[0].1);
        for (sum, (_, m)) in sums.iter().zip(&valued) {
            if *sum > best.0 {
                best = (*sum, *m);
            }
        }
        best.1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ludo_rules::{Preset, Rules};

    #[test]
    fn the_shipped_network_reads_and_installing_its_bytes_is_accepted() {
        assert!(shipped().is_some());
        install(SHIPPED).unwrap();
        assert!(install(b"not a network").is_err());
    }

    #[test]
    fn expert_takes_a_capture_that_sends_a_runner_home() {
        // Blue's piece near its door, three squares ahead of yellow's: taking it is worth more
        // than anything else yellow can do with a 3.
        let game = Game::from_json(
            r#"{"rules":"qdan","seats":["yellow","blue","red","green"],
            "pieces":{"yellow":[30,2,"base","base"],"blue":[20,"base","base","base"],
            "red":["base","base","base","base"],"green":["base","base","base","base"]},
            "turn":{"seat":"yellow","phase":"move","roll":[3],"throws":1}}"#,
        )
        .unwrap();
        let moves = game.legal_moves();
        let m = ExpertPlayer::default().choose(&game, &moves, &mut Rng::new(1));
        assert!(!m.captures.is_empty(), "{m:?}");
    }

    #[test]
    fn under_qdan_with_four_seats_expert_chooses_by_its_network_not_as_hard() {
        let mut game = Game::new(Rules::default(), &Colour::ALL).unwrap();
        let mut dice = Rng::new(8);
        let (mut compared, mut differ) = (0, 0);
        while game.done().is_empty() && compared < 200 {
            let moves = game.roll_unchecked(throw_dice(&game, &mut dice));
            if moves.is_empty() {
                continue;
            }
            let expert = ExpertPlayer::default().choose(&game, &moves, &mut Rng::new(4));
            if moves.len() > 1 {
                let hard = HardPlayer::default().choose(&game, &moves, &mut Rng::new(4));
                compared += 1;
                differ += usize::from(expert != hard);
            }
            game.play_unchecked(&expert);
        }
        assert!(
            differ >= compared / 20,
            "{differ} of {compared} choices differ"
        );
    }

    #[test]
    fn outside_the_rules_it_knows_expert_plays_as_hard() {
        let mut game = Game::new(Rules::preset(Preset::Classic), &Colour::ALL).unwrap();
        let mut dice = Rng::new(3);
        let mut compared = 0;
        while !game.is_over() && compared < 40 {
            let moves = game.roll_unchecked(throw_dice(&game, &mut dice));
            if moves.is_empty() {
                continue;
            }
            let expert = ExpertPlayer::default().choose(&game, &moves, &mut Rng::new(4));
            let hard = HardPlayer::default().choose(&game, &moves, &mut Rng::new(4));
            assert_eq!(expert, hard);
            compared += usize::from(moves.len() > 1);
            game.play_unchecked(&expert);
        }
        assert!(compared >= 10);
    }
}
