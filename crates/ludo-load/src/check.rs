//! Checks every game's stored record against what the clients saw: it replays (and, once the
//! seed is out, verifies) to the furthest position seen, holds every action seen at its place,
//! and, when asked, is over.

use std::net::SocketAddr;

use ludo_fair::{Action, Record};
use ludo_rules::{Colour, Game};
use serde_json::Value;

use crate::http;
use crate::seen::{GameSeen, Seen};

/// What the check of every record found.
#[derive(Default)]
pub struct Findings {
    /// Games whose records were checked.
    pub checked: usize,
    /// Games whose record matched everything the clients saw.
    pub matching: usize,
    /// Games that are over in their records.
    pub finished: usize,
    /// Distinct actions seen: (game, version) pairs.
    pub distinct: usize,
    /// Actions seen that are not in the record at their place.
    pub missing: usize,
    /// (game, version) pairs at which two different actions were seen.
    pub doubled: usize,
    /// What is wrong, one line each.
    pub problems: Vec<String>,
}

/// A stored game: its record, replayed.
struct Stored {
    record: Record,
    /// The seat that played each action of the record.
    seats: Vec<Colour>,
    /// The position after the last action.
    end: Game,
    /// Whether the server says the game has finished (`finished_at` is set).
    finished_at: bool,
}

/// Checks every game seen against its stored record (`GET /api/games/{id}`); with
/// `finish_games`, every game must also be over.
pub async fn check_records(addr: SocketAddr, seen: &Seen, finish_games: bool) -> Findings {
    let mut findings = Findings::default();
    for (id, game) in &seen.games {
        findings.checked += 1;
        findings.distinct += game.actions.len();
        findings.doubled += game.doubled.len();
        let problems_before = findings.problems.len();
        if let Some(version) = game.doubled.first() {
            findings.problems.push(format!(
                "game {id}: two different actions seen at {} versions (first: {version})",
                game.doubled.len()
            ));
        }
        match fetch(addr, id).await {
            Ok(stored) => compare(id, game, &stored, finish_games, &mut findings),
            Err(e) => {
                findings.missing += game.actions.len();
                findings.problems.push(format!("game {id}: {e}"));
            }
        }
        if findings.problems.len() == problems_before {
            findings.matching += 1;
        }
    }
    findings
}

/// Compares one game's record with what its clients saw.
fn compare(
    id: &str,
    game: &GameSeen,
    stored: &Stored,
    finish_games: bool,
    findings: &mut Findings,
) {
    let problems = &mut findings.problems;
    if let Err(e) = compare_ends(stored, game) {
        problems.push(format!("game {id}: {e}"));
    }
    let missing: Vec<u64> = game
        .actions
        .iter()
        .filter(|&&(version, (seat, action))| !stored.holds(version, seat, action))
        .map(|&(version, _)| version)
        .collect();
    if let Some(first) = missing.first() {
        findings.missing += missing.len();
        problems.push(format!(
            "game {id}: {} actions seen are not in the record at their place (first: version \
             {first})",
            missing.len()
        ));
    }
    let over = stored.end.is_over();
    if over != stored.finished_at {
        problems.push(format!(
            "game {id}: the record's end is over: {over}, but finished_at is set: {}",
            stored.finished_at
        ));
    }
    if over {
        findings.finished += 1;
    } else if finish_games {
        problems.push(format!(
            "game {id}: not over in the record ({} actions)",
            stored.record.actions.len()
        ));
    }
}

/// Whether the record ends where the clients saw the game furthest: both positions read as
/// JSON values, compared whole.
fn compare_ends(stored: &Stored, game: &GameSeen) -> Result<(), String> {
    let end = serde_json::to_value(stored.end.to_setup()).map_err(|e| e.to_string())?;
    let seen = game.position()?;
    if end == seen {
        Ok(())
    } else {
        Err("the stored record ends elsewhere than the clients saw".to_owned())
    }
}

impl Stored {
    /// Whether the record's action that led to `version` is `action`, played by `seat`.
    fn holds(&self, version: u64, seat: Colour, action: Action) -> bool {
        let Some(index) = version.checked_sub(1).and_then(|i| usize::try_from(i).ok()) else {
            return false;
        };
        self.record.actions.get(index) == Some(&action) && self.seats.get(index) == Some(&seat)
    }
}

/// Fetches a game's record and replays it.
async fn fetch(addr: SocketAddr, id: &str) -> Result<Stored, String> {
    let (status, body) = http::request(addr, "GET", &format!("/api/games/{id}"), None)
        .await
        .map_err(|e| e.to_string())?;
    if status != 200 {
        return Err(format!("{status} {body}"));
    }
    let export: Value = serde_json::from_str(&body).map_err(|e| e.to_string())?;
    let finished_at = !export["finished_at"].is_null();
    let record: Record = serde_json::from_value(export).map_err(|e| e.to_string())?;
    let (seats, end) = replay(&record)?;
    Ok(Stored {
        record,
        seats,
        end,
        finished_at,
    })
}

/// Verifies the record's dice when its seed is out, and plays its actions from the start: the
/// seat that played each one, and the position reached.
fn replay(record: &Record) -> Result<(Vec<Colour>, Game), String> {
    if record.seed.is_some() {
        record.verify().map_err(|e| e.to_string())?;
    }
    let mut game = record.start().map_err(|e| e.to_string())?;
    let mut seats = Vec::with_capacity(record.actions.len());
    for (index, action) in record.actions.iter().enumerate() {
        seats.push(game.seat());
        let played = match *action {
            Action::Throw(throw) => game.roll(throw).map(drop),
            Action::Move(piece) => game.play(piece).map(drop),
        };
        played.map_err(|e| format!("action {index}: {e}"))?;
    }
    Ok((seats, game))
}
