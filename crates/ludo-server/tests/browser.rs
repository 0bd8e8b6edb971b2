//! The web client in a real browser: starts the server and runs `e2e/*.test.mjs` under Node,
//! which drive Debian's Chromium with Playwright. `.ci/run` installs Chromium and the Node
//! packages; elsewhere, without them, the test is skipped and listed (`ludo_server::skips`).

mod support;

use std::path::Path;
use std::process::Command;

#[tokio::test]
async fn the_web_client_passes_its_browser_tests() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let e2e = root.join("e2e");
    // Chromium where `CHROMIUM` says, as e2e/browser.mjs finds it, else Debian's.
    let chromium = std::env::var_os("CHROMIUM").unwrap_or_else(|| "/usr/bin/chromium".into());
    let missing = [
        (
            !Path::new(&chromium).exists(),
            "Chromium (apt-get install chromium, or set CHROMIUM)",
        ),
        (
            !e2e.join("node_modules/playwright-core").exists(),
            "e2e/node_modules (npm ci --prefix e2e)",
        ),
        (
            Command::new("node").arg("--version").output().is_err(),
            "Node (apt-get install nodejs npm)",
        ),
    ];
    let missing: Vec<&str> = missing.iter().filter(|m| m.0).map(|m| m.1).collect();
    if !missing.is_empty() {
        ludo_server::skips::skipped("browser tests", &missing.join(", "));
        return;
    }
    // Screenshots of every board go where LUDO_SHOTS says, else to a temporary directory.
    let shots = std::env::var_os("LUDO_SHOTS")
        .unwrap_or_else(|| std::env::temp_dir().join("ludo-shots").into_os_string());
    // A clock second of 200 ms: a 30-second turn clock runs out in 6 s, long enough to see it
    // count down and short enough to see it run out.
    let server = support::spawn_server_with(|config| config.clock_second_ms = 200).await;
    let url = format!("http://{}", server.addr);
    // LUDO_E2E names the test files to run (space-separated, e.g. `table.test.mjs`), one at a
    // time; by default every file, two at a time but for those that must run alone (`ALONE`),
    // which run after the others, one at a time.
    let named: Vec<String> = std::env::var("LUDO_E2E")
        .map(|names| names.split_whitespace().map(str::to_owned).collect())
        .unwrap_or_default();
    let runs = if named.is_empty() {
        let (alone, together): (Vec<String>, Vec<String>) = test_files(&e2e)
            .into_iter()
            .partition(|file| ALONE.contains(&file.as_str()));
        assert_eq!(
            alone.len(),
            ALONE.len(),
            "every file named to run alone exists"
        );
        vec![(together, 2), (alone, 1)]
    } else {
        vec![(named, 1)]
    };
    for (files, concurrency) in runs {
        let output = tokio::process::Command::new("node")
            .arg("--test")
            .arg(format!("--test-concurrency={concurrency}"))
            // The report that `failures` reads, then how long each file took.
            .args(["--test-reporter=tap", "--test-reporter-destination=stdout"])
            .args([
                "--test-reporter=./file-times.mjs",
                "--test-reporter-destination=stdout",
            ])
            .args(&files)
            .current_dir(&e2e)
            .env("LUDO_URL", &url)
            .env("LUDO_SHOTS", &shots)
            // offline.test.mjs starts a server process of its own, to kill it and play offline.
            .env("LUDO_SERVER_BIN", env!("CARGO_BIN_EXE_ludo-server"))
            .output()
            .await
            .expect("node runs");
        let stdout = String::from_utf8_lossy(&output.stdout);
        // Shown with `--nocapture`: where the time went.
        for line in stdout
            .lines()
            .skip_while(|line| !line.starts_with("# time per file"))
        {
            println!("{line}");
        }
        assert!(
            output.status.success(),
            "failed:\n{}\n\nthe whole output:\n{stdout}\n{}",
            failures(&stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

/// The files that run alone, one at a time, after the others: those that time what they see (a
/// page's speed, frame rates, how long a line shows, a worker's answers) and would flake beside
/// another browser, and those that watch what the whole server lists or matches (public tables,
/// ranked searches), which another file's rooms would change.
const ALONE: &[&str] = &[
    "performance.test.mjs",
    "lighthouse.test.mjs",
    "cpu-worker-timing.test.mjs",
    "speed.test.mjs",
    "table-timing.test.mjs",
    "ranked.test.mjs",
    "public-tables.test.mjs",
];

/// Every browser test file in `e2e`, by name, sorted.
fn test_files(e2e: &Path) -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(e2e)
        .expect("e2e/ is readable")
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| name.ends_with(".test.mjs"))
        .collect();
    files.sort();
    files
}

/// The failed tests of a TAP report, each with what it said (the error and where), so that a
/// failure reads first, before the long report of every test.
fn failures(tap: &str) -> String {
    let mut failed = Vec::new();
    let mut inside = false;
    for line in tap.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("not ok ") {
            inside = true;
        } else if ["ok ", "# Subtest", "1.."]
            .iter()
            .any(|start| trimmed.starts_with(start))
        {
            inside = false;
        }
        if inside {
            failed.push(line);
        }
    }
    failed.join("\n")
}
