//! The browser runs the server's engine and the server's CPU players: the page's engine module
//! (`static/engine/engine.js`) under Node, loading the WebAssembly module built into the server.
//!
//! - A game against CPU players and the engine's refusals (`js/engine.test.mjs`), and the board
//!   drawings' cells against the engine's numbers (`js/board.test.mjs`).
//! - Every line of the rules vectors (`ludo-rules/tests/data/*.jsonl`: the project's copy of the
//!   shared ones and the project's own) through the page's module, checked by the very runner the library and the `ludo` binary pass
//!   (`ludo-rules/tests/support/vectors.rs`); each answer the module gives along the way is also
//!   the native engine's own: the same whole position, the same legal moves in the same order, or
//!   a refusal with the same code. An action the module cannot express fails the test.
//! - The CPU players (`js/bots.test.mjs`): positions reached natively by seeded random games under
//!   several presets, options and seat counts, each with the native legal moves and the native
//!   choice of every level for several seeds, written here at every run; the page's module must
//!   offer the same moves and choose the same move for the same position and seed. The same file
//!   analyses a whole game (`ludo-bots/tests/data/game.json`) with the `expert` network, whole
//!   and in parts, and must answer the native analysis written here (the module with the
//!   analysis, `/analysis.wasm`; the page's own `/engine.wasm` has none).

#[path = "../../ludo-rules/tests/support/vectors.rs"]
mod vectors;

use std::ffi::OsStr;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Output, Stdio};
use std::time::Instant;

use ludo_bots::{Level, Player, RandomPlayer, Rng, seats_for, throw_dice};
use ludo_rules::{Fault, Game, Phase, Rules, Throw};
use serde_json::{Value, json};
use vectors::{Engine, Refusal, run_files};

/// The JavaScript files, run from their own directory.
const JS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/js");

/// Whether Node can run; CI installs it (see .ci/run) and must run these tests, elsewhere they
/// are skipped, said aloud.
fn node_runs(what: &str) -> bool {
    if Command::new("node").arg("--version").output().is_ok() {
        return true;
    }
    ludo_server::skips::skipped(what, "Node is not installed (apt-get install nodejs)");
    false
}

/// A scratch directory holding the server's built-in `engine.wasm` and `analysis.wasm`, removed
/// when dropped.
struct Scratch(tempfile::TempDir);

impl Scratch {
    fn new() -> Scratch {
        let dir = tempfile::tempdir().expect("a temporary directory");
        for module in ["engine.wasm", "analysis.wasm"] {
            let (_, _, bytes, ..) = ludo_server::assets()
                .iter()
                .find(|(path, ..)| path.strip_prefix('/') == Some(module))
                .copied()
                .expect("the engine is built in");
            std::fs::write(dir.path().join(module), bytes).unwrap();
        }
        Scratch(dir)
    }

    /// The page's engine.
    fn wasm(&self) -> PathBuf {
        self.0.path().join("engine.wasm")
    }

    /// The engine with a game's analysis.
    fn analysis_wasm(&self) -> PathBuf {
        self.0.path().join("analysis.wasm")
    }

    fn file(&self, name: &str) -> PathBuf {
        self.0.path().join(name)
    }
}

/// Runs Node's test runner on `files` in `js/` with `env`, and fails with its output unless every
/// test passed; the output otherwise.
fn node_test(files: &[&str], env: &[(&str, &OsStr)]) -> Output {
    let mut command = Command::new("node");
    command.arg("--test").args(files).current_dir(JS);
    for (name, value) in env {
        command.env(name, value);
    }
    let output = command.output().expect("node runs");
    assert!(
        output.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

#[test]
fn the_browser_engine_module_plays_a_game_under_node() {
    if !node_runs("the JavaScript engine test") {
        return;
    }
    let scratch = Scratch::new();
    node_test(
        &["engine.test.mjs", "board.test.mjs"],
        &[("LUDO_WASM", scratch.wasm().as_os_str())],
    );
}

// ---------------------------------------------------------------------------------------------
// The rules vectors

/// The page's engine module in a Node process (`js/bridge.mjs`), one JSON line each way, each
/// answer compared with the native engine's.
struct Browser {
    node: Child,
    to_node: ChildStdin,
    from_node: BufReader<ChildStdout>,
    /// Calls made to the module.
    calls: usize,
    /// Where the module's answer is not the native engine's, or breaks the error contract.
    mismatches: Vec<String>,
}

impl Browser {
    fn start(wasm: &Path) -> Browser {
        let mut node = Command::new("node")
            .arg("bridge.mjs")
            .current_dir(JS)
            .env("LUDO_WASM", wasm)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("node runs");
        let to_node = node.stdin.take().expect("piped");
        let from_node = BufReader::new(node.stdout.take().expect("piped"));
        Browser {
            node,
            to_node,
            from_node,
            calls: 0,
            mismatches: Vec::new(),
        }
    }

    /// `engine[method](...args)` in the page's module: its answer, or its refusal's code. Anything
    /// else (no such method, an exception other than the engine's) fails the test at once.
    fn ask(&mut self, method: &str, args: Value) -> Result<Value, Value> {
        self.calls += 1;
        let request = json!({ "method": method, "args": args });
        writeln!(self.to_node, "{request}").expect("node reads its input");
        let mut line = String::new();
        self.from_node.read_line(&mut line).expect("node answers");
        let answer: Value = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("node answered no JSON line ({e}) to {request}: {line:?}"));
        if let Some(ok) = answer.get("ok") {
            return Ok(ok.clone());
        }
        let Some(refused) = answer.get("refused") else {
            panic!("the engine module cannot answer {request}: {answer}");
        };
        let code = refused["code"].as_str().unwrap_or_default();
        if !ludo_rules::all_codes().contains(&code) || !refused["params"].is_object() {
            self.mismatches.push(format!(
                "{method}: a refusal without an engine code and its values: {refused}"
            ));
        }
        Err(json!({ "code": code, "params": refused["params"] }))
    }

    /// Records a difference between the module's answer and the native engine's: the same
    /// answer, or a refusal with the same code.
    fn compare(
        &mut self,
        what: String,
        browser: &Result<Value, Value>,
        native: &Result<Value, String>,
    ) {
        let browser_code = browser
            .as_ref()
            .map_err(|e| e["code"].as_str().unwrap_or_default());
        if browser_code != native.as_ref().map_err(String::as_str) {
            self.mismatches
                .push(format!("{what}: browser {browser:?}, native {native:?}"));
        }
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.node.kill();
        let _ = self.node.wait();
    }
}

/// A refusal's code.
fn code(e: impl Fault) -> String {
    e.code().to_owned()
}

/// What the native engine answers to `action` (`["roll", 6]`, `["move", 2]`) in `position`: the
/// next position, or the refusal's code. Numbers that are no die face or piece index do not read,
/// as in the module's requests.
fn native_act(position: &Value, action: &[Value]) -> Result<Value, String> {
    let numbers: Option<Vec<u8>> = action[1..]
        .iter()
        .map(|v| v.as_u64().and_then(|n| u8::try_from(n).ok()))
        .collect();
    let numbers = numbers.ok_or("unreadable")?;
    let mut game = Game::from_json(&position.to_string()).map_err(code)?;
    match action[0].as_str() {
        Some("roll") => {
            game.roll(Throw::new(&numbers).map_err(code)?)
                .map_err(code)?;
        }
        Some("move") => {
            game.play(numbers[0]).map_err(code)?;
        }
        other => panic!("no native action {other:?}"),
    }
    Ok(serde_json::from_str(&game.to_json()).expect("a position is JSON"))
}

fn native_legal(position: &Value) -> Result<Value, String> {
    let game = Game::from_json(&position.to_string()).map_err(code)?;
    Ok(serde_json::to_value(game.legal_moves()).expect("moves serialise"))
}

/// A refusal as the page's module gives it, `{code, params}`.
fn refused(fault: Value) -> Refusal {
    Refusal {
        fault: Some(fault.clone()),
        ..Refusal::said(format!("refused: {}", fault["code"]))
    }
}

impl Engine for Browser {
    fn act(&mut self, position: &Value, action: &[Value]) -> Result<Value, Refusal> {
        let browser = match (action[0].as_str(), &action[1..]) {
            (Some("roll"), dice) => self.ask("roll", json!([position, dice])),
            (Some("move"), [piece]) => self
                .ask("move", json!([position, piece]))
                .map(|answer| answer["position"].clone()),
            _ => panic!("the engine module has no action {action:?}"),
        };
        let native = native_act(position, action);
        self.compare(format!("{action:?}"), &browser, &native);
        browser.map_err(refused)
    }

    fn legal(&mut self, position: &Value) -> Result<Value, Refusal> {
        let browser = self.ask("legal", json!([position]));
        let native = native_legal(position);
        self.compare("legal".to_owned(), &browser, &native);
        browser.map_err(refused)
    }

    fn read(&mut self, position: &Value) -> Option<Result<Value, Refusal>> {
        let read = self.ask("options", json!([position])).and_then(|options| {
            let board = self.ask("board", json!([position]))?;
            Ok(json!({ "options": options["options"], "board": board }))
        });
        let native = Game::from_json(&position.to_string())
            .map(|_| Value::Null)
            .map_err(code);
        self.compare(
            "read".to_owned(),
            &read.as_ref().map(|_| Value::Null).map_err(Clone::clone),
            &native,
        );
        Some(read.map_err(refused))
    }
}

#[test]
fn every_rules_vector_passes_through_the_browser_engine_as_through_the_native_one() {
    if !node_runs("the shared vectors through the browser's engine") {
        return;
    }
    let scratch = Scratch::new();
    let mut browser = Browser::start(&scratch.wasm());
    let start = Instant::now();
    let counts = run_files(&mut browser);
    let count: usize = counts.iter().map(|(_, n)| n).sum();
    assert!(counts[0].1 >= 62, "only {counts:?} vectors ran");
    assert!(
        browser.mismatches.is_empty(),
        "the browser's engine and the native one differ:\n{}",
        browser.mismatches.join("\n")
    );
    eprintln!(
        "{count} vectors, {} calls to the browser's engine, in {:.1?}",
        browser.calls,
        start.elapsed()
    );
}

// ---------------------------------------------------------------------------------------------
// The CPU players

/// Rules (as a position's `rules` field) and seat counts whose positions the CPUs are asked about:
/// every preset, the boards by players, and house rules that change what a move may do.
const TABLES: [(&str, &[usize]); 7] = [
    (r#""qdan""#, &[2, 3, 4]),
    (r#""classic""#, &[2, 3, 4]),
    (r#""vietnamese""#, &[2, 3, 4]),
    (r#"{"preset": "qdan", "layout": "by_players"}"#, &[2, 3]),
    (r#"{"preset": "classic", "layout": "by_players"}"#, &[2, 3]),
    (
        r#"{"preset": "classic", "passing": "any", "safe": "none", "first_player": "highest_roll"}"#,
        &[4],
    ),
    (
        r#"{"preset": "qdan", "passing": "free", "stacking": false, "no_piece_out": "three_tries"}"#,
        &[2],
    ),
];

/// Positions taken from each table's games.
const POSITIONS_PER_TABLE: usize = 24;

/// The largest seed a page's number carries exactly (2^53 − 1).
const LARGEST_SEED: u64 = (1 << 53) - 1;

/// Plays seeded random games natively under `rules` and takes `count` positions in which the seat
/// to move has a choice, spread over the games (about one decision in sixteen).
fn positions(rules: Rules, seats: usize, count: usize, rng: &mut Rng) -> Vec<Game> {
    let seats = seats_for(seats).expect("2 to 4 seats");
    let mut taken = Vec::new();
    while taken.len() < count {
        let mut game = Game::new(rules, seats).expect("the rules take these seats");
        let (mut dice, mut choices) = (rng.fork(), rng.fork());
        while game.phase() != Phase::Over && taken.len() < count {
            if game.phase() != Phase::Move {
                game.roll(throw_dice(&game, &mut dice))
                    .expect("a fair throw");
                continue;
            }
            let moves = game.legal_moves();
            if moves.len() > 1 && choices.below(16) == 0 {
                taken.push(game);
            }
            let m = RandomPlayer.choose(&game, &moves, &mut choices);
            game.play(m.piece).expect("a legal move");
        }
    }
    taken
}

/// A whole game's record, as a local game exports it (`ludo-bots`' fixed game for analyses).
const ANALYSED: &str = include_str!("../../ludo-bots/tests/data/game.json");

/// The native analysis of [`ANALYSED`], as JSON.
fn native_analysis() -> Value {
    let record: Value = serde_json::from_str(ANALYSED).expect("the record is JSON");
    let read = |field: &str| record[field].clone();
    let rules: ludo_rules::Rules = serde_json::from_value(read("rules")).expect("rules");
    let seats: Vec<ludo_rules::Colour> = serde_json::from_value(read("seats")).expect("seats");
    let actions: Vec<ludo_fair::Action> = serde_json::from_value(read("actions")).expect("actions");
    let net = ludo_bots::expert::network(&rules, seats.len(), ludo_bots::expert::Model::Medium);
    ludo_bots::analyse(rules, &seats, &actions, net, 0..usize::MAX)
        .expect("the fixed game is analysed")
        .to_json()
}

#[test]
fn the_browser_cpu_players_choose_the_native_ones_moves_at_every_level() {
    if !node_runs("the CPU players through the browser's engine") {
        return;
    }
    let started = Instant::now();
    let mut rng = Rng::new(0x1ad0);
    let mut lines = String::new();
    let (mut count, mut choices) = (0, 0);
    for (rules_json, seat_counts) in TABLES {
        let rules = Rules::check_json(rules_json).expect("the rules hold together");
        for &seats in seat_counts {
            for (i, game) in positions(rules, seats, POSITIONS_PER_TABLE, &mut rng)
                .into_iter()
                .enumerate()
            {
                // Seeds as the page draws them (below a million), any seed a page can send, and
                // at each table's first position the ends of that range.
                let mut seeds = vec![rng.below(1_000_000).into(), rng.next_u64() >> 11];
                if i == 0 {
                    seeds.extend([0, LARGEST_SEED]);
                }
                let moves = game.legal_moves();
                let by_level: serde_json::Map<String, Value> = Level::ALL
                    .into_iter()
                    .map(|level| {
                        let chosen: Vec<Value> = seeds
                            .iter()
                            .map(|&seed| {
                                let choice =
                                    level.player().choose(&game, &moves, &mut Rng::new(seed));
                                json!([seed, choice])
                            })
                            .collect();
                        choices += chosen.len();
                        (level.name().to_owned(), Value::from(chosen))
                    })
                    .collect();
                let case = json!({
                    "label": format!("{rules_json} with {seats} seats, position {i}"),
                    "position": serde_json::from_str::<Value>(&game.to_json()).expect("JSON"),
                    "moves": moves,
                    "choices": by_level,
                });
                lines.push_str(&format!("{case}\n"));
                count += 1;
            }
        }
    }
    let native = started.elapsed();
    let scratch = Scratch::new();
    let cases = scratch.file("bots.jsonl");
    std::fs::write(&cases, lines).unwrap();
    let levels: Vec<&str> = Level::ALL.iter().map(|l| l.name()).collect();
    let (record, analysis) = (scratch.file("game.json"), scratch.file("analysis.json"));
    std::fs::write(&record, ANALYSED).unwrap();
    std::fs::write(&analysis, native_analysis().to_string()).unwrap();
    let output = node_test(
        &["bots.test.mjs"],
        &[
            ("LUDO_WASM", scratch.wasm().as_os_str()),
            ("LUDO_BOT_CASES", cases.as_os_str()),
            ("LUDO_BOT_POSITIONS", OsStr::new(&count.to_string())),
            ("LUDO_BOT_LEVELS", OsStr::new(&levels.join(","))),
            ("LUDO_ANALYSIS_WASM", scratch.analysis_wasm().as_os_str()),
            ("LUDO_ANALYSIS_RECORD", record.as_os_str()),
            ("LUDO_ANALYSIS_NATIVE", analysis.as_os_str()),
            (
                "LUDO_EXPERT_NETWORKS",
                OsStr::new(concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/../ludo-bots/src/expert/networks"
                )),
            ),
        ],
    );
    eprintln!(
        "{count} positions, {choices} native choices in {native:.1?}, compared in the browser in {:.1?}\n{}",
        started.elapsed() - native,
        String::from_utf8_lossy(&output.stdout)
    );
}
