//! Storage that fails under the rooms: the real server's SQLite file, held locked by another
//! connection (as a backup or a stray process would), then released.

mod support;

use std::path::Path;
use std::time::{Duration, Instant};

use rusqlite::Connection;
use serde_json::json;
use support::{Client, GUEST, HOST, create_room, http, spawn_server};

/// Another connection holding the database's write lock until it is dropped.
fn hold_write_lock(db: &Path) -> Connection {
    let other = Connection::open(db).expect("the database opens");
    other
        .execute_batch("BEGIN IMMEDIATE")
        .expect("the write lock is taken");
    other
}

/// A counter from `/metrics`.
async fn metric(addr: std::net::SocketAddr, name: &str) -> u64 {
    let (_, text) = http(addr, "GET", "/metrics", None).await;
    text.lines()
        .find_map(|l| l.strip_prefix(&format!("{name} ")))
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no {name} in {text}"))
}

#[tokio::test]
async fn a_seat_that_cannot_be_stored_is_refused_with_internal_and_shown_to_nobody() {
    let server = spawn_server().await;
    let code = create_room(server.addr, HOST, json!({})).await;
    let mut host = Client::join(server.addr, &code, HOST, "Host").await;
    let mut watcher = Client::join(server.addr, &code, GUEST, "Guest").await;
    host.recv_until(|m| m["t"] == "room").await;

    let lock = hold_write_lock(&server.db);
    // The host, seated at yellow when the room was made, asks to move to blue.
    host.send(json!({"t": "sit", "colour": "blue"})).await;
    assert_eq!(host.error_code().await, "internal");
    let (_, room) = http(server.addr, "GET", &format!("/api/rooms/{code}"), None).await;
    assert!(
        !room.contains("blue") && room.contains("yellow"),
        "the refused seat is not kept: {room}"
    );
    drop(lock);

    // Once storage is back, the next change is stored and shown, without the refused one.
    host.send(json!({"t": "sit", "colour": "red"})).await;
    let shown = watcher
        .recv_until(|m| m["t"] == "room" && !m["room"]["seats"]["red"].is_null())
        .await;
    assert!(
        shown["room"]["seats"]["blue"].is_null() && shown["room"]["seats"]["yellow"].is_null(),
        "nobody ever saw the refused seat: {shown}"
    );
}

#[tokio::test]
async fn a_cpu_game_waits_longer_after_each_failed_write_and_plays_on_when_storage_returns() {
    let server = spawn_server().await;
    let code = create_room(server.addr, HOST, json!({})).await;
    let mut host = Client::join(server.addr, &code, HOST, "Host").await;
    // The host watches two CPUs play.
    host.send(json!({"t": "stand"})).await;
    for colour in ["yellow", "red"] {
        host.send(json!({"t": "add_cpu", "colour": colour, "level": "random"}))
            .await;
    }
    host.recv_until(|m| m["t"] == "room" && !m["room"]["seats"]["red"].is_null())
        .await;
    host.send(json!({"t": "start"})).await;
    host.recv_until(|m| m["t"] == "action").await;

    let lock = hold_write_lock(&server.db);
    let locked_at = Instant::now();
    tokio::time::sleep(Duration::from_millis(400)).await;
    let actions_locked = metric(server.addr, "ludo_actions_total").await;
    // Reads wait behind a blocked write for a short while only.
    for _ in 0..5 {
        let asked = Instant::now();
        let (status, _) = http(server.addr, "GET", "/api/leaderboard/qdan", None).await;
        assert_eq!(status, 200);
        assert!(
            asked.elapsed() < Duration::from_millis(800),
            "{:?}",
            asked.elapsed()
        );
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let failures = metric(server.addr, "ludo_storage_failures_total").await;
    assert_eq!(
        metric(server.addr, "ludo_actions_total").await,
        actions_locked,
        "no action is accepted while nothing can be stored"
    );
    // Without waiting, the CPU would try again as soon as each write failed (every 250 ms
    // here, thousands of times a second on a full disk): about 17 attempts in these 4.4 s.
    // Waiting 100, 200, 400… ms after each failure makes about 6.
    assert!(
        (1..=8).contains(&failures),
        "{failures} failed writes in {:?}",
        locked_at.elapsed()
    );
    drop(lock);

    let before = metric(server.addr, "ludo_actions_total").await;
    let deadline = Instant::now() + Duration::from_secs(20);
    while metric(server.addr, "ludo_actions_total").await < before + 20 {
        assert!(Instant::now() < deadline, "the game went on");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
