//! The operations the browser calls, JSON in and JSON out, with no WebAssembly in sight: the
//! exports in `lib.rs` only move bytes.

use ludo_bots::{Level, Rng};
use ludo_fair::Record;
use ludo_rules::{Colour, Game, Rules, Throw};
use serde::Deserialize;
use serde_json::{Value, json};

/// What each operation number does.
pub const NEW: u32 = 1;
/// `{"position", "dice": [..]}` → the next position.
pub const ROLL: u32 = 2;
/// A position → its legal moves.
pub const LEGAL: u32 = 3;
/// `{"position", "piece"}` → the next position.
pub const MOVE: u32 = 4;
/// `{"position", "level", "seed"}` → the move the CPU player chooses.
pub const BOT: u32 = 5;
/// A game record → its verification.
pub const VERIFY: u32 = 6;
/// A position → how many dice its seat throws now (one in a roll-off).
pub const DICE: u32 = 7;
/// A position → its board, for drawing: kind, arms, squares, door, the arms' starts, safe squares,
/// the lowest finished progress and each seat's arm.
pub const BOARD: u32 = 8;
/// A position → every option in force (the preset's values with the overrides applied).
pub const OPTIONS: u32 = 9;
/// Checks a ruleset (a preset name, or a preset and options): the rules back as they are written,
/// or an error whose `code` and `option` say which options contradict each other.
pub const RULES: u32 = 10;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewArgs {
    #[serde(default)]
    rules: Rules,
    seats: Vec<Colour>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RollArgs {
    position: Value,
    dice: Vec<u8>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveArgs {
    position: Value,
    piece: u8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BotArgs {
    position: Value,
    level: String,
    seed: u64,
}

fn parse<T: for<'de> Deserialize<'de>>(input: &str) -> Result<T, String> {
    serde_json::from_str(input).map_err(|e| e.to_string())
}

fn game(position: &Value) -> Result<Game, String> {
    Game::from_json(&position.to_string()).map_err(|e| e.to_string())
}

fn position(game: &Game) -> Value {
    serde_json::to_value(game.to_setup()).expect("positions serialise")
}

/// Runs operation `op` on `input`: `{"ok": …}` or `{"error": "…"}`.
pub fn call(op: u32, input: &str) -> Value {
    if op == RULES {
        return check_rules(input);
    }
    match run(op, input) {
        Ok(value) => json!({ "ok": value }),
        Err(error) => json!({ "error": error }),
    }
}

/// `{"ok": rules}`, or `{"error", "code", "option"}` for a contradiction (`{"error"}` alone for
/// JSON that is not a ruleset).
fn check_rules(input: &str) -> Value {
    match ludo_rules::Rules::check_json(input) {
        Ok(rules) => json!({ "ok": rules }),
        Err(Ok(contradiction)) => json!({
            "error": contradiction.to_string(),
            "code": contradiction.code(),
            "option": contradiction.option(),
        }),
        Err(Err(message)) => json!({ "error": message }),
    }
}

fn run(op: u32, input: &str) -> Result<Value, String> {
    match op {
        NEW => {
            let args: NewArgs = parse(input)?;
            Ok(position(
                &Game::new(args.rules, &args.seats).map_err(|e| e.to_string())?,
            ))
        }
        ROLL => {
            let args: RollArgs = parse(input)?;
            let mut g = game(&args.position)?;
            let throw = Throw::new(&args.dice).map_err(|e| e.to_string())?;
            g.roll(throw).map_err(|e| e.to_string())?;
            Ok(position(&g))
        }
        LEGAL => {
            let g = game(&parse(input)?)?;
            Ok(serde_json::to_value(g.legal_moves()).expect("moves serialise"))
        }
        MOVE => {
            let args: MoveArgs = parse(input)?;
            let mut g = game(&args.position)?;
            let played = g.play(args.piece).map_err(|e| e.to_string())?;
            Ok(json!({ "position": position(&g), "move": played }))
        }
        BOT => {
            let args: BotArgs = parse(input)?;
            let g = game(&args.position)?;
            let level: Level = args.level.parse()?;
            let moves = g.legal_moves();
            if moves.is_empty() {
                return Err(format!("no move to choose in phase {}", g.phase()));
            }
            let choice = level.player().choose(&g, &moves, &mut Rng::new(args.seed));
            Ok(serde_json::to_value(choice).expect("moves serialise"))
        }
        VERIFY => {
            let record: Record = parse(input)?;
            let end = record.verify().map_err(|e| e.to_string())?;
            Ok(json!({ "verified": true, "position": position(&end) }))
        }
        DICE => Ok(json!(game(&parse(input)?)?.dice_to_throw())),
        OPTIONS => {
            let g = game(&parse(input)?)?;
            Ok(json!({ "preset": g.rules().preset_name(), "options": g.options() }))
        }
        BOARD => {
            let g = game(&parse(input)?)?;
            let geometry = g.geometry();
            let safe: Vec<u8> = (0..geometry.track_len())
                .filter(|&s| geometry.is_safe(s))
                .collect();
            let starts: Vec<u8> = (0..geometry.arms())
                .map(|a| geometry.start_square(a))
                .collect();
            let arms: serde_json::Map<String, Value> = g
                .seats()
                .iter()
                .map(|&s| (s.name().to_owned(), json!(g.arm(s))))
                .collect();
            Ok(json!({
                "board": geometry.board(),
                "arms": geometry.arms(),
                "arm_len": geometry.arm_len(),
                "track_len": geometry.track_len(),
                "door": geometry.door(),
                "last": geometry.last(),
                "starts": starts,
                "safe": safe,
                "finished_from": geometry.finished_from(),
                "seat_arms": arms,
            }))
        }
        _ => Err(format!("unknown operation {op}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_is_started_rolled_and_moved_through_json() {
        let start = call(NEW, r#"{"seats": ["yellow", "red"]}"#);
        let position = &start["ok"];
        assert_eq!(position["turn"]["phase"], "roll");
        assert_eq!(call(DICE, &position.to_string())["ok"], 1);
        let board = &call(BOARD, &position.to_string())["ok"];
        assert_eq!(
            (board["board"].as_str(), board["track_len"].as_u64()),
            (Some("ludo"), Some(52))
        );
        assert_eq!(board["seat_arms"]["red"], 2);
        let options = &call(OPTIONS, &position.to_string())["ok"];
        assert_eq!(options["options"]["passing"], "blockades");
        let rolled = call(
            ROLL,
            &json!({"position": position, "dice": [6]}).to_string(),
        );
        let position = &rolled["ok"];
        assert_eq!(position["turn"]["phase"], "move");
        assert_eq!(
            call(LEGAL, &position.to_string())["ok"]
                .as_array()
                .unwrap()
                .len(),
            4
        );
        let choice = call(
            BOT,
            &json!({"position": position, "level": "medium", "seed": 1}).to_string(),
        );
        let piece = choice["ok"]["piece"].as_u64().unwrap();
        let moved = call(
            MOVE,
            &json!({"position": position, "piece": piece}).to_string(),
        );
        assert_eq!(moved["ok"]["position"]["turn"]["seat"], "yellow");
    }

    #[test]
    fn boards_by_players_are_drawn_from_two_or_three_arms_of_13_squares() {
        let board = |seats: &str| {
            let start = call(
                NEW,
                &format!(
                    r#"{{"rules": {{"preset": "qdan", "layout": "by_players"}}, "seats": {seats}}}"#
                ),
            );
            call(BOARD, &start["ok"].to_string())["ok"].clone()
        };
        let two = board(r#"["yellow", "red"]"#);
        assert_eq!(
            (
                two["arms"].as_u64(),
                two["track_len"].as_u64(),
                two["door"].as_u64()
            ),
            (Some(2), Some(26), Some(24))
        );
        assert_eq!(two["starts"], json!([0, 13]));
        assert_eq!(two["safe"], json!([0, 8, 13, 21]));
        assert_eq!(two["finished_from"], 30);
        assert_eq!(
            (
                two["seat_arms"]["yellow"].as_u64(),
                two["seat_arms"]["red"].as_u64()
            ),
            (Some(0), Some(1))
        );
        let three = board(r#"["yellow", "blue", "red"]"#);
        assert_eq!(
            (three["arms"].as_u64(), three["track_len"].as_u64()),
            (Some(3), Some(39))
        );
        assert_eq!(three["starts"], json!([0, 13, 26]));
        assert_eq!(three["seat_arms"]["red"], 2);
        let horse = call(
            NEW,
            r#"{"rules": "vietnamese", "seats": ["yellow", "red"]}"#,
        );
        let horse = &call(BOARD, &horse["ok"].to_string())["ok"];
        assert_eq!(
            (horse["finished_from"].as_u64(), horse["last"].as_u64()),
            (Some(56), Some(61))
        );
    }

    #[test]
    fn contradictory_rules_answer_a_code_and_the_option_at_fault() {
        let answer = call(RULES, r#"{"preset": "vietnamese", "exact_finish": false}"#);
        assert_eq!(answer["code"], "horse_inexact_finish");
        assert_eq!(answer["option"], "exact_finish");
        assert!(answer["error"].is_string());
        assert_eq!(call(RULES, r#""classic""#)["ok"]["preset"], "classic");
        let unreadable = call(RULES, "{");
        assert!(unreadable["error"].is_string() && unreadable.get("code").is_none());
    }

    #[test]
    fn bad_input_answers_an_error_naming_it() {
        assert!(call(NEW, "{").get("error").is_some());
        assert!(call(ROLL, r#"{"position": {}, "dice": [6]}"#)["error"].is_string());
        let start = call(NEW, r#"{"seats": ["yellow", "red"]}"#);
        let bad = call(
            MOVE,
            &json!({"position": start["ok"], "piece": 0}).to_string(),
        );
        assert!(bad["error"].as_str().unwrap().contains("phase"));
        assert!(call(99, "{}")["error"].as_str().unwrap().contains("99"));
    }
}
