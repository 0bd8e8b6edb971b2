//! Leases on rooms in PostgreSQL: which node serves each room, until when (by the database's
//! clock, `ludo_now_ms()`), and which node wants it handed over.
//!
//! A lease also ends as soon as its node has no connection open to the database: each node's
//! connections carry its name as their application name ([`super::connection::node_session`]),
//! and a node that dies (killed, its machine off) has its connections closed by its operating
//! system, which PostgreSQL sees at once. Another node then takes its rooms over without waiting
//! for the lease's term, which remains the bound for a node cut off from the database without
//! dying (its connections linger until TCP gives up on them).

use postgres::Client;

use super::connection::{Context, Failure, NODE_SESSION};
use crate::ids::RoomCode;
use crate::store::{Claim, Renewal};

/// See [`crate::store::Cluster::claim_room`].
pub(super) fn claim(
    db: &mut Client,
    room: &str,
    node: &str,
    ttl_ms: i64,
) -> Result<Claim, Failure> {
    let token = rand_token();
    let granted = db
        .query_opt(
            "INSERT INTO room_leases (room, node, token, expires_at)
             VALUES ($1, $2, $3, ludo_now_ms() + $4)
             ON CONFLICT (room) DO UPDATE
                 SET node = excluded.node, token = excluded.token,
                     expires_at = excluded.expires_at, wanted_by = NULL
                 WHERE room_leases.node = excluded.node
                    OR room_leases.expires_at < ludo_now_ms()
                    OR NOT EXISTS (SELECT 1 FROM pg_stat_activity a
                                   WHERE a.datname = current_database()
                                     AND a.application_name = left($5 || room_leases.node, 63))
             RETURNING token",
            &[&room, &node, &token, &ttl_ms, &NODE_SESSION],
        )
        .context("claiming a room")?;
    if granted.is_some() {
        return Ok(Claim::Granted { token });
    }
    let holder = db
        .query_opt(
            "UPDATE room_leases SET wanted_by = $2 WHERE room = $1 AND node <> $2 RETURNING node",
            &[&room, &node],
        )
        .context("asking for a room")?;
    match holder {
        Some(row) => Ok(Claim::HeldBy(row.try_get(0).context("asking for a room")?)),
        // The lease was given up between the two statements: the next claim gets it.
        None => Ok(Claim::HeldBy(String::new())),
    }
}

/// See [`crate::store::Cluster::renew_leases`].
pub(super) fn renew(
    db: &mut Client,
    node: &str,
    rooms: &[RoomCode],
    ttl_ms: i64,
) -> Result<Renewal, Failure> {
    let rows = db
        .query(
            "UPDATE room_leases SET expires_at = ludo_now_ms() + $3
             WHERE node = $1 AND room = ANY($2)
             RETURNING room, wanted_by IS NOT NULL",
            &[&node, &rooms, &ttl_ms],
        )
        .context("renewing leases")?;
    let mut renewal = Renewal::default();
    for row in rows {
        let room: RoomCode = row.try_get(0).context("renewing leases")?;
        if row.try_get::<_, bool>(1).context("renewing leases")? {
            renewal.wanted.push(room.clone());
        }
        renewal.kept.push(room);
    }
    Ok(renewal)
}

/// See [`crate::store::Cluster::asked_rooms`].
pub(super) fn asked(db: &mut Client, node: &str) -> Result<Vec<RoomCode>, Failure> {
    db.query(
        "SELECT room FROM room_leases WHERE node = $1 AND wanted_by IS NOT NULL",
        &[&node],
    )
    .and_then(|rows| rows.iter().map(|r| r.try_get(0)).collect())
    .context("reading requests for rooms")
}

/// See [`crate::store::Cluster::release_room`].
pub(super) fn release(db: &mut Client, room: &str, node: &str, token: i64) -> Result<(), Failure> {
    db.execute(
        "DELETE FROM room_leases WHERE room = $1 AND node = $2 AND token = $3",
        &[&room, &node, &token],
    )
    .map(|_| ())
    .context("releasing a room")
}

/// See [`crate::store::Cluster::release_all`].
pub(super) fn release_all(db: &mut Client, node: &str) -> Result<(), Failure> {
    db.execute("DELETE FROM room_leases WHERE node = $1", &[&node])
        .map(|_| ())
        .context("releasing rooms")
}

/// See [`crate::store::Cluster::unheld_rooms_in_play`].
pub(super) fn unheld_in_play(db: &mut Client) -> Result<Vec<(RoomCode, String)>, Failure> {
    db.query(
        "SELECT code, state FROM rooms r
         WHERE EXISTS (SELECT 1 FROM games g WHERE g.room = r.code AND g.finished_at IS NULL)
           AND NOT EXISTS (SELECT 1 FROM room_leases l
                           WHERE l.room = r.code AND l.expires_at >= ludo_now_ms()
                             AND EXISTS (SELECT 1 FROM pg_stat_activity a
                                         WHERE a.datname = current_database()
                                           AND a.application_name = left($1 || l.node, 63)))",
        &[&NODE_SESSION],
    )
    .and_then(|rows| {
        rows.iter()
            .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
            .collect()
    })
    .context("reading rooms nobody serves")
}

/// A grant's token: random, so that two grants of one room never share one.
fn rand_token() -> i64 {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).expect("the operating system gives random bytes");
    i64::from_ne_bytes(bytes)
}
