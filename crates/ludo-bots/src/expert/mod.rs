//! `expert`: value networks learned by playing against `medium` and against `random` (see
//! [`train`]), checked by rollouts on the moves they find close.
//!
//! The opponents are modelled by their level ([`Model`]): against three `random` players the
//! network learned against `random` values positions and the rollouts play the others at random;
//! against anyone else (people, and every other level) the network learned against `medium`
//! values them and the rollouts play the others as `medium`.
//!
//! Each legal move is played on a copy of the game and the position after it valued by the
//! network: the chance that the mover wins ([`Net::value`] of [`features::encode`]). The moves
//! within [`Search::margin`] of the best are then played on [`Search::samples`] times each, on
//! the same dice for every candidate: the other seats as the model says, the mover greedily on
//! the network, until the mover has made [`Search::decisions`] more moves; the network's value of
//! the position after the last of them (1 or 0 where a seat finished first) is averaged. The
//! candidate with the best average is played. Against `medium` the rollouts model the opponents
//! exactly, and the network values where they stop far better than a hand-set evaluation.
//!
//! Each network was learned for one preset's rules, number of seats and board (the cross, or one
//! arm per seat: [`Variant`]); the list is
//! [`TRAINED`], and the network learned against `random` is used only where there is one. Where
//! there is no network (a house rule changed, or a game without one), `expert` is not offered
//! ([`plays`]); should one play there anyway, and once a seat is done (when only places are left
//! to play for), it plays as `hard`.
//!
//! Natively the networks are built into the program ([`network`]). The browser's module leaves
//! them out (they would weigh on every page's first load) and is handed the one its game needs
//! with [`install`] when an `expert` is first asked for; until then `expert` plays as `hard`
//! there. In the browser an expert's opponents are the person and CPUs of its own level, so it
//! never needs the one learned against `random`.
//!
//! Deterministic: the rollouts' dice come from the generator handed to [`Player::choose`].

mod features;
mod net;
mod networks;
mod train;

use ludo_rules::{Colour, Game, Move, MoveList, Phase};

pub use features::{INPUTS, Shape, encode};
pub use net::{HIDDEN, Net, NetError};
#[cfg(not(target_arch = "wasm32"))]
pub use networks::BYTES;
pub use networks::{Key, TRAINED, Variant, fits, install, network, plays};
pub use train::{Training, train};

use crate::hard::HardPlayer;
use crate::levels::Level;
use crate::player::Player;
use crate::playout::throw_dice;
use crate::rng::Rng;
use crate::rollout::{Sampling, sample_by};

/// Who `expert` expects the other seats to play like.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Model {
    /// As `medium`: people, and every level but `random`.
    Medium,
    /// At random: every other seat is a `random` CPU.
    Random,
}

impl Model {
    /// The model for these opponents (each a CPU's level, or `None` for a person).
    pub fn of(opponents: &[Option<Level>]) -> Model {
        let all_random = opponents.iter().all(|o| *o == Some(Level::Random));
        if all_random && !opponents.is_empty() {
            Model::Random
        } else {
            Model::Medium
        }
    }

    /// The level its rollouts play the other seats as.
    fn level(self) -> Level {
        match self {
            Model::Medium => Level::Medium,
            Model::Random => Level::Random,
        }
    }
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
    /// The search `expert` plays with against `medium` (and people): rollouts of four of its
    /// own moves.
    pub const AGAINST_MEDIUM: Search = Search {
        margin: 0.05,
        candidates: 4,
        samples: 64,
        decisions: 4,
    };

    /// The search `expert` plays with against three `random` players: each rollout lasts until
    /// its own next move. Against opponents who move at random, the network's value just after
    /// the others' turns says more than where longer rollouts end, whose dice add noise and no
    /// insight (measured on 2,000-game seeds: 85.5% of wins with eight moves on one seed, 87.4%
    /// with four on two, 88.6% with two on three, 88.9% with one on six).
    pub const AGAINST_RANDOM: Search = Search {
        decisions: 1,
        ..Search::AGAINST_MEDIUM
    };

    /// The search for opponents modelled as `model`.
    pub const fn of(model: Model) -> Search {
        match model {
            Model::Medium => Search::AGAINST_MEDIUM,
            Model::Random => Search::AGAINST_RANDOM,
        }
    }

    /// The close moves and rollouts as [`crate::rollout::sample_by`] reads them: the mean of
    /// the rollouts alone decides (the network's value of the move itself adds nothing), and
    /// each rollout counts the mover's own moves, not turns.
    fn sampling(&self) -> Sampling {
        Sampling {
            margin: self.margin,
            candidates: self.candidates,
            samples: self.samples,
            turns: 0,
            blend: 0.0,
        }
    }
}

/// The `expert` player: its opponents are modelled as `medium` until it is told otherwise
/// ([`Player::facing`]).
#[derive(Clone, Debug)]
pub struct ExpertPlayer {
    model: Model,
    hard: HardPlayer,
}

impl Default for ExpertPlayer {
    fn default() -> Self {
        ExpertPlayer {
            model: Model::Medium,
            hard: HardPlayer::default(),
        }
    }
}

impl ExpertPlayer {
    /// Whom it models its opponents as.
    pub fn model(&self) -> Model {
        self.model
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

/// The value for `me` of `game` after `m` (a move that wins is worth 1).
pub(crate) fn value_after(
    net: &Net,
    game: &Game,
    m: &Move,
    me: Colour,
    active: &mut Vec<u16>,
) -> f32 {
    let mut after = *game;
    after.play_unchecked(m);
    if after.done().first() == Some(&me) {
        return 1.0;
    }
    encode(&after, me, active);
    net.value(active)
}

/// Plays `game` on, the other seats as `model` says and `me` greedily on `net`, until `me` has
/// made `decisions` moves or a seat is done; the value for `me` of where it stopped. Dice come
/// from `dice`, the others' choices (at random) from `choices`.
fn roll_out(
    net: &Net,
    model: Model,
    game: &mut Game,
    me: Colour,
    (dice, choices): (&mut Rng, &mut Rng),
    decisions: u32,
) -> f32 {
    let mut active = Vec::with_capacity(64);
    let mut others = model.level().player();
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
            others.choose(game, &moves, choices)
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

    fn facing(&mut self, opponents: &[Option<Level>]) {
        self.model = Model::of(opponents);
    }

    fn choose(&mut self, game: &Game, moves: &MoveList, rng: &mut Rng) -> Move {
        if moves.len() == 1 {
            return *moves.get(0).expect("one move");
        }
        let seats = game.seats().len();
        let net = match network(game.rules(), seats, self.model) {
            Some(net) if game.done().is_empty() => net,
            _ => return self.hard.choose(game, moves, rng),
        };
        let me = game.seat();
        let mut active = Vec::with_capacity(64);
        let valued: Vec<(f32, Move)> = moves
            .iter()
            .map(|m| (value_after(net, game, m, me, &mut active), *m))
            .collect();
        let (model, search) = (self.model, Search::of(self.model));
        let decisions = search.decisions;
        sample_by(game, &valued, &search.sampling(), rng, |next, seed| {
            let (mut dice, mut choices) = (Rng::new(seed), Rng::new(!seed));
            roll_out(net, model, next, me, (&mut dice, &mut choices), decisions)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ludo_rules::Rules;

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
    fn in_every_game_with_a_network_expert_chooses_by_it_not_as_hard() {
        for key in TRAINED.iter().filter(|k| k.model == Model::Medium) {
            let mut game = key.variant.game();
            let mut dice = Rng::new(8);
            let (mut compared, mut differ) = (0, 0);
            while game.done().is_empty() && compared < 100 {
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
            eprintln!("{key}: {differ} of {compared} choices differ");
            assert!(
                differ >= compared / 20,
                "{key}: {differ} of {compared} choices differ"
            );
        }
    }

    #[test]
    fn only_three_random_opponents_are_modelled_as_random() {
        let random = Some(Level::Random);
        assert_eq!(Model::of(&[random, random, random]), Model::Random);
        assert_eq!(Model::of(&[random, None, random]), Model::Medium);
        assert_eq!(Model::of(&[random, Some(Level::Easy)]), Model::Medium);
        assert_eq!(Model::of(&[]), Model::Medium);
        let mut expert = ExpertPlayer::default();
        assert_eq!(expert.model(), Model::Medium);
        expert.facing(&[random; 3]);
        assert_eq!(expert.model(), Model::Random);
        // Against random players the rollouts are shorter.
        assert_eq!(Search::of(Model::Random).decisions, 1);
        assert_eq!(Search::of(Model::Medium).decisions, 4);
    }

    #[test]
    fn with_a_house_rule_changed_expert_plays_as_hard() {
        let house = Rules::check_json(r#"{"preset": "classic", "stacking": false}"#).unwrap();
        let mut game = Game::new(house, &Colour::ALL).unwrap();
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
