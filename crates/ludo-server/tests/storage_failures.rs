//! A change that cannot be stored is refused with `internal`, shown to nobody, and changes
//! nothing: not the game, its version or its turn clock, not the seats, not the settings, and a
//! newcomer's identity that cannot be stored lets nobody in. The real SQLite backend is made to
//! fail its writes through the fail point `store-write`; once storage works again, the very
//! request that was refused is accepted. (A write failing half-way, inside its transaction, is
//! tried on both backends by the store's own suite: `store-midway` in `src/store/suite.rs`.)
//!
//! Fail points are global to the process: each test holds a `FailScenario`, which runs them
//! one at a time.

mod support;

use std::time::Duration;

use serde_json::{Value, json};
use support::{Client, create_room, spawn_server, turn_of};

const WATCHER: &str = "storage-watcher-device-07";

/// The room and the game as a connection joining now is welcomed with them: seats, settings
/// and the whole game (position, version, legal moves, turn deadline). Each of `present` is
/// then shown the probe come and go.
async fn as_welcomed(addr: std::net::SocketAddr, code: &str, present: &mut [&mut Client]) -> Value {
    let welcome = support::welcome(addr, code, WATCHER).await;
    for client in present {
        let watchers = |n: u64| move |m: &Value| m["t"] == "room" && m["room"]["watchers"] == n;
        let here = client.recv_until(|m| m["t"] == "room").await["room"]["watchers"]
            .as_u64()
            .unwrap();
        client.recv_until(watchers(here - 1)).await;
    }
    json!({
        "seats": welcome["room"]["seats"].clone(),
        "settings": welcome["room"]["settings"].clone(),
        "game": welcome["game"].clone(),
    })
}

/// Fails that nothing reaches `client` for a moment.
async fn hears_nothing(client: &mut Client, who: &str) {
    let heard = tokio::time::timeout(Duration::from_millis(400), client.recv()).await;
    assert!(heard.is_err(), "{who} was shown {:?}", heard.ok());
}

/// Every write fails from now until [`storage_works`].
fn storage_fails() {
    fail::cfg("store-write", "return").unwrap();
}

fn storage_works() {
    fail::remove("store-write");
}

#[tokio::test]
async fn an_action_that_cannot_be_stored_is_refused_with_internal_shown_to_nobody_and_changes_nothing()
 {
    let scenario = fail::FailScenario::setup();
    let server = spawn_server().await;
    let (code, mut host, mut guest) = support::two_player_room(&server, json!({"clock": 60})).await;
    host.send(json!({"t": "start"})).await;
    host.recv_until(|m| m["t"] == "game").await;
    guest.recv_until(|m| m["t"] == "game").await;
    let before = as_welcomed(server.addr, &code, &mut [&mut host, &mut guest]).await;
    let (phase, seat, version) = turn_of(&before["game"]);
    assert_eq!((phase.as_str(), seat.as_str()), ("roll", "yellow"));
    assert!(before["game"]["deadline"].is_i64(), "the turn clock runs");

    storage_fails();
    host.send(json!({"t": "roll", "version": version})).await;
    assert_eq!(host.error_code().await, "internal");
    hears_nothing(&mut guest, "the other player").await;
    storage_works();
    assert_eq!(as_welcomed(server.addr, &code, &mut []).await, before);

    // The same request, now that storage works, is the next action.
    host.send(json!({"t": "roll", "version": version})).await;
    let action = guest.recv_until(|m| m["t"] == "action").await;
    assert_eq!(action["game"]["version"], version + 1, "{action}");
    scenario.teardown();
}

#[tokio::test]
async fn a_newcomer_whose_identity_cannot_be_stored_is_refused_with_internal_shown_to_nobody_and_welcomed_when_trying_again()
 {
    const NEWCOMER: &str = "storage-newcomer-device-11";
    let scenario = fail::FailScenario::setup();
    let server = spawn_server().await;
    let code = create_room(server.addr, support::HOST, json!({})).await;
    let mut host = Client::join(server.addr, &code, support::HOST, "Host").await;
    let before = as_welcomed(server.addr, &code, &mut [&mut host]).await;

    // The device is looked up (it is new), then storing its new identity fails.
    fail::cfg("store-write", "1*off->return").unwrap();
    let hello = json!({"t": "hello", "room": code, "device": NEWCOMER, "name": "Cy"});
    let mut newcomer = Client::connect(server.addr).await;
    newcomer.send(hello.clone()).await;
    assert_eq!(newcomer.error_code().await, "internal");
    hears_nothing(&mut host, "the host").await;
    storage_works();
    assert_eq!(
        as_welcomed(server.addr, &code, &mut [&mut host]).await,
        before
    );

    // Tried again, the same hello is welcomed, as a new player and a watcher the host is shown.
    let mut again = Client::connect(server.addr).await;
    again.send(hello).await;
    let welcome = again.recv_until(|m| m["t"] == "welcome").await;
    assert!(
        welcome["you"].as_str().is_some_and(|id| !id.is_empty()),
        "{welcome}"
    );
    host.recv_until(|m| m["t"] == "room" && m["room"]["watchers"] == 1)
        .await;
    scenario.teardown();
}

#[tokio::test]
async fn seat_and_settings_changes_that_cannot_be_stored_are_refused_and_shown_to_nobody() {
    let scenario = fail::FailScenario::setup();
    let server = spawn_server().await;
    let code = create_room(server.addr, support::HOST, json!({})).await;
    let mut host = Client::join(server.addr, &code, support::HOST, "Host").await;
    let mut guest = Client::join(server.addr, &code, support::GUEST, "Guest").await;
    host.recv_until(|m| m["t"] == "room").await;
    let before = as_welcomed(server.addr, &code, &mut [&mut host, &mut guest]).await;

    storage_fails();
    let refused = [
        json!({"t": "sit", "colour": "blue"}),
        json!({"t": "add_cpu", "colour": "red", "level": "easy"}),
        json!({"t": "settings", "clock": 30, "rules": "classic"}),
    ];
    for request in &refused {
        host.send(request.clone()).await;
        assert_eq!(host.error_code().await, "internal", "{request}");
    }
    guest.send(json!({"t": "sit", "colour": "green"})).await;
    assert_eq!(guest.error_code().await, "internal");
    hears_nothing(&mut host, "the host").await;
    hears_nothing(&mut guest, "the guest").await;
    storage_works();
    assert_eq!(as_welcomed(server.addr, &code, &mut []).await, before);

    host.send(refused[0].clone()).await;
    let room = guest
        .recv_until(|m| m["t"] == "room" && !m["room"]["seats"]["blue"].is_null())
        .await;
    assert_eq!(
        room["room"]["seats"]["blue"]["occupant"]["name"], "Host",
        "{room}"
    );
    scenario.teardown();
}

#[tokio::test]
async fn a_game_that_cannot_be_stored_does_not_start() {
    let scenario = fail::FailScenario::setup();
    let server = spawn_server().await;
    let (code, mut host, mut guest) = support::two_player_room(&server, json!({})).await;
    let before = as_welcomed(server.addr, &code, &mut [&mut host, &mut guest]).await;
    assert!(before["game"].is_null());

    storage_fails();
    host.send(json!({"t": "start"})).await;
    assert_eq!(host.error_code().await, "internal");
    hears_nothing(&mut guest, "the guest").await;
    storage_works();
    assert_eq!(as_welcomed(server.addr, &code, &mut []).await, before);

    host.send(json!({"t": "start"})).await;
    let game = guest.recv_until(|m| m["t"] == "game").await;
    assert_eq!(game["game"]["version"], 0, "{game}");
    scenario.teardown();
}

#[tokio::test]
async fn looking_up_a_room_whose_write_is_stuck_answers_busy_instead_of_hanging() {
    let scenario = fail::FailScenario::setup();
    let server = spawn_server().await;
    let (code, mut host, _guest) = support::two_player_room(&server, json!({})).await;
    // The disk freezes while the start of a game is being stored.
    fail::cfg("store-write", "sleep(6000)").unwrap();
    host.send(json!({"t": "start"})).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let asked = std::time::Instant::now();
    let (status, body) =
        support::http(server.addr, "GET", &format!("/api/rooms/{code}"), None).await;
    let waited = asked.elapsed();
    fail::remove("store-write");
    assert_eq!(status, 503, "{body}");
    assert!(body.contains("busy"), "{body}");
    assert!(waited < Duration::from_secs(5), "answered after {waited:?}");
    scenario.teardown();
}
