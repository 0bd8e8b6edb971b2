//! `ludo verify GAME.json`: recomputes every throw of a finished game from its revealed seed.

use std::path::Path;

use ludo_fair::{Action, Record};

use crate::failure::{Failure, bad};

/// `ludo verify`.
pub fn verify(path: &Path) -> Result<String, Failure> {
    let text =
        std::fs::read_to_string(path).map_err(|e| bad(format!("{}: {e}", path.display())))?;
    let record: Record =
        serde_json::from_str(&text).map_err(|e| bad(format!("{}: {e}", path.display())))?;
    let end = record
        .verify()
        .map_err(|e| Failure::Illegal(format!("{}: {e}", path.display())))?;
    let throws = record
        .actions
        .iter()
        .filter(|a| matches!(a, Action::Throw(_)))
        .count();
    let places: Vec<String> = end
        .seats()
        .iter()
        .map(|&s| match end.place(s) {
            Some(place) => format!("{s} {place}"),
            None => format!("{s} -"),
        })
        .collect();
    Ok(format!(
        "verified: game {}, {} throws from the seed match commitment {}\n\
         {} actions replay to phase {}; places: {}",
        record.game_id,
        throws,
        record.commitment,
        record.actions.len(),
        end.phase(),
        places.join(", ")
    ))
}
