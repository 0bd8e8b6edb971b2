//! What storage answers about ratings and players: plain data, serialised as the HTTP API sends
//! it.

use ludo_rules::Colour;
use serde::Serialize;

use crate::rating::PROVISIONAL_GAMES;

/// One player's rating change in one ranked game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RatingChange {
    /// The seat played.
    pub seat: Colour,
    /// The identity's public id.
    pub id: String,
    /// The display name at the time.
    pub name: String,
    /// The place reached.
    pub place: u8,
    /// The rating before the game.
    pub before: f64,
    /// The rating after it.
    pub after: f64,
}

/// A row of a leaderboard.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Leader {
    /// The identity's public id.
    pub id: String,
    /// The display name.
    pub name: String,
    /// The rating.
    pub rating: f64,
    /// Rated games played.
    pub games: u32,
    /// Whether the rating is still provisional.
    pub provisional: bool,
}

impl Leader {
    /// A row of a leaderboard; provisional while `games` is under [`PROVISIONAL_GAMES`].
    pub fn new(id: String, name: String, rating: f64, games: u32) -> Leader {
        Leader {
            id,
            name,
            rating,
            games,
            provisional: games < PROVISIONAL_GAMES,
        }
    }
}

/// A player's rating in one ruleset family.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FamilyRating {
    /// `qdan`, `classic` or `vietnamese`.
    pub family: String,
    /// The rating.
    pub rating: f64,
    /// Rated games played.
    pub games: u32,
    /// Whether it is still provisional.
    pub provisional: bool,
}

impl FamilyRating {
    /// A rating in `family`; provisional while `games` is under [`PROVISIONAL_GAMES`].
    pub fn new(family: String, rating: f64, games: u32) -> FamilyRating {
        FamilyRating {
            family,
            rating,
            games,
            provisional: games < PROVISIONAL_GAMES,
        }
    }
}

/// One point of a rating history.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RatingPoint {
    /// The game that moved it.
    pub game: String,
    /// The ruleset family.
    pub family: String,
    /// When (Unix milliseconds).
    pub at: i64,
    /// The rating before.
    pub before: f64,
    /// The rating after.
    pub after: f64,
    /// The place reached.
    pub place: u8,
}

/// A seat of a game in a summary.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeatSummary {
    /// The seat.
    pub seat: Colour,
    /// A person's public id; none for a CPU.
    pub id: Option<String>,
    /// The name shown (a CPU's level for a CPU).
    pub name: String,
    /// The place reached.
    pub place: Option<u8>,
    /// The person left the game before its end, and the CPU played their seat to it (the place
    /// is the CPU's doing). Left out when false.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub left: bool,
}

/// A finished game in a list.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameSummary {
    /// The game's id.
    pub id: String,
    /// The ruleset family.
    pub family: String,
    /// Whether it was ranked.
    pub ranked: bool,
    /// When it started (Unix milliseconds).
    pub started_at: i64,
    /// When it ended.
    pub finished_at: i64,
    /// Every seat, in turn order.
    pub seats: Vec<SeatSummary>,
}

/// How a player has done over their finished games.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct PlayerStats {
    /// Finished games played.
    pub games: u32,
    /// Games won (first place, shared or not).
    pub wins: u32,
    /// How often each place was reached: first, second, third, fourth.
    pub places: [u32; 4],
    /// The mean place, if any game is finished.
    pub mean_place: Option<f64>,
}

/// A player's page.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerProfile {
    /// The identity's public id.
    pub id: String,
    /// The display name.
    pub name: String,
    /// Ratings by family (only families with rated games).
    pub ratings: Vec<FamilyRating>,
    /// Every rating change, oldest first.
    pub history: Vec<RatingPoint>,
    /// The latest finished games, newest first.
    pub recent: Vec<GameSummary>,
    /// Statistics over every finished game.
    pub stats: PlayerStats,
}
