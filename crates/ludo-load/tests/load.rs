//! `ludo-load` against a real server for a few seconds: its bots play, and every game's stored
//! record replays to what its clients saw (the tool exits with 1 when one does not).

use std::process::Command;
use std::time::Duration;

use ludo_server::{Application, Config};
use serde_json::{Value, json};
use tokio::task::JoinHandle;

/// A test configuration on a fresh database in `dir`. As on a real server, the CPU does not
/// stand in for the bots as soon as they leave, which would move the games on past what they
/// saw before their records are read.
fn config(dir: &tempfile::TempDir) -> Config {
    let mut config = Config::for_tests(dir.path().join("ludo.db"));
    config.grace_ms = 60_000;
    config
}

/// Starts a server that stops (gracefully: `bye` to every client) after `stop_after`, if
/// given; its address, and what tells when it has stopped.
async fn serve(config: &Config, stop_after: Option<Duration>) -> (String, JoinHandle<()>) {
    let app = Application::build(config).await.expect("the server starts");
    let addr = app.local_addr().to_string();
    let shutdown = async move {
        match stop_after {
            Some(after) => tokio::time::sleep(after).await,
            None => std::future::pending().await,
        }
    };
    let running = tokio::spawn(async move {
        app.run_until_stopped(shutdown).await.expect("it serves");
    });
    (addr, running)
}

/// Runs `ludo-load` with `args` against the server at `addr`; its exit code and what it
/// printed.
async fn run_load(addr: &str, args: &[&str]) -> (Option<i32>, String) {
    let args: Vec<String> = ["--server", addr]
        .iter()
        .chain(args)
        .map(|a| (*a).to_owned())
        .collect();
    let output = tokio::task::spawn_blocking(move || {
        Command::new(env!("CARGO_BIN_EXE_ludo-load"))
            .args(&args)
            .output()
            .expect("ludo-load runs")
    })
    .await
    .unwrap();
    let printed = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    (output.status.code(), printed)
}

/// Runs `ludo-load` with `args` against a fresh server; its exit code and what it printed.
async fn load(args: &[&str]) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().unwrap();
    let (addr, _running) = serve(&config(&dir), None).await;
    run_load(&addr, args).await
}

/// The figures of the JSON line `--json` prints.
fn figures(printed: &str) -> Value {
    let line = printed
        .lines()
        .find(|l| l.starts_with('{'))
        .unwrap_or_else(|| panic!("no JSON line in:\n{printed}"));
    serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"))
}

/// Every game seen is over in its record, every action seen is in it once, and nothing went
/// wrong.
fn assert_every_game_finished(figures: &Value, printed: &str) {
    assert!(figures["games_checked"].as_u64().unwrap() >= 2, "{printed}");
    assert_eq!(
        figures["games_finished"], figures["games_checked"],
        "{printed}"
    );
    assert_eq!(figures["missing"], 0, "{printed}");
    assert_eq!(figures["doubled"], 0, "{printed}");
    assert_eq!(figures["problems"], json!([]), "{printed}");
}

/// The figure after `label` in `printed` (`records: 12 games checked, …` gives 12 for
/// `records:`).
fn figure(printed: &str, label: &str) -> u64 {
    let line = printed
        .lines()
        .find(|l| l.starts_with(label))
        .unwrap_or_else(|| panic!("no `{label}` line in:\n{printed}"));
    line[label.len()..]
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no figure in `{line}`"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_play_for_a_few_seconds_and_every_record_replays_to_what_they_saw() {
    let (code, printed) = load(&["--rooms", "4", "--seconds", "3"]).await;
    assert_eq!(code, Some(0), "{printed}");
    assert!(figure(&printed, "actions:") > 100, "{printed}");
    let checked = figure(&printed, "records:");
    assert!(checked >= 4, "every room's game is checked: {printed}");
    assert!(
        printed.contains(&format!("{checked} replay to what the clients saw")),
        "{printed}"
    );
    assert_eq!(figure(&printed, "refusals:"), 0, "{printed}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_connections_are_held_and_counted() {
    let (code, printed) = load(&["--idle", "40"]).await;
    assert_eq!(code, Some(0), "{printed}");
    assert_eq!(figure(&printed, "idle connections:"), 40, "{printed}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_finish_games_every_game_ends_and_the_json_line_has_every_figure() {
    // The server runs in this test's process: its id is the server's.
    let server_pid = std::process::id().to_string();
    let (code, printed) = load(&[
        "--rooms",
        "2",
        "--seconds",
        "2",
        "--finish-games",
        "--reconnect",
        "--json",
        "--pid",
        &server_pid,
    ])
    .await;
    assert_eq!(code, Some(0), "{printed}");
    let figures = figures(&printed);
    assert!(figures["actions"].as_u64().unwrap() > 100, "{printed}");
    for cpu in ["server_cpu_us_per_action", "tool_cpu_us_per_action"] {
        assert!(
            figures[cpu].as_f64().is_some_and(|us| us > 0.0),
            "{cpu}: {printed}"
        );
    }
    assert!(printed.contains("cpu an action: server "), "{printed}");
    assert_eq!(figures["reconnections"], 0, "{printed}");
    assert!(printed.contains("reconnections: 0\n"), "{printed}");
    assert_every_game_finished(&figures, &printed);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_reconnect_when_the_server_restarts_and_finish_their_games() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = config(&dir);
    let (addr, running) = serve(&config, Some(Duration::from_millis(1500))).await;
    let args = [
        "--rooms",
        "2",
        "--seconds",
        "4",
        "--finish-games",
        "--reconnect",
        "--json",
    ];
    let run = tokio::spawn({
        let addr = addr.clone();
        async move { run_load(&addr, &args).await }
    });
    // The server says bye and stops; another starts on the same address and database.
    running.await.unwrap();
    config.addr = addr.parse().unwrap();
    let (_, _running) = serve(&config, None).await;
    let (code, printed) = run.await.unwrap();
    assert_eq!(code, Some(0), "{printed}");
    let figures = figures(&printed);
    assert!(
        figures["reconnections"].as_u64().unwrap() >= 8,
        "every seat came back: {printed}"
    );
    assert!(
        figures["longest_outage_welcome_ms"].as_u64().unwrap() > 0,
        "{printed}"
    );
    assert_every_game_finished(&figures, &printed);
}
