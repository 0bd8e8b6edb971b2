//! Game records, leaderboards and players' pages.
//!
//! `GET /api/games/{id}` is a game's export: the fields of a [`Record`] (so `ludo verify` and
//! the replay viewer read it as it is) plus who played, when each action came, the places and
//! the rating changes. The dice seed appears only once the game is over.

use std::collections::BTreeMap;

use axum::extract::{Path, State};
use axum::routing::get;
use axum::{Json, Router};
use ludo_fair::Record;
use ludo_rules::{Colour, Preset};
use serde::Serialize;
use serde_json::Value;

use super::error::HttpError;
use crate::AppState;
use crate::protocol::{Refusal, RefusalCode};
use crate::store::{Leader, PlayerProfile, RatingChange};

/// How many players a leaderboard shows.
const LEADERBOARD_SIZE: u32 = 100;

/// The record routes.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/games/{id}", get(game))
        .route("/api/leaderboard/{rules}", get(leaderboard))
        .route("/api/players/{id}", get(player))
}

/// A game as exported.
#[derive(Serialize)]
struct GameExport {
    /// Rules, seats, commitment, seed (once over) and every action.
    #[serde(flatten)]
    record: Record,
    /// Who played each seat.
    players: Value,
    /// Whether it counted for ratings.
    ranked: bool,
    /// When it started (Unix milliseconds).
    started_at: i64,
    /// When it ended, if it has.
    finished_at: Option<i64>,
    /// When each action was accepted (Unix milliseconds), in the order of `actions`.
    times: Vec<i64>,
    /// The actions the CPU played for a seat's person, by index in `actions`, with why (`away`,
    /// `clock`, `left`); left out when there are none.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    stand_ins: BTreeMap<usize, String>,
    /// The places reached.
    places: BTreeMap<Colour, u8>,
    /// Ratings before and after, for a ranked game that is over.
    ratings: Vec<RatingChange>,
}

async fn game(
    State(state): State<AppState>,
    Path(id): Path<crate::ids::GameId>,
) -> Result<Json<GameExport>, HttpError> {
    let lookup = id.clone();
    let stored = state
        .store
        .run(move |b| b.game(&lookup))
        .await
        .map_err(HttpError::internal)?
        .ok_or_else(|| {
            HttpError::NotFound(Refusal::new(RefusalCode::NoSuchGame, "no such game"))
        })?;
    let mut record = stored.record;
    if stored.finished_at.is_none() {
        // The seed stays secret until the game is over.
        record.seed = None;
    }
    Ok(Json(GameExport {
        record,
        players: serde_json::from_str(&stored.players).map_err(HttpError::internal)?,
        ranked: stored.ranked,
        started_at: stored.started_at,
        finished_at: stored.finished_at,
        times: stored.action_times,
        stand_ins: stored.stand_ins,
        places: stored.places,
        ratings: stored.ratings,
    }))
}

/// A leaderboard.
#[derive(Serialize)]
struct Leaderboard {
    rules: Preset,
    players: Vec<Leader>,
}

async fn leaderboard(
    State(state): State<AppState>,
    Path(rules): Path<String>,
) -> Result<Json<Leaderboard>, HttpError> {
    let preset = Preset::ALL
        .into_iter()
        .find(|p| p.name() == rules)
        .ok_or_else(|| {
            HttpError::NotFound(Refusal::new(
                RefusalCode::NoSuchRules,
                "rules: qdan, classic or vietnamese",
            ))
        })?;
    let players = state
        .store
        .run(move |b| b.leaderboard(preset.name(), LEADERBOARD_SIZE))
        .await
        .map_err(HttpError::internal)?;
    Ok(Json(Leaderboard {
        rules: preset,
        players,
    }))
}

async fn player(
    State(state): State<AppState>,
    Path(id): Path<crate::ids::IdentityId>,
) -> Result<Json<PlayerProfile>, HttpError> {
    state
        .store
        .run(move |b| b.profile(&id))
        .await
        .map_err(HttpError::internal)?
        .map(Json)
        .ok_or_else(|| {
            HttpError::NotFound(Refusal::new(RefusalCode::NoSuchPlayer, "no such player"))
        })
}
