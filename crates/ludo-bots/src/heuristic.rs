//! The one-move heuristic behind `easy` and `medium`: what a move captures, whether it leaves the
//! base, reaches home, escapes or walks into danger, builds or breaks a blockade, and how far it
//! goes, each read from the rules in force.

use ludo_rules::{Colour, Game, Move, Passing};

use crate::danger::Danger;

/// How much each feature of a move is worth.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// Per captured piece.
    pub capture: f32,
    /// Per captured piece, times the victim's share of the way home.
    pub victim_progress: f32,
    /// Leaving the base.
    pub exit: f32,
    /// Finishing a piece.
    pub finish: f32,
    /// Entering the home column from the track (safe from then on).
    pub home: f32,
    /// Times the change in danger, weighted by what the piece has travelled.
    pub safety: f32,
    /// Forming a blockade (where blockades block).
    pub blockade: f32,
    /// Per square moved.
    pub progress: f32,
    /// Per square moved, times the piece's share of the way home (favours the leading piece).
    pub lead: f32,
}

impl Weights {
    /// The weights of `medium`.
    /// Tuned by coordinate search on win rate against three random players under `qdan`.
    pub const MEDIUM: Weights = Weights {
        capture: 7.0,
        victim_progress: 10.0,
        exit: 13.5,
        finish: 8.0,
        home: 7.0,
        safety: 16.0,
        blockade: 1.25,
        progress: 0.08,
        lead: 0.075,
    };

    /// The weights of `easy`: greedy for captures and exits, blind to danger.
    pub const EASY: Weights = Weights {
        capture: 10.0,
        victim_progress: 0.0,
        exit: 8.0,
        finish: 6.0,
        home: 2.0,
        safety: 0.0,
        blockade: 0.0,
        progress: 0.1,
        lead: 0.0,
    };
}

/// Scores the moves of one decision.
pub struct Scorer<'a> {
    game: &'a Game,
    seat: Colour,
    danger: Option<Danger>,
    weights: Weights,
}

impl<'a> Scorer<'a> {
    /// A scorer for the seat to play in `game`.
    pub fn new(game: &'a Game, weights: Weights) -> Scorer<'a> {
        Scorer::for_seat(game, game.seat(), weights)
    }

    /// A scorer for the moves of `seat` in `game`, whoever is to act.
    pub fn for_seat(game: &'a Game, seat: Colour, weights: Weights) -> Scorer<'a> {
        let danger = (weights.safety != 0.0).then(|| Danger::new(game, seat));
        Scorer {
            game,
            seat,
            danger,
            weights,
        }
    }

    /// What a piece at `steps` has travelled, as a share of the way (0..=1).
    fn share(&self, steps: u8) -> f32 {
        f32::from(steps) / f32::from(self.game.geometry().last())
    }

    /// How exposed a piece of the seat would be at `steps` with `mates` own pieces beside it.
    fn exposure(&self, steps: u8, mates: usize) -> f32 {
        let (Some(danger), Some(square)) = (
            &self.danger,
            self.game
                .track_square(self.seat, ludo_rules::Progress::at(steps)),
        ) else {
            return 0.0;
        };
        let g = self.game.geometry();
        let shielded_by_blockade = mates >= 1 && self.game.options().passing == Passing::Blockades;
        if g.is_safe(square) || shielded_by_blockade {
            return 0.0;
        }
        danger.at(square) * (0.5 + self.share(steps))
    }

    /// Own pieces other than `piece` standing on progress `steps` on the track.
    fn mates_at(&self, piece: u8, steps: u8) -> usize {
        self.game
            .pieces(self.seat)
            .iter()
            .enumerate()
            .filter(|&(i, p)| i != usize::from(piece) && p.steps() == Some(steps))
            .count()
    }

    /// The score of one legal move: higher is better.
    pub fn score(&self, m: &Move) -> f32 {
        let w = &self.weights;
        let g = self.game.geometry();
        let door = g.door();
        let to = m.to.steps().unwrap_or(0);
        let mut score = 0.0;
        for (colour, index) in m.captures.iter() {
            let victim = self.game.pieces(colour)[index].steps().unwrap_or(0);
            score += w.capture + w.victim_progress * self.share(victim);
        }
        match m.from.steps() {
            None => score += w.exit,
            Some(from) => {
                let count = f32::from(to - from);
                score += w.progress * count + w.lead * count * self.share(from);
                if from <= door {
                    score += w.safety * self.exposure(from, self.mates_at(m.piece, from));
                }
            }
        }
        if g.is_finished(to) {
            score += w.finish;
        } else if to > door {
            if m.from.steps().is_some_and(|f| f <= door) {
                score += w.home;
            }
        } else {
            let mates = self.mates_at(m.piece, to);
            score -= w.safety * self.exposure(to, mates);
            let blockades_matter = self.game.options().passing == Passing::Blockades;
            if blockades_matter && mates == 1 {
                score += w.blockade;
            }
        }
        if let Some(from) = m.from.steps()
            && from <= door
            && self.game.options().passing == Passing::Blockades
            && self.mates_at(m.piece, from) == 1
        {
            score -= w.blockade * 0.5;
        }
        score
    }
}
