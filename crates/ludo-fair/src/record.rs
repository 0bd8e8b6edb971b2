//! A game's record: rules, seats, the dice commitment, every throw and move; it replays to the
//! game's final position and, once the seed is revealed, verifies every throw.

use std::fmt;

use ludo_rules::{Colour, Game, PlayError, PositionError, Rules, Throw};
use serde::{Deserialize, Serialize};

use crate::seed::Seed;

/// One accepted action, in the order played: `{"throw": [6]}` or `{"move": 2}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// A throw of the dice (roll-off throws included).
    Throw(Throw),
    /// The piece the seat to play moved.
    Move(u8),
}

impl Action {
    /// Plays the action on `game`.
    ///
    /// # Errors
    /// When the rules refuse it; `game` is then unchanged.
    pub fn apply(self, game: &mut Game) -> Result<(), PlayError> {
        match self {
            Action::Throw(throw) => game.roll(throw).map(|_| ()),
            Action::Move(piece) => game.play(piece).map(|_| ()),
        }
    }
}

/// A game as stored and exported.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// The game's id: part of every throw's derivation.
    pub game_id: String,
    /// The rules played.
    pub rules: Rules,
    /// The seats in turn order; the first listed starts (or the roll-off decides).
    pub seats: Vec<Colour>,
    /// SHA-256 of the dice seed, published before the first throw.
    pub commitment: String,
    /// The dice seed as hex, revealed when the game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<String>,
    /// Every accepted action, in order.
    pub actions: Vec<Action>,
}

/// Why a record does not replay or verify.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VerifyError {
    /// The rules or seats make no game.
    Setup(PositionError),
    /// Action `index` is refused by the rules.
    Illegal {
        /// The action's index in the record.
        index: usize,
        /// Why the rules refuse it.
        error: PlayError,
    },
    /// The seed is missing, or not 64 hex digits.
    NoSeed(String),
    /// The seed does not hash to the commitment.
    Commitment,
    /// Throw `index` is not what the seed gives.
    WrongThrow {
        /// The action's index in the record.
        index: usize,
        /// The throw recorded.
        recorded: Throw,
        /// The throw the seed gives.
        derived: Throw,
    },
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VerifyError::Setup(e) => write!(f, "the record makes no game: {e}"),
            VerifyError::Illegal { index, error } => write!(f, "action {index}: {error}"),
            VerifyError::NoSeed(why) => write!(f, "seed: {why}"),
            VerifyError::Commitment => {
                write!(f, "the seed does not match the commitment (SHA-256)")
            }
            VerifyError::WrongThrow {
                index,
                recorded,
                derived,
            } => write!(
                f,
                "action {index}: the record says {recorded}, the seed gives {derived}"
            ),
        }
    }
}

impl std::error::Error for VerifyError {}

impl VerifyError {
    /// The codes of a record's own faults; a setup that makes no game and an illegal action
    /// answer the engine's codes ([`ludo_rules::all_codes`]).
    pub const CODES: &'static [&'static str] = &["no_seed", "commitment", "wrong_throw"];

    /// The stable code: the engine's for a setup or an action it refuses, else the record's own.
    pub fn code(&self) -> &'static str {
        match self {
            VerifyError::Setup(e) => e.code(),
            VerifyError::Illegal { error, .. } => error.code(),
            VerifyError::NoSeed(_) => "no_seed",
            VerifyError::Commitment => "commitment",
            VerifyError::WrongThrow { .. } => "wrong_throw",
        }
    }

    /// The values the fault speaks of; an action's fault also gives its `index` in the record.
    pub fn params(&self) -> serde_json::Value {
        let with_index = |mut params: serde_json::Value, index: &usize| {
            params["index"] = serde_json::json!(index);
            params
        };
        match self {
            VerifyError::Setup(e) => e.params(),
            VerifyError::Illegal { index, error } => with_index(error.params(), index),
            VerifyError::NoSeed(detail) => serde_json::json!({ "detail": detail }),
            VerifyError::Commitment => serde_json::json!({}),
            VerifyError::WrongThrow {
                index,
                recorded,
                derived,
            } => with_index(
                serde_json::json!({ "recorded": recorded, "derived": derived }),
                index,
            ),
        }
    }
}

impl ludo_rules::Fault for VerifyError {
    fn code(&self) -> &'static str {
        VerifyError::code(self)
    }

    fn params(&self) -> serde_json::Value {
        VerifyError::params(self)
    }
}

impl Record {
    /// The starting position.
    ///
    /// # Errors
    /// When the rules refuse the seats.
    pub fn start(&self) -> Result<Game, VerifyError> {
        Game::new(self.rules, &self.seats).map_err(VerifyError::Setup)
    }

    /// Plays every action from the start; the position reached.
    ///
    /// # Errors
    /// The first action the rules refuse.
    pub fn replay(&self) -> Result<Game, VerifyError> {
        self.replay_with(|_, _, _| Ok(()))
    }

    /// Checks the seed against the commitment, recomputes every throw from it, and replays the
    /// game; the final position.
    ///
    /// # Errors
    /// A missing or wrong seed, a throw the seed does not give, or an action the rules refuse.
    pub fn verify(&self) -> Result<Game, VerifyError> {
        let hex = self
            .seed
            .as_deref()
            .ok_or_else(|| VerifyError::NoSeed("not revealed yet".to_owned()))?;
        let seed = Seed::from_hex(hex).map_err(|e| VerifyError::NoSeed(e.to_string()))?;
        if seed.commitment() != self.commitment.to_ascii_lowercase() {
            return Err(VerifyError::Commitment);
        }
        self.replay_with(|index, number, throw| {
            let derived = seed.throw(&self.game_id, number, throw.dice());
            if derived == throw {
                Ok(())
            } else {
                Err(VerifyError::WrongThrow {
                    index,
                    recorded: throw,
                    derived,
                })
            }
        })
    }

    /// Replays, handing each throw (action index, throw number, throw) to `check` first.
    fn replay_with(
        &self,
        mut check: impl FnMut(usize, u64, Throw) -> Result<(), VerifyError>,
    ) -> Result<Game, VerifyError> {
        let mut game = self.start()?;
        let mut throws = 0u64;
        for (index, action) in self.actions.iter().enumerate() {
            if let Action::Throw(throw) = *action {
                check(index, throws, throw)?;
                throws += 1;
            }
            action
                .apply(&mut game)
                .map_err(|error| VerifyError::Illegal { index, error })?;
        }
        Ok(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ludo_rules::{Phase, Preset};

    /// A whole game with dice from `seed`, the first legal move always played.
    fn recorded_game(seed: &Seed, preset: Preset) -> Record {
        let seats = vec![Colour::Yellow, Colour::Red];
        let rules = Rules::preset(preset);
        let mut game = Game::new(rules, &seats).unwrap();
        let mut actions = Vec::new();
        let mut throws = 0;
        while !game.is_over() {
            if game.phase() == Phase::Move {
                let piece = game.legal_moves().get(0).unwrap().piece;
                game.play(piece).unwrap();
                actions.push(Action::Move(piece));
            } else {
                let throw = seed.throw("game-7", throws, game.dice_to_throw());
                throws += 1;
                game.roll(throw).unwrap();
                actions.push(Action::Throw(throw));
            }
        }
        Record {
            game_id: "game-7".to_owned(),
            rules,
            seats,
            commitment: seed.commitment(),
            seed: Some(seed.to_hex()),
            actions,
        }
    }

    #[test]
    fn a_recorded_game_verifies_and_replays_to_its_end() {
        let seed = Seed::from_bytes([42; 32]);
        for preset in Preset::ALL {
            let record = recorded_game(&seed, preset);
            let end = record.verify().unwrap();
            assert!(end.is_over());
            assert_eq!(record.replay().unwrap(), end);
        }
    }

    #[test]
    fn records_read_back_from_json() {
        let record = recorded_game(&Seed::from_bytes([1; 32]), Preset::Vietnamese);
        let json = serde_json::to_string(&record).unwrap();
        assert!(json.contains(r#"{"throw":["#) && json.contains(r#"{"move":"#));
        assert_eq!(serde_json::from_str::<Record>(&json).unwrap(), record);
    }

    #[test]
    fn a_changed_throw_is_caught() {
        let mut record = recorded_game(&Seed::from_bytes([5; 32]), Preset::Qdan);
        let index = record
            .actions
            .iter()
            .position(|a| matches!(a, Action::Throw(t) if t.count() != 6))
            .unwrap();
        let Action::Throw(t) = record.actions[index] else {
            unreachable!()
        };
        record.actions[index] = Action::Throw(Throw::one(if t.count() == 5 { 4 } else { 5 }));
        assert!(matches!(
            record.verify(),
            Err(VerifyError::WrongThrow { .. } | VerifyError::Illegal { .. })
        ));
    }

    #[test]
    fn a_seed_that_does_not_match_the_commitment_is_caught() {
        let mut record = recorded_game(&Seed::from_bytes([5; 32]), Preset::Qdan);
        record.seed = Some(Seed::from_bytes([6; 32]).to_hex());
        assert_eq!(record.verify(), Err(VerifyError::Commitment));
        record.seed = None;
        assert!(matches!(record.verify(), Err(VerifyError::NoSeed(_))));
    }

    #[test]
    fn a_record_fault_answers_its_own_code_or_the_engines_with_the_action_index() {
        let faults = [
            VerifyError::NoSeed(String::new()),
            VerifyError::Commitment,
            VerifyError::WrongThrow {
                index: 3,
                recorded: Throw::one(2),
                derived: Throw::one(5),
            },
        ];
        let codes: Vec<&str> = faults.iter().map(VerifyError::code).collect();
        assert_eq!(codes, VerifyError::CODES);
        assert_eq!(
            faults[2].params(),
            serde_json::json!({"index": 3, "recorded": [2], "derived": [5]})
        );
        let illegal = VerifyError::Illegal {
            index: 7,
            error: PlayError::NoSuchPiece(9),
        };
        assert_eq!(illegal.code(), "no_such_piece");
        assert_eq!(
            illegal.params(),
            serde_json::json!({"index": 7, "piece": 9})
        );
    }
}
