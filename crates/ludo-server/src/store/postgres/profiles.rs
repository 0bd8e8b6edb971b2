//! Leaderboards and players' pages.

use postgres::GenericClient;

use super::connection::{Context, Failure};
use super::games;
use crate::store::rows::{self, RECENT_GAMES, SummaryRow};
use crate::store::{FamilyRating, Leader, PlayerProfile, RatingPoint};

/// The best-rated players of `family`.
pub(super) fn leaders(
    db: &mut impl GenericClient,
    family: &str,
    limit: u32,
) -> Result<Vec<Leader>, Failure> {
    db.query(
        "SELECT r.identity, i.name, r.rating, r.games
         FROM ratings r JOIN identities i ON i.id = r.identity
         WHERE r.family = $1 ORDER BY r.rating DESC, r.games DESC LIMIT $2",
        &[&family, &i64::from(limit)],
    )
    .and_then(|rows| {
        rows.iter()
            .map(|r| {
                let games = games(r.try_get(3)?);
                Ok(Leader::new(
                    r.try_get(0)?,
                    r.try_get(1)?,
                    r.try_get(2)?,
                    games,
                ))
            })
            .collect()
    })
    .context("reading a leaderboard")
}

/// A player's page, if the identity exists.
pub(super) fn player(
    db: &mut impl GenericClient,
    identity: &str,
) -> Result<Option<PlayerProfile>, Failure> {
    let name: Option<String> = db
        .query_opt("SELECT name FROM identities WHERE id = $1", &[&identity])
        .and_then(|r| r.map(|r| r.try_get(0)).transpose())
        .context("reading a player")?;
    let Some(name) = name else {
        return Ok(None);
    };
    let ratings = db
        .query(
            "SELECT family, rating, games FROM ratings WHERE identity = $1
             ORDER BY family COLLATE \"C\"",
            &[&identity],
        )
        .and_then(|rows| {
            rows.iter()
                .map(|r| {
                    let games = games(r.try_get(2)?);
                    Ok(FamilyRating::new(r.try_get(0)?, r.try_get(1)?, games))
                })
                .collect()
        })
        .context("reading ratings")?;
    let history = db
        .query(
            "SELECT game, family, at, before, after, place FROM rating_changes
             WHERE identity = $1 ORDER BY at, game COLLATE \"C\"",
            &[&identity],
        )
        .context("reading a rating history")?
        .iter()
        .map(|r| -> Result<RatingPoint, Failure> {
            let doing = "reading a rating history";
            Ok(RatingPoint {
                game: r.try_get(0).context(doing)?,
                family: r.try_get(1).context(doing)?,
                at: r.try_get(2).context(doing)?,
                before: r.try_get(3).context(doing)?,
                after: r.try_get(4).context(doing)?,
                place: rows::place(r.try_get(5).context(doing)?)?,
            })
        })
        .collect::<Result<_, Failure>>()?;
    let recent = db
        .query(
            "SELECT g.id, g.rules, g.ranked, g.started_at, g.finished_at, g.seats, g.players,
                    g.places,
                    (SELECT string_agg(DISTINCT a.seat, ',') FROM actions a
                     WHERE a.game = g.id AND a.stand_in = 'left')
             FROM game_players gp JOIN games g ON g.id = gp.game
             WHERE gp.identity = $1 AND g.finished_at IS NOT NULL
             ORDER BY g.finished_at DESC LIMIT $2",
            &[&identity, &i64::from(RECENT_GAMES)],
        )
        .and_then(|rows| {
            rows.iter()
                .map(|r| {
                    Ok(SummaryRow {
                        id: r.try_get(0)?,
                        rules: r.try_get(1)?,
                        ranked: r.try_get(2)?,
                        started_at: r.try_get(3)?,
                        finished_at: r.try_get(4)?,
                        seats: r.try_get(5)?,
                        players: r.try_get(6)?,
                        places: r.try_get(7)?,
                        left: r.try_get(8)?,
                    })
                })
                .collect::<Result<Vec<_>, postgres::Error>>()
        })
        .context("reading a player's games")?
        .into_iter()
        .map(SummaryRow::into_summary)
        .collect::<Result<_, _>>()?;
    let places = db
        .query(
            "SELECT gp.place FROM game_players gp JOIN games g ON g.id = gp.game
             WHERE gp.identity = $1 AND g.finished_at IS NOT NULL",
            &[&identity],
        )
        .and_then(|rows| {
            rows.iter()
                .map(|r| r.try_get::<_, Option<i16>>(0))
                .collect::<Result<Vec<_>, _>>()
        })
        .context("reading a player's statistics")?
        .into_iter()
        .map(|p| p.map(rows::place).transpose())
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Some(PlayerProfile {
        id: identity.to_owned(),
        name,
        ratings,
        history,
        recent,
        stats: rows::stats(places),
    }))
}
