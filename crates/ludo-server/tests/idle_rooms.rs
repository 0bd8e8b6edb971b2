//! Rooms in memory: an idle room unloads itself and comes back from the database as it was on
//! the next visit; a room with a game being played stays loaded with nobody connected.

mod support;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::{Client, HOST, http, spawn_server_with};

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
