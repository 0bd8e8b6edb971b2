//! A room's writes to storage: the table, a new game, an action, a game over. A write that
//! fails is counted, makes the room's automatic actions back off (see [`Backoff`]), is logged at
//! most once per interval, and refuses the request that needed it with `internal`.

use std::sync::Arc;
use std::time::Instant;

use ludo_rules::Colour;

use super::RoomState;
use super::live::Play;
use super::retry::Backoff;
use crate::ids::{GameId, RoomCode};
use crate::protocol::{Refusal, RefusalCode, StandIn};
use crate::store::{NewGame, RatingChange, Store, StoreResult};

/// Where a room writes, and how its writes have been going.
pub struct Writes {
    /// The room's code, for its rows and its log lines.
    pub code: RoomCode,
    /// The storage.
    pub store: Store,
    /// The server's counters.
    pub metrics: Arc<crate::Metrics>,
    /// Storage failures since the last success.
    pub backoff: Backoff,
}

impl Writes {
    /// Stores the table.
    ///
    /// # Errors
    /// `internal`, when it cannot be stored.
    pub async fn table(&mut self, state: &RoomState) -> Result<(), Refusal> {
        let (code, host) = (self.code.clone(), state.host.clone());
        let state = serde_json::to_string(state).expect("a room state serialises");
        let now = crate::ids::now_ms();
        let stored = self
            .store
            .run(move |b| b.save_room(&code, &host, &state, now))
            .await;
        self.outcome(stored, "the table")
    }

    /// Stores a new game.
    ///
    /// # Errors
    /// `internal`, when it cannot be stored.
    pub async fn new_game(&mut self, new: NewGame) -> Result<(), Refusal> {
        let stored = self.store.run(move |b| b.create_game(&new)).await;
        self.outcome(stored, "a new game")
    }

    /// Stores `play` as the next action of the game `game_id` (`stand_in`: why the CPU played it
    /// for the seat's person, if it did): `false` when another node stored an action under its
    /// number first.
    ///
    /// # Errors
    /// `internal`, when it cannot be stored.
    pub async fn action(
        &mut self,
        game_id: GameId,
        play: &Play,
        stand_in: Option<StandIn>,
    ) -> Result<bool, Refusal> {
        let (number, seat, action) = (play.number, play.seat, play.action);
        let (why, at) = (stand_in.map(StandIn::name), crate::ids::now_ms());
        let stored = self
            .store
            .run(move |b| b.append_action(&game_id, number, seat, &action, why, at))
            .await;
        self.outcome(stored, "an action")
    }

    /// Marks the game `id` over with these `places` (rating it if it is ranked): the ratings'
    /// changes. A failure is only logged: the game is marked again when the room is next loaded.
    pub async fn game_over(
        &self,
        id: GameId,
        places: std::collections::BTreeMap<Colour, u8>,
    ) -> Option<Vec<RatingChange>> {
        let at = crate::ids::now_ms();
        match self
            .store
            .run(move |b| b.finish_game(&id, &places, at))
            .await
        {
            Ok(changes) => Some(changes),
            Err(e) => {
                tracing::error!(room = %self.code, error = %e, "a finished game could not be marked");
                None
            }
        }
    }

    /// No automatic action before this, after storage failures.
    pub fn until(&self) -> Option<Instant> {
        self.backoff.until()
    }

    fn outcome<T>(&mut self, outcome: StoreResult<T>, what: &str) -> Result<T, Refusal> {
        match outcome {
            Ok(value) => {
                if let Some(failures) = self.backoff.succeeded() {
                    tracing::warn!(room = %self.code, failures, "storage works again");
                }
                Ok(value)
            }
            Err(error) => {
                if let Some(failures) = self.backoff.failed(Instant::now()) {
                    tracing::error!(room = %self.code, %error, failures, "{what} could not be stored");
                }
                self.metrics
                    .storage_failures
                    .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                Err(Refusal::new(
                    RefusalCode::Internal,
                    format!("{what} could not be saved; try again"),
                ))
            }
        }
    }
}
