//! An analysis of a played game, as `expert`'s network sees it: each seat's chance to win after
//! every action, and at every decision the move the network values most beside the one played.
//!
//! The record's actions are replayed from the start (no seed needed: a local game has none). A
//! position's chances are the network's value of it from each seat's point of view
//! ([`expert::encode`], [`Net::value`]), scaled so that they sum to 1; once a seat has finished
//! first, 1 for it and 0 for the others. A decision is a move made where the legal moves lead to
//! at least two different positions, before anyone has finished: each move is valued for the
//! mover as `expert` values it ([`Choice`]).
//!
//! Only games a network knows can be analysed ([`expert::fits`]: a preset without house rules,
//! for a number of seats it has learned); see [`AnalysisError`]. An analysis may cover part of the game (`range`), so that
//! a page can show its progress; [`Analysis::join`] puts the parts together, and the
//! highlights ([`Analysis::turning_points`], [`Analysis::costly`], [`Analysis::summary`]) read a
//! whole one.
//!
//! ```
//! use ludo_bots::analysis::analyse;
//! use ludo_bots::expert::{Model, network};
//! use ludo_fair::Action;
//! use ludo_rules::{Colour, Rules, Throw};
//!
//! let actions = [Action::Throw(Throw::one(6)), Action::Move(0)];
//! let net = network(&Rules::default(), 4, Model::Medium);
//! let analysis = analyse(Rules::default(), &Colour::ALL, &actions, net, 0..2).unwrap();
//! assert_eq!(analysis.chances.len(), 3); // the start, and after each action
//! ```

mod error;
mod highlights;
mod json;

use std::ops::Range;

use ludo_fair::{Action, VerifyError};
use ludo_rules::{Colour, Game, Phase, Rules};

use crate::expert::{self, Net, greedy, value_after};

pub use error::AnalysisError;
pub use highlights::{COSTLY, Summary, TURNING, TURNING_POINTS, TurningPoint};

/// A decision: a move made where the legal moves led to at least two different positions, each
/// valued for the mover as `expert` values it (the network's value of the position after it; a
/// move that wins is worth 1).
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    /// The move's index among the record's actions.
    pub action: usize,
    /// The seat that moved.
    pub seat: Colour,
    /// The piece moved.
    pub played: u8,
    /// The piece whose move the network values most (the one played when it is worth as much).
    pub best: u8,
    /// The mover's chance to win after the move played.
    pub played_chance: f32,
    /// The mover's chance after the best move.
    pub best_chance: f32,
    /// The mover's chance after the worst move.
    pub worst_chance: f32,
}

impl Choice {
    /// What the move played cost the mover: its chance after the best move less its chance
    /// after the move played (0 when it played the best).
    pub fn cost(&self) -> f32 {
        self.best_chance - self.played_chance
    }
}

/// A game's analysis, whole or in part.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// The seats in turn order: the order of each row of [`Analysis::chances`].
    pub seats: Vec<Colour>,
    /// How many actions the record has.
    pub actions: usize,
    /// How many actions were played before the first row's position.
    pub first: usize,
    /// Each seat's chance to win, a row per position: `chances[k]` after `first + k` actions
    /// (the start when that is 0).
    pub chances: Vec<Vec<f32>>,
    /// The decisions among the actions covered, in order.
    pub choices: Vec<Choice>,
}

impl Analysis {
    /// Whether it covers the whole game, from the start to the last action.
    pub fn is_whole(&self) -> bool {
        self.first == 0 && self.chances.len() == self.actions + 1
    }

    /// Appends the analysis of the actions that follow this one's (the next part of the game).
    ///
    /// # Panics
    /// When `next` is another game's, or does not start where this one ends.
    pub fn join(&mut self, next: Analysis) {
        assert!(
            next.seats == self.seats
                && next.actions == self.actions
                && next.first == self.first + self.chances.len(),
            "the parts of one game's analysis, in order"
        );
        self.chances.extend(next.chances);
        self.choices.extend(next.choices);
    }
}

/// Analyses the actions in `range` (clamped to the record) of the game `actions` record, played
/// under `rules` by `seats`: the chances after each of them (and at the start when the range
/// starts at 0), and the decisions among them. Every action is replayed, those outside the
/// range too, so that any part of a record answers the same error.
///
/// `net` values the positions: `expert`'s network learned against `medium`
/// for the game (`expert::network(rules, seats, Model::Medium)`); one learned for another game
/// counts as none.
///
/// # Errors
/// Rules or seats that make no game; a game the network does not know
/// ([`AnalysisError::Unavailable`]); then no network ([`AnalysisError::NoNetwork`]: the game is
/// checked first, so that a page learns whether a game can be analysed without fetching one);
/// an action the rules refuse, with its index.
pub fn analyse(
    rules: Rules,
    seats: &[Colour],
    actions: &[Action],
    net: Option<&Net>,
    range: Range<usize>,
) -> Result<Analysis, AnalysisError> {
    let mut game = Game::new(rules, seats).map_err(VerifyError::Setup)?;
    if !expert::fits(&game) {
        return Err(AnalysisError::Unavailable);
    }
    let variant = expert::Variant::of(&rules, seats.len());
    let net = net
        .filter(|net| Some(net.key().variant) == variant)
        .ok_or(AnalysisError::NoNetwork)?;
    let to = range.end.min(actions.len());
    let from = range.start.min(to);
    let mut analysis = Analysis {
        seats: seats.to_vec(),
        actions: actions.len(),
        first: if from == 0 { 0 } else { from + 1 },
        chances: Vec::with_capacity(to - from + 1),
        choices: Vec::new(),
    };
    let mut active = Vec::with_capacity(64);
    if from == 0 {
        analysis.chances.push(chances(net, &game, &mut active));
    }
    for (index, &action) in actions.iter().enumerate() {
        let covered = (from..to).contains(&index);
        if let (true, Action::Move(piece)) = (covered, action) {
            analysis
                .choices
                .extend(choice(net, &game, index, piece, &mut active));
        }
        action
            .apply(&mut game)
            .map_err(|error| VerifyError::Illegal { index, error })?;
        if covered {
            analysis.chances.push(chances(net, &game, &mut active));
        }
    }
    Ok(analysis)
}

/// Each seat's chance to win in `game`, in seat order; `active` is scratch space.
fn chances(net: &Net, game: &Game, active: &mut Vec<u16>) -> Vec<f32> {
    let seats = game.seats();
    if let Some(&winner) = game.done().first() {
        return seats.iter().map(|&s| f32::from(s == winner)).collect();
    }
    let values: Vec<f32> = seats
        .iter()
        .map(|&seat| {
            expert::encode(game, seat, active);
            net.value(active)
        })
        .collect();
    let sum: f32 = values.iter().sum();
    values.iter().map(|v| v / sum).collect()
}

/// The decision of action `index`, moving `piece` in `game`: none when the move is not legal
/// (the replay answers that), when every legal move leads to the same position, or once a seat
/// has finished (only places are left to play for, which the network does not value).
fn choice(
    net: &Net,
    game: &Game,
    index: usize,
    piece: u8,
    active: &mut Vec<u16>,
) -> Option<Choice> {
    if game.phase() != Phase::Move || !game.done().is_empty() {
        return None;
    }
    let moves = game.legal_moves();
    let played = moves.of_piece(piece)?;
    // Moves from and to the same places lead to the same position, whichever piece moves.
    if moves
        .iter()
        .all(|m| (m.from, m.to) == (played.from, played.to))
    {
        return None;
    }
    let me = game.seat();
    let (best, best_chance) = greedy(net, game, &moves, active);
    let mut value = |m| value_after(net, game, m, me, active);
    let played_chance = value(played);
    let worst_chance = moves.iter().map(value).fold(f32::INFINITY, f32::min);
    let best = if played_chance >= best_chance {
        piece
    } else {
        best.piece
    };
    Some(Choice {
        action: index,
        seat: me,
        played: piece,
        best,
        played_chance,
        best_chance,
        worst_chance,
    })
}
