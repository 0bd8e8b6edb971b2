//! `ludo-load` against a real server for a few seconds: its bots play, and every game's stored
//! record replays to what its clients saw (the tool exits with 1 when one does not).

use std::process::Command;

use ludo_server::{Application, Config};

/// Runs `ludo-load` with `args` against a fresh server; its exit code and what it printed.
async fn load(args: &[&str]) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().unwrap();
    let mut config = Config::for_tests(dir.path().join("ludo.db"));
    // As on a real server, the CPU does not stand in for the bots as soon as they leave, which
    // would move the games on past what they saw before their records are read.
    config.grace_ms = 60_000;
    let app = Application::build(&config)
        .await
        .expect("the server starts");
    let addr = app.local_addr().to_string();
    tokio::spawn(app.run_until_stopped(std::future::pending()));
    let args: Vec<String> = ["--server", addr.as_str()]
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
