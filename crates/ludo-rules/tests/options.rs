//! Table-driven tests of every option of `rules.md` §3, the turn procedure of §4, the legal moves
//! of §5, the places of §6 and the position checks of `position.md` §1, through the public API.
//!
//! Every table row names the rule it checks; a failing table lists every failing row.
//!
//! Squares on the cross, for reading the tables: yellow's start is track square 0, blue's 13,
//! red's 26, green's 39; stars are 8, 21, 34, 47. A red piece at progress `p` stands on square
//! `(26 + p) mod 52`, so red 38 is square 12, red 39 square 13, red 41 square 15.

use ludo_rules::{
    Board, Colour, FaceSet, FirstPlayer, Game, Layout, Move, NoPieceOut, Options, Passing, Phase,
    PlayError, Preset, Rules, Safe, Throw,
};
use serde_json::{Value, json};
use std::fmt::Write as _;

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// A checked game from a JSON position; panics with the engine's reason if it is refused.
fn game(json: Value) -> Game {
    Game::from_json(&json.to_string()).unwrap_or_else(|e| panic!("position refused: {e}\n{json:#}"))
}

/// Four pieces in the base.
fn base() -> Value {
    json!(["base", "base", "base", "base"])
}

/// A position in phase `roll` for the first seat, everything else fresh. The seats are the keys
/// of `pieces` in clockwise order from yellow (yellow, blue, red, green).
fn pos(rules: Value, pieces: Value) -> Value {
    let seats: Vec<&str> = ["yellow", "blue", "red", "green"]
        .into_iter()
        .filter(|c| pieces.get(c).is_some())
        .collect();
    json!({
        "rules": rules,
        "seats": seats,
        "pieces": pieces,
        "turn": {"seat": seats[0], "phase": "roll", "roll": null, "bonus_streak": 0, "throws": 0},
        "done": [],
        "places": null
    })
}

/// `base` with every field of `patch` laid over it (objects merge, anything else replaces).
fn with(mut base: Value, patch: Value) -> Value {
    merge(&mut base, patch);
    base
}

fn merge(into: &mut Value, patch: Value) {
    match (into, patch) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, v) in b {
                merge(a.entry(k).or_insert(Value::Null), v);
            }
        }
        (slot, v) => *slot = v,
    }
}

/// A throw of one or two dice.
fn throw(faces: &[u8]) -> Throw {
    Throw::new(faces).unwrap_or_else(|e| panic!("bad throw {faces:?}: {e}"))
}

/// A move written short: `piece:from>to`, then ` xcolour.piece` for each capture.
fn describe(m: &Move) -> String {
    let mut s = format!("{}:{}>{}", m.piece, m.from, m.to);
    for (colour, piece) in m.captures.iter() {
        let _ = write!(s, " x{colour}.{piece}");
    }
    s
}

/// Checks that every field of `want` is in `got` with the same value.
fn partial(want: &Value, got: &Value, path: &str) -> Result<(), String> {
    match (want, got) {
        (Value::Object(w), Value::Object(g)) => w.iter().try_for_each(|(k, v)| match g.get(k) {
            None => Err(format!("{path}.{k}: missing in {got}")),
            Some(gv) => partial(v, gv, &format!("{path}.{k}")),
        }),
        _ if want == got => Ok(()),
        _ => Err(format!("{path}: want {want}, got {got}")),
    }
}

/// Panics listing every failure of a table.
fn report(table: &str, failures: Vec<String>) {
    assert!(
        failures.is_empty(),
        "{table}: {} failing row(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// One row of a legal-moves table: a position in phase `roll`, a throw, and the moves it offers.
struct Legal {
    rule: &'static str,
    position: Value,
    throw: &'static [u8],
    moves: &'static [&'static str],
}

fn check_legal(table: &str, rows: Vec<Legal>) {
    let mut failures = Vec::new();
    for row in rows {
        let mut g = game(row.position);
        let got: Vec<String> = match g.roll(throw(row.throw)) {
            Ok(moves) => moves.iter().map(describe).collect(),
            Err(e) => vec![format!("refused: {e}")],
        };
        if got != row.moves {
            failures.push(format!("[{}] want {:?}, got {got:?}", row.rule, row.moves));
        }
        // The moves offered are also the legal moves of the position left in phase `move`.
        if g.phase() == Phase::Move {
            let again: Vec<String> = g.legal_moves().iter().map(describe).collect();
            if again != got {
                failures.push(format!(
                    "[{}] legal_moves {again:?} != roll {got:?}",
                    row.rule
                ));
            }
        }
    }
    report(table, failures);
}

/// One action: a throw, or the move of a piece.
enum Act {
    Roll(&'static [u8]),
    Move(u8),
}

use Act::{Move as M, Roll as R};

/// One row of a turn table: a position, actions, and the fields the resulting position must have.
struct Turn {
    rule: &'static str,
    position: Value,
    acts: Vec<Act>,
    expect: Value,
}

fn run(position: Value, acts: &[Act]) -> Result<Game, String> {
    let mut g = Game::from_json(&position.to_string()).map_err(|e| e.to_string())?;
    for act in acts {
        match act {
            Act::Roll(faces) => {
                g.roll(throw(faces))
                    .map_err(|e| format!("roll {faces:?}: {e}"))?;
            }
            Act::Move(piece) => {
                g.play(*piece).map_err(|e| format!("move {piece}: {e}"))?;
            }
        }
    }
    Ok(g)
}

fn check_turns(table: &str, rows: Vec<Turn>) {
    let mut failures = Vec::new();
    for row in rows {
        let result = run(row.position, &row.acts).and_then(|g| {
            let got: Value = serde_json::from_str(&g.to_json()).map_err(|e| e.to_string())?;
            // What the engine writes it must read back unchanged.
            let back = Game::from_json(&g.to_json()).map_err(|e| format!("re-read: {e}"))?;
            if back != g {
                return Err("the written position reads back differently".into());
            }
            partial(&row.expect, &got, "position")
        });
        if let Err(e) = result {
            failures.push(format!("[{}] {e}", row.rule));
        }
    }
    report(table, failures);
}

fn rules(json: Value) -> Rules {
    serde_json::from_value(json.clone()).unwrap_or_else(|e| panic!("rules {json} refused: {e}"))
}

// ---------------------------------------------------------------------------------------------
// §3 Options and presets
// ---------------------------------------------------------------------------------------------

#[test]
fn presets_hold_the_values_of_the_options_table() {
    type Get = fn(&Options) -> Value;
    let rows: [(&str, Get, [Value; 3]); 18] = [
        (
            "board",
            |o| json!(o.board),
            [json!("ludo"), json!("ludo"), json!("horse")],
        ),
        (
            "layout",
            |o| json!(o.layout),
            [json!("cross"), json!("cross"), json!("cross")],
        ),
        ("dice", |o| json!(o.dice), [json!(1), json!(1), json!(2)]),
        (
            "exit_values",
            |o| json!(o.exit_values),
            [json!([6]), json!([6]), json!([1, 6])],
        ),
        (
            "exit_on_double",
            |o| json!(o.exit_on_double),
            [json!(false), json!(false), json!(true)],
        ),
        (
            "bonus_values",
            |o| json!(o.bonus_values),
            [json!([6]), json!([6]), json!([])],
        ),
        (
            "bonus_on_double",
            |o| json!(o.bonus_on_double),
            [json!(false), json!(false), json!(true)],
        ),
        (
            "three_bonus_forfeit",
            |o| json!(o.three_bonus_forfeit),
            [json!(true), json!(true), json!(false)],
        ),
        (
            "bonus_on_capture",
            |o| json!(o.bonus_on_capture),
            [json!(true), json!(false), json!(false)],
        ),
        (
            "bonus_on_finish",
            |o| json!(o.bonus_on_finish),
            [json!(false), json!(false), json!(false)],
        ),
        (
            "bonus_if_no_move",
            |o| json!(o.bonus_if_no_move),
            [json!(false), json!(true), json!(true)],
        ),
        (
            "no_piece_out",
            |o| json!(o.no_piece_out),
            [json!("roll"), json!("roll"), json!("roll")],
        ),
        (
            "safe",
            |o| json!(o.safe),
            [json!("starts_and_stars"), json!("none"), json!("none")],
        ),
        (
            "passing",
            |o| json!(o.passing),
            [json!("blockades"), json!("opponents"), json!("any")],
        ),
        (
            "stacking",
            |o| json!(o.stacking),
            [json!(true), json!(true), json!(false)],
        ),
        (
            "exact_finish",
            |o| json!(o.exact_finish),
            [json!(true), json!(true), json!(true)],
        ),
        (
            "rank_everyone",
            |o| json!(o.rank_everyone),
            [json!(false), json!(true), json!(false)],
        ),
        (
            "first_player",
            |o| json!(o.first_player),
            [
                json!("seat_order"),
                json!("highest_roll"),
                json!("seat_order"),
            ],
        ),
    ];
    let mut failures = Vec::new();
    for (option, get, want) in rows {
        for (name, want) in ["qdan", "classic", "vietnamese"].into_iter().zip(want) {
            let got = get(rules(json!(name)).options());
            if got != want {
                failures.push(format!("[{option} in {name}] want {want}, got {got}"));
            }
        }
    }
    report("presets", failures);
    assert_eq!(
        rules(json!({})).options(),
        &Preset::Qdan.options(),
        "qdan is the default"
    );
}

#[test]
fn every_option_value_is_read_and_written_back() {
    type Holds = fn(&Options) -> bool;
    let rows: Vec<(&str, Value, Holds)> = vec![
        (
            "board ludo",
            json!({"preset": "vietnamese", "board": "ludo", "dice": 1, "exit_on_double": false, "bonus_on_double": false}),
            |o| o.board == Board::Ludo,
        ),
        (
            "board horse",
            json!({"preset": "qdan", "board": "horse", "dice": 2, "bonus_values": [], "exit_on_double": true}),
            |o| o.board == Board::Horse,
        ),
        ("layout cross", json!({"layout": "cross"}), |o| {
            o.layout == Layout::Cross
        }),
        ("layout by_players", json!({"layout": "by_players"}), |o| {
            o.layout == Layout::ByPlayers
        }),
        ("dice 1", json!({"preset": "qdan", "dice": 1}), |o| {
            o.dice == 1
        }),
        (
            "dice 2",
            json!({"dice": 2, "bonus_values": [], "exact_finish": false}),
            |o| o.dice == 2,
        ),
        ("exit_values [5, 6]", json!({"exit_values": [6, 5]}), |o| {
            o.exit_values == FaceSet::of(&[5, 6])
        }),
        ("exit_values [1, 6]", json!({"exit_values": [1, 6]}), |o| {
            o.exit_values == FaceSet::of(&[1, 6])
        }),
        (
            "exit_on_double true",
            json!({"preset": "vietnamese", "exit_on_double": true}),
            |o| o.exit_on_double,
        ),
        (
            "exit_on_double false",
            json!({"preset": "vietnamese", "exit_on_double": false}),
            |o| !o.exit_on_double,
        ),
        (
            "bonus_values [5, 6]",
            json!({"bonus_values": [5, 6]}),
            |o| o.bonus_values == FaceSet::of(&[5, 6]),
        ),
        ("bonus_values []", json!({"bonus_values": []}), |o| {
            o.bonus_values.is_empty()
        }),
        (
            "bonus_on_double false",
            json!({"preset": "vietnamese", "bonus_on_double": false}),
            |o| !o.bonus_on_double,
        ),
        (
            "three_bonus_forfeit false",
            json!({"three_bonus_forfeit": false}),
            |o| !o.three_bonus_forfeit,
        ),
        (
            "three_bonus_forfeit true",
            json!({"preset": "vietnamese", "three_bonus_forfeit": true}),
            |o| o.three_bonus_forfeit,
        ),
        (
            "bonus_on_capture false",
            json!({"bonus_on_capture": false}),
            |o| !o.bonus_on_capture,
        ),
        (
            "bonus_on_capture true",
            json!({"preset": "classic", "bonus_on_capture": true}),
            |o| o.bonus_on_capture,
        ),
        (
            "bonus_on_finish true",
            json!({"bonus_on_finish": true}),
            |o| o.bonus_on_finish,
        ),
        (
            "bonus_if_no_move true",
            json!({"bonus_if_no_move": true}),
            |o| o.bonus_if_no_move,
        ),
        (
            "bonus_if_no_move false",
            json!({"preset": "classic", "bonus_if_no_move": false}),
            |o| !o.bonus_if_no_move,
        ),
        ("no_piece_out roll", json!({"no_piece_out": "roll"}), |o| {
            o.no_piece_out == NoPieceOut::Roll
        }),
        (
            "no_piece_out auto_exit",
            json!({"no_piece_out": "auto_exit"}),
            |o| o.no_piece_out == NoPieceOut::AutoExit,
        ),
        (
            "no_piece_out three_tries",
            json!({"no_piece_out": "three_tries"}),
            |o| o.no_piece_out == NoPieceOut::ThreeTries,
        ),
        (
            "safe starts_and_stars",
            json!({"preset": "classic", "safe": "starts_and_stars"}),
            |o| o.safe == Safe::StartsAndStars,
        ),
        ("safe starts", json!({"safe": "starts"}), |o| {
            o.safe == Safe::Starts
        }),
        ("safe none", json!({"safe": "none"}), |o| {
            o.safe == Safe::None
        }),
        (
            "passing blockades",
            json!({"preset": "classic", "passing": "blockades"}),
            |o| o.passing == Passing::Blockades,
        ),
        ("passing free", json!({"passing": "free"}), |o| {
            o.passing == Passing::Free
        }),
        ("passing opponents", json!({"passing": "opponents"}), |o| {
            o.passing == Passing::Opponents
        }),
        ("passing any", json!({"passing": "any"}), |o| {
            o.passing == Passing::Any
        }),
        ("stacking false", json!({"stacking": false}), |o| {
            !o.stacking
        }),
        (
            "stacking true",
            json!({"preset": "vietnamese", "stacking": true}),
            |o| o.stacking,
        ),
        ("exact_finish false", json!({"exact_finish": false}), |o| {
            !o.exact_finish
        }),
        ("rank_everyone true", json!({"rank_everyone": true}), |o| {
            o.rank_everyone
        }),
        (
            "rank_everyone false",
            json!({"preset": "classic", "rank_everyone": false}),
            |o| !o.rank_everyone,
        ),
        (
            "first_player highest_roll",
            json!({"first_player": "highest_roll"}),
            |o| o.first_player == FirstPlayer::HighestRoll,
        ),
        (
            "first_player seat_order",
            json!({"preset": "classic", "first_player": "seat_order"}),
            |o| o.first_player == FirstPlayer::SeatOrder,
        ),
    ];
    let mut failures = Vec::new();
    for (label, json, holds) in rows {
        let Ok(r) = serde_json::from_value::<Rules>(json.clone()) else {
            failures.push(format!("[{label}] {json} refused"));
            continue;
        };
        let g = Game::new(r, &[Colour::Yellow, Colour::Red]).expect("two seats are fine");
        let back = Game::from_json(&g.to_json()).expect("a new game reads back");
        if !holds(g.options()) || back.options() != g.options() {
            failures.push(format!("[{label}] not kept: {}", g.to_json()));
        }
    }
    report("option values", failures);
}

#[test]
fn contradictory_options_are_refused_naming_them() {
    // (rule, rules, the field named, words the reason must hold)
    let rows = [
        (
            "a die face outside 1..6",
            json!({"exit_values": [7]}),
            "rules.exit_values",
            "7",
        ),
        (
            "a die face of 0",
            json!({"bonus_values": [0]}),
            "rules.bonus_values",
            "0",
        ),
        ("dice 3", json!({"dice": 3}), "rules", "dice"),
        (
            "one die with exit_on_double",
            json!({"exit_on_double": true}),
            "rules",
            "exit_on_double",
        ),
        (
            "one die with bonus_on_double",
            json!({"bonus_on_double": true}),
            "rules",
            "bonus_on_double",
        ),
        (
            "two dice with non-empty bonus_values (horse)",
            json!({"preset": "vietnamese", "bonus_values": [6]}),
            "rules",
            "bonus_values",
        ),
        (
            "two dice with non-empty bonus_values (ludo)",
            json!({"dice": 2, "exact_finish": false}),
            "rules",
            "bonus_values",
        ),
        (
            "no way out of the base",
            json!({"exit_values": []}),
            "rules",
            "exit_values",
        ),
        (
            "no way out with two dice",
            json!({"preset": "vietnamese", "exit_values": [], "exit_on_double": false}),
            "rules",
            "exit_on_double",
        ),
        (
            "horse board with by_players",
            json!({"preset": "vietnamese", "layout": "by_players"}),
            "rules",
            "by_players",
        ),
        (
            "horse board with inexact finish",
            json!({"preset": "vietnamese", "exact_finish": false}),
            "rules",
            "exact_finish",
        ),
        (
            "two dice on the ludo board with exact finish",
            json!({"dice": 2, "bonus_values": []}),
            "rules",
            "exact_finish",
        ),
    ];
    let mut failures = Vec::new();
    for (rule, rules_json, field, named) in rows {
        let position = pos(rules_json.clone(), json!({"yellow": base(), "red": base()}));
        match Game::from_json(&position.to_string()) {
            Ok(_) => failures.push(format!("[{rule}] {rules_json} accepted")),
            Err(e) => {
                if e.field != field || !e.reason.to_string().contains(named) {
                    failures.push(format!(
                        "[{rule}] want field `{field}` naming `{named}`, got {e}"
                    ));
                }
            }
        }
    }
    report("contradictory options", failures);
}

// ---------------------------------------------------------------------------------------------
// §2 Boards: board, layout, safe squares
// ---------------------------------------------------------------------------------------------

#[test]
fn board_and_layout_give_track_length_door_and_finish() {
    // (rule, rules, seats, (arms, track_len, door, last progress))
    type Numbers = (u8, u8, u8, u8);
    let rows: [(&str, Value, &[Colour], Numbers); 8] = [
        (
            "cross with 2 seats is still 4 arms",
            json!("qdan"),
            &[Colour::Yellow, Colour::Red],
            (4, 52, 50, 56),
        ),
        (
            "cross with 3 seats is still 4 arms",
            json!("qdan"),
            &[Colour::Yellow, Colour::Blue, Colour::Red],
            (4, 52, 50, 56),
        ),
        (
            "cross with 4 seats",
            json!("qdan"),
            &Colour::ALL,
            (4, 52, 50, 56),
        ),
        (
            "by_players with 2 seats is a 26-square board",
            json!({"layout": "by_players"}),
            &[Colour::Yellow, Colour::Red],
            (2, 26, 24, 30),
        ),
        (
            "by_players with 3 seats is a 39-square T",
            json!({"layout": "by_players"}),
            &[Colour::Yellow, Colour::Blue, Colour::Red],
            (3, 39, 37, 43),
        ),
        (
            "by_players with 4 seats is the cross",
            json!({"layout": "by_players"}),
            &Colour::ALL,
            (4, 52, 50, 56),
        ),
        (
            "horse board with 2 seats",
            json!("vietnamese"),
            &[Colour::Yellow, Colour::Red],
            (4, 56, 55, 61),
        ),
        (
            "horse board with 4 seats",
            json!("vietnamese"),
            &Colour::ALL,
            (4, 56, 55, 61),
        ),
    ];
    let mut failures = Vec::new();
    for (rule, r, seats, want) in rows {
        let g = Game::new(rules(r), seats).expect("seats are clockwise");
        let geo = g.geometry();
        let got = (geo.arms(), geo.track_len(), geo.door(), geo.last());
        if got != want {
            failures.push(format!("[{rule}] want {want:?}, got {got:?}"));
        }
    }
    report("boards", failures);
}

#[test]
fn by_players_seats_take_arms_in_seat_order_whatever_their_colours() {
    let r = rules(json!({"layout": "by_players"}));
    let g = Game::new(r, &[Colour::Green, Colour::Yellow, Colour::Red]).expect("any order");
    let arms: Vec<u8> = g.seats().iter().map(|&s| g.arm(s)).collect();
    assert_eq!(arms, [0, 1, 2]);
    let cross = Game::new(
        Rules::default(),
        &[Colour::Red, Colour::Green, Colour::Yellow],
    )
    .unwrap();
    assert_eq!(
        (cross.arm(Colour::Red), cross.arm(Colour::Yellow)),
        (2, 0),
        "fixed arms"
    );
}

#[test]
fn safe_squares_lie_on_every_arm_of_the_board_seated_or_not() {
    let rows: [(&str, Value, &[Colour], &[u8]); 7] = [
        (
            "starts_and_stars on the cross with 2 seats",
            json!("qdan"),
            &[Colour::Yellow, Colour::Red],
            &[0, 8, 13, 21, 26, 34, 39, 47],
        ),
        (
            "starts on the cross with 2 seats",
            json!({"safe": "starts"}),
            &[Colour::Yellow, Colour::Red],
            &[0, 13, 26, 39],
        ),
        (
            "none",
            json!({"safe": "none"}),
            &[Colour::Yellow, Colour::Red],
            &[],
        ),
        (
            "starts_and_stars on the 2-arm board",
            json!({"layout": "by_players"}),
            &[Colour::Yellow, Colour::Red],
            &[0, 8, 13, 21],
        ),
        (
            "starts_and_stars on the 3-arm T",
            json!({"layout": "by_players"}),
            &[Colour::Yellow, Colour::Blue, Colour::Red],
            &[0, 8, 13, 21, 26, 34],
        ),
        (
            "starts_and_stars as a house rule on the horse board",
            json!({"preset": "vietnamese", "safe": "starts_and_stars"}),
            &[Colour::Yellow, Colour::Red],
            &[0, 8, 14, 22, 28, 36, 42, 50],
        ),
        (
            "starts as a house rule on the horse board",
            json!({"preset": "vietnamese", "safe": "starts"}),
            &[Colour::Yellow, Colour::Red],
            &[0, 14, 28, 42],
        ),
    ];
    let mut failures = Vec::new();
    for (rule, r, seats, want) in rows {
        let g = Game::new(rules(r), seats).unwrap();
        let geo = g.geometry();
        let got: Vec<u8> = (0..geo.track_len()).filter(|&s| geo.is_safe(s)).collect();
        if got != want {
            failures.push(format!("[{rule}] want {want:?}, got {got:?}"));
        }
    }
    report("safe squares", failures);
}

#[test]
fn safe_squares_protect_from_capture_and_others_do_not() {
    // A yellow piece three squares short of a lone red piece throws 3.
    let row = |rule, safe: &str, yellow: u8, red: u8, moves| Legal {
        rule,
        position: pos(
            json!({"preset": "qdan", "safe": safe}),
            json!({"yellow": [yellow, "base", "base", "base"], "red": [red, "base", "base", "base"]}),
        ),
        throw: &[3],
        moves,
    };
    check_legal(
        "safe",
        vec![
            row(
                "starts_and_stars: yellow's star 8 is safe",
                "starts_and_stars",
                5,
                34,
                &["0:5>8"],
            ),
            row(
                "starts_and_stars: blue's start 13 is safe though blue does not play",
                "starts_and_stars",
                10,
                39,
                &["0:10>13"],
            ),
            row(
                "starts_and_stars: blue's star 21 is safe though blue does not play",
                "starts_and_stars",
                18,
                47,
                &["0:18>21"],
            ),
            row(
                "starts_and_stars: red's start 26 is safe",
                "starts_and_stars",
                23,
                0,
                &["0:23>26"],
            ),
            row(
                "starts_and_stars: green's start 39 is safe though green does not play",
                "starts_and_stars",
                36,
                13,
                &["0:36>39"],
            ),
            row(
                "starts_and_stars: green's star 47 is safe though green does not play",
                "starts_and_stars",
                44,
                21,
                &["0:44>47"],
            ),
            row(
                "starts_and_stars: a plain square 15 is not safe",
                "starts_and_stars",
                12,
                41,
                &["0:12>15 xred.0"],
            ),
            row(
                "starts: blue's start 13 is safe though blue does not play",
                "starts",
                10,
                39,
                &["0:10>13"],
            ),
            row(
                "starts: red's start 26 is safe",
                "starts",
                23,
                0,
                &["0:23>26"],
            ),
            row(
                "starts: the star 8 is not safe",
                "starts",
                5,
                34,
                &["0:5>8 xred.0"],
            ),
            row(
                "starts: the star 21 is not safe",
                "starts",
                18,
                47,
                &["0:18>21 xred.0"],
            ),
            row(
                "none: blue's start 13 is not safe",
                "none",
                10,
                39,
                &["0:10>13 xred.0"],
            ),
            row(
                "none: red's own start 26 is not safe",
                "none",
                23,
                0,
                &["0:23>26 xred.0"],
            ),
            row(
                "none: the star 47 is not safe",
                "none",
                44,
                21,
                &["0:44>47 xred.0"],
            ),
        ],
    );
}

#[test]
fn safe_squares_as_a_house_rule_on_the_horse_board_follow_its_14_square_arms() {
    // Red sits on arm 2 (start square 28): red at progress p stands on square (28 + p) mod 56.
    let row = |rule, safe: &str, yellow: u8, red: u8, moves| Legal {
        rule,
        position: pos(
            json!({"preset": "vietnamese", "safe": safe}),
            json!({"yellow": [yellow, "base", "base", "base"], "red": [red, "base", "base", "base"]}),
        ),
        throw: &[2, 3],
        moves,
    };
    check_legal(
        "horse safe",
        vec![
            row(
                "horse starts_and_stars: square 8 is safe",
                "starts_and_stars",
                3,
                36,
                &["0:3>8"],
            ),
            row(
                "horse starts_and_stars: blue's start 14 is safe though blue does not play",
                "starts_and_stars",
                9,
                42,
                &["0:9>14"],
            ),
            row(
                "horse starts_and_stars: blue's star 22 is safe",
                "starts_and_stars",
                17,
                50,
                &["0:17>22"],
            ),
            row(
                "horse starts_and_stars: square 15 is not safe",
                "starts_and_stars",
                10,
                43,
                &["0:10>15 xred.0"],
            ),
            row(
                "horse none (vietnamese): square 8 is not safe",
                "none",
                3,
                36,
                &["0:3>8 xred.0"],
            ),
        ],
    );
}

#[test]
fn by_players_boards_are_played_with_arms_meeting_directly() {
    let two = |yellow: Value, red: Value| {
        pos(
            json!({"layout": "by_players"}),
            json!({"yellow": yellow, "red": red}),
        )
    };
    // On the T, the third seat (red) sits on arm 2: its start is square 26.
    let three = |yellow: Value, red: Value| {
        pos(
            json!({"layout": "by_players", "safe": "none"}),
            json!({"yellow": yellow, "blue": base(), "red": red}),
        )
    };
    check_legal(
        "by_players",
        vec![
            Legal {
                rule: "2 seats: red sits on arm 1, so red 11 is square 24, yellow's door",
                position: two(
                    json!([20, "base", "base", "base"]),
                    json!([11, "base", "base", "base"]),
                ),
                throw: &[4],
                moves: &["0:20>24 xred.0"],
            },
            Legal {
                rule: "2 seats: the 26-square track wraps (red 20 is square 7)",
                position: two(
                    json!([4, "base", "base", "base"]),
                    json!([20, "base", "base", "base"]),
                ),
                throw: &[3],
                moves: &["0:4>7 xred.0"],
            },
            Legal {
                rule: "2 seats: red's start, square 13, is safe",
                position: two(
                    json!([10, "base", "base", "base"]),
                    json!([0, "base", "base", "base"]),
                ),
                throw: &[3],
                moves: &["0:10>13"],
            },
            Legal {
                rule: "2 seats: from the door 24, a six reaches the finish 30",
                position: two(json!([24, "base", "base", "base"]), base()),
                throw: &[6],
                moves: &["0:24>30", "1:base>0", "2:base>0", "3:base>0"],
            },
            Legal {
                rule: "2 seats: the finish 30 is exact",
                position: two(json!([27, 30, 30, 30]), base()),
                throw: &[4],
                moves: &[],
            },
            Legal {
                rule: "3 seats: red on arm 2 at progress 10 is square 36",
                position: three(
                    json!([33, "base", "base", "base"]),
                    json!([10, "base", "base", "base"]),
                ),
                throw: &[3],
                moves: &["0:33>36 xred.0"],
            },
            Legal {
                rule: "3 seats: red at 25 wraps to square 12 of the 39-square track",
                position: three(
                    json!([10, "base", "base", "base"]),
                    json!([25, "base", "base", "base"]),
                ),
                throw: &[2],
                moves: &["0:10>12 xred.0"],
            },
            Legal {
                rule: "3 seats: the door is 37 and the finish 43",
                position: three(json!([37, 40, "base", "base"]), base()),
                throw: &[3],
                moves: &["0:37>40", "1:40>43"],
            },
        ],
    );
}

// ---------------------------------------------------------------------------------------------
// §5 Legal moves, option by option
// ---------------------------------------------------------------------------------------------

#[test]
fn exit_throws_follow_exit_values_and_exit_on_double() {
    let ludo = |r: Value, t, moves| Legal {
        rule: "",
        position: pos(r, json!({"yellow": base(), "red": base()})),
        throw: t,
        moves,
    };
    let all = &["0:base>0", "1:base>0", "2:base>0", "3:base>0"][..];
    let none = &[][..];
    let rows = vec![
        Legal {
            rule: "exit_values [6]: a six brings a piece out",
            ..ludo(json!("qdan"), &[6], all)
        },
        Legal {
            rule: "exit_values [6]: a five does not",
            ..ludo(json!("qdan"), &[5], none)
        },
        Legal {
            rule: "exit_values [5, 6]: a five brings a piece out",
            ..ludo(json!({"exit_values": [5, 6]}), &[5], all)
        },
        Legal {
            rule: "exit_values [5, 6]: a six still does",
            ..ludo(json!({"exit_values": [5, 6]}), &[6], all)
        },
        Legal {
            rule: "exit_values [5, 6]: a four does not",
            ..ludo(json!({"exit_values": [5, 6]}), &[4], none)
        },
        Legal {
            rule: "exit_values [1, 6] on the ludo board: a one brings a piece out",
            ..ludo(json!({"exit_values": [1, 6]}), &[1], all)
        },
        Legal {
            rule: "exit_values [1, 6] on the ludo board: a three does not",
            ..ludo(json!({"exit_values": [1, 6]}), &[3], none)
        },
        Legal {
            rule: "two dice (vietnamese): a one on either die brings a horse out",
            ..ludo(json!("vietnamese"), &[4, 1], all)
        },
        Legal {
            rule: "two dice (vietnamese): a six on either die brings a horse out",
            ..ludo(json!("vietnamese"), &[6, 2], all)
        },
        Legal {
            rule: "two dice (vietnamese): no exit face and no double is no exit",
            ..ludo(json!("vietnamese"), &[2, 3], none)
        },
        Legal {
            rule: "exit_on_double true: any double brings a horse out",
            ..ludo(json!("vietnamese"), &[4, 4], all)
        },
        Legal {
            rule: "exit_on_double false: a double without an exit face is no exit",
            ..ludo(
                json!({"preset": "vietnamese", "exit_on_double": false}),
                &[4, 4],
                none,
            )
        },
        Legal {
            rule: "exit_on_double false: a double of exit faces still brings a horse out",
            ..ludo(
                json!({"preset": "vietnamese", "exit_on_double": false}),
                &[6, 6],
                all,
            )
        },
        Legal {
            rule: "exit_values [6] with two dice: a one is no exit",
            ..ludo(
                json!({"preset": "vietnamese", "exit_values": [6]}),
                &[1, 4],
                none,
            )
        },
        Legal {
            rule: "two dice on the ludo board: a six on either die brings a piece out",
            ..ludo(
                json!({"dice": 2, "bonus_values": [], "exact_finish": false}),
                &[2, 6],
                all,
            )
        },
        Legal {
            rule: "two dice on the ludo board without exit_on_double: a double is no exit",
            ..ludo(
                json!({"dice": 2, "bonus_values": [], "exact_finish": false}),
                &[3, 3],
                none,
            )
        },
    ];
    check_legal("exits", rows);
}

#[test]
fn counts_and_the_finish_follow_dice_and_exact_finish() {
    let two_dice = json!({"dice": 2, "bonus_values": [], "exact_finish": false});
    let row = |rule, r: Value, yellow: Value, t, moves| Legal {
        rule,
        position: pos(r, json!({"yellow": yellow, "red": base()})),
        throw: t,
        moves,
    };
    check_legal(
        "counts and finish",
        vec![
            row(
                "dice 1: a piece moves the die",
                json!("qdan"),
                json!([10, 20, "base", "base"]),
                &[4],
                &["0:10>14", "1:20>24"],
            ),
            row(
                "dice 2: a piece moves the total of both dice, never split",
                two_dice.clone(),
                json!([10, 20, "base", "base"]),
                &[2, 3],
                &["0:10>15", "1:20>25"],
            ),
            row(
                "dice 2 on the ludo board: a total beyond the finish stops on it",
                two_dice.clone(),
                json!([50, 56, 56, 56]),
                &[5, 6],
                &["0:50>56"],
            ),
            row(
                "dice 2 on the ludo board: a double total beyond the finish stops on it",
                two_dice.clone(),
                json!([45, 56, 56, 56]),
                &[6, 6],
                &["0:45>56"],
            ),
            row(
                "dice 2 on the ludo board: passing into the home column",
                two_dice,
                json!([48, 56, 56, 56]),
                &[2, 3],
                &["0:48>53"],
            ),
            row(
                "exact_finish true: a count beyond the finish is no move",
                json!("qdan"),
                json!([53, 56, 56, 56]),
                &[4],
                &[],
            ),
            row(
                "exact_finish true: the exact count finishes",
                json!("qdan"),
                json!([53, 56, 56, 56]),
                &[3],
                &["0:53>56"],
            ),
            row(
                "exact_finish true: a short count moves inside the home column",
                json!("qdan"),
                json!([52, 56, 56, 56]),
                &[2],
                &["0:52>54"],
            ),
            row(
                "exact_finish false: a count beyond the finish stops on it",
                json!({"exact_finish": false}),
                json!([53, 56, 56, 56]),
                &[4],
                &["0:53>56"],
            ),
            row(
                "exact_finish false: even a six from the last home square finishes",
                json!({"exact_finish": false}),
                json!([55, 56, 56, "base"]),
                &[6],
                &["0:55>56", "3:base>0"],
            ),
            row(
                "exact_finish false: a finished piece does not move",
                json!({"exact_finish": false}),
                json!([56, 10, "base", "base"]),
                &[2],
                &["1:10>12"],
            ),
        ],
    );
}

#[test]
fn passing_option_decides_what_a_moving_piece_may_pass_and_land_on() {
    // Yellow at 10 throws 4 (passing 11, 12, 13, landing on 14) or 2 (landing on 12).
    let row = |rule, passing: &str, yellow: Value, red: Value, t, moves| Legal {
        rule,
        position: pos(
            json!({"preset": "qdan", "passing": passing}),
            json!({"yellow": yellow, "red": red}),
        ),
        throw: t,
        moves,
    };
    let y10 = || json!([10, "base", "base", "base"]);
    let lone = || json!([38, "base", "base", "base"]); // square 12
    let pair = || json!([38, 38, "base", "base"]); // a blockade on square 12
    let safe_pair = || json!([39, 39, "base", "base"]); // a blockade on square 13, blue's start
    check_legal(
        "passing",
        vec![
            row(
                "blockades: an opponent blockade cannot be passed",
                "blockades",
                y10(),
                pair(),
                &[4],
                &[],
            ),
            row(
                "blockades: an opponent blockade on a safe square cannot be passed",
                "blockades",
                y10(),
                safe_pair(),
                &[4],
                &[],
            ),
            row(
                "blockades: an opponent blockade cannot be landed on",
                "blockades",
                y10(),
                pair(),
                &[2],
                &[],
            ),
            row(
                "blockades: an opponent blockade on a safe square cannot be landed on",
                "blockades",
                json!([11, "base", "base", "base"]),
                safe_pair(),
                &[2],
                &[],
            ),
            row(
                "blockades: a lone opponent can be passed",
                "blockades",
                y10(),
                lone(),
                &[4],
                &["0:10>14"],
            ),
            row(
                "blockades: a lone opponent is captured by landing on it",
                "blockades",
                y10(),
                lone(),
                &[2],
                &["0:10>12 xred.0"],
            ),
            row(
                "blockades: own pieces never block",
                "blockades",
                json!([10, 12, 12, "base"]),
                base(),
                &[4],
                &["0:10>14", "1:12>16", "2:12>16"],
            ),
            row(
                "free: an opponent blockade can be passed",
                "free",
                y10(),
                pair(),
                &[4],
                &["0:10>14"],
            ),
            row(
                "free: an opponent pair is landed on and both are captured",
                "free",
                y10(),
                pair(),
                &[2],
                &["0:10>12 xred.0 xred.1"],
            ),
            row(
                "opponents: a lone opponent cannot be passed",
                "opponents",
                y10(),
                lone(),
                &[4],
                &[],
            ),
            row(
                "opponents: an opponent on a safe square cannot be passed",
                "opponents",
                y10(),
                json!([39, "base", "base", "base"]),
                &[4],
                &[],
            ),
            row(
                "opponents: a lone opponent is captured by landing on it",
                "opponents",
                y10(),
                lone(),
                &[2],
                &["0:10>12 xred.0"],
            ),
            row(
                "opponents: an opponent pair is landed on and both are captured",
                "opponents",
                y10(),
                pair(),
                &[2],
                &["0:10>12 xred.0 xred.1"],
            ),
            row(
                "opponents: own pieces can be passed",
                "opponents",
                json!([10, 12, "base", "base"]),
                base(),
                &[4],
                &["0:10>14", "1:12>16"],
            ),
            row(
                "opponents: own pieces in the home column can be passed",
                "opponents",
                json!([49, 52, "base", "base"]),
                base(),
                &[4],
                &["0:49>53", "1:52>56"],
            ),
            row(
                "any: a lone opponent cannot be passed",
                "any",
                y10(),
                lone(),
                &[4],
                &[],
            ),
            row(
                "any: an own piece cannot be passed",
                "any",
                json!([10, 12, "base", "base"]),
                base(),
                &[4],
                &["1:12>16"],
            ),
            row(
                "any: an own piece in the home column cannot be passed",
                "any",
                json!([49, 52, "base", "base"]),
                base(),
                &[4],
                &["1:52>56"],
            ),
            row(
                "any: an own piece in the home column blocks the way to the finish",
                "any",
                json!([51, 53, "base", "base"]),
                base(),
                &[5],
                &[],
            ),
            row(
                "any: an own piece may be landed on with stacking",
                "any",
                json!([10, 12, "base", "base"]),
                base(),
                &[2],
                &["0:10>12", "1:12>14"],
            ),
            row(
                "any: an opponent pair is landed on and both are captured",
                "any",
                y10(),
                pair(),
                &[2],
                &["0:10>12 xred.0 xred.1"],
            ),
            row(
                "any: an exit passes no square",
                "any",
                json!(["base", 3, "base", "base"]),
                json!([26, "base", "base", "base"]),
                &[6],
                &["0:base>0", "1:3>9", "2:base>0", "3:base>0"],
            ),
        ],
    );
}

#[test]
fn an_exit_lands_on_the_start_by_the_landing_rules() {
    let row = |rule, r: Value, red: Value, t, moves| Legal {
        rule,
        position: pos(r, json!({"yellow": base(), "red": red})),
        throw: t,
        moves,
    };
    check_legal(
        "exit landing",
        vec![
            row(
                "blockades: an opponent blockade on the start forbids the exit",
                json!("qdan"),
                json!([26, 26, "base", "base"]),
                &[6],
                &[],
            ),
            row(
                "blockades: a lone opponent on the safe start shares it",
                json!("qdan"),
                json!([26, "base", "base", "base"]),
                &[6],
                &["0:base>0", "1:base>0", "2:base>0", "3:base>0"],
            ),
            row(
                "opponents (classic, no safe square): an exit onto an opponent pair captures both",
                json!("classic"),
                json!([26, 26, "base", "base"]),
                &[6],
                &[
                    "0:base>0 xred.0 xred.1",
                    "1:base>0 xred.0 xred.1",
                    "2:base>0 xred.0 xred.1",
                    "3:base>0 xred.0 xred.1",
                ],
            ),
            row(
                "any, no safe square: an exit captures a lone opponent on the start",
                json!({"passing": "any", "safe": "none"}),
                json!([26, "base", "base", "base"]),
                &[6],
                &[
                    "0:base>0 xred.0",
                    "1:base>0 xred.0",
                    "2:base>0 xred.0",
                    "3:base>0 xred.0",
                ],
            ),
            row(
                "horse: an exit captures a horse on the start (red 28 is square 0)",
                json!("vietnamese"),
                json!([28, "base", "base", "base"]),
                &[1, 2],
                &[
                    "0:base>0 xred.0",
                    "1:base>0 xred.0",
                    "2:base>0 xred.0",
                    "3:base>0 xred.0",
                ],
            ),
        ],
    );
}

#[test]
fn passing_is_checked_round_the_end_of_the_track_on_every_board() {
    // Red throws 4 from the square just before the track's last, passing square 0 where yellow
    // stands, and lands on square 2.
    let row = |rule, layout: &str, seats: Value, red: u8, yellow: Value, moves| Legal {
        rule,
        position: with(
            pos(
                json!({"layout": layout}),
                json!({"yellow": yellow, "blue": base(), "red": [red, "base", "base", "base"]}),
            ),
            json!({"seats": seats, "turn": {"seat": "red"}}),
        ),
        throw: &[4],
        moves,
    };
    let two = || json!(["yellow", "red"]);
    let three = || json!(["yellow", "blue", "red"]);
    let pair = || json!([0, 0, "base", "base"]);
    let lone = || json!([0, "base", "base", "base"]);
    let mut rows = vec![
        row(
            "cross: a blockade on square 0 blocks red 24 (square 50)",
            "cross",
            three(),
            24,
            pair(),
            &[],
        ),
        row(
            "cross: a lone piece on square 0 lets red 24 pass",
            "cross",
            three(),
            24,
            lone(),
            &["0:24>28"],
        ),
        row(
            "T: a blockade on square 0 blocks red 11 (square 37)",
            "by_players",
            three(),
            11,
            pair(),
            &[],
        ),
        row(
            "T: a lone piece on square 0 lets red 11 pass",
            "by_players",
            three(),
            11,
            lone(),
            &["0:11>15"],
        ),
    ];
    // Blue does not play on the 2-arm board: drop its pieces there.
    for (rule, yellow, moves) in [
        (
            "2 arms: a blockade on square 0 blocks red 11 (square 24)",
            pair(),
            &[][..],
        ),
        (
            "2 arms: a lone piece on square 0 lets red 11 pass",
            lone(),
            &["0:11>15"][..],
        ),
    ] {
        let mut r = row(rule, "by_players", two(), 11, yellow, moves);
        r.position["pieces"].as_object_mut().unwrap().remove("blue");
        rows.push(r);
    }
    check_legal("wrap-around passing", rows);
}

#[test]
fn finished_pieces_never_block() {
    check_legal(
        "finished pieces",
        vec![
            Legal {
                rule: "any without stacking: pieces finished on the ludo finish neither block nor forbid landing",
                position: pos(
                    json!({"passing": "any", "stacking": false}),
                    json!({"yellow": [52, 56, 56, "base"], "red": base()}),
                ),
                throw: &[4],
                moves: &["0:52>56"],
            },
            Legal {
                rule: "any (vietnamese): horses home neither block nor stop the next horse reaching its cell",
                position: pos(
                    json!("vietnamese"),
                    json!({"yellow": [53, 61, 60, "base"], "red": base()}),
                ),
                throw: &[2, 4],
                moves: &["0:53>59"],
            },
        ],
    );
}

#[test]
fn multi_piece_captures_send_every_opponent_piece_on_the_square_home() {
    // Two red pieces on square 12 (red 38) and a blue piece there would be refused (not safe);
    // so pairs of one colour are used, with every passing rule that lets a piece land on them.
    for passing in ["free", "opponents", "any"] {
        let mut g = game(pos(
            json!({"passing": passing, "safe": "none"}),
            json!({"yellow": [10, "base", "base", "base"], "red": [38, 38, "base", 5]}),
        ));
        g.roll(Throw::one(2)).unwrap();
        let m = g.play(0).unwrap();
        assert_eq!(m.captures.len(), 2, "passing {passing}");
        assert_eq!(
            g.pieces(Colour::Red).map(|p| p.to_string()),
            ["base", "base", "base", "5"],
            "passing {passing}: both red pieces on square 12 go home, index kept"
        );
    }
}

#[test]
fn stacking_decides_whether_own_pieces_may_share_a_square() {
    let row = |rule, r: Value, yellow: Value, t, moves| Legal {
        rule,
        position: pos(r, json!({"yellow": yellow, "red": base()})),
        throw: t,
        moves,
    };
    let off = || json!({"stacking": false});
    check_legal(
        "stacking",
        vec![
            row(
                "stacking true: a piece may land on its own piece",
                json!("qdan"),
                json!([10, 13, "base", "base"]),
                &[3],
                &["0:10>13", "1:13>16"],
            ),
            row(
                "stacking false: a piece may not land on its own piece",
                off(),
                json!([10, 13, "base", "base"]),
                &[3],
                &["1:13>16"],
            ),
            row(
                "stacking true: a piece may leave the base onto its own piece on the start",
                json!("qdan"),
                json!([0, "base", 56, 56]),
                &[6],
                &["0:0>6", "1:base>0"],
            ),
            row(
                "stacking false: no exit onto its own piece on the start",
                off(),
                json!([0, "base", 56, 56]),
                &[6],
                &["0:0>6"],
            ),
            row(
                "stacking false: an own piece in the home column may not be landed on",
                off(),
                json!([51, 53, "base", "base"]),
                &[2],
                &["1:53>55"],
            ),
            row(
                "stacking false: the ludo finish takes any number of pieces",
                off(),
                json!([53, 56, 56, "base"]),
                &[3],
                &["0:53>56"],
            ),
            row(
                "stacking false (vietnamese): a horse may not land on its own horse",
                json!("vietnamese"),
                json!([10, 15, "base", "base"]),
                &[2, 3],
                &["1:15>20"],
            ),
        ],
    );
}

#[test]
fn horses_come_home_onto_cells_6_5_4_3_in_turn() {
    let row = |rule, yellow: Value, t, moves| Legal {
        rule,
        position: pos(
            json!("vietnamese"),
            json!({"yellow": yellow, "red": base()}),
        ),
        throw: t,
        moves,
    };
    check_legal(
        "horse home",
        vec![
            row(
                "horse: a horse may stop on its door 55",
                json!([50, "base", "base", "base"]),
                &[2, 3],
                &["0:50>55"],
            ),
            row(
                "horse: the first horse home stops on cell 6 (61)",
                json!([52, "base", "base", "base"]),
                &[4, 5],
                &["0:52>61"],
            ),
            row(
                "horse: a count short of the target cell is no move",
                json!([52, "base", "base", "base"]),
                &[2, 3],
                &[],
            ),
            row(
                "horse: a count beyond the target cell is no move",
                json!([55, "base", "base", "base"]),
                &[3, 4],
                &[],
            ),
            row(
                "horse: the second horse home stops on cell 5 (60)",
                json!([52, 61, "base", "base"]),
                &[3, 5],
                &["0:52>60"],
            ),
            row(
                "horse: the second horse cannot reach cell 6, which is taken",
                json!([52, 61, "base", "base"]),
                &[4, 5],
                &[],
            ),
            row(
                "horse: the third horse home stops on cell 4 (59)",
                json!([52, 61, 60, "base"]),
                &[2, 5],
                &["0:52>59"],
            ),
            row(
                "horse: the fourth horse home stops on cell 3 (58)",
                json!([52, 61, 60, 59]),
                &[2, 4],
                &["0:52>58"],
            ),
            row(
                "horse, passing any: a horse cannot pass its own horse",
                json!([10, 12, "base", "base"]),
                &[2, 3],
                &["1:12>17"],
            ),
            row(
                "horse: a finished horse never moves",
                json!([61, 40, "base", "base"]),
                &[2, 3],
                &["1:40>45"],
            ),
        ],
    );
    check_legal(
        "horse capture",
        vec![Legal {
            rule: "horse: landing on a lone opponent captures it (red 38 is square 10)",
            position: pos(
                json!("vietnamese"),
                json!({"yellow": [5, "base", "base", "base"], "red": [38, "base", "base", "base"]}),
            ),
            throw: &[2, 3],
            moves: &["0:5>10 xred.0"],
        }],
    );
}

// ---------------------------------------------------------------------------------------------
// §4 A turn, step by step
// ---------------------------------------------------------------------------------------------

fn next_red() -> Value {
    json!({"turn": {"seat": "red", "phase": "roll", "roll": null, "bonus_streak": 0, "throws": 0}})
}

fn again_yellow(bonus_streak: u8, throws: u8) -> Value {
    json!({"turn": {"seat": "yellow", "phase": "roll", "roll": null, "bonus_streak": bonus_streak, "throws": throws}})
}

#[test]
fn bonus_throws_follow_bonus_values_and_bonus_on_double() {
    let y10 = || json!({"yellow": [10, "base", "base", "base"], "red": base()});
    let viet = |r: Value| pos(r, y10());
    check_turns(
        "bonus throws",
        vec![
            Turn {
                rule: "bonus_values [6]: a six gives another throw after the move",
                position: pos(json!("qdan"), y10()),
                acts: vec![R(&[6]), M(0)],
                expect: with(
                    again_yellow(1, 1),
                    json!({"pieces": {"yellow": [16, "base", "base", "base"]}}),
                ),
            },
            Turn {
                rule: "bonus_values [6]: a five passes the turn after the move",
                position: pos(json!("qdan"), y10()),
                acts: vec![R(&[5]), M(0)],
                expect: next_red(),
            },
            Turn {
                rule: "bonus_values [5, 6]: a five gives another throw",
                position: pos(json!({"bonus_values": [5, 6]}), y10()),
                acts: vec![R(&[5]), M(0)],
                expect: again_yellow(1, 1),
            },
            Turn {
                rule: "bonus_values []: a six passes the turn after the move",
                position: pos(json!({"bonus_values": []}), y10()),
                acts: vec![R(&[6]), M(0)],
                expect: next_red(),
            },
            Turn {
                rule: "bonus_values: the streak counts bonus throws in a row",
                position: pos(json!("qdan"), y10()),
                acts: vec![R(&[6]), M(0), R(&[6]), M(0)],
                expect: again_yellow(2, 2),
            },
            Turn {
                rule: "bonus_on_double true: a double gives another throw after the move",
                position: viet(json!("vietnamese")),
                acts: vec![R(&[2, 2]), M(0)],
                expect: again_yellow(1, 1),
            },
            Turn {
                rule: "bonus_on_double true: a non-double passes the turn",
                position: viet(json!("vietnamese")),
                acts: vec![R(&[2, 3]), M(0)],
                expect: next_red(),
            },
            Turn {
                rule: "bonus_on_double false: a double passes the turn",
                position: viet(json!({"preset": "vietnamese", "bonus_on_double": false})),
                acts: vec![R(&[2, 2]), M(0)],
                expect: next_red(),
            },
            Turn {
                rule: "two dice: a double six is no bonus through bonus_values",
                position: viet(json!({"preset": "vietnamese", "bonus_on_double": false})),
                acts: vec![R(&[6, 6]), M(0)],
                expect: next_red(),
            },
        ],
    );
}

#[test]
fn three_bonus_forfeit_ends_the_turn_on_the_third_bonus_throw_only_when_set() {
    let streak2 = |r: Value| {
        with(
            pos(
                r,
                json!({"yellow": [10, "base", "base", "base"], "red": base()}),
            ),
            json!({"turn": {"bonus_streak": 2, "throws": 2}}),
        )
    };
    let unmoved = json!({"pieces": {"yellow": [10, "base", "base", "base"]}});
    check_turns(
        "three bonus forfeit",
        vec![
            Turn {
                rule: "three_bonus_forfeit true: a third six ends the turn with no move",
                position: streak2(json!("qdan")),
                acts: vec![R(&[6])],
                expect: with(next_red(), unmoved.clone()),
            },
            Turn {
                rule: "three_bonus_forfeit true: a non-bonus third throw is played and resets the streak",
                position: streak2(json!("qdan")),
                acts: vec![R(&[4])],
                expect: json!({"turn": {"seat": "yellow", "phase": "move", "roll": [4], "bonus_streak": 0, "throws": 3}}),
            },
            Turn {
                rule: "three_bonus_forfeit false: a third six is played",
                position: streak2(json!({"three_bonus_forfeit": false})),
                acts: vec![R(&[6])],
                expect: json!({"turn": {"seat": "yellow", "phase": "move", "roll": [6], "bonus_streak": 3, "throws": 3}}),
            },
            Turn {
                rule: "three_bonus_forfeit false: a third six still gives another throw",
                position: streak2(json!({"three_bonus_forfeit": false})),
                acts: vec![R(&[6]), M(0)],
                expect: again_yellow(3, 3),
            },
            Turn {
                rule: "three_bonus_forfeit true with two dice: a third double ends the turn",
                position: streak2(json!({"preset": "vietnamese", "three_bonus_forfeit": true})),
                acts: vec![R(&[3, 3])],
                expect: with(next_red(), unmoved.clone()),
            },
            Turn {
                rule: "three_bonus_forfeit false (vietnamese): a third double is played",
                position: streak2(json!("vietnamese")),
                acts: vec![R(&[3, 3]), M(0)],
                expect: with(
                    again_yellow(3, 3),
                    json!({"pieces": {"yellow": [16, "base", "base", "base"]}}),
                ),
            },
            Turn {
                rule: "three_bonus_forfeit true: the forfeit applies even when the six has no move (bonus_if_no_move)",
                position: with(
                    streak2(json!("classic")),
                    json!({"pieces": {"yellow": [53, 56, 56, 56]}}),
                ),
                acts: vec![R(&[6])],
                expect: next_red(),
            },
        ],
    );
}

#[test]
fn captures_and_finishes_give_another_throw_only_when_their_option_is_set() {
    // Yellow 10 throws 4 onto square 14, where red 40 stands alone.
    let capture = |r: Value| {
        pos(
            r,
            json!({"yellow": [10, "base", "base", "base"], "red": [40, "base", "base", "base"]}),
        )
    };
    let finish = |r: Value| {
        pos(
            r,
            json!({"yellow": [53, "base", "base", "base"], "red": base()}),
        )
    };
    let red_home = json!({"pieces": {"red": ["base", "base", "base", "base"]}});
    check_turns(
        "capture and finish bonus",
        vec![
            Turn {
                rule: "bonus_on_capture true: a capture gives another throw",
                position: capture(json!("qdan")),
                acts: vec![R(&[4]), M(0)],
                expect: with(again_yellow(0, 1), red_home.clone()),
            },
            Turn {
                rule: "bonus_on_capture false: a capture passes the turn",
                position: capture(json!({"bonus_on_capture": false})),
                acts: vec![R(&[4]), M(0)],
                expect: with(next_red(), red_home.clone()),
            },
            Turn {
                rule: "bonus_on_capture true with a six: one extra throw, not two",
                position: pos(
                    json!("qdan"),
                    json!({"yellow": [8, "base", "base", "base"], "red": [40, "base", "base", "base"]}),
                ),
                acts: vec![R(&[6]), M(0), R(&[2]), M(0)],
                expect: next_red(),
            },
            Turn {
                rule: "bonus_on_finish true: finishing a piece gives another throw",
                position: finish(json!({"bonus_on_finish": true})),
                acts: vec![R(&[3]), M(0)],
                expect: again_yellow(0, 1),
            },
            Turn {
                rule: "bonus_on_finish false: finishing a piece passes the turn",
                position: finish(json!("qdan")),
                acts: vec![R(&[3]), M(0)],
                expect: next_red(),
            },
            Turn {
                rule: "bonus_on_finish true: a move inside the home column that does not finish passes the turn",
                position: finish(json!({"bonus_on_finish": true})),
                acts: vec![R(&[2]), M(0)],
                expect: next_red(),
            },
            Turn {
                rule: "bonus_on_finish true on the horse board: coming home gives another throw",
                position: pos(
                    json!({"preset": "vietnamese", "bonus_on_finish": true}),
                    json!({"yellow": [52, "base", "base", "base"], "red": base()}),
                ),
                acts: vec![R(&[4, 5]), M(0)],
                expect: again_yellow(0, 1),
            },
        ],
    );
}

#[test]
fn bonus_if_no_move_decides_whether_an_unusable_bonus_throw_is_thrown_again() {
    let stuck = |r: Value| pos(r, json!({"yellow": [53, 56, 56, 56], "red": base()}));
    let stuck_horse = |r: Value| pos(r, json!({"yellow": [55, 61, 60, 59], "red": base()}));
    check_turns(
        "bonus if no move",
        vec![
            Turn {
                rule: "bonus_if_no_move true (classic): a six with no move gives another throw",
                position: stuck(json!("classic")),
                acts: vec![R(&[6])],
                expect: again_yellow(1, 1),
            },
            Turn {
                rule: "bonus_if_no_move false (qdan): a six with no move ends the turn",
                position: stuck(json!("qdan")),
                acts: vec![R(&[6])],
                expect: next_red(),
            },
            Turn {
                rule: "bonus_if_no_move true: a non-bonus throw with no move ends the turn",
                position: stuck(json!("classic")),
                acts: vec![R(&[5])],
                expect: next_red(),
            },
            Turn {
                rule: "bonus_if_no_move true (vietnamese): a double with no move gives another throw",
                position: stuck_horse(json!("vietnamese")),
                acts: vec![R(&[1, 1])],
                expect: again_yellow(1, 1),
            },
            Turn {
                rule: "bonus_if_no_move false with two dice: a double with no move ends the turn",
                position: stuck_horse(json!({"preset": "vietnamese", "bonus_if_no_move": false})),
                acts: vec![R(&[1, 1])],
                expect: next_red(),
            },
        ],
    );
}

#[test]
fn no_piece_out_decides_what_a_seat_with_nothing_out_does() {
    let all_base = |r: Value| pos(r, json!({"yellow": base(), "red": base()}));
    let tries = || json!({"no_piece_out": "three_tries"});
    let auto = || json!({"no_piece_out": "auto_exit"});
    let exited = |yellow: Value| with(next_red(), json!({"pieces": {"yellow": yellow}}));
    check_turns(
        "no piece out",
        vec![
            Turn {
                rule: "roll: a seat with nothing out and no exit throw passes after one throw",
                position: all_base(json!("qdan")),
                acts: vec![R(&[5])],
                expect: next_red(),
            },
            Turn {
                rule: "three_tries: a first miss gives a second throw",
                position: all_base(tries()),
                acts: vec![R(&[5])],
                expect: again_yellow(0, 1),
            },
            Turn {
                rule: "three_tries: a second miss gives a third throw",
                position: all_base(tries()),
                acts: vec![R(&[5]), R(&[4])],
                expect: again_yellow(0, 2),
            },
            Turn {
                rule: "three_tries: the third miss ends the turn",
                position: all_base(tries()),
                acts: vec![R(&[5]), R(&[4]), R(&[3])],
                expect: next_red(),
            },
            Turn {
                rule: "three_tries: an exit throw on the third try is played",
                position: all_base(tries()),
                acts: vec![R(&[5]), R(&[4]), R(&[6])],
                expect: json!({"turn": {"seat": "yellow", "phase": "move", "roll": [6], "throws": 3, "bonus_streak": 1}}),
            },
            Turn {
                rule: "three_tries: finished pieces and the rest in the base count as nothing out",
                position: pos(
                    tries(),
                    json!({"yellow": [56, "base", "base", "base"], "red": base()}),
                ),
                acts: vec![R(&[5])],
                expect: again_yellow(0, 1),
            },
            Turn {
                rule: "three_tries: a seat with a piece out gets one throw",
                position: pos(
                    tries(),
                    json!({"yellow": [53, 56, 56, "base"], "red": base()}),
                ),
                acts: vec![R(&[5])],
                expect: next_red(),
            },
            Turn {
                rule: "three_tries: a six whose exit is blocked by a blockade on the start is a miss",
                position: pos(
                    tries(),
                    json!({"yellow": base(), "red": [26, 26, "base", "base"]}),
                ),
                acts: vec![R(&[6])],
                expect: again_yellow(1, 1),
            },
            Turn {
                rule: "three_tries with two dice: a first miss gives a second throw",
                position: all_base(json!({"preset": "vietnamese", "no_piece_out": "three_tries"})),
                acts: vec![R(&[2, 3])],
                expect: again_yellow(0, 1),
            },
            Turn {
                rule: "auto_exit: any throw brings piece 0 out and ends the turn",
                position: all_base(auto()),
                acts: vec![R(&[3])],
                expect: exited(json!([0, "base", "base", "base"])),
            },
            Turn {
                rule: "auto_exit: a six is not counted and gives no bonus throw",
                position: all_base(auto()),
                acts: vec![R(&[6])],
                expect: exited(json!([0, "base", "base", "base"])),
            },
            Turn {
                rule: "auto_exit: the lowest-numbered piece in the base comes out",
                position: pos(
                    auto(),
                    json!({"yellow": [56, "base", "base", "base"], "red": base()}),
                ),
                acts: vec![R(&[2])],
                expect: exited(json!([56, 0, "base", "base"])),
            },
            Turn {
                rule: "auto_exit: a capture on the start gives no extra throw (bonus_on_capture true)",
                position: pos(
                    json!({"no_piece_out": "auto_exit", "safe": "none"}),
                    json!({"yellow": base(), "red": [26, "base", "base", "base"]}),
                ),
                acts: vec![R(&[1])],
                expect: with(
                    exited(json!([0, "base", "base", "base"])),
                    json!({"pieces": {"red": base()}}),
                ),
            },
            Turn {
                rule: "auto_exit: an opponent blockade on the start just ends the turn",
                position: pos(
                    auto(),
                    json!({"yellow": base(), "red": [26, 26, "base", "base"]}),
                ),
                acts: vec![R(&[6])],
                expect: with(
                    exited(base()),
                    json!({"pieces": {"red": [26, 26, "base", "base"]}}),
                ),
            },
            Turn {
                rule: "auto_exit: a bonus throw after finishing the only piece out is not used either",
                position: pos(
                    auto(),
                    json!({"yellow": [50, "base", "base", "base"], "red": base()}),
                ),
                acts: vec![R(&[6]), M(0), R(&[2])],
                expect: exited(json!([56, 0, "base", "base"])),
            },
            Turn {
                rule: "auto_exit: a seat with a piece out throws as usual",
                position: pos(
                    auto(),
                    json!({"yellow": [10, "base", "base", "base"], "red": base()}),
                ),
                acts: vec![R(&[3])],
                expect: json!({"turn": {"seat": "yellow", "phase": "move", "roll": [3], "throws": 1}}),
            },
            Turn {
                rule: "auto_exit with two dice: the throw is not used either",
                position: all_base(json!({"preset": "vietnamese", "no_piece_out": "auto_exit"})),
                acts: vec![R(&[2, 2])],
                expect: exited(json!([0, "base", "base", "base"])),
            },
        ],
    );
}

#[test]
fn the_turn_passes_clockwise_and_a_legal_move_must_be_played() {
    let three = |seat: &str| {
        with(
            pos(
                json!("qdan"),
                json!({"yellow": [10, "base", "base", "base"], "blue": [10, "base", "base", "base"], "red": [10, "base", "base", "base"]}),
            ),
            json!({"turn": {"seat": seat}}),
        )
    };
    check_turns(
        "turn order",
        vec![
            Turn {
                rule: "a move without bonus passes the turn to the next seat",
                position: three("yellow"),
                acts: vec![R(&[2]), M(0)],
                expect: json!({"turn": {"seat": "blue", "phase": "roll"}}),
            },
            Turn {
                rule: "the last seat passes the turn to the first",
                position: three("red"),
                acts: vec![R(&[2]), M(0)],
                expect: json!({"turn": {"seat": "yellow", "phase": "roll"}}),
            },
            Turn {
                rule: "a throw with a legal move waits in phase move with the throw counted",
                position: three("blue"),
                acts: vec![R(&[6])],
                expect: json!({"turn": {"seat": "blue", "phase": "move", "roll": [6], "bonus_streak": 1, "throws": 1}}),
            },
        ],
    );

    let mut g = game(pos(
        json!("qdan"),
        json!({"yellow": [10, "base", "base", "base"], "red": base()}),
    ));
    assert!(
        matches!(g.play(0), Err(PlayError::WrongPhase { .. })),
        "no move before a throw"
    );
    g.roll(Throw::one(3)).unwrap();
    let before = g;
    assert_eq!(
        g.play(1),
        Err(PlayError::NoMove {
            seat: Colour::Yellow,
            piece: 1
        })
    );
    assert_eq!(g.play(4), Err(PlayError::NoSuchPiece(4)));
    assert!(
        matches!(g.roll(Throw::one(3)), Err(PlayError::WrongPhase { .. })),
        "no passing"
    );
    assert_eq!(g, before, "refused actions change nothing");
    let mut fresh = game(pos(json!("qdan"), json!({"yellow": base(), "red": base()})));
    assert_eq!(
        fresh.roll(Throw::two(1, 2)),
        Err(PlayError::WrongDice {
            wanted: 1,
            given: 2
        })
    );
}

// ---------------------------------------------------------------------------------------------
// §4.4 Done and over, §6 places
// ---------------------------------------------------------------------------------------------

#[test]
fn rank_everyone_decides_whether_play_goes_on_after_the_first_seat_is_done() {
    let finishing = json!([53, 56, 56, 56]);
    let ranked = || json!({"rank_everyone": true});
    let three = |r: Value, yellow: Value, blue: Value, done: Value| {
        with(
            pos(
                r,
                json!({"yellow": yellow, "blue": blue, "red": [10, "base", "base", "base"]}),
            ),
            json!({"done": done}),
        )
    };
    let blue_done = json!([56, 56, 56, 56]);
    check_turns(
        "rank everyone",
        vec![
            Turn {
                rule: "rank_everyone false: the first seat done ends the game and the others are placed",
                position: three(
                    json!("qdan"),
                    finishing.clone(),
                    json!([20, "base", "base", "base"]),
                    json!([]),
                ),
                acts: vec![R(&[3]), M(0)],
                expect: json!({"done": ["yellow"], "places": {"yellow": 1, "blue": 2, "red": 3},
                    "turn": {"seat": "yellow", "phase": "over", "roll": null, "bonus_streak": 0, "throws": 0}}),
            },
            Turn {
                rule: "rank_everyone true: play goes on after the first seat is done",
                position: three(
                    ranked(),
                    finishing.clone(),
                    json!([20, "base", "base", "base"]),
                    json!([]),
                ),
                acts: vec![R(&[3]), M(0)],
                expect: json!({"done": ["yellow"], "places": null, "turn": {"seat": "blue", "phase": "roll"}}),
            },
            Turn {
                rule: "rank_everyone true: a done seat never throws again, even after a six",
                position: three(
                    ranked(),
                    json!([50, 56, 56, 56]),
                    json!([20, "base", "base", "base"]),
                    json!([]),
                ),
                acts: vec![R(&[6]), M(0)],
                expect: json!({"done": ["yellow"], "turn": {"seat": "blue", "phase": "roll", "bonus_streak": 0}}),
            },
            Turn {
                rule: "rank_everyone true: done seats are skipped in turn order",
                position: three(
                    ranked(),
                    json!([10, "base", "base", "base"]),
                    blue_done.clone(),
                    json!(["blue"]),
                ),
                acts: vec![R(&[2]), M(0)],
                expect: json!({"turn": {"seat": "red", "phase": "roll"}}),
            },
            Turn {
                rule: "rank_everyone true: the last seat left takes the last place",
                position: three(
                    ranked(),
                    finishing.clone(),
                    blue_done.clone(),
                    json!(["blue"]),
                ),
                acts: vec![R(&[3]), M(0)],
                expect: json!({"done": ["blue", "yellow"], "places": {"blue": 1, "yellow": 2, "red": 3},
                    "turn": {"seat": "yellow", "phase": "over"}}),
            },
            Turn {
                rule: "rank_everyone true: places follow the finishing order, not the seat order",
                position: with(
                    three(
                        ranked(),
                        json!([10, "base", "base", "base"]),
                        blue_done,
                        json!(["blue"]),
                    ),
                    json!({"pieces": {"red": [53, 56, 56, 56]}, "turn": {"seat": "red"}}),
                ),
                acts: vec![R(&[3]), M(0)],
                expect: json!({"done": ["blue", "red"], "places": {"blue": 1, "red": 2, "yellow": 3}}),
            },
            Turn {
                rule: "rank_everyone true with 4 seats: two done seats in a row are skipped",
                position: with(
                    pos(
                        ranked(),
                        json!({"yellow": [10, "base", "base", "base"], "blue": [56, 56, 56, 56], "red": [56, 56, 56, 56], "green": base()}),
                    ),
                    json!({"done": ["red", "blue"]}),
                ),
                acts: vec![R(&[2]), M(0)],
                expect: json!({"turn": {"seat": "green", "phase": "roll"}}),
            },
        ],
    );
}

#[test]
fn places_rank_the_seats_not_done_by_finished_then_out_then_progress() {
    // Yellow finishes its last piece with a 3; the others are placed by §6.
    let row = |rule, blue: Value, red: Value, green: Value, places: Value| Turn {
        rule,
        position: pos(
            json!("qdan"),
            json!({"yellow": [53, 56, 56, 56], "blue": blue, "red": red, "green": green}),
        ),
        acts: vec![R(&[3]), M(0)],
        expect: json!({"places": places, "turn": {"phase": "over"}}),
    };
    let rows = vec![
        row(
            "shared places repeat and skip the next number (1, 2, 2, 4)",
            json!([10, "base", "base", "base"]),
            json!([10, "base", "base", "base"]),
            base(),
            json!({"yellow": 1, "blue": 2, "red": 2, "green": 4}),
        ),
        row(
            "more pieces finished ranks first",
            json!([56, "base", "base", "base"]),
            json!([40, 30, 20, 10]),
            base(),
            json!({"yellow": 1, "blue": 2, "red": 3, "green": 4}),
        ),
        row(
            "then more pieces out of the base",
            json!([5, 5, "base", "base"]),
            json!([50, "base", "base", "base"]),
            base(),
            json!({"yellow": 1, "blue": 2, "red": 3, "green": 4}),
        ),
        row(
            "then more total progress of the pieces out",
            json!([20, "base", "base", "base"]),
            json!([30, "base", "base", "base"]),
            base(),
            json!({"yellow": 1, "red": 2, "blue": 3, "green": 4}),
        ),
        row(
            "progress in the home column counts too",
            json!([52, "base", "base", "base"]),
            json!([30, 20, "base", "base"]),
            json!([49, 2, "base", "base"]),
            json!({"yellow": 1, "green": 2, "red": 3, "blue": 4}),
        ),
        row(
            "seats tied at the bottom share the last place",
            json!([10, "base", "base", "base"]),
            base(),
            base(),
            json!({"yellow": 1, "blue": 2, "red": 3, "green": 3}),
        ),
        row(
            "three seats tied share second place",
            base(),
            base(),
            base(),
            json!({"yellow": 1, "blue": 2, "red": 2, "green": 2}),
        ),
    ];
    check_turns("places", rows);
}

// ---------------------------------------------------------------------------------------------
// §4.1 First player
// ---------------------------------------------------------------------------------------------

#[test]
fn first_player_seat_order_lets_the_first_listed_seat_throw_first() {
    let seats = [Colour::Blue, Colour::Red, Colour::Green, Colour::Yellow];
    let g = Game::new(Rules::default(), &seats).unwrap();
    assert_eq!(
        (g.phase(), g.seat(), g.throws()),
        (Phase::Roll, Colour::Blue, 0)
    );
    let g = Game::new(rules(json!("vietnamese")), &[Colour::Red, Colour::Yellow]).unwrap();
    assert_eq!((g.phase(), g.seat()), (Phase::Roll, Colour::Red));
}

#[test]
fn first_player_highest_roll_holds_a_roll_off_that_only_tied_seats_throw_again() {
    use Colour::{Blue as B, Red as Rd, Yellow as Y};
    // (rule, who throws what in order, who starts)
    type Throws = &'static [(Colour, u8)];
    let rows: [(&str, Throws, Colour); 6] = [
        ("the highest throw starts", &[(Y, 5), (B, 6), (Rd, 3)], B),
        (
            "the first seat can win the roll-off",
            &[(Y, 6), (B, 5), (Rd, 5)],
            Y,
        ),
        (
            "a tie between the first and last seat re-throws only between them",
            &[(Y, 6), (B, 3), (Rd, 6), (Y, 2), (Rd, 5)],
            Rd,
        ),
        (
            "a tie between two seats leaves the lower seat out",
            &[(Y, 4), (B, 4), (Rd, 1), (Y, 6), (B, 2)],
            Y,
        ),
        (
            "a three-way tie re-throws among all three, then among the tied two",
            &[
                (Y, 6),
                (B, 6),
                (Rd, 6),
                (Y, 4),
                (B, 5),
                (Rd, 5),
                (B, 1),
                (Rd, 2),
            ],
            Rd,
        ),
        (
            "a tie below the highest throw does not matter",
            &[(Y, 2), (B, 2), (Rd, 3)],
            Rd,
        ),
    ];
    let mut failures = Vec::new();
    for (rule, throws, starter) in rows {
        let mut g = Game::new(rules(json!("classic")), &[Y, B, Rd]).unwrap();
        let mut ok = g.phase() == Phase::Rolloff;
        for &(seat, face) in throws {
            if g.seat() != seat || g.phase() != Phase::Rolloff {
                failures.push(format!(
                    "[{rule}] want {seat} to throw in the roll-off, got {} in {}",
                    g.seat(),
                    g.phase()
                ));
                ok = false;
                break;
            }
            g.roll(Throw::one(face)).unwrap();
        }
        if ok && (g.phase(), g.seat(), g.throws(), g.bonus_streak()) != (Phase::Roll, starter, 0, 0)
        {
            failures.push(format!(
                "[{rule}] want {starter} to start, got {} in {}",
                g.seat(),
                g.phase()
            ));
        }
    }
    report("roll-off", failures);
}

#[test]
fn a_roll_off_is_one_die_even_with_two_dice_and_its_tie_is_written_in_the_position() {
    let r = rules(json!({"preset": "vietnamese", "first_player": "highest_roll"}));
    let mut g = Game::new(r, &[Colour::Yellow, Colour::Blue, Colour::Red]).unwrap();
    assert_eq!(g.dice_to_throw(), 1);
    assert_eq!(
        g.roll(Throw::two(6, 6)),
        Err(PlayError::WrongDice {
            wanted: 1,
            given: 2
        })
    );
    for face in [6, 1, 6] {
        g.roll(Throw::one(face)).unwrap();
    }
    let written: Value = serde_json::from_str(&g.to_json()).unwrap();
    partial(
        &json!({"turn": {"seat": "yellow", "phase": "rolloff", "rolloff": {"yellow": null, "red": null}}}),
        &written,
        "position",
    )
    .unwrap();
    assert!(
        written["turn"]["rolloff"].get("blue").is_none(),
        "blue is out: {written}"
    );
    assert_eq!(g.rolloff(Colour::Blue), None);
    assert_eq!(
        Game::from_json(&g.to_json()),
        Ok(g),
        "a roll-off position reads back"
    );
    g.roll(Throw::one(3)).unwrap();
    g.roll(Throw::one(4)).unwrap();
    assert_eq!(
        (g.phase(), g.seat(), g.dice_to_throw()),
        (Phase::Roll, Colour::Red, 2)
    );
}

// ---------------------------------------------------------------------------------------------
// position.md §1: positions that cannot occur are refused, naming the field
// ---------------------------------------------------------------------------------------------

#[test]
fn positions_that_cannot_occur_are_refused_naming_the_field() {
    let two = |r: Value, yellow: Value| pos(r, json!({"yellow": yellow, "red": base()}));
    let rows: Vec<(&str, Value, &str, &str)> = vec![
        (
            "wrong piece count",
            two(json!("qdan"), json!([0, "base", "base"])),
            "pieces.yellow",
            "3 pieces",
        ),
        (
            "five pieces",
            two(json!("qdan"), json!([0, "base", "base", "base", "base"])),
            "pieces.yellow",
            "5 pieces",
        ),
        (
            "progress beyond the ludo finish",
            two(json!("qdan"), json!([57, "base", "base", "base"])),
            "pieces.yellow[0]",
            "57",
        ),
        (
            "progress beyond the finish of the 2-arm board",
            pos(
                json!({"layout": "by_players"}),
                json!({"yellow": ["base", 31, "base", "base"], "red": base()}),
            ),
            "pieces.yellow[1]",
            "31",
        ),
        (
            "progress beyond horse cell 6",
            two(json!("vietnamese"), json!(["base", "base", 62, "base"])),
            "pieces.yellow[2]",
            "62",
        ),
        (
            "stacked own pieces without stacking (horse)",
            two(json!("vietnamese"), json!([10, 10, "base", "base"])),
            "pieces.yellow",
            "stacking",
        ),
        (
            "stacked own pieces without stacking (ludo home column)",
            two(json!({"stacking": false}), json!([52, "base", 52, "base"])),
            "pieces.yellow",
            "stacking",
        ),
        (
            "horses home with a gap (cells 6 and 4)",
            two(json!("vietnamese"), json!([61, 59, "base", "base"])),
            "pieces.yellow",
            "6, 5, 4, 3",
        ),
        (
            "a horse alone on cell 5",
            two(json!("vietnamese"), json!([60, "base", "base", "base"])),
            "pieces.yellow",
            "6, 5, 4, 3",
        ),
        (
            "a horse on cell 1",
            two(json!("vietnamese"), json!([56, "base", "base", "base"])),
            "pieces.yellow",
            "6, 5, 4, 3",
        ),
        (
            "seats out of clockwise order",
            with(
                pos(
                    json!("qdan"),
                    json!({"yellow": base(), "blue": base(), "red": base()}),
                ),
                json!({"seats": ["yellow", "red", "blue"]}),
            ),
            "seats",
            "clockwise",
        ),
        (
            "seats out of clockwise order on the horse board",
            with(
                pos(
                    json!("vietnamese"),
                    json!({"yellow": base(), "blue": base(), "red": base()}),
                ),
                json!({"seats": ["yellow", "red", "blue"]}),
            ),
            "seats",
            "clockwise",
        ),
        (
            "the seat to act is done",
            with(
                pos(
                    json!({"rank_everyone": true}),
                    json!({"yellow": [56, 56, 56, 56], "blue": base(), "red": base()}),
                ),
                json!({"done": ["yellow"]}),
            ),
            "turn.seat",
            "done",
        ),
        (
            "a seat listed twice",
            with(
                two(json!("qdan"), base()),
                json!({"seats": ["yellow", "yellow"]}),
            ),
            "seats",
            "twice",
        ),
        (
            "a single seat",
            json!({"rules": "qdan", "seats": ["yellow"], "pieces": {"yellow": base()}, "turn": {"seat": "yellow", "phase": "roll"}}),
            "seats",
            "1 seats",
        ),
        (
            "pieces of a colour that does not play",
            with(
                two(json!("qdan"), base()),
                json!({"pieces": {"blue": base()}}),
            ),
            "pieces.blue",
            "does not play",
        ),
        (
            "phase move with no roll",
            with(
                two(json!("qdan"), json!([10, "base", "base", "base"])),
                json!({"turn": {"phase": "move", "throws": 1}}),
            ),
            "turn.roll",
            "phase move",
        ),
        (
            "a roll outside phase move",
            with(
                two(json!("qdan"), json!([10, "base", "base", "base"])),
                json!({"turn": {"roll": [3], "throws": 1}}),
            ),
            "turn.roll",
            "null",
        ),
        (
            "phase move with a throw that has no move",
            with(
                two(json!("qdan"), json!([53, 56, 56, 56])),
                json!({"turn": {"phase": "move", "roll": [4], "throws": 1}}),
            ),
            "turn.roll",
            "no legal move",
        ),
        (
            "a streak of three with three_bonus_forfeit",
            with(
                two(json!("qdan"), json!([10, "base", "base", "base"])),
                json!({"turn": {"bonus_streak": 3, "throws": 3}}),
            ),
            "turn.bonus_streak",
            "third bonus throw",
        ),
        (
            "two colours on one square that is not safe",
            with(
                two(json!("qdan"), json!([12, "base", "base", "base"])),
                json!({"pieces": {"red": [38, "base", "base", "base"]}}),
            ),
            "pieces",
            "not safe",
        ),
        (
            "unknown option",
            two(json!({"preset": "qdan", "bonus_on_sunday": true}), base()),
            "rules.bonus_on_sunday",
            "bonus_on_sunday",
        ),
        (
            "unknown option value",
            two(json!({"passing": "sometimes"}), base()),
            "rules.passing",
            "sometimes",
        ),
        (
            "unknown preset",
            two(json!("chess"), base()),
            "rules",
            "chess",
        ),
        (
            "contradictory options: dice 2 with bonus_values non-empty",
            two(json!({"preset": "vietnamese", "bonus_values": [6]}), base()),
            "rules",
            "bonus_values",
        ),
        (
            "an unknown field",
            with(two(json!("qdan"), base()), json!({"clock": 30})),
            "clock",
            "clock",
        ),
        (
            "a finished seat not listed as done",
            with(
                two(json!({"rank_everyone": true}), json!([56, 56, 56, 56])),
                json!({"seats": ["yellow", "blue", "red"], "pieces": {"blue": base()}}),
            ),
            "done",
            "yellow",
        ),
    ];
    let mut failures = Vec::new();
    for (rule, position, field, words) in rows {
        match Game::from_json(&position.to_string()) {
            Ok(_) => failures.push(format!("[{rule}] accepted: {position}")),
            Err(e) => {
                if e.field != field || !e.reason.to_string().contains(words) {
                    failures.push(format!(
                        "[{rule}] want field `{field}` saying `{words}`, got field `{}`: {}",
                        e.field, e.reason
                    ));
                }
            }
        }
    }
    report("refused positions", failures);
}

#[test]
fn unreadable_pieces_are_refused_naming_the_seat_and_index() {
    let two = |yellow: Value| pos(json!("qdan"), json!({"yellow": yellow, "red": base()}));
    let rows = [
        (
            "negative progress",
            two(json!(["base", -1, "base", "base"])),
            "pieces.yellow[1]",
        ),
        (
            "a word that is not a place",
            two(json!(["home", "base", "base", "base"])),
            "pieces.yellow[0]",
        ),
        (
            "a progress far out of range",
            two(json!(["base", "base", "base", 300])),
            "pieces.yellow[3]",
        ),
        (
            "a roll-off face that is not a number",
            json!({"rules": "classic", "seats": ["yellow", "red"], "pieces": {"yellow": base(), "red": base()},
                   "turn": {"seat": "yellow", "phase": "rolloff", "rolloff": {"yellow": "six", "red": null}}}),
            "turn.rolloff.yellow",
        ),
    ];
    let mut failures = Vec::new();
    for (rule, position, field) in rows {
        match Game::from_json(&position.to_string()) {
            Ok(_) => failures.push(format!("[{rule}] accepted")),
            Err(e) if e.field != field => {
                failures.push(format!(
                    "[{rule}] want field `{field}`, got `{}`: {}",
                    e.field, e.reason
                ));
            }
            Err(_) => {}
        }
    }
    report("unreadable pieces", failures);
}

#[test]
fn positions_that_can_occur_are_read_and_written_back_unchanged() {
    let rows: Vec<(&str, Value)> = vec![
        (
            "a preset name alone is short for the preset",
            pos(json!("classic"), json!({"yellow": base(), "red": base()})),
        ),
        (
            "own pieces stacked with stacking",
            pos(
                json!("qdan"),
                json!({"yellow": [10, 10, 56, 56], "red": base()}),
            ),
        ),
        (
            "two colours share a safe square",
            pos(
                json!("qdan"),
                json!({"yellow": [13, "base", "base", "base"], "red": [39, "base", "base", "base"]}),
            ),
        ),
        (
            "horses home on cells 6, 5, 4",
            pos(
                json!("vietnamese"),
                json!({"yellow": [61, 59, 60, "base"], "red": base()}),
            ),
        ),
        (
            "the seats listed clockwise from any seat",
            with(
                pos(
                    json!("qdan"),
                    json!({"yellow": base(), "blue": base(), "red": base(), "green": base()}),
                ),
                json!({"seats": ["red", "green", "yellow", "blue"], "turn": {"seat": "red"}}),
            ),
        ),
        (
            "missing optional fields take fresh values",
            json!({"seats": ["yellow", "red"], "pieces": {"yellow": base(), "red": base()}, "turn": {"seat": "red", "phase": "roll"}}),
        ),
        (
            "a roll-off with the first seat thrown",
            json!({"rules": "classic", "seats": ["yellow", "red"], "pieces": {"yellow": base(), "red": base()}, "turn": {"seat": "red", "phase": "rolloff", "rolloff": {"yellow": 4, "red": null}}}),
        ),
    ];
    for (rule, position) in rows {
        let g = Game::from_json(&position.to_string())
            .unwrap_or_else(|e| panic!("[{rule}] refused: {e}"));
        assert_eq!(Game::from_json(&g.to_json()), Ok(g), "[{rule}]");
    }
}
