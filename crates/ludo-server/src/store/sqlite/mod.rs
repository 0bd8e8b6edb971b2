//! The SQLite backend: one file, numbered migrations run at start-up, WAL journal.

mod forgetting;
mod profiles;
mod ratings;

use std::collections::BTreeMap;
use std::path::Path;

use ludo_fair::Action;
use ludo_rules::Colour;
use rusqlite::{Connection, OptionalExtension, params};

#[cfg(feature = "failpoints")]
use super::failed_on_purpose;
use super::rows::{GameRow, json_fail};
use super::{
    Backend, Forgetting, Forgotten, Leader, NewGame, PlayerProfile, RatingChange, StoreError,
    StoreResult, StoredGame,
};
use crate::ids::{GameId, IdentityId, RoomCode};

/// The migrations, in order; each runs once, recorded in `PRAGMA user_version`.
const MIGRATIONS: &[&str] = &[
    include_str!("../../../migrations/001_initial.sql"),
    include_str!("../../../migrations/002_ranked.sql"),
    include_str!("../../../migrations/003_stand_in.sql"),
    include_str!("../../../migrations/004_forgetting.sql"),
];

/// Pages (4 KiB each) the write-ahead log holds before they are folded into the database file:
/// the log grows to about 40 MiB, and a restart after a crash reads at most that much.
const WAL_CHECKPOINT_PAGES: u32 = 10_000;

/// Storage in one SQLite file.
pub struct SqliteBackend {
    db: Connection,
}

fn fail(context: &str) -> impl Fn(rusqlite::Error) -> StoreError + '_ {
    move |e| StoreError(format!("{context}: {e}"))
}

/// How long a write waits for another process's lock before it fails.
pub const BUSY_TIMEOUT: std::time::Duration = std::time::Duration::from_millis(250);

impl SqliteBackend {
    /// Opens (or creates) the database file and brings its schema up to date.
    ///
    /// # Errors
    /// When the file cannot be opened or a migration fails.
    pub fn open(path: &Path) -> StoreResult<SqliteBackend> {
        let db = Connection::open(path).map_err(fail("opening the database"))?;
        // Another process holding the write lock (a backup, say) makes a write fail after this
        // long, rather than hold up every read queued behind it on the storage thread; the
        // write is refused honestly and a room's CPU tries again later.
        db.busy_timeout(BUSY_TIMEOUT)
            .map_err(fail("setting up the database"))?;
        // The write-ahead log is folded into the file every WAL_CHECKPOINT_PAGES pages rather
        // than SQLite's 1,000: under load the same pages (the games being played) are copied
        // once a checkpoint instead of many times, and the storage thread, which waits for each
        // checkpoint and its fsync, waits a tenth as often.
        db.execute_batch(&format!(
            "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;
             PRAGMA wal_autocheckpoint = {WAL_CHECKPOINT_PAGES};"
        ))
        .map_err(fail("setting up the database"))?;
        let mut backend = SqliteBackend { db };
        backend.migrate()?;
        Ok(backend)
    }

    fn migrate(&mut self) -> StoreResult<()> {
        let version: usize = self
            .db
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(fail("reading the schema version"))?;
        for (index, sql) in MIGRATIONS.iter().enumerate().skip(version) {
            let tx = self.db.transaction().map_err(fail("migrating"))?;
            tx.execute_batch(sql).map_err(fail("migrating"))?;
            tx.execute_batch(&format!("PRAGMA user_version = {}", index + 1))
                .map_err(fail("migrating"))?;
            tx.commit().map_err(fail("migrating"))?;
        }
        Ok(())
    }

    /// Runs one statement that returns no rows, prepared once and kept: the statements every
    /// group of writes runs (and every job in it) are not parsed again each time.
    fn run_cached(&self, sql: &str) -> rusqlite::Result<()> {
        self.db.prepare_cached(sql)?.execute([]).map(drop)
    }

    fn load_game(&mut self, id: &GameId) -> StoreResult<Option<StoredGame>> {
        let row = self
            .db
            .query_row(
                "SELECT room, rules, seats, players, commitment, seed, finished_at, ranked,
                        started_at, places
                 FROM games WHERE id = ?1",
                params![id],
                |r| {
                    Ok(GameRow {
                        id: id.to_owned(),
                        room: r.get(0)?,
                        rules: r.get(1)?,
                        seats: r.get(2)?,
                        players: r.get(3)?,
                        commitment: r.get(4)?,
                        seed: r.get(5)?,
                        finished_at: r.get(6)?,
                        ranked: r.get(7)?,
                        started_at: r.get(8)?,
                        places: r.get(9)?,
                    })
                },
            )
            .optional()
            .map_err(fail("reading a game"))?;
        let Some(row) = row else {
            return Ok(None);
        };
        let mut statement = self
            .db
            .prepare_cached(
                "SELECT action, at, stand_in FROM actions WHERE game = ?1 ORDER BY number",
            )
            .map_err(fail("reading actions"))?;
        let actions = statement
            .query_map(params![id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .map_err(fail("reading actions"))?
            .collect::<Result<_, _>>()
            .map_err(fail("reading actions"))?;
        let ratings = self.rating_changes(id)?;
        row.into_game(actions, ratings).map(Some)
    }
}

impl Backend for SqliteBackend {
    fn groups_writes(&self) -> bool {
        true
    }

    fn begin_group(&mut self) -> StoreResult<()> {
        // The write lock is taken at once: a group never fails half-way for want of it.
        self.run_cached("BEGIN IMMEDIATE")
            .map_err(fail("beginning a group of writes"))
    }

    fn begin_job(&mut self) -> StoreResult<()> {
        self.run_cached("SAVEPOINT job")
            .map_err(fail("beginning a job"))
    }

    fn end_job(&mut self, keep: bool) -> StoreResult<()> {
        if keep {
            self.run_cached("RELEASE job")
        } else {
            self.db.execute_batch("ROLLBACK TO job; RELEASE job")
        }
        .map_err(fail("ending a job"))
    }

    fn commit_group(&mut self) -> StoreResult<()> {
        let committed = self
            .run_cached("COMMIT")
            .map_err(fail("committing a group of writes"));
        if committed.is_err() {
            let _ = self.abandon_group();
        }
        committed
    }

    fn abandon_group(&mut self) -> StoreResult<()> {
        if self.db.is_autocommit() {
            return Ok(());
        }
        self.db
            .execute_batch("ROLLBACK")
            .map_err(fail("abandoning a group of writes"))
    }

    fn known_identity(
        &mut self,
        secret_hash: &str,
        name: &str,
        now: i64,
    ) -> StoreResult<Option<IdentityId>> {
        fail::fail_point!("store-write", failed_on_purpose);
        self.db
            .query_row(
                "UPDATE identities SET name = ?2, seen_at = ?3 WHERE secret_hash = ?1 RETURNING id",
                params![secret_hash, name, now],
                |r| r.get(0),
            )
            .optional()
            .map_err(fail("renaming an identity"))
    }

    fn identify(
        &mut self,
        secret_hash: &str,
        name: &str,
        new_id: &IdentityId,
        now: i64,
    ) -> StoreResult<IdentityId> {
        fail::fail_point!("store-write", failed_on_purpose);
        self.db
            .execute(
                "INSERT INTO identities (id, secret_hash, name, created_at, seen_at)
                 VALUES (?1, ?2, ?3, ?4, ?4)
                 ON CONFLICT(secret_hash) DO UPDATE SET name = excluded.name,
                     seen_at = excluded.seen_at",
                params![new_id, secret_hash, name, now],
            )
            .map_err(fail("saving an identity"))?;
        self.db
            .query_row(
                "SELECT id FROM identities WHERE secret_hash = ?1",
                params![secret_hash],
                |r| r.get(0),
            )
            .map_err(fail("reading an identity"))
    }

    fn save_room(
        &mut self,
        code: &RoomCode,
        host: &IdentityId,
        state: &str,
        now: i64,
    ) -> StoreResult<()> {
        fail::fail_point!("store-write", failed_on_purpose);
        self.db
            .execute(
                "INSERT INTO rooms (code, host, state, created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?4)
                 ON CONFLICT(code) DO UPDATE SET state = excluded.state,
                     updated_at = excluded.updated_at, forgotten_at = NULL",
                params![code, host, state, now],
            )
            .map(|_| ())
            .map_err(fail("saving a room"))
    }

    fn room(&mut self, code: &RoomCode) -> StoreResult<Option<String>> {
        self.db
            .query_row(
                "SELECT state FROM rooms WHERE code = ?1 AND forgotten_at IS NULL",
                params![code],
                |r| r.get(0),
            )
            .optional()
            .map_err(fail("reading a room"))
    }

    fn rooms_in_play(&mut self) -> StoreResult<Vec<(RoomCode, String)>> {
        let mut statement = self
            .db
            .prepare(
                "SELECT code, state FROM rooms r WHERE EXISTS
                     (SELECT 1 FROM games g WHERE g.room = r.code AND g.finished_at IS NULL)",
            )
            .map_err(fail("reading rooms"))?;
        let rows = statement
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .map_err(fail("reading rooms"))?;
        rows.collect::<Result<_, _>>()
            .map_err(fail("reading rooms"))
    }

    fn create_game(&mut self, game: &NewGame) -> StoreResult<()> {
        fail::fail_point!("store-write", failed_on_purpose);
        let rules = serde_json::to_string(&game.record.rules).map_err(json_fail("rules"))?;
        let seats = serde_json::to_string(&game.record.seats).map_err(json_fail("seats"))?;
        // A savepoint: a transaction of its own, or a part of the group it runs in.
        let tx = self.db.savepoint().map_err(fail("saving a new game"))?;
        tx.execute(
            "INSERT INTO games (id, room, rules, seats, players, commitment, seed, started_at,
                                ranked)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            params![
                game.id,
                game.room,
                rules,
                seats,
                game.players,
                game.record.commitment,
                game.seed,
                game.started_at,
                game.ranked
            ],
        )
        .map_err(fail("saving a new game"))?;
        super::hold_new_game_midway();
        for (seat, identity, name) in &game.people {
            tx.execute(
                "INSERT INTO game_players (game, seat, identity, name) VALUES (?1, ?2, ?3, ?4)",
                params![game.id, seat.name(), identity, name],
            )
            .map_err(fail("saving a game's players"))?;
        }
        tx.commit().map_err(fail("saving a new game"))
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
        self.db
            .prepare_cached(
                "INSERT INTO actions (game, number, seat, action, stand_in, at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                 ON CONFLICT (game, number) DO NOTHING",
            )
            .and_then(|mut s| {
                s.execute(params![
                    game,
                    number as i64,
                    seat.name(),
                    action,
                    stand_in,
                    at
                ])
            })
            .map(|written| written == 1)
            .map_err(fail("saving an action"))
    }

    fn finish_game(
        &mut self,
        game: &GameId,
        places: &BTreeMap<Colour, u8>,
        at: i64,
    ) -> StoreResult<Vec<RatingChange>> {
        fail::fail_point!("store-write", failed_on_purpose);
        self.finish_and_rate(game, places, at)
    }

    fn game(&mut self, id: &GameId) -> StoreResult<Option<StoredGame>> {
        self.load_game(id)
    }

    fn latest_game(&mut self, room: &RoomCode) -> StoreResult<Option<StoredGame>> {
        let id: Option<GameId> = self
            .db
            .query_row(
                "SELECT id FROM games WHERE room = ?1 ORDER BY started_at DESC, rowid DESC LIMIT 1",
                params![room],
                |r| r.get(0),
            )
            .optional()
            .map_err(fail("finding a room's game"))?;
        match id {
            Some(id) => self.load_game(&id),
            None => Ok(None),
        }
    }

    fn rating(&mut self, identity: &IdentityId, family: &str) -> StoreResult<(f64, u32)> {
        ratings::current(&self.db, identity, family)
    }

    fn leaderboard(&mut self, family: &str, limit: u32) -> StoreResult<Vec<Leader>> {
        self.leaders(family, limit)
    }

    fn profile(&mut self, identity: &IdentityId) -> StoreResult<Option<PlayerProfile>> {
        self.player(identity)
    }

    fn forget(&mut self, what: &Forgetting) -> StoreResult<Forgotten> {
        fail::fail_point!("store-write", failed_on_purpose);
        forgetting::forget(&mut self.db, what)
    }
}

#[cfg(test)]
mod tests;
