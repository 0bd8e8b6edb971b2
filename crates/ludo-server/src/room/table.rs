//! What the table's requests decide, with no I/O: sitting, standing, leaving, freeing an away
//! seat, adding and removing CPUs, the settings, and offering, accepting or declining a new
//! game. Each decision is the table after the request and its effects in order (see
//! `effects.rs`): what to store before anyone is told, what to tell everyone and what follows;
//! or a refusal, which changes nothing. Time is an input. The room's actor carries decisions
//! out: it stores, then applies, then tells (see `actor/apply.rs`), so these rules are tested
//! here in milliseconds. What the room decides when nobody asked (connections coming and going,
//! a game ending) is in `presence.rs`; the one entry to every decision, throws and moves
//! included, is `core.rs`.

use std::collections::{BTreeSet, HashMap};
use std::time::{Duration, Instant};

use ludo_rules::Colour;

use super::RoomState;
use super::checks::Checks;
use super::effects::{Decision, Effect, FollowUp, Tell, Write};
use super::live::Live;
use crate::ids::IdentityId;
use crate::protocol::{LevelName, Occupant, Refusal, RefusalCode};

/// The table as its requests read it.
pub struct Table<'a> {
    /// Seats, settings, who left.
    pub state: &'a RoomState,
    /// The latest game, if one has started.
    pub live: Option<&'a Live>,
    /// The new game offered, if one is.
    pub rematch: Option<&'a Offer>,
    /// Since when each person seated and not connected has been away.
    pub away_since: &'a HashMap<IdentityId, Instant>,
    /// How long a person must have been away before the host may free their seat.
    pub free_after: Duration,
    /// How long a person must have been away before a new game offered at a friendly table no
    /// longer waits for them: the grace period after which the CPU plays for someone away.
    pub grace: Duration,
    /// Whether the table changed since it was last stored (a write that could not be made).
    pub unsaved: bool,
    /// Now.
    pub now: Instant,
}

/// A new game offered (after a game, or a first game that counts for ratings): the people who
/// accepted it, by identity. An acceptance is the person's, not the seat's: whoever sits down
/// where they sat has accepted nothing, and moving, standing up or leaving takes it back (see
/// [`Table::withdrawn`]).
pub type Offer = BTreeSet<IdentityId>;

/// What the table's requests know of the connections, which the table does not hold: whether a
/// game may start with the people here now.
pub struct Here {
    /// Whether every person seated is connected (a ranked game needs it).
    pub everyone: bool,
    /// Whether the people seated connect from different network addresses, as a game that
    /// counts for ratings needs; its refusal if not.
    pub apart: Result<(), Refusal>,
}

/// The changes a `settings` request asks for; `None` keeps a value.
pub struct SettingsChange<'a> {
    /// The rules, as the request wrote them.
    pub rules: Option<&'a serde_json::Value>,
    /// The clock (`Some(None)` clears it).
    pub clock: Option<Option<u32>>,
    /// Whether games are ranked.
    pub ranked: Option<bool>,
    /// Whether the next seat starts the next game.
    pub rotate: Option<bool>,
    /// Whether the room is listed publicly.
    pub public: Option<bool>,
}

impl Table<'_> {
    fn checks(&self) -> Checks<'_> {
        Checks {
            state: self.state,
            live: self.live,
        }
    }

    /// A decision that changes the table to `state` and the offer to `rematch`, stores it,
    /// then tells `tells`.
    fn changed(
        &self,
        state: RoomState,
        rematch: Option<Offer>,
        tells: impl IntoIterator<Item = Tell>,
    ) -> Decision {
        Decision::new(state, rematch)
            .then(Effect::Store(Write::Table))
            .telling(tells)
    }

    /// The seat of the person `identity`, if seated.
    pub fn seat_of(&self, identity: &IdentityId) -> Option<Colour> {
        seat_of(self.state, identity)
    }

    fn seated(&self, identity: &IdentityId) -> Result<Colour, Refusal> {
        self.seat_of(identity)
            .ok_or_else(|| Refusal::new(RefusalCode::NotSeated, "you have no seat"))
    }

    /// Whether `seat` plays in the game being played.
    fn plays_in_game_on(&self, seat: Colour) -> bool {
        self.checks().game_on() && self.live.is_some_and(|l| l.players.contains_key(&seat))
    }

    /// `identity` (named `name`) sits at `colour`, leaving any other seat. Sitting where one
    /// already sits changes nothing (the host is seated when the room is created); a table
    /// matchmaking formed seats nobody else and moves nobody.
    pub fn sit(
        &self,
        identity: &IdentityId,
        name: &str,
        colour: Colour,
    ) -> Result<Decision, Refusal> {
        self.checks().lobby_only()?;
        if self.seat_of(identity) == Some(colour) {
            let unchanged = Decision::new(self.state.clone(), self.rematch.cloned());
            return Ok(unchanged.telling([Tell::Table]));
        }
        self.checks().not_matched()?;
        self.checks().seat_free(colour)?;
        let mut state = self.state.clone();
        let (mut rematch, mut tell) = (self.rematch.cloned(), Vec::new());
        if let Some(old) = self.seat_of(identity) {
            state.seats.remove(&old);
            (rematch, tell) = self.withdrawn(identity, old);
        }
        let person = Occupant::Person {
            id: identity.clone(),
            name: name.to_owned(),
        };
        state.seats.insert(colour, person);
        tell.push(Tell::Table);
        Ok(self.changed(state, rematch, tell))
    }

    /// The new game offered once `identity`, who sat at `seat`, takes back their acceptance (by
    /// moving, standing up or leaving), and what to tell before the table: an offer nobody else
    /// has accepted ends, as when its last acceptance is cancelled (see [`Table::decline`]).
    fn withdrawn(&self, identity: &IdentityId, seat: Colour) -> (Option<Offer>, Vec<Tell>) {
        let Some(accepted) = self.rematch.filter(|a| a.contains(identity)) else {
            return (self.rematch.cloned(), Vec::new());
        };
        let mut still = accepted.clone();
        still.remove(identity);
        if still.is_empty() {
            (None, vec![Tell::Declined { seat }])
        } else {
            (Some(still), Vec::new())
        }
    }

    /// `identity` stands up between games, taking back their acceptance of a new game offered;
    /// it starts if everyone left seated has accepted it.
    pub fn stand(&self, identity: &IdentityId) -> Result<Decision, Refusal> {
        self.checks().lobby_only()?;
        let seat = self.seated(identity)?;
        Ok(self.freed(seat))
    }

    /// The table without `seat` (between games): its person's acceptance of a new game offered
    /// goes with them.
    fn freed(&self, seat: Colour) -> Decision {
        let mut state = self.state.clone();
        let (rematch, mut tell) = match state.seats.remove(&seat) {
            Some(Occupant::Person { id, .. }) => self.withdrawn(&id, seat),
            _ => (self.rematch.cloned(), Vec::new()),
        };
        tell.push(Tell::Table);
        self.changed(state, rematch, tell)
            .then(Effect::FollowUp(FollowUp::StartIfEveryoneAccepted))
    }

    /// `identity` leaves the table: during a game the CPU plays the seat until it ends (then it
    /// is freed); between games the seat is freed at once.
    pub fn leave(&self, identity: &IdentityId) -> Result<Decision, Refusal> {
        let seat = self
            .seat_of(identity)
            .filter(|seat| !self.state.left.contains(seat))
            .ok_or_else(|| Refusal::new(RefusalCode::NotSeated, "you have no seat"))?;
        if self.plays_in_game_on(seat) {
            Ok(self.handed_to_cpu(seat, false))
        } else {
            self.stand(identity)
        }
    }

    /// The CPU plays `seat` for the rest of the game being played (the seat is freed when it
    /// ends); `freed` when the host did it for someone away.
    fn handed_to_cpu(&self, seat: Colour, freed: bool) -> Decision {
        let mut state = self.state.clone();
        state.left.insert(seat);
        let tells = [Tell::Left { seat, freed }, Tell::Table];
        self.changed(state, self.rematch.cloned(), tells)
    }

    /// The host frees the seat at `colour` of a person away for at least
    /// [`Table::free_after`] (never at a ranked table): as if they had left.
    pub fn free_seat(&self, host: &IdentityId, colour: Colour) -> Result<Decision, Refusal> {
        self.checks().host_only(host)?;
        self.checks().people_only()?;
        let Some(Occupant::Person { id, .. }) = self.state.seats.get(&colour) else {
            return Err(Refusal::new(
                RefusalCode::BadMessage,
                format!("no person sits at {colour}"),
            ));
        };
        let away_long = self
            .away_since
            .get(id)
            .is_some_and(|since| self.now.saturating_duration_since(*since) >= self.free_after);
        if !away_long || self.state.left.contains(&colour) {
            return Err(Refusal::new(
                RefusalCode::NotAway,
                format!(
                    "only the seat of someone away for {} s or more can be freed",
                    self.free_after.as_secs()
                ),
            ));
        }
        if self.plays_in_game_on(colour) {
            return Ok(self.handed_to_cpu(colour, true));
        }
        Ok(self.freed(colour))
    }

    /// The host seats a CPU of `level` at `colour` (never at a ranked table).
    pub fn add_cpu(
        &self,
        host: &IdentityId,
        colour: Colour,
        level: LevelName,
    ) -> Result<Decision, Refusal> {
        self.checks().host_only(host)?;
        self.checks().lobby_only()?;
        self.checks().seat_free(colour)?;
        self.checks().people_only()?;
        let mut state = self.state.clone();
        state.seats.insert(colour, Occupant::Cpu { level });
        Checks {
            state: &state,
            live: self.live,
        }
        .expert_plays(&state.settings, None)?;
        Ok(self.changed(state, self.rematch.cloned(), [Tell::Table]))
    }

    /// The host takes the CPU at `colour` away.
    pub fn remove_cpu(&self, host: &IdentityId, colour: Colour) -> Result<Decision, Refusal> {
        self.checks().host_only(host)?;
        self.checks().lobby_only()?;
        if !matches!(self.state.seats.get(&colour), Some(Occupant::Cpu { .. })) {
            return Err(Refusal::new(
                RefusalCode::BadMessage,
                format!("no CPU sits at {colour}"),
            ));
        }
        let mut state = self.state.clone();
        state.seats.remove(&colour);
        Ok(self.changed(state, self.rematch.cloned(), [Tell::Table]))
    }

    /// The host changes the settings (fields left out keep their value). When they differ,
    /// their version goes up and a new game offered is withdrawn, since it was accepted under the
    /// old ones. A table matchmaking formed keeps the settings it was formed with.
    pub fn change_settings(
        &self,
        host: &IdentityId,
        change: &SettingsChange<'_>,
    ) -> Result<Decision, Refusal> {
        self.checks().host_only(host)?;
        self.checks().lobby_only()?;
        self.checks().not_matched()?;
        let settings = self.state.settings.changed(
            change.rules,
            change.clock,
            change.ranked,
            change.rotate,
            change.public,
        )?;
        if settings.ranked {
            self.checks().no_cpu_for(&settings)?;
        }
        self.checks().expert_plays(&settings, None)?;
        let offer_stands = settings == self.state.settings;
        let mut state = self.state.clone();
        if !offer_stands {
            state.settings_version += 1;
        }
        state.settings = settings;
        let rematch = self.rematch.cloned().filter(|_| offer_stands);
        Ok(self.changed(state, rematch, [Tell::Table]))
    }

    /// `identity` starts, offers or accepts a new game under the settings of `settings_version`
    /// (the settings as they are when it is left out), with the people `here`.
    ///
    /// Before the table's first game, the host starts it (with or without a seat): a friendly
    /// game at once, while a game that counts for ratings is offered with the host's acceptance,
    /// as after a game, so that nobody is rated under settings they did not accept (the host's
    /// start is refused as the game's would be if it could not start now). The others seated then
    /// accept it. After a game, any person seated offers or accepts a new one. Either
    /// way an offer starts once everyone seated has accepted it (see
    /// [`Table::everyone_accepted`]).
    pub fn accept(
        &self,
        identity: &IdentityId,
        settings_version: Option<u64>,
        here: Here,
    ) -> Result<Decision, Refusal> {
        self.checks().lobby_only()?;
        let first = self.live.is_none();
        if first && self.rematch.is_none() {
            self.checks().host_only(identity)?;
        }
        let hosting = first && *identity == self.state.host;
        if !hosting {
            self.seated(identity)?;
        }
        self.checks().settings_seen(settings_version)?;
        if hosting && self.open_game(here.everyone)?.ranked {
            here.apart.clone()?;
        } else if hosting {
            return self.opened(&here, false);
        }
        let mut accepted = self.rematch.cloned().unwrap_or_default();
        accepted.insert(identity.clone());
        let all_in = self.everyone_accepted(&accepted);
        if all_in {
            // The last acceptance needed opens the game; if it cannot open, the acceptance is
            // refused and the offer stays as it was.
            return self.opened(&here, true);
        }
        Ok(Decision::new(self.state.clone(), Some(accepted)).telling([Tell::Table]))
    }

    /// A new game at the table now, if one may start with the people `here` (a ranked one
    /// only with them connected from different addresses): stored before anything else, then
    /// the table as the game opens it (if it can be), then shown to everyone, with the table
    /// when the game ends an offer (`offered`).
    ///
    /// # Errors
    /// The refusal, when the game cannot start.
    pub fn opened(&self, here: &Here, offered: bool) -> Result<Decision, Refusal> {
        let opening = self.open_game(here.everyone)?;
        if opening.ranked {
            here.apart.clone()?;
        }
        let (seats, ranked) = (opening.seats, opening.ranked);
        let mut tells = vec![Tell::Game];
        if offered {
            // The offer is over: the table says so.
            tells.push(Tell::Table);
        }
        tells.push(Tell::Listing);
        Ok(Decision::new(opening.state, None)
            .then(Effect::CreateGame { seats, ranked })
            // The game is stored; who started it is only needed for the next one.
            .then(Effect::Store(Write::TableIfPossible))
            .telling(tells))
    }

    /// A new game at the table, if one may start (`everyone_here`: every person seated is
    /// connected, which a ranked game needs). Seats play in clockwise order; each new game
    /// starts with the seat after the one that started the last game, or with that same seat
    /// when the table does not rotate.
    pub fn open_game(&self, everyone_here: bool) -> Result<Opening, Refusal> {
        self.checks().lobby_only()?;
        let settings = &self.state.settings;
        if settings.ranked && !everyone_here {
            return Err(Refusal::new(
                RefusalCode::PlayersAway,
                "a ranked game starts only when everyone seated is here",
            ));
        }
        if self.state.seats.len() < 2 {
            return Err(Refusal::new(
                RefusalCode::NotEnoughPlayers,
                "a game needs two seats or more",
            ));
        }
        let clockwise: Vec<Colour> = self.state.seats.keys().copied().collect();
        let first = match self.state.last_first {
            None => 0,
            Some(last) => clockwise
                .iter()
                .position(|&c| if settings.rotate { c > last } else { c >= last })
                .unwrap_or(0),
        };
        let seats: Vec<Colour> = clockwise[first..]
            .iter()
            .chain(&clockwise[..first])
            .copied()
            .collect();
        self.checks().no_cpu_for(settings)?;
        self.checks().expert_plays(settings, Some(seats.len()))?;
        let mut state = self.state.clone();
        state.left.clear();
        state.last_first = Some(clockwise[first]);
        Ok(Opening {
            ranked: settings.rates(seats.len()),
            seats,
            state,
        })
    }

    /// The people seated, by identity.
    fn people(&self) -> impl Iterator<Item = &IdentityId> {
        self.state.seats.values().filter_map(|o| match o {
            Occupant::Person { id, .. } => Some(id),
            Occupant::Cpu { .. } => None,
        })
    }

    /// Whether a new game offered waits for `identity`, seated, to accept it: at a friendly
    /// table, not once they have been away (no connection open) for the grace period, so that a
    /// reload holds nothing up and someone gone does not hold everyone else up (the CPU plays
    /// their seat until they are back); at a ranked table, always.
    fn waits_for(&self, identity: &IdentityId) -> bool {
        self.state.settings.ranked
            || self
                .away_since
                .get(identity)
                .is_none_or(|since| self.now.saturating_duration_since(*since) < self.grace)
    }

    /// Whether a new game offered with these acceptances starts: everyone seated it waits for
    /// (see [`Table::waits_for`]) has accepted it, CPUs always do, and someone connected has
    /// accepted it (no game starts for people who are all gone).
    pub fn everyone_accepted(&self, accepted: &Offer) -> bool {
        let connected = |id: &&IdentityId| !self.away_since.contains_key(*id);
        self.people()
            .filter(connected)
            .any(|id| accepted.contains(id))
            && self
                .people()
                .all(|id| accepted.contains(id) || !self.waits_for(id))
    }

    /// Whether a new game is offered and everyone it waits for has accepted it.
    pub fn offer_accepted(&self) -> bool {
        self.rematch
            .is_some_and(|accepted| self.everyone_accepted(accepted))
    }

    /// When to look again at the new game offered, by itself: the first moment, after now, when
    /// a person seated who has not accepted it will have been away for the grace period (from
    /// then it no longer waits for them). None without an offer, or at a ranked table.
    pub fn offer_due(&self) -> Option<Instant> {
        let accepted = self.rematch.filter(|_| !self.state.settings.ranked)?;
        self.people()
            .filter(|id| !accepted.contains(*id))
            .filter_map(|id| self.away_since.get(id))
            .map(|since| *since + self.grace)
            .filter(|&at| at > self.now)
            .min()
    }

    /// `identity` declines the new game offered: the offer is withdrawn for everyone.
    pub fn decline(&self, identity: &IdentityId) -> Result<Decision, Refusal> {
        let seat = self.seated(identity)?;
        if self.checks().game_on() || self.rematch.is_none() {
            return Err(Refusal::new(RefusalCode::NoOffer, "no new game is offered"));
        }
        let declined = Decision::new(self.state.clone(), None);
        Ok(declined.telling([Tell::Declined { seat }, Tell::Table]))
    }
}

/// What starting a new game decides (see [`Table::open_game`]).
#[derive(Debug, PartialEq)]
pub struct Opening {
    /// The seats in the order they play, the first to start.
    pub seats: Vec<Colour>,
    /// Whether the game counts for ratings.
    pub ranked: bool,
    /// The table once the game is stored: nobody has left it yet, and the seat that starts is
    /// remembered for the next game.
    pub state: RoomState,
}

/// The seat of the person `identity` at `state`'s table, if seated.
pub fn seat_of(state: &RoomState, identity: &IdentityId) -> Option<Colour> {
    state.seats.iter().find_map(|(&colour, o)| match o {
        Occupant::Person { id, .. } if id == identity => Some(colour),
        _ => None,
    })
}

/// The table with `identity`'s seat under `name`, if that changes it (a person who renamed
/// themselves on their device comes back).
pub fn renamed(state: &RoomState, identity: &IdentityId, name: &str) -> Option<RoomState> {
    let mut renamed = state.clone();
    let mut changed = false;
    for occupant in renamed.seats.values_mut() {
        if let Occupant::Person { id, name: old } = occupant
            && id == identity
            && old != name
        {
            name.clone_into(old);
            changed = true;
        }
    }
    changed.then_some(renamed)
}

/// After a game: the table with the seats of those who left it freed, if anyone did.
pub fn without_those_who_left(state: &RoomState) -> Option<RoomState> {
    if state.left.is_empty() {
        return None;
    }
    let mut freed = state.clone();
    for seat in std::mem::take(&mut freed.left) {
        freed.seats.remove(&seat);
    }
    Some(freed)
}

#[cfg(test)]
mod tests {
    use super::super::effects::read::{follow_up, opens, stored, tells};
    use super::super::fixtures::{FREE_AFTER, GRACE, Room, id, offer, table};
    use super::*;

    fn refusal(outcome: Result<impl std::fmt::Debug, Refusal>) -> &'static str {
        outcome.expect_err("refused").code.as_str()
    }

    fn person(state: &RoomState, colour: Colour) -> Option<&str> {
        match state.seats.get(&colour) {
            Some(Occupant::Person { id, .. }) => Some(id),
            _ => None,
        }
    }

    /// Everyone seated connected, each from an address of their own.
    fn everyone() -> Here {
        Here {
            everyone: true,
            apart: Ok(()),
        }
    }

    /// `who` starts, offers or accepts a new game, under the settings as they are, with
    /// [`everyone`] here.
    fn accept(room: &Room, who: &str) -> Result<Decision, Refusal> {
        room.table().accept(&id(who), None, everyone())
    }

    fn cpu() -> LevelName {
        LevelName(ludo_bots::Level::Easy)
    }

    #[test]
    fn sitting_moves_a_person_to_a_free_seat_and_is_stored_then_shown() {
        let room = Room::new(table(false, false));
        let d = room.table().sit(&id("bo"), "Bo", Colour::Green).unwrap();
        assert_eq!(person(&d.state, Colour::Green), Some("bo"));
        assert_eq!(person(&d.state, Colour::Red), None, "the old seat is freed");
        assert_eq!(stored(&d), Some(Write::Table));
        assert!(matches!(tells(&d)[..], [Tell::Table]));
        // A newcomer sits under the name they gave.
        let d = room.table().sit(&id("cy"), "Cy", Colour::Blue).unwrap();
        assert!(matches!(
            d.state.seats.get(&Colour::Blue),
            Some(Occupant::Person { name, .. }) if name == "Cy"
        ));
    }

    #[test]
    fn sitting_where_one_sits_changes_nothing_and_a_taken_seat_or_a_game_refuses() {
        let room = Room::new(table(false, false));
        let d = room.table().sit(&id("ana"), "Ana", Colour::Yellow).unwrap();
        assert_eq!(stored(&d), None, "nothing to store");
        assert_eq!(d.state.seats, room.state.seats);
        assert_eq!(
            refusal(room.table().sit(&id("cy"), "Cy", Colour::Red)),
            "seat_taken"
        );
        let playing = Room::new(table(false, false)).playing();
        assert_eq!(
            refusal(playing.table().sit(&id("cy"), "Cy", Colour::Blue)),
            "game_on"
        );
    }

    #[test]
    fn a_matched_table_keeps_its_people_in_their_seats_and_its_settings() {
        let mut state = table(true, false);
        state.matched = true;
        let room = Room::new(state).after_a_game();
        let stay = room.table().sit(&id("ana"), "Ana", Colour::Yellow).unwrap();
        assert_eq!(
            stored(&stay),
            None,
            "sitting where one sits still changes nothing"
        );
        assert_eq!(
            refusal(room.table().sit(&id("cy"), "Cy", Colour::Blue)),
            "matched_table",
            "nobody else sits"
        );
        assert_eq!(
            refusal(room.table().sit(&id("bo"), "Bo", Colour::Green)),
            "matched_table",
            "nobody moves"
        );
        let public = SettingsChange {
            rules: None,
            clock: None,
            ranked: None,
            rotate: None,
            public: Some(true),
        };
        assert_eq!(
            refusal(room.table().change_settings(&id("ana"), &public)),
            "matched_table"
        );
        assert_eq!(
            refusal(room.table().change_settings(&id("bo"), &public)),
            "not_host",
            "the host check comes first"
        );
        // Playing again, standing up and leaving stay as at any table.
        assert!(accept(&room, "bo").is_ok());
        assert!(room.table().leave(&id("bo")).is_ok());
    }

    #[test]
    fn standing_frees_the_seat_takes_back_an_acceptance_and_may_start_the_offer() {
        let mut room = Room::new(table(false, true)).after_a_game();
        room.rematch = offer(&["ana", "bo"]);
        let d = room.table().stand(&id("bo")).unwrap();
        assert_eq!(person(&d.state, Colour::Red), None);
        assert_eq!(d.rematch, offer(&["ana"]));
        assert_eq!(follow_up(&d), Some(&FollowUp::StartIfEveryoneAccepted));
        assert_eq!(refusal(room.table().stand(&id("cy"))), "not_seated");
        let playing = Room::new(table(false, false)).playing();
        assert_eq!(refusal(playing.table().stand(&id("bo"))), "game_on");
    }

    #[test]
    fn leaving_a_game_hands_the_seat_to_the_cpu_and_between_games_frees_it() {
        let playing = Room::new(table(false, false)).playing();
        let d = playing.table().leave(&id("bo")).unwrap();
        assert!(d.state.left.contains(&Colour::Red));
        assert_eq!(
            person(&d.state, Colour::Red),
            Some("bo"),
            "kept until the end"
        );
        assert!(matches!(
            tells(&d)[..],
            [
                Tell::Left {
                    seat: Colour::Red,
                    freed: false
                },
                Tell::Table
            ]
        ));
        // Once left, there is nothing more to leave.
        let mut gone = Room::new(d.state).playing();
        gone.live = playing.live;
        assert_eq!(refusal(gone.table().leave(&id("bo"))), "not_seated");
        let between = Room::new(table(false, false));
        let d = between.table().leave(&id("bo")).unwrap();
        assert_eq!(person(&d.state, Colour::Red), None);
        assert_eq!(refusal(between.table().leave(&id("cy"))), "not_seated");
    }

    #[test]
    fn the_host_frees_only_the_seat_of_someone_away_long_enough_and_never_at_a_ranked_table() {
        let room = Room::new(table(false, false)).away("bo", FREE_AFTER);
        let d = room.table().free_seat(&id("ana"), Colour::Red).unwrap();
        assert_eq!(person(&d.state, Colour::Red), None);
        assert_eq!(
            refusal(room.table().free_seat(&id("bo"), Colour::Red)),
            "not_host"
        );
        assert_eq!(
            refusal(room.table().free_seat(&id("ana"), Colour::Blue)),
            "bad_message"
        );
        let recent = Room::new(table(false, false)).away("bo", FREE_AFTER / 2);
        assert_eq!(
            refusal(recent.table().free_seat(&id("ana"), Colour::Red)),
            "not_away"
        );
        let here = Room::new(table(false, false));
        assert_eq!(
            refusal(here.table().free_seat(&id("ana"), Colour::Red)),
            "not_away"
        );
        let ranked = Room::new(table(true, false)).away("bo", FREE_AFTER);
        assert_eq!(
            refusal(ranked.table().free_seat(&id("ana"), Colour::Red)),
            "ranked_people_only"
        );
        // During a game, the CPU plays the freed seat to the end.
        let playing = Room::new(table(false, false))
            .playing()
            .away("bo", FREE_AFTER);
        let d = playing.table().free_seat(&id("ana"), Colour::Red).unwrap();
        assert!(d.state.left.contains(&Colour::Red));
        assert!(matches!(tells(&d)[0], Tell::Left { freed: true, .. }));
    }

    #[test]
    fn the_host_adds_and_removes_cpus_between_games_at_friendly_tables_only() {
        let room = Room::new(table(false, true));
        let d = room
            .table()
            .add_cpu(&id("ana"), Colour::Green, cpu())
            .unwrap();
        assert!(matches!(
            d.state.seats.get(&Colour::Green),
            Some(Occupant::Cpu { .. })
        ));
        assert_eq!(
            refusal(room.table().add_cpu(&id("bo"), Colour::Green, cpu())),
            "not_host"
        );
        assert_eq!(
            refusal(room.table().add_cpu(&id("ana"), Colour::Red, cpu())),
            "seat_taken"
        );
        let ranked = Room::new(table(true, false));
        assert_eq!(
            refusal(ranked.table().add_cpu(&id("ana"), Colour::Green, cpu())),
            "ranked_people_only"
        );
        let d = room.table().remove_cpu(&id("ana"), Colour::Blue).unwrap();
        assert!(!d.state.seats.contains_key(&Colour::Blue));
        assert_eq!(
            refusal(room.table().remove_cpu(&id("ana"), Colour::Red)),
            "bad_message"
        );
        assert_eq!(
            refusal(room.table().remove_cpu(&id("bo"), Colour::Blue)),
            "not_host"
        );
        let playing = Room::new(table(false, true)).playing();
        assert_eq!(
            refusal(playing.table().remove_cpu(&id("ana"), Colour::Blue)),
            "game_on"
        );
        assert_eq!(
            refusal(playing.table().add_cpu(&id("ana"), Colour::Green, cpu())),
            "game_on"
        );
    }

    #[test]
    fn new_settings_withdraw_an_offer_and_are_checked_in_order() {
        let mut room = Room::new(table(false, true)).after_a_game();
        room.rematch = offer(&["ana"]);
        let change = |clock, ranked| SettingsChange {
            rules: None,
            clock,
            ranked,
            rotate: None,
            public: None,
        };
        let d = room
            .table()
            .change_settings(&id("ana"), &change(Some(Some(30)), None))
            .unwrap();
        assert_eq!(d.state.settings.clock, Some(30));
        assert_eq!(d.rematch, None, "accepted under the old settings");
        let same = room
            .table()
            .change_settings(&id("ana"), &change(None, None))
            .unwrap();
        assert!(same.rematch.is_some(), "unchanged settings keep the offer");
        assert_eq!(
            refusal(
                room.table()
                    .change_settings(&id("bo"), &change(Some(Some(7)), None))
            ),
            "not_host",
            "the host check comes before the settings' own"
        );
        assert_eq!(
            refusal(
                room.table()
                    .change_settings(&id("ana"), &change(Some(Some(7)), None))
            ),
            "bad_message"
        );
        assert_eq!(
            refusal(
                room.table()
                    .change_settings(&id("ana"), &change(None, Some(true)))
            ),
            "ranked_people_only",
            "a CPU is seated"
        );
        let playing = Room::new(table(false, false)).playing();
        assert_eq!(
            refusal(
                playing
                    .table()
                    .change_settings(&id("ana"), &change(None, None))
            ),
            "game_on"
        );
    }

    #[test]
    fn a_new_game_starts_when_the_last_person_seated_accepts() {
        let room = Room::new(table(false, true)).after_a_game();
        let d = accept(&room, "ana").unwrap();
        assert_eq!(d.rematch, offer(&["ana"]));
        assert_eq!(
            follow_up(&d),
            None,
            "Bo has not accepted; the CPU needs not"
        );
        let mut offered = room;
        offered.rematch = d.rematch;
        let d = accept(&offered, "bo").unwrap();
        assert!(opens(&d), "the last acceptance opens the game");
        assert_eq!(d.rematch, None, "the offer is over");
        assert!(
            matches!(tells(&d)[..], [Tell::Game, Tell::Table, Tell::Listing]),
            "the game, then the table without the offer"
        );
        assert_eq!(refusal(accept(&offered, "cy")), "not_seated");
        let playing = Room::new(table(false, false)).playing();
        assert_eq!(refusal(accept(&playing, "bo")), "game_on");
    }

    #[test]
    fn an_acceptance_is_the_persons_so_whoever_sits_in_their_old_seat_has_not_accepted() {
        let mut room = Room::new(table(false, false)).after_a_game();
        room.rematch = offer(&["ana", "bo"]);
        // Ana accepted, then moves: her acceptance goes, Bo's stays.
        let moved = room.table().sit(&id("ana"), "ana", Colour::Green).unwrap();
        assert_eq!(moved.rematch, offer(&["bo"]));
        assert!(matches!(tells(&moved)[..], [Tell::Table]));
        room.apply(moved);
        // Cy sits where Ana sat: nobody has accepted for him.
        room.apply(room.table().sit(&id("cy"), "Cy", Colour::Yellow).unwrap());
        assert_eq!(room.rematch, offer(&["bo"]));
        let d = accept(&room, "ana").unwrap();
        assert_eq!(d.rematch, offer(&["ana", "bo"]));
        assert_eq!(follow_up(&d), None, "Cy has not accepted");
        room.apply(d);
        let d = accept(&room, "cy").unwrap();
        assert!(opens(&d));
    }

    #[test]
    fn an_offer_whose_only_acceptance_is_taken_back_ends_as_if_it_were_cancelled() {
        let mut room = Room::new(table(false, true)).after_a_game();
        room.rematch = offer(&["ana"]);
        let moved = room.table().sit(&id("ana"), "ana", Colour::Green).unwrap();
        let stood = room.table().stand(&id("ana")).unwrap();
        let left = room.table().leave(&id("ana")).unwrap();
        for d in [moved, stood, left] {
            assert_eq!(d.rematch, None);
            assert!(
                matches!(
                    tells(&d)[..],
                    [
                        Tell::Declined {
                            seat: Colour::Yellow
                        },
                        Tell::Table
                    ]
                ),
                "{:?}",
                tells(&d)
            );
        }
        // Someone who had not accepted stands up: the offer stands, and may start.
        let d = room.table().stand(&id("bo")).unwrap();
        assert_eq!(d.rematch, offer(&["ana"]));
        assert!(matches!(tells(&d)[..], [Tell::Table]));
        assert_eq!(follow_up(&d), Some(&FollowUp::StartIfEveryoneAccepted));
        // Sitting down where one sits takes nothing back.
        let d = room.table().sit(&id("ana"), "ana", Colour::Yellow).unwrap();
        assert_eq!(d.rematch, offer(&["ana"]));
    }

    #[test]
    fn a_seat_the_host_frees_takes_its_persons_acceptance_with_it() {
        let mut room = Room::new(table(false, true))
            .after_a_game()
            .away("bo", FREE_AFTER);
        room.rematch = offer(&["ana", "bo"]);
        let d = room.table().free_seat(&id("ana"), Colour::Red).unwrap();
        assert_eq!(d.rematch, offer(&["ana"]));
        assert_eq!(follow_up(&d), Some(&FollowUp::StartIfEveryoneAccepted));
    }

    /// A settings request changing only the clock to `clock`, or making the table ranked.
    #[test]
    fn an_expert_sits_only_where_it_has_a_network_never_with_a_house_rule_changed() {
        let expert = LevelName(ludo_bots::Level::Expert);
        let house = serde_json::json!({"preset": "qdan", "stacking": false});
        let to_house = SettingsChange {
            rules: Some(&house),
            ..settings_change(None, None)
        };
        let classic = serde_json::json!("classic");
        let to_classic = SettingsChange {
            rules: Some(&classic),
            ..settings_change(None, None)
        };
        // Under the standard rules the host seats an expert, and no change of rules leaves it
        // playing as another level; another preset has its own network.
        let room = Room::new(table(false, false));
        let d = room
            .table()
            .add_cpu(&id("ana"), Colour::Green, expert)
            .unwrap();
        let seated = Room::new(d.state);
        assert_eq!(
            refusal(seated.table().change_settings(&id("ana"), &to_house)),
            "expert_unavailable"
        );
        assert!(
            seated
                .table()
                .change_settings(&id("ana"), &to_classic)
                .is_ok()
        );
        assert!(
            accept(&seated, "ana").is_ok(),
            "three seats: the expert plays"
        );
        // Under the Vietnamese rules it has learned two seats only: it stays while the table
        // fills, and a start with three is refused.
        let vietnamese = serde_json::json!("vietnamese");
        let to_vietnamese = SettingsChange {
            rules: Some(&vietnamese),
            ..settings_change(None, None)
        };
        let d = seated
            .table()
            .change_settings(&id("ana"), &to_vietnamese)
            .unwrap();
        let three = Room::new(d.state);
        assert_eq!(refusal(accept(&three, "ana")), "expert_unavailable");
        // With a house rule changed it is not seated at all.
        let d = room.table().change_settings(&id("ana"), &to_house).unwrap();
        let house_rules = Room::new(d.state);
        assert_eq!(
            refusal(
                house_rules
                    .table()
                    .add_cpu(&id("ana"), Colour::Green, expert)
            ),
            "expert_unavailable"
        );
        assert!(
            house_rules
                .table()
                .add_cpu(&id("ana"), Colour::Green, cpu())
                .is_ok(),
            "every other level plays any rules"
        );
    }

    fn settings_change(clock: Option<u32>, ranked: Option<bool>) -> SettingsChange<'static> {
        SettingsChange {
            rules: None,
            clock: clock.map(Some),
            ranked,
            rotate: None,
            public: None,
        }
    }

    #[test]
    fn every_change_of_settings_moves_their_version_on_and_the_same_settings_do_not() {
        let room = Room::new(table(false, false));
        assert_eq!(room.state.settings_version, 0);
        let d = room
            .table()
            .change_settings(&id("ana"), &settings_change(Some(30), None))
            .unwrap();
        assert_eq!(d.state.settings_version, 1);
        let same = room
            .table()
            .change_settings(&id("ana"), &settings_change(None, None))
            .unwrap();
        assert_eq!(same.state.settings_version, 0, "nothing changed");
    }

    #[test]
    fn a_new_game_is_accepted_under_the_settings_one_saw_and_refused_once_they_changed() {
        let mut room = Room::new(table(false, false)).after_a_game();
        room.rematch = offer(&["ana"]);
        room.apply(
            room.table()
                .change_settings(&id("ana"), &settings_change(Some(60), None))
                .unwrap(),
        );
        assert_eq!(room.rematch, None, "the offer is withdrawn");
        assert_eq!(room.state.settings_version, 1);
        let stale = room.table().accept(&id("bo"), Some(0), everyone());
        assert_eq!(refusal(stale), "settings_changed");
        let d = room.table().accept(&id("bo"), Some(1), everyone()).unwrap();
        assert_eq!(d.rematch, offer(&["bo"]));
        // Left out, the version is the settings as they are.
        assert!(room.table().accept(&id("bo"), None, everyone()).is_ok());
        // The game, the seat and the host are checked first.
        let playing = Room::new(table(false, false)).playing();
        assert_eq!(
            refusal(playing.table().accept(&id("bo"), Some(9), everyone())),
            "game_on"
        );
        assert_eq!(
            refusal(room.table().accept(&id("cy"), Some(9), everyone())),
            "not_seated"
        );
        let before = Room::new(table(false, false));
        assert_eq!(
            refusal(before.table().accept(&id("bo"), Some(9), everyone())),
            "not_host"
        );
    }

    #[test]
    fn the_host_starts_a_friendly_first_game_at_once() {
        let room = Room::new(table(false, true));
        let d = accept(&room, "ana").unwrap();
        assert!(opens(&d));
        assert_eq!(d.rematch, None);
        assert!(
            matches!(tells(&d)[..], [Tell::Game, Tell::Listing]),
            "no offer ends"
        );
        assert_eq!(refusal(accept(&room, "bo")), "not_host");
        // A stale start is refused like any acceptance.
        let stale = room.table().accept(&id("ana"), Some(3), everyone());
        assert_eq!(refusal(stale), "settings_changed");
    }

    #[test]
    fn the_hosts_start_of_a_first_game_that_counts_for_ratings_is_an_offer_the_others_accept() {
        let mut room = Room::new(table(true, false));
        let d = accept(&room, "ana").unwrap();
        assert_eq!(d.rematch, offer(&["ana"]));
        assert_eq!(follow_up(&d), None, "Bo has not accepted");
        assert!(matches!(tells(&d)[..], [Tell::Table]));
        room.apply(d);
        let d = accept(&room, "bo").unwrap();
        assert!(opens(&d));
        // If the game cannot start, Bo's acceptance is refused and the offer stays as it was.
        let together = Here {
            everyone: true,
            apart: Err(Refusal::new(RefusalCode::SameAddress, "one address")),
        };
        let refused = room.table().accept(&id("bo"), None, together);
        assert_eq!(refusal(refused), "same_address");
        // Bo may decline it instead, as after a game.
        let d = room.table().decline(&id("bo")).unwrap();
        assert_eq!(d.rematch, None);
        // The start is checked as the game's would be: everyone here, each from an address
        // of their own.
        let fresh = Room::new(table(true, false));
        let away = Here {
            everyone: false,
            apart: Ok(()),
        };
        assert_eq!(
            refusal(fresh.table().accept(&id("ana"), None, away)),
            "players_away"
        );
        let together = Here {
            everyone: true,
            apart: Err(Refusal::new(RefusalCode::SameAddress, "one address")),
        };
        assert_eq!(
            refusal(fresh.table().accept(&id("ana"), None, together)),
            "same_address"
        );
        // A friendly game needs no such thing.
        let friendly = Room::new(table(false, false));
        let together = Here {
            everyone: true,
            apart: Err(Refusal::new(RefusalCode::SameAddress, "one address")),
        };
        assert!(friendly.table().accept(&id("ana"), None, together).is_ok());
    }

    #[test]
    fn settings_made_ranked_and_a_start_sent_at_once_rate_nobody_who_did_not_accept_them() {
        let mut room = Room::new(table(false, false));
        room.apply(
            room.table()
                .change_settings(&id("ana"), &settings_change(None, Some(true)))
                .unwrap(),
        );
        let d = room
            .table()
            .accept(&id("ana"), Some(1), everyone())
            .unwrap();
        assert_eq!(follow_up(&d), None, "no game before Bo accepts");
        room.apply(d);
        // Bo's acceptance of what he saw before the change is refused.
        let stale = room.table().accept(&id("bo"), Some(0), everyone());
        assert_eq!(refusal(stale), "settings_changed");
        let d = room.table().accept(&id("bo"), Some(1), everyone()).unwrap();
        assert!(opens(&d));
    }

    #[test]
    fn a_first_game_a_ranked_room_plays_friendly_starts_at_once() {
        let mut state = table(true, false);
        state.settings.rules = ludo_rules::Rules::preset(ludo_rules::Preset::Vietnamese);
        state.seats.insert(
            Colour::Blue,
            Occupant::Person {
                id: id("cy"),
                name: "cy".to_owned(),
            },
        );
        let d = accept(&Room::new(state), "ana").unwrap();
        assert!(opens(&d), "three at Vietnamese rules: friendly");
    }

    #[test]
    fn a_friendly_new_game_does_not_wait_for_someone_away_past_the_grace_period() {
        let room = Room::new(table(false, true))
            .after_a_game()
            .away("bo", GRACE);
        let d = accept(&room, "ana").unwrap();
        assert!(opens(&d), "{:?}", d.effects);
        // Away for less (a reload, say): the offer waits for Bo, and is looked at again when
        // his grace period ends.
        let mut reloading = Room::new(table(false, true))
            .after_a_game()
            .away("bo", GRACE / 4);
        let d = accept(&reloading, "ana").unwrap();
        assert_eq!(follow_up(&d), None);
        reloading.apply(d);
        let since = reloading.away_since[&id("bo")];
        assert_eq!(reloading.table().offer_due(), Some(since + GRACE));
        assert!(!reloading.table().offer_accepted());
        // Then: the grace period is over, and nobody else is waited for.
        reloading.now = since + GRACE;
        assert!(reloading.table().offer_accepted());
        assert_eq!(
            reloading.table().offer_due(),
            None,
            "nothing more to look at"
        );
    }

    #[test]
    fn a_ranked_new_game_waits_for_everyone_however_long_away() {
        let mut room = Room::new(table(true, false))
            .after_a_game()
            .away("bo", GRACE * 10);
        let d = accept(&room, "ana").unwrap();
        assert_eq!(follow_up(&d), None);
        room.apply(d);
        assert!(!room.table().offer_accepted());
        assert_eq!(room.table().offer_due(), None);
    }

    #[test]
    fn a_new_game_starts_by_itself_only_for_someone_connected_who_accepted_it() {
        // Ana accepted and is away too: nobody here to play.
        let mut room = Room::new(table(false, false))
            .after_a_game()
            .away("ana", GRACE / 2)
            .away("bo", GRACE);
        room.rematch = offer(&["ana"]);
        assert!(!room.table().offer_accepted());
        room.away_since.remove(&id("ana"));
        assert!(room.table().offer_accepted(), "Ana is back");
        // Those who accepted are never waited for; the earliest of the others is.
        let mut three = Room::new(table(false, false))
            .after_a_game()
            .away("bo", GRACE / 2)
            .away("cy", GRACE / 4);
        three.state.seats.insert(
            Colour::Green,
            Occupant::Person {
                id: id("cy"),
                name: "cy".to_owned(),
            },
        );
        three.rematch = offer(&["ana"]);
        let bo_due = three.away_since[&id("bo")] + GRACE;
        assert_eq!(three.table().offer_due(), Some(bo_due));
        three.rematch = offer(&["ana", "bo"]);
        let cy_due = three.away_since[&id("cy")] + GRACE;
        assert_eq!(three.table().offer_due(), Some(cy_due));
    }

    #[test]
    fn declining_withdraws_the_offer_for_everyone_and_needs_one() {
        let mut room = Room::new(table(false, false)).after_a_game();
        assert_eq!(refusal(room.table().decline(&id("bo"))), "no_offer");
        room.rematch = offer(&["ana"]);
        let d = room.table().decline(&id("bo")).unwrap();
        assert_eq!(d.rematch, None);
        assert_eq!(stored(&d), None);
        assert!(matches!(
            tells(&d)[..],
            [Tell::Declined { seat: Colour::Red }, Tell::Table]
        ));
        assert_eq!(refusal(room.table().decline(&id("cy"))), "not_seated");
        let playing = Room::new(table(false, false)).playing();
        assert_eq!(refusal(playing.table().decline(&id("bo"))), "no_offer");
    }

    #[test]
    fn the_one_who_offered_a_new_game_may_cancel_it() {
        let mut room = Room::new(table(false, false)).after_a_game();
        room.rematch = offer(&["ana"]);
        let d = room.table().decline(&id("ana")).unwrap();
        assert_eq!(d.rematch, None);
        assert!(matches!(
            tells(&d)[..],
            [
                Tell::Declined {
                    seat: Colour::Yellow
                },
                Tell::Table
            ]
        ));
    }

    #[test]
    fn each_new_game_starts_with_the_next_seat_clockwise_unless_the_table_does_not_rotate() {
        let mut room = Room::new(table(false, true));
        let first = room.table().open_game(true).unwrap();
        assert_eq!(first.seats, [Colour::Yellow, Colour::Blue, Colour::Red]);
        assert_eq!(first.state.last_first, Some(Colour::Yellow));
        room.state = first.state;
        let second = room.table().open_game(true).unwrap();
        assert_eq!(second.seats, [Colour::Blue, Colour::Red, Colour::Yellow]);
        room.state = second.state;
        room.state.settings.rotate = false;
        let third = room.table().open_game(true).unwrap();
        assert_eq!(third.seats[0], Colour::Blue, "the same seat starts again");
        // The seat that started left: the next one clockwise starts.
        room.state.seats.remove(&Colour::Blue);
        assert_eq!(room.table().open_game(true).unwrap().seats[0], Colour::Red);
    }

    #[test]
    fn a_game_needs_two_seats_and_a_ranked_one_everyone_here_and_no_cpu() {
        let mut alone = Room::new(table(false, false));
        alone.state.seats.remove(&Colour::Red);
        assert_eq!(refusal(alone.table().open_game(true)), "not_enough_players");
        let ranked = Room::new(table(true, false));
        assert_eq!(refusal(ranked.table().open_game(false)), "players_away");
        let opening = ranked.table().open_game(true).unwrap();
        assert!(opening.ranked);
        let mut with_cpu = Room::new(table(true, true));
        with_cpu.state.settings.ranked = true;
        assert_eq!(
            refusal(with_cpu.table().open_game(true)),
            "ranked_people_only"
        );
        let playing = Room::new(table(false, false)).playing();
        assert_eq!(refusal(playing.table().open_game(true)), "game_on");
        // Those who left the last game are forgotten once a new one starts.
        let mut after = Room::new(table(false, false)).after_a_game();
        after.state.left.insert(Colour::Red);
        assert!(after.table().open_game(true).unwrap().state.left.is_empty());
    }

    #[test]
    fn a_person_back_under_a_new_name_is_renamed_at_their_seat_only() {
        let state = table(false, false);
        let renamed = renamed(&state, &id("bo"), "Bob").expect("a new name");
        assert!(matches!(
            renamed.seats.get(&Colour::Red),
            Some(Occupant::Person { name, .. }) if name == "Bob"
        ));
        assert_eq!(
            renamed.seats.get(&Colour::Yellow),
            state.seats.get(&Colour::Yellow)
        );
        assert!(
            super::renamed(&state, &id("bo"), "bo").is_none(),
            "the same name"
        );
        assert!(
            super::renamed(&state, &id("cy"), "Cy").is_none(),
            "not seated"
        );
    }

    #[test]
    fn after_a_game_the_seats_of_those_who_left_are_freed() {
        let mut state = table(false, true);
        assert!(without_those_who_left(&state).is_none());
        state.left.insert(Colour::Red);
        let freed = without_those_who_left(&state).unwrap();
        assert!(!freed.seats.contains_key(&Colour::Red));
        assert!(freed.left.is_empty());
        assert_eq!(freed.seats.len(), 2);
    }
}
