//! The whole server on PostgreSQL (`--db postgres://…`): a game played over a real WebSocket
//! comes back at its version after each restart, and its record replays. Needs a server named by
//! `LUDO_TEST_POSTGRES` (see `scripts/test-postgres.sh`); skipped without it, except on CI.

mod support;

use std::path::PathBuf;

use ludo_server::{Config, TestDatabase};
use serde_json::Value;
use support::{Client, HOST, Running, http, play_until_over, run};

/// A server running on the database at `url`, until told to stop.
async fn start(url: &str) -> Running {
    run(&Config {
        // Shutting down takes about a second, in which no CPU should play for the host.
        grace_ms: 60_000,
        ..Config::for_tests(PathBuf::from(url))
    })
    .await
}

/// The host's game as its welcome or latest message shows it.
fn game_of(client: &Client) -> Value {
    client.game.clone().expect("the client sees a game")
}

#[tokio::test]
async fn a_game_on_postgres_comes_back_at_its_version_after_restarts_and_its_record_replays() {
    let Some(db) = TestDatabase::create() else {
        return;
    };
    // A room with the host in yellow and a CPU in red; a game started and played part way.
    let server = start(db.url()).await;
    let (code, host) = support::game_part_played(server.addr, 20).await;
    let before = game_of(&host);
    server.stop_with(host).await;

    // Restarted: the game is where it was, and is played to its end.
    let server = start(db.url()).await;
    let mut host = Client::join(server.addr, &code, HOST, "Host").await;
    let after = game_of(&host);
    assert_eq!(after["id"], before["id"]);
    assert_eq!(after["version"], before["version"]);
    assert_eq!(after["position"], before["position"]);
    let end = play_until_over(&mut host, "yellow").await;
    server.stop_with(host).await;

    // Restarted once more: the finished game is shown at its final version, and replays.
    let server = start(db.url()).await;
    let host = Client::join(server.addr, &code, HOST, "Host").await;
    let shown = game_of(&host);
    assert_eq!(shown["id"], end["id"]);
    assert_eq!(shown["version"], end["version"]);
    let id = end["id"].as_str().unwrap();
    let (status, body) = http(server.addr, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(status, 200, "{body}");
    let record: ludo_fair::Record = serde_json::from_str(&body).unwrap();
    assert_eq!(
        record.actions.len() as u64,
        end["version"].as_u64().unwrap()
    );
    record.verify().expect("the record replays");
    server.stop_with(host).await;
}
