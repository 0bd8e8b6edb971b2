//! Rooms in memory: an idle room unloads itself and comes back from the database as it was on
//! the next visit; a room with a game being played stays loaded with nobody connected. What
//! nobody used for its period is forgotten, but never a room in memory nor a game.

mod support;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::{Client, HOST, http, spawn_server_with};

/// A counter from `/metrics`.
async fn metric(addr: SocketAddr, name: &str) -> u64 {
    let (_, text) = http(addr, "GET", "/metrics", None).await;
    text.lines()
        .find_map(|l| l.strip_prefix(&format!("{name} ")))
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no {name} in {text}"))
}

async fn rooms_in_memory(addr: SocketAddr) -> u64 {
    let (_, metrics) = http(addr, "GET", "/metrics", None).await;
    metrics
        .lines()
        .find_map(|l| l.strip_prefix("ludo_rooms "))
        .and_then(|v| v.parse().ok())
        .expect("a ludo_rooms line")
}

/// Waits (up to 5 s) until `wanted` rooms are in memory.
async fn until_rooms(addr: SocketAddr, wanted: u64) {
    let deadline = Instant::now() + Duration::from_secs(5);
    while rooms_in_memory(addr).await != wanted {
        assert!(Instant::now() < deadline, "never {wanted} rooms in memory");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn an_idle_room_unloads_and_comes_back_as_it_was_on_the_next_visit() {
    let server = spawn_server_with(|c| c.room_idle_secs = 0.2).await;
    let (code, host) = support::host_and_cpu_in(&server, json!({"clock": 30}), "Ana", "hard").await;
    let (_, before) = http(server.addr, "GET", &format!("/api/rooms/{code}"), None).await;
    // While someone is connected, the room stays.
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(rooms_in_memory(server.addr).await, 1);
    host.close().await;
    until_rooms(server.addr, 0).await;

    let (status, after) = http(server.addr, "GET", &format!("/api/rooms/{code}"), None).await;
    assert_eq!(status, 200, "{after}");
    let (mut before, mut after): (Value, Value) = (
        serde_json::from_str(&before).unwrap(),
        serde_json::from_str(&after).unwrap(),
    );
    // Only who is connected differs, and since when the server has known them away.
    before["seats"]["yellow"]["connected"] = json!(false);
    after["seats"]["yellow"]
        .as_object_mut()
        .unwrap()
        .remove("away_since");
    before["watchers"] = json!(0);
    after["watchers"] = json!(0);
    assert_eq!(before, after);
    assert_eq!(rooms_in_memory(server.addr).await, 1);

    // A hello brings it back too, with the seat kept for its person.
    until_rooms(server.addr, 0).await;
    let mut host = Client::join(server.addr, &code, HOST, "Ana").await;
    host.send(json!({"t": "start"})).await;
    let game = host.recv_until(|m| m["t"] == "game").await;
    assert_eq!(game["game"]["position"]["seats"], json!(["yellow", "red"]));
}

#[tokio::test]
async fn a_room_with_a_game_being_played_stays_loaded_with_nobody_connected() {
    let server = spawn_server_with(|c| {
        c.room_idle_secs = 0.1;
        c.grace_ms = 60_000;
    })
    .await;
    let (_code, mut host) = support::host_and_cpu_in(&server, json!({}), "Ana", "random").await;
    host.send(json!({"t": "start"})).await;
    host.recv_until(|m| m["t"] == "game").await;
    host.close().await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(rooms_in_memory(server.addr).await, 1);
}

#[tokio::test]
async fn unknown_rooms_stay_unknown() {
    let server = spawn_server_with(|c| c.room_idle_secs = 0.1).await;
    let (status, _) = http(server.addr, "GET", "/api/rooms/nosuchroom", None).await;
    assert_eq!(status, 404);
    let mut client = Client::connect(server.addr).await;
    client
        .send(json!({"t": "hello", "room": "nosuchroom", "device": HOST, "name": "Ana"}))
        .await;
    assert_eq!(client.error_code().await, "no_such_room");
    assert_eq!(rooms_in_memory(server.addr).await, 0);
}

#[tokio::test]
async fn a_room_that_unloads_after_a_game_welcomes_its_next_visitor_with_that_finished_game() {
    let server = spawn_server_with(|c| c.room_idle_secs = 0.2).await;
    let (code, mut host) = support::host_and_cpu_in(&server, json!({}), "Ana", "random").await;
    host.send(json!({"t": "start"})).await;
    let finished = support::play_until_over(&mut host, "yellow").await;
    assert_eq!(finished["position"]["turn"]["phase"], "over");
    host.close().await;
    until_rooms(server.addr, 0).await;

    let mut again = Client::join(server.addr, &code, HOST, "Ana").await;
    let game = again.game.clone().expect("the welcome shows the last game");
    assert_eq!(
        game["id"], finished["id"],
        "the last game, finished: {game}"
    );
    assert_eq!(game["position"], finished["position"]);
    assert_eq!(game["seed"], finished["seed"], "its seed shown");
    let (_, record) = http(
        server.addr,
        "GET",
        &format!("/api/games/{}", game["id"].as_str().unwrap()),
        None,
    )
    .await;
    let record: Value = serde_json::from_str(&record).unwrap();
    assert_eq!(
        record["actions"].as_array().unwrap().len() as u64,
        game["version"].as_u64().unwrap()
    );
    // And a new game can start from there.
    again.send(json!({"t": "play_again"})).await;
    let next = again.recv_until(|m| m["t"] == "game").await;
    assert_ne!(next["game"]["id"], finished["id"]);
}

#[tokio::test]
async fn what_nobody_used_for_its_period_is_forgotten_but_a_room_in_memory_and_every_game_stay() {
    let server = spawn_server_with(|c| {
        c.room_idle_secs = 0.2;
        c.forget_every_secs = 0.2;
    })
    .await;
    // A finished game between the host and a CPU, watched by a device that then leaves.
    let (done, mut host) = support::host_and_cpu_in(&server, json!({}), "Ana", "random").await;
    let watcher_device = "watcher-device-secret-03";
    let watcher = Client::join(server.addr, &done, watcher_device, "Wat").await;
    host.send(json!({"t": "start"})).await;
    let finished = support::play_until_over(&mut host, "yellow").await;
    let game = finished["id"].as_str().unwrap().to_owned();
    let (ana, watched) = (host.you.clone(), watcher.you.clone());
    watcher.close().await;
    host.close().await;
    // A room made and never used, and a room someone stays connected to.
    let lonely = support::create_room(server.addr, "lonely-device-secret-04", json!({})).await;
    let (_, lonely_room) = http(server.addr, "GET", &format!("/api/rooms/{lonely}"), None).await;
    let lonely_host: Value = serde_json::from_str(&lonely_room).unwrap();
    let lonely_host = lonely_host["host"].as_str().unwrap().to_owned();
    let kept = support::create_room(server.addr, "keeper-device-secret-05", json!({})).await;
    let stayer_device = "stayer-device-secret-06";
    let stayer = Client::join(server.addr, &kept, stayer_device, "Stay").await;
    until_rooms(server.addr, 1).await;

    // Everything looks a year old to the next round of forgetting.
    let db = rusqlite::Connection::open(&server.db).unwrap();
    db.busy_timeout(Duration::from_secs(5)).unwrap();
    db.execute_batch(
        "UPDATE identities SET created_at = 0, seen_at = 0; UPDATE rooms SET updated_at = 0;",
    )
    .unwrap();
    let deadline = Instant::now() + Duration::from_secs(5);
    while metric(server.addr, "ludo_forgotten_rooms_total").await < 2 {
        assert!(
            Instant::now() < deadline,
            "the two idle rooms are forgotten"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Forgotten: the finished room, the unused room and its host, the device that only watched.
    assert_eq!(metric(server.addr, "ludo_forgotten_rooms_total").await, 2);
    assert_eq!(
        metric(server.addr, "ludo_forgotten_identities_total").await,
        2
    );
    for code in [&done, &lonely] {
        let (status, _) = http(server.addr, "GET", &format!("/api/rooms/{code}"), None).await;
        assert_eq!(status, 404, "{code} is forgotten");
    }
    let mut late = Client::connect(server.addr).await;
    late.send(json!({"t": "hello", "room": done, "device": HOST, "name": "Ana"}))
        .await;
    assert_eq!(late.error_code().await, "no_such_room");
    let (status, _) = http(
        server.addr,
        "GET",
        &format!("/api/players/{lonely_host}"),
        None,
    )
    .await;
    assert_eq!(status, 404, "the unused room's host is forgotten");
    // Kept: the game and its player's page, the room someone is in, and who is in it.
    let (status, record) = http(server.addr, "GET", &format!("/api/games/{game}"), None).await;
    assert_eq!(status, 200, "{record}");
    let (status, page) = http(server.addr, "GET", &format!("/api/players/{ana}"), None).await;
    assert_eq!(status, 200, "{page}");
    assert!(page.contains(&game), "{page}");
    let (status, _) = http(server.addr, "GET", &format!("/api/rooms/{kept}"), None).await;
    assert_eq!(status, 200);
    let again = Client::join(server.addr, &kept, stayer_device, "Stay").await;
    assert_eq!(
        again.you, stayer.you,
        "a connected device keeps its identity"
    );
    // The device that only watched comes back as someone new.
    let back = Client::join(server.addr, &kept, watcher_device, "Wat").await;
    assert_ne!(back.you, watched);
    assert_eq!(metric(server.addr, "ludo_forgotten_rooms_total").await, 2);
}
