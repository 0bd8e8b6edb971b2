//! The shared rules vectors, run through the library API.

mod support {
    pub mod vectors;
}

use ludo_rules::{Game, Throw};
use serde_json::Value;
use support::vectors::{Engine, run_all};

struct Library;

fn game_of(position: &Value) -> Result<Game, String> {
    Game::from_json(&position.to_string()).map_err(|e| e.to_string())
}

impl Engine for Library {
    fn act(&mut self, position: &Value, action: &[Value]) -> Result<Value, String> {
        let mut game = game_of(position)?;
        let numbers: Vec<u8> = action[1..]
            .iter()
            .map(|v| {
                v.as_u64()
                    .and_then(|n| u8::try_from(n).ok())
                    .ok_or("a number")
            })
            .collect::<Result<_, _>>()?;
        match action[0].as_str() {
            Some("roll") => {
                let throw = Throw::new(&numbers).map_err(|e| e.to_string())?;
                game.roll(throw).map_err(|e| e.to_string())?;
            }
            Some("move") => {
                game.play(numbers[0]).map_err(|e| e.to_string())?;
            }
            other => return Err(format!("unknown action {other:?}")),
        }
        serde_json::from_str(&game.to_json()).map_err(|e| e.to_string())
    }

    fn legal(&mut self, position: &Value) -> Result<Value, String> {
        let game = game_of(position)?;
        serde_json::to_value(game.legal_moves()).map_err(|e| e.to_string())
    }
}

#[test]
fn every_shared_vector_passes_through_the_library() {
    let count = run_all(&mut Library, include_str!("data/rules.jsonl"));
    assert!(count >= 62, "only {count} vectors ran");
}
