//! The wire protocol: every message between a browser and the server, in one place.
//! `docs/protocol.md` lists them with example JSON.

use std::collections::BTreeMap;

use ludo_bots::Level;
use ludo_fair::Action;
use ludo_rules::{Colour, MoveList, Preset, Rules, Setup};
use serde::{Deserialize, Serialize};

use crate::matchmaking::pool::SizeWish;

/// The largest message a client may send, in bytes.
pub const MAX_MESSAGE_BYTES: usize = 4096;

/// A message from a client.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMsg {
    /// The first message on a connection: who this device is, and which room.
    Hello {
        /// The room's code.
        room: String,
        /// The device's secret, kept by the browser; identifies the person.
        device: String,
        /// The display name.
        name: String,
    },
    /// Take a free seat.
    Sit {
        /// The colour wanted.
        colour: Colour,
    },
    /// Give up one's seat (before the game starts).
    Stand,
    /// Host only: put a CPU player in a free seat.
    AddCpu {
        /// The seat.
        colour: Colour,
        /// Its strength.
        level: LevelName,
    },
    /// Host only: take a CPU player out.
    RemoveCpu {
        /// The seat.
        colour: Colour,
    },
    /// Host only: start the game.
    Start,
    /// Throw the dice (the server throws them), acting on `version`.
    Roll {
        /// The game version the client acted on.
        version: u64,
    },
    /// Move a piece, acting on `version`.
    Move {
        /// The piece's index.
        piece: u8,
        /// The game version the client acted on.
        version: u64,
    },
    /// Host only: a new game at the same table.
    PlayAgain,
    /// Instead of `hello`, as the first message: ask for a quick ranked game. The server
    /// answers `seeking` while it looks, then `matched` with the room to join; closing the
    /// connection gives up.
    Seek {
        /// The device's secret, as in `hello`.
        device: String,
        /// The display name.
        name: String,
        /// The rules: `qdan`, `classic` or `vietnamese` (each preset's own rules).
        rules: Preset,
        /// The seats wanted: 2, 3, 4 or `"any"` (Vietnamese ranked tables have 2).
        size: SizeName,
    },
}

/// A table size as asked for: 2, 3, 4 or `"any"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SizeName(pub SizeWish);

impl<'de> Deserialize<'de> for SizeName {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match serde_json::Value::deserialize(d)? {
            serde_json::Value::String(s) if s == "any" => Ok(SizeName(SizeWish::Any)),
            serde_json::Value::Number(n) if matches!(n.as_u64(), Some(2..=4)) => Ok(SizeName(
                SizeWish::Exactly(n.as_u64().expect("checked") as u8),
            )),
            other => Err(serde::de::Error::custom(format!(
                "size: 2, 3, 4 or \"any\", not {other}"
            ))),
        }
    }
}

/// A CPU level by name, as in the protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelName(pub Level);

impl<'de> Deserialize<'de> for LevelName {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        name.parse()
            .map(LevelName)
            .map_err(serde::de::Error::custom)
    }
}

impl Serialize for LevelName {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0.name())
    }
}

/// Who sits in a seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Occupant {
    /// A person, by identity.
    Person {
        /// The identity's public id (never the device secret).
        id: String,
        /// The display name.
        name: String,
    },
    /// A CPU player.
    Cpu {
        /// Its strength.
        level: LevelName,
    },
}

/// A room's settings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// The rules played.
    pub rules: Rules,
    /// Seconds a turn may take before the CPU plays it (none, 30 or 60).
    pub clock: Option<u32>,
    /// Ranked or friendly.
    pub ranked: bool,
    /// Whether each new game at the table starts with the seat after the one that started the
    /// last (the house rule "the next player starts when playing again", on by default); off,
    /// the same seat starts again while it is taken. Always on at a ranked table.
    #[serde(default = "rotate_by_default")]
    pub rotate: bool,
}

const fn rotate_by_default() -> bool {
    true
}

impl Settings {
    /// Whether a game at a table with `seats` seats under these settings counts for ratings:
    /// a ranked room, except Vietnamese games of more than two seats, which are always friendly.
    pub fn rates(&self, seats: usize) -> bool {
        self.ranked && !(self.rules.preset_name() == Preset::Vietnamese && seats > 2)
    }

    /// Checks that these settings can be played: ranked games play a preset's own rules, so
    /// that ratings compare like with like.
    pub fn check(&self) -> Result<(), Refusal> {
        let preset = self.rules.preset_name();
        if self.ranked && self.rules != Rules::preset(preset) {
            return Err(Refusal::new(
                "unranked_rules",
                format!(
                    "ranked games play the {} rules without house-rule changes",
                    preset.name()
                ),
            ));
        }
        if self.ranked && !self.rotate {
            return Err(Refusal::new(
                "unranked_rules",
                "a ranked table always passes the first throw on to the next seat",
            ));
        }
        Ok(())
    }
}

/// A seat as everyone sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeatView {
    /// Who sits there.
    pub occupant: Occupant,
    /// For a person: whether they are connected now.
    pub connected: bool,
}

/// The table as everyone sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RoomView {
    /// The room's code (the invitation link is `/r/<code>`).
    pub code: String,
    /// The host's identity id.
    pub host: String,
    /// The settings.
    pub settings: Settings,
    /// The occupied seats.
    pub seats: BTreeMap<Colour, SeatView>,
    /// How many are watching without a seat.
    pub watchers: usize,
}

/// The game as everyone sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameView {
    /// The game's id.
    pub id: String,
    /// SHA-256 of the dice seed, published at the start.
    pub commitment: String,
    /// Actions accepted so far: the version the next action must carry.
    pub version: u64,
    /// The position.
    pub position: Setup,
    /// In phase move, the moves on offer.
    pub legal: MoveList,
    /// When the CPU takes over the turn (Unix milliseconds), with a turn clock.
    pub deadline: Option<i64>,
    /// The seed, once the game is over.
    pub seed: Option<String>,
    /// Whether the game counts for ratings.
    pub ranked: bool,
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
}

/// A message from the server.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum ServerMsg {
    /// The answer to `hello`: who you are, the table, and the game if one is on.
    Welcome {
        /// Your identity's public id.
        you: String,
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
        /// How many people are looking for a ranked game.
        waiting: usize,
    },
    /// A ranked table was formed: join this room (your seat is taken; the game has started).
    Matched {
        /// The room's code.
        room: String,
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
    /// The server is shutting down; reconnect in a moment.
    Bye,
    /// A request was refused; nothing changed.
    Error {
        /// A stable code: `not_your_turn`, `stale_version`, `illegal_move`, `not_seated`,
        /// `game_over`, `bad_message`, `too_large`, `rate_limited`, `no_such_room`, `not_host`,
        /// `seat_taken`, `no_game`, `game_on`, `not_enough_players`, `hello_first`, `bad_name`,
        /// `ranked_people_only`, `unranked_rules`, `seeking`, `seeking_elsewhere`, `internal`
        /// (storage failed; try again).
        code: &'static str,
        /// What was wrong, for people.
        message: String,
    },
}

/// A refused request: a stable code and a message for people. Nothing changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The stable code (see [`ServerMsg::Error`]).
    pub code: &'static str,
    /// What was wrong.
    pub message: String,
}

impl Refusal {
    /// A refusal with this code.
    pub fn new(code: &'static str, message: impl Into<String>) -> Refusal {
        Refusal {
            code,
            message: message.into(),
        }
    }
}

impl From<Refusal> for ServerMsg {
    fn from(r: Refusal) -> ServerMsg {
        ServerMsg::Error {
            code: r.code,
            message: r.message,
        }
    }
}

impl ServerMsg {
    /// A refusal.
    pub fn error(code: &'static str, message: impl Into<String>) -> ServerMsg {
        ServerMsg::Error {
            code,
            message: message.into(),
        }
    }

    /// The message as JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("server messages always serialise")
    }
}

/// Checks a display name: 1 to 24 characters after trimming, no control characters. It is
/// shown as text, never as HTML.
pub fn check_name(name: &str) -> Result<String, String> {
    let name = name.trim();
    let chars = name.chars().count();
    if chars == 0 || chars > 24 {
        return Err(format!("a name has 1 to 24 characters, not {chars}"));
    }
    if name.chars().any(char::is_control) {
        return Err("a name may not hold control characters".to_owned());
    }
    Ok(name.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_messages_read_from_their_tagged_json() {
        let m: ClientMsg = serde_json::from_str(r#"{"t":"move","piece":2,"version":7}"#).unwrap();
        assert_eq!(
            m,
            ClientMsg::Move {
                piece: 2,
                version: 7
            }
        );
        let m: ClientMsg =
            serde_json::from_str(r#"{"t":"add_cpu","colour":"red","level":"hard"}"#).unwrap();
        assert_eq!(
            m,
            ClientMsg::AddCpu {
                colour: Colour::Red,
                level: LevelName(Level::Hard)
            }
        );
    }

    #[test]
    fn unknown_messages_fields_and_levels_are_refused() {
        for bad in [
            r#"{"t":"cheat"}"#,
            r#"{"t":"roll"}"#,
            r#"{"t":"roll","version":1,"dice":6}"#,
            r#"{"t":"add_cpu","colour":"red","level":"godlike"}"#,
            r#"{"t":"sit","colour":"purple"}"#,
        ] {
            assert!(serde_json::from_str::<ClientMsg>(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn stand_in_reasons_are_written_in_snake_case() {
        assert_eq!(serde_json::to_string(&StandIn::Away).unwrap(), r#""away""#);
        assert_eq!(
            serde_json::to_string(&StandIn::Clock).unwrap(),
            r#""clock""#
        );
    }

    #[test]
    fn names_are_trimmed_and_checked() {
        assert_eq!(check_name("  Ana "), Ok("Ana".to_owned()));
        assert!(check_name("").is_err());
        assert!(check_name(&"x".repeat(25)).is_err());
        assert!(check_name("a\u{7}b").is_err());
        assert_eq!(check_name("<b>Bo</b>"), Ok("<b>Bo</b>".to_owned()));
    }
}
