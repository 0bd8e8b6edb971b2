//! Tables and games for the room's unit tests.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use ludo_fair::Action;
use ludo_rules::{Colour, Preset, Rules, Throw};

use super::RoomState;
use super::effects::Decision;
use super::live::Live;
use super::table::{Offer, Table};
use crate::ids::IdentityId;
use crate::protocol::{LevelName, Occupant, Settings};

/// The identity id `name`.
pub fn id(name: &str) -> IdentityId {
    IdentityId::from(name)
}

/// Qdan rules, no clock, the next seat starting each game; ranked or not.
pub fn settings(ranked: bool) -> Settings {
    Settings {
        rules: Rules::preset(Preset::Qdan),
        clock: None,
        ranked,
        rotate: true,
        public: false,
    }
}

/// Ana hosts and sits at yellow, Bo at red; a CPU at blue when `cpu`.
pub fn table(ranked: bool, cpu: bool) -> RoomState {
    let mut state = RoomState::seated(
        settings(ranked),
        &[
            (Colour::Yellow, id("ana"), "ana".to_owned()),
            (Colour::Red, id("bo"), "bo".to_owned()),
        ],
    );
    if cpu {
        state.seats.insert(
            Colour::Blue,
            Occupant::Cpu {
                level: LevelName(ludo_bots::Level::Easy),
            },
        );
    }
    state
}

/// A game between the table's seats, yellow to throw first.
pub fn game(state: &RoomState) -> Live {
    let seats = state.seats.keys().copied().collect();
    Live::start(
        "ROOM",
        state.settings.rules,
        seats,
        state.seats.clone(),
        false,
    )
    .expect("a game starts")
    .0
}

/// Plays `live` to its end: throws of 1 to 6 in turn, and each time the first legal move.
pub fn play_to_the_end(live: &mut Live) {
    for step in 0..100_000u32 {
        if live.game.is_over() {
            return;
        }
        let action = match live.game.phase() {
            ludo_rules::Phase::Move => {
                Action::Move(live.game.legal_moves().iter().next().expect("a move").piece)
            }
            _ => Action::Throw(Throw::one((step % 6) as u8 + 1)),
        };
        let next = live.after(action).expect("a legal action");
        live.commit(action, next);
    }
    panic!("the game never ended");
}

/// How long someone must have been away before the host may free their seat, in these tests.
pub const FREE_AFTER: Duration = Duration::from_secs(60);

/// How long someone away holds up a new game offered at a friendly table, in these tests.
pub const GRACE: Duration = Duration::from_secs(8);

/// A new game offered, accepted by these people.
pub fn offer(people: &[&str]) -> Option<Offer> {
    Some(people.iter().map(|name| id(name)).collect())
}

/// The table's requests over `state`, its game `live`, an offer `rematch` and the people
/// `away` (each with how long ago they left).
pub struct Room {
    pub state: RoomState,
    pub live: Option<Live>,
    pub rematch: Option<Offer>,
    pub away_since: HashMap<IdentityId, Instant>,
    pub unsaved: bool,
    pub now: Instant,
}

impl Room {
    /// The table `state`, no game, no offer, nobody away, stored, now.
    pub fn new(state: RoomState) -> Room {
        Room {
            state,
            live: None,
            rematch: None,
            away_since: HashMap::new(),
            unsaved: false,
            now: Instant::now(),
        }
    }

    /// The same table with a game being played.
    pub fn playing(mut self) -> Room {
        self.live = Some(game(&self.state));
        self
    }

    /// The same table after a game that ended.
    pub fn after_a_game(mut self) -> Room {
        let mut live = game(&self.state);
        play_to_the_end(&mut live);
        self.live = Some(live);
        self
    }

    /// The same table with `identity` away for `for_`.
    pub fn away(mut self, identity: &str, for_: Duration) -> Room {
        self.away_since
            .insert(id(identity), self.now.checked_sub(for_).unwrap());
        self
    }

    /// The table and the offer as `decision` leaves them.
    pub fn apply(&mut self, decision: Decision) {
        self.state = decision.state;
        self.rematch = decision.rematch;
    }

    /// The table's requests over it.
    pub fn table(&self) -> Table<'_> {
        Table {
            state: &self.state,
            live: self.live.as_ref(),
            rematch: self.rematch.as_ref(),
            away_since: &self.away_since,
            free_after: FREE_AFTER,
            grace: GRACE,
            unsaved: self.unsaved,
            now: self.now,
        }
    }
}
