//! Known answers for the dice: fixed seeds, game ids and throw numbers with the faces they give
//! and the seeds' commitments.
//!
//! `tests/data/dice.jsonl` holds one case a line: a `seed` (64 hex digits), its `commitment`, a
//! `game_id`, a throw `number`, how many `dice`, the `faces` that throw gives, and `skipped`, the
//! HMAC bytes of 252 or more passed over before the last face (a `note` spells such bytes out).
//! The answers were computed once with Python's `hmac` and `hashlib`, following the derivation as
//! `docs/protocol.md` words it rather than calling this crate, and are frozen.
//!
//! They pin the derivation because others depend on it staying exactly as it is: records already
//! stored and exported must go on verifying, and verifiers written outside this code (the Python
//! one in `docs/protocol.md`, anybody's own) must go on agreeing with the server. Any change to
//! the message `"<id>:<n>"`, the skipping of bytes of 252 or more, the face `byte mod 6 + 1`,
//! the order the dice are read in, or the hex and SHA-256 encoding of seeds and commitments fails
//! here. The cases include throws 0 and 1, throw numbers up to 2^64 - 1, one and two dice, and
//! throws whose first byte or bytes are 252 or more and skipped (the bytes 252, 253 and 255; 251
//! is kept). The fallback messages `"<id>:<n>:<k>"` are reached only when 31 or all 32 bytes of
//! a throw are skipped, a chance far too small to find a case for.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use ludo_fair::{Action, Record, Seed, VerifyError};
use ludo_rules::{Colour, Game, Phase, Preset, Rules, Throw};
use serde::Deserialize;

/// The known answers, one JSON object a line.
const KNOWN_ANSWERS: &str = include_str!("data/dice.jsonl");

/// The game id of the example record in `docs/protocol.md`; its cases are throws 0, 1, 2… of
/// that game, in order.
const EXAMPLE_GAME: &str = "7a6e5j6tdhyg";

/// A property some known answer must have, to keep a part of the derivation pinned.
type Property = fn(&KnownAnswer) -> bool;

/// One line of the known answers.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct KnownAnswer {
    /// The seed, 64 lowercase hex digits.
    seed: String,
    /// The SHA-256 of the seed's 32 bytes, 64 lowercase hex digits.
    commitment: String,
    /// The game id.
    game_id: String,
    /// The throw number.
    number: u64,
    /// How many dice are thrown.
    dice: u8,
    /// The faces the throw gives, in order.
    faces: Vec<u8>,
    /// How many HMAC bytes of 252 or more are skipped before the last face.
    skipped: u32,
    /// What the case shows, for a reader.
    note: Option<String>,
}

impl KnownAnswer {
    /// The case's seed, read by the crate.
    fn seed(&self) -> Seed {
        Seed::from_hex(&self.seed).expect("every known-answer seed is 64 hex digits")
    }

    /// The case's expected throw.
    fn throw(&self) -> Throw {
        Throw::new(&self.faces).expect("every known-answer throw is one or two faces 1..=6")
    }
}

/// Every known answer, in the file's order.
fn known_answers() -> Vec<KnownAnswer> {
    KNOWN_ANSWERS
        .lines()
        .enumerate()
        .map(|(i, line)| {
            serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("tests/data/dice.jsonl line {}: {e}", i + 1))
        })
        .collect()
}

/// The known answers of the example game, by throw number from 0, each of one die.
fn example_throws(answers: &[KnownAnswer]) -> Vec<&KnownAnswer> {
    let mut throws: Vec<&KnownAnswer> = answers
        .iter()
        .filter(|a| a.game_id == EXAMPLE_GAME)
        .collect();
    throws.sort_by_key(|a| a.number);
    for (n, answer) in (0u64..).zip(&throws) {
        assert_eq!(answer.number, n, "the example game's throws run 0, 1, 2…");
        assert_eq!(answer.dice, 1, "the example game throws one die");
    }
    throws
}

/// The example game of `docs/protocol.md` (`qdan`, yellow against red) played with its known
/// throws in order, the first legal move played whenever a move is due, until the throws run out.
fn example_record(answers: &[KnownAnswer]) -> Record {
    let throws = example_throws(answers);
    let first = throws.first().expect("the example game has known throws");
    let seats = vec![Colour::Yellow, Colour::Red];
    let rules = Rules::preset(Preset::Qdan);
    let mut game = Game::new(rules, &seats).expect("yellow and red make a game");
    let mut actions = Vec::new();
    for answer in &throws {
        if game.phase() == Phase::Move {
            let piece = game.legal_moves().get(0).expect("a move is due").piece;
            game.play(piece).expect("a legal move plays");
            actions.push(Action::Move(piece));
        }
        assert_eq!(game.dice_to_throw(), 1, "qdan throws one die");
        game.roll(answer.throw()).expect("the game takes a throw");
        actions.push(Action::Throw(answer.throw()));
    }
    Record {
        game_id: EXAMPLE_GAME.to_owned(),
        rules,
        seats,
        commitment: first.commitment.clone(),
        seed: Some(first.seed.clone()),
        actions,
    }
}

/// A throw of the same dice with the first face changed.
fn changed(throw: Throw) -> Throw {
    let mut faces = throw.faces().to_vec();
    faces[0] = faces[0] % 6 + 1;
    Throw::new(&faces).expect("faces stay 1..=6")
}

/// The ```` ```python ```` blocks of a Markdown text, their fences left out.
fn python_blocks(markdown: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut open: Option<String> = None;
    for line in markdown.lines() {
        match open.as_mut() {
            None if line.trim_end() == "```python" => open = Some(String::new()),
            None => {}
            Some(_) if line.trim_end() == "```" => blocks.extend(open.take()),
            Some(block) => {
                block.push_str(line);
                block.push('\n');
            }
        }
    }
    blocks
}

/// The Python verifier documented in `docs/protocol.md`, exactly as written there.
fn documented_verifier() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/protocol.md");
    let markdown =
        fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut verifiers: Vec<String> = python_blocks(&markdown)
        .into_iter()
        .filter(|block| block.contains("def throw("))
        .collect();
    assert_eq!(
        verifiers.len(),
        1,
        "docs/protocol.md should hold one ```python block defining `throw`"
    );
    verifiers.remove(0)
}

/// A fresh directory under Cargo's scratch space for integration tests.
fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("known-answers-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    dir
}

/// Runs `python3` with `args` in `dir`, `stdin` as its input. Fails, rather than skips, when
/// there is no `python3` to run.
fn python3(dir: &Path, args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new("python3")
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| {
            panic!(
                "python3 could not be started ({e}): the Python verifier in docs/protocol.md \
                 must be checked against the known answers, so install Python 3"
            )
        });
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(stdin.as_bytes())
        .expect("python3 reads its input");
    child.wait_with_output().expect("python3 runs")
}

/// What a Python run printed, for a failure message.
fn printed(output: &Output) -> String {
    format!(
        "status {}\nstdout:\n{}\nstderr:\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// Runs the documented verifier over `GAME.json` holding `record`.
fn verify_with_documented_python(dir: &Path, record: &Record) -> Output {
    let json = serde_json::to_string(record).expect("a record writes as JSON");
    fs::write(dir.join("GAME.json"), json).expect("GAME.json is written");
    python3(dir, &["verifier.py"], "")
}

/// Reads the known answers from standard input and prints, for each, the faces the documented
/// `throw` gives as a JSON line. The documented code reads its record from `GAME.json`, so each
/// case is written there (with no actions) and the code run afresh for it: its own check of the
/// commitment then runs too.
const DRIVER: &str = r#"
import json, sys

source = open(sys.argv[1], encoding="utf-8").read()
for line in sys.stdin:
    case = json.loads(line)
    record = {key: case[key] for key in ("game_id", "seed", "commitment")}
    record["actions"] = []
    with open("GAME.json", "w", encoding="utf-8") as f:
        json.dump(record, f)
    scope = {}
    exec(compile(source, "docs/protocol.md", "exec"), scope)
    print(json.dumps(scope["throw"](case["game_id"], case["number"], case["dice"])))
"#;

#[test]
fn every_known_answer_throw_is_derived_exactly() {
    let answers = known_answers();
    let wrong: Vec<String> = answers
        .iter()
        .enumerate()
        .filter_map(|(i, a)| {
            let derived = a.seed().throw(&a.game_id, a.number, a.dice);
            (derived.faces() != a.faces.as_slice()).then(|| {
                format!(
                    "line {}: throw {} of `{}`, dice {}: the crate gives {:?}, not {:?}",
                    i + 1,
                    a.number,
                    a.game_id,
                    a.dice,
                    derived.faces(),
                    a.faces
                )
            })
        })
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn every_known_answer_commitment_is_the_sha256_of_the_seed_bytes() {
    for (i, answer) in known_answers().iter().enumerate() {
        let seed = answer.seed();
        assert_eq!(seed.to_hex(), answer.seed, "line {}: the seed's hex", i + 1);
        assert_eq!(
            seed.commitment(),
            answer.commitment,
            "line {}: the commitment",
            i + 1
        );
    }
}

#[test]
fn the_known_answers_cover_what_pins_the_derivation() {
    let answers = known_answers();
    let cases: [(&str, Property); 9] = [
        ("throw 0", |a| a.number == 0),
        ("throw 1", |a| a.number == 1),
        ("a throw number past 2^32", |a| {
            a.number > u64::from(u32::MAX)
        }),
        ("the throw number 2^64 - 1", |a| a.number == u64::MAX),
        ("two dice", |a| a.dice == 2),
        ("one die after a skipped byte", |a| {
            a.dice == 1 && a.skipped > 0
        }),
        ("two dice after a skipped byte", |a| {
            a.dice == 2 && a.skipped > 0
        }),
        ("two skipped bytes", |a| a.skipped >= 2),
        ("a skipped byte at throw 0", |a| {
            a.number == 0 && a.skipped > 0
        }),
    ];
    for (what, test) in cases {
        assert!(answers.iter().any(test), "no known answer has {what}");
    }
    for face in 1..=6 {
        assert!(
            answers.iter().any(|a| a.faces.contains(&face)),
            "no known answer has the face {face}"
        );
    }
    for (i, answer) in answers.iter().enumerate() {
        assert!(
            answer.skipped == 0 || answer.note.is_some(),
            "line {}: a case with skipped bytes says which in its note",
            i + 1
        );
        assert_eq!(
            answer.faces.len(),
            usize::from(answer.dice),
            "line {}",
            i + 1
        );
    }
}

#[test]
fn a_record_of_known_answer_throws_verifies_and_every_changed_throw_is_named() {
    let answers = known_answers();
    let record = example_record(&answers);
    assert_eq!(
        record.verify(),
        Ok(record.replay().expect("the record replays"))
    );
    for (index, action) in record.actions.iter().enumerate() {
        let Action::Throw(throw) = *action else {
            continue;
        };
        let mut forged = record.clone();
        forged.actions[index] = Action::Throw(changed(throw));
        assert_eq!(
            forged.verify().map(|_| ()),
            Err(VerifyError::WrongThrow {
                index,
                recorded: changed(throw),
                derived: throw,
            })
        );
    }
}

#[test]
fn a_record_whose_seed_is_not_behind_its_commitment_is_refused() {
    let answers = known_answers();
    let mut record = example_record(&answers);
    let other = answers
        .iter()
        .find(|a| a.commitment != record.commitment)
        .expect("the known answers hold more than one seed");
    record.commitment = other.commitment.clone();
    assert_eq!(record.verify().map(|_| ()), Err(VerifyError::Commitment));
}

#[test]
fn the_documented_python_verifier_derives_every_known_answer() {
    let answers = known_answers();
    let dir = scratch_dir("derive");
    fs::write(dir.join("verifier.py"), documented_verifier()).expect("verifier.py is written");
    let output = python3(&dir, &["-c", DRIVER, "verifier.py"], KNOWN_ANSWERS);
    let _ = fs::remove_dir_all(&dir);
    assert!(output.status.success(), "{}", printed(&output));
    let derived: Vec<Vec<u8>> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("the driver prints faces"))
        .collect();
    assert_eq!(derived.len(), answers.len(), "{}", printed(&output));
    for (i, (faces, answer)) in derived.iter().zip(&answers).enumerate() {
        assert_eq!(faces, &answer.faces, "line {}: {answer:?}", i + 1);
    }
}

#[test]
fn the_documented_python_verifier_accepts_the_known_answer_record_and_refuses_forgeries() {
    let answers = known_answers();
    let record = example_record(&answers);
    let dir = scratch_dir("record");
    fs::write(dir.join("verifier.py"), documented_verifier()).expect("verifier.py is written");
    let accepted = verify_with_documented_python(&dir, &record);
    let mut changed_throw = record.clone();
    let last = changed_throw.actions.len() - 1;
    let Action::Throw(throw) = changed_throw.actions[last] else {
        panic!("the example record ends with a throw");
    };
    changed_throw.actions[last] = Action::Throw(changed(throw));
    let changed_refused = verify_with_documented_python(&dir, &changed_throw);
    let mut other_seed = record.clone();
    other_seed.commitment = answers
        .iter()
        .find(|a| a.commitment != record.commitment)
        .expect("the known answers hold more than one seed")
        .commitment
        .clone();
    let other_refused = verify_with_documented_python(&dir, &other_seed);
    let _ = fs::remove_dir_all(&dir);
    assert!(accepted.status.success(), "{}", printed(&accepted));
    for refused in [changed_refused, other_refused] {
        assert!(!refused.status.success(), "{}", printed(&refused));
        assert!(
            String::from_utf8_lossy(&refused.stderr).contains("AssertionError"),
            "{}",
            printed(&refused)
        );
    }
}
