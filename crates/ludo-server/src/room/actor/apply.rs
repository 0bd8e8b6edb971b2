//! How the room's actor carries a decision out: one pass over its effects, in order (see
//! `effects.rs`). Its stores come first: if a write it needs cannot be made, nothing of the
//! decision is applied and the request is refused with `internal` (the room's one rollback).
//! Then the decision's table and offer are taken in, and the rest applied, told and followed
//! in order.

use std::time::Instant;

use super::Room;
use crate::ids::ConnectionId;
use crate::protocol::{Refusal, RefusalCode, StandIn};
use crate::room::RoomState;
use crate::room::core::Input;
use crate::room::effects::{Away, Decision, Effect, FollowUp, Write};
use crate::room::live::{Live, Play};
use crate::room::table::Offer;

impl Room {
    /// Carries a decision out (`asking`: the connection whose request or arrival it answers,
    /// if any): its stores, then its table and offer taken in, then the rest of its effects.
    pub(super) async fn carry_out(
        &mut self,
        asking: Option<ConnectionId>,
        decision: Decision,
    ) -> Result<(), Refusal> {
        let Decision {
            state,
            rematch,
            effects,
        } = decision;
        // The decision's table and offer until they are taken in, and the game it opens.
        let mut pending = Some((state, rematch));
        let mut opened = None;
        for effect in effects {
            if !effect.stores()
                && let Some((state, rematch)) = pending.take()
            {
                self.take_in(state, rematch, opened.take());
            }
            match effect {
                Effect::Store(write) => {
                    let (state, _) = pending.as_ref().expect("stores come first");
                    let saved = self.save_state(state).await;
                    // Otherwise the change stands either way; `unsaved` makes the next arrival
                    // store it.
                    if write == Write::Table {
                        saved?;
                    }
                }
                Effect::Append { play, stand_in } => self.append(&play, stand_in).await?,
                Effect::CreateGame { seats, ranked } => {
                    let (state, _) = pending.as_ref().expect("stores come first");
                    opened = Some(self.create_game(state, seats, ranked).await?);
                }
                Effect::Connect(conn, visitor) => {
                    self.core.visitors.insert(conn, visitor);
                }
                Effect::Disconnect(conn) => {
                    self.core.visitors.remove(&conn);
                }
                Effect::Away(away) => self.away(away),
                Effect::StandIn(why) => {
                    // The room acts by itself no more while the server stops.
                    if !*self.stopping.borrow()
                        && let Some(live) = self.core.live.as_mut()
                    {
                        live.stand_in = Some(why);
                    }
                }
                Effect::Commit(play) => {
                    let live = self.core.live.as_mut().expect("a stored action has a game");
                    live.commit(play.action, play.next);
                    let actions = &self.writes.metrics.actions;
                    actions.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                }
                Effect::Phrases(allowances) => self.core.phrases = allowances,
                Effect::Tell(told) => self.audience.tell(&self.core, asking, told),
                Effect::Finish => self.finish().await,
                Effect::FollowUp(next) => self.follow(next).await?,
            }
        }
        if let Some((state, rematch)) = pending {
            self.take_in(state, rematch, opened);
        }
        Ok(())
    }

    /// Takes a decision's table and offer in, with the game it opened, once its stores are
    /// made.
    fn take_in(&mut self, state: RoomState, rematch: Option<Offer>, opened: Option<Live>) {
        self.core.state = state;
        if let Some(live) = opened {
            self.core.live = Some(live);
        }
        if self.core.state.arrival_ends.is_none() {
            self.core.arriving_until = None;
        }
        self.core.rematch = rematch;
    }

    /// A person coming back or going away.
    fn away(&mut self, away: Away) {
        match away {
            Away::Back(identity) => {
                self.core.away_since.remove(&identity);
                if let Some(live) = self.core.live.as_mut() {
                    live.back(&identity);
                }
            }
            Away::Since(identity, since) => {
                self.core.away_since.insert(identity, since);
            }
        }
    }

    /// Decides and carries out what follows a decision (see [`FollowUp`]).
    async fn follow(&mut self, next: FollowUp) -> Result<(), Refusal> {
        match next {
            FollowUp::StartIfEveryoneAccepted => {
                self.start_if_everyone_accepted().await;
                Ok(())
            }
            FollowUp::BeginMatchedGame => {
                if let Err(refusal) = self.start().await {
                    tracing::error!(room = %self.core.code, ?refusal, "a matched game did not start");
                }
                Ok(())
            }
        }
    }

    /// Starts the new game offered once everyone it waits for has accepted it: the last person
    /// who had not is gone, back, or away for long enough.
    pub(super) async fn start_if_everyone_accepted(&mut self) {
        let started = match self.core.decide(Input::OfferDue, Instant::now()) {
            Ok(decision) => Box::pin(self.carry_out(None, decision)).await,
            Err(refusal) => Err(refusal),
        };
        if let Err(refusal) = started {
            self.core.rematch = None;
            self.audience.table(&self.core, None);
            tracing::warn!(room = %self.core.code, ?refusal, "an accepted new game did not start");
        }
    }

    /// A new game starts now, if one may.
    async fn start(&mut self) -> Result<(), Refusal> {
        let opening = self.core.decide(Input::Start, Instant::now())?;
        Box::pin(self.carry_out(None, opening)).await
    }

    /// Stores one action; `stand_in` says why, if the CPU played it for the seat's person.
    async fn append(&mut self, play: &Play, stand_in: Option<StandIn>) -> Result<(), Refusal> {
        let live = self.core.live.as_ref();
        let game = live.ok_or_else(|| Refusal::new(RefusalCode::NoGame, "no game"))?;
        if !self.writes.action(game.id.clone(), play, stand_in).await? {
            tracing::warn!(room = %self.core.code, number = play.number, "another node stored this action's number first; the room stops and is loaded again from storage");
            self.superseded = true;
            return Err(Refusal::new(
                RefusalCode::Internal,
                "the game went on elsewhere; reconnect",
            ));
        }
        Ok(())
    }

    /// Stores a new game between `seats` at the table `state`: the game, to be taken in.
    async fn create_game(
        &mut self,
        state: &RoomState,
        seats: Vec<ludo_rules::Colour>,
        ranked: bool,
    ) -> Result<Live, Refusal> {
        let (code, rules) = (&self.core.code, state.settings.rules);
        let players = state.seats.clone();
        let (live, new) = Live::start(code, rules, seats, players, ranked)
            .map_err(|e| Refusal::engine(RefusalCode::BadMessage, &e))?;
        self.writes.new_game(new).await?;
        Ok(live)
    }

    /// Marks the game over in storage (rating it if it is ranked) and carries out what that
    /// decides: the ratings announced, the seats of those who left freed.
    pub(super) async fn finish(&mut self) {
        let live = self.core.live.as_ref();
        let Some(live) = live.filter(|l| l.game.is_over() && !l.marked_over) else {
            return;
        };
        let (id, places) = (live.id.clone(), live.places());
        let Some(changes) = self.writes.game_over(id, places).await else {
            return;
        };
        if let Some(live) = self.core.live.as_mut() {
            live.marked_over = true;
        }
        if let Ok(ended) = self
            .core
            .decide(Input::Finished { changes }, Instant::now())
        {
            let _ = Box::pin(self.carry_out(None, ended)).await;
        }
    }

    async fn save_state(&mut self, state: &RoomState) -> Result<(), Refusal> {
        let saved = self.writes.table(state).await;
        self.core.unsaved = saved.is_err();
        saved
    }
}
