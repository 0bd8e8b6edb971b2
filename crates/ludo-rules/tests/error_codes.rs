//! The engine's error codes: each names one kind of error, and the protocol documents each.

use ludo_rules::all_codes;

#[test]
fn no_code_belongs_to_two_kinds_of_error() {
    let mut codes = all_codes();
    let n = codes.len();
    codes.sort_unstable();
    codes.dedup();
    assert_eq!(codes.len(), n, "{codes:?}");
}

/// `docs/protocol.md` lists the engine's codes under "Engine reasons", each in backquotes.
#[test]
fn the_protocol_documents_every_engine_code() {
    let doc = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/protocol.md"
    ))
    .unwrap();
    let section = doc
        .split("### Engine reasons")
        .nth(1)
        .and_then(|rest| rest.split("\n#").next())
        .expect("docs/protocol.md has a section of engine reasons");
    let undocumented: Vec<&str> = all_codes()
        .into_iter()
        .filter(|code| !section.contains(&format!("`{code}`")))
        .collect();
    assert!(undocumented.is_empty(), "{undocumented:?}");
}
