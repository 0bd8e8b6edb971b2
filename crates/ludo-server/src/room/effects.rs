//! What a room's decision is: the table and the offer it leaves, and its effects as data, in
//! the order the room's actor carries them out (see `actor/apply.rs`). Stores come first: every
//! write a decision needs is made before anything of it is applied or told, so that a write
//! that cannot be made refuses the whole decision and changes nothing (the room's one
//! rollback). Then the decision's table and offer are taken in, the rest applied and told in
//! order, and what follows done last.

use std::time::Instant;

use ludo_fair::Action;
use ludo_rules::Colour;

use super::RoomState;
use super::core::Visitor;
use super::live::Play;
use super::phrases::{Allowances, Said};
use super::table::Offer;
use crate::ids::{ConnectionId, IdentityId};
use crate::protocol::StandIn;

/// What the room decided: the one shape of every decision, a request's or not, a throw's, a
/// move's and a new game's included.
#[derive(Debug)]
pub struct Decision {
    /// The table after the decision, taken in once its stores are made.
    pub state: RoomState,
    /// The new game offered after the decision, if one is; taken in with the table.
    pub rematch: Option<Offer>,
    /// What to do, in order: stores first (see [`Effect::stores`]).
    pub effects: Vec<Effect>,
}

impl Decision {
    /// A decision leaving the table `state` and the offer `rematch`, with no effect yet.
    pub fn new(state: RoomState, rematch: Option<Offer>) -> Decision {
        Decision {
            state,
            rematch,
            effects: Vec::new(),
        }
    }

    /// The same decision with `effect` done after its others.
    pub fn then(mut self, effect: Effect) -> Decision {
        self.effects.push(effect);
        self
    }

    /// The same decision telling each of `tells`, in order, after its other effects.
    pub fn telling(mut self, tells: impl IntoIterator<Item = Tell>) -> Decision {
        self.effects.extend(tells.into_iter().map(Effect::Tell));
        self
    }
}

/// One thing a decision does, in the order it is done.
#[derive(Debug)]
pub enum Effect {
    /// The decision's table stored.
    Store(Write),
    /// One action of the game being played stored under its number; if it cannot be (or
    /// another node stored one under that number first), the decision is refused and nothing
    /// changes.
    Append {
        /// The action and the game after it.
        play: Play,
        /// Why the CPU played it for the seat's person, if it did.
        stand_in: Option<StandIn>,
    },
    /// A new game between `seats` stored; if it cannot be, the decision is refused and nothing
    /// changes. It is taken in with the decision's table, which the game opens.
    CreateGame {
        /// The seats in the order they play, the first to start.
        seats: Vec<Colour>,
        /// Whether the game counts for ratings.
        ranked: bool,
    },
    /// A connection joined the room (its outbox is already open).
    Connect(ConnectionId, Visitor),
    /// A connection closed.
    Disconnect(ConnectionId),
    /// A person coming back or going away.
    Away(Away),
    /// The CPU stands in for the seat to act from now, for this reason: a person's request
    /// that comes after it is too late. Not while the server is stopping: then the room acts
    /// by itself no more.
    StandIn(StandIn),
    /// The stored action taken into the game being played.
    Commit(Play),
    /// The room's allowances of quick phrases as the decision leaves them.
    Phrases(Allowances),
    /// Something told.
    Tell(Tell),
    /// The game, which the action ended, marked over in storage (rated if it is ranked); what
    /// that decides is carried out in turn (see `RoomCore::decide` with `Input::Finished`).
    /// Its ratings come from storage, so it is decided once they are known.
    Finish,
    /// Another decision, made once this one is carried out (see [`FollowUp`]).
    FollowUp(FollowUp),
}

impl Effect {
    /// Whether the effect is a write that comes before anything is applied or told.
    pub fn stores(&self) -> bool {
        matches!(
            self,
            Effect::Store(_) | Effect::Append { .. } | Effect::CreateGame { .. }
        )
    }
}

/// How a decision's table is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Write {
    /// Before anyone is told; if it cannot be, the decision is refused and nothing changes.
    Table,
    /// If it can be: the change stands either way, and the next write stores it.
    TableIfPossible,
}

/// A change in who is away.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Away {
    /// The person is connected again.
    Back(IdentityId),
    /// The person, seated, has been away since then.
    Since(IdentityId, Instant),
}

/// Something to tell the people in the room.
#[derive(Debug)]
pub enum Tell {
    /// The person at `seat` left the game being played (`freed`: the host freed their seat);
    /// the CPU plays it to the end.
    Left {
        /// Their seat.
        seat: Colour,
        /// Whether the host freed it.
        freed: bool,
    },
    /// The person at `seat` declined the new game offered.
    Declined {
        /// Their seat.
        seat: Colour,
    },
    /// The table as it now is (a `room` message).
    Table,
    /// The connection that just joined: the room and its game (a `welcome` message).
    Welcome,
    /// Everyone but the connection that just joined: the table as it now is.
    TableToOthers,
    /// A watcher came or went: everyone else is shown the table as it now is, as chatter
    /// (dropped for whoever is behind; the next `room` message has the count right).
    WatchersToOthers,
    /// A matched table was cancelled: not everyone came.
    Cancelled,
    /// A ranked game's rating changes.
    Rated(Vec<crate::store::RatingChange>),
    /// Nobody, but the public lists: the room's entry as it now is.
    Listing,
    /// The action just taken in, with the game after it (an `action` message).
    Action {
        /// The seat that acted.
        seat: Colour,
        /// What it did.
        action: Action,
        /// Why the CPU played it for the seat's person, if it did.
        stand_in: Option<StandIn>,
    },
    /// The game as it now is (a `game` message).
    Game,
    /// A quick phrase said; a watcher's is chatter.
    Said(Said),
}

/// A decision that follows another once it is carried out, because it reads the room as the
/// first one leaves it and its outcome, should it fail, must not undo the first one.
#[derive(Debug, PartialEq)]
pub enum FollowUp {
    /// The new game offered starts if everyone it waits for has accepted it (see
    /// `Table::everyone_accepted`); if it cannot, the offer is withdrawn and the table shown.
    StartIfEveryoneAccepted,
    /// A matched table's game begins: the last of its people arrived.
    BeginMatchedGame,
}

#[cfg(test)]
pub mod read {
    //! Reading a decision's effects in the room's unit tests.

    use super::{Away, Decision, Effect, FollowUp, Tell, Write};

    /// What the decision tells, in order.
    pub fn tells(decision: &Decision) -> Vec<&Tell> {
        decision
            .effects
            .iter()
            .filter_map(|e| match e {
                Effect::Tell(told) => Some(told),
                _ => None,
            })
            .collect()
    }

    /// How the decision stores its table, if it does.
    pub fn stored(decision: &Decision) -> Option<Write> {
        decision.effects.iter().find_map(|e| match e {
            Effect::Store(write) => Some(*write),
            _ => None,
        })
    }

    /// The change in who is away the decision makes, if it makes one.
    pub fn away(decision: &Decision) -> Option<&Away> {
        decision.effects.iter().find_map(|e| match e {
            Effect::Away(away) => Some(away),
            _ => None,
        })
    }

    /// What follows the decision, if anything does.
    pub fn follow_up(decision: &Decision) -> Option<&FollowUp> {
        decision.effects.iter().find_map(|e| match e {
            Effect::FollowUp(next) => Some(next),
            _ => None,
        })
    }

    /// Whether the decision opens a new game.
    pub fn opens(decision: &Decision) -> bool {
        matches!(decision.effects.first(), Some(Effect::CreateGame { .. }))
    }

    /// Whether every store of the decision comes before its other effects.
    pub fn stores_first(decision: &Decision) -> bool {
        let first_other = decision.effects.iter().position(|e| !e.stores());
        first_other.is_none_or(|at| decision.effects[at..].iter().all(|e| !e.stores()))
    }
}
