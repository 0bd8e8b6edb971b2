//! The server's messages as this tool reads and writes them: of what comes in, only the fields
//! it uses, borrowed from the message's text (the rest is skipped, never built); what goes out,
//! written straight to text. See `crates/ludo-server/src/protocol/` and `docs/protocol.md`.

use std::borrow::Cow;
use std::fmt;

use serde::de::{IgnoredAny, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;
use serde_json::value::RawValue;

use crate::seen::SeenAction;

/// A message from the server, as far as this tool reads it.
#[derive(Debug, Deserialize)]
pub struct Incoming<'a> {
    /// Its kind: `welcome`, `game`, `action`, `error`, `bye`, `room`…
    #[serde(borrow)]
    pub t: Cow<'a, str>,
    /// The game, in `welcome` (`null` before the table's first game), `game` and `action`.
    #[serde(borrow, default)]
    pub game: Option<GameView<'a>>,
    /// In `action`: the seat that acted, as JSON text (see [`Incoming::action`]).
    #[serde(borrow, default)]
    seat: Option<&'a RawValue>,
    /// In `action`: what it did, as JSON text (see [`Incoming::action`]).
    #[serde(borrow, default)]
    action: Option<&'a RawValue>,
    /// In `error`: the refusal's code, as JSON text.
    #[serde(borrow, default)]
    code: Option<&'a RawValue>,
}

impl<'a> Incoming<'a> {
    /// Reads a message's text.
    pub fn read(text: &'a str) -> serde_json::Result<Incoming<'a>> {
        serde_json::from_str(text)
    }

    /// The seat and action of an `action` message, in the record's own terms.
    pub fn action(&self) -> Result<SeenAction, String> {
        let unreadable =
            |e: serde_json::Error| format!("an action message that does not read: {e}");
        let seat = serde_json::from_str(json_text(self.seat)).map_err(unreadable)?;
        let action = serde_json::from_str(json_text(self.action)).map_err(unreadable)?;
        Ok((seat, action))
    }

    /// An `error`'s code as JSON (`"no_such_room"`; `null` when there is none).
    pub fn code(&self) -> &'a str {
        json_text(self.code)
    }
}

/// A field's JSON text, `null` when it is absent.
fn json_text(field: Option<&RawValue>) -> &str {
    field.map_or("null", RawValue::get)
}

/// The game as a message shows it, as far as this tool reads it.
#[derive(Debug, Deserialize)]
pub struct GameView<'a> {
    /// The game's id.
    #[serde(borrow)]
    pub id: Cow<'a, str>,
    /// Actions accepted so far: the version the next action must carry.
    pub version: u64,
    /// The position, as far as this tool reads it during play (it is read whole only at check
    /// time, from the message's text: see [`position_in`]).
    #[serde(borrow)]
    pub position: Position<'a>,
    /// The piece of the first move on offer, in phase `move`.
    #[serde(rename = "legal")]
    pub first_legal: FirstPiece,
}

/// A position, as far as this tool reads it during play: its turn.
#[derive(Debug, Deserialize)]
pub struct Position<'a> {
    /// Whose turn it is, and in which phase.
    #[serde(borrow)]
    pub turn: Turn<'a>,
}

/// The position a game message (`welcome`, `game` or `action`) shows, read whole from the
/// message's text.
pub fn position_in(text: &str) -> serde_json::Result<Value> {
    /// A game message, as far as its position.
    #[derive(Deserialize)]
    struct Shown {
        game: ShownGame,
    }
    /// Its game, as far as its position.
    #[derive(Deserialize)]
    struct ShownGame {
        position: Value,
    }
    serde_json::from_str::<Shown>(text).map(|shown| shown.game.position)
}

/// A position's turn, as far as this tool reads it.
#[derive(Debug, Deserialize)]
pub struct Turn<'a> {
    /// The seat to act.
    #[serde(borrow)]
    pub seat: Cow<'a, str>,
    /// `roll`, `rolloff`, `move` or `over`.
    #[serde(borrow)]
    pub phase: Cow<'a, str>,
}

/// The piece of the first of a list of moves (`legal`), if the list has one; the rest of the
/// list is skipped.
#[derive(Debug, PartialEq, Eq)]
pub struct FirstPiece(pub Option<u8>);

/// A move on offer, as far as this tool reads it.
#[derive(Deserialize)]
struct LegalMove {
    piece: u8,
}

impl<'de> Deserialize<'de> for FirstPiece {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<FirstPiece, D::Error> {
        deserializer.deserialize_seq(FirstPieceVisitor)
    }
}

struct FirstPieceVisitor;

impl<'de> Visitor<'de> for FirstPieceVisitor {
    type Value = FirstPiece;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list of moves")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut moves: A) -> Result<FirstPiece, A::Error> {
        let first = moves.next_element::<LegalMove>()?;
        while moves.next_element::<IgnoredAny>()?.is_some() {}
        Ok(FirstPiece(first.map(|m| m.piece)))
    }
}

/// A message to the server.
#[derive(Serialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum Outgoing<'a> {
    /// Joins a room.
    Hello {
        /// The room's code.
        room: &'a str,
        /// The device secret.
        device: &'a str,
        /// The display name.
        name: &'a str,
    },
    /// Takes a seat.
    Sit {
        /// The seat's colour.
        colour: &'a str,
    },
    /// Starts the table's first game (host only).
    Start,
    /// Offers or accepts a new game.
    PlayAgain,
    /// Throws the dice.
    Roll {
        /// The game's version.
        version: u64,
    },
    /// Moves a piece (`null` when none was on offer: the server refuses it).
    Move {
        /// The piece.
        piece: Option<u8>,
        /// The game's version.
        version: u64,
    },
}

impl Outgoing<'_> {
    /// The message's JSON text.
    pub fn text(&self) -> String {
        serde_json::to_string(self).expect("a message of strings and numbers writes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ludo_fair::Action;
    use ludo_rules::Colour;
    use serde_json::json;

    /// A position as the server sends it, with `seat` and `phase` to play.
    fn position(seat: &str, phase: &str) -> Value {
        json!({
            "rules": {"preset": "qdan"},
            "seats": ["yellow", "red"],
            "pieces": {"yellow": [45, "base", "base", "base"], "red": [14, "base", "base", "base"]},
            "turn": {"seat": seat, "phase": phase, "roll": [6], "bonus_streak": 1, "throws": 1},
            "done": [],
            "places": null,
        })
    }

    /// A game as the server sends it.
    fn game(version: u64, position: &Value, legal: Value) -> Value {
        json!({
            "id": "7a6e5j6tdhyg",
            "commitment": "b140a97180a845668032892352965b3422135fc44cfd0914a854c3fc811f55f8",
            "version": version,
            "position": position,
            "legal": legal,
            "deadline": 1_796_033_793_274_u64,
            "seed": null,
            "ranked": false,
        })
    }

    fn legal() -> Value {
        json!([
            {"piece": 2, "from": 14, "to": 20, "captures": [{"seat": "yellow", "piece": 3}]},
            {"piece": 3, "from": "base", "to": 0, "captures": []},
        ])
    }

    fn room() -> Value {
        json!({"code": "cndr7pkf", "host": "k4wa3k3qcg", "settings": {"clock": 30},
               "seats": {"red": {"occupant": {"kind": "person", "id": "9c2bs93myu", "name": "Bo"},
                                 "connected": true, "left": false}},
               "watchers": 0, "rematch": null})
    }

    #[test]
    fn a_welcome_with_a_game_reads_its_id_version_position_turn_and_first_move() {
        let position = position("red", "move");
        let text = json!({"t": "welcome", "you": "9c2bs93myu", "room": room(),
                          "game": game(48, &position, legal())})
        .to_string();
        let message = Incoming::read(&text).unwrap();
        assert_eq!(message.t, "welcome");
        let game = message.game.unwrap();
        assert_eq!((&*game.id, game.version), ("7a6e5j6tdhyg", 48));
        assert_eq!(position_in(&text).unwrap(), position);
        let turn = &game.position.turn;
        assert_eq!((&*turn.seat, &*turn.phase), ("red", "move"));
        assert_eq!(game.first_legal, FirstPiece(Some(2)));
    }

    #[test]
    fn a_welcome_before_the_first_game_has_no_game() {
        let text =
            json!({"t": "welcome", "you": "k4wa3k3qcg", "room": room(), "game": null}).to_string();
        let message = Incoming::read(&text).unwrap();
        assert_eq!(message.t, "welcome");
        assert!(message.game.is_none());
    }

    #[test]
    fn a_game_message_reads_with_no_move_on_offer() {
        let text = json!({"t": "game", "game": game(0, &position("yellow", "roll"), json!([]))})
            .to_string();
        let message = Incoming::read(&text).unwrap();
        let game = message.game.unwrap();
        assert_eq!(game.version, 0);
        assert_eq!(game.first_legal, FirstPiece(None));
        assert_eq!(game.position.turn.phase, "roll");
        assert_eq!(position_in(&text).unwrap(), position("yellow", "roll"));
    }

    #[test]
    fn an_action_message_reads_its_seat_and_action_and_ignores_its_stand_in() {
        let text = json!({"t": "action", "seat": "yellow", "action": {"move": 0},
                          "stand_in": "clock", "game": game(14, &position("red", "roll"), json!([]))})
        .to_string();
        let message = Incoming::read(&text).unwrap();
        assert_eq!(message.t, "action");
        assert_eq!(message.action().unwrap(), (Colour::Yellow, Action::Move(0)));
        assert_eq!(message.game.unwrap().version, 14);

        let text = json!({"t": "action", "seat": "red", "action": {"throw": [6]},
                          "game": game(1, &position("red", "move"), legal())})
        .to_string();
        let (seat, action) = Incoming::read(&text).unwrap().action().unwrap();
        assert_eq!(seat, Colour::Red);
        assert!(matches!(action, Action::Throw(_)));
    }

    #[test]
    fn an_action_message_with_an_unknown_seat_does_not_read() {
        let text = json!({"t": "action", "seat": "purple", "action": {"move": 0},
                          "game": game(1, &position("red", "roll"), json!([]))})
        .to_string();
        let error = Incoming::read(&text).unwrap().action().unwrap_err();
        assert!(
            error.starts_with("an action message that does not read"),
            "{error}"
        );
    }

    #[test]
    fn an_error_reads_its_code_as_json() {
        let text = json!({"t": "error", "code": "stale_version",
                          "message": "the game is at version 0, not 3"})
        .to_string();
        let message = Incoming::read(&text).unwrap();
        assert_eq!(
            (&*message.t, message.code()),
            ("error", "\"stale_version\"")
        );
        assert!(message.game.is_none());
        let text = json!({"t": "error"}).to_string();
        assert_eq!(Incoming::read(&text).unwrap().code(), "null");
    }

    #[test]
    fn a_room_a_said_and_a_bye_read_as_their_kind_alone() {
        for (kind, message) in [
            ("room", json!({"t": "room", "room": room()})),
            (
                "said",
                json!({"t": "said", "from": "24r7mj23yt", "name": "Ana", "seat": "yellow",
                       "phrase": "good_luck"}),
            ),
            ("bye", json!({"t": "bye"})),
        ] {
            let text = message.to_string();
            let message = Incoming::read(&text).unwrap();
            assert_eq!(message.t, kind);
            assert!(message.game.is_none());
        }
    }

    #[test]
    fn strings_with_escapes_read_too() {
        let text = r#"{"t":"w\u0065lcome","game":null}"#;
        assert_eq!(Incoming::read(text).unwrap().t, "welcome");
    }

    #[test]
    fn text_that_is_no_json_is_a_syntax_error_and_a_wrong_shape_a_data_error() {
        assert!(Incoming::read("{not json").unwrap_err().is_syntax());
        let error = Incoming::read(r#"{"t":"game","game":{"id":"g","version":"one"}}"#);
        assert!(error.unwrap_err().is_data());
    }

    #[test]
    fn requests_write_as_the_server_reads_them() {
        let read = |m: Outgoing| serde_json::from_str::<Value>(&m.text()).unwrap();
        assert_eq!(
            read(Outgoing::Move {
                piece: Some(2),
                version: 7
            }),
            json!({"t": "move", "piece": 2, "version": 7})
        );
        assert_eq!(
            read(Outgoing::Roll { version: 0 }),
            json!({"t": "roll", "version": 0})
        );
        assert_eq!(read(Outgoing::PlayAgain), json!({"t": "play_again"}));
        assert_eq!(read(Outgoing::Start), json!({"t": "start"}));
        assert_eq!(
            read(Outgoing::Sit { colour: "red" }),
            json!({"t": "sit", "colour": "red"})
        );
        assert_eq!(
            read(Outgoing::Hello {
                room: "cndr7pkf",
                device: "d\"1",
                name: "Bo"
            }),
            json!({"t": "hello", "room": "cndr7pkf", "device": "d\"1", "name": "Bo"})
        );
    }
}
