//! What the clients saw of each game: the furthest position, and every action broadcast, by
//! the game's version after it.

use std::collections::{BTreeSet, HashMap};

use ludo_fair::Action;
use ludo_rules::Colour;
use serde_json::Value;

use crate::message::position_in;

/// One action as a client saw it broadcast: the seat that acted, and what it did.
pub type SeenAction = (Colour, Action);

/// What one or more clients saw of one game.
pub struct GameSeen {
    /// The furthest version seen.
    pub version: u64,
    /// The text of the message that showed the game at that version: its position is read
    /// only at check time (see [`GameSeen::position`]).
    shown: String,
    /// Every action seen, by the game's version after it (the record's index plus one).
    pub actions: Actions,
    /// The versions at which two different actions were seen.
    pub doubled: BTreeSet<u64>,
}

impl GameSeen {
    fn new(version: u64, shown: &str) -> GameSeen {
        GameSeen {
            version,
            shown: shown.to_owned(),
            actions: Actions::default(),
            doubled: BTreeSet::new(),
        }
    }

    /// The position at the furthest version seen.
    pub fn position(&self) -> Result<Value, String> {
        position_in(&self.shown)
            .map_err(|e| format!("the position the clients saw does not read: {e}"))
    }

    /// Keeps a copy of the message `shown` if it shows the game at least as far as the
    /// furthest seen (in the buffer of the one it replaces: a client sees the game move on
    /// with every action).
    fn reach(&mut self, version: u64, shown: &str) {
        if version >= self.version {
            self.version = version;
            self.shown.clear();
            self.shown.push_str(shown);
        }
    }

    /// Takes the message `shown` if it shows the game at least as far as the furthest seen.
    fn take(&mut self, version: u64, shown: String) {
        if version >= self.version {
            self.version = version;
            self.shown = shown;
        }
    }

    /// Adds one action seen; a different one seen before at the same version doubles it.
    fn act(&mut self, version: u64, action: SeenAction) {
        if self.actions.first_or_insert(version, action) != action {
            self.doubled.insert(version);
        }
    }

    fn merge(&mut self, other: GameSeen) {
        self.take(other.version, other.shown);
        self.doubled.extend(other.doubled);
        for (version, action) in other.actions.0 {
            self.act(version, action);
        }
    }
}

/// Actions seen, by version, in order. They arrive in order, so a sorted list takes almost
/// every one with a push.
#[derive(Default)]
pub struct Actions(Vec<(u64, SeenAction)>);

impl Actions {
    /// The action held at `version`; when there is none yet, `action`, now held there.
    fn first_or_insert(&mut self, version: u64, action: SeenAction) -> SeenAction {
        if self.0.last().is_none_or(|&(last, _)| last < version) {
            self.0.push((version, action));
            return action;
        }
        match self.0.binary_search_by_key(&version, |&(at, _)| at) {
            Ok(index) => self.0[index].1,
            Err(index) => {
                self.0.insert(index, (version, action));
                action
            }
        }
    }

    /// How many versions have an action.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Each version and its action, in order.
    pub fn iter(&self) -> impl Iterator<Item = &(u64, SeenAction)> {
        self.0.iter()
    }
}

/// What clients saw of every game, by game id.
#[derive(Default)]
pub struct Seen {
    /// Each game's observations.
    pub games: HashMap<String, GameSeen>,
}

impl Seen {
    /// Notes a game message (`shown`, its text): the game `id` at `version`, and the action
    /// that led there when the message was an `action` broadcast.
    pub fn observe(&mut self, id: &str, version: u64, shown: &str, action: Option<SeenAction>) {
        let game = match self.games.get_mut(id) {
            Some(game) => {
                game.reach(version, shown);
                game
            }
            None => self
                .games
                .entry(id.to_owned())
                .or_insert_with(|| GameSeen::new(version, shown)),
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

    /// The text of a message showing the position `{"at": at}`.
    fn shown(at: u64) -> String {
        json!({"t": "action", "game": {"version": at, "position": {"at": at}}}).to_string()
    }

    /// The version kept of game `g`, and the position it shows.
    fn kept(seen: &Seen) -> (u64, Value) {
        let game = &seen.games["g"];
        (game.version, game.position().unwrap())
    }

    #[test]
    fn the_same_action_seen_by_two_clients_is_one_and_a_different_one_doubles_it() {
        let mut first = Seen::default();
        first.observe(
            "g",
            1,
            &shown(1),
            Some(action("red", json!({"throw": [6]}))),
        );
        let mut second = Seen::default();
        second.observe(
            "g",
            1,
            &shown(1),
            Some(action("red", json!({"throw": [6]}))),
        );
        second.observe("g", 2, &shown(2), Some(action("red", json!({"move": 0}))));
        first.merge(second);
        let game = &first.games["g"];
        assert_eq!((game.actions.len(), game.doubled.len()), (2, 0));
        assert_eq!(kept(&first), (2, json!({"at": 2})));

        let mut third = Seen::default();
        third.observe("g", 2, &shown(2), Some(action("red", json!({"move": 1}))));
        first.merge(third);
        assert_eq!(first.games["g"].doubled, BTreeSet::from([2]));
    }

    #[test]
    fn a_position_further_along_replaces_the_one_kept_and_an_older_one_does_not() {
        let mut seen = Seen::default();
        seen.observe("g", 5, &shown(5), None);
        seen.observe("g", 7, &shown(7), None);
        assert_eq!(kept(&seen), (7, json!({"at": 7})));
        seen.observe("g", 6, &shown(6), None);
        assert_eq!(kept(&seen), (7, json!({"at": 7})));
        seen.observe("g", 8, &shown(8), None);
        assert_eq!(kept(&seen), (8, json!({"at": 8})));
    }

    #[test]
    fn a_merge_keeps_the_furthest_position_of_either_side() {
        let mut near = Seen::default();
        near.observe("g", 3, &shown(3), None);
        let mut far = Seen::default();
        far.observe("g", 9, &shown(9), None);
        let mut older = Seen::default();
        older.observe("g", 4, &shown(4), None);
        near.merge(far);
        near.merge(older);
        assert_eq!(kept(&near), (9, json!({"at": 9})));
    }

    #[test]
    fn actions_seen_out_of_order_are_kept_in_order_and_a_different_one_doubles_its_version() {
        let mut seen = Seen::default();
        for version in [1, 2, 5, 3] {
            seen.observe(
                "g",
                version,
                &shown(version),
                Some(action("red", json!({"move": 0}))),
            );
        }
        seen.observe("g", 2, &shown(2), Some(action("blue", json!({"move": 0}))));
        seen.observe("g", 5, &shown(5), Some(action("red", json!({"move": 0}))));
        let game = &seen.games["g"];
        let versions: Vec<u64> = game.actions.iter().map(|&(version, _)| version).collect();
        assert_eq!(versions, [1, 2, 3, 5]);
        assert_eq!(game.doubled, BTreeSet::from([2]));
    }
}
