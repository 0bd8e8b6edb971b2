//! What the nodes share besides rooms: ranked searches, the roles one node at a time takes on,
//! and the public tables' listings.

use postgres::Client;

use super::connection::{Context, Failure, atomically};
use crate::store::SharedSeeker;

/// See [`crate::store::Cluster::claim_role`].
pub(super) fn claim_role(
    db: &mut Client,
    role: &str,
    node: &str,
    ttl_ms: i64,
) -> Result<bool, Failure> {
    db.query_opt(
        "INSERT INTO roles (role, node, expires_at) VALUES ($1, $2, ludo_now_ms() + $3)
         ON CONFLICT (role) DO UPDATE SET node = excluded.node, expires_at = excluded.expires_at
             WHERE roles.node = excluded.node OR roles.expires_at < ludo_now_ms()
         RETURNING node",
        &[&role, &node, &ttl_ms],
    )
    .map(|held| held.is_some())
    .context("claiming a role")
}

/// See [`crate::store::Cluster::put_seeker`].
pub(super) fn put(db: &mut Client, s: &SharedSeeker) -> Result<(), Failure> {
    db.execute(
        "INSERT INTO seekers
             (ticket, node, identity, name, rating, preset, size, address, since, seen_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, ludo_now_ms())
         ON CONFLICT (identity) DO UPDATE SET
             ticket = excluded.ticket, node = excluded.node, name = excluded.name,
             rating = excluded.rating, preset = excluded.preset, size = excluded.size,
             address = excluded.address, since = excluded.since, seen_at = excluded.seen_at,
             room = NULL, seats = NULL",
        &[
            &s.ticket,
            &s.node,
            &s.identity,
            &s.name,
            &s.rating,
            &s.preset,
            &i16::from(s.size),
            &s.address,
            &s.since,
        ],
    )
    .map(|_| ())
    .context("saving a ranked search")
}

/// See [`crate::store::Cluster::remove_seeker`].
pub(super) fn remove(db: &mut Client, ticket: &str) -> Result<(), Failure> {
    db.execute("DELETE FROM seekers WHERE ticket = $1", &[&ticket])
        .map(|_| ())
        .context("removing a ranked search")
}

/// See [`crate::store::Cluster::seekers`].
pub(super) fn all(
    db: &mut Client,
    grouped: bool,
    node: &str,
    stale_ms: i64,
) -> Result<Vec<SharedSeeker>, Failure> {
    let rows = atomically(db, grouped, "reading ranked searches", |tx| {
        tx.execute(
            "UPDATE seekers SET seen_at = ludo_now_ms() WHERE node = $1",
            &[&node],
        )
        .context("renewing ranked searches")?;
        tx.execute(
            "DELETE FROM seekers WHERE seen_at < ludo_now_ms() - $1",
            &[&stale_ms],
        )
        .context("forgetting ranked searches")?;
        tx.query(
            "SELECT ticket, node, identity, name, rating, preset, size, address, since, room,
                seats
         FROM seekers ORDER BY since, ticket",
            &[],
        )
        .context("reading ranked searches")
    })?;
    rows.iter()
        .map(|r| {
            let size: i16 = r.try_get(6)?;
            let room: Option<crate::ids::RoomCode> = r.try_get(9)?;
            let seats: Option<i16> = r.try_get(10)?;
            Ok(SharedSeeker {
                ticket: r.try_get(0)?,
                node: r.try_get(1)?,
                identity: r.try_get(2)?,
                name: r.try_get(3)?,
                rating: r.try_get(4)?,
                preset: r.try_get(5)?,
                size: u8::try_from(size).unwrap_or(0),
                address: r.try_get(7)?,
                since: r.try_get(8)?,
                table: room.zip(seats.map(|s| usize::try_from(s).unwrap_or(0))),
            })
        })
        .collect::<Result<_, postgres::Error>>()
        .context("reading ranked searches")
}

/// See [`crate::store::Cluster::seat_seekers`].
pub(super) fn seat(
    db: &mut Client,
    tickets: &[String],
    room: &str,
    seats: usize,
) -> Result<(), Failure> {
    let seats = i16::try_from(seats).unwrap_or(i16::MAX);
    db.execute(
        "UPDATE seekers SET room = $2, seats = $3 WHERE ticket = ANY($1)",
        &[&tickets, &room, &seats],
    )
    .map(|_| ())
    .context("seating ranked searches")
}

/// See [`crate::store::Cluster::publish_listings`].
pub(super) fn publish_listings(
    db: &mut Client,
    grouped: bool,
    node: &str,
    listings: &[(crate::ids::RoomCode, String)],
    stale_ms: i64,
) -> Result<(), Failure> {
    atomically(db, grouped, "publishing public tables", |tx| {
        tx.execute("DELETE FROM listings WHERE node = $1", &[&node])
            .context("publishing public tables")?;
        tx.execute(
            "DELETE FROM listings WHERE seen_at < ludo_now_ms() - $1",
            &[&stale_ms],
        )
        .context("publishing public tables")?;
        let (codes, texts): (Vec<&str>, Vec<&str>) = listings
            .iter()
            .map(|(code, text)| (code.as_str(), text.as_str()))
            .unzip();
        tx.execute(
        "INSERT INTO listings (code, node, listing, seen_at)
         SELECT code, $1, listing, ludo_now_ms() FROM unnest($2::TEXT[], $3::TEXT[]) AS l(code, listing)
         ON CONFLICT (code) DO UPDATE SET node = excluded.node, listing = excluded.listing,
             seen_at = excluded.seen_at",
        &[&node, &codes, &texts],
    )
    .context("publishing public tables")?;
        Ok(())
    })
}

/// See [`crate::store::Cluster::listings`].
pub(super) fn listings(db: &mut Client) -> Result<Vec<String>, Failure> {
    db.query("SELECT listing FROM listings", &[])
        .and_then(|rows| rows.iter().map(|r| r.try_get(0)).collect())
        .context("reading public tables")
}
