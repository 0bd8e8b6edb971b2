//! The wire protocol: every message between a browser and the server, in one place.
//! `docs/protocol.md` lists them with example JSON.

use std::collections::BTreeMap;
use std::fmt;

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
    /// A quick phrase or an emoji reaction, by its id (one of [`PHRASES`]): no free text.
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
        id: crate::ids::IdentityId,
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
    /// Whether the room is listed for anyone to join (while a seat is free) or watch (while a
    /// game is played). Private rooms, the default, are never listed.
    #[serde(default)]
    pub public: bool,
}

const fn rotate_by_default() -> bool {
    true
}

/// The turn clocks a room may have, in seconds: `None` for no clock.
pub const CLOCKS: [Option<u32>; 3] = [None, Some(30), Some(60)];

/// The turn clock of a ranked table when none was chosen, in seconds (one of [`CLOCKS`]).
pub const RANKED_CLOCK: u32 = 60;

/// Checks a turn clock asked for, in seconds.
///
/// # Errors
/// `bad_message` for a clock that is not one of [`CLOCKS`].
pub fn check_clock(clock: Option<u32>) -> Result<(), Refusal> {
    if CLOCKS.contains(&clock) {
        return Ok(());
    }
    let seconds: Vec<String> = CLOCKS.iter().flatten().map(u32::to_string).collect();
    Err(Refusal::new(
        RefusalCode::BadMessage,
        format!("clock: none, {} seconds", seconds.join(" or ")),
    ))
}

/// The clock a table plays with: the one chosen, except that a ranked table always has one (so
/// that nobody can hold a rated game forever by never acting), [`RANKED_CLOCK`] unless 30 s was
/// chosen.
pub const fn clock_for(ranked: bool, chosen: Option<u32>) -> Option<u32> {
    match chosen {
        None if ranked => Some(RANKED_CLOCK),
        other => other,
    }
}

impl Settings {
    /// Whether a game at a table with `seats` seats under these settings counts for ratings:
    /// a ranked room, except Vietnamese games of more than two seats, which are always friendly.
    pub fn rates(&self, seats: usize) -> bool {
        self.ranked && !(self.rules.preset_name() == Preset::Vietnamese && seats > 2)
    }

    /// These settings with the changes a `settings` request asks for, checked as a whole.
    ///
    /// # Errors
    /// `bad_rules` (with the engine's reason) for contradictory house rules, `bad_message` for
    /// rules that do not read or a clock other than none, 30 or 60, and what [`Settings::check`]
    /// refuses.
    pub fn changed(
        &self,
        rules: Option<&serde_json::Value>,
        clock: Option<Option<u32>>,
        ranked: Option<bool>,
        rotate: Option<bool>,
        public: Option<bool>,
    ) -> Result<Settings, Refusal> {
        let rules = match rules {
            None => self.rules,
            Some(json) => read_rules(&json.to_string())?,
        };
        let clock = clock.unwrap_or(self.clock);
        check_clock(clock)?;
        let ranked = ranked.unwrap_or(self.ranked);
        let settings = Settings {
            rules,
            clock: clock_for(ranked, clock),
            ranked,
            rotate: rotate.unwrap_or(self.rotate),
            public: public.unwrap_or(self.public),
        };
        settings.check()?;
        Ok(settings)
    }

    /// Checks that these settings can be played: ranked games play a preset's own rules, so
    /// that ratings compare like with like.
    pub fn check(&self) -> Result<(), Refusal> {
        let preset = self.rules.preset_name();
        if self.ranked && self.rules != Rules::preset(preset) {
            return Err(Refusal::new(
                RefusalCode::UnrankedRules,
                format!(
                    "ranked games play the {} rules without house-rule changes",
                    preset.name()
                ),
            ));
        }
        if self.ranked && !self.rotate {
            return Err(Refusal::new(
                RefusalCode::UnrankedRules,
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
    /// For a person not connected: since when (Unix milliseconds), as far as this server
    /// knows (from its start at the latest).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub away_since: Option<i64>,
    /// For a person: whether they left the game being played (the CPU plays their seat until
    /// it ends, then the seat is freed).
    pub left: bool,
}

/// The table as everyone sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RoomView {
    /// The room's code (the invitation link is `/r/<code>`).
    pub code: crate::ids::RoomCode,
    /// The host's identity id.
    pub host: crate::ids::IdentityId,
    /// The settings.
    pub settings: Settings,
    /// How many times the settings have changed: a `start` or `play_again` names the version
    /// it accepts.
    pub settings_version: u64,
    /// The occupied seats.
    pub seats: BTreeMap<Colour, SeatView>,
    /// How many are watching without a seat.
    pub watchers: usize,
    /// While a new game is offered (after a game, or the first game of a table when it counts
    /// for ratings): the seats of the people who accepted (`null` when no offer is on the table).
    pub rematch: Option<Vec<Colour>>,
    /// Whether matchmaking formed the table: its seats and settings stay as they were formed.
    pub matched: bool,
}

/// The game as everyone sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameView {
    /// The game's id.
    pub id: crate::ids::GameId,
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

/// The quick phrases and emoji reactions a person may send, by id; each client says them in its
/// reader's own language. There is no free text: a site without accounts cannot moderate it.
pub const PHRASES: &[&str] = &[
    "hello",
    "good_luck",
    "nice_one",
    "oops",
    "well_played",
    "good_game",
    "thanks",
    "sorry",
    "your_turn",
    "rematch",
    "emoji_smile",
    "emoji_laugh",
    "emoji_wow",
    "emoji_sad",
    "emoji_angry",
    "emoji_clap",
];

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
        /// The phrase's id (one of [`PHRASES`]).
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
    /// A message over [`MAX_MESSAGE_BYTES`].
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
    /// A quick phrase id that is not one of [`PHRASES`].
    NoSuchPhrase => "no_such_phrase",
    /// A seat or a settings change at a table matchmaking formed, which keeps its own.
    MatchedTable => "matched_table",
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

/// Reads rules as a position's `rules` field holds them (a preset's name, or a preset and options
/// over it).
///
/// # Errors
/// `bad_rules` with the engine's reason for options that contradict each other, `bad_message`
/// for JSON that is not rules.
pub fn read_rules(json: &str) -> Result<Rules, Refusal> {
    Rules::check_json(json).map_err(|e| match e {
        Ok(contradiction) => Refusal::contradiction(&contradiction),
        Err(unreadable) => Refusal::new(RefusalCode::BadMessage, format!("rules: {unreadable}")),
    })
}

pub use crate::names::{NAME_MAX_CHARS, check_name};

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

    #[test]
    fn stand_in_reasons_are_written_in_snake_case() {
        assert_eq!(serde_json::to_string(&StandIn::Away).unwrap(), r#""away""#);
        assert_eq!(
            serde_json::to_string(&StandIn::Clock).unwrap(),
            r#""clock""#
        );
    }
}
