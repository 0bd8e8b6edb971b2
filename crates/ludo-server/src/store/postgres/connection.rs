//! The one connection of the PostgreSQL backend, made again after it is lost.
//!
//! A call on a lost connection fails with a [`StoreError`]; the next call connects anew. While
//! the server cannot be reached, calls fail at once for a pause that doubles up to
//! [`MAX_PAUSE`], so a dead database does not hold every queued job for a connect timeout.
//!
//! **Groups.** Between [`Connection::begin_group`] and [`Connection::commit_group`] (or
//! [`Connection::abandon_group`]) every call runs inside one open transaction, each job in a
//! savepoint (`job`) of its own. A call that fails is undone at once, back to the savepoint set
//! before it (the job's, or for a job's later calls one of their own, `call`), so the job may go
//! on and the transaction never stays aborted. A connection lost within a group is not made
//! again until the group ends: the group's later calls fail rather than write outside it.

use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::time::{Duration, Instant};

use postgres::error::SqlState;
use postgres::{Client, Config, NoTls, Statement};

use super::statements::Statements;
use crate::store::{StoreError, StoreResult};

/// How long connecting may take, unless the URL says (`connect_timeout`).
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// Idle time before the first keepalive probe, unless the URL says (`keepalives_idle`): a
/// database cut off without a word (a network gone silent) is noticed within about
/// `KEEPALIVE_IDLE + KEEPALIVE_INTERVAL * KEEPALIVE_RETRIES`, 16 s, not the system's two hours.
const KEEPALIVE_IDLE: Duration = Duration::from_secs(10);
/// Time between keepalive probes, unless the URL says (`keepalives_interval`).
const KEEPALIVE_INTERVAL: Duration = Duration::from_secs(2);
/// Probes unanswered before the connection is given up, unless the URL says (`keepalives_retries`).
const KEEPALIVE_RETRIES: u32 = 3;
/// How long sent data may stay unacknowledged before the connection is given up, unless the URL
/// says (`tcp_user_timeout`): a write made into a silent network fails then rather than after
/// the system's retransmissions (about 15 minutes).
const TCP_USER_TIMEOUT: Duration = Duration::from_secs(16);
/// The system's idle time before a first keepalive probe: the URL did not set its own.
const SYSTEM_KEEPALIVE_IDLE: Duration = Duration::from_secs(2 * 60 * 60);
/// The first pause after a failed connection attempt.
const FIRST_PAUSE: Duration = Duration::from_millis(100);
/// The longest pause between connection attempts.
const MAX_PAUSE: Duration = Duration::from_secs(5);

/// Why a call failed: the database said so (or the connection broke), or what it answered made
/// no sense.
pub(super) enum Failure {
    /// An error from PostgreSQL or the connection, with what was being done.
    Database(String, postgres::Error),
    /// Any other storage error.
    Store(StoreError),
}

impl From<StoreError> for Failure {
    fn from(e: StoreError) -> Failure {
        Failure::Store(e)
    }
}

/// Names what a PostgreSQL call was doing, for its error.
pub(super) trait Context<T> {
    /// The result, its error a [`Failure`] that says it happened while `doing`.
    fn context(self, doing: &str) -> Result<T, Failure>;
}

impl<T> Context<T> for Result<T, postgres::Error> {
    fn context(self, doing: &str) -> Result<T, Failure> {
        self.map_err(|e| Failure::Database(doing.to_owned(), e))
    }
}

/// An error's text: the server's own message when it sent one.
pub(super) fn describe(doing: &str, e: &postgres::Error) -> StoreError {
    match e.as_db_error() {
        Some(db) => StoreError(format!("{doing}: {} ({})", db.message(), db.code().code())),
        None => StoreError(format!("{doing}: {e}")),
    }
}

/// Whether PostgreSQL aborted the statement (or its transaction) to break a deadlock or a
/// serialisation conflict with another session: it did nothing, and trying it again usually goes
/// through (SQLSTATE 40P01 and 40001).
pub(super) fn is_conflict(e: &postgres::Error) -> bool {
    matches!(
        e.code(),
        Some(&SqlState::T_R_DEADLOCK_DETECTED | &SqlState::T_R_SERIALIZATION_FAILURE)
    )
}

/// How many times work that lost a conflict (see [`is_conflict`]) is tried in all.
pub(super) const CONFLICT_ATTEMPTS: u32 = 5;

/// Whether `e` means the connection cannot be used again: it broke, or the server is shutting
/// it down (SQLSTATE classes 08 and 57P).
fn is_lost(e: &postgres::Error) -> bool {
    match e.code() {
        Some(code) => code.code().starts_with("08") || code.code().starts_with("57P"),
        None => e.as_db_error().is_none(),
    }
}

/// Runs `body` atomically: in a transaction of its own, or, when `grouped`, in a savepoint of
/// the group's open transaction, undone alone if it fails (so that a caller may try it again).
/// What `doing` names is said in the error of beginning or ending it.
pub(super) fn atomically<T>(
    db: &mut Client,
    grouped: bool,
    doing: &str,
    body: impl FnOnce(&mut Client) -> Result<T, Failure>,
) -> Result<T, Failure> {
    let (begin, keep, undo) = if grouped {
        (
            "SAVEPOINT part",
            "RELEASE part",
            "ROLLBACK TO part; RELEASE part",
        )
    } else {
        ("BEGIN", "COMMIT", "ROLLBACK")
    };
    db.batch_execute(begin).context(doing)?;
    match catch_unwind(AssertUnwindSafe(|| body(&mut *db))) {
        Ok(Ok(done)) => {
            db.batch_execute(keep).context(doing)?;
            Ok(done)
        }
        Ok(Err(failure)) => {
            // A connection that cannot undo it is lost, and the server undoes it.
            let _ = db.batch_execute(undo);
            Err(failure)
        }
        Err(panic) => {
            let _ = db.batch_execute(undo);
            resume_unwind(panic)
        }
    }
}

/// The open transaction of a group of jobs.
#[derive(Default)]
struct Group {
    /// Calls made so far by the job begun last.
    calls_in_job: u32,
    /// Why the group cannot be committed any more, if it cannot: nothing of it may be kept.
    broken: Option<StoreError>,
}

/// A connection made when first needed and again after it is lost.
pub(super) struct Connection {
    config: Config,
    client: Option<Client>,
    /// The statements prepared on `client`.
    statements: Statements,
    /// The group whose transaction is open, if one is.
    group: Option<Group>,
    /// No attempt to connect before this, after one failed.
    not_before: Option<Instant>,
    pause: Duration,
}

impl Connection {
    /// The connection `url` describes, not yet made, under the application name `name` (see
    /// [`node_session`]) or, without one, the URL's, else `ludo-server`.
    pub fn new(url: &str, name: Option<&str>) -> StoreResult<Connection> {
        let mut config: Config = url
            .parse()
            .map_err(|e| StoreError(format!("reading the PostgreSQL URL: {e}")))?;
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(CONNECT_TIMEOUT);
        }
        keep_alive(&mut config);
        if let Some(name) = name {
            config.application_name(name);
        } else if config.get_application_name().is_none() {
            config.application_name("ludo-server");
        }
        Ok(Connection {
            config,
            client: None,
            statements: Statements::default(),
            group: None,
            not_before: None,
            pause: FIRST_PAUSE,
        })
    }

    /// The client, connected now if it was not.
    fn client(&mut self) -> StoreResult<&mut Client> {
        if self.client.as_ref().is_some_and(Client::is_closed) {
            self.lose();
        }
        if self.client.is_none() && self.group.is_some() {
            return Err(StoreError(
                "the PostgreSQL connection was lost during a group of writes".to_owned(),
            ));
        }
        if self.client.is_none() {
            if let Some(when) = self.not_before
                && Instant::now() < when
            {
                return Err(StoreError(
                    "the PostgreSQL server cannot be reached; trying again shortly".to_owned(),
                ));
            }
            match self.config.connect(NoTls) {
                Ok(client) => {
                    if self.not_before.take().is_some() {
                        tracing::info!("connected to PostgreSQL again");
                    }
                    self.pause = FIRST_PAUSE;
                    self.client = Some(client);
                }
                Err(e) => {
                    self.not_before = Some(Instant::now() + self.pause);
                    self.pause = (self.pause * 2).min(MAX_PAUSE);
                    return Err(describe("connecting to PostgreSQL", &e));
                }
            }
        }
        Ok(self.client.as_mut().expect("connected just above"))
    }

    /// Drops the client (and what was prepared on it): the next call connects again, and a
    /// group open on it cannot be committed.
    fn lose(&mut self) {
        self.client = None;
        self.statements.clear();
        if let Some(group) = &mut self.group {
            group.broken.get_or_insert_with(|| {
                StoreError("the PostgreSQL connection was lost during a group of writes".to_owned())
            });
        }
    }

    /// Whether a group's transaction is open: a call that needs a transaction of its own takes
    /// a savepoint in it instead (see [`atomically`]).
    pub fn grouped(&self) -> bool {
        self.group.is_some()
    }

    /// Runs `work` on the connection, connecting first if needed. When the connection turns
    /// out lost, it is dropped and the next call connects again. Within a group, a call that
    /// fails is undone (see the module's documentation).
    pub fn run<T>(
        &mut self,
        work: impl FnOnce(&mut Client) -> Result<T, Failure>,
    ) -> StoreResult<T> {
        self.run_prepared(None, |client, _| work(client))
    }

    /// Runs `work` as [`Connection::run`] does, and again, up to [`CONFLICT_ATTEMPTS`] times in
    /// all, when PostgreSQL aborted it to break a conflict with another session (see
    /// [`is_conflict`]): two nodes' lease statements on the same rows, say, each locking them in
    /// its own order. Only for work whose every statement may run again.
    pub fn run_retried<T>(
        &mut self,
        mut work: impl FnMut(&mut Client) -> Result<T, Failure>,
    ) -> StoreResult<T> {
        let mut attempt = 1;
        loop {
            let mut conflict = false;
            let outcome = self.run(|db| {
                let outcome = work(db);
                if let Err(Failure::Database(_, e)) = &outcome {
                    conflict = is_conflict(e);
                }
                outcome
            });
            match outcome {
                Err(_) if conflict && attempt < CONFLICT_ATTEMPTS => attempt += 1,
                done => return done,
            }
        }
    }

    /// Runs `work` with the statement `sql` prepared (and kept for the next time), as
    /// [`Connection::run`] runs its work.
    pub fn run_with<T>(
        &mut self,
        sql: &'static str,
        work: impl FnOnce(&mut Client, &Statement) -> Result<T, Failure>,
    ) -> StoreResult<T> {
        self.run_prepared(Some(sql), |client, statement| {
            work(client, statement.expect("prepared when asked for"))
        })
    }

    fn run_prepared<T>(
        &mut self,
        sql: Option<&'static str>,
        work: impl FnOnce(&mut Client, Option<&Statement>) -> Result<T, Failure>,
    ) -> StoreResult<T> {
        self.client()?;
        let client = self.client.as_mut().expect("connected just above");
        // Within a group, the place to go back to if this call fails: the job's savepoint for
        // its first call, one of the call's own for the next.
        let calls = self.group.as_mut().map(|group| {
            group.calls_in_job += 1;
            group.calls_in_job
        });
        let undo = match calls {
            None => None,
            Some(1) => Some("ROLLBACK TO job"),
            Some(_) => match client.batch_execute("SAVEPOINT call") {
                Ok(()) => Some("ROLLBACK TO call"),
                Err(e) => return Err(self.failed("marking a call", e)),
            },
        };
        let outcome = match sql {
            None => work(client, None),
            Some(sql) => match self.statements.get(client, sql) {
                Ok(statement) => work(client, Some(&statement)),
                Err(e) => Err(Failure::Database("preparing a statement".to_owned(), e)),
            },
        };
        let failure = match outcome {
            Ok(done) => return Ok(done),
            Err(Failure::Store(e)) => e,
            Err(Failure::Database(doing, e)) => self.failed(&doing, e),
        };
        if let (Some(undo), Some(client)) = (undo, self.client.as_mut())
            && let Err(e) = client.batch_execute(undo)
        {
            let error = self.failed("undoing a failed call", e);
            if let Some(group) = &mut self.group {
                group.broken.get_or_insert(error);
            }
        }
        Err(failure)
    }

    /// The error for `e`, met while `doing`; the connection is dropped if `e` says it is lost.
    fn failed(&mut self, doing: &str, e: postgres::Error) -> StoreError {
        if self
            .client
            .as_ref()
            .is_some_and(|client| is_lost(&e) || client.is_closed())
        {
            tracing::warn!("lost the PostgreSQL connection ({e}); reconnecting");
            self.lose();
        }
        describe(doing, &e)
    }

    /// Runs `sql` for a step of a group, saying it was `doing` that if it fails.
    fn group_step(&mut self, sql: &str, doing: &str) -> StoreResult<()> {
        let client = self.client()?;
        match client.batch_execute(sql) {
            Ok(()) => Ok(()),
            Err(e) => Err(self.failed(doing, e)),
        }
    }

    /// Opens a group's transaction.
    pub fn begin_group(&mut self) -> StoreResult<()> {
        self.group_step("BEGIN", "beginning a group of writes")?;
        self.group = Some(Group::default());
        Ok(())
    }

    /// Marks the start of one job of the group with the savepoint `job`.
    pub fn begin_job(&mut self) -> StoreResult<()> {
        if let Some(group) = &mut self.group {
            group.calls_in_job = 0;
        }
        let marked = self.group_step("SAVEPOINT job", "beginning a job");
        self.note(marked)
    }

    /// Ends the job begun last: its writes stay in the group if `keep`, else are undone. The
    /// savepoint is left in place, not released: the next job's hides it, and the commit ends
    /// them all, which saves a round trip a job.
    pub fn end_job(&mut self, keep: bool) -> StoreResult<()> {
        let ended = if keep {
            Ok(())
        } else {
            self.group_step("ROLLBACK TO job", "ending a job")
        };
        let ended = self.note(ended);
        match self.group.as_ref().and_then(|g| g.broken.clone()) {
            Some(broken) => Err(broken),
            None => ended,
        }
    }

    /// Records a failed step as breaking the group.
    fn note(&mut self, step: StoreResult<()>) -> StoreResult<()> {
        if let (Err(error), Some(group)) = (&step, &mut self.group) {
            group.broken.get_or_insert_with(|| error.clone());
        }
        step
    }

    /// Commits the group; if it cannot be committed (or an earlier step broke it), nothing of
    /// it is written.
    pub fn commit_group(&mut self) -> StoreResult<()> {
        let Some(group) = &self.group else {
            return Ok(());
        };
        if let Some(broken) = group.broken.clone() {
            self.abandon_group()?;
            return Err(broken);
        }
        let committed = self.group_step("COMMIT", "committing a group of writes");
        self.group = None;
        if committed.is_err() {
            // A failed COMMIT ends the transaction already; this is for a connection in doubt.
            if let Some(client) = self.client.as_mut() {
                let _ = client.batch_execute("ROLLBACK");
            }
        }
        committed
    }

    /// Undoes the whole group.
    pub fn abandon_group(&mut self) -> StoreResult<()> {
        if self.group.take().is_none() {
            return Ok(());
        }
        match self.client.as_mut() {
            // Lost: the server has undone it already.
            None => Ok(()),
            Some(client) => match client.batch_execute("ROLLBACK") {
                Ok(()) => Ok(()),
                Err(e) => Err(self.failed("abandoning a group of writes", e)),
            },
        }
    }
}

/// The application name under which node `node`'s connections show in `pg_stat_activity`: while
/// one is open, the node is alive (see `leases.rs`). PostgreSQL keeps 63 bytes of it, which the
/// lease queries compare with `left(…, 63)`.
pub fn node_session(node: &str) -> String {
    format!("{NODE_SESSION}{node}")
}

/// Keepalives and a user timeout where the URL sets none (see [`KEEPALIVE_IDLE`]).
fn keep_alive(config: &mut Config) {
    if config.get_keepalives_idle() == SYSTEM_KEEPALIVE_IDLE {
        config.keepalives_idle(KEEPALIVE_IDLE);
    }
    if config.get_keepalives_interval().is_none() {
        config.keepalives_interval(KEEPALIVE_INTERVAL);
    }
    if config.get_keepalives_retries().is_none() {
        config.keepalives_retries(KEEPALIVE_RETRIES);
    }
    if config.get_tcp_user_timeout().is_none() {
        config.tcp_user_timeout(TCP_USER_TIMEOUT);
    }
}

/// What [`node_session`] puts before a node's name.
pub const NODE_SESSION: &str = "ludo node ";

#[cfg(test)]
mod keepalive_tests {
    use super::*;

    #[test]
    fn a_silent_database_is_noticed_in_seconds_unless_the_url_says_otherwise() {
        let plain = Connection::new("postgres://ludo@db.example/ludo", None).unwrap();
        assert!(plain.config.get_keepalives());
        assert_eq!(plain.config.get_keepalives_idle(), KEEPALIVE_IDLE);
        assert_eq!(
            plain.config.get_keepalives_interval(),
            Some(KEEPALIVE_INTERVAL)
        );
        assert_eq!(
            plain.config.get_keepalives_retries(),
            Some(KEEPALIVE_RETRIES)
        );
        assert_eq!(plain.config.get_tcp_user_timeout(), Some(&TCP_USER_TIMEOUT));
        let url = "postgres://ludo@db.example/ludo?keepalives_idle=60&keepalives_interval=5\
                   &keepalives_retries=9&tcp_user_timeout=120";
        let own = Connection::new(url, None).unwrap();
        assert_eq!(own.config.get_keepalives_idle(), Duration::from_secs(60));
        assert_eq!(
            own.config.get_keepalives_interval(),
            Some(Duration::from_secs(5))
        );
        assert_eq!(own.config.get_keepalives_retries(), Some(9));
        assert_eq!(
            own.config.get_tcp_user_timeout(),
            Some(&Duration::from_secs(120))
        );
    }
}
