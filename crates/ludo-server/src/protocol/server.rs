//! What the server sends: [`ServerMsg`], and why the CPU played a person's action
//! ([`StandIn`]).

use ludo_fair::Action;
use ludo_rules::Colour;
use serde::Serialize;

use super::{EngineFault, GameView, Refusal, RefusalCode, RequestId, RoomView};

/// A message from the server.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum ServerMsg {
    /// The answer to `hello`: who you are, the table, and the game if one is on.
    Welcome {
        /// Your identity's public id.
        you: crate::ids::IdentityId,
        /// The table.
        room: RoomView,
        /// The game, if one has started.
        game: Option<GameView>,
    },
    /// The table changed.
    Room {
        /// The table.
        room: RoomView,
    },
    /// A game started, or the full state after a refusal for a stale version.
    Game {
        /// The game.
        game: GameView,
    },
    /// An action was accepted.
    Action {
        /// The seat that acted.
        seat: Colour,
        /// What it did.
        action: Action,
        /// Why the CPU played it for the seat's person, if it did; left out of the JSON for a
        /// person's own actions and a CPU seat's.
        #[serde(skip_serializing_if = "Option::is_none")]
        stand_in: Option<StandIn>,
        /// The game after it (its version is the next action's).
        game: GameView,
    },
    /// The answer to `seek`, again whenever the accepted rating range widens.
    Seeking {
        /// Your rating under the rules asked for.
        rating: f64,
        /// How far from it other players' ratings may be, either side.
        range: f64,
        /// How many people are looking for a ranked game under the same rules (you included).
        waiting: usize,
    },
    /// A ranked table was formed: join this room (your seat is taken; the game has started).
    Matched {
        /// The room's code.
        room: crate::ids::RoomCode,
        /// Its invitation link.
        link: String,
        /// How many seats the table has.
        seats: usize,
    },
    /// A ranked game ended: every rated player's rating before and after it.
    Rated {
        /// One change per person at the table.
        changes: Vec<crate::store::RatingChange>,
    },
    /// A person declined the offer of a new game: the offer is withdrawn.
    Declined {
        /// Their seat.
        seat: Colour,
    },
    /// A person left the game being played, or the host freed their seat: the CPU plays it
    /// until the game ends.
    Left {
        /// The seat.
        seat: Colour,
        /// `true` when the host freed the seat of a person who was away.
        freed: bool,
    },
    /// A quick phrase or reaction.
    Said {
        /// The identity of the person who said it.
        from: crate::ids::IdentityId,
        /// Their display name.
        name: String,
        /// Their seat, if they have one.
        #[serde(skip_serializing_if = "Option::is_none")]
        seat: Option<Colour>,
        /// The phrase's id (one of [`PHRASES`](super::PHRASES)).
        phrase: &'static str,
    },
    /// The server is shutting down; reconnect in a moment.
    Bye,
    /// A table formed by matchmaking was cancelled, unplayed and unrated: not everyone seated
    /// at it arrived in time. Look for another.
    Cancelled,
    /// A request was refused; nothing changed.
    Error {
        /// Why, as a stable code.
        code: RefusalCode,
        /// What was wrong, for people.
        message: String,
        /// For a refusal the rules engine made (`bad_rules`, `illegal_move`): the engine's own
        /// code, its values and the option at fault, so a client can say it in its reader's
        /// words. Left out otherwise.
        #[serde(skip_serializing_if = "Option::is_none")]
        engine: Option<EngineFault>,
        /// The `req` of the request refused, when it carried one; left out otherwise.
        #[serde(skip_serializing_if = "Option::is_none")]
        req: Option<RequestId>,
    },
}

impl ServerMsg {
    /// A refusal of something that was not a request with an id (a frame over the rate, say).
    pub fn error(code: RefusalCode, message: impl Into<String>) -> ServerMsg {
        Refusal::new(code, message).answering(None)
    }

    /// The message as JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("server messages always serialise")
    }
}

/// Why the CPU played an action for a person: it stands in for them for the rest of the turn.
///
/// When both reasons apply (the person is away and the turn has a clock), the reason is the one
/// whose time came first: the end of the grace period (counted from when the turn began or from
/// when they left, whichever is later) or the clock's deadline. A tie counts as `away`. The
/// reason, once chosen, holds for every action the CPU plays in the rest of that turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StandIn {
    /// The person had no open connection and the grace period passed.
    Away,
    /// The turn clock ran out: the person was connected, or left too recently for the grace
    /// period to end before the deadline.
    Clock,
    /// The person left the game (or the host freed their seat): the CPU plays every turn of
    /// the seat until the game ends.
    Left,
}

impl StandIn {
    /// The reason as messages and game records write it.
    pub const fn name(self) -> &'static str {
        match self {
            StandIn::Away => "away",
            StandIn::Clock => "clock",
            StandIn::Left => "left",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stand_in_reasons_are_written_in_snake_case() {
        assert_eq!(serde_json::to_string(&StandIn::Away).unwrap(), r#""away""#);
        assert_eq!(
            serde_json::to_string(&StandIn::Clock).unwrap(),
            r#""clock""#
        );
    }
}
