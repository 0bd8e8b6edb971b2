//! What only PostgreSQL has to show (the suite both backends pass is `store::suite`): servers
//! sharing one database, a lost connection (alone and within a group of writes), and a backend
//! opened from async code.

use std::collections::BTreeMap;
use std::sync::{Arc, Barrier};

use ludo_rules::Colour;
use postgres::{Client, NoTls};

use super::{MIGRATIONS, PostgresBackend};
use crate::store::suite::{new_game, with_people};
use crate::store::{Backend, Store, TestDatabase};

/// How many pairs of games the race test finishes at once.
const RACES: usize = 40;

#[test]
fn two_servers_finishing_games_of_one_player_at_once_lose_no_rating_update() {
    let Some(db) = TestDatabase::create() else {
        return;
    };
    let mut first = PostgresBackend::connect(db.url()).unwrap();
    let second = PostgresBackend::connect(db.url()).unwrap();
    with_people(&mut first, &["ana", "bo", "cy"]);
    for race in 0..RACES {
        for (id, other) in [(format!("A{race}"), "bo"), (format!("B{race}"), "cy")] {
            let people = [(Colour::Yellow, "ana"), (Colour::Red, other)];
            first.create_game(&new_game(&id, true, &people)).unwrap();
        }
    }
    // Each server finishes one of the pair at the same moment: ana wins both.
    let start = Arc::new(Barrier::new(2));
    let finisher = |mut backend: PostgresBackend, prefix: &'static str| {
        let start = start.clone();
        std::thread::spawn(move || {
            let places = BTreeMap::from([(Colour::Yellow, 1), (Colour::Red, 2)]);
            for race in 0..RACES {
                start.wait();
                let game = crate::ids::GameId::from(format!("{prefix}{race}"));
                backend.finish_game(&game, &places, race as i64).unwrap();
            }
            backend
        })
    };
    let (a, b) = (finisher(first, "A"), finisher(second, "B"));
    let (mut first, _) = (a.join().unwrap(), b.join().unwrap());

    let (rating, games) = first.rating(&"ana".into(), "classic").unwrap();
    assert_eq!(games as usize, 2 * RACES);
    // Every change starts where another ended: walked from the start, they reach the rating.
    let history = first.profile(&"ana".into()).unwrap().unwrap().history;
    assert_eq!(history.len(), 2 * RACES);
    let mut now = crate::rating::START;
    for step in 0..history.len() {
        let next = history.iter().find(|p| p.before == now);
        let next = next.unwrap_or_else(|| panic!("change {step} starts at {now}: {history:?}"));
        now = next.after;
    }
    assert_eq!(now, rating, "no update was lost");
}

#[test]
fn servers_starting_at_once_migrate_the_database_once() {
    let Some(db) = TestDatabase::create() else {
        return;
    };
    let servers: Vec<_> = (0..4)
        .map(|_| {
            let url = db.url().to_owned();
            std::thread::spawn(move || PostgresBackend::connect(&url).map(drop))
        })
        .collect();
    for server in servers {
        server.join().unwrap().expect("every server starts");
    }
    let mut client = Client::connect(db.url(), NoTls).unwrap();
    let versions: Vec<i32> = client
        .query("SELECT version FROM schema_version ORDER BY version", &[])
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    let wanted: Vec<i32> = (1..=MIGRATIONS.len() as i32).collect();
    assert_eq!(versions, wanted);
}

#[test]
fn after_a_lost_connection_at_most_one_call_fails_and_the_next_connects_again() {
    let Some(db) = TestDatabase::create() else {
        return;
    };
    let mut backend = PostgresBackend::connect(db.url()).unwrap();
    with_people(&mut backend, &["ana"]);
    assert_eq!(
        end_connections(&db),
        1,
        "the backend's one connection was ended"
    );
    let first = backend.room(&"ROOM".into());
    if let Err(e) = &first {
        assert!(!e.0.is_empty());
    }
    assert_eq!(backend.room(&"ROOM".into()).unwrap().as_deref(), Some("{}"));
    assert_eq!(
        backend.identify("hash-ana", "Ana", &"x".into(), 1).unwrap(),
        "ana"
    );
}

/// Ends every connection to `db` but the caller's: how many it ended.
fn end_connections(db: &TestDatabase) -> i64 {
    let name = db.name().to_owned();
    db.as_admin(move |admin| {
        admin
            .query_one(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
                 WHERE datname = $1 AND pid <> pg_backend_pid()",
                &[&name],
            )
            .unwrap()
            .get(0)
    })
}

#[test]
fn a_connection_lost_during_a_group_fails_the_whole_group_and_writes_none_of_it() {
    let Some(db) = TestDatabase::create() else {
        return;
    };
    let mut backend = PostgresBackend::connect(db.url()).unwrap();
    with_people(&mut backend, &["ana"]);
    let save = |backend: &mut PostgresBackend, code: &str| {
        backend.save_room(&code.into(), &"ana".into(), "{}", 1)
    };
    backend.begin_group().unwrap();
    backend.begin_job().unwrap();
    save(&mut backend, "A").unwrap();
    backend.end_job(true).unwrap();
    assert_eq!(end_connections(&db), 1);
    // The group's later jobs fail rather than write outside it on a new connection.
    let _ = backend.begin_job();
    assert!(save(&mut backend, "B").is_err());
    assert!(backend.end_job(true).is_err(), "the group is broken");
    assert!(backend.commit_group().is_err());
    // The next call connects again, and finds none of the group written.
    assert_eq!(backend.room(&"A".into()).unwrap(), None);
    assert_eq!(backend.room(&"B".into()).unwrap(), None);
    assert_eq!(backend.room(&"ROOM".into()).unwrap().as_deref(), Some("{}"));
}

#[test]
fn a_group_commits_its_jobs_writes_at_once_and_not_before() {
    let Some(db) = TestDatabase::create() else {
        return;
    };
    let mut backend = PostgresBackend::connect(db.url()).unwrap();
    let mut onlooker = PostgresBackend::connect(db.url()).unwrap();
    with_people(&mut backend, &["ana"]);
    backend.begin_group().unwrap();
    for code in ["A", "B"] {
        backend.begin_job().unwrap();
        backend
            .save_room(&code.into(), &"ana".into(), "{}", 1)
            .unwrap();
        backend.end_job(true).unwrap();
    }
    assert_eq!(
        onlooker.room(&"A".into()).unwrap(),
        None,
        "not yet committed"
    );
    backend.commit_group().unwrap();
    assert!(onlooker.room(&"A".into()).unwrap().is_some());
    assert!(onlooker.room(&"B".into()).unwrap().is_some());
}

#[tokio::test]
async fn a_store_opened_inside_the_async_runtime_serves_and_closes_cleanly() {
    let Some(db) = TestDatabase::create() else {
        return;
    };
    let store = Store::open(std::path::Path::new(db.url())).await.unwrap();
    let id = store
        .run(|b| b.identify("hash", "Ana", &"ana".into(), 1))
        .await
        .unwrap();
    assert_eq!(id, "ana");
    // The backend (and the client's own runtime) is dropped on the storage thread, not here.
    drop(store);
    let unreachable = Store::open(std::path::Path::new(
        "postgres://nobody@127.0.0.1:1/none?connect_timeout=2",
    ))
    .await;
    assert!(
        unreachable.is_err(),
        "a server that is not there is an error"
    );
}
