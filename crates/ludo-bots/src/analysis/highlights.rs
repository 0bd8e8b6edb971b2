//! What a page points out in a game's analysis: the turning points, the costly moves, and each
//! seat's best and costliest decisions.

use ludo_rules::Colour;

use super::{Analysis, Choice};

/// A seat's chance changing by at least this much in one action makes a turning point.
pub const TURNING: f32 = 0.10;

/// At most this many turning points are named.
pub const TURNING_POINTS: usize = 5;

/// A move that cost its mover at least this much of its chance to win is costly.
pub const COSTLY: f32 = 0.05;

/// An action that changed a seat's chance to win by at least [`TURNING`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TurningPoint {
    /// The action's index in the record.
    pub action: usize,
    /// The seat whose chance it changed most.
    pub seat: Colour,
    /// Its chance before the action.
    pub before: f32,
    /// Its chance after.
    pub after: f32,
}

impl TurningPoint {
    /// How much the seat's chance changed.
    fn change(&self) -> f32 {
        (self.after - self.before).abs()
    }
}

/// A seat's most telling decisions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// The action of its best decision: the best move played, ahead of the worst by the most.
    pub best: Option<usize>,
    /// The action of its costliest move, among its costly ones ([`COSTLY`]).
    pub costliest: Option<usize>,
}

impl Choice {
    /// Whether the move cost its mover at least [`COSTLY`].
    pub fn is_costly(&self) -> bool {
        self.cost() >= COSTLY
    }
}

/// Of `choices`, the first of those that score most (by `score`, when it is `Some`).
fn top<'a>(
    choices: impl Iterator<Item = &'a Choice>,
    score: impl Fn(&Choice) -> Option<f32>,
) -> Option<usize> {
    let scored = choices.filter_map(|c| Some((score(c)?, c.action)));
    scored
        .fold(None, |top: Option<(f32, usize)>, (s, action)| match top {
            Some((t, _)) if t >= s => top,
            _ => Some((s, action)),
        })
        .map(|(_, action)| action)
}

impl Analysis {
    /// The actions (among those covered) that changed some seat's chance by at least
    /// [`TURNING`], the biggest change first, at most [`TURNING_POINTS`]; each names the seat
    /// whose chance changed most.
    pub fn turning_points(&self) -> Vec<TurningPoint> {
        let mut points: Vec<TurningPoint> = Vec::with_capacity(TURNING_POINTS + 1);
        for (rows, action) in self.chances.windows(2).zip(self.first..) {
            let mut most: Option<TurningPoint> = None;
            for (k, &seat) in self.seats.iter().enumerate() {
                let (before, after) = (rows[0][k], rows[1][k]);
                let point = TurningPoint {
                    action,
                    seat,
                    before,
                    after,
                };
                if most.is_none_or(|m| point.change() > m.change()) {
                    most = Some(point);
                }
            }
            // Kept biggest first, the earlier first among equals (no sort: the browser's
            // engine carries no sorting code for this).
            let Some(point) = most.filter(|p| p.change() >= TURNING) else {
                continue;
            };
            let at = points.iter().position(|p| p.change() < point.change());
            let at = at.unwrap_or(points.len());
            if at < TURNING_POINTS {
                points.insert(at, point);
                points.truncate(TURNING_POINTS);
            }
        }
        points
    }

    /// The costly moves ([`COSTLY`]), in order.
    pub fn costly(&self) -> impl Iterator<Item = &Choice> {
        self.choices.iter().filter(|c| c.is_costly())
    }

    /// `seat`'s best decision and its costliest move, among those covered.
    pub fn summary(&self, seat: Colour) -> Summary {
        let own = || self.choices.iter().filter(move |c| c.seat == seat);
        let margin = |c: &Choice| c.played_chance - c.worst_chance;
        Summary {
            best: top(own(), |c| {
                (c.played == c.best && margin(c) > 0.0).then(|| margin(c))
            }),
            costliest: top(own(), |c| c.is_costly().then(|| c.cost())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Colour::{Red, Yellow};

    fn choice(action: usize, seat: Colour, played: u8, chances: [f32; 3]) -> Choice {
        let [played_chance, best_chance, worst_chance] = chances;
        Choice {
            action,
            seat,
            played,
            best: if played_chance >= best_chance {
                played
            } else {
                3
            },
            played_chance,
            best_chance,
            worst_chance,
        }
    }

    /// Two seats: yellow's chance after each action as given, red's steady.
    fn analysis(yellow: &[f32], choices: Vec<Choice>) -> Analysis {
        Analysis {
            seats: vec![Yellow, Red],
            actions: yellow.len() - 1,
            first: 0,
            chances: yellow.iter().map(|&y| vec![y, 0.2]).collect(),
            choices,
        }
    }

    #[test]
    fn at_most_five_turning_points_are_named_the_biggest_first() {
        let yellow = [0.5, 0.45, 0.6, 0.65, 0.25, 0.4, 0.28, 0.3, 0.5, 0.45, 0.34];
        // Changes of 0.4 (action 3), 0.2 (7), 0.15 (1 and 4), 0.12 (5) and 0.11 (9): the last
        // is left out; the others are below 0.10.
        let points = analysis(&yellow, Vec::new()).turning_points();
        let mut actions: Vec<usize> = points.iter().map(|p| p.action).collect();
        assert_eq!(actions[..2], [3, 7]);
        actions[2..4].sort_unstable();
        assert_eq!(actions[2..], [1, 4, 5]);
        assert_eq!(
            points[0],
            TurningPoint {
                action: 3,
                seat: Yellow,
                before: 0.65,
                after: 0.25
            }
        );
    }

    #[test]
    fn a_seats_best_decision_beat_its_worst_move_by_most_and_its_costliest_cost_most() {
        let choices = vec![
            choice(1, Yellow, 0, [0.5, 0.5, 0.4]),
            choice(3, Yellow, 1, [0.6, 0.6, 0.3]),
            choice(5, Yellow, 2, [0.4, 0.5, 0.3]),
            choice(7, Yellow, 0, [0.3, 0.36, 0.2]),
            choice(9, Yellow, 0, [0.3, 0.32, 0.2]),
            choice(11, Red, 0, [0.5, 0.52, 0.4]),
        ];
        let analysis = analysis(&[0.5; 13], choices);
        let yellow = analysis.summary(Yellow);
        assert_eq!((yellow.best, yellow.costliest), (Some(3), Some(5)));
        // Red played one move, not the best, and it cost too little to name.
        assert_eq!(analysis.summary(Red), Summary::default());
        let costly: Vec<usize> = analysis.costly().map(|c| c.action).collect();
        assert_eq!(costly, [5, 7]);
    }
}
