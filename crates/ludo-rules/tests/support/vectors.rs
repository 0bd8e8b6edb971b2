//! Runs the shared rules vectors (`position.md` §4) against any front of the engine: the library
//! itself, or the `ludo` binary. Included by path from the tests of both crates.

use serde_json::Value;

/// A front of the engine that takes positions and actions as JSON.
pub trait Engine {
    /// Applies `action` (`["roll", 6]`, `["move", 2]`) to `position`; the next position, or the
    /// refusal's message.
    fn act(&mut self, position: &Value, action: &[Value]) -> Result<Value, String>;
    /// The legal moves of `position`, or the refusal's message.
    fn legal(&mut self, position: &Value) -> Result<Value, String>;
}

/// The vector files' cases, one JSON object a line.
pub fn cases(jsonl: &str) -> Vec<Value> {
    jsonl
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("every vector line is JSON"))
        .collect()
}

/// Checks that every field of `want` is in `got` with the same value.
fn partial(want: &Value, got: &Value, path: &str) -> Result<(), String> {
    match (want, got) {
        (Value::Object(w), Value::Object(g)) => w.iter().try_for_each(|(k, v)| match g.get(k) {
            None => Err(format!("{path}.{k}: missing")),
            Some(gv) => partial(v, gv, &format!("{path}.{k}")),
        }),
        (Value::Object(_), _) => Err(format!("{path}: want an object, got {got}")),
        _ if want == got => Ok(()),
        _ => Err(format!("{path}: want {want}, got {got}")),
    }
}

fn moves_of(legal: &Value) -> Vec<(i64, i64)> {
    let mut pairs: Vec<(i64, i64)> = legal
        .as_array()
        .into_iter()
        .flatten()
        .map(|m| {
            (
                m["piece"].as_i64().unwrap_or(-1),
                m["to"].as_i64().unwrap_or(-1),
            )
        })
        .collect();
    pairs.sort_unstable();
    pairs
}

fn captures_of(m: &Value) -> Vec<(String, i64)> {
    let mut caps: Vec<(String, i64)> = m["captures"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| {
            (
                c["seat"].as_str().unwrap_or("").to_owned(),
                c["piece"].as_i64().unwrap_or(-1),
            )
        })
        .collect();
    caps.sort();
    caps
}

/// Runs one case; `Err` says how it failed.
pub fn run_case(engine: &mut impl Engine, case: &Value) -> Result<(), String> {
    let expect = &case["expect"];
    let wants_error = expect["error"].as_bool().unwrap_or(false);
    let actions = case["do"].as_array().ok_or("a case has a `do` list")?;
    let mut position = case["position"].clone();
    for (i, action) in actions.iter().enumerate() {
        let action = action.as_array().ok_or("an action is a list")?;
        let last = i + 1 == actions.len();
        match engine.act(&position, action) {
            Err(_) if last && wants_error => return Ok(()),
            Err(e) => return Err(format!("{action:?} refused: {e}")),
            Ok(_) if last && wants_error => return Err(format!("{action:?} should be refused")),
            Ok(next) => position = next,
        }
    }
    if let Some(want) = expect.get("position") {
        partial(want, &position, "position")?;
    }
    if let Some(want) = expect.get("legal") {
        let got = engine.legal(&position)?;
        if moves_of(want) != moves_of(&got) {
            return Err(format!("legal moves: want {want}, got {got}"));
        }
        for m in want.as_array().into_iter().flatten() {
            if m.get("captures").is_none() {
                continue;
            }
            let theirs = got
                .as_array()
                .into_iter()
                .flatten()
                .find(|g| g["piece"] == m["piece"])
                .ok_or("a wanted move is missing")?;
            if captures_of(m) != captures_of(theirs) {
                return Err(format!("captures: want {m}, got {theirs}"));
            }
        }
    }
    Ok(())
}

/// Runs every case and panics naming each one that failed.
pub fn run_all(engine: &mut impl Engine, jsonl: &str) -> usize {
    let cases = cases(jsonl);
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|case| {
            run_case(engine, case)
                .err()
                .map(|e| format!("{}: {e}", case["name"]))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "failing vectors:\n{}",
        failures.join("\n")
    );
    cases.len()
}
