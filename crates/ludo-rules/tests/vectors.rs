//! The rules vectors (`tests/data/*.jsonl`, `position.md` §4), run through the library API.
//!
//! Beyond what a vector says, this front checks at every step what the library promises of its
//! own: every position it writes reads back as the same game, and the moves a throw offers are
//! the legal moves of the position it leaves in phase `move`.

mod support {
    pub mod vectors;
}

use ludo_rules::{Fault, Game, Phase, Throw};
use serde_json::{Value, json};
use support::vectors::{Engine, Refusal, run_files};

struct Library;

fn refusal(e: impl Fault + std::fmt::Display) -> Refusal {
    Refusal {
        message: e.to_string(),
        fault: Some(json!({ "code": e.code(), "params": e.params() })),
    }
}

/// The game in `position`, checked to write a position that reads back as the same game.
fn game_of(position: &Value) -> Result<Game, Refusal> {
    let game = Game::from_json(&position.to_string()).map_err(refusal)?;
    written(&game)?;
    Ok(game)
}

/// The position `game` writes, which must read back as the same game.
fn written(game: &Game) -> Result<Value, Refusal> {
    let json = game.to_json();
    match Game::from_json(&json) {
        Ok(back) if back == *game => {}
        Ok(_) => return Err(Refusal::said(format!("{json} reads back differently"))),
        Err(e) => return Err(Refusal::said(format!("{json} does not read back: {e}"))),
    }
    Ok(serde_json::from_str(&json).expect("a written position is JSON"))
}

/// The board's numbers, as the page's engine answers `board`.
fn board(game: &Game) -> Value {
    let geometry = game.geometry();
    let safe: Vec<u8> = (0..geometry.track_len())
        .filter(|&s| geometry.is_safe(s))
        .collect();
    let starts: Vec<u8> = (0..geometry.arms())
        .map(|a| geometry.start_square(a))
        .collect();
    let seat_arms: serde_json::Map<String, Value> = game
        .seats()
        .iter()
        .map(|&s| (s.name().to_owned(), json!(game.arm(s))))
        .collect();
    json!({
        "board": geometry.board(),
        "arms": geometry.arms(),
        "arm_len": geometry.arm_len(),
        "track_len": geometry.track_len(),
        "door": geometry.door(),
        "last": geometry.last(),
        "starts": starts,
        "safe": safe,
        "finished_from": geometry.finished_from(),
        "seat_arms": seat_arms,
    })
}

impl Engine for Library {
    fn act(&mut self, position: &Value, action: &[Value]) -> Result<Value, Refusal> {
        let mut game = game_of(position)?;
        let numbers: Vec<u8> = action[1..]
            .iter()
            .map(|v| {
                v.as_u64()
                    .and_then(|n| u8::try_from(n).ok())
                    .ok_or(Refusal::said("a number"))
            })
            .collect::<Result<_, _>>()?;
        match action[0].as_str() {
            Some("roll") => {
                let throw = Throw::new(&numbers).map_err(refusal)?;
                let offered = game.roll(throw).map_err(refusal)?;
                let legal = game.legal_moves();
                let offered_is_legal = if game.phase() == Phase::Move {
                    offered.iter().eq(legal.iter())
                } else {
                    offered.is_empty()
                };
                if !offered_is_legal {
                    return Err(Refusal::said(format!(
                        "the throw offered {:?}, the position left has {:?}",
                        offered.iter().collect::<Vec<_>>(),
                        legal.iter().collect::<Vec<_>>()
                    )));
                }
            }
            Some("move") => {
                game.play(numbers[0]).map_err(refusal)?;
            }
            other => return Err(Refusal::said(format!("unknown action {other:?}"))),
        }
        written(&game)
    }

    fn legal(&mut self, position: &Value) -> Result<Value, Refusal> {
        let game = game_of(position)?;
        Ok(serde_json::to_value(game.legal_moves()).expect("moves serialise"))
    }

    fn read(&mut self, position: &Value) -> Option<Result<Value, Refusal>> {
        Some(
            game_of(position)
                .map(|game| json!({ "options": game.options(), "board": board(&game) })),
        )
    }
}

#[test]
fn every_rules_vector_passes_through_the_library() {
    let counts = run_files(&mut Library);
    eprintln!("{counts:?}");
    assert!(counts[0].1 >= 62, "only {counts:?} vectors ran");
}
