//! The one connection of the PostgreSQL backend, made again after it is lost.
//!
//! A call on a lost connection fails with a [`StoreError`]; the next call connects anew. While
//! the server cannot be reached, calls fail at once for a pause that doubles up to
//! [`MAX_PAUSE`], so a dead database does not hold every queued job for a connect timeout.

use std::time::{Duration, Instant};

use postgres::{Client, Config, NoTls};

use crate::store::{StoreError, StoreResult};

/// How long connecting may take, unless the URL says (`connect_timeout`).
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
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

/// Whether `e` means the connection cannot be used again: it broke, or the server is shutting
/// it down (SQLSTATE classes 08 and 57P).
fn is_lost(e: &postgres::Error) -> bool {
    match e.code() {
        Some(code) => code.code().starts_with("08") || code.code().starts_with("57P"),
        None => e.as_db_error().is_none(),
    }
}

/// A connection made when first needed and again after it is lost.
pub(super) struct Connection {
    config: Config,
    client: Option<Client>,
    /// No attempt to connect before this, after one failed.
    not_before: Option<Instant>,
    pause: Duration,
}

impl Connection {
    /// The connection `url` describes, not yet made.
    pub fn new(url: &str) -> StoreResult<Connection> {
        let mut config: Config = url
            .parse()
            .map_err(|e| StoreError(format!("reading the PostgreSQL URL: {e}")))?;
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(CONNECT_TIMEOUT);
        }
        if config.get_application_name().is_none() {
            config.application_name("ludo-server");
        }
        Ok(Connection {
            config,
            client: None,
            not_before: None,
            pause: FIRST_PAUSE,
        })
    }

    /// The client, connected now if it was not.
    fn client(&mut self) -> StoreResult<&mut Client> {
        if self.client.as_ref().is_some_and(Client::is_closed) {
            self.client = None;
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

    /// Runs `work` on the connection, connecting first if needed. When the connection turns
    /// out lost, it is dropped and the next call connects again.
    pub fn run<T>(
        &mut self,
        work: impl FnOnce(&mut Client) -> Result<T, Failure>,
    ) -> StoreResult<T> {
        let client = self.client()?;
        match work(client) {
            Ok(done) => Ok(done),
            Err(Failure::Store(e)) => Err(e),
            Err(Failure::Database(doing, e)) => {
                if is_lost(&e) || client.is_closed() {
                    tracing::warn!("lost the PostgreSQL connection ({e}); reconnecting");
                    self.client = None;
                }
                Err(describe(&doing, &e))
            }
        }
    }
}
