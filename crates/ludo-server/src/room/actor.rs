//! The room actor: the only code that touches a room's table and game. It checks every game
//! request in a fixed order (a game is on, the sender plays in it, it is not over, it is the
//! sender's turn, their clock has not run out, the version is current, the rules allow it),
//! stores the action, then broadcasts.

use crate::ids::{ConnectionId, IdentityId, RoomCode};
use crate::protocol::RefusalCode;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use ludo_bots::Rng;
use ludo_fair::Action;
use ludo_rules::{Colour, Phase};
use tokio::sync::mpsc;

use super::checks::Checks;
use super::directory::{Directory, Listing};
use super::leases::Grant;
use super::live::{Live, Play};
use super::retry::Backoff;
use super::schedule::Schedule;
use super::table::{self, Away, Decision, Here, Offer, SettingsChange, Table, Tell, Then, Write};
use super::{Command, Context, Outbox, Registry, RoomHandle, RoomState, Text, Timing};
use crate::protocol::{ClientMsg, Occupant, Refusal, RoomView, ServerMsg, StandIn};
use crate::store::{Store, StoreResult, StoredGame};

struct Conn {
    identity: IdentityId,
    name: String,
    address: std::net::IpAddr,
    out: Outbox,
}

struct Room {
    code: RoomCode,
    state: RoomState,
    store: Store,
    timing: Timing,
    metrics: Arc<crate::Metrics>,
    conns: HashMap<ConnectionId, Conn>,
    live: Option<Live>,
    /// When each seated person went away (absent from the map: connected, or never came).
    away_since: HashMap<IdentityId, Instant>,
    bot_choices: Rng,
    /// Whether the table changed since it was last stored (a write that could not be made).
    unsaved: bool,
    /// The rooms in memory, which this room leaves when it unloads itself.
    registry: Registry,
    /// When the room last had a command or acted.
    last_activity: Instant,
    /// Storage failures since the last success: automatic actions wait, and the log is brief.
    storage: Backoff,
    /// For a table formed by matchmaking: until when its people may arrive; its game starts
    /// when the last of them is connected.
    arriving_until: Option<Instant>,
    /// While a new game is offered: the people who accepted it. Kept in memory only: an offer
    /// does not outlive a restart.
    rematch: Option<Offer>,
    /// The allowances of quick phrases: each person's, each watcher address's, the watchers'.
    phrases: super::phrases::Allowances,
    /// The public rooms' lists, where this room keeps its entry while it is public.
    directory: Directory,
    no_shows: crate::matchmaking::no_shows::NoShows,
    /// Whether two people from one network address may play a ranked game together.
    ranked_same_address: bool,
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
    let away_since = state
        .seats
        .values()
        .filter_map(|o| match o {
            Occupant::Person { id, .. } => Some((id.clone(), now)),
            Occupant::Cpu { .. } => None,
        })
        .collect();
    // A matched table whose game started has nobody left to wait for.
    let arriving_until = state.arrival_ends.filter(|_| live.is_none()).map(|ends| {
        let left = u64::try_from(ends - crate::ids::now_ms()).unwrap_or(0);
        now + Duration::from_millis(left)
    });
    let room = Room {
        code,
        state,
        store: context.store,
        timing: context.timing,
        metrics: context.metrics,
        conns: HashMap::new(),
        live,
        away_since,
        bot_choices: Rng::new(crate::ids::now_ms() as u64),
        unsaved: false,
        registry: context.registry,
        last_activity: now,
        storage: Backoff::default(),
        arriving_until,
        rematch: None,
        phrases: super::phrases::Allowances::new(now),
        directory: context.directory,
        no_shows: context.no_shows,
        ranked_same_address: context.ranked_same_address,
        stopping: context.stopping,
        superseded: false,
    };
    let code = room.code.clone();
    tokio::spawn(async move {
        super::supervise::supervise(
            code.clone(),
            room.registry.clone(),
            room.directory.clone(),
            room.metrics.clone(),
            room.run(queue),
        )
        .await;
        // The room acts no more: its lease can go.
        if let Some(grant) = grant {
            super::leases::release(code, grant).await;
        }
    });
    RoomHandle { commands }
}

impl Room {
    async fn run(mut self, mut queue: mpsc::UnboundedReceiver<Command>) {
        if self
            .live
            .as_ref()
            .is_some_and(|l| l.game.is_over() && !l.marked_over)
        {
            // The last action was stored but the server stopped before the game was marked
            // over (and rated): finish it now.
            self.finish().await;
        }
        if !self.checks().game_on() && !self.state.left.is_empty() {
            // The game ended before the seats of those who left it could be freed.
            let _ = self.carry_out(None, self.table().ended(Vec::new())).await;
        }
        loop {
            let wake = self.next_auto_action();
            let idle = self.idle_until();
            let arriving = self.arriving_until;
            let offer_due = self.table().offer_due();
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
                    let _ = self.carry_out(None, self.table().cancel_unattended()).await;
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
    /// [`Timing::idle`] without activity.
    fn idle_until(&self) -> Option<Instant> {
        let idle = self.conns.is_empty() && !self.checks().game_on();
        idle.then(|| self.last_activity.checked_add(self.timing.idle))
            .flatten()
    }

    /// Leaves the registry and stops taking commands, unless one is waiting; whether it did.
    /// Everything the room holds is already stored.
    fn unload(&mut self, queue: &mut mpsc::UnboundedReceiver<Command>) -> bool {
        let mut registry = super::lock(&self.registry);
        if !queue.is_empty() {
            return false;
        }
        registry.remove(&self.code);
        self.directory.remove(&self.code);
        queue.close();
        tracing::debug!(room = %self.code, "unloaded after being idle");
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
                self.conns.insert(
                    conn,
                    Conn {
                        identity: identity.clone(),
                        name: name.clone(),
                        address,
                        out,
                    },
                );
                // Where the tests make a room fail (compiled to nothing without `failpoints`).
                fail::fail_point!("room-join");
                let arrival = self.table().arrive(&identity, &name, self.everyone_here());
                let _ = self.carry_out(Some(conn), arrival).await;
            }
            Command::Leave { conn } => {
                if let Some(gone) = self.conns.remove(&conn) {
                    let still_here = self.conns.values().any(|c| c.identity == gone.identity);
                    let departure = self.table().depart(&gone.identity, still_here);
                    let _ = self.carry_out(None, departure).await;
                }
            }
            Command::View { reply } => {
                let _ = reply.send(self.view());
            }
            // The run loop stops on it before it gets here.
            Command::Release => {}
            Command::Client { conn, msg, req } => {
                // A refusal changes nothing, even when it comes after a change (one that could
                // not be stored): the table goes back to what it was. A throw or a move changes
                // the table only after it is stored (when it ends the game), so it is refused
                // with the table untouched, and the table is not copied for it.
                let before = (!msg.is_game_action()).then(|| self.state.clone());
                if let Err(refusal) = self.request(conn, msg).await {
                    if let Some(before) = before {
                        self.state = before;
                    }
                    let stale = refusal.code == RefusalCode::StaleVersion;
                    self.send(conn, &refusal.answering(req));
                    if stale && let Some(game) = self.game_view() {
                        // Whoever acted on an old version gets the game as it is now.
                        self.send(conn, &ServerMsg::Game { game });
                    }
                }
            }
        }
    }

    /// One request of a joined connection; a refusal changes nothing.
    async fn request(&mut self, conn: ConnectionId, msg: ClientMsg) -> Result<(), Refusal> {
        let identity = self
            .conns
            .get(&conn)
            .map(|c| c.identity.clone())
            .ok_or_else(|| Refusal::new(RefusalCode::HelloFirst, "say hello first"))?;
        match msg {
            ClientMsg::Hello { .. } | ClientMsg::Seek { .. } => Err(Refusal::new(
                RefusalCode::BadMessage,
                "hello and seek are first messages only",
            )),
            ClientMsg::Sit { colour } => {
                let name = self
                    .conns
                    .get(&conn)
                    .map_or_else(String::new, |c| c.name.clone());
                self.carry_out(Some(conn), self.table().sit(&identity, &name, colour)?)
                    .await
            }
            ClientMsg::Stand => {
                self.carry_out(Some(conn), self.table().stand(&identity)?)
                    .await
            }
            ClientMsg::Leave => {
                self.carry_out(Some(conn), self.table().leave(&identity)?)
                    .await
            }
            ClientMsg::FreeSeat { colour } => {
                self.carry_out(Some(conn), self.table().free_seat(&identity, colour)?)
                    .await
            }
            ClientMsg::Decline => {
                self.carry_out(Some(conn), self.table().decline(&identity)?)
                    .await
            }
            ClientMsg::Say { phrase } => self.say(conn, &identity, &phrase),
            ClientMsg::AddCpu { colour, level } => {
                self.carry_out(Some(conn), self.table().add_cpu(&identity, colour, level)?)
                    .await
            }
            ClientMsg::RemoveCpu { colour } => {
                self.carry_out(Some(conn), self.table().remove_cpu(&identity, colour)?)
                    .await
            }
            ClientMsg::Settings {
                rules,
                clock,
                ranked,
                rotate,
                public,
            } => {
                let change = SettingsChange {
                    rules: rules.as_ref(),
                    clock,
                    ranked,
                    rotate,
                    public,
                };
                self.carry_out(
                    Some(conn),
                    self.table().change_settings(&identity, &change)?,
                )
                .await
            }
            ClientMsg::Start { settings_version } | ClientMsg::PlayAgain { settings_version } => {
                let here = Here {
                    everyone: self.everyone_here(),
                    apart: self.apart(),
                };
                let accepted = self.table().accept(&identity, settings_version, here)?;
                self.carry_out(Some(conn), accepted).await
            }
            ClientMsg::Roll { version } => {
                self.begin_stand_in_due(Instant::now());
                let seat = self.checks().turn_of(&identity, version)?;
                let live = self.live.as_ref().expect("checked: a game is on");
                let play = live.throw_for(seat)?;
                self.act(play, None).await
            }
            ClientMsg::Move { piece, version } => {
                self.begin_stand_in_due(Instant::now());
                let seat = self.checks().turn_of(&identity, version)?;
                let live = self.live.as_ref().expect("checked: a game is on");
                let play = live.play(seat, Action::Move(piece))?;
                self.act(play, None).await
            }
        }
    }

    fn seat_of(&self, identity: &IdentityId) -> Option<Colour> {
        super::table::seat_of(&self.state, identity)
    }

    /// The table and its game, for the checks that decide refusals (see [`Checks`]).
    fn checks(&self) -> Checks<'_> {
        Checks {
            state: &self.state,
            live: self.live.as_ref(),
        }
    }

    /// The table as its requests read it now (see [`Table`]).
    fn table(&self) -> Table<'_> {
        Table {
            state: &self.state,
            live: self.live.as_ref(),
            rematch: self.rematch.as_ref(),
            away_since: &self.away_since,
            free_after: self.timing.free_after,
            grace: self.timing.grace,
            unsaved: self.unsaved,
            now: Instant::now(),
        }
    }

    /// Carries a decision out: stores the table as it says (refused, and nothing changed, if
    /// it must be stored and cannot be), applies it, tells (`asking`: the connection whose
    /// request or arrival it answers, if any), then does what follows.
    async fn carry_out(
        &mut self,
        asking: Option<ConnectionId>,
        decision: Decision,
    ) -> Result<(), Refusal> {
        let Decision {
            state,
            rematch,
            store,
            away,
            tell,
            then,
        } = decision;
        let before = std::mem::replace(&mut self.state, state);
        match store {
            Write::Nothing => {}
            Write::Table => {
                if let Err(refusal) = self.save_state().await {
                    self.state = before;
                    return Err(refusal);
                }
            }
            // The change stands either way; `unsaved` makes the next arrival store it.
            Write::TableIfPossible => {
                let _ = self.save_state().await;
            }
        }
        if self.state.arrival_ends.is_none() {
            self.arriving_until = None;
        }
        self.rematch = rematch;
        match away {
            Some(Away::Back(identity)) => {
                self.away_since.remove(&identity);
                if let Some(live) = self.live.as_mut() {
                    live.back(&identity);
                }
                // Unless their clock ran out meanwhile: then the rest of the turn is the CPU's.
                self.begin_stand_in_due(Instant::now());
            }
            Some(Away::Since(identity, since)) => {
                self.away_since.insert(identity, since);
            }
            None => {}
        }
        for told in tell {
            self.tell(asking, told);
        }
        match then {
            Then::Nothing => Ok(()),
            Then::StartIfEveryoneAccepted => {
                self.start_if_everyone_accepted().await;
                Ok(())
            }
            Then::Start { or_else } => {
                let started = self.start().await;
                if started.is_err() {
                    self.rematch = or_else;
                }
                started
            }
            Then::BeginMatchedGame => {
                if let Err(refusal) = self.start().await {
                    tracing::error!(room = %self.code, ?refusal, "a matched game did not start");
                }
                Ok(())
            }
        }
    }

    /// Tells what a decision says to tell; `asking` as for [`Room::carry_out`].
    fn tell(&self, asking: Option<ConnectionId>, told: Tell) {
        match told {
            Tell::Left { seat, freed } => self.broadcast(&ServerMsg::Left { seat, freed }),
            Tell::Declined { seat } => self.broadcast(&ServerMsg::Declined { seat }),
            Tell::Table => self.broadcast_room(),
            Tell::Welcome => {
                if let Some(conn) = asking
                    && let Some(you) = self.conns.get(&conn).map(|c| c.identity.clone())
                {
                    let welcome = ServerMsg::Welcome {
                        you,
                        room: self.view(),
                        game: self.game_view(),
                    };
                    self.send(conn, &welcome);
                }
            }
            Tell::TableToOthers => self.broadcast_room_except(asking),
            Tell::WatchersToOthers => {
                self.publish();
                self.broadcast_chatter(&ServerMsg::Room { room: self.view() }, asking);
            }
            Tell::Cancelled => {
                tracing::info!(room = %self.code, "a matched table was cancelled: not everyone came");
                let now = Instant::now();
                for occupant in self.state.seats.values() {
                    if let Occupant::Person { id, .. } = occupant
                        && !self.conns.values().any(|c| &c.identity == id)
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
        if self.table().offer_accepted() && self.state.seats.len() >= 2 {
            if let Err(refusal) = self.start().await {
                self.rematch = None;
                self.broadcast_room();
                tracing::warn!(room = %self.code, ?refusal, "an accepted new game did not start");
            }
        }
    }

    /// A quick phrase, shown to everyone in the room: a known id, within the sender's allowance.
    fn say(
        &mut self,
        conn: ConnectionId,
        identity: &IdentityId,
        phrase: &str,
    ) -> Result<(), Refusal> {
        use super::phrases::Speaker;
        let seat = self.seat_of(identity);
        let address = self.conns.get(&conn).map(|c| c.address);
        let speaker = match (seat, address) {
            (None, Some(address)) => Speaker::Watching(identity, address),
            _ => Speaker::Seated(identity),
        };
        let phrase = self.phrases.allow(speaker, phrase, Instant::now())?;
        let said = ServerMsg::Said {
            from: identity.clone(),
            name: self.name_of(identity),
            seat,
            phrase,
        };
        match speaker {
            Speaker::Seated(_) => self.broadcast(&said),
            // A watcher's phrase is chatter: dropped for whoever is behind.
            Speaker::Watching(..) => self.broadcast_chatter(&said, None),
        }
        Ok(())
    }

    fn name_of(&self, identity: &IdentityId) -> String {
        self.conns
            .values()
            .find(|c| &c.identity == identity)
            .map_or_else(|| identity.to_string(), |c| c.name.clone())
    }

    /// Stores, applies, then broadcasts one action; `stand_in` says why, if the CPU played it
    /// for the seat's person.
    async fn act(&mut self, play: Play, stand_in: Option<StandIn>) -> Result<(), Refusal> {
        let Play {
            seat,
            action,
            number,
            next,
        } = play;
        let game_id = self
            .live
            .as_ref()
            .ok_or_else(|| Refusal::new(RefusalCode::NoGame, "no game"))?
            .id
            .clone();
        let at = crate::ids::now_ms();
        let stored = self
            .store
            .run(move |b| {
                b.append_action(
                    &game_id,
                    number,
                    seat,
                    &action,
                    stand_in.map(StandIn::name),
                    at,
                )
            })
            .await;
        if !self.stored(stored, "an action")? {
            tracing::warn!(room = %self.code, number, "another node stored this action's number first; the room stops and is loaded again from storage");
            self.superseded = true;
            return Err(Refusal::new(
                RefusalCode::Internal,
                "the game went on elsewhere; reconnect",
            ));
        }
        let live = self.live.as_mut().expect("checked above");
        live.commit(action, next);
        self.metrics
            .actions
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let game = self.game_view().expect("a game is on");
        self.broadcast(&ServerMsg::Action {
            seat,
            action,
            stand_in,
            game,
        });
        if play.ends_the_game() {
            self.finish().await;
        }
        Ok(())
    }

    /// Marks the game over in storage (rating it if it is ranked) and announces the ratings.
    async fn finish(&mut self) {
        let Some(live) = self
            .live
            .as_ref()
            .filter(|l| l.game.is_over() && !l.marked_over)
        else {
            return;
        };
        let places = live.places();
        let id = live.id.clone();
        let at = crate::ids::now_ms();
        match self
            .store
            .run(move |b| b.finish_game(&id, &places, at))
            .await
        {
            Ok(changes) => {
                if let Some(live) = self.live.as_mut() {
                    live.marked_over = true;
                }
                let _ = self.carry_out(None, self.table().ended(changes)).await;
            }
            Err(e) => {
                tracing::error!(room = %self.code, error = %e, "a finished game could not be marked");
            }
        }
    }

    /// Whether every person seated at the table has a connection open.
    fn everyone_here(&self) -> bool {
        self.state.seats.values().all(|o| match o {
            Occupant::Person { id, .. } => self.conns.values().any(|c| &c.identity == id),
            Occupant::Cpu { .. } => true,
        })
    }

    /// Whether the people seated may play a game that counts for ratings together: not when two
    /// of them are connected from one network address, unless the operator allows it.
    fn apart(&self) -> Result<(), Refusal> {
        if self.ranked_same_address {
            return Ok(());
        }
        super::checks::one_person_per_address(
            self.conns
                .values()
                .filter_map(|c| self.seat_of(&c.identity).map(|_| (&c.identity, c.address))),
        )
    }

    async fn start(&mut self) -> Result<(), Refusal> {
        let opening = self.table().open_game(self.everyone_here())?;
        if opening.ranked {
            self.apart()?;
        }
        let ranked = opening.ranked;
        let seats = opening.seats;
        let (live, new) = Live::start(
            &self.code,
            self.state.settings.rules,
            seats,
            self.state.seats.clone(),
            ranked,
        )
        .map_err(|e| Refusal::engine(RefusalCode::BadMessage, &e))?;
        let stored = self.store.run(move |b| b.create_game(&new)).await;
        self.stored(stored, "a new game")?;
        self.live = Some(live);
        let offered = self.rematch.take().is_some();
        self.state = opening.state;
        // The game is stored; who started it is only needed for the next one.
        let _ = self.save_state().await;
        let game = self.game_view().expect("a game is on");
        self.broadcast(&ServerMsg::Game { game });
        if offered {
            // The offer is over: the table says so.
            self.broadcast_room();
        }
        self.publish();
        Ok(())
    }

    async fn save_state(&mut self) -> Result<(), Refusal> {
        let (code, host) = (self.code.clone(), self.state.host.clone());
        let state = serde_json::to_string(&self.state).expect("a room state serialises");
        let now = crate::ids::now_ms();
        let stored = self
            .store
            .run(move |b| b.save_room(&code, &host, &state, now))
            .await;
        self.unsaved = stored.is_err();
        self.stored(stored, "the table")
    }

    /// The outcome of a write: on failure, automatic actions back off and the log says so at
    /// most once per interval; the request is refused with `internal`.
    fn stored<T>(&mut self, outcome: StoreResult<T>, what: &str) -> Result<T, Refusal> {
        match outcome {
            Ok(value) => {
                if let Some(failures) = self.storage.succeeded() {
                    tracing::warn!(room = %self.code, failures, "storage works again");
                }
                Ok(value)
            }
            Err(error) => {
                if let Some(failures) = self.storage.failed(Instant::now()) {
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

    /// The game being played with what decides when it plays by itself (see [`Schedule`]);
    /// none while the server stops, or with no game on.
    fn schedule(&self) -> Option<Schedule<'_>> {
        if *self.stopping.borrow() {
            return None;
        }
        Some(Schedule {
            live: self.live.as_ref().filter(|l| !l.game.is_over())?,
            left: &self.state.left,
            away_since: &self.away_since,
            timing: self.timing,
            clock: self.clock(),
            storage_until: self.storage.until(),
        })
    }

    /// The CPU stands in from the moment it is due (see [`Schedule::standing_in`]), before it
    /// has acted: a person's request that comes after their clock ran out is too late.
    fn begin_stand_in_due(&mut self, now: Instant) {
        let begun = self.schedule().and_then(|s| s.standing_in(now));
        if let Some(live) = self.live.as_mut()
            && begun.is_some()
        {
            live.stand_in = begun;
        }
    }

    /// When the room acts by itself next, if it does.
    fn next_auto_action(&self) -> Option<Instant> {
        self.schedule()?.next()
    }

    /// The CPU plays one action for the seat to act.
    async fn auto_act(&mut self) {
        let Some((level, stand_in)) = self.schedule().and_then(|s| s.player()) else {
            return;
        };
        let live = self.live.as_mut().expect("a schedule has a game");
        let seat = live.game.seat();
        if stand_in.is_some() {
            live.stand_in = stand_in;
        }
        let action = match live.game.phase() {
            Phase::Roll | Phase::Rolloff => Action::Throw(live.next_throw()),
            Phase::Move => {
                // The strongest level searches for a few milliseconds: off the async threads,
                // so that other rooms are not held up meanwhile.
                let (game, mut rng) = (live.game, self.bot_choices.fork());
                let opponents = live.opponents_of(seat);
                let choice = tokio::task::spawn_blocking(move || {
                    let moves = game.legal_moves();
                    let mut player = level.player();
                    player.facing(&opponents);
                    player.choose(&game, &moves, &mut rng).piece
                })
                .await;
                match choice {
                    Ok(piece) => Action::Move(piece),
                    // The room fails as a whole (see `supervise`) rather than asking the CPU
                    // again at once, and again.
                    Err(error) if error.is_panic() => std::panic::resume_unwind(error.into_panic()),
                    Err(error) => {
                        tracing::error!(room = %self.code, %error, "a CPU player was cancelled");
                        return;
                    }
                }
            }
            Phase::Over => return,
        };
        let played = match self
            .live
            .as_ref()
            .expect("checked above")
            .play(seat, action)
        {
            Ok(play) => self.act(play, stand_in).await,
            Err(refusal) => Err(refusal),
        };
        if let Err(refusal) = played {
            tracing::error!(room = %self.code, ?refusal, "the CPU's action was refused");
        }
    }

    /// How long a turn may take, if the room has a clock.
    fn clock(&self) -> Option<Duration> {
        self.state
            .settings
            .clock
            .map(|seconds| self.timing.clock_second * seconds)
    }

    fn view(&self) -> RoomView {
        let connected: std::collections::HashSet<&str> =
            self.conns.values().map(|c| c.identity.as_str()).collect();
        let away_since = |id: &str| {
            self.away_since
                .get(id)
                .map(|since| crate::ids::now_ms() - since.elapsed().as_millis() as i64)
        };
        self.state
            .view(&self.code, &connected, away_since, self.rematch.as_ref())
    }

    /// Keeps this room's entry in the public lists as it now is (see [`Listing::of`]).
    fn publish(&self) {
        let here: Vec<std::net::IpAddr> = self
            .conns
            .values()
            .filter(|c| {
                table::seat_of(&self.state, &c.identity)
                    .is_some_and(|seat| !self.state.left.contains(&seat))
            })
            .map(|c| c.address)
            .collect();
        match Listing::of(&self.code, &self.state, self.live.as_ref(), &here) {
            Some(listing) => self.directory.put(listing),
            None => self.directory.remove(&self.code),
        }
    }

    fn game_view(&self) -> Option<crate::protocol::GameView> {
        let live = self.live.as_ref()?;
        // Only a person playing their own turn has a clock to see.
        let deadline = self
            .clock()
            .filter(|_| live.persons_own_turn(&self.state.left))
            .map(|limit| live.turn_began_ms + limit.as_millis() as i64);
        Some(live.view(deadline))
    }

    fn send(&self, conn: ConnectionId, msg: &ServerMsg) {
        if let Some(c) = self.conns.get(&conn) {
            let _ = c.out.send(Text::from(msg.to_json()));
        }
    }

    fn broadcast(&self, msg: &ServerMsg) {
        let text = Text::from(msg.to_json());
        for c in self.conns.values() {
            let _ = c.out.send(text.clone());
        }
    }

    /// Sends chatter to everyone but `except` (see [`super::Outbox::offer`]).
    fn broadcast_chatter(&self, msg: &ServerMsg, except: Option<ConnectionId>) {
        let text = Text::from(msg.to_json());
        for (&id, c) in &self.conns {
            if Some(id) != except {
                c.out.offer(text.clone());
            }
        }
    }

    fn broadcast_room(&self) {
        self.broadcast(&ServerMsg::Room { room: self.view() });
        self.publish();
    }

    fn broadcast_room_except(&self, except: Option<ConnectionId>) {
        self.publish();
        let text = Text::from(ServerMsg::Room { room: self.view() }.to_json());
        for (&id, c) in &self.conns {
            if Some(id) != except {
                let _ = c.out.send(text.clone());
            }
        }
    }
}

async fn sleep_until(wake: Option<Instant>) {
    match wake {
        Some(at) => tokio::time::sleep_until(at.into()).await,
        None => std::future::pending().await,
    }
}
