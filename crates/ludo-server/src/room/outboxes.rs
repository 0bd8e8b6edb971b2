//! The outboxes of a room's connections, by connection number: what the room's actor sends
//! through, one message serialised once for all its recipients.

use std::collections::HashMap;

use super::{Outbox, Text};
use crate::protocol::ServerMsg;

/// The outboxes of a room's open connections.
#[derive(Default)]
pub struct Outboxes(HashMap<u64, Outbox>);

impl Outboxes {
    /// The connection `conn` opened, with this outbox.
    pub fn open(&mut self, conn: u64, out: Outbox) {
        self.0.insert(conn, out);
    }

    /// The connection `conn` closed.
    pub fn close(&mut self, conn: u64) {
        self.0.remove(&conn);
    }

    /// Sends `msg` to the connection `conn`, if it is open.
    pub fn send(&self, conn: u64, msg: &ServerMsg) {
        if let Some(out) = self.0.get(&conn) {
            let _ = out.send(Text::from(msg.to_json()));
        }
    }

    /// Sends `msg` to every connection but `except`.
    pub fn broadcast(&self, msg: &ServerMsg, except: Option<u64>) {
        let text = Text::from(msg.to_json());
        for (&conn, out) in &self.0 {
            if Some(conn) != except {
                let _ = out.send(text.clone());
            }
        }
    }

    /// Sends chatter to every connection but `except` (see [`Outbox::offer`]).
    pub fn chatter(&self, msg: &ServerMsg, except: Option<u64>) {
        let text = Text::from(msg.to_json());
        for (&conn, out) in &self.0 {
            if Some(conn) != except {
                out.offer(text.clone());
            }
        }
    }
}
