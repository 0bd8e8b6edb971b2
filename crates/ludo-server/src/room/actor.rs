//! The room actor: the only code that changes a room. It takes one thing at a time (a command,
//! a timer), asks the room's core what it decides (see [`RoomCore::decide`]), stores what the
//! decision says must be stored, and only then applies it and tells the connections: a
//! decision that cannot be stored is refused and changes nothing.

use std::time::Instant;

use ludo_bots::Rng;
use tokio::sync::mpsc;

use super::core::{Input, RoomCore, Visitor};
use super::directory::Directory;
use super::leases::Grant;
use super::live::{Live, Play};
use super::outboxes::Outboxes;
use super::retry::Backoff;
use super::table::{Away, Decision, Opening, Tell, Then, Write};
use super::writes::Writes;
use super::{Command, Context, Registry, RoomHandle, RoomState};
use crate::ids::RoomCode;
use crate::protocol::{Occupant, Refusal, RefusalCode, ServerMsg, StandIn};
use crate::store::StoredGame;

struct Room {
    core: RoomCore,
    outboxes: Outboxes,
    writes: Writes,
    bot_choices: Rng,
    /// The rooms in memory, which this room leaves when it unloads itself.
    registry: Registry,
    /// When the room last had a command or acted.
    last_activity: Instant,
    /// The allowances of quick phrases: each person's, each watcher address's, the watchers'.
    phrases: super::phrases::Allowances,
    /// The public rooms' lists, where this room keeps its entry while it is public.
    directory: Directory,
    no_shows: crate::matchmaking::no_shows::NoShows,
    /// Whether the server is stopping (see [`Context::stopping`]).
    stopping: tokio::sync::watch::Receiver<bool>,
    /// Set when storage holds an action this room did not make (another node served it
    /// meanwhile): the room stops.
    superseded: bool,
}

/// Starts a room's actor.
pub fn spawn(
    code: RoomCode,
    state: RoomState,
    latest: Option<StoredGame>,
    grant: Option<Grant>,
    context: Context,
) -> RoomHandle {
    let (commands, queue) = mpsc::unbounded_channel();
    let live = latest.and_then(|stored| match Live::restore(stored) {
        Ok(live) => Some(live),
        Err(error) => {
            tracing::error!(room = %code, %error, "a stored game cannot be restored");
            None
        }
    });
    let now = Instant::now();
    let same_address = context.ranked_same_address;
    let room = Room {
        core: RoomCore::loaded(code.clone(), state, live, context.timing, same_address, now),
        outboxes: Outboxes::default(),
        writes: Writes {
            code,
            store: context.store,
            metrics: context.metrics,
            backoff: Backoff::default(),
        },
        bot_choices: Rng::new(crate::ids::now_ms() as u64),
        registry: context.registry,
        last_activity: now,
        phrases: super::phrases::Allowances::new(now),
        directory: context.directory,
        no_shows: context.no_shows,
        stopping: context.stopping,
        superseded: false,
    };
    let (code, store) = (room.core.code.clone(), room.writes.store.clone());
    tokio::spawn(async move {
        let (registry, directory) = (room.registry.clone(), room.directory.clone());
        let metrics = room.writes.metrics.clone();
        let actor = room.run(queue);
        super::supervise::supervise(code.clone(), registry, directory, metrics, actor).await;
        // The room acts no more: its lease can go.
        if let Some(grant) = grant {
            super::leases::release(&store, code, grant).await;
        }
    });
    RoomHandle { commands }
}

impl Room {
    async fn run(mut self, mut queue: mpsc::UnboundedReceiver<Command>) {
        let live = self.core.live.as_ref();
        if live.is_some_and(|l| l.game.is_over() && !l.marked_over) {
            // The last action was stored but the server stopped before the game was marked
            // over (and rated): finish it now.
            self.finish().await;
        }
        if !self.core.checks().game_on() && !self.core.state.left.is_empty() {
            // The game ended before the seats of those who left it could be freed.
            let _ = self
                .react(
                    None,
                    Input::Finished {
                        changes: Vec::new(),
                    },
                )
                .await;
        }
        loop {
            let wake = self.schedule_next();
            let idle = self.idle_until();
            let arriving = self.core.arriving_until;
            let offer_due = self.core.table(Instant::now()).offer_due();
            tokio::select! {
                command = queue.recv() => match command {
                    Some(Command::Release) | None => break,
                    Some(command) => {
                        self.last_activity = Instant::now();
                        self.handle(command).await;
                    }
                },
                () = sleep_until(wake), if wake.is_some() => {
                    self.auto_act().await;
                    self.last_activity = Instant::now();
                }
                () = sleep_until(arriving), if arriving.is_some() => {
                    let _ = self.react(None, Input::ArrivalOver).await;
                }
                () = sleep_until(offer_due), if offer_due.is_some() => {
                    self.start_if_everyone_accepted().await;
                }
                () = sleep_until(idle), if idle.is_some() => {
                    if self.unload(&mut queue) {
                        break;
                    }
                }
            }
            if self.superseded {
                // Another node stored an action this room had not seen: it stops here, and is
                // loaded again from storage when next needed.
                break;
            }
        }
    }

    /// When the room unloads itself: with nobody connected and no game being played, after
    /// [`super::Timing::idle`] without activity.
    fn idle_until(&self) -> Option<Instant> {
        let idle = self.core.visitors.is_empty() && !self.core.checks().game_on();
        idle.then(|| self.last_activity.checked_add(self.core.timing.idle))
            .flatten()
    }

    /// Leaves the registry and stops taking commands, unless one is waiting; whether it did.
    /// Everything the room holds is already stored.
    fn unload(&mut self, queue: &mut mpsc::UnboundedReceiver<Command>) -> bool {
        let mut registry = super::lock(&self.registry);
        if !queue.is_empty() {
            return false;
        }
        registry.remove(&self.core.code);
        self.directory.remove(&self.core.code);
        queue.close();
        tracing::debug!(room = %self.core.code, "unloaded after being idle");
        true
    }

    async fn handle(&mut self, command: Command) {
        match command {
            Command::Join {
                conn,
                identity,
                name,
                address,
                out,
            } => {
                let visitor = Visitor {
                    identity,
                    name,
                    address,
                };
                self.core.visitors.insert(conn, visitor);
                self.outboxes.open(conn, out);
                // Where the tests make a room fail (compiled to nothing without `failpoints`).
                fail::fail_point!("room-join");
                let _ = self.react(Some(conn), Input::Arrived { conn }).await;
            }
            Command::Leave { conn } => {
                self.outboxes.close(conn);
                if let Some(gone) = self.core.visitors.remove(&conn) {
                    let gone = Input::Gone {
                        identity: gone.identity,
                    };
                    let _ = self.react(None, gone).await;
                }
            }
            Command::View { reply } => {
                let _ = reply.send(self.core.view());
            }
            // The run loop stops on it before it gets here.
            Command::Release => {}
            Command::Client { conn, msg, req } => {
                let known = self.core.visitors.contains_key(&conn);
                let outcome = match msg {
                    crate::protocol::ClientMsg::Say { phrase } => self.say(conn, &phrase),
                    msg => {
                        if known && msg.is_game_action() {
                            self.begin_stand_in_due();
                        }
                        self.react(Some(conn), Input::Request { conn, msg }).await
                    }
                };
                if let Err(refusal) = outcome {
                    let stale = refusal.code == RefusalCode::StaleVersion;
                    self.outboxes.send(conn, &refusal.answering(req));
                    if stale && let Some(game) = self.core.game_view() {
                        // Whoever acted on an old version gets the game as it is now.
                        self.outboxes.send(conn, &ServerMsg::Game { game });
                    }
                }
            }
        }
    }

    /// Decides `input` now and carries the decision out; `asking` as for [`Room::settle`].
    async fn react(&mut self, asking: Option<u64>, input: Input) -> Result<(), Refusal> {
        let decision = self.core.decide(input, Instant::now())?;
        self.carry_out(asking, decision).await
    }

    /// Carries a decision out: an action or a new game is stored, taken in and told; anything
    /// else settled (see [`Room::settle`]), then what follows it done.
    async fn carry_out(&mut self, asking: Option<u64>, decision: Decision) -> Result<(), Refusal> {
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
    /// and cannot be), applies it and tells (`asking`: the connection whose request or arrival
    /// it answers, if any); what follows it.
    async fn settle(&mut self, asking: Option<u64>, decision: Decision) -> Result<Then, Refusal> {
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
            self.tell(asking, told);
        }
        Ok(then)
    }

    /// Tells what a decision says to tell; `asking` as for [`Room::settle`].
    fn tell(&self, asking: Option<u64>, told: Tell) {
        let core = &self.core;
        match told {
            Tell::Left { seat, freed } => self.broadcast(&ServerMsg::Left { seat, freed }),
            Tell::Declined { seat } => self.broadcast(&ServerMsg::Declined { seat }),
            Tell::Table => self.broadcast_room(None),
            Tell::Welcome => {
                if let Some(conn) = asking
                    && let Some(you) = core.visitors.get(&conn).map(|v| v.identity.clone())
                {
                    let (room, game) = (core.view(), core.game_view());
                    self.outboxes
                        .send(conn, &ServerMsg::Welcome { you, room, game });
                }
            }
            Tell::TableToOthers => self.broadcast_room(asking),
            Tell::WatchersToOthers => {
                self.publish();
                let room = ServerMsg::Room { room: core.view() };
                self.outboxes.chatter(&room, asking);
            }
            Tell::Cancelled => {
                tracing::info!(room = %core.code, "a matched table was cancelled: not everyone came");
                let now = Instant::now();
                for occupant in core.state.seats.values() {
                    if let Occupant::Person { id, .. } = occupant
                        && !core.visitors.values().any(|v| &v.identity == id)
                    {
                        self.no_shows.missed(id, now);
                    }
                }
                self.broadcast(&ServerMsg::Cancelled);
            }
            Tell::Rated(changes) => self.broadcast(&ServerMsg::Rated { changes }),
            Tell::Listing => self.publish(),
        }
    }

    /// Starts the new game offered once everyone it waits for has accepted it: the last person
    /// who had not is gone, back, or away for long enough.
    async fn start_if_everyone_accepted(&mut self) {
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
            self.broadcast_room(None);
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

    /// A quick phrase, shown to everyone in the room (see [`super::phrases::said`]).
    fn say(&mut self, conn: u64, phrase: &str) -> Result<(), Refusal> {
        let now = Instant::now();
        let (said, chatter) =
            super::phrases::said(&self.core, &mut self.phrases, conn, phrase, now)?;
        if chatter {
            self.outboxes.chatter(&said, None);
        } else {
            self.broadcast(&said);
        }
        Ok(())
    }

    /// Stores, takes in, then shows one action; `stand_in` says why, if the CPU played it for
    /// the seat's person.
    async fn act(&mut self, play: Play, stand_in: Option<StandIn>) -> Result<(), Refusal> {
        let live = self.core.live.as_ref();
        let game_id = live
            .ok_or_else(|| Refusal::new(RefusalCode::NoGame, "no game"))?
            .id
            .clone();
        if !self
            .writes
            .action(game_id.to_string(), &play, stand_in)
            .await?
        {
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
        self.broadcast(&ServerMsg::Action {
            seat,
            action,
            stand_in,
            game,
        });
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
        self.broadcast(&ServerMsg::Game { game });
        if offered {
            // The offer is over: the table says so.
            self.broadcast_room(None);
        }
        self.publish();
        Ok(())
    }

    /// Marks the game over in storage (rating it if it is ranked) and announces the ratings.
    async fn finish(&mut self) {
        let live = self.core.live.as_ref();
        let Some(live) = live.filter(|l| l.game.is_over() && !l.marked_over) else {
            return;
        };
        let (id, places) = (live.id.to_string(), live.places());
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

    /// The CPU stands in from the moment it is due, unless the server is stopping (see
    /// [`RoomCore::begin_stand_in_due`]).
    fn begin_stand_in_due(&mut self) {
        if !*self.stopping.borrow() {
            let until = self.writes.until();
            self.core.begin_stand_in_due(Instant::now(), until);
        }
    }

    /// When the room acts by itself next, if it does: never while the server stops.
    fn schedule_next(&self) -> Option<Instant> {
        if *self.stopping.borrow() {
            return None;
        }
        self.core.schedule(self.writes.until())?.next()
    }

    /// The CPU plays one action for the seat to act.
    async fn auto_act(&mut self) {
        if *self.stopping.borrow() {
            return;
        }
        let schedule = self.core.schedule(self.writes.until());
        let Some((level, stand_in)) = schedule.and_then(|s| s.player()) else {
            return;
        };
        let live = self.core.live.as_mut().expect("a schedule has a game");
        if stand_in.is_some() {
            live.stand_in = stand_in;
        }
        let (code, rng) = (&self.core.code, &mut self.bot_choices);
        let Some(action) = super::cpu::choice(code, live, level, rng).await else {
            return;
        };
        let chose = Input::CpuChose { action, stand_in };
        if let Err(refusal) = self.react(None, chose).await {
            tracing::error!(room = %self.core.code, ?refusal, "the CPU's action was refused");
        }
    }

    /// Keeps this room's entry in the public lists as it now is.
    fn publish(&self) {
        match self.core.listing() {
            Some(listing) => self.directory.put(listing),
            None => self.directory.remove(&self.core.code),
        }
    }

    fn broadcast(&self, msg: &ServerMsg) {
        self.outboxes.broadcast(msg, None);
    }

    /// The table as it now is, to the public lists and to everyone but `except`.
    fn broadcast_room(&self, except: Option<u64>) {
        self.publish();
        let room = ServerMsg::Room {
            room: self.core.view(),
        };
        self.outboxes.broadcast(&room, except);
    }
}

async fn sleep_until(wake: Option<Instant>) {
    match wake {
        Some(at) => tokio::time::sleep_until(at.into()).await,
        None => std::future::pending().await,
    }
}
