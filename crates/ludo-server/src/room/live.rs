//! A game being played in a room: the engine's position, the secret dice seed and the record.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

use ludo_fair::{Action, Record, Seed};
use ludo_rules::{Colour, Game, Phase, PlayError, Rules, Throw};

use crate::ids::IdentityId;
use crate::protocol::{GameView, Occupant, Refusal, RefusalCode, StandIn};
use crate::store::{NewGame, StoredGame};

/// What playing one action decides, before anything is stored: the action, the number it is
/// stored under (the game's version before it), and the game after it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Play {
    /// The seat that acts.
    pub seat: Colour,
    /// What it does.
    pub action: Action,
    /// The number the action is stored under.
    pub number: u64,
    /// The game after it.
    pub next: Game,
}

impl Play {
    /// Whether the action ends the game.
    pub fn ends_the_game(&self) -> bool {
        self.next.is_over()
    }
}

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
            id: id.clone(),
            room: room.into(),
            record: record.clone(),
            players: serde_json::to_string(&players).expect("players serialise"),
            people: players
                .iter()
                .filter_map(|(&seat, o)| match o {
                    Occupant::Person { id, name } => Some((seat, id.clone(), name.clone())),
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
            id: stored.id,
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

    /// Who plays against `seat`: each other seat's CPU level, or `None` for a person (told to
    /// the CPU players, of which `expert` models its opponents by their level).
    pub fn opponents_of(&self, seat: Colour) -> Vec<Option<ludo_bots::Level>> {
        self.players
            .iter()
            .filter(|&(&colour, _)| colour != seat)
            .map(|(_, occupant)| match occupant {
                Occupant::Cpu { level } => Some(level.0),
                Occupant::Person { .. } => None,
            })
            .collect()
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

    /// What playing `action` for `seat` decides; refused with `illegal_move` (and the engine's
    /// reason) when the rules do not allow it.
    pub fn play(&self, seat: Colour, action: Action) -> Result<Play, Refusal> {
        let next = self
            .after(action)
            .map_err(|e| Refusal::engine(RefusalCode::IllegalMove, &e))?;
        Ok(Play {
            seat,
            action,
            number: self.version(),
            next,
        })
    }

    /// `seat` throws the dice: the throw the seed gives next; refused with `illegal_move` unless
    /// the game waits for a throw.
    pub fn throw_for(&self, seat: Colour) -> Result<Play, Refusal> {
        let phase = self.game.phase();
        if !matches!(phase, Phase::Roll | Phase::Rolloff) {
            let wanted = ludo_rules::Act::Throw;
            let error = PlayError::WrongPhase { wanted, phase };
            return Err(Refusal::engine(RefusalCode::IllegalMove, &error));
        }
        self.play(seat, Action::Throw(self.next_throw()))
    }

    /// The places reached so far, by seat.
    pub fn places(&self) -> BTreeMap<Colour, u8> {
        self.game
            .seats()
            .iter()
            .filter_map(|&s| self.game.place(s).map(|p| (s, p)))
            .collect()
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

    /// Whether a person plays their own turn now: the game is not over, the seat to act is a
    /// person's who has not left the game (`left`), and the CPU does not stand in for them.
    /// Only such a turn shows its clock's deadline.
    pub fn persons_own_turn(&self, left: &BTreeSet<Colour>) -> bool {
        let seat = self.game.seat();
        !self.game.is_over()
            && self.stand_in.is_none()
            && !left.contains(&seat)
            && matches!(self.players.get(&seat), Some(Occupant::Person { .. }))
    }

    /// `identity` is connected again: if the CPU stands in for them because they were away, it
    /// stops at once, and they play the rest of their turn themselves. (A stand-in because their
    /// clock ran out keeps the turn.)
    pub fn back(&mut self, identity: &IdentityId) {
        self.stand_in = self.stand_in_once_back(identity);
    }

    /// Why the CPU stands in for the seat to act once `identity` is connected again (see
    /// [`Live::back`]), if it still does.
    pub fn stand_in_once_back(&self, identity: &IdentityId) -> Option<StandIn> {
        let theirs = matches!(
            self.players.get(&self.game.seat()),
            Some(Occupant::Person { id, .. }) if id == identity
        );
        self.stand_in
            .filter(|&why| !(theirs && why == StandIn::Away))
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

#[cfg(test)]
mod tests {
    use super::super::fixtures::{game, play_to_the_end, table};
    use super::*;

    #[test]
    fn a_seats_opponents_are_the_other_seats_cpu_levels_and_people_unknown() {
        let live = game(&table(false, true));
        let easy = Some(ludo_bots::Level::Easy);
        // Yellow (Ana) faces the easy CPU at blue and Bo at red.
        assert_eq!(live.opponents_of(Colour::Yellow), [easy, None]);
        assert_eq!(live.opponents_of(Colour::Blue), [None, None]);
    }

    #[test]
    fn a_play_is_numbered_by_the_version_and_leaves_the_game_as_it_was() {
        let live = game(&table(false, false));
        let play = live.throw_for(Colour::Yellow).unwrap();
        assert_eq!(play.number, 0);
        assert!(matches!(play.action, Action::Throw(_)));
        assert_eq!(
            play.action,
            Action::Throw(live.next_throw()),
            "the seed's throw"
        );
        assert_eq!(live.version(), 0, "nothing changes until it is stored");
        assert!(!play.ends_the_game());
    }

    #[test]
    fn a_move_the_rules_forbid_or_a_throw_out_of_phase_is_an_illegal_move() {
        let mut live = game(&table(false, false));
        let moved = live.play(Colour::Yellow, Action::Move(0));
        assert_eq!(moved.unwrap_err().code.as_str(), "illegal_move");
        // Throw until a move is to be made: then a throw is out of phase.
        while live.game.phase() != Phase::Move {
            let play = live.throw_for(live.game.seat()).unwrap();
            live.commit(play.action, play.next);
        }
        let refused = live.throw_for(live.game.seat()).unwrap_err();
        assert_eq!(refused.code.as_str(), "illegal_move");
        assert!(refused.engine.is_some(), "with the engine's reason");
    }

    #[test]
    fn only_a_persons_own_turn_shows_a_deadline() {
        let mut live = game(&table(false, true));
        let nobody_left = BTreeSet::new();
        // Ana at yellow plays her own turn.
        assert!(live.persons_own_turn(&nobody_left));
        assert!(!live.persons_own_turn(&BTreeSet::from([Colour::Yellow])));
        live.stand_in = Some(StandIn::Clock);
        assert!(!live.persons_own_turn(&nobody_left));
        // Blue, the CPU, is next (a 1 with no piece out passes the turn).
        let play = live
            .play(Colour::Yellow, Action::Throw(Throw::one(1)))
            .unwrap();
        live.commit(play.action, play.next);
        assert_eq!(live.game.seat(), Colour::Blue);
        assert!(!live.persons_own_turn(&nobody_left));
        play_to_the_end(&mut live);
        assert!(!live.persons_own_turn(&nobody_left));
    }

    #[test]
    fn a_stand_in_lasts_through_the_bonus_throws_of_its_turn_and_ends_with_it() {
        let mut live = game(&table(false, false));
        live.stand_in = Some(StandIn::Clock);
        // A 6 brings a piece out and earns another throw: yellow's turn still, the CPU's still.
        for action in [Action::Throw(Throw::one(6)), Action::Move(0)] {
            let play = live.play(Colour::Yellow, action).unwrap();
            live.commit(play.action, play.next);
            assert_eq!(live.game.seat(), Colour::Yellow);
            assert_eq!(live.stand_in, Some(StandIn::Clock));
        }
        // A 2 moves the piece on, and the turn passes: so does the stand-in.
        for action in [Action::Throw(Throw::one(2)), Action::Move(0)] {
            let play = live.play(Colour::Yellow, action).unwrap();
            live.commit(play.action, play.next);
        }
        assert_eq!(live.game.seat(), Colour::Red);
        assert_eq!(live.stand_in, None);
    }

    #[test]
    fn a_person_back_takes_their_turn_from_a_stand_in_for_an_absence_not_from_the_clock() {
        let mut live = game(&table(false, false));
        live.stand_in = Some(StandIn::Away);
        live.back(&IdentityId::from("bo"));
        assert_eq!(live.stand_in, Some(StandIn::Away), "not Bo's turn");
        live.back(&IdentityId::from("ana"));
        assert_eq!(live.stand_in, None);
        live.stand_in = Some(StandIn::Clock);
        live.back(&IdentityId::from("ana"));
        assert_eq!(live.stand_in, Some(StandIn::Clock));
    }

    #[test]
    fn a_finished_game_has_a_place_for_every_seat_and_shows_its_seed() {
        let mut live = game(&table(false, true));
        assert!(live.places().is_empty());
        play_to_the_end(&mut live);
        assert_eq!(live.places().len(), 3);
        assert!(live.record.seed.is_some());
    }
}
