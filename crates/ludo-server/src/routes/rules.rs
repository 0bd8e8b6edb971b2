//! `/api/rules`: the presets and the options each stands for, as the settings screens show them,
//! and the server's own figures a client needs: the quick phrases, the turn clocks a room may
//! have and how long a display name may be.

use axum::routing::get;
use axum::{Json, Router};
use ludo_rules::Preset;
use serde_json::{Value, json};

use crate::AppState;
use crate::protocol::{CLOCKS, NAME_MAX_CHARS, PHRASES};

/// The rules route.
pub fn router() -> Router<AppState> {
    Router::new().route("/api/rules", get(|| async { Json(presets()) }))
}

/// Every preset with its options, default preset first, and the values each option can take;
/// the quick phrases' ids, the turn clocks a room may have (in seconds, `null` for none) and the
/// most characters a display name may have, each the very figure the server holds to.
fn presets() -> Value {
    let presets: Vec<Value> = Preset::ALL
        .iter()
        .map(|p| json!({ "preset": p.name(), "options": p.options() }))
        .collect();
    json!({
        "default": Preset::default().name(),
        "presets": presets,
        "choices": choices(),
        "phrases": PHRASES,
        "clocks": CLOCKS,
        "name_max_chars": NAME_MAX_CHARS,
    })
}

/// The values each option of `rules.md` §3 can take, as the settings offer them.
fn choices() -> Value {
    let faces = json!([[6], [1, 6], [5, 6], [1, 5, 6], []]);
    let yes_no = json!([true, false]);
    json!({
        "board": ["ludo", "horse"],
        "layout": ["cross", "by_players"],
        "dice": [1, 2],
        "exit_values": faces,
        "exit_on_double": yes_no,
        "bonus_values": faces,
        "bonus_on_double": yes_no,
        "three_bonus_forfeit": yes_no,
        "bonus_on_capture": yes_no,
        "bonus_on_finish": yes_no,
        "bonus_if_no_move": yes_no,
        "no_piece_out": ["roll", "auto_exit", "three_tries"],
        "safe": ["starts_and_stars", "starts", "none"],
        "passing": ["blockades", "free", "opponents", "any"],
        "stacking": yes_no,
        "exact_finish": yes_no,
        "rank_everyone": yes_no,
        "first_player": ["seat_order", "highest_roll"],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ludo_rules::Rules;

    #[test]
    fn every_choice_is_a_value_the_rules_accept() {
        let choices = choices();
        for (option, values) in choices.as_object().unwrap() {
            for value in values.as_array().unwrap() {
                let rules = json!({ "preset": "qdan", option: value });
                // A value may contradict qdan's other options (two dice, say); it must still
                // be a value of the option, which the error would otherwise name as unknown.
                if let Err(e) = serde_json::from_value::<Rules>(rules) {
                    let message = e.to_string();
                    assert!(
                        !message.contains("unknown") && !message.contains("invalid type"),
                        "{option} = {value}: {message}"
                    );
                }
            }
        }
        let preset = Preset::Qdan.options();
        let options = serde_json::to_value(preset).unwrap();
        let names: Vec<&String> = options.as_object().unwrap().keys().collect();
        let offered: Vec<&String> = choices.as_object().unwrap().keys().collect();
        assert_eq!(names, offered, "every option is offered");
    }
}
