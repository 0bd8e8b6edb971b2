//! Legal moves (`rules.md` §5): exits, advances, passing, landing and captures.

use crate::colour::Colour;
use crate::game::{Game, Phase};
use crate::moves::{Captures, Move, MoveList};
use crate::options::{Board, Options, Passing};
use crate::progress::Progress;
use crate::throw::Throw;

/// Who stands where on the track, seen from the seat to move, one bit per track square.
struct Occupancy {
    /// Squares holding any opponent piece.
    opponents: u64,
    /// Squares holding two or more pieces of one opponent colour.
    blockades: u64,
    /// Squares holding a piece of the moving seat.
    own_track: u64,
    /// Home-column squares holding a piece of the moving seat (bit `steps − door − 1`),
    /// finished pieces left out.
    own_home: u8,
}

impl Options {
    /// Whether a throw brings a piece out of the base.
    #[inline]
    pub fn is_exit_throw(&self, throw: Throw) -> bool {
        throw.faces().iter().any(|&f| self.exit_values.contains(f))
            || (self.exit_on_double && throw.is_double())
    }

    /// Whether a throw is a bonus throw: a face in `bonus_values` (one die), or a double with
    /// `bonus_on_double`.
    #[inline]
    pub fn is_bonus_throw(&self, throw: Throw) -> bool {
        if throw.dice() == 1 {
            self.bonus_values.contains(throw.count())
        } else {
            self.bonus_on_double && throw.is_double()
        }
    }
}

impl Game {
    /// The legal moves of the throw in play: empty unless the phase is `move`.
    pub fn legal_moves(&self) -> MoveList {
        match (self.turn.phase, self.turn.roll) {
            (Phase::Move, Some(throw)) => self.moves_for(self.turn.seat, throw),
            _ => MoveList::EMPTY,
        }
    }

    fn occupancy(&self, seat: Colour) -> Occupancy {
        let g = &self.geometry;
        let door = g.door();
        let mut occ = Occupancy {
            opponents: 0,
            blockades: 0,
            own_track: 0,
            own_home: 0,
        };
        for &other in self.seats() {
            let arm = self.arm[other];
            if other == seat {
                for p in self.pieces[other] {
                    let steps = p.raw();
                    if steps <= door {
                        occ.own_track |= 1 << g.square(arm, steps);
                    } else if !p.is_base() && !g.is_finished(steps) {
                        occ.own_home |= 1 << (steps - door - 1);
                    }
                }
            } else {
                let (mut once, mut twice) = (0u64, 0u64);
                for p in self.pieces[other] {
                    let steps = p.raw();
                    if steps <= door {
                        let bit = 1u64 << g.square(arm, steps);
                        twice |= once & bit;
                        once |= bit;
                    }
                }
                occ.opponents |= once;
                occ.blockades |= twice;
            }
        }
        occ
    }

    /// The moves `throw` offers `seat`, at most one per piece, in piece order.
    pub(crate) fn moves_for(&self, seat: Colour, throw: Throw) -> MoveList {
        let options = self.options();
        let g = &self.geometry;
        let door = g.door();
        let last = g.last();
        let arm = self.arm[seat];
        let occ = self.occupancy(seat);
        let exit = options.is_exit_throw(throw);
        let count = throw.count();
        let mut moves = MoveList::EMPTY;
        // With two dice and exact_finish, the horse board's target cell is the deepest free one.
        let horse_target = last - self.finished_count(seat);
        for (index, from) in self.pieces[seat].into_iter().enumerate() {
            let to = if from.is_base() {
                if !exit {
                    continue;
                }
                0
            } else {
                let steps = from.raw();
                if g.is_finished(steps) {
                    continue;
                }
                let mut to = steps + count;
                match g.board() {
                    Board::Ludo if to > last => {
                        if options.exact_finish {
                            continue;
                        }
                        to = last;
                    }
                    Board::Horse if to > door && to != horse_target => continue,
                    _ => {}
                }
                if !self.path_is_clear(arm, steps, to, &occ) {
                    continue;
                }
                to
            };
            let Some(captures) = self.landing(seat, arm, to, &occ) else {
                continue;
            };
            moves.push(Move {
                piece: index as u8,
                from,
                to: Progress::at(to),
                captures,
            });
        }
        moves
    }

    /// Whether every square strictly between `from` and `to` lets the piece pass.
    #[inline]
    fn path_is_clear(&self, arm: u8, from: u8, to: u8, occ: &Occupancy) -> bool {
        let g = &self.geometry;
        let door = g.door();
        let blocking = match self.options().passing {
            Passing::Free => return true,
            Passing::Blockades => occ.blockades,
            Passing::Opponents => occ.opponents,
            Passing::Any => occ.opponents | occ.own_track,
        };
        let (first, last_between) = (from + 1, to - 1);
        if first > last_between {
            return true;
        }
        let track_last = last_between.min(door);
        if first <= track_last && g.span(arm, first, track_last) & blocking != 0 {
            return false;
        }
        if self.options().passing == Passing::Any && last_between > door {
            let home_first = first.max(door + 1);
            let home = home_span(home_first - door - 1, last_between - door - 1);
            if occ.own_home & home != 0 {
                return false;
            }
        }
        true
    }

    /// Whether a piece of `seat` may land on progress `to`, and what it captures there.
    #[inline]
    fn landing(&self, seat: Colour, arm: u8, to: u8, occ: &Occupancy) -> Option<Captures> {
        let g = &self.geometry;
        let options = self.options();
        if to > g.door() {
            let blocked = !options.stacking
                && !g.is_finished(to)
                && occ.own_home & (1 << (to - g.door() - 1)) != 0;
            return if blocked { None } else { Some(Captures::NONE) };
        }
        let square = g.square(arm, to);
        let bit = 1u64 << square;
        if options.passing == Passing::Blockades && occ.blockades & bit != 0 {
            return None;
        }
        if !options.stacking && occ.own_track & bit != 0 {
            return None;
        }
        if occ.opponents & bit == 0 || g.safe_mask() & bit != 0 {
            return Some(Captures::NONE);
        }
        let mut captures = Captures::NONE;
        for &other in self.seats() {
            if other == seat {
                continue;
            }
            let other_arm = self.arm[other];
            for (i, p) in self.pieces[other].into_iter().enumerate() {
                if p.raw() <= g.door() && g.square(other_arm, p.raw()) == square {
                    captures = captures.with(other, i);
                }
            }
        }
        Some(captures)
    }
}

/// Home-column squares `first..=last` (counted from 0 after the door), one bit each.
#[inline]
fn home_span(first: u8, last: u8) -> u8 {
    let len = last - first + 1;
    (((1u16 << len) - 1) << first) as u8
}
