//! One room's failure never takes down the others. A fail point makes one room panic while two
//! games are being played: that room alone stops (its connections close with 1011 and are asked
//! to come back), the other plays on to the end, and the failed room comes back from storage
//! with every action it accepted, and plays on too.
//!
//! This file holds one test: fail points are global to the process.

mod support;

use serde_json::json;
use support::{Client, HOST, http, play_until_over, turn_of};

/// Starts the game of a room with the host in yellow and a CPU in red; the host and the game.
async fn playing(server: &support::Server, name: &str) -> (String, Client) {
    let (code, mut host) = support::host_and_cpu_in(server, json!({}), name, "random").await;
    host.send(json!({"t": "start"})).await;
    host.recv_until(|m| m["t"] == "game").await;
    (code, host)
}

/// The `ludo_room_failures_total` counter.
async fn room_failures(server: &support::Server) -> u64 {
    let (_, metrics) = http(server.addr, "GET", "/metrics", None).await;
    metrics
        .lines()
        .find_map(|l| l.strip_prefix("ludo_room_failures_total "))
        .expect("the counter is exported")
        .parse()
        .unwrap()
}

#[tokio::test]
async fn a_room_that_panics_stops_alone_and_comes_back_from_storage() {
    let scenario = fail::FailScenario::setup();
    let server = support::spawn_server().await;
    let (_, mut ana) = playing(&server, "Ana").await;
    let (failing, mut bea) = playing(&server, "Bea").await;
    // Bea plays a few actions first, so that there is something to lose.
    bea.send(json!({"t": "roll", "version": turn_of(bea.game.as_ref().unwrap()).2}))
        .await;
    bea.recv_until(|m| m["t"] == "action").await;

    // The next person to join Bea's room makes it panic.
    fail::cfg("room-join", "1*panic(failed on purpose)").unwrap();
    let mut watcher = Client::connect(server.addr).await;
    watcher
        .send(json!({"t": "hello", "room": failing, "device": "watcher-device-0003", "name": "Cy"}))
        .await;
    let bea_closed = bea.closed(|_| {}).await;
    assert_eq!(
        bea_closed.as_ref().map(|c| c.0),
        Some(1011),
        "Bea's connection closes as the room fails: {bea_closed:?}"
    );
    let watcher_closed = watcher.closed(|_| {}).await;
    assert_eq!(watcher_closed.map(|c| c.0), Some(1011));
    assert_eq!(room_failures(&server).await, 1);
    let last_seen = bea.game.clone().expect("Bea saw the game");

    // Ana's game plays on to the end, the CPU included.
    let over = play_until_over(&mut ana, "yellow").await;
    assert_eq!(turn_of(&over).0, "over");

    // Bea comes back: the room is loaded again with every action it accepted, and plays on.
    let mut bea = Client::join(server.addr, &failing, HOST, "Bea").await;
    let back = bea.game.clone().expect("the game is back");
    assert_eq!(
        (turn_of(&back).2, &back["position"]),
        (turn_of(&last_seen).2, &last_seen["position"]),
        "the game is back as Bea last saw it"
    );
    let over = play_until_over(&mut bea, "yellow").await;
    assert_eq!(turn_of(&over).0, "over");
    assert_eq!(room_failures(&server).await, 1);
    scenario.teardown();
}
