//! Forgetting what nobody uses, in SQLite (see [`Forgetting`]).

use rusqlite::{Connection, params};

use super::fail;
use crate::store::rows::json_fail;
use crate::store::{Forgetting, Forgotten, StoreResult};

/// The rooms that may be forgotten: not forgotten yet, last saved before `?1`, none of the
/// codes in the JSON array `?2`, and no game being played.
const ROOMS_TO_FORGET: &str = "forgotten_at IS NULL AND updated_at < ?1
     AND code NOT IN (SELECT value FROM json_each(?2))
     AND NOT EXISTS (SELECT 1 FROM games g WHERE g.room = rooms.code AND g.finished_at IS NULL)";

/// See [`crate::store::Backend::forget`].
pub(super) fn forget(db: &mut Connection, what: &Forgetting) -> StoreResult<Forgotten> {
    // A savepoint: a transaction of its own, or a part of the group it runs in.
    let tx = db.savepoint().map_err(fail("forgetting"))?;
    if !what.identities_in_use.is_empty() {
        let in_use =
            serde_json::to_string(&what.identities_in_use).map_err(json_fail("identities"))?;
        tx.execute(
            "UPDATE identities SET seen_at = ?1 WHERE id IN (SELECT value FROM json_each(?2))",
            params![what.now, in_use],
        )
        .map_err(fail("marking identities in use"))?;
    }
    let mut forgotten = Forgotten::default();
    if let Some(before) = what.rooms_updated_before {
        let in_use = serde_json::to_string(&what.rooms_in_use).map_err(json_fail("rooms"))?;
        let deleted = tx
            .execute(
                &format!(
                    "DELETE FROM rooms WHERE code IN (
                         SELECT code FROM rooms WHERE {ROOMS_TO_FORGET}
                         AND NOT EXISTS (SELECT 1 FROM games g WHERE g.room = rooms.code)
                         LIMIT ?3)"
                ),
                params![before, in_use, what.limit],
            )
            .map_err(fail("forgetting rooms"))?;
        // The rooms left are named by their games: emptied, their rows kept.
        let emptied = tx
            .execute(
                &format!(
                    "UPDATE rooms SET state = '{{}}', forgotten_at = ?4 WHERE code IN (
                         SELECT code FROM rooms WHERE {ROOMS_TO_FORGET} LIMIT ?3)"
                ),
                params![before, in_use, what.limit, what.now],
            )
            .map_err(fail("forgetting rooms"))?;
        forgotten.rooms = (deleted + emptied) as u64;
    }
    if let Some(made_before) = what.identities_made_before {
        let deleted = tx
            .execute(
                "DELETE FROM identities WHERE id IN (
                     SELECT id FROM identities i
                     WHERE i.created_at < ?1 AND COALESCE(i.seen_at, i.created_at) < ?2
                       AND NOT EXISTS (SELECT 1 FROM rooms r WHERE r.host = i.id)
                       AND NOT EXISTS (SELECT 1 FROM game_players p WHERE p.identity = i.id)
                       AND NOT EXISTS (SELECT 1 FROM ratings r WHERE r.identity = i.id)
                       AND NOT EXISTS (SELECT 1 FROM rating_changes c WHERE c.identity = i.id)
                       AND i.id NOT IN (
                           SELECT json_extract(s.value, '$.id')
                           FROM rooms r, json_each(r.state, '$.seats') s
                           WHERE r.forgotten_at IS NULL
                             AND json_extract(s.value, '$.id') IS NOT NULL)
                     LIMIT ?3)",
                params![made_before, what.seen_before, what.limit],
            )
            .map_err(fail("forgetting identities"))?;
        forgotten.identities = deleted as u64;
    }
    tx.commit().map_err(fail("forgetting"))?;
    Ok(forgotten)
}
