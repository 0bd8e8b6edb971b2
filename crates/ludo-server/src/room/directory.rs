//! The directory of public rooms: the tables with a free seat anyone may take, and the games
//! being played that anyone may watch. Each room keeps its own entry up to date whenever its
//! table or game changes, and takes it out when it becomes private, full, unattended or unloads;
//! private rooms never enter it. Only rooms in memory are listed: a public table nobody is at
//! unloads after a while, and leaves the list with it.
//!
//! With several nodes, each publishes its own entries to the database every third of a lease's
//! term, and the lists are read from there, so any node shows every node's tables.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use ludo_rules::Rules;

use crate::protocol::Occupant;
use serde::{Deserialize, Serialize};

/// One public room as the lists show it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Listing {
    /// The room's code (`/r/<code>` joins or watches it).
    pub code: crate::ids::RoomCode,
    /// The rules played.
    pub rules: Rules,
    /// Seconds per turn, if the table has a clock.
    pub clock: Option<u32>,
    /// Whether its games are ranked.
    pub ranked: bool,
    /// Seats taken (people and CPUs).
    pub taken: usize,
    /// The names at the table, seat by seat (a CPU by its level, as `"cpu:medium"`).
    pub players: Vec<String>,
    /// For a game being played: when it started (Unix milliseconds); omitted for a table
    /// waiting for players.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub playing_since: Option<i64>,
    /// When the entry last changed (Unix milliseconds): the lists show the newest first.
    pub updated: i64,
}

/// Who is connected to a room, as its entry in the lists depends on it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Presence {
    /// Anyone at all, watchers included.
    pub anyone: bool,
    /// A person who plays at the table (seated and not gone from the game being played).
    pub player: bool,
}

impl Listing {
    /// The entry of room `code` at table `state` whose latest game is `live`, with `here`
    /// connected: listed while it is public and either plays a game one of its people is still
    /// at (one that only the CPU plays on, everyone gone, is no game to watch), or, between
    /// games, has a free seat and someone at the table; else none.
    pub fn of(
        code: &crate::ids::RoomCode,
        state: &super::RoomState,
        live: Option<&super::live::Live>,
        here: Presence,
    ) -> Option<Listing> {
        let settings = &state.settings;
        let playing = live.filter(|l| !l.game.is_over());
        let free_seat = state.seats.len() < ludo_rules::Colour::ALL.len();
        let listed = match playing {
            Some(_) => here.player,
            None => free_seat && here.anyone,
        };
        if !settings.public || !listed {
            return None;
        }
        let players = state
            .seats
            .values()
            .map(|o| match o {
                Occupant::Person { name, .. } => name.clone(),
                Occupant::Cpu { level } => format!("cpu:{}", level.0.name()),
            })
            .collect();
        Some(Listing {
            code: code.clone(),
            rules: settings.rules,
            clock: settings.clock,
            ranked: settings.ranked,
            taken: state.seats.len(),
            players,
            playing_since: playing.map(|l| l.started_ms),
            updated: crate::ids::now_ms(),
        })
    }

    /// Whether this is a game being played (else a table waiting for players).
    pub fn playing(&self) -> bool {
        self.playing_since.is_some()
    }
}

/// Which list to read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Tables with a free seat, no game on.
    Open,
    /// Games being played.
    Playing,
}

/// The public rooms in memory, by code.
#[derive(Clone, Default)]
pub struct Directory {
    entries: Arc<Mutex<HashMap<String, Listing>>>,
}

/// How many entries a page of a list holds.
pub const PAGE_SIZE: usize = 20;

/// One page of a list.
#[derive(Debug, Serialize)]
pub struct Page {
    /// The entries, newest first.
    pub tables: Vec<Listing>,
    /// This page's number, from 0.
    pub page: usize,
    /// How many entries the whole list holds now.
    pub total: usize,
}

impl Directory {
    fn entries(&self) -> std::sync::MutexGuard<'_, HashMap<String, Listing>> {
        // A plain map, whole after any panic.
        self.entries
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Puts a room's entry in, replacing the one it had.
    pub fn put(&self, listing: Listing) {
        self.entries().insert(listing.code.to_string(), listing);
    }

    /// Takes a room's entry out, if it has one.
    pub fn remove(&self, code: &str) {
        self.entries().remove(code);
    }

    /// One page (from 0) of a list, newest first, [`PAGE_SIZE`] entries at most.
    pub fn page(&self, kind: Kind, page: usize) -> Page {
        page_of(self.entries().values().cloned().collect(), kind, page)
    }

    /// Every entry, each with its room's code and as JSON: what this node publishes.
    pub fn published(&self) -> Vec<(String, String)> {
        self.entries()
            .values()
            .map(|l| {
                let text = serde_json::to_string(l).expect("a listing serialises");
                (l.code.to_string(), text)
            })
            .collect()
    }
}

/// One page (from 0) of the list of `kind` among `entries`, newest first, [`PAGE_SIZE`]
/// entries at most.
pub fn page_of(entries: Vec<Listing>, kind: Kind, page: usize) -> Page {
    let mut tables: Vec<Listing> = entries
        .into_iter()
        .filter(|l| l.playing() == (kind == Kind::Playing))
        .collect();
    tables.sort_by(|a, b| b.updated.cmp(&a.updated).then(a.code.cmp(&b.code)));
    let total = tables.len();
    let tables = tables
        .into_iter()
        .skip(page.saturating_mul(PAGE_SIZE))
        .take(PAGE_SIZE)
        .collect();
    Page {
        tables,
        page,
        total,
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::{game, play_to_the_end, table};
    use super::*;
    use ludo_rules::Colour;

    #[test]
    fn a_public_table_with_a_free_seat_is_listed_only_while_someone_is_at_it() {
        let mut state = table(false, true);
        state.settings.public = true;
        let code = crate::ids::RoomCode::from("ROOM");
        let listed = Listing::of(&code, &state, None, ANYONE).expect("listed");
        assert_eq!(listed.taken, 3);
        assert_eq!(listed.players, ["ana", "cpu:easy", "bo"], "seat by seat");
        assert!(!listed.playing());
        assert_eq!(
            Listing::of(&code, &state, None, Presence::default()),
            None,
            "nobody there"
        );
    }

    /// Someone connected, a watcher perhaps: not a player.
    const ANYONE: Presence = Presence {
        anyone: true,
        player: false,
    };
    const PLAYER: Presence = Presence {
        anyone: true,
        player: true,
    };

    #[test]
    fn a_public_game_is_listed_while_it_is_played_and_a_private_one_never() {
        let mut state = table(false, false);
        let mut live = game(&state);
        let code = crate::ids::RoomCode::from("ROOM");
        assert_eq!(
            Listing::of(&code, &state, Some(&live), PLAYER),
            None,
            "private"
        );
        state.settings.public = true;
        let playing = Listing::of(&code, &state, Some(&live), PLAYER).expect("listed");
        assert_eq!(playing.playing_since, Some(live.started_ms));
        play_to_the_end(&mut live);
        assert_eq!(
            Listing::of(&code, &state, Some(&live), Presence::default()),
            None,
            "over, and nobody at the table"
        );
    }

    #[test]
    fn a_public_game_that_only_the_cpu_plays_on_is_not_listed() {
        let mut state = table(false, false);
        state.settings.public = true;
        state.seats.insert(
            Colour::Green,
            Occupant::Cpu {
                level: crate::protocol::LevelName(ludo_bots::Level::Easy),
            },
        );
        let live = game(&state);
        let code = crate::ids::RoomCode::from("ROOM");
        for (here, why) in [
            (Presence::default(), "everyone gone"),
            (ANYONE, "only watchers"),
        ] {
            assert_eq!(Listing::of(&code, &state, Some(&live), here), None, "{why}");
        }
        assert!(Listing::of(&code, &state, Some(&live), PLAYER).is_some());
    }

    fn listing(code: &str, updated: i64, playing: bool) -> Listing {
        Listing {
            code: code.into(),
            rules: Rules::default(),
            clock: None,
            ranked: false,
            taken: 1,
            players: vec!["Ana".to_owned()],
            playing_since: playing.then_some(updated),
            updated,
        }
    }

    #[test]
    fn a_list_holds_its_kind_newest_first_in_pages() {
        let directory = Directory::default();
        for i in 0..45 {
            directory.put(listing(&format!("open{i:02}"), i, false));
        }
        directory.put(listing("game", 7, true));
        let first = directory.page(Kind::Open, 0);
        assert_eq!(first.total, 45);
        assert_eq!(first.tables.len(), PAGE_SIZE);
        assert_eq!(first.tables[0].code, "open44");
        assert_eq!(directory.page(Kind::Open, 2).tables.len(), 5);
        assert!(directory.page(Kind::Open, 9).tables.is_empty());
        let playing = directory.page(Kind::Playing, 0);
        assert_eq!(playing.total, 1);
        assert_eq!(playing.tables[0].code, "game");
        directory.remove("game");
        assert_eq!(directory.page(Kind::Playing, 0).total, 0);
    }
}
