//! What a client sends: [`ClientMsg`], read from its text with the request id it may carry
//! ([`Request`]).

use ludo_rules::{Colour, Preset};
use serde::{Deserialize, Serialize};

use super::{LevelName, Refusal, RefusalCode};
use crate::matchmaking::pool::SizeWish;

/// A message from a client.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMsg {
    /// The first message on a connection: who this device is, and which room.
    Hello {
        /// The room's code.
        room: crate::ids::RoomCode,
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
    /// Before the table's first game, host only: start it (a game that counts for ratings is
    /// offered to the others first, and starts once every person seated has accepted it). After
    /// a game: the same as `play_again`.
    Start {
        /// The settings version the sender saw (`room.settings_version`): refused with
        /// `settings_changed` if the settings changed since. Left out, the settings as they are.
        #[serde(default)]
        settings_version: Option<u64>,
    },
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
    /// After a game: offer a new game at the same table, or accept the offer on the table.
    /// The new game starts when every person seated has accepted (CPUs always do), with the
    /// next seat first. The host's `start` after a game counts as this. Before the first game:
    /// accept the game the host offered (the host's own is their `start`).
    PlayAgain {
        /// The settings version the sender saw, as in `start`.
        #[serde(default)]
        settings_version: Option<u64>,
    },
    /// After a game: decline the offer of a new game; the offer is withdrawn for everyone.
    Decline,
    /// Leave the table: during a game, the CPU plays the seat for the rest of it (a ranked
    /// result still counts, as for a dropped connection) and the seat is freed when it ends;
    /// between games, the seat is freed at once.
    Leave,
    /// Host only, outside ranked tables: free the seat of a person who has been away for a
    /// while, as if they had left (the CPU plays it for the rest of a game).
    FreeSeat {
        /// The seat.
        colour: Colour,
    },
    /// A quick phrase or an emoji reaction, by its id (one of [`PHRASES`](super::PHRASES)): no free text.
    Say {
        /// The phrase's id.
        phrase: String,
    },
    /// Host only, while no game is being played: change the room's settings. Each field left
    /// out keeps its value; everyone is sent the table again.
    Settings {
        /// The rules: a preset's name, or a preset and options over it (as in a position).
        #[serde(default)]
        rules: Option<serde_json::Value>,
        /// Seconds per turn: `null` for none, 30 or 60.
        #[serde(default, deserialize_with = "present")]
        clock: Option<Option<u32>>,
        /// Ranked or friendly.
        #[serde(default)]
        ranked: Option<bool>,
        /// Whether the next seat starts each new game.
        #[serde(default)]
        rotate: Option<bool>,
        /// Whether the room is listed on the home page for anyone to join or watch.
        #[serde(default)]
        public: Option<bool>,
    },
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

impl ClientMsg {
    /// Whether this is a throw or a move: an action in the game rather than a change to the
    /// table.
    pub fn is_game_action(&self) -> bool {
        matches!(self, ClientMsg::Roll { .. } | ClientMsg::Move { .. })
    }
}

/// A client's own number for one of its requests, sent as the message's `req` field: a whole
/// number from 0 to [`RequestId::MAX`]. The `error` that refuses the request carries it back, so
/// that the client knows which of its requests (and which of its controls) the refusal answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct RequestId(u32);

impl RequestId {
    /// The largest request id.
    pub const MAX: u32 = u32::MAX;
}

impl<'de> Deserialize<'de> for RequestId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let json = serde_json::Value::deserialize(d)?;
        json.as_u64()
            .and_then(|id| u32::try_from(id).ok())
            .map(RequestId)
            .ok_or_else(|| {
                serde::de::Error::custom(format!(
                    "req: a whole number from 0 to {}, not {json}",
                    RequestId::MAX
                ))
            })
    }
}

/// A client's message as it arrives: the message, and the request id it may carry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// The message.
    pub msg: ClientMsg,
    /// The client's id for it, if it gave one (the field `req`).
    pub req: Option<RequestId>,
}

impl Request {
    /// Reads a client's text: a JSON object with the tag `t`, the fields of that message and,
    /// optionally, `req`. A key given twice in any object is refused.
    ///
    /// # Errors
    /// `bad_message` for text that is not such a message, with the request id when it reads (a
    /// malformed `req` is itself the fault, so its refusal has none).
    pub fn parse(text: &str) -> Result<Request, (Refusal, Option<RequestId>)> {
        let bad = |e: serde_json::Error| Refusal::new(RefusalCode::BadMessage, e.to_string());
        let mut json = crate::strict_json::parse(text).map_err(|e| (bad(e), None))?;
        let req = json
            .as_object_mut()
            .and_then(|fields| fields.remove("req"))
            .map(serde_json::from_value::<RequestId>)
            .transpose()
            .map_err(|e| (bad(e), None))?;
        let msg = ClientMsg::deserialize(json).map_err(|e| (bad(e), req))?;
        Ok(Request { msg, req })
    }
}

/// Reads a field that is present, even as `null` (a field left out stays `None`).
fn present<'de, D: serde::Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
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

#[cfg(test)]
mod tests {
    use super::*;
    use ludo_bots::Level;
    use ludo_rules::Colour;

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
        let m: ClientMsg = serde_json::from_str(r#"{"t":"play_again"}"#).unwrap();
        assert_eq!(
            m,
            ClientMsg::PlayAgain {
                settings_version: None
            }
        );
        let m: ClientMsg = serde_json::from_str(r#"{"t":"start","settings_version":3}"#).unwrap();
        assert_eq!(
            m,
            ClientMsg::Start {
                settings_version: Some(3)
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
}
