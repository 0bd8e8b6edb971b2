//! The room actor: the only code that changes a room. It takes one thing at a time (a command
//! or a timer), asks the room's core what it decides (see [`RoomCore::decide`]), then carries
//! the decision out (see `actor/apply.rs`): it stores what must be stored, and only then applies
//! the decision and tells. A decision that cannot be stored is refused and changes nothing.

mod apply;

use std::time::Instant;

use ludo_bots::Rng;
use tokio::sync::mpsc;

use super::audience::{Audience, Outboxes};
use super::core::{Input, RoomCore, Visitor};
use super::leases::Grant;
use super::retry::Backoff;
use super::writes::Writes;
use super::{Command, Context, Registry, RoomHandle, RoomState};
use crate::ids::{ConnectionId, RoomCode};
use crate::protocol::{ClientMsg, Refusal, RefusalCode, ServerMsg};
use crate::store::StoredGame;

struct Room {
    /// The table, the game, the offer and who is here: what decides.
    core: RoomCore,
    /// Whom the room tells.
    audience: Audience,
    /// Where the room writes.
    writes: Writes,
    bot_choices: Rng,
    /// The rooms in memory, which this room leaves when it unloads itself.
    registry: Registry,
    /// When the room last had a command or acted.
    last_activity: Instant,
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
    let now = Instant::now();
    let (timing, same_address) = (context.timing, context.ranked_same_address);
    let (registry, directory) = (context.registry.clone(), context.directory.clone());
    let metrics = context.metrics.clone();
    let room = Room {
        core: RoomCore::loaded(code.clone(), state, latest, timing, same_address, now),
        audience: Audience {
            outboxes: Outboxes::default(),
            directory: context.directory,
            no_shows: context.no_shows,
        },
        writes: Writes {
            code: code.clone(),
            store: context.store,
            metrics: context.metrics,
            backoff: Backoff::default(),
        },
        bot_choices: Rng::new(crate::ids::now_ms() as u64),
        registry: context.registry,
        last_activity: now,
        stopping: context.stopping,
        superseded: false,
    };
    tokio::spawn(async move {
        let actor = room.run(queue);
        super::supervise::supervise(code.clone(), registry, directory, metrics, actor).await;
        // The room acts no more: its lease can go.
        if let Some(grant) = grant {
            super::leases::release(code, grant).await;
        }
    });
    RoomHandle { commands }
}

impl Room {
    async fn run(mut self, mut queue: mpsc::UnboundedReceiver<Command>) {
        self.recover().await;
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

    /// Finishes what a stop left half-done: a game whose last action was stored but which was
    /// not marked over (and rated), and the seats of those who left a game that ended.
    async fn recover(&mut self) {
        let live = self.core.live.as_ref();
        if live.is_some_and(|l| l.game.is_over() && !l.marked_over) {
            self.finish().await;
        }
        if !self.core.checks().game_on() && !self.core.state.left.is_empty() {
            let changes = Vec::new();
            let _ = self.react(None, Input::Finished { changes }).await;
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
        self.audience.directory.remove(&self.core.code);
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
                self.audience.outboxes.open(conn, out);
                // Where the tests make a room fail (compiled to nothing without `failpoints`).
                fail::fail_point!("room-join");
                let _ = self
                    .react(Some(conn), Input::Arrived { conn, visitor })
                    .await;
            }
            Command::Leave { conn } => {
                self.audience.outboxes.close(conn);
                let _ = self.react(None, Input::Gone { conn }).await;
            }
            Command::View { reply } => {
                let _ = reply.send(self.core.view());
            }
            // The run loop stops on it before it gets here.
            Command::Release => {}
            Command::Client { conn, msg, req } => {
                if let Err(refusal) = self.request(conn, msg).await {
                    let stale = refusal.code == RefusalCode::StaleVersion;
                    let outboxes = &self.audience.outboxes;
                    outboxes.send(conn, &refusal.answering(req));
                    if stale && let Some(game) = self.core.game_view() {
                        // Whoever acted on an old version gets the game as it is now.
                        outboxes.send(conn, &ServerMsg::Game { game });
                    }
                }
            }
        }
    }

    /// One request of a connection; a refusal changes nothing.
    async fn request(&mut self, conn: ConnectionId, msg: ClientMsg) -> Result<(), Refusal> {
        if self.core.visitors.contains_key(&conn) && msg.is_game_action() {
            // A request that comes after the player's clock ran out is too late.
            let _ = self.react(None, Input::StandInDue).await;
        }
        self.react(Some(conn), Input::Request { conn, msg }).await
    }

    /// Decides `input` now and carries the decision out; `asking`: the connection whose
    /// request or arrival it answers, if any.
    async fn react(&mut self, asking: Option<ConnectionId>, input: Input) -> Result<(), Refusal> {
        let decision = self.core.decide(input, Instant::now())?;
        self.carry_out(asking, decision).await
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
        // The stand-in begins before the CPU is asked: it is due by now.
        let _ = self.react(None, Input::StandInDue).await;
        let schedule = self.core.schedule(self.writes.until());
        let Some((level, stand_in)) = schedule.and_then(|s| s.player()) else {
            return;
        };
        let live = self.core.live.as_ref().expect("a schedule has a game");
        let (code, rng) = (&self.core.code, &mut self.bot_choices);
        let Some(action) = super::cpu::choice(code, live, level, rng).await else {
            return;
        };
        let chose = Input::CpuChose { action, stand_in };
        if let Err(refusal) = self.react(None, chose).await {
            tracing::error!(room = %self.core.code, ?refusal, "the CPU's action was refused");
        }
    }
}

async fn sleep_until(wake: Option<Instant>) {
    match wake {
        Some(at) => tokio::time::sleep_until(at.into()).await,
        None => std::future::pending().await,
    }
}
