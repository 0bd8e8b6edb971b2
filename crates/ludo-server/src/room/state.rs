//! What is kept of a room across restarts, and how everyone sees its table.

use std::collections::{BTreeMap, BTreeSet};

use ludo_rules::Colour;
use serde::{Deserialize, Serialize};

use crate::ids::IdentityId;
use crate::protocol::{Occupant, RoomView, SeatView, Settings};

/// What is kept of a room across restarts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RoomState {
    pub(super) host: IdentityId,
    pub(super) settings: Settings,
    /// How many times the settings have changed: a new game is accepted under one version.
    #[serde(default)]
    pub(super) settings_version: u64,
    pub(super) seats: BTreeMap<Colour, Occupant>,
    /// The seat that started the last game: the next game starts with the seat after it.
    #[serde(default)]
    pub(super) last_first: Option<Colour>,
    /// The seats whose person left the game being played: the CPU plays them until it ends,
    /// then they are freed.
    #[serde(default)]
    pub(super) left: BTreeSet<Colour>,
    /// For a table formed by matchmaking: until when its people may arrive (Unix
    /// milliseconds); its game starts when the last of them is connected. Kept so that the
    /// table still starts after a restart, or on another node.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) arrival_ends: Option<i64>,
    /// Whether matchmaking formed the table: it keeps the people and the settings it was
    /// formed with (nobody else sits, nothing is changed) for as long as it lasts.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(super) matched: bool,
}

impl RoomState {
    /// A new, empty table.
    pub fn new(host: IdentityId, settings: Settings) -> RoomState {
        RoomState {
            host,
            settings,
            settings_version: 0,
            seats: BTreeMap::new(),
            last_first: None,
            left: BTreeSet::new(),
            arrival_ends: None,
            matched: false,
        }
    }

    /// A table whose seats are already taken by these people (seat, identity, name); the
    /// first is the host.
    pub fn seated(settings: Settings, people: &[(Colour, IdentityId, String)]) -> RoomState {
        let host = people.first().map(|p| p.1.clone()).unwrap_or_default();
        let mut state = RoomState::new(host, settings);
        for (colour, id, name) in people {
            state.seats.insert(
                *colour,
                Occupant::Person {
                    id: id.clone(),
                    name: name.clone(),
                },
            );
        }
        state
    }

    /// The table as everyone sees it, with the people in `connected` connected, each of the
    /// others away since `away_since` tells (Unix milliseconds), and the new game offered
    /// accepted by these people, if one is (shown by the seats they sit at now).
    pub fn view(
        &self,
        code: &str,
        connected: &std::collections::HashSet<&str>,
        away_since: impl Fn(&str) -> Option<i64>,
        rematch: Option<&BTreeSet<IdentityId>>,
    ) -> RoomView {
        let seats = self
            .seats
            .iter()
            .map(|(&colour, occupant)| {
                let (connected, away_since) = match occupant {
                    Occupant::Person { id, .. } if connected.contains(id.as_str()) => (true, None),
                    Occupant::Person { id, .. } => (false, away_since(id)),
                    Occupant::Cpu { .. } => (true, None),
                };
                (
                    colour,
                    SeatView {
                        occupant: occupant.clone(),
                        connected,
                        away_since,
                        left: self.left.contains(&colour),
                    },
                )
            })
            .collect();
        let seated: Vec<&str> = self
            .seats
            .values()
            .filter_map(|o| match o {
                Occupant::Person { id, .. } => Some(id.as_str()),
                Occupant::Cpu { .. } => None,
            })
            .collect();
        RoomView {
            code: code.into(),
            host: self.host.clone(),
            settings: self.settings.clone(),
            settings_version: self.settings_version,
            seats,
            watchers: connected.iter().filter(|id| !seated.contains(id)).count(),
            rematch: rematch.map(|accepted| {
                self.seats
                    .iter()
                    .filter_map(|(&colour, o)| match o {
                        Occupant::Person { id, .. } if accepted.contains(id) => Some(colour),
                        _ => None,
                    })
                    .collect()
            }),
            matched: self.matched,
        }
    }
}
