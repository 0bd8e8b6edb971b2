//! How likely each track square is to be hit by an opponent on the opponents' next throws, read
//! from the rules in force: the dice, exit throws, bonus faces and what blocks a moving piece.

use ludo_rules::{Colour, Game, Passing};

/// The chance of moving exactly `d` squares (index `d`, 0..=12) with one turn's first throws.
fn reach(game: &Game) -> [f32; 13] {
    let o = game.options();
    let mut p = [0.0f32; 13];
    if o.dice == 2 {
        for d1 in 1..=6 {
            for d2 in 1..=6 {
                p[d1 + d2] += 1.0 / 36.0;
            }
        }
    } else {
        for d in 1..=6u8 {
            p[d as usize] += 1.0 / 6.0;
            if o.bonus_values.contains(d) {
                // A bonus face moves again: approximately, the same piece moves on.
                for e in 1..=6 {
                    p[d as usize + e] += 1.0 / 36.0;
                }
            }
        }
    }
    p
}

/// The chance that one throw brings a piece out of the base.
fn exit_chance(game: &Game) -> f32 {
    let o = game.options();
    if o.dice == 1 {
        return o.exit_values.faces().count() as f32 / 6.0;
    }
    let mut hits = 0;
    for d1 in 1..=6u8 {
        for d2 in 1..=6u8 {
            if o.exit_values.contains(d1)
                || o.exit_values.contains(d2)
                || (o.exit_on_double && d1 == d2)
            {
                hits += 1;
            }
        }
    }
    hits as f32 / 36.0
}

/// Per track square, the summed chance that an opponent of one seat lands there next.
pub struct Danger {
    hit: [f32; 64],
}

impl Danger {
    /// The danger to `seat`'s pieces in `game` as it stands.
    pub fn new(game: &Game, seat: Colour) -> Danger {
        let g = game.geometry();
        let len = usize::from(g.track_len());
        // Squares holding pieces of each colour (`once`) and two or more of them (`twice`).
        let mut once = [0u64; 4];
        let mut twice = [0u64; 4];
        for &c in game.seats() {
            for p in game.pieces(c) {
                if let Some(sq) = game.track_square(c, p) {
                    let bit = 1u64 << sq;
                    twice[c.index()] |= once[c.index()] & bit;
                    once[c.index()] |= bit;
                }
            }
        }
        let all = once.iter().fold(0, |a, m| a | m);
        let reach = reach(game);
        let exit = exit_chance(game);
        let mut hit = [0.0f32; 64];
        for &other in game.seats() {
            if other == seat || game.done().contains(&other) {
                continue;
            }
            let mover = other.index();
            // The squares that stop a piece of `other` from going further.
            let stops = match game.options().passing {
                Passing::Free => 0,
                Passing::Blockades => (0..4).filter(|&c| c != mover).fold(0, |a, c| a | twice[c]),
                Passing::Opponents => all & !once[mover],
                Passing::Any => all,
            };
            let pieces = game.pieces(other);
            if pieces.iter().any(|p| p.is_base()) {
                let start = g.start_square(game.arm(other));
                hit[usize::from(start)] += exit;
            }
            for p in pieces {
                let (Some(steps), Some(sq)) = (p.steps(), game.track_square(other, p)) else {
                    continue;
                };
                let furthest = (usize::from(g.door()) - usize::from(steps)).min(12);
                let mut at = usize::from(sq);
                for &chance in &reach[1..=furthest] {
                    at += 1;
                    if at == len {
                        at = 0;
                    }
                    hit[at] += chance;
                    if stops >> at & 1 != 0 {
                        break;
                    }
                }
            }
        }
        Danger { hit }
    }

    /// The chance that `square` is hit, capped at 1.
    #[inline]
    pub fn at(&self, square: u8) -> f32 {
        self.hit[usize::from(square)].min(1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(json: &str) -> Game {
        Game::from_json(json).unwrap()
    }

    #[test]
    fn a_piece_six_squares_ahead_of_an_opponent_is_in_danger_and_seven_less_so() {
        let g = game(
            r#"{"rules":{"preset":"qdan","bonus_values":[]},"seats":["yellow","red"],
            "pieces":{"yellow":[10,"base","base","base"],"red":[30,"base","base","base"]},
            "turn":{"seat":"yellow","phase":"roll"}}"#,
        );
        let danger = Danger::new(&g, Colour::Red);
        assert!((danger.at(16) - 1.0 / 6.0).abs() < 1e-6);
        assert_eq!(danger.at(17), 0.0);
        // Red's pieces in the base threaten red's start only for yellow: not for red itself.
        assert_eq!(Danger::new(&g, Colour::Yellow).at(26), 1.0 / 6.0);
    }

    #[test]
    fn with_passing_opponents_a_piece_shields_those_behind_it() {
        let g = game(
            r#"{"rules":"classic","seats":["yellow","red"],
            "pieces":{"yellow":[10,"base","base","base"],"red":[ 38, 40,"base","base"]},
            "turn":{"seat":"yellow","phase":"roll"}}"#,
        );
        // Red's pieces stand on squares 12 and 14; yellow at 10 reaches 12 but not past it.
        let danger = Danger::new(&g, Colour::Red);
        assert!(danger.at(12) > 0.0);
        assert_eq!(danger.at(13), 0.0);
    }
}
