//! What the clients saw of each game: the furthest position, and every action broadcast, by
//! the game's version after it.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use ludo_fair::Action;
use ludo_rules::Colour;
use serde_json::Value;

/// One action as a client saw it broadcast: the seat that acted, and what it did.
pub type SeenAction = (Colour, Action);

/// What one or more clients saw of one game.
pub struct GameSeen {
    /// The furthest version seen.
    pub version: u64,
    /// The position at that version.
    pub position: Value,
    /// Every action seen, by the game's version after it (the record's index plus one).
    pub actions: BTreeMap<u64, SeenAction>,
    /// The versions at which two different actions were seen.
    pub doubled: BTreeSet<u64>,
}

impl GameSeen {
    fn new(version: u64, position: Value) -> GameSeen {
        GameSeen {
            version,
            position,
            actions: BTreeMap::new(),
            doubled: BTreeSet::new(),
        }
    }

    /// Keeps `position` if it is at least as far as the furthest seen.
    fn reach(&mut self, version: u64, position: Value) {
        if version >= self.version {
            self.version = version;
            self.position = position;
        }
    }

    /// Adds one action seen; a different one seen before at the same version doubles it.
    fn act(&mut self, version: u64, action: SeenAction) {
        let first = *self.actions.entry(version).or_insert(action);
        if first != action {
            self.doubled.insert(version);
        }
    }

    fn merge(&mut self, other: GameSeen) {
        self.reach(other.version, other.position);
        self.doubled.extend(other.doubled);
        for (version, action) in other.actions {
            self.act(version, action);
        }
    }
}

/// What clients saw of every game, by game id.
#[derive(Default)]
pub struct Seen {
    /// Each game's observations.
    pub games: HashMap<String, GameSeen>,
}

impl Seen {
    /// Notes a game message: the game `id` at `version` and `position`, and the action that
    /// led there when the message was an `action` broadcast.
    pub fn observe(
        &mut self,
        id: &str,
        version: u64,
        position: &Value,
        action: Option<SeenAction>,
    ) {
        let game = match self.games.get_mut(id) {
            Some(game) => {
                game.reach(version, position.clone());
                game
            }
            None => self
                .games
                .entry(id.to_owned())
                .or_insert_with(|| GameSeen::new(version, position.clone())),
        };
        if let Some(action) = action {
            game.act(version, action);
        }
    }

    /// Adds what other clients saw.
    pub fn merge(&mut self, other: Seen) {
        for (id, seen) in other.games {
            match self.games.get_mut(&id) {
                Some(game) => game.merge(seen),
                None => {
                    self.games.insert(id, seen);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn action(seat: &str, action: Value) -> SeenAction {
        (
            serde_json::from_value(json!(seat)).unwrap(),
            serde_json::from_value(action).unwrap(),
        )
    }

    #[test]
    fn the_same_action_seen_by_two_clients_is_one_and_a_different_one_doubles_it() {
        let position = json!({"at": 1});
        let mut first = Seen::default();
        first.observe(
            "g",
            1,
            &position,
            Some(action("red", json!({"throw": [6]}))),
        );
        let mut second = Seen::default();
        second.observe(
            "g",
            1,
            &position,
            Some(action("red", json!({"throw": [6]}))),
        );
        second.observe(
            "g",
            2,
            &json!({"at": 2}),
            Some(action("red", json!({"move": 0}))),
        );
        first.merge(second);
        let game = &first.games["g"];
        assert_eq!((game.actions.len(), game.doubled.len()), (2, 0));
        assert_eq!((game.version, &game.position), (2, &json!({"at": 2})));

        let mut third = Seen::default();
        third.observe(
            "g",
            2,
            &json!({"at": 2}),
            Some(action("red", json!({"move": 1}))),
        );
        first.merge(third);
        assert_eq!(first.games["g"].doubled, BTreeSet::from([2]));
    }
}
