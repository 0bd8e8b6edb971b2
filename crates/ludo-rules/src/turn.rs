//! The turn procedure (`rules.md` §4): roll-off, throws, bonus throws, forfeits, moves, turn
//! passing and the end of the game.

use crate::colour::Colour;
use crate::error::faults;
use crate::game::{Game, Phase, ROLLOFF_OUT, ROLLOFF_WAITING, Turn};
use crate::moves::{Move, MoveList};
use crate::options::NoPieceOut;
use crate::progress::Progress;
use crate::rulebook::{Own, Rulebook};
use crate::throw::Throw;

/// What an action that came in the wrong phase was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Act {
    /// A throw of the dice (phase `roll` or `rolloff`).
    Throw,
    /// A move (phase `move`).
    Move,
}

impl Act {
    /// The action's name in codes and JSON: `throw` or `move`.
    pub const fn name(self) -> &'static str {
        match self {
            Act::Throw => "throw",
            Act::Move => "move",
        }
    }

    /// The phases the action needs, as an English sentence.
    const fn needs(self) -> &'static str {
        match self {
            Act::Throw => "a throw needs phase roll or rolloff",
            Act::Move => "a move needs phase move",
        }
    }
}

faults! {
    /// An action the rules forbid in this position. The game is left unchanged.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub enum PlayError {
        /// The action belongs to another phase (a move while a throw is awaited, and so on).
        WrongPhase {
            /// The action tried.
            wanted: Act,
            /// The phase the game is in.
            phase: Phase,
        } => "wrong_phase" { "action": wanted.name(), "phase": phase }:
            "{}, but the game is in phase {phase}", wanted.needs();
        /// The throw has the wrong number of dice for these rules (a roll-off is always one die).
        WrongDice {
            /// Dice the rules throw here.
            wanted: u8,
            /// Dice given.
            given: u8,
        } => "wrong_dice": "this throw needs {wanted} dice, {given} given";
        /// A piece index outside 0..4.
        NoSuchPiece(piece: u8) => "no_such_piece":
            "piece {piece} does not exist (pieces are 0..3)";
        /// The piece has no legal move with this throw.
        NoMove {
            /// The seat to play.
            seat: Colour,
            /// The piece asked for.
            piece: u8,
        } => "no_move": "{seat} piece {piece} has no legal move with this throw";
    }
}

impl Game {
    /// Applies a throw in phase `roll` or `rolloff` and returns the moves it offers (empty when
    /// the throw did not lead to phase `move`).
    ///
    /// # Errors
    /// In another phase, or with the wrong number of dice; the game is unchanged.
    pub fn roll(&mut self, throw: Throw) -> Result<MoveList, PlayError> {
        match self.turn.phase {
            Phase::Roll | Phase::Rolloff => {}
            phase => {
                return Err(PlayError::WrongPhase {
                    wanted: Act::Throw,
                    phase,
                });
            }
        }
        let wanted = self.dice_to_throw();
        if throw.dice() != wanted {
            return Err(PlayError::WrongDice {
                wanted,
                given: throw.dice(),
            });
        }
        if self.turn.phase == Phase::Rolloff {
            self.rolloff_throw(throw.count());
            return Ok(MoveList::EMPTY);
        }
        Ok(self.roll_unchecked(throw))
    }

    /// Applies a throw in phase `roll` without checking the phase or the dice: the fast path for
    /// simulations and bots. Returns the moves it offers.
    ///
    /// Always inlined (with the move generator inside), like [`Game::play_unchecked`]: a random
    /// game spends most of its time in these two, and a call to each per action costs more than
    /// the copies in the few loops that use them.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    pub fn roll_unchecked(&mut self, throw: Throw) -> MoveList {
        self.roll_by(Own, throw)
    }

    /// [`Game::roll_unchecked`] with the rules read from `rules`: [`Own`] for any game, or a
    /// rulebook whose rules are known when compiled, such as [`crate::Qdan`] for a game it fits.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    pub fn roll_by<R: Rulebook>(&mut self, rules: R, throw: Throw) -> MoveList {
        let options = rules.options(self);
        let seat = self.turn.seat;
        if options.no_piece_out == NoPieceOut::AutoExit && self.has_no_piece_out(rules, seat) {
            self.auto_exit(seat);
            return MoveList::EMPTY;
        }
        let bonus = options.is_bonus_throw(throw);
        self.turn.bonus_streak = self.bonus_streak_after_by(rules, throw);
        self.turn.throws += 1;
        if options.forfeits(self.turn.bonus_streak) {
            self.pass_turn();
            return MoveList::EMPTY;
        }
        let moves = self.moves_for(rules, seat, throw);
        if !moves.is_empty() {
            self.turn.phase = Phase::Move;
            self.turn.roll = Some(throw);
            return moves;
        }
        let another_try = options.no_piece_out == NoPieceOut::ThreeTries
            && self.turn.throws < 3
            && self.has_no_piece_out(rules, seat);
        let bonus_anyway = bonus && options.bonus_if_no_move;
        if !another_try && !bonus_anyway {
            self.pass_turn();
        }
        // Otherwise the same seat throws again.
        moves
    }

    /// How many bonus throws in a row the seat to throw will have made with `throw`.
    pub(crate) fn bonus_streak_after(&self, throw: Throw) -> u8 {
        self.bonus_streak_after_by(Own, throw)
    }

    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn bonus_streak_after_by<R: Rulebook>(&self, rules: R, throw: Throw) -> u8 {
        if rules.options(self).is_bonus_throw(throw) {
            self.turn.bonus_streak + 1
        } else {
            0
        }
    }

    /// Plays the move of piece `piece` with the throw in play.
    ///
    /// # Errors
    /// Outside phase `move`, for a piece index outside 0..4, or a piece with no legal move; the
    /// game is unchanged.
    pub fn play(&mut self, piece: u8) -> Result<Move, PlayError> {
        if self.turn.phase != Phase::Move {
            return Err(PlayError::WrongPhase {
                wanted: Act::Move,
                phase: self.turn.phase,
            });
        }
        if piece > 3 {
            return Err(PlayError::NoSuchPiece(piece));
        }
        let Some(&m) = self.legal_moves().of_piece(piece) else {
            return Err(PlayError::NoMove {
                seat: self.turn.seat,
                piece,
            });
        };
        self.play_unchecked(&m);
        Ok(m)
    }

    /// Plays a move taken from [`Game::legal_moves`] (or from [`Game::roll_unchecked`]) of this
    /// very position, without checking it: the fast path for simulations and bots.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    pub fn play_unchecked(&mut self, m: &Move) {
        self.play_by(Own, m);
    }

    /// [`Game::play_unchecked`] with the rules read from `rules` (see [`Game::roll_by`]).
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    pub fn play_by<R: Rulebook>(&mut self, rules: R, m: &Move) {
        let seat = self.turn.seat;
        self.apply(rules, seat, m);
        let finished = rules.geometry(self).is_finished(m.to.raw());
        if finished && self.all_finished(rules, seat) {
            self.seat_done(seat);
            return;
        }
        let options = rules.options(self);
        // In phase `move` the bonus streak counts the throw in play exactly when it is a bonus
        // throw (`roll_unchecked` sets it so, and positions are checked for it).
        let again = self.turn.bonus_streak > 0
            || (options.bonus_on_capture && !m.captures.is_empty())
            || (options.bonus_on_finish && finished);
        if again {
            self.turn.phase = Phase::Roll;
            self.turn.roll = None;
        } else {
            self.pass_turn();
        }
    }

    /// Look-ahead for CPU players: this position with `m`, one of [`Game::moves_of`]`(seat, …)`,
    /// played for `seat` — the pieces moved and captured, the turn left as it is.
    pub fn with_move(&self, seat: Colour, m: &Move) -> Game {
        let mut next = *self;
        next.apply(Own, seat, m);
        next
    }

    /// Moves the piece and sends the captured pieces back to their bases.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn apply<R: Rulebook>(&mut self, rules: R, seat: Colour, m: &Move) {
        self.put(rules, seat, m.piece as usize, m.to);
        for (colour, index) in m.captures.iter() {
            self.put(rules, colour, index, Progress::BASE);
        }
    }

    /// One roll-off throw by the seat to act.
    fn rolloff_throw(&mut self, face: u8) {
        let seat = self.turn.seat;
        self.turn.rolloff[seat] = face;
        if let Some(next) = self.next_in_rolloff(seat) {
            self.turn.seat = next;
            return;
        }
        let best = self
            .seats()
            .iter()
            .map(|&s| self.turn.rolloff[s])
            .filter(|&f| f != ROLLOFF_OUT)
            .max()
            .unwrap_or(ROLLOFF_OUT);
        let mut tied = self
            .seats()
            .iter()
            .copied()
            .filter(|&s| self.turn.rolloff[s] == best);
        let first = tied
            .next()
            .expect("the seat that threw the best is in the roll-off");
        if tied.next().is_none() {
            self.turn = Turn::fresh(first, Phase::Roll);
            return;
        }
        for &s in self.seats.as_slice() {
            let entry = &mut self.turn.rolloff[s];
            *entry = if *entry == best {
                ROLLOFF_WAITING
            } else {
                ROLLOFF_OUT
            };
        }
        self.turn.seat = first;
    }

    /// The next seat after `seat` in seat order still to throw in the roll-off.
    fn next_in_rolloff(&self, seat: Colour) -> Option<Colour> {
        let seats = self.seats();
        let at = seats.iter().position(|&s| s == seat)?;
        seats[at + 1..]
            .iter()
            .copied()
            .find(|&s| self.turn.rolloff[s] == ROLLOFF_WAITING)
    }

    /// `no_piece_out = auto_exit`: the lowest-numbered base piece goes to the start if it may,
    /// and the turn ends with no extra throw.
    fn auto_exit(&mut self, seat: Colour) {
        let exit = self.moves_for_exit(seat);
        if let Some(m) = exit {
            self.apply(Own, seat, &m);
        }
        self.pass_turn();
    }

    /// The exit move of the lowest-numbered base piece, if it is legal.
    fn moves_for_exit(&self, seat: Colour) -> Option<Move> {
        let lowest = self.pieces[seat].iter().position(|p| p.is_base())? as u8;
        // Any exit face will do: the throw itself is not used.
        let face = self.options().exit_values.faces().next();
        let throw = match (face, self.options().dice) {
            (Some(f), 1) => Throw::one(f),
            (Some(f), _) => Throw::two(f, if f == 1 { 2 } else { 1 }),
            (None, _) => Throw::two(1, 1),
        };
        self.moves_for(Own, seat, throw).of_piece(lowest).copied()
    }

    /// The turn passes to the next seat in seat order that is not done.
    fn pass_turn(&mut self) {
        let next = self.next_seat_after(self.turn.seat);
        self.turn = Turn::fresh(next, Phase::Roll);
    }

    fn next_seat_after(&self, seat: Colour) -> Colour {
        let mut next = self.next[seat];
        // Done seats are skipped; the game is over before every other seat is done.
        for _ in 0..4 {
            if !self.done.contains(next) {
                break;
            }
            next = self.next[next];
        }
        next
    }

    /// `seat` has just finished its last piece.
    fn seat_done(&mut self, seat: Colour) {
        self.done.push(seat);
        let remaining = self.seats().len() - self.done.as_slice().len();
        if self.options().rank_everyone && remaining > 1 {
            self.pass_turn();
            return;
        }
        self.places = Some(self.compute_places());
        self.turn = Turn::fresh(seat, Phase::Over);
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn an_illegal_action_gives_the_values_it_speaks_of() {
        let e = PlayError::NoMove {
            seat: Colour::Green,
            piece: 3,
        };
        assert_eq!(e.code(), "no_move");
        assert_eq!(e.params(), json!({"seat": "green", "piece": 3}));
        let e = PlayError::WrongPhase {
            wanted: Act::Throw,
            phase: Phase::Move,
        };
        assert_eq!(e.params(), json!({"action": "throw", "phase": "move"}));
        assert_eq!(
            e.to_string(),
            "a throw needs phase roll or rolloff, but the game is in phase move"
        );
    }
}
