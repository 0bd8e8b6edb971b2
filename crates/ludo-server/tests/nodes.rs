//! Two nodes sharing one PostgreSQL database: each room is served by one node at a time, moves
//! to the node its clients reach, and is taken over when its node stops. Needs a server named by
//! `LUDO_TEST_POSTGRES` (see `scripts/test-postgres.sh`); skipped without it, except on CI.

mod support;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use ludo_server::{Config, TestDatabase};
use serde_json::{Value, json};
use support::{Client, HOST, Running, create_room, http, play_until_over, run};

/// How long a lease lasts in these tests.
const LEASE_MS: u64 = 600;

/// A node named `name` running on the database at `url`, its configuration adjusted by
/// `adjust`, until told to stop.
async fn node(url: &str, name: &str, adjust: impl FnOnce(&mut Config)) -> Running {
    let mut config = Config {
        node: Some(name.to_owned()),
        lease_ms: LEASE_MS,
        grace_ms: 60_000,
        ..Config::for_tests(PathBuf::from(url))
    };
    adjust(&mut config);
    run(&config).await
}

/// Nodes `a` and `b` on the database at `url`, both configured by `adjust`.
async fn two_nodes(url: &str, adjust: impl Fn(&mut Config)) -> (Running, Running) {
    (node(url, "a", &adjust).await, node(url, "b", &adjust).await)
}

/// The stored record of game `id`, verified.
async fn verified_record(addr: SocketAddr, id: &str) -> ludo_fair::Record {
    let (status, body) = http(addr, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(status, 200, "{body}");
    let record: ludo_fair::Record = serde_json::from_str(&body).unwrap();
    record.verify().expect("the record verifies");
    record
}

#[tokio::test]
async fn a_room_moves_to_the_node_its_client_reaches_and_its_game_goes_on_there() {
    let Some(db) = TestDatabase::create() else {
        return;
    };
    let (a, b) = two_nodes(db.url(), |_| ()).await;
    let (code, mut on_a) = support::game_part_played(a.addr, 10).await;
    let before = on_a.game.clone().unwrap();

    // The host reconnects through node b: a hands the room over and closes its connection.
    let asked = Instant::now();
    let mut on_b = Client::join(b.addr, &code, HOST, "Host").await;
    let moved_in = asked.elapsed();
    let closed = on_a.closed(|_| ()).await;
    assert_eq!(
        closed.map(|c| c.0),
        Some(1011),
        "a asks its client to come back"
    );
    assert!(
        moved_in < Duration::from_millis(LEASE_MS * 2),
        "{moved_in:?}"
    );
    let after = on_b.game.clone().unwrap();
    assert_eq!(after["id"], before["id"]);
    assert_eq!(after["version"], before["version"]);

    // The game goes on at b to its end, and its record verifies.
    let end = play_until_over(&mut on_b, "yellow").await;
    let record = verified_record(b.addr, end["id"].as_str().unwrap()).await;
    assert_eq!(
        record.actions.len() as u64,
        end["version"].as_u64().unwrap()
    );
    // A look at the room from a, which no longer serves it, does not take it back.
    let (status, body) = http(a.addr, "GET", &format!("/api/rooms/{code}"), None).await;
    assert_eq!(status, 200, "{body}");
    on_b.send(json!({"t": "play_again"})).await;
    on_b.recv_until(|m| m["t"] == "room").await;
    on_b.close().await;
    a.stop().await;
    b.stop().await;
}

#[tokio::test]
async fn a_game_whose_node_stops_is_taken_over_by_another_with_nobody_connected() {
    let Some(db) = TestDatabase::create() else {
        return;
    };
    // CPUs play at once, and for the host as soon as they are away.
    let quick = |c: &mut Config| {
        c.grace_ms = 0;
        c.cpu_delay_ms = 20;
    };
    let (a, b) = two_nodes(db.url(), quick).await;
    let (code, host) = support::game_part_played(a.addr, 10).await;
    let id = host.game.clone().unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    host.close().await;
    a.stop().await;

    // b takes the room over by itself and its CPUs finish the game.
    let deadline = Instant::now() + Duration::from_secs(30);
    let record: Value = loop {
        let (status, body) = http(b.addr, "GET", &format!("/api/games/{id}"), None).await;
        assert_eq!(status, 200, "{body}");
        let record: Value = serde_json::from_str(&body).unwrap();
        if !record["seed"].is_null() {
            break record;
        }
        assert!(Instant::now() < deadline, "the game did not finish at b");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let record: ludo_fair::Record = serde_json::from_value(record).unwrap();
    record.verify().expect("the record verifies");
    let (status, _) = http(b.addr, "GET", &format!("/api/rooms/{code}"), None).await;
    assert_eq!(status, 200);
    b.stop().await;
}

/// Asks node `addr` for a ranked game of two and waits until a table is found: the `matched`
/// message.
async fn seek_and_wait(addr: SocketAddr, device: &str, name: &str) -> Value {
    let mut client = Client::connect(addr).await;
    client
        .send(json!({"t": "seek", "device": device, "name": name, "rules": "qdan", "size": 2}))
        .await;
    let matched = client.recv_until(|m| m["t"] == "matched").await;
    client.close().await;
    matched
}

#[tokio::test]
async fn two_people_seeking_through_different_nodes_are_matched_and_play_their_ranked_game() {
    let Some(db) = TestDatabase::create() else {
        return;
    };
    let (a, b) = two_nodes(db.url(), |_| ()).await;
    let (ana, bo) = tokio::join!(
        seek_and_wait(a.addr, HOST, "Ana"),
        seek_and_wait(b.addr, support::GUEST, "Bo")
    );
    assert_eq!(ana["room"], bo["room"], "one table for both: {ana} {bo}");
    let code = ana["room"].as_str().unwrap();

    // Each comes to the table through their own node; the room is served by one of them, and
    // the ranked game starts once both are there.
    let mut on_a = Client::join(a.addr, code, HOST, "Ana").await;
    let mut on_b = Client::join(b.addr, code, support::GUEST, "Bo").await;
    // One of the two connections was closed when the room moved; its player comes back.
    let game = tokio::select! {
        game = on_b.recv_until(|m| !m["game"].is_null()) => game,
        _ = on_a.closed(|_| ()) => {
            on_a = Client::join(b.addr, code, HOST, "Ana").await;
            on_a.recv_until(|m| !m["game"].is_null()).await
        }
    };
    assert!(game["game"]["id"].is_string(), "{game}");
    on_a.close().await;
    on_b.close().await;
    a.stop().await;
    b.stop().await;
}

#[tokio::test]
async fn a_public_table_at_one_node_is_listed_by_every_node() {
    let Some(db) = TestDatabase::create() else {
        return;
    };
    let (a, b) = two_nodes(db.url(), |_| ()).await;
    let code = create_room(a.addr, HOST, json!({"public": true})).await;
    let host = Client::join(a.addr, &code, HOST, "Host").await;
    let listed = |addr: SocketAddr| async move {
        let (status, body) = http(addr, "GET", "/api/tables/open", None).await;
        assert_eq!(status, 200, "{body}");
        serde_json::from_str::<Value>(&body).unwrap()["tables"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["code"].as_str().unwrap().to_owned())
            .collect::<Vec<_>>()
    };
    let deadline = Instant::now() + Duration::from_millis(LEASE_MS * 3);
    while !(listed(a.addr).await.contains(&code) && listed(b.addr).await.contains(&code)) {
        assert!(
            Instant::now() < deadline,
            "the table is not listed by both nodes"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // It leaves every list once nobody is at it.
    host.close().await;
    let deadline = Instant::now() + Duration::from_millis(LEASE_MS * 3);
    while listed(b.addr).await.contains(&code) {
        assert!(Instant::now() < deadline, "the table stays listed");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    a.stop().await;
    b.stop().await;
}

/// Runs `sql` about room `room` (its `$1`) on the database at `url`, as another node would;
/// how many rows it changed.
async fn execute(url: &str, sql: &'static str, room: String) -> u64 {
    let url = url.to_owned();
    tokio::task::spawn_blocking(move || {
        let mut db = postgres::Client::connect(&url, postgres::NoTls).unwrap();
        db.execute(sql, &[&room]).unwrap()
    })
    .await
    .unwrap()
}

/// A connection to the database at `url` under node `name`'s application name: while it is
/// open, that node counts as alive, and its leases last their term.
async fn alive_as(url: &str, name: &str) -> postgres::Client {
    let url = url.to_owned();
    let name = format!("ludo node {name}");
    tokio::task::spawn_blocking(move || {
        let mut config: postgres::Config = url.parse().unwrap();
        config.application_name(&name);
        config.connect(postgres::NoTls).unwrap()
    })
    .await
    .unwrap()
}

/// How many actions game `id` has stored.
async fn stored_actions(addr: SocketAddr, id: &str) -> usize {
    let (status, body) = http(addr, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(status, 200, "{body}");
    let record: Value = serde_json::from_str(&body).unwrap();
    record["actions"].as_array().unwrap().len()
}

#[tokio::test]
async fn a_node_that_loses_its_lease_stops_acting_for_the_room_at_once() {
    let Some(db) = TestDatabase::create() else {
        return;
    };
    // The CPU plays for the host as soon as they are away, so the room would act by itself.
    let a = node(db.url(), "a", |c| {
        c.grace_ms = 0;
        c.cpu_delay_ms = 20;
    })
    .await;
    let (code, mut host) = support::game_part_played(a.addr, 10).await;
    let id = host.game.clone().unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();

    // Another node, alive, takes the lease (as one would after a partition).
    let elsewhere = alive_as(db.url(), "elsewhere").await;
    let taken = execute(
        db.url(),
        "UPDATE room_leases SET node = 'elsewhere', expires_at = ludo_now_ms() + 60000
         WHERE room = $1",
        code.clone(),
    )
    .await;
    assert_eq!(taken, 1);
    let closed = host.closed(|_| ()).await;
    assert_eq!(closed.map(|c| c.0), Some(1011), "a stops serving the room");
    let stopped_at = stored_actions(a.addr, &id).await;
    tokio::time::sleep(Duration::from_millis(LEASE_MS)).await;
    assert_eq!(
        stored_actions(a.addr, &id).await,
        stopped_at,
        "nothing is played for the room once its lease is lost"
    );
    // A client coming back to a is not served while another node holds the room.
    let mut again = Client::connect(a.addr).await;
    again
        .send(json!({"t": "hello", "room": code, "device": HOST, "name": "Host"}))
        .await;
    assert_eq!(again.closed(|_| ()).await.map(|c| c.0), Some(1011));
    a.stop().await;
    tokio::task::spawn_blocking(move || drop(elsewhere))
        .await
        .unwrap();
}
