//! Leaderboards and players' pages.

use rusqlite::{OptionalExtension, params};

use super::{SqliteBackend, fail};
use crate::store::rows::{self, RECENT_GAMES, SummaryRow};
use crate::store::{
    FamilyRating, GameSummary, Leader, PlayerProfile, PlayerStats, RatingPoint, StoreResult,
};

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
                Ok(Leader::new(r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
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
                Ok(FamilyRating::new(r.get(0)?, r.get(1)?, r.get(2)?))
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
        let mut statement = self
            .db
            .prepare_cached(
                "SELECT g.id, g.rules, g.ranked, g.started_at, g.finished_at, g.seats, g.players,
                        g.places,
                        (SELECT group_concat(seat, ',') FROM (SELECT DISTINCT seat FROM actions
                         WHERE game = g.id AND stand_in = 'left'))
                 FROM game_players gp JOIN games g ON g.id = gp.game
                 WHERE gp.identity = ?1 AND g.finished_at IS NOT NULL
                 ORDER BY g.finished_at DESC LIMIT ?2",
            )
            .map_err(fail("reading a player's games"))?;
        let rows: Vec<SummaryRow> = statement
            .query_map(params![identity, RECENT_GAMES], |r| {
                Ok(SummaryRow {
                    id: r.get(0)?,
                    rules: r.get(1)?,
                    ranked: r.get(2)?,
                    started_at: r.get(3)?,
                    finished_at: r.get(4)?,
                    seats: r.get(5)?,
                    players: r.get(6)?,
                    places: r.get(7)?,
                    left: r.get(8)?,
                })
            })
            .map_err(fail("reading a player's games"))?
            .collect::<Result<_, _>>()
            .map_err(fail("reading a player's games"))?;
        rows.into_iter().map(SummaryRow::into_summary).collect()
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
        Ok(rows::stats(places))
    }
}
