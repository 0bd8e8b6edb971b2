//! What the room decides, with no I/O, when nobody asked: a connection arriving or going, a
//! matched table whose people did not all come, and a game that ended. Like the table's
//! requests (`table.rs`), each yields a [`Decision`]: the table after and its effects (what to
//! store, what to tell and what follows), carried out by the room's actor. Time is an input.

use crate::ids::{ConnectionId, IdentityId};
use crate::protocol::StandIn;
use crate::store::RatingChange;

use super::core::Visitor;
use super::effects::{Away, Decision, Effect, FollowUp, Tell, Write};
use super::table::{Table, renamed, without_those_who_left};

impl Table<'_> {
    /// A connection of `identity`, calling itself `name`, has joined the room. The person is
    /// no longer away; a new name is shown at once and stored if it can be (a table that could
    /// not be stored before is stored again now). They are welcomed and everyone else shown the
    /// table. A matched table's game begins when `everyone_here` (every person seated is
    /// connected, the newcomer included) while its people were still awaited; a new game
    /// offered starts if everyone it waits for has accepted it (someone who accepted it, back
    /// while the only others were away for long, starts it).
    ///
    /// `joined`: the connection and who it is, taken in before anything is told; `stand_in`:
    /// why the CPU stands in for the seat to act once the person is back, if it does (their
    /// clock may have run out meanwhile: then the rest of the turn is the CPU's).
    pub fn arrive(
        &self,
        joined: (ConnectionId, Visitor),
        everyone_here: bool,
        stand_in: Option<StandIn>,
    ) -> Decision {
        let (identity, name) = (&joined.1.identity, joined.1.name.as_str());
        let renamed = renamed(self.state, identity, name);
        let store = renamed.is_some() || self.unsaved;
        let mut state = renamed.unwrap_or_else(|| self.state.clone());
        // A table whose game started awaits nobody, whatever it stored.
        let begins = state.arrival_ends.is_some() && self.live.is_none() && everyone_here;
        if begins {
            // Stored with the game that begins.
            state.arrival_ends = None;
        }
        let mut decision = Decision::new(state, self.rematch.cloned());
        if store {
            decision = decision.then(Effect::Store(Write::TableIfPossible));
        }
        decision = decision
            .then(Effect::Connect(joined.0, joined.1.clone()))
            .then(Effect::Away(Away::Back(identity.clone())));
        decision.effects.extend(stand_in.map(Effect::StandIn));
        decision = decision.telling([Tell::Welcome, others_told(self.seat_of(identity).is_some())]);
        if begins {
            decision.then(Effect::FollowUp(FollowUp::BeginMatchedGame))
        } else if self.rematch.is_some() {
            decision.then(Effect::FollowUp(FollowUp::StartIfEveryoneAccepted))
        } else {
            decision
        }
    }

    /// The connection `conn` of `identity` has closed; `still_connected` if they have another
    /// one open. A person seated with no connection left is away from now on. Everyone is shown
    /// the table.
    pub fn depart(
        &self,
        conn: ConnectionId,
        identity: &IdentityId,
        still_connected: bool,
    ) -> Decision {
        let seated = self.seat_of(identity).is_some();
        let mut decision =
            Decision::new(self.state.clone(), self.rematch.cloned()).then(Effect::Disconnect(conn));
        if !still_connected && seated {
            decision = decision.then(Effect::Away(Away::Since(identity.clone(), self.now)));
        }
        decision.telling([if seated {
            Tell::Table
        } else {
            Tell::WatchersToOthers
        }])
    }

    /// A matched table whose people did not all arrive in time: no game, nothing rated. Those
    /// who came are told, and may look for another table. Stored if it can be; if not, the
    /// table is cancelled again when next loaded.
    pub fn cancel_unattended(&self) -> Decision {
        let mut state = self.state.clone();
        state.arrival_ends = None;
        Decision::new(state, self.rematch.cloned())
            .then(Effect::Store(Write::TableIfPossible))
            .telling([Tell::Cancelled])
    }

    /// The game ended and was stored as over, with these rating `changes` (none for a
    /// friendly game): they are announced, and the seats of those who left the game are freed
    /// (stored if it can be; if not, they are freed again when the room is next loaded).
    pub fn ended(&self, changes: Vec<RatingChange>) -> Decision {
        let mut tell = Vec::new();
        if !changes.is_empty() {
            tell.push(Tell::Rated(changes));
        }
        let freed = without_those_who_left(self.state);
        if freed.is_some() {
            tell.push(Tell::Table);
        }
        if tell.is_empty() {
            // Nothing to say, but the public lists learn the game is over.
            tell.push(Tell::Listing);
        }
        let stored = freed
            .is_some()
            .then_some(Effect::Store(Write::TableIfPossible));
        let state = freed.unwrap_or_else(|| self.state.clone());
        let mut decision = Decision::new(state, self.rematch.cloned());
        decision.effects.extend(stored);
        decision.telling(tell)
    }
}

/// How the others are shown someone coming: a seated person's return as the table, a watcher
/// as chatter.
fn others_told(seated: bool) -> Tell {
    if seated {
        Tell::TableToOthers
    } else {
        Tell::WatchersToOthers
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use ludo_rules::Colour;

    use super::super::RoomState;
    use super::super::effects::read::{away, follow_up, stored, tells};
    use super::super::fixtures::{Room, id, table};
    use super::*;
    use crate::protocol::Occupant;

    fn decide(
        state: &RoomState,
        unsaved: bool,
        now: Instant,
        f: impl Fn(&Table) -> Decision,
    ) -> Decision {
        let room = Room {
            unsaved,
            now,
            ..Room::new(state.clone())
        };
        f(&room.table())
    }

    /// The connection in these tests.
    fn conn() -> ConnectionId {
        ConnectionId::next(&std::sync::atomic::AtomicU64::new(1))
    }

    /// `who`'s connection, under `name`.
    fn joined(who: &str, name: &str) -> (ConnectionId, Visitor) {
        let visitor = Visitor {
            identity: id(who),
            name: name.to_owned(),
            address: std::net::IpAddr::from([10, 0, 0, 1]),
        };
        (conn(), visitor)
    }

    fn name_at(state: &RoomState, colour: Colour) -> &str {
        match &state.seats[&colour] {
            Occupant::Person { name, .. } => name,
            Occupant::Cpu { .. } => "cpu",
        }
    }

    #[test]
    fn a_person_coming_back_is_no_longer_away_and_is_welcomed_before_the_others_see_the_table() {
        let d = decide(&table(false, false), false, Instant::now(), |t| {
            t.arrive(joined("bo", "bo"), true, None)
        });
        assert_eq!(away(&d), Some(&Away::Back(id("bo"))));
        assert!(matches!(
            tells(&d)[..],
            [Tell::Welcome, Tell::TableToOthers]
        ));
        assert_eq!(stored(&d), None, "nothing changed");
        assert_eq!(follow_up(&d), None, "no matched table awaits anyone");
    }

    #[test]
    fn a_person_back_under_a_new_name_is_shown_under_it_and_it_is_stored_if_it_can_be() {
        let d = decide(&table(false, false), false, Instant::now(), |t| {
            t.arrive(joined("bo", "Bo the Great"), false, None)
        });
        assert_eq!(name_at(&d.state, Colour::Red), "Bo the Great");
        assert_eq!(stored(&d), Some(Write::TableIfPossible));
    }

    #[test]
    fn a_table_that_could_not_be_stored_is_stored_again_when_someone_arrives() {
        let d = decide(&table(false, false), true, Instant::now(), |t| {
            t.arrive(joined("ana", "ana"), true, None)
        });
        assert_eq!(stored(&d), Some(Write::TableIfPossible));
    }

    #[test]
    fn a_matched_table_begins_its_game_when_the_last_of_its_people_arrives() {
        let mut state = table(true, false);
        state.arrival_ends = Some(1_000);
        let still_awaited = decide(&state, false, Instant::now(), |t| {
            t.arrive(joined("ana", "ana"), false, None)
        });
        assert_eq!(follow_up(&still_awaited), None);
        assert_eq!(still_awaited.state.arrival_ends, Some(1_000));
        let last = decide(&state, false, Instant::now(), |t| {
            t.arrive(joined("bo", "bo"), true, None)
        });
        assert_eq!(follow_up(&last), Some(&FollowUp::BeginMatchedGame));
        assert_eq!(last.state.arrival_ends, None, "nobody is awaited any more");
    }

    #[test]
    fn everyone_connected_at_an_ordinary_table_begins_nothing() {
        let d = decide(&table(false, false), false, Instant::now(), |t| {
            t.arrive(joined("bo", "bo"), true, None)
        });
        assert_eq!(follow_up(&d), None);
    }

    #[test]
    fn someone_back_while_a_new_game_is_offered_may_start_it() {
        let room = Room {
            rematch: super::super::fixtures::offer(&["ana"]),
            ..Room::new(table(false, false))
        };
        let d = room.table().arrive(joined("ana", "ana"), true, None);
        assert_eq!(follow_up(&d), Some(&FollowUp::StartIfEveryoneAccepted));
        assert_eq!(d.rematch, room.rematch, "the offer stands");
    }

    #[test]
    fn a_seated_person_whose_last_connection_closes_is_away_from_now() {
        let now = Instant::now();
        let d = decide(&table(false, false), false, now, |t| {
            t.depart(conn(), &id("bo"), false)
        });
        assert_eq!(away(&d), Some(&Away::Since(id("bo"), now)));
        assert!(matches!(tells(&d)[..], [Tell::Table]));
        assert_eq!(stored(&d), None);
    }

    #[test]
    fn a_person_with_another_connection_open_or_no_seat_is_not_away() {
        let state = table(false, false);
        let other_tab = decide(&state, false, Instant::now(), |t| {
            t.depart(conn(), &id("bo"), true)
        });
        assert_eq!(away(&other_tab), None);
        let watcher = decide(&state, false, Instant::now(), |t| {
            t.depart(conn(), &id("cy"), false)
        });
        assert_eq!(away(&watcher), None);
    }

    #[test]
    fn a_watcher_coming_or_going_is_shown_to_the_others_as_chatter() {
        let state = table(false, false);
        let came = decide(&state, false, Instant::now(), |t| {
            t.arrive(joined("cy", "cy"), true, None)
        });
        assert!(matches!(
            tells(&came)[..],
            [Tell::Welcome, Tell::WatchersToOthers]
        ));
        let went = decide(&state, false, Instant::now(), |t| {
            t.depart(conn(), &id("cy"), false)
        });
        assert!(matches!(tells(&went)[..], [Tell::WatchersToOthers]));
    }

    #[test]
    fn a_matched_table_nobody_completed_is_cancelled_told_and_stored_if_it_can_be() {
        let mut state = table(true, false);
        state.arrival_ends = Some(1_000);
        let d = decide(&state, false, Instant::now(), |t| t.cancel_unattended());
        assert_eq!(d.state.arrival_ends, None);
        assert!(matches!(tells(&d)[..], [Tell::Cancelled]));
        assert_eq!(stored(&d), Some(Write::TableIfPossible));
    }

    #[test]
    fn a_game_ended_announces_its_ratings_then_frees_the_seats_of_those_who_left() {
        let mut state = table(true, false);
        state.left.insert(Colour::Red);
        let change = RatingChange {
            seat: Colour::Yellow,
            id: "ana".to_owned(),
            name: "ana".to_owned(),
            place: 1,
            before: 1500.0,
            after: 1516.0,
        };
        let d = decide(&state, false, Instant::now(), |t| {
            t.ended(vec![change.clone()])
        });
        assert!(matches!(&tells(&d)[..], [Tell::Rated(c), Tell::Table] if c.len() == 1));
        assert!(
            !d.state.seats.contains_key(&Colour::Red),
            "the seat is freed"
        );
        assert!(d.state.left.is_empty());
        assert_eq!(stored(&d), Some(Write::TableIfPossible));
    }

    #[test]
    fn a_friendly_game_ended_with_nobody_gone_changes_nothing_and_only_updates_the_listing() {
        let d = decide(&table(false, false), false, Instant::now(), |t| {
            t.ended(Vec::new())
        });
        assert!(matches!(tells(&d)[..], [Tell::Listing]));
        assert_eq!(stored(&d), None);
        assert_eq!(d.state.seats.len(), 2);
    }
}
