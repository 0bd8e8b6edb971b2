//! What every backend does with the rows it reads: stored text made into the store's types, and
//! a finished game's ratings computed, so SQLite and PostgreSQL decide each of these in one place.

use std::collections::BTreeMap;

use ludo_fair::{Action, Record};
use ludo_rules::{Colour, Rules};
use serde_json::Value;

use super::{GameSummary, PlayerStats, RatingChange, SeatSummary, StoreError, StoreResult};
use crate::rating::{self, Entrant};

/// How many finished games a player's page lists.
pub(super) const RECENT_GAMES: u32 = 30;

/// Maps a JSON failure to a storage error with its context.
pub(super) fn json_fail(context: &str) -> impl Fn(serde_json::Error) -> StoreError + '_ {
    move |e| StoreError(format!("{context}: {e}"))
}

/// Reads a stored colour name.
pub(super) fn colour(name: &str) -> StoreResult<Colour> {
    name.parse()
        .map_err(|_| StoreError(format!("a stored seat is not a colour: {name}")))
}

/// Reads a stored place (1 to 4).
pub(super) fn place(stored: i16) -> StoreResult<u8> {
    u8::try_from(stored)
        .map_err(|_| StoreError(format!("a stored place is out of range: {stored}")))
}

/// The ruleset family of a game's stored rules: its preset's name.
pub(super) fn family_of(rules_json: &str) -> StoreResult<&'static str> {
    let rules: Rules = serde_json::from_str(rules_json).map_err(json_fail("a game's rules"))?;
    Ok(rules.preset_name().name())
}

/// A game's row as stored (JSON as text), before it is read into a [`super::StoredGame`].
pub(super) struct GameRow {
    pub id: crate::ids::GameId,
    pub room: crate::ids::RoomCode,
    pub rules: String,
    pub seats: String,
    pub players: String,
    pub commitment: String,
    pub seed: String,
    pub finished_at: Option<i64>,
    pub ranked: bool,
    pub started_at: i64,
    pub places: Option<String>,
}

impl GameRow {
    /// The stored game, given its actions (JSON, time and why the CPU played it if it did, in
    /// order) and its rating changes.
    pub fn into_game(
        self,
        stored_actions: Vec<(String, i64, Option<String>)>,
        ratings: Vec<RatingChange>,
    ) -> StoreResult<super::StoredGame> {
        let (mut actions, mut action_times) = (Vec::new(), Vec::new());
        let mut stand_ins = BTreeMap::new();
        for (index, (action, at, stand_in)) in stored_actions.into_iter().enumerate() {
            actions.push(serde_json::from_str::<Action>(&action).map_err(json_fail("an action"))?);
            action_times.push(at);
            if let Some(why) = stand_in {
                stand_ins.insert(index, why);
            }
        }
        let record = Record {
            game_id: self.id.to_string(),
            rules: serde_json::from_str::<Rules>(&self.rules)
                .map_err(json_fail("a game's rules"))?,
            seats: serde_json::from_str::<Vec<Colour>>(&self.seats)
                .map_err(json_fail("a game's seats"))?,
            commitment: self.commitment,
            seed: Some(self.seed),
            actions,
        };
        Ok(super::StoredGame {
            id: self.id,
            room: self.room,
            record,
            players: self.players,
            action_times,
            stand_ins,
            ranked: self.ranked,
            started_at: self.started_at,
            finished_at: self.finished_at,
            places: places(self.places.as_deref())?,
            ratings,
        })
    }
}

/// A game's stored places (none before it is over).
fn places(stored: Option<&str>) -> StoreResult<BTreeMap<Colour, u8>> {
    match stored {
        Some(p) => serde_json::from_str(p).map_err(json_fail("a game's places")),
        None => Ok(BTreeMap::new()),
    }
}

/// A finished game's row as a summary, read from the columns `id, rules, ranked, started_at,
/// finished_at, seats, players, places, left` (`left`: the seats the CPU played for a person who
/// had left, comma-separated, from the actions' `stand_in`).
pub(super) struct SummaryRow {
    pub id: String,
    pub rules: String,
    pub ranked: bool,
    pub started_at: i64,
    pub finished_at: i64,
    pub seats: String,
    pub players: String,
    pub places: Option<String>,
    pub left: Option<String>,
}

impl SummaryRow {
    /// The summary: seats in turn order with who played them and their places.
    pub fn into_summary(self) -> StoreResult<GameSummary> {
        let order: Vec<Colour> =
            serde_json::from_str(&self.seats).map_err(json_fail("a game's seats"))?;
        let players: BTreeMap<Colour, Value> =
            serde_json::from_str(&self.players).map_err(json_fail("a game's players"))?;
        let places = places(self.places.as_deref())?;
        let left: Vec<&str> = self.left.as_deref().unwrap_or("").split(',').collect();
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
                    left: person && left.contains(&seat.name()),
                }
            })
            .collect();
        Ok(GameSummary {
            id: self.id,
            family: family_of(&self.rules)?.to_owned(),
            ranked: self.ranked,
            started_at: self.started_at,
            finished_at: self.finished_at,
            seats,
        })
    }
}

/// A player's statistics from the places they reached in their finished games (a game without
/// a place does not count).
pub(super) fn stats(places: impl IntoIterator<Item = Option<u8>>) -> PlayerStats {
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
    stats
}

/// A person of a ranked game being finished: their seat (as stored), identity, and rating and
/// rated games before it.
pub(super) struct Rated {
    pub seat: String,
    pub identity: String,
    pub before: Entrant,
    pub after: f64,
}

/// The ratings after a ranked game: each person (seat as stored, identity, rating and rated
/// games before) with the place reached. Someone without a place (none should be) counts as
/// behind everybody.
pub(super) fn rate(
    people: Vec<(String, String, (f64, u32))>,
    places: &BTreeMap<Colour, u8>,
) -> StoreResult<Vec<Rated>> {
    let last = people.len() as u8;
    let mut entrants = Vec::with_capacity(people.len());
    for (seat, _, (rating, games)) in &people {
        let place = places.get(&colour(seat)?).copied().unwrap_or(last);
        entrants.push(Entrant {
            rating: *rating,
            games: *games,
            place,
        });
    }
    let after = rating::after_game(&entrants);
    Ok(people
        .into_iter()
        .zip(entrants)
        .zip(after)
        .map(|(((seat, identity, _), before), after)| Rated {
            seat,
            identity,
            before,
            after,
        })
        .collect())
}
