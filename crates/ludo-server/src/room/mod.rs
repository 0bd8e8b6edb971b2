//! Rooms: one actor per room owns its table and its game; everything else talks to it through
//! a channel. The registry finds a room's handle by its code.
//!
//! Only rooms in use stay in memory. A room with nobody connected and no game being played
//! unloads itself after [`Timing::idle`]; it stays in the database, and the next visit loads it
//! again. At start-up only the rooms with a game not yet over are loaded (their CPU seats and
//! stand-ins play on). Every first message to a room goes through the registry's lock, and a
//! room unloads itself under that same lock only when nothing is waiting in its queue, so no
//! message is lost to a room that is unloading.
//!
//! A room in memory, or being loaded, is never forgotten under it (see
//! [`Rooms::with_rooms_in_use`]).

mod actor;
mod audience;
mod checks;
mod core;
mod cpu;
pub mod directory;
mod effects;
#[cfg(test)]
mod fixtures;
mod leases;
mod live;
mod outbox;
mod phrases;
mod presence;
mod retry;
mod schedule;
mod state;
mod supervise;
mod table;
mod writes;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use ludo_rules::Colour;
use tokio::sync::mpsc;

use crate::ids::RoomCode;
use crate::protocol::{ClientMsg, Settings};
use crate::store::{Backend, Store, StoreError, StoreResult};

pub use leases::Cluster;
pub use outbox::{Next, Outbox, OutboxReceiver, Text};
pub use state::RoomState;

/// How rooms behave in time.
#[derive(Clone, Copy, Debug)]
pub struct Timing {
    /// How long a CPU player waits before it acts (so people can follow).
    pub cpu_delay: Duration,
    /// How long the CPU waits on the turn of a person who is away before playing for them.
    pub grace: Duration,
    /// How long one second of a turn clock lasts (one second, except in tests).
    pub clock_second: Duration,
    /// How long a room with nobody connected and no game being played stays in memory.
    pub idle: Duration,
    /// How long the people of a matched table have to arrive before it is cancelled.
    pub arrival: Duration,
    /// How long a person must have been away before the host may free their seat.
    pub free_after: Duration,
}

/// What a room is asked to do.
pub enum Command {
    /// A connection joins (after `hello`).
    Join {
        /// The connection's number.
        conn: crate::ids::ConnectionId,
        /// The identity's public id.
        identity: crate::ids::IdentityId,
        /// The display name.
        name: String,
        /// The network address it comes from (the client's, behind a trusted proxy).
        address: std::net::IpAddr,
        /// Where its messages go.
        out: Outbox,
    },
    /// A connection closed.
    Leave {
        /// The connection's number.
        conn: crate::ids::ConnectionId,
    },
    /// The table as everyone sees it.
    View {
        /// Where the answer goes.
        reply: tokio::sync::oneshot::Sender<crate::protocol::RoomView>,
    },
    /// A message from a joined connection.
    Client {
        /// The connection's number.
        conn: crate::ids::ConnectionId,
        /// The message.
        msg: ClientMsg,
        /// The client's id for the request, echoed in its refusal.
        req: Option<crate::protocol::RequestId>,
    },
    /// Stop serving the room at once: this node lost its lease, or another node asked for the
    /// room. Everything the room holds is already stored; its connections close, asking their
    /// clients to come back.
    Release,
}

/// Why a command did not reach a room.
#[derive(Debug, PartialEq, Eq)]
pub enum Unsent {
    /// No room has this code (or its stored state cannot be read).
    NoSuchRoom,
    /// Another node serves the room and did not hand it over in time (see [`Cluster`]).
    ServedElsewhere(String),
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

    /// Whether the room has stopped taking commands (it unloaded itself, or failed).
    pub fn is_stopped(&self) -> bool {
        self.commands.is_closed()
    }

    /// Waits until the room stops taking commands.
    pub async fn stopped(&self) {
        self.commands.closed().await;
    }
}

/// The rooms in memory, by code.
pub type Registry = Arc<Mutex<HashMap<RoomCode, RoomHandle>>>;

pub(crate) fn lock(
    registry: &Registry,
) -> std::sync::MutexGuard<'_, HashMap<RoomCode, RoomHandle>> {
    // The registry is a plain map, whole after any panic: a room that failed holding it
    // leaves nothing half-done.
    registry
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
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
    /// The rooms in memory.
    pub registry: Registry,
    /// The public rooms' lists.
    pub directory: directory::Directory,
    /// The people matched to a ranked table who did not come to it.
    pub no_shows: crate::matchmaking::no_shows::NoShows,
    /// Whether two people connected from one network address may play a ranked game together
    /// (`--match-same-address`, for trying ranked play on one machine).
    pub ranked_same_address: bool,
    /// Whether the server is stopping: from then on no room acts by itself (no CPU turn, no
    /// stand-in), so nothing is played while its people are being disconnected; the games go
    /// on from storage when the server starts again.
    pub stopping: tokio::sync::watch::Receiver<bool>,
    /// This node's place among the nodes sharing a PostgreSQL database; `None` when the server
    /// serves every room of its database alone (SQLite).
    pub cluster: Option<Cluster>,
}

/// Every room of this server, by code.
#[derive(Clone)]
pub struct Rooms {
    context: Context,
    /// The rooms being loaded from storage now, each with how many loads: kept from forgetting
    /// like the rooms in memory.
    loading: Arc<Mutex<HashMap<String, usize>>>,
}

/// A room being loaded, from before its state is read until it is in memory or found missing:
/// it leaves [`Rooms::loading`] when dropped.
struct Loading {
    loading: Arc<Mutex<HashMap<String, usize>>>,
    code: String,
}

impl Loading {
    fn start(loading: &Arc<Mutex<HashMap<String, usize>>>, code: &str) -> Loading {
        *lock_loading(loading).entry(code.to_owned()).or_default() += 1;
        Loading {
            loading: loading.clone(),
            code: code.to_owned(),
        }
    }
}

impl Drop for Loading {
    fn drop(&mut self) {
        let mut loading = lock_loading(&self.loading);
        if let Some(count) = loading.get_mut(&self.code) {
            *count -= 1;
            if *count == 0 {
                loading.remove(&self.code);
            }
        }
    }
}

fn lock_loading(
    loading: &Mutex<HashMap<String, usize>>,
) -> std::sync::MutexGuard<'_, HashMap<String, usize>> {
    // A plain map of counts, whole after any panic.
    loading
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Rooms {
    /// The registry, with every room that has a game not yet over brought back.
    ///
    /// # Errors
    /// When the stored rooms cannot be read.
    pub async fn load(context: Context) -> StoreResult<Rooms> {
        let rooms = Rooms {
            context,
            loading: Arc::default(),
        };
        let in_play = rooms.context.store.run(|b| b.rooms_in_play()).await?;
        for (code, state) in in_play {
            // With several nodes, the rooms another node serves stay with it.
            let _ = rooms.bring_back(&code, &state, false).await?;
        }
        if let Some(cluster) = rooms.context.cluster.clone() {
            rooms.keep_leases(cluster);
        }
        Ok(rooms)
    }

    /// Starts the actor of a stored room (with its latest game, being played or over, which
    /// `welcome` shows) unless it is already in memory; its handle, or why there is none.
    /// With several nodes, the room's lease is claimed first (waiting for another node to
    /// hand it over if `wait`).
    async fn bring_back(
        &self,
        code: &str,
        state: &str,
        wait: bool,
    ) -> StoreResult<Result<RoomHandle, Unsent>> {
        let Ok(state) = serde_json::from_str::<RoomState>(state) else {
            tracing::error!(%code, "a stored room cannot be read; skipped");
            return Ok(Err(Unsent::NoSuchRoom));
        };
        if let Some(handle) = self.in_memory(code) {
            return Ok(Ok(handle));
        }
        let grant = match &self.context.cluster {
            // A stopping node has handed its rooms over, and takes none.
            Some(_) if *self.context.stopping.borrow() => {
                return Ok(Err(Unsent::ServedElsewhere(String::new())));
            }
            Some(cluster) => match self.claim(cluster, code, wait).await? {
                Ok(grant) => Some(grant),
                Err(node) => return Ok(Err(Unsent::ServedElsewhere(node))),
            },
            None => None,
        };
        let latest = {
            let code = RoomCode::from(code);
            self.context
                .store
                .run(move |b| b.latest_game(&code))
                .await?
        };
        let mut registry = lock(&self.context.registry);
        if let Some(handle) = registry.get(code).filter(|h| !h.commands.is_closed()) {
            // Loaded meanwhile by another connection, under the same lease.
            return Ok(Ok(handle.clone()));
        }
        let code = RoomCode::from(code);
        let handle = actor::spawn(code.clone(), state, latest, grant, self.context.clone());
        registry.insert(code, handle.clone());
        Ok(Ok(handle))
    }

    /// The room's handle if it is in memory and taking commands.
    fn in_memory(&self, code: &str) -> Option<RoomHandle> {
        lock(&self.context.registry)
            .get(code)
            .filter(|h| !h.commands.is_closed())
            .cloned()
    }

    /// Whether a room with this code exists (in memory or stored).
    ///
    /// # Errors
    /// When storage cannot be read.
    pub async fn exists(&self, code: &RoomCode) -> StoreResult<bool> {
        if lock(&self.context.registry).contains_key(code) {
            return Ok(true);
        }
        let code = code.to_owned();
        Ok(self
            .context
            .store
            .run(move |b| b.room(&code))
            .await?
            .is_some())
    }

    /// Sends `command` to the room with this code, loading the room if it is stored but not in
    /// memory; the room's handle, or why the command was not sent.
    ///
    /// # Errors
    /// When the stored room cannot be read.
    pub async fn send(
        &self,
        code: &RoomCode,
        command: Command,
    ) -> StoreResult<Result<RoomHandle, Unsent>> {
        let _loading = Loading::start(&self.loading, code);
        let mut command = command;
        for _ in 0..3 {
            {
                let mut registry = lock(&self.context.registry);
                if let Some(handle) = registry.get(code).cloned() {
                    match handle.commands.send(command) {
                        Ok(()) => return Ok(Ok(handle)),
                        Err(mpsc::error::SendError(back)) => {
                            // The room unloaded itself: load it again.
                            command = back;
                            registry.remove(code);
                        }
                    }
                }
            }
            let stored = {
                let code = code.to_owned();
                self.context.store.run(move |b| b.room(&code)).await?
            };
            let Some(state) = stored else {
                return Ok(Err(Unsent::NoSuchRoom));
            };
            if let Err(unsent) = self.bring_back(code, &state, true).await? {
                return Ok(Err(unsent));
            }
        }
        Ok(Err(Unsent::NoSuchRoom))
    }

    /// The table as everyone sees it, if the room exists. A room this node does not serve is
    /// described from storage (nobody connected) when another node may serve it, so that a
    /// look at a room never takes it from the node serving it.
    ///
    /// # Errors
    /// When storage cannot be read.
    pub async fn view(&self, code: &RoomCode) -> StoreResult<Option<crate::protocol::RoomView>> {
        if self.context.cluster.is_some() && self.in_memory(code).is_none() {
            let stored = {
                let code = code.to_owned();
                self.context.store.run(move |b| b.room(&code)).await?
            };
            let state = stored.and_then(|s| serde_json::from_str::<RoomState>(&s).ok());
            return Ok(state
                .map(|state| state.view(code, &std::collections::HashSet::new(), |_| None, None)));
        }
        let (reply, answer) = tokio::sync::oneshot::channel();
        if self.send(code, Command::View { reply }).await?.is_err() {
            return Ok(None);
        }
        Ok(answer.await.ok())
    }

    /// Creates a room hosted by `host` (named `name`), who is seated at the first seat (yellow)
    /// and may move to another before the game; its code.
    ///
    /// # Errors
    /// When the room cannot be stored.
    pub async fn create(
        &self,
        host: crate::ids::IdentityId,
        name: String,
        settings: Settings,
    ) -> StoreResult<RoomCode> {
        let state = RoomState::seated(settings, &[(Colour::ALL[0], host.clone(), name)]);
        let (code, _) = self.open(host, state).await?;
        Ok(code)
    }

    /// Creates a room with its seats taken by `people` (seat, identity, name), whose game starts
    /// as soon as all of them are connected, or is cancelled if they are not within
    /// [`Timing::arrival`]; its code. The first person is the host.
    ///
    /// # Errors
    /// When the room cannot be stored.
    pub async fn create_matched(
        &self,
        people: Vec<(Colour, crate::ids::IdentityId, String)>,
        settings: Settings,
    ) -> StoreResult<RoomCode> {
        let host = people.first().map(|p| p.1.clone()).unwrap_or_default();
        let mut state = RoomState::seated(settings, &people);
        let arrival = i64::try_from(self.context.timing.arrival.as_millis()).unwrap_or(i64::MAX);
        state.arrival_ends = Some(crate::ids::now_ms().saturating_add(arrival));
        state.matched = true;
        let (code, _) = self.open(host, state).await?;
        Ok(code)
    }

    /// Stores a new room and starts its actor.
    async fn open(
        &self,
        host: crate::ids::IdentityId,
        state: RoomState,
    ) -> StoreResult<(RoomCode, RoomHandle)> {
        let code = RoomCode::random();
        let json = serde_json::to_string(&state).expect("a room state serialises");
        {
            let code = code.clone();
            let now = crate::ids::now_ms();
            self.context
                .store
                .run(move |b| b.save_room(&code, &host, &json, now))
                .await?;
        }
        let grant = match &self.context.cluster {
            Some(cluster) => Some(self.claim(cluster, &code, false).await?.map_err(|node| {
                StoreError(format!("a new room's code is already served by {node}"))
            })?),
            None => None,
        };
        let handle = actor::spawn(code.clone(), state, None, grant, self.context.clone());
        lock(&self.context.registry).insert(code.clone(), handle.clone());
        Ok((code, handle))
    }

    /// This node's place among the nodes sharing a PostgreSQL database, if it has one.
    pub fn cluster(&self) -> Option<&Cluster> {
        self.context.cluster.as_ref()
    }

    /// The public rooms' lists.
    pub fn no_shows(&self) -> &crate::matchmaking::no_shows::NoShows {
        &self.context.no_shows
    }

    /// The public rooms' lists.
    pub fn directory(&self) -> &directory::Directory {
        &self.context.directory
    }

    /// How many rooms are in memory.
    pub fn count(&self) -> usize {
        lock(&self.context.registry).len()
    }

    /// Runs `work` on the storage thread, handing it the codes of the rooms in memory or being
    /// loaded as the work begins: the rooms it must not forget. A load that begins later reads
    /// the room's state only after the work is done, so it finds the room forgotten or not,
    /// never half-way.
    ///
    /// # Errors
    /// What `work` returns, or an error when the storage thread is gone.
    pub async fn with_rooms_in_use<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut dyn Backend, Vec<RoomCode>) -> StoreResult<T> + Send + 'static,
    ) -> StoreResult<T> {
        let (registry, loading) = (self.context.registry.clone(), self.loading.clone());
        self.context
            .store
            .run(move |backend| {
                let mut in_use: Vec<RoomCode> = lock(&registry).keys().cloned().collect();
                in_use.extend(
                    lock_loading(&loading)
                        .keys()
                        .map(|code| RoomCode::from(code.as_str())),
                );
                work(backend, in_use)
            })
            .await
    }
}
