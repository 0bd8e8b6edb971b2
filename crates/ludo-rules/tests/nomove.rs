//! Why a throw gives a piece no move (`Game::why_no_move`), one row per reason under each preset
//! that has it: a position, a throw, and the reasons written as the browser reads them.
//!
//! Squares on the cross: yellow's start is track square 0, red's 26, so a red piece at progress
//! `p` stands on square `(26 + p) mod 52`; the Ludo finish is progress 56, the horse board's home
//! cells 6, 5, 4, 3 are progress 61, 60, 59, 58.

use ludo_rules::{Colour, Game, Throw};
use serde_json::{Value, json};

/// One case: the rules, yellow's and red's pieces, yellow's bonus streak, the throw, and the
/// answer expected.
struct Row {
    rule: &'static str,
    rules: &'static str,
    yellow: Value,
    red: Value,
    streak: u8,
    throw: &'static [u8],
    why: Value,
}

/// A position in phase `roll` for yellow, against red.
fn position(row: &Row) -> Game {
    let json = json!({
        "rules": row.rules,
        "seats": ["yellow", "red"],
        "pieces": {"yellow": row.yellow, "red": row.red},
        "turn": {"seat": "yellow", "phase": "roll", "roll": null,
                 "bonus_streak": row.streak, "throws": row.streak},
        "done": [],
        "places": null
    });
    Game::from_json(&json.to_string()).unwrap_or_else(|e| panic!("{}: refused: {e}", row.rule))
}

fn base() -> Value {
    json!(["base", "base", "base", "base"])
}

fn row(
    rule: &'static str,
    rules: &'static str,
    yellow: Value,
    red: Value,
    throw: &'static [u8],
    why: Value,
) -> Row {
    Row {
        rule,
        rules,
        yellow,
        red,
        streak: 0,
        throw,
        why,
    }
}

/// Runs every row and lists every one that fails.
fn check(rows: Vec<Row>) {
    let mut failures = Vec::new();
    for row in rows {
        let game = position(&row);
        let throw = Throw::new(row.throw).unwrap();
        let got = serde_json::to_value(game.why_no_move(Colour::Yellow, throw)).unwrap();
        if got != row.why {
            failures.push(format!("{}:\n  want {}\n  got  {got}", row.rule, row.why));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The reasons of a throw that forfeits nothing.
fn pieces(pieces: Value) -> Value {
    json!({"forfeit": false, "pieces": pieces})
}

fn in_base(piece: u8, exits: &[u8], on_double: bool) -> Value {
    json!({"piece": piece, "reason": "in_base", "exit_values": exits, "exit_on_double": on_double})
}

#[test]
fn standard_rules_say_why_each_piece_cannot_move() {
    check(vec![
        row(
            "a throw that is not a 6 leaves every piece in the base",
            "qdan",
            base(),
            base(),
            &[5],
            pieces(json!([
                in_base(0, &[6], false),
                in_base(1, &[6], false),
                in_base(2, &[6], false),
                in_base(3, &[6], false),
            ])),
        ),
        row(
            "a finished piece does not move; one in the home column needs the exact count",
            "qdan",
            json!([56, 53, "base", "base"]),
            base(),
            &[5],
            pieces(json!([
                {"piece": 0, "reason": "finished"},
                {"piece": 1, "reason": "exact_count", "needs": 3},
                in_base(2, &[6], false),
                in_base(3, &[6], false),
            ])),
        ),
        row(
            "an opponent blockade cannot be passed (red 38 is square 12)",
            "qdan",
            json!([10, "base", "base", "base"]),
            json!([38, 38, "base", "base"]),
            &[4],
            pieces(json!([
                {"piece": 0, "reason": "blockade"},
                in_base(1, &[6], false),
                in_base(2, &[6], false),
                in_base(3, &[6], false),
            ])),
        ),
        row(
            "an opponent blockade cannot be landed on",
            "qdan",
            json!([10, "base", "base", "base"]),
            json!([38, 38, "base", "base"]),
            &[2],
            pieces(json!([
                {"piece": 0, "reason": "blockade"},
                in_base(1, &[6], false),
                in_base(2, &[6], false),
                in_base(3, &[6], false),
            ])),
        ),
        row(
            "a 6 cannot bring a piece out onto an opponent blockade on the start (red 26 is 0)",
            "qdan",
            json!([56, 56, 56, "base"]),
            json!([26, 26, "base", "base"]),
            &[6],
            pieces(json!([
                {"piece": 0, "reason": "finished"},
                {"piece": 1, "reason": "finished"},
                {"piece": 2, "reason": "finished"},
                {"piece": 3, "reason": "blockade"},
            ])),
        ),
        row(
            "a piece that can move has no reason",
            "qdan",
            json!([10, 53, "base", "base"]),
            base(),
            &[5],
            pieces(json!([
                {"piece": 1, "reason": "exact_count", "needs": 3},
                in_base(2, &[6], false),
                in_base(3, &[6], false),
            ])),
        ),
        Row {
            streak: 2,
            ..row(
                "the third 6 in a row ends the turn before any piece is looked at",
                "qdan",
                json!([10, "base", "base", "base"]),
                base(),
                &[6],
                json!({"forfeit": true, "pieces": []}),
            )
        },
        Row {
            streak: 2,
            ..row(
                "a third throw that is not a 6 forfeits nothing",
                "qdan",
                json!([53, "base", "base", "base"]),
                base(),
                &[4],
                pieces(json!([
                    {"piece": 0, "reason": "exact_count", "needs": 3},
                    in_base(1, &[6], false),
                    in_base(2, &[6], false),
                    in_base(3, &[6], false),
                ])),
            )
        },
    ]);
}

#[test]
fn classic_rules_say_a_lone_opponent_stands_in_the_way() {
    check(vec![row(
        "classic: no opponent piece may be passed (red 38 is square 12)",
        "classic",
        json!([10, 56, "base", "base"]),
        json!([38, "base", "base", "base"]),
        &[4],
        pieces(json!([
            {"piece": 0, "reason": "in_the_way"},
            {"piece": 1, "reason": "finished"},
            in_base(2, &[6], false),
            in_base(3, &[6], false),
        ])),
    )]);
}

#[test]
fn the_horse_board_says_why_each_horse_cannot_move() {
    check(vec![
        row(
            "horse: no 1, 6 or double leaves every horse in the stable",
            "vietnamese",
            base(),
            base(),
            &[2, 3],
            pieces(json!([
                in_base(0, &[1, 6], true),
                in_base(1, &[1, 6], true),
                in_base(2, &[1, 6], true),
                in_base(3, &[1, 6], true),
            ])),
        ),
        row(
            "horse: no horse may jump another, own or opponent",
            "vietnamese",
            json!([10, 12, 61, 60]),
            json!([44, "base", "base", "base"]), // red 44 is yellow's 16
            &[5, 6],
            pieces(json!([
                {"piece": 0, "reason": "in_the_way"},
                {"piece": 1, "reason": "in_the_way"},
                {"piece": 2, "reason": "finished"},
                {"piece": 3, "reason": "finished"},
            ])),
        ),
        row(
            "horse: no horse may land on its own, nor come out onto its own on the start",
            "vietnamese",
            json!([0, 3, 61, "base"]),
            base(),
            &[1, 2],
            pieces(json!([
                {"piece": 0, "reason": "own_piece"},
                {"piece": 2, "reason": "finished"},
                {"piece": 3, "reason": "own_piece"},
            ])),
        ),
        row(
            "horse: home is the deepest free cell (4, progress 59), reached by the exact total",
            "vietnamese",
            json!([52, 61, "base", 60]),
            base(),
            &[2, 3],
            pieces(json!([
                {"piece": 0, "reason": "exact_count", "needs": 7},
                {"piece": 1, "reason": "finished"},
                in_base(2, &[1, 6], true),
                {"piece": 3, "reason": "finished"},
            ])),
        ),
        row(
            "horse: a total beyond home cell 6 is no move",
            "vietnamese",
            json!([55, "base", "base", "base"]),
            base(),
            &[3, 4],
            pieces(json!([
                {"piece": 0, "reason": "exact_count", "needs": 6},
                in_base(1, &[1, 6], true),
                in_base(2, &[1, 6], true),
                in_base(3, &[1, 6], true),
            ])),
        ),
    ]);
}
