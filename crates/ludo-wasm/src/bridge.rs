//! The operations the browser calls, JSON in and JSON out, with no WebAssembly in sight: the
//! exports in `lib.rs` only move bytes.

use ludo_bots::{Level, Rng};
use ludo_fair::Record;
use ludo_rules::{
    Act, Colour, Fault, Game, Phase, PlayError, PositionError, PositionFault, Rules, Throw,
};
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
///
/// Every operation's error is `{"error": sentence, "code", "params"}`: the English sentence is for
/// logs, the stable code (`ludo_rules::all_codes`, a record's `VerifyError::CODES` or an
/// analysis's `AnalysisError::CODES`) and its
/// values are for the page to say it in its reader's words. An error about an option (a
/// contradiction) also names it as `option`.
pub const RULES: u32 = 10;
/// One of the `expert` CPU's networks, as bytes (`/expert/<name>.bin`, which says what game it
/// is for), not JSON → `{"ok": true}`. Until it is installed, `expert` plays that game as `hard`
/// here (see `ludo_bots::expert`).
pub const EXPERT: u32 = 11;
/// `{"position", "dice": [..]}` → why the throw gives the pieces of the seat to act no move:
/// `{"forfeit": bool, "pieces": [{"piece", "reason", …}]}`, one entry for each piece that cannot
/// move (see `ludo_rules::Refusal` for the reasons and their values). The position is the one
/// the throw was made in (phase `roll`, where a throw that forfeits the turn says so), or one in
/// phase `move`.
pub const WHY_NO_MOVE: u32 = 12;
/// A game's record (`{"rules", "seats", "actions"}`; its other fields, such as `game_id`, `seed`
/// or `players`, are ignored, so records go in as the server and local games export them), with
/// `"from"` and `"to"` (optional: the whole game) → its analysis by the `expert` CPU's network
/// over the actions `from..to`, chances rounded to 4 decimals (see `ludo_bots::analysis` and
/// `Analysis::to_json`):
/// `{"chances": [[yellow, blue, red, green], …], "start", "choices": [{"action", "seat",
/// "played", "best", "played_chance", "best_chance", "worst_chance"}, …]}`, `chances[k]` being
/// each seat's chance to win (in the record's seat order) after `start + k` actions. An analysis
/// from 0 to the end also has `"turning_points": [{"action", "seat", "before", "after"}, …]`,
/// `"costly"` (choices) and `"summary": {seat: {"best", "costliest"}}` (actions, or null).
///
/// Errors: `analysis_unavailable` for a game the network does not know (anything but `qdan`
/// without house rules with four seats), then `no_network` until [`EXPERT`] installs it; an
/// action the rules refuse answers the engine's code with its `index`.
///
/// Only in a module built with the `analysis` feature (on by default): the page's engine,
/// `/engine.wasm`, is built without it, so that every page's first load does not carry it, and
/// answers "unknown operation"; `/analysis.wasm`, fetched when a game is first analysed, has it.
pub const ANALYSE: u32 = 13;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewArgs {
    #[serde(default)]
    rules: Option<Value>,
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

/// An error answer: the sentence, the code, the values, and the option they speak of if any.
fn fault(e: &impl Fault) -> Value {
    answer(e.to_string(), e.code(), e.params())
}

/// [`fault`]'s answer, written once for every kind of error (and without `json!`, which would
/// serialise each value again): the module is smaller so.
#[inline(never)]
fn answer(error: String, code: &str, params: Value) -> Value {
    let mut answer = serde_json::Map::new();
    if let Some(option) = params.get("option") {
        answer.insert("option".to_owned(), option.clone());
    }
    answer.insert("error".to_owned(), error.into());
    answer.insert("code".to_owned(), code.into());
    answer.insert("params".to_owned(), params);
    Value::Object(answer)
}

/// The error answer for a request that does not read.
fn unreadable(detail: impl std::fmt::Display) -> Value {
    let detail = detail.to_string();
    fault(&PositionError::new(
        "",
        PositionFault::Unreadable { detail },
    ))
}

fn parse<T: for<'de> Deserialize<'de>>(input: &str) -> Result<T, Value> {
    serde_json::from_str(input).map_err(unreadable)
}

/// Field `name` of a request, taken out of it and read.
#[cfg(feature = "analysis")]
fn field<T: for<'de> Deserialize<'de>>(request: &mut Value, name: &str) -> Result<T, Value> {
    let value = request.get_mut(name).map(Value::take);
    serde_json::from_value(value.unwrap_or_default()).map_err(unreadable)
}

/// [`ANALYSE`]: a record's analysis over the actions its request names.
#[cfg(feature = "analysis")]
fn analyse(input: &str) -> Result<Value, Value> {
    use ludo_bots::expert::{Model, network};
    let mut request: Value = parse(input)?;
    let rules = rules(&request["rules"])?;
    let seats: Vec<Colour> = field(&mut request, "seats")?;
    let actions: Vec<ludo_fair::Action> = field(&mut request, "actions")?;
    let at = |name| {
        request
            .get(name)
            .and_then(Value::as_u64)
            .map(|n| n as usize)
    };
    let range = at("from").unwrap_or(0)..at("to").unwrap_or(usize::MAX);
    let net = network(&rules, seats.len(), Model::Medium);
    ludo_bots::analyse(rules, &seats, &actions, net, range)
        .map(|analysis| analysis.to_json())
        .map_err(|e| fault(&e))
}

fn game(position: &Value) -> Result<Game, Value> {
    Game::from_json(&position.to_string()).map_err(|e| fault(&e))
}

/// A ruleset as JSON, checked: a contradiction answers its own code and option.
fn rules(json: &Value) -> Result<Rules, Value> {
    Rules::check_json(&json.to_string()).map_err(|e| match e {
        Ok(contradiction) => fault(&contradiction),
        Err(message) => unreadable(message),
    })
}

fn position(game: &Game) -> Value {
    serde_json::to_value(game.to_setup()).expect("positions serialise")
}

/// Runs operation `op` on `input`: `{"ok": …}`, or an error (see [`RULES`]).
pub fn call(op: u32, input: &str) -> Value {
    match run(op, input) {
        Ok(value) => json!({ "ok": value }),
        Err(error) => error,
    }
}

/// Installs the `expert` CPU's network from its bytes ([`EXPERT`]).
pub fn install_expert(bytes: &[u8]) -> Value {
    match ludo_bots::expert::install(bytes) {
        Ok(_) => json!({ "ok": true }),
        Err(e) => unreadable(e),
    }
}

/// The answer for a request that is not UTF-8.
pub fn not_utf8() -> Value {
    unreadable("the request is not UTF-8")
}

fn run(op: u32, input: &str) -> Result<Value, Value> {
    match op {
        RULES => Ok(json!(rules(&parse(input)?)?)),
        NEW => {
            let args: NewArgs = parse(input)?;
            let rules = args.rules.as_ref().map(rules).transpose()?;
            let g = Game::new(rules.unwrap_or_default(), &args.seats).map_err(|e| fault(&e))?;
            Ok(position(&g))
        }
        ROLL => {
            let args: RollArgs = parse(input)?;
            let mut g = game(&args.position)?;
            let throw = Throw::new(&args.dice).map_err(|e| fault(&e))?;
            g.roll(throw).map_err(|e| fault(&e))?;
            Ok(position(&g))
        }
        LEGAL => {
            let g = game(&parse(input)?)?;
            Ok(serde_json::to_value(g.legal_moves()).expect("moves serialise"))
        }
        WHY_NO_MOVE => {
            let args: RollArgs = parse(input)?;
            let g = game(&args.position)?;
            let throw = Throw::new(&args.dice).map_err(|e| fault(&e))?;
            let phase = g.phase();
            if !matches!(phase, Phase::Roll | Phase::Move) {
                return Err(fault(&PlayError::WrongPhase {
                    wanted: Act::Throw,
                    phase,
                }));
            }
            let wanted = g.options().dice;
            if throw.dice() != wanted {
                let given = throw.dice();
                return Err(fault(&PlayError::WrongDice { wanted, given }));
            }
            Ok(json!(g.why_no_move(g.seat(), throw)))
        }
        MOVE => {
            let args: MoveArgs = parse(input)?;
            let mut g = game(&args.position)?;
            let played = g.play(args.piece).map_err(|e| fault(&e))?;
            Ok(json!({ "position": position(&g), "move": played }))
        }
        BOT => {
            let args: BotArgs = parse(input)?;
            let g = game(&args.position)?;
            let level: Level = args.level.parse().map_err(unreadable)?;
            let moves = g.legal_moves();
            if moves.is_empty() {
                let phase = g.phase();
                return Err(fault(&PlayError::WrongPhase {
                    wanted: Act::Move,
                    phase,
                }));
            }
            let choice = level.player().choose(&g, &moves, &mut Rng::new(args.seed));
            Ok(serde_json::to_value(choice).expect("moves serialise"))
        }
        VERIFY => {
            let value: Value = parse(input)?;
            if let Some(json) = value.get("rules") {
                rules(json)?;
            }
            let record: Record = serde_json::from_value(value).map_err(unreadable)?;
            let end = record.verify().map_err(|e| fault(&e))?;
            Ok(json!({ "verified": true, "position": position(&end) }))
        }
        #[cfg(feature = "analysis")]
        ANALYSE => analyse(input),
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
        _ => Err(unreadable(format!("unknown operation {op}"))),
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
    fn why_a_throw_gives_no_move_is_answered_piece_by_piece() {
        let start = call(NEW, r#"{"seats": ["yellow", "red"]}"#)["ok"].clone();
        let mut position = start.clone();
        position["pieces"]["yellow"] = json!([53, 10, "base", "base"]);
        position["pieces"]["red"] = json!([38, 38, "base", "base"]);
        let why = call(
            WHY_NO_MOVE,
            &json!({"position": position, "dice": [4]}).to_string(),
        );
        assert_eq!(
            why["ok"],
            json!({"forfeit": false, "pieces": [
                {"piece": 0, "reason": "exact_count", "needs": 3},
                {"piece": 1, "reason": "blockade"},
                {"piece": 2, "reason": "in_base", "exit_values": [6], "exit_on_double": false},
                {"piece": 3, "reason": "in_base", "exit_values": [6], "exit_on_double": false},
            ]})
        );
        let two_dice = call(
            WHY_NO_MOVE,
            &json!({"position": start, "dice": [2, 3]}).to_string(),
        );
        assert_coded(&two_dice, "wrong_dice");
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
        assert!(unreadable["error"].is_string() && unreadable.get("option").is_none());
        assert_eq!(unreadable["code"], "unreadable");
    }

    /// Every error answer has the English sentence, a code from the engine's lists and params.
    fn assert_coded(answer: &Value, code: &str) {
        assert!(answer["error"].is_string(), "{answer}");
        assert_eq!(answer["code"], code, "{answer}");
        assert!(answer["params"].is_object(), "{answer}");
        assert!(
            ludo_rules::all_codes().contains(&code)
                || ludo_fair::VerifyError::CODES.contains(&code)
                || ludo_bots::AnalysisError::CODES.contains(&code),
            "{code}"
        );
    }

    #[test]
    fn every_engine_error_answers_its_code_and_the_values_it_speaks_of() {
        let start = call(NEW, r#"{"seats": ["yellow", "red"]}"#)["ok"].clone();
        let early_move = call(MOVE, &json!({"position": start, "piece": 0}).to_string());
        assert_coded(&early_move, "wrong_phase");
        assert_eq!(
            early_move["params"],
            json!({"action": "move", "phase": "roll"})
        );
        let two_dice = call(
            ROLL,
            &json!({"position": start, "dice": [6, 6]}).to_string(),
        );
        assert_coded(&two_dice, "wrong_dice");
        assert_eq!(two_dice["params"], json!({"wanted": 1, "given": 2}));
        let seven = call(ROLL, &json!({"position": start, "dice": [7]}).to_string());
        assert_coded(&seven, "face");
        assert_eq!(seven["params"]["face"], 7);
        let five_seats = call(
            NEW,
            r#"{"seats": ["yellow", "blue", "red", "green", "yellow"]}"#,
        );
        assert_coded(&five_seats, "seat_count");
        assert_eq!(five_seats["params"], json!({"field": "seats", "count": 5}));
        let mut three = start.clone();
        three["pieces"]["red"] = json!([3, "base", "base"]);
        let three = call(LEGAL, &three.to_string());
        assert_coded(&three, "piece_count");
        assert_eq!(three["params"], json!({"field": "pieces.red", "count": 3}));
        assert_coded(&call(99, "{}"), "unreadable");
    }

    #[test]
    fn contradictory_rules_in_a_position_or_a_new_game_answer_the_option_at_fault() {
        let rules = json!({"preset": "vietnamese", "exact_finish": false});
        let new = call(
            NEW,
            &json!({"rules": rules, "seats": ["yellow", "red"]}).to_string(),
        );
        assert_coded(&new, "horse_inexact_finish");
        assert_eq!(new["option"], "exact_finish");
        let mut position = call(NEW, r#"{"seats": ["yellow", "red"]}"#)["ok"].clone();
        position["rules"] = rules;
        let saved = call(LEGAL, &position.to_string());
        assert_coded(&saved, "horse_inexact_finish");
        assert_eq!(
            saved["params"],
            json!({"field": "rules", "option": "exact_finish"})
        );
    }

    #[test]
    fn a_record_that_does_not_verify_answers_the_action_at_fault() {
        let record = json!({
            "game_id": "g", "rules": "classic", "seats": ["yellow", "red"],
            "commitment": "0".repeat(64), "seed": "1".repeat(64), "actions": []
        });
        assert_coded(&call(VERIFY, &record.to_string()), "commitment");
        let seed = ludo_fair::Seed::from_bytes([1; 32]);
        let record = json!({
            "game_id": "g", "rules": "classic", "seats": ["yellow", "red"],
            "commitment": seed.commitment(), "seed": seed.to_hex(), "actions": [{"move": 0}]
        });
        let illegal = call(VERIFY, &record.to_string());
        assert_coded(&illegal, "wrong_phase");
        assert_eq!(illegal["params"]["index"], 0);
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

    #[test]
    fn a_record_as_exported_is_analysed_whole_or_in_part() {
        let record: Value =
            serde_json::from_str(include_str!("../../ludo-bots/tests/data/game.json")).unwrap();
        let whole = call(ANALYSE, &record.to_string());
        let whole = &whole["ok"];
        assert_eq!(whole["start"], 0);
        assert_eq!(whole["chances"].as_array().unwrap().len(), 534);
        assert_eq!(whole["chances"][0], json!([0.2574, 0.2475, 0.2475, 0.2475]));
        assert_eq!(whole["costly"][0]["action"], 340);
        assert_eq!(whole["turning_points"].as_array().unwrap().len(), 5);
        assert_eq!(
            whole["summary"]["red"],
            json!({"best": 434, "costliest": 391})
        );
        let mut part = record.clone();
        part["from"] = json!(100);
        part["to"] = json!(200);
        let part = &call(ANALYSE, &part.to_string())["ok"];
        assert_eq!(part["start"], 101);
        assert_eq!(part["chances"][0], whole["chances"][101]);
        assert!(part.get("summary").is_none());
    }

    #[test]
    fn a_game_the_network_does_not_know_or_an_illegal_action_is_not_analysed() {
        let game = |rules: Value, seats: Value, actions: Value| {
            let request = json!({"rules": rules, "seats": seats, "actions": actions});
            call(ANALYSE, &request.to_string())
        };
        let four = json!(["yellow", "blue", "red", "green"]);
        let house = json!({"preset": "classic", "stacking": false});
        let house = game(house, four.clone(), json!([]));
        assert_coded(&house, "analysis_unavailable");
        let illegal = game(json!("qdan"), four, json!([{"throw": [6]}, {"throw": [6]}]));
        assert_coded(&illegal, "wrong_phase");
        assert_eq!(illegal["params"]["index"], 1);
        let contradiction = json!({"preset": "vietnamese", "exact_finish": false});
        let contradiction = game(contradiction, json!(["yellow", "red"]), json!([]));
        assert_coded(&contradiction, "horse_inexact_finish");
    }

    #[test]
    fn the_experts_network_is_installed_from_its_bytes_and_anything_else_refused() {
        assert!(install_expert(b"{}")["error"].is_string());
        let bytes = include_bytes!("../../ludo-bots/src/expert/networks/qdan-4.bin");
        assert_eq!(install_expert(bytes), json!({ "ok": true }));
    }
}
