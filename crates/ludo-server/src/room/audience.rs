//! Whom a room tells, and how: its connections' outboxes (one message serialised once for all
//! its recipients), the public lists where it keeps its entry, and the people matched to it
//! who did not come. The actor hands it what a decision says to tell (see [`Tell`]).

use std::collections::HashMap;
use std::time::Instant;

use super::core::RoomCore;
use super::directory::Directory;
use super::effects::Tell;
use super::phrases::Said;
use super::{Outbox, Text};
use crate::ids::ConnectionId;
use crate::matchmaking::no_shows::NoShows;
use crate::protocol::{Occupant, ServerMsg};

/// Whom a room tells.
pub struct Audience {
    /// The open connections' outboxes.
    pub outboxes: Outboxes,
    /// The public rooms' lists, where the room keeps its entry while it is public.
    pub directory: Directory,
    /// The people matched to a ranked table who did not come to it.
    pub no_shows: NoShows,
}

impl Audience {
    /// Tells what a decision says to tell about `core`; `asking`: the connection whose request
    /// or arrival it answers, if any.
    pub fn tell(&self, core: &RoomCore, asking: Option<ConnectionId>, told: Tell) {
        let outboxes = &self.outboxes;
        match told {
            Tell::Left { seat, freed } => {
                outboxes.broadcast(&ServerMsg::Left { seat, freed }, None)
            }
            Tell::Declined { seat } => outboxes.broadcast(&ServerMsg::Declined { seat }, None),
            Tell::Table => self.table(core, None),
            Tell::Welcome => {
                if let Some(conn) = asking
                    && let Some(you) = core.visitors.get(&conn).map(|v| v.identity.clone())
                {
                    let (room, game) = (core.view(), core.game_view());
                    outboxes.send(conn, &ServerMsg::Welcome { you, room, game });
                }
            }
            Tell::TableToOthers => self.table(core, asking),
            Tell::WatchersToOthers => {
                self.publish(core);
                outboxes.chatter(&ServerMsg::Room { room: core.view() }, asking);
            }
            Tell::Cancelled => {
                tracing::info!(room = %core.code, "a matched table was cancelled: not everyone came");
                let now = Instant::now();
                for occupant in core.state.seats.values() {
                    if let Occupant::Person { id, .. } = occupant
                        && !core.visitors.values().any(|v| &v.identity == id)
                    {
                        self.no_shows.missed(id, now);
                    }
                }
                outboxes.broadcast(&ServerMsg::Cancelled, None);
            }
            Tell::Rated(changes) => outboxes.broadcast(&ServerMsg::Rated { changes }, None),
            Tell::Listing => self.publish(core),
            Tell::Action {
                seat,
                action,
                stand_in,
            } => {
                let game = core.game_view().expect("a game is on");
                let played = ServerMsg::Action {
                    seat,
                    action,
                    stand_in,
                    game,
                };
                outboxes.broadcast(&played, None);
            }
            Tell::Game => {
                let game = core.game_view().expect("a game is on");
                outboxes.broadcast(&ServerMsg::Game { game }, None);
            }
            Tell::Said(said) => self.say(said),
        }
    }

    /// Shows everyone a quick phrase; a watcher's is chatter, dropped for whoever is behind.
    pub fn say(&self, said: Said) {
        let chatter = said.chatter;
        let said = ServerMsg::Said {
            from: said.from,
            name: said.name,
            seat: said.seat,
            phrase: said.phrase,
        };
        if chatter {
            self.outboxes.chatter(&said, None);
        } else {
            self.outboxes.broadcast(&said, None);
        }
    }

    /// Keeps the room's entry in the public lists as it now is (see [`RoomCore::listing`]).
    pub fn publish(&self, core: &RoomCore) {
        match core.listing() {
            Some(listing) => self.directory.put(listing),
            None => self.directory.remove(&core.code),
        }
    }

    /// The table as it now is, to the public lists and to everyone but `except`.
    pub fn table(&self, core: &RoomCore, except: Option<ConnectionId>) {
        self.publish(core);
        let room = ServerMsg::Room { room: core.view() };
        self.outboxes.broadcast(&room, except);
    }
}

/// The outboxes of a room's open connections.
#[derive(Default)]
pub struct Outboxes(HashMap<ConnectionId, Outbox>);

impl Outboxes {
    /// The connection `conn` opened, with this outbox.
    pub fn open(&mut self, conn: ConnectionId, out: Outbox) {
        self.0.insert(conn, out);
    }

    /// The connection `conn` closed.
    pub fn close(&mut self, conn: ConnectionId) {
        self.0.remove(&conn);
    }

    /// Sends `msg` to the connection `conn`, if it is open.
    pub fn send(&self, conn: ConnectionId, msg: &ServerMsg) {
        if let Some(out) = self.0.get(&conn) {
            let _ = out.send(Text::from(msg.to_json()));
        }
    }

    /// Sends `msg` to every connection but `except`.
    pub fn broadcast(&self, msg: &ServerMsg, except: Option<ConnectionId>) {
        let text = Text::from(msg.to_json());
        for (&conn, out) in &self.0 {
            if Some(conn) != except {
                let _ = out.send(text.clone());
            }
        }
    }

    /// Sends chatter to every connection but `except` (see [`Outbox::offer`]).
    pub fn chatter(&self, msg: &ServerMsg, except: Option<ConnectionId>) {
        let text = Text::from(msg.to_json());
        for (&conn, out) in &self.0 {
            if Some(conn) != except {
                out.offer(text.clone());
            }
        }
    }
}
