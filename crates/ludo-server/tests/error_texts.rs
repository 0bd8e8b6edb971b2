//! Every engine error code and every server refusal code has its words in each of the web
//! client's languages: the complete code lists come from Rust, and Node checks the page's tables
//! (`static/texts-*.js` merged by `static/i18n.js`).

use std::process::Command;

use ludo_fair::VerifyError;
use ludo_rules::{OptionsError, Phase};
use ludo_server::protocol::REFUSAL_CODES;

/// Every phase, for the words of "not now" (an exhaustive match: a new phase must be added).
fn phases() -> Vec<Phase> {
    let all = vec![Phase::Rolloff, Phase::Roll, Phase::Move, Phase::Over];
    for phase in &all {
        match phase {
            Phase::Rolloff | Phase::Roll | Phase::Move | Phase::Over => {}
        }
    }
    all
}

/// The text keys the page must have: a contradiction between options as `rules.error.<code>`,
/// every other engine error as `engine.<code>`, every refusal as `refusal.<code>`.
fn required_keys() -> Vec<String> {
    let engine = ludo_rules::all_codes()
        .into_iter()
        .chain(VerifyError::CODES.iter().copied())
        .map(|code| {
            if OptionsError::CODES.contains(&code) {
                format!("rules.error.{code}")
            } else {
                format!("engine.{code}")
            }
        });
    let refusals = REFUSAL_CODES.iter().map(|code| format!("refusal.{code}"));
    let phases = phases().into_iter().map(|p| format!("engine.phase.{p}"));
    engine
        .chain(refusals)
        .chain(phases)
        .chain(["engine.other", "refusal.other", "rules.error.other"].map(String::from))
        .collect()
}

#[test]
fn every_error_code_has_a_text_in_every_language_of_the_page() {
    let node = Command::new("node").arg("--version").output();
    if node.is_err() {
        // CI installs Node (see .ci/run) and must run this; elsewhere it is skipped, said aloud.
        assert!(
            std::env::var_os("CI").is_none(),
            "node is needed for the texts test"
        );
        eprintln!("node is not installed: skipping the texts test");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let keys = dir.path().join("keys.json");
    std::fs::write(&keys, serde_json::to_string(&required_keys()).unwrap()).unwrap();
    let output = Command::new("node")
        .args(["--test", "texts.test.mjs"])
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/js"))
        .env("LUDO_TEXT_KEYS", &keys)
        .output()
        .expect("node runs");
    assert!(
        output.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn no_refusal_code_is_also_an_engine_code() {
    let engine: Vec<&str> = ludo_rules::all_codes()
        .into_iter()
        .chain(VerifyError::CODES.iter().copied())
        .collect();
    let shared: Vec<&&str> = REFUSAL_CODES
        .iter()
        .filter(|c| engine.contains(c))
        .collect();
    assert!(shared.is_empty(), "{shared:?}");
}

/// The first string literal after each call that refuses with a code, in the server's source.
fn codes_refused_in(source: &str) -> Vec<String> {
    const CALLS: [&str; 5] = [
        "Refusal::new(",
        "Refusal::engine(",
        "ServerMsg::error(",
        "refuse(",
        "StatusCode::",
    ];
    let mut codes = Vec::new();
    for call in CALLS {
        for (at, _) in source.match_indices(call) {
            let rest = &source[at + call.len()..];
            let window = &rest[..rest.len().min(120)];
            let Some(open) = window.find('"') else {
                continue;
            };
            let literal = &window[open + 1..];
            let Some(close) = literal.find('"') else {
                continue;
            };
            let code = &literal[..close];
            let before = &window[..open];
            let in_call = !before.contains(';') && !before.contains('{');
            if in_call
                && !code.is_empty()
                && code.chars().all(|c| c.is_ascii_lowercase() || c == '_')
            {
                codes.push(code.to_owned());
            }
        }
    }
    codes
}

#[test]
fn every_code_the_server_refuses_with_is_in_the_list_of_refusal_codes() {
    let mut unlisted = Vec::new();
    let mut seen = 0;
    let mut dirs = vec![std::path::PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/src"
    ))];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                for code in codes_refused_in(&std::fs::read_to_string(&path).unwrap()) {
                    seen += 1;
                    if !REFUSAL_CODES.contains(&code.as_str()) {
                        unlisted.push(format!("{}: {code}", path.display()));
                    }
                }
            }
        }
    }
    assert!(seen > 20, "the scan finds the server's refusals ({seen})");
    assert!(unlisted.is_empty(), "{unlisted:#?}");
}
