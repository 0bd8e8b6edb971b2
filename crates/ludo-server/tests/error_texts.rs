//! Every engine error code and every server refusal code has its words in each of the web
//! client's languages: the complete code lists come from Rust, and Node checks the page's tables
//! (`static/i18n/texts-*.js` merged by `static/i18n/i18n.js`).

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
        // CI installs Node (see .ci/run) and must run this; elsewhere it is skipped and listed.
        ludo_server::skips::skipped(
            "error texts test",
            "Node is not installed (apt-get install nodejs)",
        );
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
    let shared: Vec<&str> = REFUSAL_CODES
        .iter()
        .map(|c| c.as_str())
        .filter(|c| engine.contains(c))
        .collect();
    assert!(shared.is_empty(), "{shared:?}");
}

/// Every server refusal is a [`ludo_server::protocol::RefusalCode`], so the compiler keeps the
/// list whole; the protocol's documentation must say the same: its table of refusal codes has one
/// row per code, no more and no fewer.
#[test]
fn the_protocol_documents_every_refusal_code_and_no_other() {
    let doc = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/protocol.md"
    ))
    .unwrap();
    let table = doc
        .split("## Refusal codes")
        .nth(1)
        .and_then(|rest| rest.split("\n#").next())
        .expect("docs/protocol.md has a section of refusal codes");
    let documented: Vec<&str> = table
        .lines()
        .filter_map(|line| line.strip_prefix("| `"))
        .filter_map(|rest| rest.split('`').next())
        .collect();
    let codes: Vec<&str> = REFUSAL_CODES.iter().map(|c| c.as_str()).collect();
    let mut sorted_documented = documented.clone();
    sorted_documented.sort_unstable();
    let mut sorted_codes = codes.clone();
    sorted_codes.sort_unstable();
    assert_eq!(
        sorted_documented, sorted_codes,
        "the codes docs/protocol.md lists"
    );
}
