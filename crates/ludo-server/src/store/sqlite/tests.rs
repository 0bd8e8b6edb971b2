//! What only SQLite has to show (the suite both backends pass is `store::suite`): bringing a
//! database of the first schema up to date without losing its games.

use rusqlite::params;

use super::SqliteBackend;
use crate::store::Backend;

#[test]
fn a_database_of_the_first_schema_keeps_its_games_when_brought_up_to_date() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ludo.db");
    {
        let db = rusqlite::Connection::open(&path).unwrap();
        db.execute_batch(super::MIGRATIONS[0]).unwrap();
        db.execute_batch("PRAGMA user_version = 1").unwrap();
        db.execute(
            "INSERT INTO identities (id, secret_hash, name, created_at) VALUES ('ana', 'h', 'Ana', 0)",
            [],
        )
        .unwrap();
        db.execute(
            "INSERT INTO rooms (code, host, state, created_at, updated_at) VALUES ('R', 'ana', '{}', 0, 0)",
            [],
        )
        .unwrap();
        db.execute(
            "INSERT INTO games (id, room, rules, seats, players, commitment, seed, started_at,
                                finished_at, places)
             VALUES ('G', 'R', '{\"preset\":\"qdan\"}', '[\"yellow\",\"red\"]', ?1, 'c', 's', 1, 2,
                     '{\"yellow\":2,\"red\":1}')",
            params![
                r#"{"yellow":{"kind":"person","id":"ana","name":"Ana"},"red":{"kind":"cpu","level":"hard"}}"#
            ],
        )
        .unwrap();
    }
    let mut backend = SqliteBackend::open(&path).unwrap();
    let ana = backend.profile(&"ana".into()).unwrap().unwrap();
    assert_eq!(ana.stats.games, 1);
    assert_eq!(ana.stats.places, [0, 1, 0, 0]);
    assert_eq!(ana.recent[0].seats[1].name, "CPU (hard)");
    assert!(!backend.game(&"G".into()).unwrap().unwrap().ranked);
}

#[test]
fn the_write_ahead_log_is_folded_into_the_file_every_ten_thousand_pages() {
    let dir = tempfile::tempdir().unwrap();
    let backend = SqliteBackend::open(&dir.path().join("ludo.db")).unwrap();
    let pages: u32 = backend
        .db
        .query_row("PRAGMA wal_autocheckpoint", [], |r| r.get(0))
        .unwrap();
    assert_eq!(pages, super::WAL_CHECKPOINT_PAGES);
    assert_eq!(pages, 10_000);
    let mode: String = backend
        .db
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
}
