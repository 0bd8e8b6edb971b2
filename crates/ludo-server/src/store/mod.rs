//! Storage behind an interface: a [`Backend`] (an SQLite file or a PostgreSQL server) runs on a
//! thread of its own, and the async [`Store`] handle sends it jobs and awaits their results.

mod cluster;
#[cfg(test)]
mod group_tests;
mod ids;
mod postgres;
mod records;
mod rows;
mod sqlite;
#[cfg(test)]
mod suite;

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use ludo_fair::{Action, Record};
use ludo_rules::Colour;
use tokio::sync::{mpsc, oneshot};

use crate::ids::{GameId, IdentityId, RoomCode};

pub use cluster::{Claim, Cluster, ClusterStore, Renewal, SharedSeeker};
pub use postgres::PostgresBackend;
#[cfg(any(test, feature = "testing"))]
pub use postgres::TestDatabase;
pub use records::{
    FamilyRating, GameSummary, Leader, PlayerProfile, PlayerStats, RatingChange, RatingPoint,
    SeatSummary,
};
pub use sqlite::SqliteBackend;

/// Where the data lives, as `--db` names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Database {
    /// An SQLite file, created if missing.
    Sqlite(PathBuf),
    /// A PostgreSQL server: a `postgres://` or `postgresql://` URL.
    Postgres(String),
}

impl Database {
    /// A `postgres://` or `postgresql://` URL names PostgreSQL; anything else is an SQLite file.
    pub fn of(db: &Path) -> Database {
        match db.to_str() {
            Some(url) if url.starts_with("postgres://") || url.starts_with("postgresql://") => {
                Database::Postgres(url.to_owned())
            }
            _ => Database::Sqlite(db.to_owned()),
        }
    }
}

/// A storage failure: logged with its context, answered to players as an internal error.
#[derive(Clone, Debug)]
pub struct StoreError(pub String);

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "storage: {}", self.0)
    }
}

impl std::error::Error for StoreError {}

/// Shorthand for storage results.
pub type StoreResult<T> = Result<T, StoreError>;

/// A game as it starts.
#[derive(Clone, Debug)]
pub struct NewGame {
    /// The game's id.
    pub id: GameId,
    /// The room it is played in.
    pub room: RoomCode,
    /// The record so far: rules, seats, commitment (no actions yet, no seed shown).
    pub record: Record,
    /// Who plays each seat, as JSON.
    pub players: String,
    /// The people at the table: seat, identity and display name.
    pub people: Vec<(Colour, IdentityId, String)>,
    /// Whether the game counts for ratings.
    pub ranked: bool,
    /// The secret dice seed, as hex.
    pub seed: String,
    /// When it started (Unix milliseconds).
    pub started_at: i64,
}

/// A game as stored: its record (the seed included) and whether it is over.
#[derive(Clone, Debug)]
pub struct StoredGame {
    /// The game's id.
    pub id: GameId,
    /// The room it was played in.
    pub room: RoomCode,
    /// Rules, seats, commitment, the seed (secret while the game goes on) and every action.
    pub record: Record,
    /// Who played each seat, as JSON.
    pub players: String,
    /// When each action was accepted (Unix milliseconds), in order.
    pub action_times: Vec<i64>,
    /// The actions the CPU played for a seat's person, by index in the record's actions, with
    /// why (`away`, `clock` or `left`).
    pub stand_ins: BTreeMap<usize, String>,
    /// Whether the game counts for ratings.
    pub ranked: bool,
    /// When it started (Unix milliseconds).
    pub started_at: i64,
    /// When the game ended, if it has.
    pub finished_at: Option<i64>,
    /// The places reached, once it is over.
    pub places: BTreeMap<Colour, u8>,
    /// The rating changes it caused, if it was ranked and is over.
    pub ratings: Vec<RatingChange>,
}

/// What [`Backend::forget`] forgets, and what it keeps whatever their age. Times are Unix
/// milliseconds.
///
/// A room is forgotten when it has no game being played, was last saved before
/// `rooms_updated_before`, is not in `rooms_in_use` and (with several nodes) no node holds its
/// lease. A room no game names is deleted; one whose games name it keeps its row, its state
/// emptied, so that its games stay whole: either way it is found no more.
///
/// An identity is forgotten when it was made before `identities_made_before`, was last seen
/// before `seen_before`, and is seen at no table and in no game: it hosts no stored room, sits
/// in no stored room's seats, played no game and has no rating.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Forgetting {
    /// Now: when the identities in use are marked seen.
    pub now: i64,
    /// Identities made before this may be forgotten; `None` forgets no identity.
    pub identities_made_before: Option<i64>,
    /// Identities seen (said hello, or held by a connection) at or after this are kept.
    pub seen_before: i64,
    /// Rooms last saved before this may be forgotten; `None` forgets no room.
    pub rooms_updated_before: Option<i64>,
    /// The identities held by this node's connections: marked seen `now`, so no node forgets
    /// them.
    pub identities_in_use: Vec<IdentityId>,
    /// The rooms in this node's memory or being loaded into it: kept.
    pub rooms_in_use: Vec<RoomCode>,
    /// At most this many identities are deleted, and this many rooms deleted and this many
    /// emptied, in one call, which holds the storage thread that much at most; a call that
    /// reaches the limit leaves the rest to the next.
    pub limit: u32,
}

/// What one [`Backend::forget`] forgot.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Forgotten {
    /// Identities deleted.
    pub identities: u64,
    /// Rooms deleted, or emptied and marked forgotten.
    pub rooms: u64,
}

/// One storage implementation. Every call runs on the storage thread, one at a time.
pub trait Backend: Send + 'static {
    /// The identity of a device secret's hash, if known, its name updated to `name` and marked
    /// seen `now` (a connection uses it).
    fn known_identity(
        &mut self,
        secret_hash: &str,
        name: &str,
        now: i64,
    ) -> StoreResult<Option<IdentityId>>;
    /// The identity of a device secret's hash, created with `new_id` and `name` if unknown; the
    /// name is updated if known. Either way it is marked seen `now`.
    fn identify(
        &mut self,
        secret_hash: &str,
        name: &str,
        new_id: &IdentityId,
        now: i64,
    ) -> StoreResult<IdentityId>;
    /// Creates or replaces a room's state (a room saved is not forgotten any more, if it was).
    fn save_room(
        &mut self,
        code: &RoomCode,
        host: &IdentityId,
        state: &str,
        now: i64,
    ) -> StoreResult<()>;
    /// A room's state, if the room exists and is not forgotten.
    fn room(&mut self, code: &RoomCode) -> StoreResult<Option<String>>;
    /// Every room with a game not yet over: code and state.
    fn rooms_in_play(&mut self) -> StoreResult<Vec<(RoomCode, String)>>;
    /// Records a new game.
    fn create_game(&mut self, game: &NewGame) -> StoreResult<()>;
    /// Appends action `number` of a game, with `stand_in`, why the CPU played it for the seat's
    /// person (`away`, `clock` or `left`), if it did: `true` when stored, `false` when the game
    /// already has an action with this number (stored by another node: nothing is written). The
    /// database itself refuses a second action at one number, so a game can never fork.
    fn append_action(
        &mut self,
        game: &GameId,
        number: u64,
        seat: Colour,
        action: &Action,
        stand_in: Option<&str>,
        at: i64,
    ) -> StoreResult<bool>;
    /// Marks a game over with its places and, if it is ranked, updates its players' ratings in
    /// the same transaction; the rating changes (none for a friendly game). Finishing a game
    /// already finished changes nothing and returns its changes again.
    fn finish_game(
        &mut self,
        game: &GameId,
        places: &BTreeMap<Colour, u8>,
        at: i64,
    ) -> StoreResult<Vec<RatingChange>>;
    /// A game with every action, if it exists.
    fn game(&mut self, id: &GameId) -> StoreResult<Option<StoredGame>>;
    /// The latest game of a room (being played or over), if any.
    fn latest_game(&mut self, room: &RoomCode) -> StoreResult<Option<StoredGame>>;
    /// The rating of an identity in a ruleset family, and its rated games so far (the starting
    /// rating and 0 if it has none).
    fn rating(&mut self, identity: &IdentityId, family: &str) -> StoreResult<(f64, u32)>;
    /// The best-rated players of a ruleset family, at most `limit`.
    fn leaderboard(&mut self, family: &str, limit: u32) -> StoreResult<Vec<Leader>>;
    /// A player's ratings, rating history, recent finished games and statistics.
    fn profile(&mut self, identity: &IdentityId) -> StoreResult<Option<PlayerProfile>>;
    /// Forgets what nobody uses, as `what` says, in one transaction: first the rooms (each
    /// deleted, or emptied and marked forgotten if games name it), then the identities that
    /// nothing stored names any more, up to its limit. Running it again, or on another node at
    /// the same time, forgets nothing more once the limit is not reached.
    fn forget(&mut self, what: &Forgetting) -> StoreResult<Forgotten>;

    /// Whether this backend commits the jobs that arrive together as one transaction (group
    /// commit, see [`Store`]); the group's steps below are called only if it does.
    fn groups_writes(&self) -> bool {
        false
    }
    /// Opens a group's transaction.
    fn begin_group(&mut self) -> StoreResult<()> {
        Ok(())
    }
    /// Marks the start of one job within the group.
    fn begin_job(&mut self) -> StoreResult<()> {
        Ok(())
    }
    /// Ends the job begun last: its writes are kept in the group if `keep`, else undone.
    fn end_job(&mut self, keep: bool) -> StoreResult<()> {
        let _ = keep;
        Ok(())
    }
    /// Commits the group; if that fails, nothing of it is written.
    fn commit_group(&mut self) -> StoreResult<()> {
        Ok(())
    }
    /// Undoes the whole group.
    fn abandon_group(&mut self) -> StoreResult<()> {
        Ok(())
    }

    /// The state the nodes sharing this database keep together (leases, searches, listings), if
    /// several nodes can share it: PostgreSQL only.
    fn cluster(&mut self) -> Option<&mut dyn Cluster> {
        None
    }
}

/// Work for the storage thread: it runs, then says whether its writes are to be kept and how
/// to hand its result over once they are committed (or not).
type Job = Box<dyn FnOnce(&mut dyn Backend) -> Done + Send>;

/// Hands a job's result over, given the error of the commit its writes were in, if it failed.
type Deliver = Box<dyn FnOnce(Option<&StoreError>) + Send>;

/// A job that ran.
struct Done {
    /// Whether it succeeded, so that its writes are kept.
    kept: bool,
    /// Hands the result over: as it was if the writes were committed, else the commit's error.
    deliver: Deliver,
}

/// The most jobs committed together.
const MAX_GROUP: usize = 256;

/// The fail point `store-midway`, inside the transaction that finishes a game, after its first
/// statement: configured as `return(<game id>)`, the finish of that game (and of no other) fails
/// there, its first statement already run, which its transaction must undo. Only with the
/// `failpoints` feature (the tests'); nothing otherwise.
fn fails_midway(game: &str) -> Option<StoreError> {
    #[cfg(feature = "failpoints")]
    if fail::eval("store-midway", |target| target.as_deref() == Some(game)) == Some(true) {
        return Some(StoreError(
            "a write failed half-way on purpose (fail point store-midway)".to_owned(),
        ));
    }
    let _ = game;
    None
}

/// The fail point `store-game-held`, inside a new game's transaction after its first statement
/// (the game's row written, its players not yet): configured as `return(<path>)`, it writes a file
/// at `<path>`, so that a test knows the statement ran, then holds the transaction open for a
/// minute, long enough for the test to kill the server in the middle of the write. Only with the
/// `failpoints` feature (the tests'); nothing otherwise.
fn hold_new_game_midway() {
    #[cfg(feature = "failpoints")]
    if let Some(path) = fail::eval("store-game-held", |path| path) {
        if let Some(path) = path {
            std::fs::write(path, "written in part, not committed")
                .expect("the fail point's file is written");
        }
        std::thread::sleep(std::time::Duration::from_secs(60));
    }
}

/// What every write returns while the tests' fail point `store-write` is on (with the
/// `failpoints` feature; otherwise the points are compiled to nothing).
#[cfg(feature = "failpoints")]
fn failed_on_purpose<T>(_: Option<String>) -> StoreResult<T> {
    Err(StoreError(
        "a write failed on purpose (fail point store-write)".to_owned(),
    ))
}

/// The async handle to the storage thread. Cheap to clone.
///
/// **Group commit.** Where the backend supports it (SQLite and PostgreSQL), the jobs waiting
/// when the thread becomes free are run together in one transaction, each inside a savepoint of
/// its own (a job that fails undoes only its own writes), and committed once; only then is any
/// of them given its result. A room therefore still broadcasts an action only once it is durably stored, but
/// many rooms' actions share one commit: one write-ahead-log append and one lock instead of one
/// each. Nothing waits to fill a group: a job arriving at an idle thread runs at once, alone, so
/// the group grows only with the load. If the commit fails, every job of the group is told.
#[derive(Clone)]
pub struct Store {
    jobs: mpsc::UnboundedSender<Job>,
    /// Whether the backend keeps the nodes' shared state ([`Backend::cluster`]).
    shared: bool,
}

impl Store {
    /// Starts the storage thread over `backend`. The thread ends when every handle is dropped.
    pub fn start(mut backend: impl Backend) -> Store {
        let shared = backend.cluster().is_some();
        Store::spawn(move || Ok(backend), shared, |_| ())
    }

    /// The nodes' shared state, if the database keeps it (PostgreSQL): only then can several
    /// nodes serve one database.
    pub fn cluster(&self) -> Option<ClusterStore> {
        self.shared.then(|| ClusterStore::over(self.clone()))
    }

    /// Opens the database `db` names ([`Database::of`]) on a new storage thread, bringing its
    /// schema up to date. The backend is made, used and dropped on that thread only: the
    /// PostgreSQL client runs a runtime of its own, which must not start or stop inside ours.
    ///
    /// # Errors
    /// When the database cannot be opened or reached, or a migration fails.
    pub async fn open(db: &Path) -> StoreResult<Store> {
        Store::open_as(db, None).await
    }

    /// [`Store::open`] for the node named `node` of a cluster: on PostgreSQL its connection
    /// says so, and its leases last while it is open.
    ///
    /// # Errors
    /// As [`Store::open`].
    pub async fn open_as(db: &Path, node: Option<String>) -> StoreResult<Store> {
        let (ready, opened) = oneshot::channel();
        let tell = move |outcome| {
            let _ = ready.send(outcome);
        };
        let store = match Database::of(db) {
            Database::Sqlite(path) => Store::spawn(move || SqliteBackend::open(&path), false, tell),
            Database::Postgres(url) => Store::spawn(
                move || PostgresBackend::connect_as(&url, node.as_deref()),
                true,
                tell,
            ),
        };
        opened
            .await
            .map_err(|_| StoreError("the storage thread stopped while opening".to_owned()))??;
        Ok(store)
    }

    /// Starts the storage thread: it makes its backend with `open` (one that keeps the nodes'
    /// shared state if `shared`), says how that went through `ready`, and then runs jobs until
    /// every handle is dropped.
    fn spawn<B: Backend>(
        open: impl FnOnce() -> StoreResult<B> + Send + 'static,
        shared: bool,
        ready: impl FnOnce(StoreResult<()>) + Send + 'static,
    ) -> Store {
        let (jobs, mut queue) = mpsc::unbounded_channel::<Job>();
        std::thread::Builder::new()
            .name("storage".to_owned())
            .spawn(move || {
                let mut backend = match open() {
                    Ok(backend) => backend,
                    Err(e) => return ready(Err(e)),
                };
                ready(Ok(()));
                while let Some(first) = queue.blocking_recv() {
                    let mut jobs = vec![first];
                    if backend.groups_writes() {
                        while jobs.len() < MAX_GROUP {
                            match queue.try_recv() {
                                Ok(job) => jobs.push(job),
                                Err(_) => break,
                            }
                        }
                    }
                    run_jobs(&mut backend, jobs);
                }
            })
            .expect("the storage thread starts");
        Store { jobs, shared }
    }

    /// Runs `work` on the storage thread and waits for its result.
    ///
    /// # Errors
    /// What `work` returns, or an error when the storage thread is gone.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut dyn Backend) -> StoreResult<T> + Send + 'static,
    ) -> StoreResult<T> {
        let (reply, answer) = oneshot::channel();
        let job: Job = Box::new(move |backend| {
            let outcome = work(backend);
            Done {
                kept: outcome.is_ok(),
                deliver: Box::new(move |commit_failed| {
                    let _ = reply.send(match commit_failed {
                        None => outcome,
                        Some(error) => Err(error.clone()),
                    });
                }),
            }
        });
        self.jobs
            .send(job)
            .map_err(|_| StoreError("the storage thread has stopped".to_owned()))?;
        answer
            .await
            .map_err(|_| StoreError("the storage thread dropped a job".to_owned()))?
    }
}

/// Runs one job; `None` if it panicked. A job that panics fails alone: its caller is told the
/// job was dropped, and the thread goes on with the next (a transaction it left open is rolled
/// back as it unwinds).
fn run_one(backend: &mut dyn Backend, job: Job) -> Option<Done> {
    let run = std::panic::AssertUnwindSafe(|| job(backend));
    let done = std::panic::catch_unwind(run).ok();
    if done.is_none() {
        tracing::error!("a storage job panicked; it was dropped");
    }
    done
}

/// Runs `jobs`: alone if there is one or the backend does not group them, else as one group
/// (see [`Store`]).
fn run_jobs(backend: &mut dyn Backend, jobs: Vec<Job>) {
    let grouped = jobs.len() > 1 && backend.groups_writes();
    if !grouped || backend.begin_group().is_err() {
        // Alone, each job commits its own writes (and fails alone if the database is busy).
        for job in jobs {
            if let Some(done) = run_one(backend, job) {
                (done.deliver)(None);
            }
        }
        return;
    }
    let mut finished = Vec::with_capacity(jobs.len());
    let mut broken = None;
    for job in jobs {
        if let Err(error) = backend.begin_job() {
            broken.get_or_insert(error);
        }
        let done = run_one(backend, job);
        let kept = done.as_ref().is_some_and(|d| d.kept);
        if let Err(error) = backend.end_job(kept) {
            broken.get_or_insert(error);
        }
        finished.extend(done);
    }
    let failure = match broken {
        // A savepoint that could not be set or ended leaves the group unsure: none of it is kept.
        Some(error) => {
            let _ = backend.abandon_group();
            Some(error)
        }
        None => backend.commit_group().err(),
    };
    if let Some(error) = &failure {
        tracing::error!(%error, jobs = finished.len(), "a group of storage jobs could not be committed");
    }
    for done in finished {
        (done.deliver)(failure.as_ref());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_storage_job_that_panics_fails_alone_and_the_next_job_runs() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::start(sqlite::SqliteBackend::open(&dir.path().join("t.db")).unwrap());
        let failed = store
            .run(|b| -> StoreResult<()> {
                b.room(&"ROOM".into())?;
                panic!("a job fails");
            })
            .await;
        assert!(failed.is_err(), "the caller is told: {failed:?}");
        let room = store.run(|b| b.room(&"ROOM".into())).await;
        assert!(
            matches!(room, Ok(None)),
            "the storage thread goes on: {room:?}"
        );
    }
}
