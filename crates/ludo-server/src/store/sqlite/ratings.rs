//! Finishing a game and rating it, in one transaction.

use std::collections::BTreeMap;

use ludo_rules::Colour;
use rusqlite::{Connection, OptionalExtension, params};

use super::{SqliteBackend, fail};
use crate::rating;
use crate::store::rows::{self, colour, family_of, json_fail};
use crate::store::{RatingChange, StoreError, StoreResult};

/// The rating of `identity` in `family` and its rated games (the start and 0 if none).
pub(super) fn current(db: &Connection, identity: &str, family: &str) -> StoreResult<(f64, u32)> {
    db.query_row(
        "SELECT rating, games FROM ratings WHERE identity = ?1 AND family = ?2",
        params![identity, family],
        |r| Ok((r.get::<_, f64>(0)?, r.get::<_, u32>(1)?)),
    )
    .optional()
    .map(|found| found.unwrap_or((rating::START, 0)))
    .map_err(fail("reading a rating"))
}

impl SqliteBackend {
    /// The rating changes a game caused, by seat.
    pub(super) fn rating_changes(&self, game: &str) -> StoreResult<Vec<RatingChange>> {
        let mut statement = self
            .db
            .prepare_cached(
                "SELECT rc.seat, rc.identity, gp.name, rc.place, rc.before, rc.after
                 FROM rating_changes rc
                 JOIN game_players gp ON gp.game = rc.game AND gp.seat = rc.seat
                 WHERE rc.game = ?1 ORDER BY rc.seat",
            )
            .map_err(fail("reading rating changes"))?;
        let rows = statement
            .query_map(params![game], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, u8>(3)?,
                    r.get::<_, f64>(4)?,
                    r.get::<_, f64>(5)?,
                ))
            })
            .map_err(fail("reading rating changes"))?;
        let mut changes = Vec::new();
        for row in rows {
            let (seat, id, name, place, before, after) =
                row.map_err(fail("reading rating changes"))?;
            changes.push(RatingChange {
                seat: colour(&seat)?,
                id,
                name,
                place,
                before,
                after,
            });
        }
        Ok(changes)
    }

    /// Marks a game over with its places and rates it if it is ranked; see
    /// [`crate::store::Backend::finish_game`].
    pub(super) fn finish_and_rate(
        &mut self,
        game: &str,
        places: &BTreeMap<Colour, u8>,
        at: i64,
    ) -> StoreResult<Vec<RatingChange>> {
        // A savepoint: a transaction of its own, or a part of the group it runs in.
        let tx = self.db.savepoint().map_err(fail("finishing a game"))?;
        let (finished_at, ranked, rules) = tx
            .query_row(
                "SELECT finished_at, ranked, rules FROM games WHERE id = ?1",
                params![game],
                |r| {
                    Ok((
                        r.get::<_, Option<i64>>(0)?,
                        r.get::<_, bool>(1)?,
                        r.get::<_, String>(2)?,
                    ))
                },
            )
            .optional()
            .map_err(fail("finishing a game"))?
            .ok_or_else(|| StoreError(format!("no game {game} to finish")))?;
        if finished_at.is_some() {
            drop(tx);
            return self.rating_changes(game);
        }
        let places_json = serde_json::to_string(places).map_err(json_fail("places"))?;
        tx.execute(
            "UPDATE games SET finished_at = ?2, places = ?3 WHERE id = ?1",
            params![game, at, places_json],
        )
        .map_err(fail("finishing a game"))?;
        if let Some(failure) = crate::store::fails_midway(game) {
            return Err(failure);
        }
        for (seat, place) in places {
            tx.execute(
                "UPDATE game_players SET place = ?3 WHERE game = ?1 AND seat = ?2",
                params![game, seat.name(), place],
            )
            .map_err(fail("saving places"))?;
        }
        if ranked {
            let family = family_of(&rules)?;
            let people: Vec<(String, String)> = {
                let mut statement = tx
                    .prepare("SELECT seat, identity FROM game_players WHERE game = ?1")
                    .map_err(fail("reading a game's players"))?;
                let rows = statement
                    .query_map(params![game], |r| Ok((r.get(0)?, r.get(1)?)))
                    .map_err(fail("reading a game's players"))?;
                rows.collect::<Result<_, _>>()
                    .map_err(fail("reading a game's players"))?
            };
            let mut rated = Vec::with_capacity(people.len());
            for (seat, identity) in people {
                let before = current(&tx, &identity, family)?;
                rated.push((seat, identity, before));
            }
            for person in rows::rate(rated, places)? {
                tx.execute(
                    "INSERT INTO ratings (identity, family, rating, games, updated_at)
                     VALUES (?1, ?2, ?3, ?4, ?5)
                     ON CONFLICT(identity, family) DO UPDATE SET rating = excluded.rating,
                         games = excluded.games, updated_at = excluded.updated_at",
                    params![
                        person.identity,
                        family,
                        person.after,
                        person.before.games + 1,
                        at
                    ],
                )
                .map_err(fail("saving a rating"))?;
                tx.execute(
                    "INSERT INTO rating_changes (game, identity, family, seat, place, before,
                                                 after, at)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                    params![
                        game,
                        person.identity,
                        family,
                        person.seat,
                        person.before.place,
                        person.before.rating,
                        person.after,
                        at
                    ],
                )
                .map_err(fail("saving a rating change"))?;
            }
        }
        tx.commit().map_err(fail("finishing a game"))?;
        self.rating_changes(game)
    }
}
