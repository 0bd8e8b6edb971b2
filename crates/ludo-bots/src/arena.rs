//! Bot arenas: many games between CPU levels, the bots rotating through the seats so that none
//! keeps the first-move advantage, with win rates and mean places and their 95% intervals.

use std::fmt;

use ludo_rules::{Colour, Game, PositionError, PositionFault, Rules};

use crate::levels::Level;
use crate::player::Player;
use crate::playout::{Tally, play_out};
use crate::rng::Rng;

/// A game longer than this many actions is a bug, not bad luck.
const MAX_ACTIONS: u64 = 1_000_000;

/// Why an arena could not be run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArenaError {
    /// Not 2 to 4 entrants, or seats the rules refuse.
    Seats(PositionError),
    /// A game went on past the action limit (a bug, not bad luck).
    Unfinished {
        /// The game's number, from 0.
        game: u64,
    },
}

impl fmt::Display for ArenaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArenaError::Seats(e) => write!(f, "{e}"),
            ArenaError::Unfinished { game } => write!(f, "arena game {game} did not end"),
        }
    }
}

impl std::error::Error for ArenaError {}

impl From<PositionError> for ArenaError {
    fn from(e: PositionError) -> ArenaError {
        ArenaError::Seats(e)
    }
}

/// The seats of an `n`-seat game, clockwise; two seats face each other.
pub fn seats_for(n: usize) -> Option<&'static [Colour]> {
    use Colour::*;
    match n {
        2 => Some(&[Yellow, Red]),
        3 => Some(&[Yellow, Blue, Red]),
        4 => Some(&[Yellow, Blue, Red, Green]),
        _ => None,
    }
}

/// What one entrant of an arena achieved.
#[derive(Clone, Debug, PartialEq)]
pub struct Entrant {
    /// Its level.
    pub level: Level,
    /// Games played.
    pub games: u64,
    /// Games won (place 1).
    pub wins: u64,
    /// The sum of its places.
    pub place_sum: u64,
    /// The sum of its places squared.
    pub place_squares: u64,
}

impl Entrant {
    /// The share of games won.
    pub fn win_rate(&self) -> f64 {
        self.wins as f64 / self.games.max(1) as f64
    }

    /// Half the width of the 95% interval of the win rate (normal approximation).
    pub fn win_rate_margin(&self) -> f64 {
        let p = self.win_rate();
        1.96 * (p * (1.0 - p) / self.games.max(1) as f64).sqrt()
    }

    /// The mean place.
    pub fn mean_place(&self) -> f64 {
        self.place_sum as f64 / self.games.max(1) as f64
    }

    /// Half the width of the 95% interval of the mean place.
    pub fn mean_place_margin(&self) -> f64 {
        let n = self.games.max(1) as f64;
        let mean = self.mean_place();
        let variance = (self.place_squares as f64 / n - mean * mean).max(0.0);
        1.96 * (variance / n).sqrt()
    }
}

/// An arena's results.
#[derive(Clone, Debug, PartialEq)]
pub struct Standings {
    /// One entry per entrant, in the order they were listed.
    pub entrants: Vec<Entrant>,
    /// Games played.
    pub games: u64,
    /// Throws and moves of every game.
    pub tally: Tally,
}

/// The levels entrant `i` plays against: the entrants rotate through the seats, so each faces
/// the same others in every game.
fn opponents_of(levels: &[Level], i: usize) -> Vec<Option<Level>> {
    let others = levels.iter().enumerate().filter(|&(j, _)| j != i);
    others.map(|(_, &level)| Some(level)).collect()
}

/// Plays `games` games between `levels` (one per seat) under `rules`. In game `g` the entrant
/// listed `i`-th sits in seat `(i + g) mod n`. Every throw and choice follows from `seed`.
/// `progress` is told after each game.
///
/// # Errors
/// When `levels` does not name 2 to 4 entrants, or the rules refuse the seats.
pub fn run_arena(
    rules: Rules,
    levels: &[Level],
    games: u64,
    seed: u64,
    mut progress: impl FnMut(u64),
) -> Result<Standings, ArenaError> {
    let seats = seats_for(levels.len()).ok_or_else(|| {
        PositionError::new(
            "bots",
            PositionFault::SeatCount {
                count: levels.len(),
            },
        )
    })?;
    let start = Game::new(rules, seats)?;
    let n = levels.len();
    let mut players: Vec<Box<dyn Player + Send>> = levels.iter().map(|l| l.player()).collect();
    for (i, player) in players.iter_mut().enumerate() {
        player.facing(&opponents_of(levels, i));
    }
    let mut entrants: Vec<Entrant> = levels
        .iter()
        .map(|&level| Entrant {
            level,
            games: 0,
            wins: 0,
            place_sum: 0,
            place_squares: 0,
        })
        .collect();
    let mut seeds = Rng::new(seed);
    let mut tally = Tally::default();
    for g in 0..games {
        let rotation = (g % n as u64) as usize;
        // Seat s is played by entrant (s + n - rotation) mod n: rotate the players to match.
        let entrant_of = |s: usize| (s + n - rotation) % n;
        let mut game = start;
        let (mut dice, mut choices) = (seeds.fork(), seeds.fork());
        let mut seated: Vec<&mut dyn Player> = Vec::with_capacity(n);
        let (tail, head) = players.split_at_mut(n - rotation);
        for player in head.iter_mut().chain(tail.iter_mut()) {
            seated.push(player.as_mut());
        }
        let one = play_out(&mut game, &mut dice, &mut seated, &mut choices, MAX_ACTIONS)
            .ok_or(ArenaError::Unfinished { game: g })?;
        tally += one;
        for (s, &colour) in seats.iter().enumerate() {
            let place = u64::from(game.place(colour).unwrap_or(n as u8));
            let e = &mut entrants[entrant_of(s)];
            e.games += 1;
            e.wins += u64::from(place == 1);
            e.place_sum += place;
            e.place_squares += place * place;
        }
        progress(g + 1);
    }
    Ok(Standings {
        entrants,
        games,
        tally,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_standings() {
        let levels = [Level::Medium, Level::Random];
        let a = run_arena(Rules::default(), &levels, 20, 9, |_| {}).unwrap();
        let b = run_arena(Rules::default(), &levels, 20, 9, |_| {}).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.entrants.iter().map(|e| e.games).sum::<u64>(), 40);
        assert_eq!(a.entrants.iter().map(|e| e.wins).sum::<u64>(), 20);
    }

    #[test]
    fn each_entrant_is_told_the_others_levels() {
        let levels = [Level::Expert, Level::Random, Level::Medium];
        let (random, medium) = (Some(Level::Random), Some(Level::Medium));
        assert_eq!(opponents_of(&levels, 0), [random, medium]);
        assert_eq!(opponents_of(&levels, 2), [Some(Level::Expert), random]);
    }

    #[test]
    fn an_arena_needs_two_to_four_bots() {
        assert!(run_arena(Rules::default(), &[Level::Random], 1, 1, |_| {}).is_err());
    }
}
