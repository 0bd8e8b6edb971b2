//! The room as one value: its table, its latest game, the new game offered and who is connected
//! or away, with one [`RoomCore::decide`] for everything that happens to it: a request from a
//! connection, a connection arriving or going, a timer running out, the CPU's choice, a game to
//! open or one that ended. Deciding is pure: no I/O, time is an input, and nothing changes; the
//! room's actor carries a [`Decision`]'s effects out in order, stores first (see `effects.rs`
//! and `actor.rs`), so every path is tested here without sockets or storage.
//!
//! The host's start and the last acceptance of a new game offered open the game in the same
//! decision: nothing is stored or told before the game, so the writes and messages come in the
//! same order as if the game were decided after, and a game that cannot open refuses the
//! request and changes nothing. Two decisions end instead with a follow-up (see
//! [`FollowUp`](super::effects::FollowUp)), decided anew once they are carried out: a new game
//! offered that everyone may now have accepted (after someone stands up, is freed or comes
//! back), and a matched table's game once the last of its people arrived. Chained into the
//! first decision, the new game's write would come with its stores, before anything is told,
//! and a new game that could not be stored would refuse the arrival or the stand that must
//! stand (stored, and told to everyone) whatever becomes of the game; apart, the first stands
//! and the new game fails alone (the offer withdrawn and the table shown, or the failure
//! logged).

use std::collections::{HashMap, HashSet};
use std::net::IpAddr;
use std::time::{Duration, Instant};

use ludo_fair::Action;
use ludo_rules::Colour;

use super::checks::Checks;
use super::directory::Listing;
use super::effects::{Decision, Effect, Tell};
use super::live::Live;
use super::live::Play;
use super::phrases::{Allowances, Said, Speaker};
use super::schedule::Schedule;
use super::table::{Here, Offer, SettingsChange, Table, seat_of};
use super::{RoomState, Timing};
use crate::ids::{ConnectionId, IdentityId, RoomCode};
use crate::protocol::{ClientMsg, GameView, Occupant, Refusal, RefusalCode, RoomView, StandIn};
use crate::store::{RatingChange, StoredGame};

/// A connection to the room, as the room's decisions know it: who and from where, not how to
/// reach it.
#[derive(Clone, Debug)]
pub struct Visitor {
    /// The identity's public id.
    pub identity: IdentityId,
    /// The display name.
    pub name: String,
    /// The network address it comes from.
    pub address: IpAddr,
}

/// Something that happens to a room, for [`RoomCore::decide`].
#[derive(Debug)]
pub enum Input {
    /// A request from the connection `conn`.
    Request {
        /// The connection's number.
        conn: ConnectionId,
        /// The request.
        msg: ClientMsg,
    },
    /// The connection `conn` has joined (its outbox is open).
    Arrived {
        /// The connection's number.
        conn: ConnectionId,
        /// Who it is and where from.
        visitor: Visitor,
    },
    /// The connection `conn` has closed.
    Gone {
        /// The connection's number.
        conn: ConnectionId,
    },
    /// A throw or a move is about to be decided, or the CPU to be asked for one: the CPU stands
    /// in from the moment it is due, before it has acted, so that a person's request that comes
    /// after their clock ran out is too late. It is a decision of its own, carried out before
    /// the request's, because it stands even when the request is then refused.
    StandInDue,
    /// The time a matched table's people had to arrive is over.
    ArrivalOver,
    /// The new game offered may be due: everyone it waits for may have accepted it.
    OfferDue,
    /// The CPU chose `action` for the seat to act (`stand_in`: why it plays for the seat's
    /// person, if it does).
    CpuChose {
        /// The throw or the move.
        action: Action,
        /// Why the CPU plays for the seat's person, if it does.
        stand_in: Option<StandIn>,
    },
    /// A new game is to start now: a matched table is complete.
    Start,
    /// The game that ended is stored as over, with these rating changes (none if friendly).
    Finished {
        /// The ratings' changes.
        changes: Vec<RatingChange>,
    },
}

/// A room's table, game, offer and presence.
pub struct RoomCore {
    /// The room's code.
    pub code: RoomCode,
    /// Seats, settings, who left: what is kept across restarts.
    pub state: RoomState,
    /// The latest game, being played or over.
    pub live: Option<Live>,
    /// While a new game is offered: the people who accepted it. Kept in memory only: an offer
    /// does not outlive a restart.
    pub rematch: Option<Offer>,
    /// When each seated person went away (absent from the map: connected, or never came).
    pub away_since: HashMap<IdentityId, Instant>,
    /// The open connections, by number.
    pub visitors: HashMap<ConnectionId, Visitor>,
    /// Whether the table changed since it was last stored (a write that could not be made).
    pub unsaved: bool,
    /// For a table formed by matchmaking: until when its people may arrive; its game starts
    /// when the last of them is connected.
    pub arriving_until: Option<Instant>,
    /// The allowances of quick phrases: each person's, each watcher address's, the watchers'.
    pub phrases: Allowances,
    /// How rooms behave in time.
    pub timing: Timing,
    /// Whether two people from one network address may play a ranked game together.
    pub ranked_same_address: bool,
}

impl RoomCore {
    /// A room brought into memory at `now` with its table and its latest game as stored (one
    /// that cannot be restored is logged and left out): nobody connected yet, every person
    /// seated away from now, no offer.
    pub fn loaded(
        code: RoomCode,
        state: RoomState,
        latest: Option<StoredGame>,
        timing: Timing,
        ranked_same_address: bool,
        now: Instant,
    ) -> RoomCore {
        let live = latest.and_then(|stored| match Live::restore(stored) {
            Ok(live) => Some(live),
            Err(error) => {
                tracing::error!(room = %code, %error, "a stored game cannot be restored");
                None
            }
        });
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
        RoomCore {
            code,
            state,
            live,
            rematch: None,
            away_since,
            visitors: HashMap::new(),
            unsaved: false,
            arriving_until,
            phrases: Allowances::new(now),
            timing,
            ranked_same_address,
        }
    }

    /// What `input` decides at `now`, changing nothing; a refusal if it is refused.
    ///
    /// # Errors
    /// The refusal, for a request that is refused or a game that cannot start.
    pub fn decide(&self, input: Input, now: Instant) -> Result<Decision, Refusal> {
        let table = self.table(now);
        match input {
            Input::Request { conn, msg } => self.request(conn, msg, now),
            Input::Arrived { conn, visitor } => {
                let everyone_here = self.everyone_here_with(Some(&visitor.identity));
                let stand_in = self.stand_in_once_back(&visitor.identity, now);
                Ok(table.arrive((conn, visitor), everyone_here, stand_in))
            }
            Input::Gone { conn } => {
                let Some(visitor) = self.visitors.get(&conn) else {
                    return Ok(self.unchanged());
                };
                let identity = &visitor.identity;
                let still_here = (self.visitors.iter())
                    .any(|(&other, v)| other != conn && v.identity == *identity);
                Ok(table.depart(conn, identity, still_here))
            }
            Input::StandInDue => {
                let live = self.live.as_ref();
                let begun = self.schedule(None).and_then(|s| s.standing_in(now));
                let decision = self.unchanged();
                Ok(match begun {
                    Some(why) if live.is_some_and(|l| l.stand_in != begun) => {
                        decision.then(Effect::StandIn(why))
                    }
                    _ => decision,
                })
            }
            Input::ArrivalOver => Ok(table.cancel_unattended()),
            Input::OfferDue => {
                if table.offer_accepted() && self.state.seats.len() >= 2 {
                    self.open(now)
                } else {
                    Ok(self.unchanged())
                }
            }
            Input::CpuChose { action, stand_in } => {
                let live = self.live.as_ref().ok_or_else(no_game)?;
                let play = live.play(live.game.seat(), action)?;
                Ok(self.played(play, stand_in))
            }
            Input::Start => self.open(now),
            Input::Finished { changes } => Ok(table.ended(changes)),
        }
    }

    /// What a joined connection's request decides.
    fn request(
        &self,
        conn: ConnectionId,
        msg: ClientMsg,
        now: Instant,
    ) -> Result<Decision, Refusal> {
        let visitor = self.visitors.get(&conn).ok_or_else(hello_first)?;
        let identity = &visitor.identity;
        let table = self.table(now);
        match msg {
            ClientMsg::Hello { .. } | ClientMsg::Seek { .. } => Err(Refusal::new(
                RefusalCode::BadMessage,
                "hello and seek are first messages only",
            )),
            ClientMsg::Sit { colour } => table.sit(identity, &visitor.name, colour),
            ClientMsg::Stand => table.stand(identity),
            ClientMsg::Leave => table.leave(identity),
            ClientMsg::FreeSeat { colour } => table.free_seat(identity, colour),
            ClientMsg::Decline => table.decline(identity),
            ClientMsg::AddCpu { colour, level } => table.add_cpu(identity, colour, level),
            ClientMsg::RemoveCpu { colour } => table.remove_cpu(identity, colour),
            ClientMsg::Settings {
                rules,
                clock,
                ranked,
                rotate,
                public,
            } => table.change_settings(
                identity,
                &SettingsChange {
                    rules: rules.as_ref(),
                    clock,
                    ranked,
                    rotate,
                    public,
                },
            ),
            ClientMsg::Start { settings_version } | ClientMsg::PlayAgain { settings_version } => {
                let here = Here {
                    everyone: self.everyone_here(),
                    apart: self.apart(),
                };
                table.accept(identity, settings_version, here)
            }
            ClientMsg::Roll { version } => {
                let seat = self.checks().turn_of(identity, version)?;
                let play = self.live.as_ref().ok_or_else(no_game)?.throw_for(seat)?;
                Ok(self.played(play, None))
            }
            ClientMsg::Move { piece, version } => {
                let seat = self.checks().turn_of(identity, version)?;
                let live = self.live.as_ref().ok_or_else(no_game)?;
                let play = live.play(seat, Action::Move(piece))?;
                Ok(self.played(play, None))
            }
            ClientMsg::Say { phrase } => {
                let seat = self.seat_of(identity);
                let speaker = match seat {
                    None => Speaker::Watching(identity, visitor.address),
                    Some(_) => Speaker::Seated(identity),
                };
                let mut allowances = self.phrases.clone();
                let phrase = allowances.allow(speaker, &phrase, now)?;
                let said = Said {
                    from: identity.clone(),
                    name: self.name_of(identity),
                    seat,
                    phrase,
                    chatter: seat.is_none(),
                };
                Ok(self
                    .unchanged()
                    .then(Effect::Phrases(allowances))
                    .telling([Tell::Said(said)]))
            }
        }
    }

    /// A new game at the table now, if one may start (a ranked one only with its people
    /// connected from different addresses): stored before anything else, then the table as the
    /// game opens it (if it can be), then shown to everyone, with the table if it ends an offer.
    fn open(&self, now: Instant) -> Result<Decision, Refusal> {
        let here = Here {
            everyone: self.everyone_here(),
            apart: self.apart(),
        };
        self.table(now).opened(&here, self.rematch.is_some())
    }

    /// One action of the game being played: stored under its number before anything else,
    /// then taken in and shown to everyone; a game it ends is then marked over. `stand_in`:
    /// why the CPU played it for the seat's person, if it did.
    fn played(&self, play: Play, stand_in: Option<StandIn>) -> Decision {
        let (seat, action) = (play.seat, play.action);
        let decision = self
            .unchanged()
            .then(Effect::Append { play, stand_in })
            .then(Effect::Commit(play))
            .telling([Tell::Action {
                seat,
                action,
                stand_in,
            }]);
        if play.ends_the_game() {
            decision.then(Effect::Finish)
        } else {
            decision
        }
    }

    /// A decision that leaves the table and the offer as they are, with no effect yet.
    fn unchanged(&self) -> Decision {
        Decision::new(self.state.clone(), self.rematch.clone())
    }

    /// The table as its requests read it at `now` (see [`Table`]).
    pub fn table(&self, now: Instant) -> Table<'_> {
        Table {
            state: &self.state,
            live: self.live.as_ref(),
            rematch: self.rematch.as_ref(),
            away_since: &self.away_since,
            free_after: self.timing.free_after,
            grace: self.timing.grace,
            unsaved: self.unsaved,
            now,
        }
    }

    /// The table and its game, for the checks that decide refusals (see [`Checks`]).
    pub fn checks(&self) -> Checks<'_> {
        Checks {
            state: &self.state,
            live: self.live.as_ref(),
        }
    }

    /// The seat of the person `identity`, if seated.
    pub fn seat_of(&self, identity: &IdentityId) -> Option<Colour> {
        seat_of(&self.state, identity)
    }

    /// Whether every person seated at the table has a connection open.
    pub fn everyone_here(&self) -> bool {
        self.everyone_here_with(None)
    }

    /// Whether every person seated at the table has a connection open, or is `joining`.
    fn everyone_here_with(&self, joining: Option<&IdentityId>) -> bool {
        self.state.seats.values().all(|o| match o {
            Occupant::Person { id, .. } => {
                joining == Some(id) || self.visitors.values().any(|v| &v.identity == id)
            }
            Occupant::Cpu { .. } => true,
        })
    }

    /// Whether the people seated may play a game that counts for ratings together: not when two
    /// of them are connected from one network address, unless the operator allows it.
    pub fn apart(&self) -> Result<(), Refusal> {
        if self.ranked_same_address {
            return Ok(());
        }
        super::checks::one_person_per_address(
            self.visitors
                .values()
                .filter_map(|v| self.seat_of(&v.identity).map(|_| (&v.identity, v.address))),
        )
    }

    /// The name `identity` is connected under, or its id.
    pub fn name_of(&self, identity: &IdentityId) -> String {
        self.visitors
            .values()
            .find(|v| &v.identity == identity)
            .map_or_else(|| identity.to_string(), |v| v.name.clone())
    }

    /// How long a turn may take, if the room has a clock.
    pub fn clock(&self) -> Option<Duration> {
        self.state
            .settings
            .clock
            .map(|seconds| self.timing.clock_second * seconds)
    }

    /// The game being played with what decides when it plays by itself (see [`Schedule`]);
    /// none with no game on. `storage_until`: no automatic action before it.
    pub fn schedule(&self, storage_until: Option<Instant>) -> Option<Schedule<'_>> {
        Some(Schedule {
            live: self.live.as_ref().filter(|l| !l.game.is_over())?,
            left: &self.state.left,
            away_since: &self.away_since,
            timing: self.timing,
            clock: self.clock(),
            storage_until,
        })
    }

    /// Why the CPU stands in for the seat to act at `now` once `identity` is back, if it does:
    /// not for their absence any more, but their clock may have run out meanwhile (then the
    /// rest of the turn is the CPU's), and someone else's turn keeps its stand-in.
    fn stand_in_once_back(&self, identity: &IdentityId, now: Instant) -> Option<StandIn> {
        let kept = self.live.as_ref()?.stand_in_once_back(identity);
        let mut away_since = self.away_since.clone();
        away_since.remove(identity);
        let schedule = Schedule {
            away_since: &away_since,
            ..self.schedule(None)?
        };
        schedule.standing_in_with(now, kept)
    }

    /// The table as everyone sees it.
    pub fn view(&self) -> RoomView {
        let connected: HashSet<&str> = self
            .visitors
            .values()
            .map(|v| v.identity.as_str())
            .collect();
        let away_since = |id: &str| {
            self.away_since
                .get(id)
                .map(|since| crate::ids::now_ms() - since.elapsed().as_millis() as i64)
        };
        self.state
            .view(&self.code, &connected, away_since, self.rematch.as_ref())
    }

    /// The game as everyone sees it, if one has started.
    pub fn game_view(&self) -> Option<GameView> {
        let live = self.live.as_ref()?;
        // Only a person playing their own turn has a clock to see.
        let deadline = self
            .clock()
            .filter(|_| live.persons_own_turn(&self.state.left))
            .map(|limit| live.turn_began_ms + limit.as_millis() as i64);
        Some(live.view(deadline))
    }

    /// This room's entry in the public lists as it now is, if it is listed (see
    /// [`Listing::of`]).
    pub fn listing(&self) -> Option<Listing> {
        let here: Vec<IpAddr> = self
            .visitors
            .values()
            .filter(|v| {
                self.seat_of(&v.identity)
                    .is_some_and(|seat| !self.state.left.contains(&seat))
            })
            .map(|v| v.address)
            .collect();
        Listing::of(&self.code, &self.state, self.live.as_ref(), &here)
    }
}

fn hello_first() -> Refusal {
    Refusal::new(RefusalCode::HelloFirst, "say hello first")
}

fn no_game() -> Refusal {
    Refusal::new(RefusalCode::NoGame, "no game")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::room::effects::read::{away, follow_up, opens, stored, stores_first, tells};
    use crate::room::effects::{Away, Write};
    use crate::room::fixtures::{FREE_AFTER, GRACE, game, id, table};

    fn core(state: RoomState) -> RoomCore {
        RoomCore {
            code: RoomCode::from("ROOM"),
            state,
            live: None,
            rematch: None,
            away_since: HashMap::new(),
            visitors: HashMap::new(),
            unsaved: false,
            arriving_until: None,
            phrases: Allowances::new(Instant::now()),
            timing: Timing {
                cpu_delay: Duration::ZERO,
                grace: GRACE,
                clock_second: Duration::from_secs(1),
                idle: Duration::from_secs(60),
                arrival: Duration::from_secs(60),
                free_after: FREE_AFTER,
            },
            ranked_same_address: false,
        }
    }

    /// Ana (yellow) and Bo (red) connected on connections 1 and 2, from two addresses.
    fn both_here(mut core: RoomCore) -> RoomCore {
        for (conn, name) in [(1, "ana"), (2, "bo")] {
            core.visitors.insert(
                connection(conn),
                Visitor {
                    identity: id(name),
                    name: name.to_owned(),
                    address: IpAddr::from([10, 0, 0, conn as u8]),
                },
            );
        }
        core
    }

    fn playing() -> RoomCore {
        let state = table(false, false);
        let mut core = both_here(core(state));
        core.live = Some(game(&core.state));
        core
    }

    /// Connection number `n`, as the registry numbers them.
    fn connection(n: u64) -> ConnectionId {
        ConnectionId::next(&std::sync::atomic::AtomicU64::new(n))
    }

    fn request(conn: u64, msg: ClientMsg) -> Input {
        Input::Request {
            conn: connection(conn),
            msg,
        }
    }

    fn refusal(outcome: Result<Decision, Refusal>) -> RefusalCode {
        outcome.expect_err("refused").code
    }

    #[test]
    fn a_roll_on_ones_turn_plays_the_throw_the_seed_gives_and_changes_nothing_yet() {
        let core = playing();
        let live = core.live.as_ref().unwrap();
        let (version, throw) = (live.version(), live.next_throw());
        let d = core
            .decide(request(1, ClientMsg::Roll { version }), Instant::now())
            .unwrap();
        let Some(Effect::Append { play, stand_in }) = d.effects.first() else {
            panic!("a play stored first: {:?}", d.effects);
        };
        assert_eq!(
            (play.seat, play.action, play.number),
            (Colour::Yellow, Action::Throw(throw), 0)
        );
        assert_eq!(*stand_in, None);
        assert!(matches!(
            &d.effects[1..],
            [
                Effect::Commit(_),
                Effect::Tell(Tell::Action { stand_in: None, .. })
            ]
        ));
        assert_eq!((stored(&d), away(&d)), (None, None));
        assert_eq!(d.state, core.state);
        assert_eq!(
            core.live.as_ref().unwrap().version(),
            0,
            "decided, not played"
        );
    }

    #[test]
    fn a_roll_out_of_turn_is_refused_and_changes_nothing() {
        let core = playing();
        let at = core.live.as_ref().unwrap().game;
        let roll = ClientMsg::Roll { version: 0 };
        assert_eq!(
            refusal(core.decide(request(2, roll), Instant::now())),
            RefusalCode::NotYourTurn
        );
        assert_eq!(core.live.as_ref().unwrap().game, at);
    }

    #[test]
    fn a_roll_on_an_old_version_or_without_a_game_or_a_hello_is_refused() {
        let core = playing();
        let stale = ClientMsg::Roll { version: 7 };
        assert_eq!(
            refusal(core.decide(request(1, stale), Instant::now())),
            RefusalCode::StaleVersion
        );
        let roll = || ClientMsg::Roll { version: 0 };
        assert_eq!(
            refusal(core.decide(request(9, roll()), Instant::now())),
            RefusalCode::HelloFirst
        );
        let lobby = both_here(self::core(table(false, false)));
        assert_eq!(
            refusal(lobby.decide(request(1, roll()), Instant::now())),
            RefusalCode::NoGame
        );
    }

    #[test]
    fn a_move_the_rules_forbid_is_an_illegal_move_and_changes_nothing() {
        let core = playing();
        let piece = ClientMsg::Move {
            piece: 0,
            version: 0,
        };
        assert_eq!(
            refusal(core.decide(request(1, piece), Instant::now())),
            RefusalCode::IllegalMove
        );
    }

    #[test]
    fn the_cpus_choice_is_played_for_the_seat_to_act_with_why_it_stands_in() {
        let core = playing();
        let throw = core.live.as_ref().unwrap().next_throw();
        let chose = Input::CpuChose {
            action: Action::Throw(throw),
            stand_in: Some(StandIn::Away),
        };
        let d = core.decide(chose, Instant::now()).unwrap();
        assert!(
            matches!(d.effects.first(), Some(Effect::Append { play, stand_in: Some(StandIn::Away) }) if play.seat == Colour::Yellow),
            "{:?}",
            d.effects
        );
    }

    #[test]
    fn the_hosts_start_of_a_friendly_game_opens_it_with_the_first_seat_to_play() {
        let core = both_here(core(table(false, false)));
        let start = ClientMsg::Start {
            settings_version: None,
        };
        let d = core.decide(request(1, start), Instant::now()).unwrap();
        assert!(opens(&d), "at once, in the same decision");
        let d = core.decide(Input::Start, Instant::now()).unwrap();
        let Some(Effect::CreateGame { seats, ranked }) = d.effects.first() else {
            panic!("a new game stored first: {:?}", d.effects);
        };
        assert_eq!(*seats, vec![Colour::Yellow, Colour::Red]);
        assert!(!ranked);
        assert_eq!(stored(&d), Some(Write::TableIfPossible));
        assert!(stores_first(&d));
        assert!(matches!(tells(&d)[..], [Tell::Game, Tell::Listing]));
        assert_eq!(d.state.last_first, Some(Colour::Yellow));
        assert_eq!(core.state.last_first, None, "decided, not opened");
    }

    #[test]
    fn a_ranked_game_from_one_address_or_with_someone_away_does_not_open() {
        let mut core = both_here(core(table(true, false)));
        for visitor in core.visitors.values_mut() {
            visitor.address = IpAddr::from([10, 0, 0, 1]);
        }
        assert_eq!(
            refusal(core.decide(Input::Start, Instant::now())),
            RefusalCode::SameAddress
        );
        core.visitors.remove(&connection(2));
        assert_eq!(
            refusal(core.decide(Input::Start, Instant::now())),
            RefusalCode::PlayersAway
        );
    }

    #[test]
    fn an_offer_not_everyone_accepted_changes_nothing_when_it_comes_due() {
        let mut core = both_here(core(table(false, false)));
        core.rematch = Some([id("ana")].into_iter().collect());
        let d = core.decide(Input::OfferDue, Instant::now()).unwrap();
        assert!(d.effects.is_empty(), "{:?}", d.effects);
    }

    #[test]
    fn a_connection_arriving_or_going_is_taken_in_before_anyone_is_told() {
        let core = core(table(false, false));
        let ana = Visitor {
            identity: id("ana"),
            name: "ana".to_owned(),
            address: IpAddr::from([10, 0, 0, 1]),
        };
        let arrived = Input::Arrived {
            conn: connection(1),
            visitor: ana.clone(),
        };
        let d = core.decide(arrived, Instant::now()).unwrap();
        assert!(matches!(
            &d.effects[..],
            [
                Effect::Connect(_, Visitor { identity, .. }),
                Effect::Away(Away::Back(back)),
                Effect::Tell(Tell::Welcome),
                Effect::Tell(Tell::TableToOthers)
            ] if *identity == id("ana") && *back == id("ana")
        ));
        // Bo's only connection closes; Ana has another open.
        let mut core = both_here(core);
        core.visitors.insert(connection(3), ana);
        let now = Instant::now();
        let d = core
            .decide(
                Input::Gone {
                    conn: connection(2),
                },
                now,
            )
            .unwrap();
        assert!(matches!(d.effects.first(), Some(Effect::Disconnect(_))));
        assert_eq!(away(&d), Some(&Away::Since(id("bo"), now)));
        let d = core
            .decide(
                Input::Gone {
                    conn: connection(1),
                },
                now,
            )
            .unwrap();
        assert_eq!(away(&d), None, "ana is still connected");
        let unknown = core.decide(
            Input::Gone {
                conn: connection(9),
            },
            now,
        );
        assert!(unknown.unwrap().effects.is_empty());
    }

    #[test]
    fn the_stand_in_for_a_clock_that_ran_out_begins_when_it_is_due_and_stays_once_back() {
        let mut core = playing();
        core.state.settings.clock = Some(10);
        let began = core.live.as_ref().unwrap().turn_began;
        let early = core.decide(Input::StandInDue, began).unwrap();
        assert!(early.effects.is_empty(), "Ana still has time");
        let late = began + Duration::from_secs(10);
        let d = core.decide(Input::StandInDue, late).unwrap();
        assert!(matches!(d.effects[..], [Effect::StandIn(StandIn::Clock)]));
        // Ana back after her clock ran out: the rest of the turn is the CPU's.
        let back = Input::Arrived {
            conn: connection(4),
            visitor: core.visitors[&connection(1)].clone(),
        };
        let d = core.decide(back, late).unwrap();
        assert!(
            d.effects
                .iter()
                .any(|e| matches!(e, Effect::StandIn(StandIn::Clock))),
            "{:?}",
            d.effects
        );
    }

    #[test]
    fn a_roll_once_the_cpu_stands_in_for_a_clock_that_ran_out_is_refused() {
        let mut core = playing();
        core.live.as_mut().unwrap().stand_in = Some(StandIn::Clock);
        let roll = ClientMsg::Roll { version: 0 };
        let outcome = core.decide(request(1, roll), Instant::now());
        assert_eq!(refusal(outcome), RefusalCode::OutOfTime);
    }

    #[test]
    fn a_matched_table_whose_people_did_not_all_come_is_cancelled_and_stored_if_it_can_be() {
        let mut core = both_here(core(table(true, false)));
        core.state.arrival_ends = Some(0);
        let d = core.decide(Input::ArrivalOver, Instant::now()).unwrap();
        assert_eq!(d.state.arrival_ends, None);
        assert_eq!(stored(&d), Some(Write::TableIfPossible));
        assert!(matches!(tells(&d)[..], [Tell::Cancelled]));
    }

    #[test]
    fn a_friendly_game_that_ended_with_nobody_gone_only_updates_the_listing() {
        let mut core = playing();
        crate::room::fixtures::play_to_the_end(core.live.as_mut().unwrap());
        let changes = Vec::new();
        let d = core
            .decide(Input::Finished { changes }, Instant::now())
            .unwrap();
        assert_eq!((stored(&d), follow_up(&d)), (None, None));
        assert!(matches!(tells(&d)[..], [Tell::Listing]));
    }

    #[test]
    fn a_roll_after_the_game_is_over_is_refused_and_a_new_game_may_open() {
        let mut core = playing();
        crate::room::fixtures::play_to_the_end(core.live.as_mut().unwrap());
        let version = core.live.as_ref().unwrap().version();
        let roll = ClientMsg::Roll { version };
        assert_eq!(
            refusal(core.decide(request(1, roll), Instant::now())),
            RefusalCode::GameOver
        );
        let d = core.decide(Input::Start, Instant::now()).unwrap();
        assert!(
            matches!(d.effects.first(), Some(Effect::CreateGame { .. })),
            "a new game may open after one is over"
        );
    }

    #[test]
    fn a_phrase_is_shown_by_name_and_seat_and_takes_from_the_allowances_only_once_carried_out() {
        let mut core = playing();
        core.visitors.insert(
            connection(3),
            Visitor {
                identity: id("cy"),
                name: "Cy".to_owned(),
                address: IpAddr::from([10, 0, 0, 3]),
            },
        );
        let phrase = crate::protocol::PHRASES[0];
        let say = || ClientMsg::Say {
            phrase: phrase.to_owned(),
        };
        let now = Instant::now();
        let d = core.decide(request(1, say()), now).unwrap();
        let [Effect::Phrases(allowances), Effect::Tell(Tell::Said(said))] = &d.effects[..] else {
            panic!("a phrase said: {:?}", d.effects);
        };
        assert_eq!(
            (said.name.as_str(), said.seat, said.phrase),
            ("ana", Some(Colour::Yellow), phrase)
        );
        assert!(!said.chatter, "a seated person's phrase is for everyone");
        assert_ne!(*allowances, core.phrases, "the decision takes one");
        let d = core.decide(request(3, say()), now).unwrap();
        let [_, Effect::Tell(Tell::Said(said))] = &d.effects[..] else {
            panic!("a phrase said: {:?}", d.effects);
        };
        assert!(
            said.chatter && said.seat.is_none(),
            "a watcher's phrase is chatter"
        );
        let unknown = ClientMsg::Say {
            phrase: "no such phrase".to_owned(),
        };
        assert_eq!(
            refusal(core.decide(request(1, unknown), now)),
            RefusalCode::NoSuchPhrase
        );
    }
}
