//! What the nodes sharing one database keep together: leases on rooms (one node serves each room
//! at a time), the roles one node at a time plays for all, the ranked searches and the public
//! tables every node lists. Only a database several nodes share keeps it (PostgreSQL): a backend
//! that can answers [`Backend::cluster`](super::Backend::cluster), the SQLite backend does not;
//! the server reaches it through a [`ClusterStore`], which it has only then.

use super::{Store, StoreError, StoreResult};
use crate::ids::{IdentityId, RoomCode};

/// The nodes' shared state, as one backend keeps it. Every call runs on the storage thread, one
/// at a time, like [`Backend`](super::Backend)'s.
pub trait Cluster {
    /// Claims room `room` for node `node` for `ttl_ms` milliseconds (by the database's clock):
    /// granted when nobody holds it, its lease ran out, or `node` holds it already. Otherwise
    /// the holder is asked to hand it over (see [`Cluster::renew_leases`]) and named.
    fn claim_room(&mut self, room: &RoomCode, node: &str, ttl_ms: i64) -> StoreResult<Claim>;
    /// Extends the leases `node` still holds among `rooms` by `ttl_ms` from now; the rooms kept,
    /// and among them those another node has asked for.
    fn renew_leases(&mut self, node: &str, rooms: &[RoomCode], ttl_ms: i64)
    -> StoreResult<Renewal>;
    /// The rooms `node` holds that another node asked for.
    fn asked_rooms(&mut self, node: &str) -> StoreResult<Vec<RoomCode>>;
    /// Gives up `node`'s lease on `room` if it is still the one granted as `token`.
    fn release_room(&mut self, room: &RoomCode, node: &str, token: i64) -> StoreResult<()>;
    /// Gives up every lease of `node` (a node stopping).
    fn release_all(&mut self, node: &str) -> StoreResult<()>;
    /// Every room with a game not yet over that no node holds: code and state.
    fn unheld_rooms_in_play(&mut self) -> StoreResult<Vec<(RoomCode, String)>>;
    /// Takes on `role` (a job one node at a time does for all) for `ttl_ms`, or keeps it:
    /// whether `node` holds it now.
    fn claim_role(&mut self, role: &str, node: &str, ttl_ms: i64) -> StoreResult<bool>;
    /// Adds a ranked search, replacing any other of the same identity.
    fn put_seeker(&mut self, seeker: &SharedSeeker) -> StoreResult<()>;
    /// Takes a ranked search away (its connection closed, or its player was told their table).
    fn remove_seeker(&mut self, ticket: &str) -> StoreResult<()>;
    /// Notes that `node` still holds its seekers' connections, forgets searches whose node has
    /// not said so for `stale_ms`, and returns every search left.
    fn seekers(&mut self, node: &str, stale_ms: i64) -> StoreResult<Vec<SharedSeeker>>;
    /// Replaces the public tables `node` lists with `listings` (code and JSON), and drops those
    /// of nodes that have not replaced theirs for `stale_ms`.
    fn publish_listings(
        &mut self,
        node: &str,
        listings: &[(RoomCode, String)],
        stale_ms: i64,
    ) -> StoreResult<()>;
    /// Every node's public tables, as the JSON each published.
    fn listings(&mut self) -> StoreResult<Vec<String>>;
    /// Gives the searches `tickets` the table in room `room`, of `seats` seats.
    fn seat_seekers(
        &mut self,
        tickets: &[String],
        room: &RoomCode,
        seats: usize,
    ) -> StoreResult<()>;
}

/// A ranked search as every node sees it (see [`Cluster::seekers`]).
#[derive(Clone, Debug, PartialEq)]
pub struct SharedSeeker {
    /// The node and its connection: `node/connection`.
    pub ticket: String,
    /// The node holding the seeker's connection.
    pub node: String,
    /// The identity's public id.
    pub identity: IdentityId,
    /// The display name.
    pub name: String,
    /// The rating under the rules asked for.
    pub rating: f64,
    /// The rules asked for, by name.
    pub preset: String,
    /// The table size asked for; 0 for any.
    pub size: u8,
    /// The network address the search came from.
    pub address: String,
    /// When it began (Unix milliseconds).
    pub since: i64,
    /// The table formed for it, once there is one: its room and seats.
    pub table: Option<(RoomCode, usize)>,
}

/// The answer to [`Cluster::claim_room`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Claim {
    /// The room is the claimant's until its lease runs out; `token` names this grant.
    Granted {
        /// Names this grant, so that releasing it never releases a later one.
        token: i64,
    },
    /// Another node holds the room; it has been asked to hand it over.
    HeldBy(String),
}

/// The answer to [`Cluster::renew_leases`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Renewal {
    /// The rooms whose leases were extended; the others are lost.
    pub kept: Vec<RoomCode>,
    /// Among those kept, the rooms another node asked for.
    pub wanted: Vec<RoomCode>,
}

/// The async handle to the nodes' shared state, on the storage thread: made only over a backend
/// that keeps it ([`Store::cluster`]). Cheap to clone.
#[derive(Clone)]
pub struct ClusterStore {
    store: Store,
}

impl std::fmt::Debug for ClusterStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClusterStore").finish_non_exhaustive()
    }
}

impl ClusterStore {
    /// The shared state of the database `store` opened, if it keeps one.
    pub(super) fn over(store: Store) -> ClusterStore {
        ClusterStore { store }
    }

    /// Runs `work` on the storage thread and waits for its result.
    ///
    /// # Errors
    /// What `work` returns, or an error when the storage thread is gone.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut dyn Cluster) -> StoreResult<T> + Send + 'static,
    ) -> StoreResult<T> {
        self.store
            .run(move |backend| match backend.cluster() {
                Some(cluster) => work(cluster),
                None => Err(StoreError(
                    "this database keeps no state shared between nodes".to_owned(),
                )),
            })
            .await
    }
}
