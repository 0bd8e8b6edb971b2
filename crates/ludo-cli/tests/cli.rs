//! The built `ludo` binary, end to end (`position.md` §3): the shared rules vectors through the
//! command, the error contract (exit codes, silent standard output, one line on standard error),
//! `ludo new`, whole games played one process per action, and `ludo sim` and `ludo bench`.

#[path = "../../ludo-rules/tests/support/vectors.rs"]
mod vectors;

use std::io::{ErrorKind, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};

use serde_json::{Value, json};
use vectors::{Engine, Refusal, run_files};

/// The binary under test.
const LUDO: &str = env!("CARGO_BIN_EXE_ludo");

/// The four colours in clockwise order on the cross.
const ALL_SEATS: [&str; 4] = ["yellow", "blue", "red", "green"];

/// What one run of `ludo` left behind.
struct Run {
    /// The command line, for messages.
    line: String,
    /// The exit code (`None` when killed by a signal).
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

impl Run {
    /// Standard output as one JSON document; panics with the run's story otherwise.
    fn json(&self) -> Value {
        assert_eq!(self.code, Some(0), "{} failed: {}", self.line, self.stderr);
        serde_json::from_str(self.stdout.trim_end()).unwrap_or_else(|e| {
            panic!(
                "{} printed no single JSON document ({e}): {}",
                self.line, self.stdout
            )
        })
    }

    /// The line of standard output that starts with `label`, without the label.
    fn field(&self, label: &str) -> &str {
        self.stdout
            .lines()
            .find_map(|l| l.strip_prefix(label))
            .map(str::trim)
            .unwrap_or_else(|| panic!("{} printed no `{label}` line:\n{}", self.line, self.stdout))
    }

    /// The number on the line that starts with `label`; it must be positive.
    fn positive(&self, label: &str) -> f64 {
        let text = self.field(label);
        let number: f64 = text
            .split_whitespace()
            .next()
            .and_then(|w| w.parse().ok())
            .unwrap_or_else(|| panic!("{}: `{label}` is not a number: {text}", self.line));
        assert!(number > 0.0, "{}: `{label}` is {number}", self.line);
        number
    }

    /// Breaks of the error contract for a failed run: nothing on standard output, exactly one
    /// non-empty line on standard error.
    fn error_contract_breaks(&self) -> Vec<String> {
        let mut breaks = Vec::new();
        if !self.stdout.is_empty() {
            breaks.push(format!(
                "{}: printed on standard output: {:?}",
                self.line, self.stdout
            ));
        }
        let message = self.stderr.strip_suffix('\n').unwrap_or(&self.stderr);
        if message.trim().is_empty() || message.contains('\n') {
            breaks.push(format!(
                "{}: standard error is not one line: {:?}",
                self.line, self.stderr
            ));
        }
        breaks
    }
}

/// Runs `ludo ARGS` with `stdin` on its standard input.
fn ludo(args: &[&str], stdin: &str) -> Run {
    let mut child = Command::new(LUDO)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the ludo binary starts");
    let mut input = child.stdin.take().expect("standard input is piped");
    // A command may refuse its arguments and exit before it reads: a closed pipe is no failure.
    match input.write_all(stdin.as_bytes()) {
        Err(e) if e.kind() != ErrorKind::BrokenPipe => panic!("writing to ludo: {e}"),
        _ => {}
    }
    drop(input);
    let output = child.wait_with_output().expect("the ludo binary ends");
    Run {
        line: format!("ludo {}", args.join(" ")),
        code: output.status.code(),
        stdout: String::from_utf8(output.stdout).expect("standard output is UTF-8"),
        stderr: String::from_utf8(output.stderr).expect("standard error is UTF-8"),
    }
}

/// Asserts a refusal: exit `code`, nothing on standard output, and one line on standard error
/// that contains at least one of `names` (any case).
fn assert_refused(run: &Run, code: i32, names: &[&str]) {
    assert_eq!(
        run.code,
        Some(code),
        "{}: want exit {code}; stdout {:?}, stderr {:?}",
        run.line,
        run.stdout,
        run.stderr
    );
    let breaks = run.error_contract_breaks();
    assert!(breaks.is_empty(), "{}", breaks.join("\n"));
    let message = run.stderr.to_lowercase();
    assert!(
        names.is_empty() || names.iter().any(|n| message.contains(&n.to_lowercase())),
        "{}: the message does not name the problem (one of {names:?}): {}",
        run.line,
        run.stderr
    );
}

/// A fresh position from `ludo new ARGS`.
fn new_position(args: &[&str]) -> Value {
    let mut all = vec!["new"];
    all.extend_from_slice(args);
    ludo(&all, "").json()
}

/// The preset a position's rules name, in either form (`"classic"` or `{"preset": ...}`).
fn preset_of(position: &Value) -> &str {
    let rules = &position["rules"];
    rules
        .as_str()
        .or_else(|| rules["preset"].as_str())
        .unwrap_or_else(|| panic!("rules name no preset: {rules}"))
}

/// Asserts that `position` is a fresh start for `seats`: every piece in the base, nobody done.
fn assert_fresh(position: &Value, seats: &[&str]) {
    assert_eq!(position["seats"], json!(seats), "{position}");
    let pieces = position["pieces"].as_object().expect("pieces is an object");
    assert_eq!(pieces.len(), seats.len(), "one entry a seat: {position}");
    for seat in seats {
        assert_eq!(
            pieces[*seat],
            json!(["base", "base", "base", "base"]),
            "{seat}"
        );
    }
    assert_eq!(position["turn"]["seat"], json!(seats[0]), "{position}");
    for (field, fresh) in [
        ("roll", json!(null)),
        ("bonus_streak", json!(0)),
        ("throws", json!(0)),
    ] {
        let got = position["turn"].get(field).unwrap_or(&Value::Null);
        assert!(
            *got == fresh || got.is_null(),
            "turn.{field} is {got}, not a fresh turn's {fresh}"
        );
    }
    assert_eq!(position["done"], json!([]), "{position}");
    assert_eq!(position["places"], Value::Null, "{position}");
}

/// A JSON file under the temporary directory (rules, a game record), removed when dropped.
struct RulesFile(PathBuf);

impl RulesFile {
    fn new(name: &str, rules: &Value) -> Self {
        let path =
            std::env::temp_dir().join(format!("ludo-cli-test-{}-{name}.json", std::process::id()));
        std::fs::write(&path, rules.to_string()).expect("the rules file is written");
        RulesFile(path)
    }

    fn arg(&self) -> &str {
        self.0.to_str().expect("the temporary path is UTF-8")
    }
}

impl Drop for RulesFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

// ---------------------------------------------------------------------------------------------
// 1. The shared vectors

/// The engine as the binary: one process per action.
#[derive(Default)]
struct Binary {
    /// Breaks of the error contract or of `legal`'s sort order seen along the way.
    breaks: Vec<String>,
}

impl Binary {
    fn outcome(&mut self, run: &Run) -> Result<Value, String> {
        match run.code {
            Some(0) => serde_json::from_str(run.stdout.trim_end())
                .map_err(|e| format!("{}: not one JSON document ({e}): {}", run.line, run.stdout)),
            Some(code @ (1 | 2)) => {
                self.breaks.extend(run.error_contract_breaks());
                Err(format!("exit {code}: {}", run.stderr.trim_end()))
            }
            other => {
                self.breaks
                    .push(format!("{}: exit {other:?}: {}", run.line, run.stderr));
                Err(format!("exit {other:?}"))
            }
        }
    }
}

impl Engine for Binary {
    fn act(&mut self, position: &Value, action: &[Value]) -> Result<Value, Refusal> {
        let verb = action[0]
            .as_str()
            .ok_or(Refusal::said("an action starts with its name"))?;
        let numbers: Vec<String> = action[1..].iter().map(Value::to_string).collect();
        let mut args = vec![verb];
        args.extend(numbers.iter().map(String::as_str));
        let run = ludo(&args, &position.to_string());
        self.outcome(&run).map_err(Refusal::said)
    }

    fn legal(&mut self, position: &Value) -> Result<Value, Refusal> {
        let run = ludo(&["legal"], &position.to_string());
        let moves = self.outcome(&run).map_err(Refusal::said)?;
        let pieces: Vec<i64> = moves
            .as_array()
            .ok_or_else(|| Refusal::said(format!("legal printed no array: {moves}")))?
            .iter()
            .map(|m| m["piece"].as_i64().unwrap_or(-1))
            .collect();
        if !pieces.is_sorted() {
            self.breaks
                .push(format!("legal moves not sorted by piece index: {moves}"));
        }
        Ok(moves)
    }
}

/// Every rules vector file (`ludo-rules/tests/data`); the binary has no command that reads a
/// position alone, so the options, board and refusal codes a vector expects are not checked here.
#[test]
fn every_rules_vector_passes_through_the_binary() {
    let mut binary = Binary::default();
    let counts = run_files(&mut binary);
    assert!(counts[0].1 >= 62, "only {counts:?} vectors ran");
    assert!(binary.breaks.is_empty(), "{}", binary.breaks.join("\n"));
}

// ---------------------------------------------------------------------------------------------
// 2. The error contract

#[test]
fn a_move_in_phase_roll_exits_1_with_one_line_and_no_output() {
    let start = new_position(&["--seats", "yellow,red"]);
    assert_refused(&ludo(&["move", "0"], &start.to_string()), 1, &["phase"]);
}

#[test]
fn two_dice_under_one_die_rules_exit_1_with_one_line_and_no_output() {
    let start = new_position(&[]);
    assert_refused(
        &ludo(&["roll", "3", "4"], &start.to_string()),
        1,
        &["dice", "die"],
    );
}

#[test]
fn one_die_under_two_dice_rules_exits_1() {
    let start = new_position(&["--rules", "vietnamese"]);
    assert_refused(
        &ludo(&["roll", "3"], &start.to_string()),
        1,
        &["dice", "die"],
    );
}

#[test]
fn a_throw_in_phase_move_exits_1() {
    let start = new_position(&["--seats", "yellow,red"]);
    let moving = ludo(&["roll", "6"], &start.to_string()).json();
    assert_eq!(
        moving["turn"]["phase"], "move",
        "a six from the base has an exit: {moving}"
    );
    assert_refused(&ludo(&["roll", "2"], &moving.to_string()), 1, &["phase"]);
}

#[test]
fn malformed_json_exits_2_with_one_line_and_no_output() {
    assert_refused(&ludo(&["roll", "3"], "{not json"), 2, &[]);
    assert_refused(&ludo(&["legal"], "[1, 2"), 2, &[]);
}

#[test]
fn empty_standard_input_exits_2() {
    assert_refused(&ludo(&["roll", "3"], ""), 2, &[]);
    assert_refused(&ludo(&["move", "0"], ""), 2, &[]);
    assert_refused(&ludo(&["legal"], ""), 2, &[]);
}

#[test]
fn an_unknown_rules_option_in_the_position_exits_2_and_names_it() {
    let mut position = new_position(&["--seats", "yellow,red"]);
    position["rules"] = json!({"preset": "qdan", "nosuch_option": true});
    assert_refused(
        &ludo(&["roll", "3"], &position.to_string()),
        2,
        &["nosuch_option"],
    );
}

#[test]
fn a_seat_with_three_pieces_exits_2_and_names_the_pieces() {
    let mut position = new_position(&["--seats", "yellow,red"]);
    position["pieces"]["yellow"] = json!(["base", "base", "base"]);
    assert_refused(&ludo(&["roll", "3"], &position.to_string()), 2, &["pieces"]);
}

#[test]
fn die_faces_outside_one_to_six_exit_2() {
    let start = new_position(&[]).to_string();
    assert_refused(&ludo(&["roll", "7"], &start), 2, &["7"]);
    assert_refused(&ludo(&["roll", "0"], &start), 2, &["0"]);
}

#[test]
fn a_negative_piece_exits_2_with_one_line() {
    let moving = ludo(&["roll", "6"], &new_position(&[]).to_string()).json();
    assert_refused(&ludo(&["move", "-1"], &moving.to_string()), 2, &["-1"]);
}

#[test]
fn an_unknown_preset_exits_2_and_names_it() {
    assert_refused(&ludo(&["new", "--rules", "nosuch"], ""), 2, &["nosuch"]);
}

#[test]
fn a_rules_file_with_an_unknown_option_exits_2_and_names_it() {
    let file = RulesFile::new(
        "unknown-option",
        &json!({"preset": "classic", "nosuch_option": 1}),
    );
    assert_refused(
        &ludo(&["new", "--rules", file.arg()], ""),
        2,
        &["nosuch_option"],
    );
}

#[test]
fn an_unknown_colour_exits_2_with_one_line_that_names_it() {
    assert_refused(
        &ludo(&["new", "--seats", "yellow,purple"], ""),
        2,
        &["purple"],
    );
}

#[test]
fn seats_out_of_clockwise_order_on_the_cross_exit_2() {
    assert_refused(
        &ludo(&["new", "--seats", "yellow,red,blue"], ""),
        2,
        &["clockwise", "order"],
    );
}

// ---------------------------------------------------------------------------------------------
// 3. `ludo new`

#[test]
fn new_starts_a_four_seat_qdan_game_in_phase_roll() {
    let start = new_position(&[]);
    assert_eq!(preset_of(&start), "qdan");
    assert_eq!(start["turn"]["phase"], "roll", "{start}");
    assert_fresh(&start, &ALL_SEATS);
}

#[test]
fn new_with_classic_rules_starts_with_a_rolloff_of_every_seat() {
    let start = new_position(&["--rules", "classic"]);
    assert_eq!(preset_of(&start), "classic");
    assert_eq!(start["turn"]["phase"], "rolloff", "{start}");
    let rolloff = start["turn"]["rolloff"]
        .as_object()
        .expect("turn.rolloff is an object");
    assert_eq!(rolloff.len(), 4, "{start}");
    for seat in ALL_SEATS {
        assert_eq!(
            rolloff.get(seat),
            Some(&Value::Null),
            "{seat} has not thrown: {start}"
        );
    }
    assert_fresh(&start, &ALL_SEATS);
}

#[test]
fn new_with_vietnamese_rules_starts_a_two_dice_game() {
    let start = new_position(&["--rules", "vietnamese"]);
    assert_eq!(preset_of(&start), "vietnamese");
    assert_eq!(start["turn"]["phase"], "roll", "{start}");
    assert_fresh(&start, &ALL_SEATS);
    // A 1 brings a horse out under these rules.
    let moving = ludo(&["roll", "1", "3"], &start.to_string()).json();
    assert_eq!(moving["turn"]["phase"], "move", "{moving}");
    assert_eq!(moving["turn"]["roll"], json!([1, 3]), "{moving}");
}

#[test]
fn new_reads_a_rules_object_from_a_json_file() {
    let options =
        json!({"preset": "classic", "first_player": "seat_order", "bonus_on_finish": true});
    let file = RulesFile::new("rules-object", &options);
    let start = new_position(&["--rules", file.arg()]);
    assert_eq!(preset_of(&start), "classic");
    assert_eq!(start["rules"]["first_player"], "seat_order", "{start}");
    assert_eq!(start["rules"]["bonus_on_finish"], true, "{start}");
    // The file's first_player overrides classic's roll-off.
    assert_eq!(start["turn"]["phase"], "roll", "{start}");
    assert_fresh(&start, &ALL_SEATS);
}

#[test]
fn new_with_two_seats_seats_only_those() {
    let start = new_position(&["--seats", "yellow,red"]);
    assert_eq!(preset_of(&start), "qdan");
    assert_eq!(start["turn"]["phase"], "roll", "{start}");
    assert_fresh(&start, &["yellow", "red"]);
}

// ---------------------------------------------------------------------------------------------
// 4. Whole games through the binary

/// Dice from a fixed seed (xorshift64), the same on every run.
struct Dice(u64);

impl Dice {
    fn next(&mut self) -> u8 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % 6) as u8 + 1
    }
}

/// Plays from `ludo new ARGS` to phase over with the first legal piece, one process per action;
/// returns the final position and the number of actions.
fn play_through(args: &[&str], seed: u64, dice_per_throw: usize, bound: usize) -> (Value, usize) {
    let mut dice = Dice(seed);
    let mut position = new_position(args);
    for actions in 0..bound {
        let phase = position["turn"]["phase"]
            .as_str()
            .expect("a phase")
            .to_owned();
        position = match phase.as_str() {
            "over" => return (position, actions),
            "rolloff" | "roll" => {
                let n = if phase == "rolloff" {
                    1
                } else {
                    dice_per_throw
                };
                let faces: Vec<String> = (0..n).map(|_| dice.next().to_string()).collect();
                let mut argv = vec!["roll"];
                argv.extend(faces.iter().map(String::as_str));
                ludo(&argv, &position.to_string()).json()
            }
            "move" => {
                let moves = ludo(&["legal"], &position.to_string()).json();
                let first = &moves.as_array().expect("legal prints an array")[0];
                let piece = first["piece"].as_u64().expect("a move names its piece");
                ludo(&["move", &piece.to_string()], &position.to_string()).json()
            }
            other => panic!("unknown phase {other}: {position}"),
        };
    }
    panic!("no end within {bound} actions: {position}");
}

/// Asserts a sound end: places for every seat, a winner placed 1st whose pieces stand, in some
/// order, on the finished progress numbers `finished`.
fn assert_over(end: &Value, seats: &[&str], finished: [u64; 4]) {
    let places = end["places"]
        .as_object()
        .expect("places is set when the game is over");
    assert_eq!(places.len(), seats.len(), "{end}");
    for seat in seats {
        let place = places[*seat].as_u64().expect("a place is a number");
        assert!((1..=seats.len() as u64).contains(&place), "{seat}: {place}");
    }
    let winner = end["done"][0].as_str().expect("someone is done");
    assert_eq!(places[winner], 1, "{end}");
    let mut pieces: Vec<u64> = end["pieces"][winner]
        .as_array()
        .expect("a seat's pieces")
        .iter()
        .map(|p| p.as_u64().expect("a finished piece has a progress"))
        .collect();
    pieces.sort_unstable();
    assert_eq!(pieces, finished, "{end}");
    assert_eq!(end["turn"]["roll"], Value::Null, "{end}");
}

#[test]
fn a_two_seat_qdan_game_plays_to_the_end_through_the_binary() {
    let (end, actions) = play_through(&["--seats", "yellow,red"], 0x5eed_1234, 1, 5_000);
    assert!(actions > 40, "a game takes more than {actions} actions");
    assert_over(&end, &["yellow", "red"], [56; 4]);
}

#[test]
fn a_two_seat_classic_game_rolls_off_then_ranks_everyone() {
    let (end, _) = play_through(
        &["--rules", "classic", "--seats", "yellow,red"],
        77,
        1,
        5_000,
    );
    assert_over(&end, &["yellow", "red"], [56; 4]);
    let mut places: Vec<u64> = ["yellow", "red"]
        .iter()
        .map(|s| end["places"][*s].as_u64().expect("a place"))
        .collect();
    places.sort_unstable();
    assert_eq!(places, [1, 2], "{end}");
}

#[test]
fn a_two_seat_vietnamese_game_with_two_dice_plays_to_the_end() {
    let (end, _) = play_through(
        &["--rules", "vietnamese", "--seats", "yellow,red"],
        9,
        2,
        5_000,
    );
    // Horses come home onto cells 6, 5, 4, 3: progress 61, 60, 59, 58.
    assert_over(&end, &["yellow", "red"], [58, 59, 60, 61]);
}

// ---------------------------------------------------------------------------------------------
// 5. `ludo sim` and `ludo bench`

const SIM: [&str; 9] = [
    "sim",
    "--games",
    "200",
    "--seed",
    "3",
    "--seats",
    "2",
    "--rules",
    "vietnamese",
];

#[test]
fn sim_reports_speeds_and_mean_game_length() {
    let run = ludo(&SIM, "");
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    run.positive("games/s:");
    run.positive("actions/s:");
    run.positive("mean game length:");
}

#[test]
fn sim_with_the_same_seed_plays_the_same_games() {
    let (first, second) = (ludo(&SIM, ""), ludo(&SIM, ""));
    assert_eq!(first.code, Some(0), "{}", first.stderr);
    assert_eq!(second.code, Some(0), "{}", second.stderr);
    first.positive("actions:");
    assert_eq!(first.field("actions:"), second.field("actions:"));
    assert_eq!(
        first.field("mean game length:"),
        second.field("mean game length:")
    );
}

#[test]
fn bench_reports_games_actions_and_nanoseconds_per_action() {
    let run = ludo(&["bench", "--games", "200"], "");
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    run.positive("games/s:");
    run.positive("actions/s:");
    run.positive("ns/action:");
}

// ---------------------------------------------------------------------------------------------
// The CPU players on the command line.

/// A position with a real choice: yellow has two pieces out and throws a 3.
const CHOICE: &str = r#"{"rules":"qdan","seats":["yellow","red"],
    "pieces":{"yellow":[10,20,"base","base"],"red":[15,"base","base","base"]},
    "turn":{"seat":"yellow","phase":"roll"}}"#;

fn choice_position() -> Value {
    ludo(&["roll", "3"], CHOICE).json()
}

#[test]
fn ludo_bot_prints_the_move_the_library_bot_chooses() {
    let position = choice_position();
    let game = ludo_rules::Game::from_json(&position.to_string()).unwrap();
    let moves = game.legal_moves();
    for level in ludo_bots::Level::ALL {
        let run = ludo(&["bot", level.name(), "--seed", "4"], &position.to_string());
        let printed = run.json();
        let expected = level
            .player()
            .choose(&game, &moves, &mut ludo_bots::Rng::new(4));
        assert_eq!(printed, serde_json::to_value(expected).unwrap(), "{level}");
    }
}

#[test]
fn medium_takes_the_capture_on_offer() {
    // Red's piece at progress 49 stands on square 23 (26 + 49 − 52), where yellow's piece 1
    // lands with a 3; square 23 is not safe.
    let position = ludo(
        &["roll", "3"],
        r#"{"rules":"qdan","seats":["yellow","red"],
        "pieces":{"yellow":[10,20,"base","base"],"red":[49,"base","base","base"]},
        "turn":{"seat":"yellow","phase":"roll"}}"#,
    )
    .json();
    let run = ludo(&["bot", "medium"], &position.to_string());
    let chosen = run.json();
    assert_eq!(chosen["piece"], 1, "{chosen}");
    assert_eq!(chosen["captures"], json!([{"seat": "red", "piece": 0}]));
}

#[test]
fn ludo_bot_refuses_a_position_without_a_choice_to_make() {
    let run = ludo(&["bot", "medium"], &new_position(&[]).to_string());
    assert_refused(&run, 1, &["phase"]);
}

#[test]
fn ludo_bot_refuses_an_unknown_level() {
    let run = ludo(&["bot", "grandmaster"], &choice_position().to_string());
    assert_refused(&run, 2, &["grandmaster"]);
}

#[test]
fn ludo_arena_reports_every_bot_and_is_reproducible() {
    let args = [
        "arena",
        "--bots",
        "medium,random",
        "--games",
        "60",
        "--seed",
        "5",
    ];
    let first = ludo(&args, "");
    assert_eq!(first.code, Some(0), "{}", first.stderr);
    assert!(first.stdout.contains("medium") && first.stdout.contains("random"));
    assert!(first.stdout.contains("mean place"));
    first.positive("games/s:");
    let second = ludo(&args, "");
    let wins = |run: &Run| -> Vec<String> {
        run.stdout
            .lines()
            .filter(|l| l.contains("win"))
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(wins(&first), wins(&second));
}

#[test]
fn ludo_bot_bench_reports_every_level() {
    let run = ludo(
        &[
            "bot-bench",
            "--positions",
            "50",
            "--games",
            "20",
            "--seats",
            "2",
        ],
        "",
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    for level in ["random", "easy", "medium", "hard", "expert"] {
        assert!(run.stdout.contains(level), "{}", run.stdout);
    }
    assert!(run.stdout.contains("99th percentile"));
}

#[test]
fn ludo_train_expert_writes_a_network_the_expert_reads_and_goes_on_from_one() {
    let dir = std::env::temp_dir().join(format!("ludo-cli-train-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (first, second) = (dir.join("first.bin"), dir.join("second.bin"));
    let path = |p: &std::path::Path| p.to_str().unwrap().to_owned();
    let run = ludo(
        &[
            "train-expert",
            "--games",
            "30",
            "--seed",
            "3",
            "--out",
            &path(&first),
        ],
        "",
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.stdout.contains("30 games: won"), "{}", run.stdout);
    let trained = ludo_bots::expert::Net::from_bytes(&std::fs::read(&first).unwrap()).unwrap();
    assert_ne!(
        trained,
        ludo_bots::expert::Net::untrained(ludo_bots::expert::Key::STANDARD, 3)
    );
    let run = ludo(
        &[
            "train-expert",
            "--games",
            "10",
            "--out",
            &path(&second),
            "--from",
            &path(&first),
        ],
        "",
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let went_on = ludo_bots::expert::Net::from_bytes(&std::fs::read(&second).unwrap()).unwrap();
    assert_ne!(went_on, trained);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `ludo train-expert` asked to go on, for one game of the standard rules, from the file `from`.
fn train_on_from(from: &str) -> Run {
    let args = ["train-expert", "--games", "1", "--out", "/dev/null"];
    ludo(&[&args[..], &["--from", from]].concat(), "")
}

#[test]
fn ludo_train_expert_refuses_a_file_that_is_no_network() {
    let run = train_on_from("Cargo.toml");
    assert_eq!(run.code, Some(2));
    assert!(run.stderr.contains("not a value network"), "{}", run.stderr);
}

#[test]
fn ludo_train_expert_learns_for_the_rules_and_seats_asked_and_goes_on_only_from_that_games_network()
{
    let dir = std::env::temp_dir().join(format!("ludo-cli-train-for-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let horse = dir.join("vietnamese-2.bin");
    let path = horse.to_str().unwrap();
    let args = ["train-expert", "--rules", "vietnamese", "--seats", "2"];
    let run = ludo(&[&args[..], &["--games", "5", "--out", path]].concat(), "");
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let net = ludo_bots::expert::Net::from_bytes(&std::fs::read(&horse).unwrap()).unwrap();
    assert_eq!(net.key().to_string(), "vietnamese-2");
    // Going on under other rules than the network's is refused, as are five seats.
    let run = train_on_from(path);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr
            .contains("a network for vietnamese-2, not qdan-4"),
        "{}",
        run.stderr
    );
    let run = ludo(&["train-expert", "--seats", "5", "--out", "/dev/null"], "");
    assert_eq!(run.code, Some(2));
    assert!(run.stderr.contains("2 to 4 seats, not 5"), "{}", run.stderr);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn ludo_train_expert_learns_the_board_of_one_arm_per_seat_where_there_is_one() {
    let dir = std::env::temp_dir().join(format!("ludo-cli-train-t-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let t = dir.join("classic-3-by_players.bin");
    let args = ["train-expert", "--rules", "classic", "--seats", "3"];
    let layout = ["--layout", "by_players", "--games", "5"];
    let run = ludo(
        &[&args[..], &layout, &["--out", t.to_str().unwrap()]].concat(),
        "",
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let net = ludo_bots::expert::Net::from_bytes(&std::fs::read(&t).unwrap()).unwrap();
    assert_eq!(net.key().to_string(), "classic-3-by_players");
    std::fs::remove_dir_all(&dir).unwrap();
    for (rules, seats, refusal) in [
        (
            "vietnamese",
            "2",
            "vietnamese is not played with one arm per seat",
        ),
        (
            "qdan",
            "4",
            "with four seats, one arm per seat is the cross",
        ),
    ] {
        let args = ["train-expert", "--rules", rules, "--seats", seats];
        let run = ludo(&[&args[..], &layout, &["--out", "/dev/null"]].concat(), "");
        assert_eq!(run.code, Some(2));
        assert!(run.stderr.contains(refusal), "{}", run.stderr);
    }
    let run = ludo(&["train-expert", "--layout", "t", "--out", "/dev/null"], "");
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr.contains("cross or by_players, not t"),
        "{}",
        run.stderr
    );
}

// ---------------------------------------------------------------------------------------------
// Verifying a finished game's record.

/// A finished two-seat game whose throws come from `seed`, the first legal move always played.
fn recorded_game(seed: &ludo_fair::Seed) -> ludo_fair::Record {
    use ludo_fair::Action;
    use ludo_rules::{Colour, Game, Phase, Rules};
    let seats = vec![Colour::Yellow, Colour::Red];
    let mut game = Game::new(Rules::default(), &seats).unwrap();
    let (mut actions, mut throws) = (Vec::new(), 0);
    while !game.is_over() {
        if game.phase() == Phase::Move {
            let piece = game.legal_moves().get(0).unwrap().piece;
            game.play(piece).unwrap();
            actions.push(Action::Move(piece));
        } else {
            let throw = seed.throw("cli-game", throws, game.dice_to_throw());
            throws += 1;
            game.roll(throw).unwrap();
            actions.push(Action::Throw(throw));
        }
    }
    ludo_fair::Record {
        game_id: "cli-game".to_owned(),
        rules: Rules::default(),
        seats,
        commitment: seed.commitment(),
        seed: Some(seed.to_hex()),
        actions,
    }
}

#[test]
fn ludo_verify_accepts_a_true_record_and_refuses_a_forged_seed() {
    let seed = ludo_fair::Seed::from_bytes([11; 32]);
    let record = recorded_game(&seed);
    let file = RulesFile::new("record", &serde_json::to_value(&record).unwrap());
    let run = ludo(&["verify", file.arg()], "");
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.stdout.contains("verified"), "{}", run.stdout);
    let mut forged = record;
    forged.seed = Some(ludo_fair::Seed::from_bytes([12; 32]).to_hex());
    let file = RulesFile::new("forged", &serde_json::to_value(&forged).unwrap());
    assert_refused(&ludo(&["verify", file.arg()], ""), 1, &["commitment"]);
}

#[test]
fn ludo_verify_refuses_a_file_that_is_no_record() {
    let file = RulesFile::new("not-a-record", &json!({"hello": 1}));
    assert_refused(&ludo(&["verify", file.arg()], ""), 2, &["not-a-record"]);
}

/// A whole `qdan` game of four CPUs, as a local game exports it (`ludo-bots`' fixed game).
const ANALYSED: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../ludo-bots/tests/data/game.json"
);

#[test]
fn ludo_analyse_prints_the_analysis_of_an_exported_record_whole_or_in_part() {
    let whole = ludo(&["analyse", ANALYSED], "").json();
    assert_eq!(whole["start"], 0);
    assert_eq!(whole["chances"].as_array().unwrap().len(), 534);
    assert_eq!(whole["chances"][0], json!([0.2574, 0.2475, 0.2475, 0.2475]));
    assert_eq!(
        whole["summary"]["red"],
        json!({"best": 434, "costliest": 391})
    );
    let part = ludo(&["analyse", ANALYSED, "--from", "100", "--to", "200"], "").json();
    assert_eq!(part["start"], 101);
    assert_eq!(part["chances"][0], whole["chances"][101]);
    assert!(part.get("turning_points").is_none());
}

#[test]
fn ludo_analyse_refuses_a_game_the_network_does_not_know_and_an_illegal_action() {
    let mut record: Value =
        serde_json::from_str(&std::fs::read_to_string(ANALYSED).unwrap()).unwrap();
    record["rules"] = json!({"preset": "qdan", "stacking": false});
    let house = RulesFile::new("house-rules-game", &record);
    assert_refused(
        &ludo(&["analyse", house.arg()], ""),
        2,
        &["analysis_unavailable"],
    );
    record["rules"] = json!("qdan");
    record["actions"][1] = json!({"move": 0});
    let illegal = RulesFile::new("illegal-game", &record);
    assert_refused(&ludo(&["analyse", illegal.arg()], ""), 1, &["action 1"]);
}
