//! The directory of public rooms: the tables with a free seat anyone may take, and the games
//! being played that anyone may watch. Each room keeps its own entry up to date whenever its
//! table or game changes, and takes it out when it becomes private, full, unattended or unloads;
//! private rooms never enter it. Only rooms in memory are listed: a public table nobody is at
//! unloads after a while, and leaves the list with it.
//!
//! A room is listed only while a person seated at it is connected (a watcher keeps nothing
//! listed), and one network address keeps at most [`MAX_LISTED_PER_ADDRESS`] rooms in each list:
//! an entry counts against the addresses of its connected seated people, and the newest entries
//! of an address are the ones shown. So one stranger with a few addresses cannot fill the first
//! page.
//!
//! With several nodes, each publishes its own entries to the database every third of a lease's
//! term, and the lists are read from there, so any node shows every node's tables.

use std::collections::HashMap;
use std::net::IpAddr;
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
    /// The network addresses of the people seated and connected: kept among the nodes, never
    /// shown.
    #[serde(skip)]
    pub addresses: Vec<IpAddr>,
}

/// The most rooms one network address keeps in one list.
pub const MAX_LISTED_PER_ADDRESS: usize = 3;

impl Listing {
    /// The entry of room `code` at table `state` whose latest game is `live`, with people
    /// seated at it (and not gone from the game being played) connected from `here`: listed
    /// while it is public, one of them is connected (a game only the CPU plays on, everyone
    /// gone, is no game to watch), and it plays a game or, between games, has a free seat; else
    /// none.
    pub fn of(
        code: &crate::ids::RoomCode,
        state: &super::RoomState,
        live: Option<&super::live::Live>,
        here: &[IpAddr],
    ) -> Option<Listing> {
        let settings = &state.settings;
        let playing = live.filter(|l| !l.game.is_over());
        let free_seat = state.seats.len() < ludo_rules::Colour::ALL.len();
        if !settings.public || here.is_empty() || (playing.is_none() && !free_seat) {
            return None;
        }
        let mut addresses = here.to_vec();
        addresses.sort_unstable();
        addresses.dedup();
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
            addresses,
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

    /// Every entry, each with its room's code and as JSON (the listing and its addresses, see
    /// [`read_published`]): what this node publishes.
    pub fn published(&self) -> Vec<(crate::ids::RoomCode, String)> {
        self.entries()
            .values()
            .map(|l| {
                let text = serde_json::to_string(&(l, &l.addresses)).expect("a listing serialises");
                (l.code.clone(), text)
            })
            .collect()
    }
}

/// An entry as a node published it (see [`Directory::published`]), if it reads.
pub fn read_published(text: &str) -> Option<Listing> {
    let (mut listing, addresses): (Listing, Vec<IpAddr>) = serde_json::from_str(text).ok()?;
    listing.addresses = addresses;
    Some(listing)
}

/// One page (from 0) of the list of `kind` among `entries`, newest first, [`PAGE_SIZE`]
/// entries at most.
pub fn page_of(entries: Vec<Listing>, kind: Kind, page: usize) -> Page {
    let mut tables: Vec<Listing> = entries
        .into_iter()
        .filter(|l| l.playing() == (kind == Kind::Playing))
        .collect();
    tables.sort_by(|a, b| b.updated.cmp(&a.updated).then(a.code.cmp(&b.code)));
    let mut kept: HashMap<IpAddr, usize> = HashMap::new();
    tables.retain(|listing| {
        let room_left = listing
            .addresses
            .iter()
            .all(|a| kept.get(a).copied().unwrap_or(0) < MAX_LISTED_PER_ADDRESS);
        if room_left {
            for address in &listing.addresses {
                *kept.entry(*address).or_default() += 1;
            }
        }
        room_left
    });
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
    fn a_public_table_with_a_free_seat_is_listed_only_while_a_seated_person_is_connected() {
        let mut state = table(false, true);
        state.settings.public = true;
        let code = crate::ids::RoomCode::from("ROOM");
        let listed = Listing::of(&code, &state, None, PLAYER).expect("listed");
        assert_eq!(listed.taken, 3);
        assert_eq!(listed.players, ["ana", "cpu:easy", "bo"], "seat by seat");
        assert!(!listed.playing());
        assert_eq!(listed.addresses, PLAYER);
        assert_eq!(
            Listing::of(&code, &state, None, NOBODY),
            None,
            "nobody seated there (watchers do not count)"
        );
    }

    /// No seated person connected (watchers perhaps).
    const NOBODY: &[IpAddr] = &[];
    /// A seated person connected.
    const PLAYER: &[IpAddr] = &[IpAddr::V4(std::net::Ipv4Addr::new(192, 0, 2, 1))];

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
            Listing::of(&code, &state, Some(&live), NOBODY),
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
        assert_eq!(
            Listing::of(&code, &state, Some(&live), NOBODY),
            None,
            "everyone gone, or only watchers"
        );
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
            addresses: vec![IpAddr::from([192, 0, 2, (updated % 200) as u8])],
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

    #[test]
    fn one_address_keeps_only_its_newest_few_rooms_in_a_list() {
        let directory = Directory::default();
        let stranger = IpAddr::from([198, 51, 100, 7]);
        for i in 0..20 {
            let mut flood = listing(&format!("flood{i:02}"), 100 + i, false);
            flood.addresses = vec![stranger];
            directory.put(flood);
        }
        directory.put(listing("honest", 50, false));
        let page = directory.page(Kind::Open, 0);
        let codes: Vec<&str> = page.tables.iter().map(|l| l.code.as_str()).collect();
        assert_eq!(codes, ["flood19", "flood18", "flood17", "honest"]);
        assert_eq!(page.total, MAX_LISTED_PER_ADDRESS + 1);
        // What is shown never names an address; what nodes share does.
        let shown = serde_json::to_string(&page).unwrap();
        assert!(!shown.contains("198.51.100.7"), "{shown}");
        let (_, published) = directory
            .published()
            .into_iter()
            .find(|(code, _)| code == "flood00")
            .unwrap();
        let read = read_published(&published).unwrap();
        assert_eq!(read.addresses, [stranger]);
        assert_eq!(read.code, "flood00");
    }
}
