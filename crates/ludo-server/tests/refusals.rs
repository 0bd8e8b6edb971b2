//! Every refusal code, produced by the input that should produce it, and changing nothing.

mod support;

use serde_json::{Value, json};
use support::{
    Client, create_room, http, play_until_over, spawn_server, spawn_server_with, turn_of,
};

use support::HOST;

const WATCHER: &str = "refusal-watcher-device-3";

/// A game between the host (yellow) and a guest (red), and a watcher without a seat.
async fn game() -> (support::Server, String, Client, Client, Client) {
    let server = spawn_server().await;
    let (code, mut host, mut guest) = support::two_player_room(&server, json!({})).await;
    let watcher = Client::join(server.addr, &code, WATCHER, "Watcher").await;
    host.send(json!({"t": "start"})).await;
    host.recv_until(|m| m["t"] == "game").await;
    guest.recv_until(|m| m["t"] == "game").await;
    (server, code, host, guest, watcher)
}

/// The game as the server has it now, read by a fresh connection.
async fn current(addr: std::net::SocketAddr, code: &str) -> Value {
    let probe = Client::join(addr, code, "refusal-probe-device-9", "Probe").await;
    probe.game.clone().expect("a game is on")
}

#[tokio::test]
async fn every_turn_refusal_has_its_code_and_changes_nothing() {
    let (server, code, mut host, mut guest, mut watcher) = game().await;
    let before = current(server.addr, &code).await;
    let (phase, seat, version) = turn_of(&before);
    assert_eq!((phase.as_str(), seat.as_str()), ("roll", "yellow"));

    guest.send(json!({"t": "roll", "version": version})).await;
    assert_eq!(guest.error_code().await, "not_your_turn");
    host.send(json!({"t": "roll", "version": version + 5}))
        .await;
    assert_eq!(host.error_code().await, "stale_version");
    host.send(json!({"t": "move", "piece": 0, "version": version}))
        .await;
    let illegal = host.recv_until(|m| m["t"] == "error").await;
    assert_eq!(illegal["code"], "illegal_move");
    // The engine's own reason, for the client to say in its reader's words.
    assert_eq!(
        illegal["engine"],
        json!({"code": "wrong_phase", "params": {"action": "move", "phase": "roll"}})
    );
    watcher.send(json!({"t": "roll", "version": version})).await;
    assert_eq!(watcher.error_code().await, "not_seated");
    // A device that claims the host's name but not its secret is somebody else.
    let mut forger = Client::join(server.addr, &code, "forged-device-secret-x", "Host").await;
    forger.send(json!({"t": "roll", "version": version})).await;
    assert_eq!(forger.error_code().await, "not_seated");
    // After the table's first game anyone seated may ask for the next one, so during a game
    // a guest's `start` is refused for the game being on.
    guest.send(json!({"t": "start"})).await;
    assert_eq!(guest.error_code().await, "game_on");
    host.send(json!({"t": "sit", "colour": "blue"})).await;
    assert_eq!(host.error_code().await, "game_on");

    assert_eq!(current(server.addr, &code).await, before);
    // The right action on the right version still goes through.
    host.send(json!({"t": "roll", "version": version})).await;
    let action = host.recv_until(|m| m["t"] == "action").await;
    assert_eq!(action["game"]["version"], version + 1);
}

#[tokio::test]
async fn malformed_unknown_and_oversized_messages_are_refused() {
    let (server, code, mut host, _guest, _watcher) = game().await;
    let before = current(server.addr, &code).await;
    host.send_text("{not json".to_owned()).await;
    assert_eq!(host.error_code().await, "bad_message");
    host.send(json!({"t": "cheat", "dice": 6})).await;
    assert_eq!(host.error_code().await, "bad_message");
    host.send(json!({"t": "roll"})).await;
    assert_eq!(host.error_code().await, "bad_message");
    let huge = json!({"t": "sit", "colour": "x".repeat(5000)}).to_string();
    host.send_text(huge).await;
    assert_eq!(host.error_code().await, "too_large");
    assert_eq!(current(server.addr, &code).await, before);
}

#[tokio::test]
async fn a_hello_for_an_unknown_room_and_requests_before_hello_are_refused() {
    let server = spawn_server().await;
    let mut client = Client::connect(server.addr).await;
    client.send(json!({"t": "roll", "version": 0})).await;
    assert_eq!(client.error_code().await, "hello_first");
    client
        .send(json!({"t": "hello", "room": "nosuchroom", "device": HOST, "name": "A"}))
        .await;
    assert_eq!(client.error_code().await, "no_such_room");
    let code = create_room(server.addr, HOST, json!({})).await;
    client
        .send(json!({"t": "hello", "room": code, "device": HOST, "name": "\u{7}bell"}))
        .await;
    assert_eq!(client.error_code().await, "bad_name");
    let (status, body) = http(server.addr, "GET", "/api/rooms/nosuchroom", None).await;
    assert_eq!(status, 404);
    assert!(body.contains("no_such_room"));
}

#[tokio::test]
async fn a_finished_game_refuses_further_actions() {
    let (_server, mut host) = support::host_and_cpu().await;
    host.send(json!({"t": "add_cpu", "colour": "red", "level": "random"}))
        .await;
    assert_eq!(host.error_code().await, "seat_taken");
    host.send(json!({"t": "start"})).await;
    host.recv_until(|m| m["t"] == "game").await;
    let end = play_until_over(&mut host, "yellow").await;
    let version = end["version"].as_u64().unwrap();
    host.send(json!({"t": "roll", "version": version})).await;
    assert_eq!(host.error_code().await, "game_over");
    assert!(end["seed"].is_string(), "the seed is revealed at the end");
}

#[tokio::test]
async fn a_flood_of_messages_is_rate_limited() {
    let server = spawn_server_with(|config| config.rate = 5).await;
    let code = create_room(server.addr, HOST, json!({})).await;
    let mut host = Client::join(server.addr, &code, HOST, "Host").await;
    // Standing without a seat is refused too: only the rate matters here.
    host.tolerate("not_seated");
    for _ in 0..30 {
        host.send(json!({"t": "stand"})).await;
    }
    assert_eq!(
        host.recv_until(|m| m["t"] == "error" && m["code"] == "rate_limited")
            .await["code"],
        "rate_limited"
    );
}
