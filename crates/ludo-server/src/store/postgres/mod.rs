//! The PostgreSQL backend: one connection from the storage thread, numbered migrations run at
//! start-up under an advisory lock, and a new connection after one is lost. The jobs waiting
//! together are committed as one group (see [`super::Store`]), and the busiest writes run as
//! statements prepared once per connection.
//!
//! The `postgres` client is synchronous: it drives its connection on a runtime of its own, so
//! the backend is made, used and dropped on the storage thread only (see [`super::Store::open`]).

mod connection;
mod forgetting;
#[cfg(test)]
mod lease_tests;
mod leases;
mod profiles;
mod ratings;
#[cfg(any(test, feature = "testing"))]
mod scratch;
mod seekers;
mod statements;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;

use ludo_fair::Action;
use ludo_rules::Colour;
use postgres::{Client, GenericClient};

#[cfg(feature = "failpoints")]
use super::failed_on_purpose;
use super::rows::{GameRow, json_fail};
use super::{
    Backend, Claim, Cluster, Forgetting, Forgotten, Leader, NewGame, PlayerProfile, RatingChange,
    Renewal, SharedSeeker, StoreError, StoreResult, StoredGame,
};
use crate::ids::{GameId, IdentityId, RoomCode};
use connection::{Connection, Context, Failure, atomically};
#[cfg(any(test, feature = "testing"))]
pub use scratch::TestDatabase;

/// The migrations, in order; each runs once, recorded in the table `schema_version`.
const MIGRATIONS: &[&str] = &[
    include_str!("../../../migrations/postgres/001_initial.sql"),
    include_str!("../../../migrations/postgres/002_leases.sql"),
    include_str!("../../../migrations/postgres/003_shared.sql"),
    include_str!("../../../migrations/postgres/004_stand_in.sql"),
    include_str!("../../../migrations/postgres/005_forgetting.sql"),
];

/// The advisory lock migrating holds, so that two servers starting at once migrate one after
/// the other ("ludo" in ASCII).
const MIGRATION_LOCK: i64 = 0x6c75_646f;

/// Storage in a PostgreSQL database.
pub struct PostgresBackend {
    connection: Connection,
}

impl PostgresBackend {
    /// Connects to the database at `url` (`postgres://user:password@host:port/database`) and
    /// brings its schema up to date.
    ///
    /// # Errors
    /// When the URL is not one, the server cannot be reached or a migration fails.
    pub fn connect(url: &str) -> StoreResult<PostgresBackend> {
        PostgresBackend::connect_as(url, None)
    }

    /// [`PostgresBackend::connect`] for the node named `node`, whose connections then say so
    /// (its leases last while one is open: see `leases.rs`).
    ///
    /// # Errors
    /// As [`PostgresBackend::connect`].
    pub fn connect_as(url: &str, node: Option<&str>) -> StoreResult<PostgresBackend> {
        let name = node.map(connection::node_session);
        let mut backend = PostgresBackend {
            connection: Connection::new(url, name.as_deref())?,
        };
        backend.connection.run(migrate)?;
        Ok(backend)
    }
}

/// A stored count of rated games (never negative: the backend only ever adds one).
fn games(stored: i32) -> u32 {
    u32::try_from(stored).unwrap_or(0)
}

/// Runs the migrations not yet run, all in one transaction under [`MIGRATION_LOCK`].
fn migrate(client: &mut Client) -> Result<(), Failure> {
    let mut tx = client.transaction().context("migrating")?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .context("locking the schema")?;
    tx.batch_execute(
        "CREATE TABLE IF NOT EXISTS schema_version (
             version    INTEGER PRIMARY KEY,
             applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
         )",
    )
    .context("migrating")?;
    let version: i32 = tx
        .query_one("SELECT COALESCE(MAX(version), 0) FROM schema_version", &[])
        .and_then(|r| r.try_get(0))
        .context("reading the schema version")?;
    let done = usize::try_from(version).unwrap_or(0);
    for (index, sql) in MIGRATIONS.iter().enumerate().skip(done) {
        let number = i32::try_from(index + 1).expect("fewer migrations than i32::MAX");
        tx.batch_execute(sql)
            .context(&format!("running migration {number}"))?;
        tx.execute(
            "INSERT INTO schema_version (version) VALUES ($1)",
            &[&number],
        )
        .context("recording the schema version")?;
    }
    tx.commit().context("migrating")
}

/// A game with every action, if it exists.
fn load_game(db: &mut impl GenericClient, id: &GameId) -> Result<Option<StoredGame>, Failure> {
    let Some(r) = db
        .query_opt(
            "SELECT room, rules, seats, players, commitment, seed, finished_at, ranked,
                    started_at, places
             FROM games WHERE id = $1",
            &[&id],
        )
        .context("reading a game")?
    else {
        return Ok(None);
    };
    let row = (|| {
        Ok::<_, postgres::Error>(GameRow {
            id: id.to_owned(),
            room: r.try_get(0)?,
            rules: r.try_get(1)?,
            seats: r.try_get(2)?,
            players: r.try_get(3)?,
            commitment: r.try_get(4)?,
            seed: r.try_get(5)?,
            finished_at: r.try_get(6)?,
            ranked: r.try_get(7)?,
            started_at: r.try_get(8)?,
            places: r.try_get(9)?,
        })
    })()
    .context("reading a game")?;
    let actions = db
        .query(
            "SELECT action, at, stand_in FROM actions WHERE game = $1 ORDER BY number",
            &[&id],
        )
        .and_then(|rows| {
            rows.iter()
                .map(|r| Ok((r.try_get(0)?, r.try_get(1)?, r.try_get(2)?)))
                .collect()
        })
        .context("reading actions")?;
    let ratings = ratings::changes(db, id)?;
    Ok(Some(row.into_game(actions, ratings)?))
}

/// Appends an action (see [`Backend::append_action`]).
const APPEND_ACTION: &str = "INSERT INTO actions (game, number, seat, action, stand_in, at)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (game, number) DO NOTHING";

/// Creates or replaces a room's state (see [`Backend::save_room`]).
const SAVE_ROOM: &str = "INSERT INTO rooms (code, host, state, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $4)
     ON CONFLICT (code) DO UPDATE SET state = excluded.state,
         updated_at = excluded.updated_at, forgotten_at = NULL";

impl Backend for PostgresBackend {
    fn groups_writes(&self) -> bool {
        true
    }

    fn begin_group(&mut self) -> StoreResult<()> {
        self.connection.begin_group()
    }

    fn begin_job(&mut self) -> StoreResult<()> {
        self.connection.begin_job()
    }

    fn end_job(&mut self, keep: bool) -> StoreResult<()> {
        self.connection.end_job(keep)
    }

    fn commit_group(&mut self) -> StoreResult<()> {
        self.connection.commit_group()
    }

    fn abandon_group(&mut self) -> StoreResult<()> {
        self.connection.abandon_group()
    }

    fn known_identity(
        &mut self,
        secret_hash: &str,
        name: &str,
        now: i64,
    ) -> StoreResult<Option<IdentityId>> {
        fail::fail_point!("store-write", failed_on_purpose);
        self.connection.run(|db| {
            db.query_opt(
                "UPDATE identities SET name = $2, seen_at = $3 WHERE secret_hash = $1 RETURNING id",
                &[&secret_hash, &name, &now],
            )
            .and_then(|row| row.map(|r| r.try_get(0)).transpose())
            .context("renaming an identity")
        })
    }

    fn identify(
        &mut self,
        secret_hash: &str,
        name: &str,
        new_id: &IdentityId,
        now: i64,
    ) -> StoreResult<IdentityId> {
        fail::fail_point!("store-write", failed_on_purpose);
        self.connection.run(|db| {
            db.query_one(
                "INSERT INTO identities (id, secret_hash, name, created_at, seen_at)
                 VALUES ($1, $2, $3, $4, $4)
                 ON CONFLICT (secret_hash) DO UPDATE SET name = excluded.name,
                     seen_at = excluded.seen_at
                 RETURNING id",
                &[&new_id, &secret_hash, &name, &now],
            )
            .and_then(|r| r.try_get(0))
            .context("saving an identity")
        })
    }

    fn save_room(
        &mut self,
        code: &RoomCode,
        host: &IdentityId,
        state: &str,
        now: i64,
    ) -> StoreResult<()> {
        fail::fail_point!("store-write", failed_on_purpose);
        self.connection.run_with(SAVE_ROOM, |db, statement| {
            db.execute(statement, &[&code, &host, &state, &now])
                .map(|_| ())
                .context("saving a room")
        })
    }

    fn room(&mut self, code: &RoomCode) -> StoreResult<Option<String>> {
        self.connection.run(|db| {
            db.query_opt(
                "SELECT state FROM rooms WHERE code = $1 AND forgotten_at IS NULL",
                &[&code],
            )
            .and_then(|r| r.map(|r| r.try_get(0)).transpose())
            .context("reading a room")
        })
    }

    fn rooms_in_play(&mut self) -> StoreResult<Vec<(RoomCode, String)>> {
        self.connection.run(|db| {
            db.query(
                "SELECT code, state FROM rooms r WHERE EXISTS
                     (SELECT 1 FROM games g WHERE g.room = r.code AND g.finished_at IS NULL)",
                &[],
            )
            .and_then(|rows| {
                rows.iter()
                    .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
                    .collect()
            })
            .context("reading rooms")
        })
    }

    fn create_game(&mut self, game: &NewGame) -> StoreResult<()> {
        fail::fail_point!("store-write", failed_on_purpose);
        let rules = serde_json::to_string(&game.record.rules).map_err(json_fail("rules"))?;
        let seats = serde_json::to_string(&game.record.seats).map_err(json_fail("seats"))?;
        let grouped = self.connection.grouped();
        self.connection.run(|db| {
            atomically(db, grouped, "saving a new game", |tx| {
                tx.execute(
                    "INSERT INTO games (id, room, rules, seats, players, commitment, seed,
                                    started_at, ranked)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                    &[
                        &game.id,
                        &game.room,
                        &rules,
                        &seats,
                        &game.players,
                        &game.record.commitment,
                        &game.seed,
                        &game.started_at,
                        &game.ranked,
                    ],
                )
                .context("saving a new game")?;
                super::hold_new_game_midway();
                for (seat, identity, name) in &game.people {
                    tx.execute(
                        "INSERT INTO game_players (game, seat, identity, name)
                     VALUES ($1, $2, $3, $4)",
                        &[&game.id, &seat.name(), identity, name],
                    )
                    .context("saving a game's players")?;
                }
                Ok(())
            })
        })
    }

    fn append_action(
        &mut self,
        game: &GameId,
        number: u64,
        seat: Colour,
        action: &Action,
        stand_in: Option<&str>,
        at: i64,
    ) -> StoreResult<bool> {
        fail::fail_point!("store-write", failed_on_purpose);
        // Where the tests slow an action's write down, to kill the server while it stores one.
        fail::fail_point!("store-append-action");
        let action = serde_json::to_string(action).map_err(json_fail("an action"))?;
        let number = i64::try_from(number)
            .map_err(|_| StoreError(format!("action number {number} is too large")))?;
        self.connection.run_with(APPEND_ACTION, |db, statement| {
            db.execute(
                statement,
                &[&game, &number, &seat.name(), &action, &stand_in, &at],
            )
            .map(|written| written == 1)
            .context("saving an action")
        })
    }

    fn finish_game(
        &mut self,
        game: &GameId,
        places: &BTreeMap<Colour, u8>,
        at: i64,
    ) -> StoreResult<Vec<RatingChange>> {
        fail::fail_point!("store-write", failed_on_purpose);
        let grouped = self.connection.grouped();
        self.connection
            .run(|db| ratings::finish_and_rate(db, grouped, game, places, at))
    }

    fn game(&mut self, id: &GameId) -> StoreResult<Option<StoredGame>> {
        self.connection.run(|db| load_game(db, id))
    }

    fn latest_game(&mut self, room: &RoomCode) -> StoreResult<Option<StoredGame>> {
        self.connection.run(|db| {
            let id: Option<GameId> = db
                .query_opt(
                    "SELECT id FROM games WHERE room = $1
                     ORDER BY started_at DESC, seq DESC LIMIT 1",
                    &[&room],
                )
                .and_then(|r| r.map(|r| r.try_get(0)).transpose())
                .context("finding a room's game")?;
            match id {
                Some(id) => load_game(db, &id),
                None => Ok(None),
            }
        })
    }

    fn rating(&mut self, identity: &IdentityId, family: &str) -> StoreResult<(f64, u32)> {
        self.connection
            .run(|db| ratings::current(db, identity, family))
    }

    fn leaderboard(&mut self, family: &str, limit: u32) -> StoreResult<Vec<Leader>> {
        self.connection
            .run(|db| profiles::leaders(db, family, limit))
    }

    fn profile(&mut self, identity: &IdentityId) -> StoreResult<Option<PlayerProfile>> {
        self.connection.run(|db| profiles::player(db, identity))
    }

    fn forget(&mut self, what: &Forgetting) -> StoreResult<Forgotten> {
        fail::fail_point!("store-write", failed_on_purpose);
        let grouped = self.connection.grouped();
        self.connection
            .run(|db| forgetting::forget(db, grouped, what))
    }

    fn cluster(&mut self) -> Option<&mut dyn Cluster> {
        Some(self)
    }
}

impl Cluster for PostgresBackend {
    // A claim or a renewal that PostgreSQL aborts to break a deadlock is tried again (a `hello`
    // waits for the claim); a release is not: it is made as a node stops, which must not wait,
    // and a lease whose node has gone runs out anyway (see `leases`).
    fn claim_room(&mut self, room: &RoomCode, node: &str, ttl_ms: i64) -> StoreResult<Claim> {
        self.connection
            .run_retried(|db| leases::claim(db, room, node, ttl_ms))
    }

    fn renew_leases(
        &mut self,
        node: &str,
        rooms: &[RoomCode],
        ttl_ms: i64,
    ) -> StoreResult<Renewal> {
        self.connection
            .run_retried(|db| leases::renew(db, node, rooms, ttl_ms))
    }

    fn asked_rooms(&mut self, node: &str) -> StoreResult<Vec<RoomCode>> {
        self.connection.run(|db| leases::asked(db, node))
    }

    fn release_room(&mut self, room: &RoomCode, node: &str, token: i64) -> StoreResult<()> {
        self.connection
            .run(|db| leases::release(db, room, node, token))
    }

    fn release_all(&mut self, node: &str) -> StoreResult<()> {
        self.connection.run(|db| leases::release_all(db, node))
    }

    fn unheld_rooms_in_play(&mut self) -> StoreResult<Vec<(RoomCode, String)>> {
        self.connection.run(leases::unheld_in_play)
    }

    fn claim_role(&mut self, role: &str, node: &str, ttl_ms: i64) -> StoreResult<bool> {
        self.connection
            .run(|db| seekers::claim_role(db, role, node, ttl_ms))
    }

    fn put_seeker(&mut self, seeker: &SharedSeeker) -> StoreResult<()> {
        self.connection.run(|db| seekers::put(db, seeker))
    }

    fn remove_seeker(&mut self, ticket: &str) -> StoreResult<()> {
        self.connection.run(|db| seekers::remove(db, ticket))
    }

    fn seekers(&mut self, node: &str, stale_ms: i64) -> StoreResult<Vec<SharedSeeker>> {
        let grouped = self.connection.grouped();
        self.connection
            .run(|db| seekers::all(db, grouped, node, stale_ms))
    }

    fn publish_listings(
        &mut self,
        node: &str,
        listings: &[(RoomCode, String)],
        stale_ms: i64,
    ) -> StoreResult<()> {
        let grouped = self.connection.grouped();
        self.connection
            .run(|db| seekers::publish_listings(db, grouped, node, listings, stale_ms))
    }

    fn listings(&mut self) -> StoreResult<Vec<String>> {
        self.connection.run(seekers::listings)
    }

    fn seat_seekers(
        &mut self,
        tickets: &[String],
        room: &RoomCode,
        seats: usize,
    ) -> StoreResult<()> {
        self.connection
            .run(|db| seekers::seat(db, tickets, room, seats))
    }
}
