//! A game being played in a room: the engine's position, the secret dice seed and the record.

use std::collections::BTreeMap;
use std::time::Instant;

use ludo_fair::{Action, Record, Seed};
use ludo_rules::{Colour, Game, Phase, PlayError, Rules, Throw};

use crate::protocol::{GameView, Occupant, StandIn};
use crate::store::{NewGame, StoredGame};

/// A game in play.
pub struct Live {
    /// The game's id.
    pub id: crate::ids::GameId,
    seed: Seed,
    /// The position.
    pub game: Game,
    /// Rules, seats, commitment and every accepted action (the seed only once it is over).
    pub record: Record,
    /// Who plays each seat.
    pub players: BTreeMap<Colour, Occupant>,
    throws: u64,
    /// When the current seat's turn began.
    pub turn_began: Instant,
    /// The same moment in Unix milliseconds, from which the turn's deadline is told: the same
    /// figure in every message of the turn.
    pub turn_began_ms: i64,
    /// When the last action was accepted.
    pub last_action: Instant,
    /// Whether the CPU plays the rest of the current turn for its person, and why (they are
    /// away past the grace period, or the turn clock ran out); `None` while the person plays
    /// their own turn.
    pub stand_in: Option<StandIn>,
    /// Whether the game counts for ratings.
    pub ranked: bool,
    /// Whether storage knows the game is over (and it was rated, if ranked).
    pub marked_over: bool,
    /// When the game started (Unix milliseconds).
    pub started_ms: i64,
}

impl Live {
    /// A new game, and what to store of it.
    pub fn start(
        room: &str,
        rules: Rules,
        seats: Vec<Colour>,
        players: BTreeMap<Colour, Occupant>,
        ranked: bool,
    ) -> Result<(Live, NewGame), ludo_rules::PositionError> {
        let id = crate::ids::GameId::random();
        let seed = Seed::from_bytes(crate::ids::random_seed());
        let game = Game::new(rules, &seats)?;
        let record = Record {
            game_id: id.to_string(),
            rules,
            seats,
            commitment: seed.commitment(),
            seed: None,
            actions: Vec::new(),
        };
        let new = NewGame {
            id: id.to_string(),
            room: room.to_owned(),
            record: record.clone(),
            players: serde_json::to_string(&players).expect("players serialise"),
            people: players
                .iter()
                .filter_map(|(&seat, o)| match o {
                    Occupant::Person { id, name } => Some((seat, id.to_string(), name.clone())),
                    Occupant::Cpu { .. } => None,
                })
                .collect(),
            ranked,
            seed: seed.to_hex(),
            started_at: crate::ids::now_ms(),
        };
        let started_ms = new.started_at;
        let now = Instant::now();
        let live = Live {
            id,
            seed,
            game,
            record,
            players,
            throws: 0,
            turn_began: now,
            turn_began_ms: crate::ids::now_ms(),
            last_action: now,
            stand_in: None,
            ranked,
            marked_over: false,
            started_ms,
        };
        Ok((live, new))
    }

    /// A stored game brought back by replaying its record.
    pub fn restore(stored: StoredGame) -> Result<Live, String> {
        let hex = stored
            .record
            .seed
            .clone()
            .ok_or("a stored game has its seed")?;
        let seed = Seed::from_hex(&hex).map_err(|e| e.to_string())?;
        let game = stored.record.verify().map_err(|e| e.to_string())?;
        let players = serde_json::from_str(&stored.players).map_err(|e| e.to_string())?;
        let throws = stored
            .record
            .actions
            .iter()
            .filter(|a| matches!(a, Action::Throw(_)))
            .count() as u64;
        let mut record = stored.record;
        if !game.is_over() {
            // Secret until the game is over.
            record.seed = None;
        }
        let now = Instant::now();
        Ok(Live {
            id: stored.id.into(),
            seed,
            game,
            record,
            players,
            throws,
            turn_began: now,
            turn_began_ms: crate::ids::now_ms(),
            last_action: now,
            stand_in: None,
            ranked: stored.ranked,
            marked_over: stored.finished_at.is_some(),
            started_ms: stored.started_at,
        })
    }

    /// Actions accepted so far: the version the next action must carry.
    pub fn version(&self) -> u64 {
        self.record.actions.len() as u64
    }

    /// The throw the dice give next.
    pub fn next_throw(&self) -> Throw {
        self.seed
            .throw(&self.id, self.throws, self.game.dice_to_throw())
    }

    /// The position after `action`, without changing anything.
    pub fn after(&self, action: Action) -> Result<Game, PlayError> {
        let mut next = self.game;
        match action {
            Action::Throw(throw) => next.roll(throw).map(|_| ())?,
            Action::Move(piece) => next.play(piece).map(|_| ())?,
        }
        Ok(next)
    }

    /// Takes an accepted (and stored) action in: `next` is [`Live::after`] of it.
    pub fn commit(&mut self, action: Action, next: Game) {
        let seat_before = self.game.seat();
        if matches!(action, Action::Throw(_)) {
            self.throws += 1;
        }
        self.record.actions.push(action);
        self.game = next;
        let now = Instant::now();
        self.last_action = now;
        if self.game.seat() != seat_before || self.game.phase() == Phase::Over {
            self.turn_began = now;
            self.turn_began_ms = crate::ids::now_ms();
            self.stand_in = None;
        }
        if self.game.is_over() {
            self.record.seed = Some(self.seed.to_hex());
        }
    }

    /// The game as everyone sees it; `deadline` is when the turn clock runs out.
    pub fn view(&self, deadline: Option<i64>) -> GameView {
        GameView {
            id: self.id.clone(),
            commitment: self.record.commitment.clone(),
            version: self.version(),
            position: self.game.to_setup(),
            legal: self.game.legal_moves(),
            deadline,
            seed: self.record.seed.clone(),
            ranked: self.ranked,
        }
    }
}
