//! Rooms: one actor per room owns its table and its game; everything else talks to it through
//! a channel. The registry finds a room's handle by its code.

mod actor;
mod live;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use ludo_rules::Colour;
use tokio::sync::mpsc;

use crate::protocol::{ClientMsg, Settings};
use crate::store::{Store, StoreResult};

pub use actor::RoomState;

/// How rooms behave in time.
#[derive(Clone, Copy, Debug)]
pub struct Timing {
    /// How long a CPU player waits before it acts (so people can follow).
    pub cpu_delay: Duration,
    /// How long the CPU waits on the turn of a person who is away before playing for them.
    pub grace: Duration,
    /// How long one second of a turn clock lasts (one second, except in tests).
    pub clock_second: Duration,
}

/// A connection's outbox: messages already serialised, shared between recipients.
pub type Outbox = mpsc::UnboundedSender<Arc<str>>;

/// What a room is asked to do.
pub enum Command {
    /// A connection joins (after `hello`).
    Join {
        /// The connection's number.
        conn: u64,
        /// The identity's public id.
        identity: String,
        /// The display name.
        name: String,
        /// Where its messages go.
        out: Outbox,
    },
    /// A connection closed.
    Leave {
        /// The connection's number.
        conn: u64,
    },
    /// The table as everyone sees it.
    View {
        /// Where the answer goes.
        reply: tokio::sync::oneshot::Sender<crate::protocol::RoomView>,
    },
    /// Start the game now, without a host's word (a table formed by matchmaking).
    Begin,
    /// A message from a joined connection.
    Client {
        /// The connection's number.
        conn: u64,
        /// The message.
        msg: ClientMsg,
    },
}

/// The way to a room's actor.
#[derive(Clone)]
pub struct RoomHandle {
    commands: mpsc::UnboundedSender<Command>,
}

impl RoomHandle {
    /// Sends a command; `false` when the room has stopped.
    pub fn send(&self, command: Command) -> bool {
        self.commands.send(command).is_ok()
    }
}

/// What every room shares: storage, timing and the server's counters.
#[derive(Clone)]
pub struct Context {
    /// The storage.
    pub store: Store,
    /// How rooms behave in time.
    pub timing: Timing,
    /// The server's counters.
    pub metrics: Arc<crate::Metrics>,
}

/// Every room of this server, by code.
#[derive(Clone)]
pub struct Rooms {
    rooms: Arc<Mutex<HashMap<String, RoomHandle>>>,
    context: Context,
}

impl Rooms {
    /// The registry, with every room stored (and its unfinished game) brought back.
    ///
    /// # Errors
    /// When the stored rooms cannot be read.
    pub async fn load(context: Context) -> StoreResult<Rooms> {
        let store = context.store.clone();
        let rooms = Rooms {
            rooms: Arc::default(),
            context: context.clone(),
        };
        for (code, _host, state) in store.run(|b| b.rooms()).await? {
            let Ok(state) = serde_json::from_str::<RoomState>(&state) else {
                tracing::error!(%code, "a stored room cannot be read; skipped");
                continue;
            };
            let unfinished = {
                let code = code.clone();
                store.run(move |b| b.unfinished_game(&code)).await?
            };
            let handle = actor::spawn(code.clone(), state, unfinished, context.clone());
            rooms.insert(code, handle);
        }
        Ok(rooms)
    }

    fn insert(&self, code: String, handle: RoomHandle) {
        self.rooms
            .lock()
            .expect("the room registry is never poisoned")
            .insert(code, handle);
    }

    /// Creates a room hosted by `host`; its code.
    ///
    /// # Errors
    /// When the room cannot be stored.
    pub async fn create(&self, host: String, settings: Settings) -> StoreResult<String> {
        let state = RoomState::new(host.clone(), settings);
        let (code, _) = self.open(host, state).await?;
        Ok(code)
    }

    /// Creates a room with its seats taken by `people` (seat, identity, name) and starts its
    /// game at once; its code. The first person is the host.
    ///
    /// # Errors
    /// When the room cannot be stored.
    pub async fn create_matched(
        &self,
        people: Vec<(Colour, String, String)>,
        settings: Settings,
    ) -> StoreResult<String> {
        let host = people.first().map(|p| p.1.clone()).unwrap_or_default();
        let state = RoomState::seated(settings, &people);
        let (code, handle) = self.open(host, state).await?;
        handle.send(Command::Begin);
        Ok(code)
    }

    /// Stores a new room and starts its actor.
    async fn open(&self, host: String, state: RoomState) -> StoreResult<(String, RoomHandle)> {
        let code = crate::ids::random_code(8);
        let json = serde_json::to_string(&state).expect("a room state serialises");
        {
            let code = code.clone();
            let now = crate::ids::now_ms();
            self.context
                .store
                .run(move |b| b.save_room(&code, &host, &json, now))
                .await?;
        }
        let handle = actor::spawn(code.clone(), state, None, self.context.clone());
        self.insert(code.clone(), handle.clone());
        Ok((code, handle))
    }

    /// The room with this code.
    pub fn get(&self, code: &str) -> Option<RoomHandle> {
        self.rooms
            .lock()
            .expect("the room registry is never poisoned")
            .get(code)
            .cloned()
    }

    /// How many rooms are open.
    pub fn count(&self) -> usize {
        self.rooms
            .lock()
            .expect("the room registry is never poisoned")
            .len()
    }
}
