//! Test suites that need what a machine may lack (Chromium, Node, PostgreSQL, HAProxy) say so
//! here, and are never skipped in silence.
//!
//! On CI (`CI` set) a missing prerequisite fails the test: CI must run every suite. Elsewhere the
//! test returns early after [`skipped`] has noted the suite and why: on standard error, which
//! `cargo test` hides for a passing test, and in the file `LUDO_SKIPPED` names, which
//! `scripts/test.sh` (the README's test command) reads back at the end of the run to list every
//! suite that did not run.

use std::io::Write;

/// The environment variable naming the file where skipped suites are listed, a line each.
pub const SKIPPED_FILE: &str = "LUDO_SKIPPED";

/// Notes that `suite` is skipped because of `why` (what is missing, and how to get it).
///
/// # Panics
/// On CI, always: a suite skipped there would let a broken build pass.
pub fn skipped(suite: &str, why: &str) {
    assert!(
        std::env::var_os("CI").is_none(),
        "CI must run the {suite}: {why}"
    );
    eprintln!("skipped: the {suite}: {why}");
    let Some(path) = std::env::var_os(SKIPPED_FILE) else {
        return;
    };
    // Appends of one short line from several test processes at once stay whole.
    let line = format!("{suite}: {why}\n");
    if let Ok(mut file) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
    {
        let _ = file.write_all(line.as_bytes());
    }
}
