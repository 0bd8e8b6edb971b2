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

/// The `req` of a refusal, or `None` when the field is left out (it is never `null`).
fn req_of(error: &Value) -> Option<u64> {
    error
        .as_object()
        .expect("a message is an object")
        .get("req")
        .map(|req| {
            req.as_u64()
                .unwrap_or_else(|| panic!("req is a number: {error}"))
        })
}

#[tokio::test]
async fn each_refusal_carries_the_request_id_of_the_request_it_refuses() {
    let (server, code, mut host, mut guest, _watcher) = game().await;
    let before = current(server.addr, &code).await;
    let (_, seat, version) = turn_of(&before);
    assert_eq!(seat, "yellow");
    // Two requests refused for different reasons, each with an id of its own: each refusal
    // names its request, in whatever order they come.
    guest
        .send(json!({"t": "roll", "version": version, "req": 7}))
        .await;
    guest
        .send(json!({"t": "say", "phrase": "hi there", "req": 4294967295u64}))
        .await;
    let mut refused = [guest.refusal().await, guest.refusal().await];
    refused.sort_by_key(req_of);
    assert_eq!(refused[0]["code"], "not_your_turn", "{}", refused[0]);
    assert_eq!(req_of(&refused[0]), Some(7));
    assert_eq!(refused[1]["code"], "no_such_phrase", "{}", refused[1]);
    assert_eq!(req_of(&refused[1]), Some(4_294_967_295));
    // Without an id, as before: the refusal has none.
    guest.send(json!({"t": "roll", "version": version})).await;
    let plain = guest.refusal().await;
    assert_eq!(plain["code"], "not_your_turn");
    assert_eq!(req_of(&plain), None, "{plain}");
    // The connection's own refusals answer the id too.
    guest
        .send(json!({"t": "hello", "room": code, "device": support::GUEST, "name": "G", "req": 3}))
        .await;
    let again = guest.refusal().await;
    assert_eq!(
        (again["code"].as_str(), req_of(&again)),
        (Some("bad_message"), Some(3))
    );
    guest.send(json!({"t": "cheat", "req": 5})).await;
    let unknown = guest.refusal().await;
    assert_eq!(
        (unknown["code"].as_str(), req_of(&unknown)),
        (Some("bad_message"), Some(5))
    );
    let mut stranger = Client::connect(server.addr).await;
    stranger.send(json!({"t": "stand", "req": 0})).await;
    let first = stranger.refusal().await;
    assert_eq!(
        (first["code"].as_str(), req_of(&first)),
        (Some("hello_first"), Some(0))
    );
    // A malformed id is itself the fault: `bad_message`, with no id to answer.
    for bad in [
        json!("7"),
        json!(-1),
        json!(1.5),
        json!(4_294_967_296u64),
        Value::Null,
    ] {
        guest.send(json!({"t": "stand", "req": bad})).await;
        let refusal = guest.refusal().await;
        assert_eq!(refusal["code"], "bad_message", "{bad}: {refusal}");
        assert_eq!(req_of(&refusal), None, "{bad}: {refusal}");
    }
    // Nothing changed, and a request with an id that is accepted is answered by its broadcast.
    assert_eq!(current(server.addr, &code).await, before);
    host.send(json!({"t": "roll", "version": version, "req": 8}))
        .await;
    let action = host.recv_until(|m| m["t"] == "action").await;
    assert_eq!(action["game"]["version"], version + 1);
    assert!(action.get("req").is_none(), "{action}");
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
