//! Forgetting what nobody uses, in PostgreSQL (see [`Forgetting`]). Every node forgets on its
//! own; an advisory lock makes them take turns, and each finds nothing left to forget after
//! another.

use postgres::Client;

use super::connection::{Context, Failure, atomically};
use crate::store::{Forgetting, Forgotten};

/// The advisory lock forgetting holds until its transaction ends ("ludoforg" in ASCII).
const FORGET_LOCK: i64 = 0x6c75_646f_666f_7267;

/// The rooms that may be forgotten: not forgotten yet, last saved before `$1`, none of the
/// codes `$2`, no game being played, and no node holding their lease.
const ROOMS_TO_FORGET: &str = "r.forgotten_at IS NULL AND r.updated_at < $1
     AND NOT (r.code = ANY($2))
     AND NOT EXISTS (SELECT 1 FROM games g WHERE g.room = r.code AND g.finished_at IS NULL)
     AND NOT EXISTS (SELECT 1 FROM room_leases l
                     WHERE l.room = r.code AND l.expires_at >= ludo_now_ms())";

/// See [`crate::store::Backend::forget`].
pub(super) fn forget(
    db: &mut Client,
    grouped: bool,
    what: &Forgetting,
) -> Result<Forgotten, Failure> {
    atomically(db, grouped, "forgetting", |tx| forget_in(tx, what))
}

/// Forgets what `what` says, in the transaction (or savepoint) open on `tx`.
fn forget_in(tx: &mut Client, what: &Forgetting) -> Result<Forgotten, Failure> {
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&FORGET_LOCK])
        .context("waiting for another node's forgetting")?;
    if !what.identities_in_use.is_empty() {
        tx.execute(
            "UPDATE identities SET seen_at = $1 WHERE id = ANY($2)",
            &[&what.now, &what.identities_in_use],
        )
        .context("marking identities in use")?;
    }
    let limit = i64::from(what.limit);
    let mut forgotten = Forgotten::default();
    if let Some(before) = what.rooms_updated_before {
        // The rooms no game names, locked until they are gone: their leases (run out) first.
        let unplayed: Vec<String> = tx
            .query(
                &format!(
                    "SELECT code FROM rooms r WHERE {ROOMS_TO_FORGET}
                     AND NOT EXISTS (SELECT 1 FROM games g WHERE g.room = r.code)
                     LIMIT $3 FOR UPDATE"
                ),
                &[&before, &what.rooms_in_use, &limit],
            )
            .and_then(|rows| rows.iter().map(|r| r.try_get(0)).collect())
            .context("finding rooms to forget")?;
        tx.execute("DELETE FROM room_leases WHERE room = ANY($1)", &[&unplayed])
            .context("forgetting rooms' leases")?;
        let deleted = tx
            .execute("DELETE FROM rooms WHERE code = ANY($1)", &[&unplayed])
            .context("forgetting rooms")?;
        // The rooms left are named by their games: emptied, their rows kept.
        let emptied = tx
            .execute(
                &format!(
                    // Checked again on the row itself: a room saved meanwhile is not emptied.
                    "UPDATE rooms r SET state = '{{}}', forgotten_at = $4
                     WHERE {ROOMS_TO_FORGET}
                       AND r.code IN (SELECT code FROM rooms r WHERE {ROOMS_TO_FORGET} LIMIT $3)"
                ),
                &[&before, &what.rooms_in_use, &limit, &what.now],
            )
            .context("forgetting rooms")?;
        forgotten.rooms = deleted + emptied;
    }
    if let Some(made_before) = what.identities_made_before {
        forgotten.identities = tx
            .execute(
                "DELETE FROM identities WHERE id IN (
                     SELECT id FROM identities i
                     WHERE i.created_at < $1 AND COALESCE(i.seen_at, i.created_at) < $2
                       AND NOT EXISTS (SELECT 1 FROM rooms r WHERE r.host = i.id)
                       AND NOT EXISTS (SELECT 1 FROM game_players p WHERE p.identity = i.id)
                       AND NOT EXISTS (SELECT 1 FROM ratings r WHERE r.identity = i.id)
                       AND NOT EXISTS (SELECT 1 FROM rating_changes c WHERE c.identity = i.id)
                       AND i.id NOT IN (
                           SELECT s.value ->> 'id'
                           FROM rooms r, jsonb_each(r.state::jsonb -> 'seats') s
                           WHERE r.forgotten_at IS NULL AND s.value ->> 'id' IS NOT NULL)
                     LIMIT $3
                     FOR UPDATE)",
                &[&made_before, &what.seen_before, &limit],
            )
            .context("forgetting identities")?;
    }
    Ok(forgotten)
}
