//! Refusals: the stable codes ([`RefusalCode`], listed in the same order in `docs/protocol.md`,
//! which a test checks), and a refused request's code, message and engine reason ([`Refusal`]),
//! the same over the socket and over HTTP.

use std::fmt;

use serde::Serialize;

use super::{RequestId, ServerMsg};

/// What the rules engine found wrong, as programs read it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EngineFault {
    /// The engine's stable code (`ludo_rules::all_codes`), e.g. `two_dice_exact_finish` for
    /// options that contradict each other or `no_move` for a piece that cannot move.
    pub code: &'static str,
    /// For a contradiction between options: the option a person would change.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub option: Option<String>,
    /// The values the engine's error speaks of (the option, a seat, a piece…), by name.
    pub params: serde_json::Value,
}

impl EngineFault {
    /// An engine error as programs read it.
    pub fn of(error: &impl ludo_rules::Fault) -> EngineFault {
        let params = error.params();
        let option = params["option"].as_str().map(str::to_owned);
        EngineFault {
            code: error.code(),
            option,
            params,
        }
    }
}

macro_rules! refusal_codes {
    ($($(#[doc = $doc:literal])* $variant:ident => $name:literal,)*) => {
        /// Why a request was refused: a stable code, the same over the socket and over HTTP.
        /// Each has its words in every language the web client speaks, and its row in
        /// `docs/protocol.md`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum RefusalCode {
            $($(#[doc = $doc])* $variant,)*
        }

        impl RefusalCode {
            /// Every code, in the order `docs/protocol.md` lists them.
            pub const ALL: &[RefusalCode] = &[$(RefusalCode::$variant,)*];

            /// The code as the protocol writes it.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(RefusalCode::$variant => $name,)*
                }
            }
        }
    };
}

refusal_codes! {
    /// A message that does not read: not JSON, an unknown type or field, a bad value.
    BadMessage => "bad_message",
    /// A message over [`MAX_MESSAGE_BYTES`](super::MAX_MESSAGE_BYTES).
    TooLarge => "too_large",
    /// Too many messages, rooms, searches or quick phrases in too short a time.
    RateLimited => "rate_limited",
    /// Anything but `hello` (or `seek`) as a connection's first message.
    HelloFirst => "hello_first",
    /// A display name that cannot be shown.
    BadName => "bad_name",
    /// A room code that names no room.
    NoSuchRoom => "no_such_room",
    /// A request only the host may make.
    NotHost => "not_host",
    /// A seat someone already has.
    SeatTaken => "seat_taken",
    /// A change to the table while a game is being played.
    GameOn => "game_on",
    /// A start with fewer than two seats taken.
    NotEnoughPlayers => "not_enough_players",
    /// A request that needs a seat (or a seat in the game) from someone without one.
    NotSeated => "not_seated",
    /// A throw or a move where no game has started.
    NoGame => "no_game",
    /// A throw or a move after the game ended.
    GameOver => "game_over",
    /// A throw or a move out of turn.
    NotYourTurn => "not_your_turn",
    /// A throw or a move of a person whose turn clock ran out: the CPU plays the rest of that
    /// turn for them.
    OutOfTime => "out_of_time",
    /// A throw or a move on a version other than the current one.
    StaleVersion => "stale_version",
    /// A throw or a move the rules do not allow.
    IllegalMove => "illegal_move",
    /// A CPU at a ranked table, or a change a ranked table does not allow its seats.
    RankedPeopleOnly => "ranked_people_only",
    /// Ranked play with house rules, or without passing the first throw on.
    UnrankedRules => "unranked_rules",
    /// A ranked start while someone seated is not connected.
    PlayersAway => "players_away",
    /// A ranked start with two seated people connected from one network address.
    SameAddress => "same_address",
    /// A `start` or `play_again` naming settings that have changed since: the sender accepted
    /// settings that are no longer the table's.
    SettingsChanged => "settings_changed",
    /// House rules that contradict each other.
    BadRules => "bad_rules",
    /// Anything on a connection that is looking for a ranked game.
    Seeking => "seeking",
    /// A search for a ranked game ended by another from the same device.
    SeekingElsewhere => "seeking_elsewhere",
    /// Something that could not be stored or read on the server's side; try again.
    Internal => "internal",
    /// A game id that names no game.
    NoSuchGame => "no_such_game",
    /// A player id that names no player.
    NoSuchPlayer => "no_such_player",
    /// A ruleset name that names none.
    NoSuchRules => "no_such_rules",
    /// A decline when no new game is offered.
    NoOffer => "no_offer",
    /// Freeing the seat of someone who is not away, or not for long enough.
    NotAway => "not_away",
    /// A quick phrase id that is not one of [`PHRASES`](super::PHRASES).
    NoSuchPhrase => "no_such_phrase",
    /// A seat or a settings change at a table matchmaking formed, which keeps its own.
    MatchedTable => "matched_table",
    /// An `expert` CPU where it has no network: a house rule changed, or a number of seats it
    /// has not learned under the table's rules.
    ExpertUnavailable => "expert_unavailable",
}

impl fmt::Display for RefusalCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for RefusalCode {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// Every refusal code the server answers with, over the socket or HTTP.
pub const REFUSAL_CODES: &[RefusalCode] = RefusalCode::ALL;

/// A refused request: a stable code and a message for people. Nothing changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The stable code (see [`ServerMsg::Error`]).
    pub code: RefusalCode,
    /// What was wrong.
    pub message: String,
    /// The rules engine's reason, when the refusal is its.
    pub engine: Option<EngineFault>,
}

impl Refusal {
    /// A refusal with this code.
    pub fn new(code: RefusalCode, message: impl Into<String>) -> Refusal {
        Refusal {
            code,
            message: message.into(),
            engine: None,
        }
    }

    /// `bad_rules`: house rules that contradict each other, with the engine's reason.
    pub fn contradiction(error: &ludo_rules::OptionsError) -> Refusal {
        Refusal::engine(RefusalCode::BadRules, error)
    }

    /// The `error` message that refuses the request `req` (if it carried an id) with this.
    pub fn answering(self, req: Option<RequestId>) -> ServerMsg {
        ServerMsg::Error {
            code: self.code,
            message: self.message,
            engine: self.engine,
            req,
        }
    }

    /// A refusal with this code that the rules engine made, with its reason.
    pub fn engine(code: RefusalCode, error: &impl ludo_rules::Fault) -> Refusal {
        Refusal {
            code,
            message: error.to_string(),
            engine: Some(EngineFault::of(error)),
        }
    }
}
