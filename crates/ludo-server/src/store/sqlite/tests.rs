//! The SQLite backend on real files: rating a finished game, finishing twice, and bringing a
//! database of the first schema up to date without losing its games.

use std::collections::BTreeMap;

use ludo_fair::Record;
use ludo_rules::{Colour, Preset, Rules};
use rusqlite::params;

use super::SqliteBackend;
use crate::store::{Backend, NewGame};

fn new_game(id: &str, ranked: bool, people: &[(Colour, &str)]) -> NewGame {
    let seats: Vec<Colour> = people.iter().map(|p| p.0).collect();
    let players: BTreeMap<Colour, serde_json::Value> = people
        .iter()
        .map(|(c, who)| {
            (
                *c,
                serde_json::json!({"kind": "person", "id": who, "name": who}),
            )
        })
        .collect();
    NewGame {
        id: id.to_owned(),
        room: "ROOM".to_owned(),
        record: Record {
            game_id: id.to_owned(),
            rules: Rules::preset(Preset::Classic),
            seats,
            commitment: "c".repeat(64),
            seed: None,
            actions: Vec::new(),
        },
        players: serde_json::to_string(&players).unwrap(),
        people: people
            .iter()
            .map(|(c, who)| (*c, (*who).to_owned(), (*who).to_owned()))
            .collect(),
        ranked,
        seed: "0".repeat(64),
        started_at: 1,
    }
}

fn backend_with(dir: &tempfile::TempDir, identities: &[&str]) -> SqliteBackend {
    let mut backend = SqliteBackend::open(&dir.path().join("ludo.db")).unwrap();
    for who in identities {
        backend
            .identify(&format!("hash-{who}"), who, who, 0)
            .unwrap();
    }
    backend.save_room("ROOM", identities[0], "{}", 0).unwrap();
    backend
}

#[test]
fn finishing_a_ranked_game_rates_its_players_once() {
    let dir = tempfile::tempdir().unwrap();
    let mut backend = backend_with(&dir, &["ana", "bo"]);
    backend
        .create_game(&new_game(
            "G1",
            true,
            &[(Colour::Yellow, "ana"), (Colour::Red, "bo")],
        ))
        .unwrap();
    let places = BTreeMap::from([(Colour::Yellow, 2), (Colour::Red, 1)]);
    let changes = backend.finish_game("G1", &places, 5).unwrap();
    assert_eq!(changes.len(), 2);
    let bo = changes.iter().find(|c| c.id == "bo").unwrap();
    assert_eq!((bo.before, bo.after, bo.place), (1500.0, 1532.0, 1));
    // A second finish (after a restart, say) changes nothing and reports the same changes.
    assert_eq!(backend.finish_game("G1", &places, 9).unwrap(), changes);
    assert_eq!(backend.rating("bo", "classic").unwrap(), (1532.0, 1));
    assert_eq!(backend.rating("ana", "classic").unwrap(), (1468.0, 1));
    assert_eq!(backend.rating("ana", "qdan").unwrap(), (1500.0, 0));
    let stored = backend.game("G1").unwrap().unwrap();
    assert!(stored.ranked);
    assert_eq!(stored.places, places);
    assert_eq!(stored.finished_at, Some(5));
}

#[test]
fn finishing_a_friendly_game_rates_nobody_but_counts_in_statistics() {
    let dir = tempfile::tempdir().unwrap();
    let mut backend = backend_with(&dir, &["ana", "bo"]);
    backend
        .create_game(&new_game(
            "G1",
            false,
            &[(Colour::Yellow, "ana"), (Colour::Red, "bo")],
        ))
        .unwrap();
    let places = BTreeMap::from([(Colour::Yellow, 1), (Colour::Red, 2)]);
    assert!(backend.finish_game("G1", &places, 5).unwrap().is_empty());
    let ana = backend.profile("ana").unwrap().unwrap();
    assert!(ana.ratings.is_empty() && ana.history.is_empty());
    assert_eq!((ana.stats.games, ana.stats.wins), (1, 1));
    assert_eq!(ana.stats.places, [1, 0, 0, 0]);
    assert_eq!(ana.recent[0].seats[1].name, "bo");
    assert!(backend.leaderboard("classic", 10).unwrap().is_empty());
}

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
    let ana = backend.profile("ana").unwrap().unwrap();
    assert_eq!(ana.stats.games, 1);
    assert_eq!(ana.stats.places, [0, 1, 0, 0]);
    assert_eq!(ana.recent[0].seats[1].name, "CPU (hard)");
    assert!(!backend.game("G").unwrap().unwrap().ranked);
}
