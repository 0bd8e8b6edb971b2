//! Leaderboards and players' pages.

use std::collections::BTreeMap;

use ludo_rules::Colour;
use rusqlite::{OptionalExtension, params};
use serde_json::Value;

use super::ratings::family_of;
use super::{SqliteBackend, fail, json_fail};
use crate::rating::PROVISIONAL_GAMES;
use crate::store::{
    FamilyRating, GameSummary, Leader, PlayerProfile, PlayerStats, RatingPoint, SeatSummary,
    StoreResult,
};

/// How many finished games a player's page lists.
const RECENT_GAMES: u32 = 30;

/// A stored game row as a summary: seats in turn order with who played them and their places.
fn summary(
    id: String,
    rules: &str,
    ranked: bool,
    (started_at, finished_at): (i64, i64),
    seats: &str,
    players: &str,
    places: Option<&str>,
) -> StoreResult<GameSummary> {
    let order: Vec<Colour> = serde_json::from_str(seats).map_err(json_fail("a game's seats"))?;
    let players: BTreeMap<Colour, Value> =
        serde_json::from_str(players).map_err(json_fail("a game's players"))?;
    let places: BTreeMap<Colour, u8> = match places {
        Some(p) => serde_json::from_str(p).map_err(json_fail("a game's places"))?,
        None => BTreeMap::new(),
    };
    let seats = order
        .into_iter()
        .map(|seat| {
            let player = players.get(&seat);
            let text = |key: &str| {
                player
                    .and_then(|p| p.get(key))
                    .and_then(Value::as_str)
                    .map(str::to_owned)
            };
            let person = text("kind").as_deref() == Some("person");
            SeatSummary {
                seat,
                id: if person { text("id") } else { None },
                name: if person {
                    text("name").unwrap_or_default()
                } else {
                    format!("CPU ({})", text("level").unwrap_or_default())
                },
                place: places.get(&seat).copied(),
            }
        })
        .collect();
    Ok(GameSummary {
        id,
        family: family_of(rules)?.to_owned(),
        ranked,
        started_at,
        finished_at,
        seats,
    })
}

impl SqliteBackend {
    /// The best-rated players of `family`.
    pub(super) fn leaders(&self, family: &str, limit: u32) -> StoreResult<Vec<Leader>> {
        let mut statement = self
            .db
            .prepare_cached(
                "SELECT r.identity, i.name, r.rating, r.games
                 FROM ratings r JOIN identities i ON i.id = r.identity
                 WHERE r.family = ?1 ORDER BY r.rating DESC, r.games DESC LIMIT ?2",
            )
            .map_err(fail("reading a leaderboard"))?;
        let rows = statement
            .query_map(params![family, limit], |r| {
                let games: u32 = r.get(3)?;
                Ok(Leader {
                    id: r.get(0)?,
                    name: r.get(1)?,
                    rating: r.get(2)?,
                    games,
                    provisional: games < PROVISIONAL_GAMES,
                })
            })
            .map_err(fail("reading a leaderboard"))?;
        rows.collect::<Result<_, _>>()
            .map_err(fail("reading a leaderboard"))
    }

    /// A player's page, if the identity exists.
    pub(super) fn player(&self, identity: &str) -> StoreResult<Option<PlayerProfile>> {
        let name: Option<String> = self
            .db
            .query_row(
                "SELECT name FROM identities WHERE id = ?1",
                params![identity],
                |r| r.get(0),
            )
            .optional()
            .map_err(fail("reading a player"))?;
        let Some(name) = name else {
            return Ok(None);
        };
        Ok(Some(PlayerProfile {
            id: identity.to_owned(),
            name,
            ratings: self.ratings_of(identity)?,
            history: self.history_of(identity)?,
            recent: self.recent_games_of(identity)?,
            stats: self.stats_of(identity)?,
        }))
    }

    fn ratings_of(&self, identity: &str) -> StoreResult<Vec<FamilyRating>> {
        let mut statement = self
            .db
            .prepare_cached(
                "SELECT family, rating, games FROM ratings WHERE identity = ?1 ORDER BY family",
            )
            .map_err(fail("reading ratings"))?;
        let rows = statement
            .query_map(params![identity], |r| {
                let games: u32 = r.get(2)?;
                Ok(FamilyRating {
                    family: r.get(0)?,
                    rating: r.get(1)?,
                    games,
                    provisional: games < PROVISIONAL_GAMES,
                })
            })
            .map_err(fail("reading ratings"))?;
        rows.collect::<Result<_, _>>()
            .map_err(fail("reading ratings"))
    }

    fn history_of(&self, identity: &str) -> StoreResult<Vec<RatingPoint>> {
        let mut statement = self
            .db
            .prepare_cached(
                "SELECT game, family, at, before, after, place FROM rating_changes
                 WHERE identity = ?1 ORDER BY at, game",
            )
            .map_err(fail("reading a rating history"))?;
        let rows = statement
            .query_map(params![identity], |r| {
                Ok(RatingPoint {
                    game: r.get(0)?,
                    family: r.get(1)?,
                    at: r.get(2)?,
                    before: r.get(3)?,
                    after: r.get(4)?,
                    place: r.get(5)?,
                })
            })
            .map_err(fail("reading a rating history"))?;
        rows.collect::<Result<_, _>>()
            .map_err(fail("reading a rating history"))
    }

    fn recent_games_of(&self, identity: &str) -> StoreResult<Vec<GameSummary>> {
        type Row = (
            String,
            String,
            bool,
            i64,
            i64,
            String,
            String,
            Option<String>,
        );
        let mut statement = self
            .db
            .prepare_cached(
                "SELECT g.id, g.rules, g.ranked, g.started_at, g.finished_at, g.seats, g.players,
                        g.places
                 FROM game_players gp JOIN games g ON g.id = gp.game
                 WHERE gp.identity = ?1 AND g.finished_at IS NOT NULL
                 ORDER BY g.finished_at DESC LIMIT ?2",
            )
            .map_err(fail("reading a player's games"))?;
        let rows: Vec<Row> = statement
            .query_map(params![identity, RECENT_GAMES], |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                    r.get(6)?,
                    r.get(7)?,
                ))
            })
            .map_err(fail("reading a player's games"))?
            .collect::<Result<_, _>>()
            .map_err(fail("reading a player's games"))?;
        rows.into_iter()
            .map(
                |(id, rules, ranked, started, finished, seats, players, places)| {
                    summary(
                        id,
                        &rules,
                        ranked,
                        (started, finished),
                        &seats,
                        &players,
                        places.as_deref(),
                    )
                },
            )
            .collect()
    }

    fn stats_of(&self, identity: &str) -> StoreResult<PlayerStats> {
        let mut statement = self
            .db
            .prepare_cached(
                "SELECT gp.place FROM game_players gp JOIN games g ON g.id = gp.game
                 WHERE gp.identity = ?1 AND g.finished_at IS NOT NULL",
            )
            .map_err(fail("reading a player's statistics"))?;
        let places: Vec<Option<u8>> = statement
            .query_map(params![identity], |r| r.get(0))
            .map_err(fail("reading a player's statistics"))?
            .collect::<Result<_, _>>()
            .map_err(fail("reading a player's statistics"))?;
        let mut stats = PlayerStats::default();
        let mut sum = 0u32;
        for place in places.into_iter().flatten() {
            stats.games += 1;
            sum += u32::from(place);
            if place == 1 {
                stats.wins += 1;
            }
            if let Some(count) = stats.places.get_mut(usize::from(place).saturating_sub(1)) {
                *count += 1;
            }
        }
        stats.mean_place = (stats.games > 0).then(|| f64::from(sum) / f64::from(stats.games));
        Ok(stats)
    }
}
