//! The table and the game as everyone sees them: what `welcome`, `room` and `game` carry.

use std::collections::BTreeMap;

use ludo_rules::{Colour, MoveList, Setup};
use serde::{Deserialize, Serialize};

use super::{LevelName, Settings};

/// Who sits in a seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Occupant {
    /// A person, by identity.
    Person {
        /// The identity's public id (never the device secret).
        id: crate::ids::IdentityId,
        /// The display name.
        name: String,
    },
    /// A CPU player.
    Cpu {
        /// Its strength.
        level: LevelName,
    },
}

/// A seat as everyone sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeatView {
    /// Who sits there.
    pub occupant: Occupant,
    /// For a person: whether they are connected now.
    pub connected: bool,
    /// For a person not connected: since when (Unix milliseconds), as far as this server
    /// knows (from its start at the latest).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub away_since: Option<i64>,
    /// For a person: whether they left the game being played (the CPU plays their seat until
    /// it ends, then the seat is freed).
    pub left: bool,
}

/// The table as everyone sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RoomView {
    /// The room's code (the invitation link is `/r/<code>`).
    pub code: crate::ids::RoomCode,
    /// The host's identity id.
    pub host: crate::ids::IdentityId,
    /// The settings.
    pub settings: Settings,
    /// How many times the settings have changed: a `start` or `play_again` names the version
    /// it accepts.
    pub settings_version: u64,
    /// The occupied seats.
    pub seats: BTreeMap<Colour, SeatView>,
    /// How many are watching without a seat.
    pub watchers: usize,
    /// While a new game is offered (after a game, or the first game of a table when it counts
    /// for ratings): the seats of the people who accepted (`null` when no offer is on the table).
    pub rematch: Option<Vec<Colour>>,
    /// Whether matchmaking formed the table: its seats and settings stay as they were formed.
    pub matched: bool,
}

/// The game as everyone sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameView {
    /// The game's id.
    pub id: crate::ids::GameId,
    /// SHA-256 of the dice seed, published at the start.
    pub commitment: String,
    /// Actions accepted so far: the version the next action must carry.
    pub version: u64,
    /// The position.
    pub position: Setup,
    /// In phase move, the moves on offer.
    pub legal: MoveList,
    /// When the CPU takes over the turn (Unix milliseconds), with a turn clock.
    pub deadline: Option<i64>,
    /// The seed, once the game is over.
    pub seed: Option<String>,
    /// Whether the game counts for ratings.
    pub ranked: bool,
}
