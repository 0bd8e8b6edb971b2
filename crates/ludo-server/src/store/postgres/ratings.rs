//! Finishing a game and rating it, in one transaction that locks the game's row and its
//! players' rating rows, so servers finishing games of one player at once never lose an update.

use std::collections::BTreeMap;

use ludo_rules::Colour;
use postgres::{Client, GenericClient};

use super::connection::{CONFLICT_ATTEMPTS, Context, Failure, atomically, is_conflict};
use super::games;
use crate::rating;
use crate::store::rows::{self, colour, family_of, json_fail};
use crate::store::{RatingChange, StoreError};

/// The rating of `identity` in `family` and its rated games (the start and 0 if none).
pub(super) fn current(
    db: &mut impl GenericClient,
    identity: &str,
    family: &str,
) -> Result<(f64, u32), Failure> {
    let found = db
        .query_opt(
            "SELECT rating, games FROM ratings WHERE identity = $1 AND family = $2",
            &[&identity, &family],
        )
        .and_then(|r| {
            r.map(|r| Ok((r.try_get::<_, f64>(0)?, r.try_get::<_, i32>(1)?)))
                .transpose()
        })
        .context("reading a rating")?;
    Ok(match found {
        Some((rating, count)) => (rating, games(count)),
        None => (rating::START, 0),
    })
}

/// The rating changes a game caused, by seat.
pub(super) fn changes(
    db: &mut impl GenericClient,
    game: &str,
) -> Result<Vec<RatingChange>, Failure> {
    let rows = db
        .query(
            "SELECT rc.seat, rc.identity, gp.name, rc.place, rc.before, rc.after
             FROM rating_changes rc
             JOIN game_players gp ON gp.game = rc.game AND gp.seat = rc.seat
             WHERE rc.game = $1 ORDER BY rc.seat COLLATE \"C\"",
            &[&game],
        )
        .context("reading rating changes")?;
    let mut changes = Vec::with_capacity(rows.len());
    for r in rows {
        let (seat, id, name, place, before, after) = (|| {
            Ok::<_, postgres::Error>((
                r.try_get::<_, String>(0)?,
                r.try_get(1)?,
                r.try_get(2)?,
                r.try_get::<_, i16>(3)?,
                r.try_get(4)?,
                r.try_get(5)?,
            ))
        })()
        .context("reading rating changes")?;
        changes.push(RatingChange {
            seat: colour(&seat)?,
            id,
            name,
            place: rows::place(place)?,
            before,
            after,
        });
    }
    Ok(changes)
}

/// Marks a game over with its places and rates it if it is ranked; see
/// [`crate::store::Backend::finish_game`]. A transaction that loses a deadlock to another
/// server's is tried again.
pub(super) fn finish_and_rate(
    db: &mut Client,
    grouped: bool,
    game: &str,
    places: &BTreeMap<Colour, u8>,
    at: i64,
) -> Result<Vec<RatingChange>, Failure> {
    let mut attempt = 1;
    loop {
        let finished = atomically(db, grouped, "finishing a game", |tx| {
            finish_once(tx, game, places, at)
        });
        match finished {
            Err(Failure::Database(_, e)) if attempt < CONFLICT_ATTEMPTS && is_conflict(&e) => {
                attempt += 1;
            }
            done => return done,
        }
    }
}

fn finish_once(
    tx: &mut Client,
    game: &str,
    places: &BTreeMap<Colour, u8>,
    at: i64,
) -> Result<Vec<RatingChange>, Failure> {
    // The game's row, locked: a second finish of the same game waits and then finds it over.
    let (finished_at, ranked, rules) = tx
        .query_opt(
            "SELECT finished_at, ranked, rules FROM games WHERE id = $1 FOR UPDATE",
            &[&game],
        )
        .and_then(|r| {
            r.map(|r| {
                Ok((
                    r.try_get::<_, Option<i64>>(0)?,
                    r.try_get::<_, bool>(1)?,
                    r.try_get::<_, String>(2)?,
                ))
            })
            .transpose()
        })
        .context("finishing a game")?
        .ok_or_else(|| StoreError(format!("no game {game} to finish")))?;
    if finished_at.is_some() {
        return changes(tx, game);
    }
    let places_json = serde_json::to_string(places).map_err(json_fail("places"))?;
    tx.execute(
        "UPDATE games SET finished_at = $2, places = $3 WHERE id = $1",
        &[&game, &at, &places_json],
    )
    .context("finishing a game")?;
    if let Some(failure) = crate::store::fails_midway(game) {
        return Err(failure.into());
    }
    for (seat, place) in places {
        tx.execute(
            "UPDATE game_players SET place = $3 WHERE game = $1 AND seat = $2",
            &[&game, &seat.name(), &i16::from(*place)],
        )
        .context("saving places")?;
    }
    if ranked {
        rate(tx, game, family_of(&rules)?, places, at)?;
    }
    changes(tx, game)
}

/// Rates a ranked game's people: their rating rows are made if missing and locked, in the order
/// of their identities (so two games locking the same rows cannot wait on each other), updated,
/// and each change recorded.
fn rate(
    tx: &mut Client,
    game: &str,
    family: &str,
    places: &BTreeMap<Colour, u8>,
    at: i64,
) -> Result<(), Failure> {
    let people: Vec<(String, String)> = tx
        .query(
            "SELECT seat, identity FROM game_players WHERE game = $1 ORDER BY identity COLLATE \"C\"",
            &[&game],
        )
        .and_then(|rows| {
            rows.iter()
                .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
                .collect()
        })
        .context("reading a game's players")?;
    let mut rated = Vec::with_capacity(people.len());
    for (seat, identity) in people {
        tx.execute(
            "INSERT INTO ratings (identity, family, rating, games, updated_at)
             VALUES ($1, $2, $3, 0, $4) ON CONFLICT (identity, family) DO NOTHING",
            &[&identity, &family, &rating::START, &at],
        )
        .context("saving a rating")?;
        let (rating, count) = tx
            .query_one(
                "SELECT rating, games FROM ratings WHERE identity = $1 AND family = $2
                 FOR UPDATE",
                &[&identity, &family],
            )
            .and_then(|r| Ok((r.try_get::<_, f64>(0)?, r.try_get::<_, i32>(1)?)))
            .context("locking a rating")?;
        rated.push((seat, identity, (rating, games(count))));
    }
    for person in rows::rate(rated, places)? {
        let games = i32::try_from(person.before.games + 1)
            .map_err(|_| StoreError("too many rated games".to_owned()))?;
        tx.execute(
            "UPDATE ratings SET rating = $3, games = $4, updated_at = $5
             WHERE identity = $1 AND family = $2",
            &[&person.identity, &family, &person.after, &games, &at],
        )
        .context("saving a rating")?;
        tx.execute(
            "INSERT INTO rating_changes (game, identity, family, seat, place, before, after, at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            &[
                &game,
                &person.identity,
                &family,
                &person.seat,
                &i16::from(person.before.place),
                &person.before.rating,
                &person.after,
                &at,
            ],
        )
        .context("saving a rating change")?;
    }
    Ok(())
}
