//! Runs the rules vectors (`position.md` §4) against any front of the engine: the library itself,
//! the `ludo` binary, or the page's WebAssembly module. Included by path from the tests of the
//! crates that have those fronts.

use serde_json::Value;

/// The vector files kept beside this runner, by name, each read at build time.
pub const FILES: [(&str, &str); 5] = [
    ("rules.jsonl", include_str!("../data/rules.jsonl")),
    ("options.jsonl", include_str!("../data/options.jsonl")),
    ("moves.jsonl", include_str!("../data/moves.jsonl")),
    ("turns.jsonl", include_str!("../data/turns.jsonl")),
    ("positions.jsonl", include_str!("../data/positions.jsonl")),
];

/// An action or a reading the engine refused.
#[derive(Clone, Debug)]
pub struct Refusal {
    /// What the front said, for the failure's report.
    pub message: String,
    /// The engine's code and values, `{"code": …, "params": {…}}`, when the front tells them.
    pub fault: Option<Value>,
}

impl Refusal {
    /// A refusal this front tells only in words.
    pub fn said(message: impl Into<String>) -> Refusal {
        Refusal {
            message: message.into(),
            fault: None,
        }
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.fault {
            Some(fault) => write!(f, "{} {fault}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

/// A front of the engine that takes positions and actions as JSON.
pub trait Engine {
    /// Applies `action` (`["roll", 6]`, `["move", 2]`) to `position`; the next position, or the
    /// refusal.
    fn act(&mut self, position: &Value, action: &[Value]) -> Result<Value, Refusal>;
    /// The legal moves of `position` in phase `move`, or the refusal.
    fn legal(&mut self, position: &Value) -> Result<Value, Refusal>;
    /// What the engine reads in `position` alone: `{"options": …, "board": …}` as the page's
    /// engine answers `options` and `board`, or the refusal. `None` when this front cannot read
    /// a position without an action; the checks that need it are then not made.
    fn read(&mut self, _position: &Value) -> Option<Result<Value, Refusal>> {
        None
    }
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

/// Checks `expect.legal` against the moves the engine offers in `position`. No move is wanted
/// also when the position is not in phase `move`: the throw offered nothing to choose.
fn check_legal(engine: &mut impl Engine, want: &Value, position: &Value) -> Result<(), String> {
    let in_move = position["turn"]["phase"] == "move";
    if !in_move {
        return match want.as_array() {
            Some(moves) if moves.is_empty() => Ok(()),
            _ => Err(format!(
                "legal moves: want {want}, but the position is in phase {}",
                position["turn"]["phase"]
            )),
        };
    }
    let got = engine
        .legal(position)
        .map_err(|e| format!("legal refused: {e}"))?;
    if moves_of(want) != moves_of(&got) {
        return Err(format!("legal moves: want {want}, got {got}"));
    }
    for m in want.as_array().into_iter().flatten() {
        let theirs = got
            .as_array()
            .into_iter()
            .flatten()
            .find(|g| g["piece"] == m["piece"])
            .ok_or("a wanted move is missing")?;
        if m.get("from").is_some_and(|from| *from != theirs["from"]) {
            return Err(format!("from: want {m}, got {theirs}"));
        }
        if m.get("captures").is_some() && captures_of(m) != captures_of(theirs) {
            return Err(format!("captures: want {m}, got {theirs}"));
        }
    }
    Ok(())
}

/// Checks a refusal against `expect.error`: `true`, or `{"code", "params"}` whose params must be
/// among the refusal's when the front tells its code.
fn check_refusal(want: &Value, refusal: &Refusal) -> Result<(), String> {
    match (want.as_object(), &refusal.fault) {
        (Some(_), Some(fault)) => {
            partial(want, fault, "error").map_err(|e| format!("{e} (refused: {refusal})"))
        }
        _ => Ok(()),
    }
}

/// Runs one case; `Err` says how it failed.
pub fn run_case(engine: &mut impl Engine, case: &Value) -> Result<(), String> {
    let expect = &case["expect"];
    let error = expect.get("error").filter(|e| **e != Value::Bool(false));
    let actions = case["do"].as_array().ok_or("a case has a `do` list")?;
    let mut position = case["position"].clone();
    let needs_reading =
        actions.is_empty() || expect.get("options").is_some() || expect.get("board").is_some();
    for (i, action) in actions.iter().enumerate() {
        let action = action.as_array().ok_or("an action is a list")?;
        let last = i + 1 == actions.len();
        match (engine.act(&position, action), error) {
            (Err(e), Some(want)) if last => return check_refusal(want, &e),
            (Err(e), _) => return Err(format!("{action:?} refused: {e}")),
            (Ok(_), Some(_)) if last => return Err(format!("{action:?} should be refused")),
            (Ok(next), _) => position = next,
        }
    }
    if needs_reading {
        match (engine.read(&position), error) {
            (None, _) => {}
            (Some(Err(e)), Some(want)) => return check_refusal(want, &e),
            (Some(Err(e)), None) => return Err(format!("the position is refused: {e}")),
            (Some(Ok(_)), Some(_)) => return Err("the position should be refused".into()),
            (Some(Ok(read)), None) => {
                if let Some(want) = expect.get("options") {
                    partial(want, &read["options"], "options")?;
                }
                if let Some(want) = expect.get("board") {
                    partial(want, &read["board"], "board")?;
                }
            }
        }
    }
    if let Some(want) = expect.get("position") {
        partial(want, &position, "position")?;
    }
    if let Some(want) = expect.get("legal") {
        check_legal(engine, want, &position)?;
    }
    Ok(())
}

/// Runs every case of every vector file and panics naming each one that failed, file by file;
/// the number of cases in each file.
pub fn run_files(engine: &mut impl Engine) -> Vec<(&'static str, usize)> {
    let mut failures = Vec::new();
    let mut counts = Vec::new();
    for (file, jsonl) in FILES {
        let cases = cases(jsonl);
        for case in &cases {
            if let Err(e) = run_case(engine, case) {
                failures.push(format!("{file}: {}: {e}", case["name"]));
            }
        }
        counts.push((file, cases.len()));
    }
    assert!(
        failures.is_empty(),
        "{} failing vector(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
    counts
}
