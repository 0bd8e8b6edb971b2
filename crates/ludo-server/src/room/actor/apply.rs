//! How the room's actor carries a decision out: first it stores what the decision says must be
//! stored (an action, a new game, the table); if that fails, nothing of the decision is applied
//! and the request is refused with `internal`. Then it takes the decision in, tells, and does
//! what follows (a new game starting, a game ended being marked over).

use std::time::Instant;

use super::Room;
use crate::ids::ConnectionId;
use crate::protocol::{Refusal, RefusalCode, ServerMsg, StandIn};
use crate::room::core::Input;
use crate::room::live::{Live, Play};
use crate::room::table::{Away, Decision, Opening, Then, Write};

impl Room {
    /// Carries a decision out: an action or a new game is stored, taken in and told; anything
    /// else settled (see [`Room::settle`]), then what follows it done.
    pub(super) async fn carry_out(
        &mut self,
        asking: Option<ConnectionId>,
        decision: Decision,
    ) -> Result<(), Refusal> {
        match self.settle(asking, decision).await? {
            Then::Nothing => Ok(()),
            Then::Play { play, stand_in } => {
                self.act(play, stand_in).await?;
                if play.ends_the_game() {
                    self.finish().await;
                }
                Ok(())
            }
            Then::Open(opening) => self.open(opening).await,
            Then::Say { said, allowances } => {
                self.core.phrases = allowances;
                self.audience.say(said);
                Ok(())
            }
            Then::StartIfEveryoneAccepted => {
                self.start_if_everyone_accepted().await;
                Ok(())
            }
            Then::Start { or_else } => {
                let started = self.start().await;
                if started.is_err() {
                    self.core.rematch = or_else;
                }
                started
            }
            Then::BeginMatchedGame => {
                if let Err(refusal) = self.start().await {
                    tracing::error!(room = %self.core.code, ?refusal, "a matched game did not start");
                }
                Ok(())
            }
        }
    }

    /// Stores the table as a decision says (refused, and nothing changed, if it must be stored
    /// and cannot be: the room's one rollback), takes the decision in and tells (`asking`: the
    /// connection whose request or arrival it answers, if any); what follows it.
    async fn settle(
        &mut self,
        asking: Option<ConnectionId>,
        decision: Decision,
    ) -> Result<Then, Refusal> {
        let Decision {
            state,
            rematch,
            store,
            away,
            tell,
            then,
        } = decision;
        let before = std::mem::replace(&mut self.core.state, state);
        match store {
            Write::Nothing => {}
            Write::Table => {
                if let Err(refusal) = self.save_state().await {
                    self.core.state = before;
                    return Err(refusal);
                }
            }
            // The change stands either way; `unsaved` makes the next arrival store it.
            Write::TableIfPossible => {
                let _ = self.save_state().await;
            }
        }
        if self.core.state.arrival_ends.is_none() {
            self.core.arriving_until = None;
        }
        self.core.rematch = rematch;
        match away {
            Some(Away::Back(identity)) => {
                self.core.away_since.remove(&identity);
                if let Some(live) = self.core.live.as_mut() {
                    live.back(&identity);
                }
                // Unless their clock ran out meanwhile: then the rest of the turn is the CPU's.
                self.begin_stand_in_due();
            }
            Some(Away::Since(identity, since)) => {
                self.core.away_since.insert(identity, since);
            }
            None => {}
        }
        for told in tell {
            self.audience.tell(&self.core, asking, told);
        }
        Ok(then)
    }

    /// Starts the new game offered once everyone it waits for has accepted it: the last person
    /// who had not is gone, back, or away for long enough.
    pub(super) async fn start_if_everyone_accepted(&mut self) {
        let started = match self.core.decide(Input::OfferDue, Instant::now()) {
            Ok(Decision {
                then: Then::Open(opening),
                ..
            }) => self.open(opening).await,
            Ok(_) => Ok(()),
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
        match self.core.decide(Input::Start, Instant::now())?.then {
            Then::Open(opening) => self.open(opening).await,
            _ => Ok(()),
        }
    }

    /// Stores, takes in, then shows one action; `stand_in` says why, if the CPU played it for
    /// the seat's person.
    async fn act(&mut self, play: Play, stand_in: Option<StandIn>) -> Result<(), Refusal> {
        let live = self.core.live.as_ref();
        let game = live.ok_or_else(|| Refusal::new(RefusalCode::NoGame, "no game"))?;
        if !self.writes.action(game.id.clone(), &play, stand_in).await? {
            tracing::warn!(room = %self.core.code, number = play.number, "another node stored this action's number first; the room stops and is loaded again from storage");
            self.superseded = true;
            return Err(Refusal::new(
                RefusalCode::Internal,
                "the game went on elsewhere; reconnect",
            ));
        }
        let live = self.core.live.as_mut().expect("checked above");
        live.commit(play.action, play.next);
        let actions = &self.writes.metrics.actions;
        actions.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let game = self.core.game_view().expect("a game is on");
        let (seat, action) = (play.seat, play.action);
        let played = ServerMsg::Action {
            seat,
            action,
            stand_in,
            game,
        };
        self.audience.outboxes.broadcast(&played, None);
        Ok(())
    }

    /// Stores a new game, then takes it in with the table as it opens it, and shows it.
    async fn open(&mut self, opening: Opening) -> Result<(), Refusal> {
        let Opening {
            seats,
            ranked,
            state,
        } = opening;
        let (code, rules) = (&self.core.code, self.core.state.settings.rules);
        let players = self.core.state.seats.clone();
        let (live, new) = Live::start(code, rules, seats, players, ranked)
            .map_err(|e| Refusal::engine(RefusalCode::BadMessage, &e))?;
        self.writes.new_game(new).await?;
        self.core.live = Some(live);
        let offered = self.core.rematch.take().is_some();
        self.core.state = state;
        // The game is stored; who started it is only needed for the next one.
        let _ = self.save_state().await;
        let game = self.core.game_view().expect("a game is on");
        self.audience
            .outboxes
            .broadcast(&ServerMsg::Game { game }, None);
        if offered {
            // The offer is over: the table says so.
            self.audience.table(&self.core, None);
        }
        self.audience.publish(&self.core);
        Ok(())
    }

    /// Marks the game over in storage (rating it if it is ranked) and announces the ratings.
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
            let _ = self.settle(None, ended).await;
        }
    }

    async fn save_state(&mut self) -> Result<(), Refusal> {
        let saved = self.writes.table(&self.core.state).await;
        self.core.unsaved = saved.is_err();
        saved
    }
}
