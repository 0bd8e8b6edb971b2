//! Legal moves (`rules.md` §5): exits, advances, passing, landing and captures.
//!
//! The generator works in the moving seat's own coordinates: bit `p` of a mask is progress `p` of
//! that seat (the track square at `p` up to the door, then the home column). The other pieces'
//! squares are turned into those coordinates once per throw; then a path is a run of consecutive
//! bits and never wraps, and every rule of §5 becomes a mask of the progress a piece may move
//! from (`Reach`), so that each piece's move takes a few bit tests and no branch.
//!
//! The hot functions here and in `turn.rs` are always inlined in native builds (measured: 0.92
//! times the time per action), never forced inline in the browser's WebAssembly module, where
//! the 12 KB they would add count against the page's first-load budget.

use crate::colour::Colour;
use crate::game::{Game, Phase};
use crate::moves::{Captures, Move, MoveList};
use crate::options::{Board, Options, Passing};
use crate::progress::Progress;
use crate::rulebook::{Own, Rulebook};
use crate::throw::Throw;

/// The bit standing for a piece in the base in a [`Reach`] mask: above every progress (at most 61).
const BASE_BIT: u8 = 63;

/// What one throw lets the seat to move do, as masks over its own progress: bit `p` stands for
/// progress `p` (the track up to the door, then the home column), bit [`BASE_BIT`] for the base.
/// Worked out once per throw, so that each piece's move is a few bit tests and no branch.
struct Reach {
    /// Where a piece may move from: its move is legal.
    movable: u64,
    /// Where landing captures: track squares holding an opponent piece, not safe.
    capturing: u64,
}

/// Every check of §5 one throw makes, each kept apart as a mask over the moving seat's own
/// progress: a move is legal when none refuses it ([`Checks::movable`]), and a piece that cannot
/// move is told why by the first that does ([`Game::why_no_move`]). Both read these same masks,
/// so that the reasons are exactly the move generator's.
#[derive(Clone, Copy)]
pub(crate) struct Checks {
    /// The throw's count.
    pub(crate) count: u8,
    /// The progress a finishing move must reach: the Ludo finish, or the deepest free horse home
    /// cell.
    pub(crate) home: u8,
    /// What a moving piece may not pass.
    pub(crate) passing: Passing,
    /// Where unfinished pieces stand (track and home column; never the base bit).
    pub(crate) unfinished: u64,
    /// Whether the throw brings a piece out of the base, where it may land.
    pub(crate) exit_throw: bool,
    /// From where an advance passes a square it may not pass.
    pub(crate) passes: u64,
    /// From where an advance would go beyond the finish, which the rules refuse.
    pub(crate) overshoots: u64,
    /// Squares no piece of the seat may land on: opponent blockades (passing `blockades`).
    pub(crate) blockade_squares: u64,
    /// Squares no piece of the seat may land on: its own pieces' (stacking off).
    pub(crate) own_squares: u64,
    /// Horse home cells other than the deepest free one.
    pub(crate) home_squares: u64,
}

impl Checks {
    /// Where a piece may move from: bit `p` for progress `p`, [`BASE_BIT`] for the base.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn movable(&self) -> u64 {
        let no_landing = self.blockade_squares | self.own_squares | self.home_squares;
        let lands = !self.overshoots & !(no_landing >> self.count);
        let track = self.unfinished & !self.passes & lands;
        let exits = self.exit_throw && no_landing & 1 == 0;
        track | u64::from(exits) << BASE_BIT
    }
}

/// Who stands where, seen from the seat to move, in its own progress coordinates (track bits
/// only up to the door).
struct Occupancy {
    /// Track squares holding any opponent piece.
    opponents: u64,
    /// Track squares holding two or more pieces of one opponent colour.
    blockades: u64,
    /// Unfinished pieces of the moving seat out of the base, on the track or in the home column
    /// (only filled when passing is `any` or stacking is off: otherwise they never matter).
    own: u64,
    /// Safe track squares.
    safe: u64,
}

impl Options {
    /// Whether a throw brings a piece out of the base.
    #[inline]
    pub fn is_exit_throw(&self, throw: Throw) -> bool {
        // A one-die throw's second face is 0, in no face set.
        let [first, second] = throw.faces_or_zero();
        (self.exit_values.contains(first) | self.exit_values.contains(second))
            || (self.exit_on_double && throw.is_double())
    }

    /// Whether a throw that makes `streak` bonus throws in a row forfeits the turn
    /// (`three_bonus_forfeit`: the third ends it with no move).
    #[inline]
    pub fn forfeits(&self, streak: u8) -> bool {
        self.three_bonus_forfeit && streak >= 3
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
            (Phase::Move, Some(throw)) => self.moves_for(Own, self.turn.seat, throw),
            _ => MoveList::EMPTY,
        }
    }

    /// Look-ahead for CPU players: the moves `throw` would offer `seat` in this position, whoever
    /// is to act (empty for a seat that does not play or is done).
    pub fn moves_of(&self, seat: Colour, throw: Throw) -> MoveList {
        if !self.seats.contains(seat) || self.done.contains(seat) {
            return MoveList::EMPTY;
        }
        self.moves_for(Own, seat, throw)
    }

    /// Who stands where, seen from `seat`: read from the colours' [`crate::game::Stands`] and
    /// turned into its coordinates.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn occupancy<R: Rulebook>(&self, rules: R, seat: Colour) -> Occupancy {
        let g = rules.geometry(self);
        // The three other colours, clockwise from the mover: colours without a seat have no piece
        // on the track.
        let s = seat.index();
        let others = [1, 2, 3].map(|k| self.stands.0[(s + k) & 3]);
        let opponents = others.iter().fold(0, |mask, o| mask | o.once);
        let blockades = others.iter().fold(0, |mask, o| mask | o.twice);
        let track = bits(0, g.door());
        let own_coordinates = |mask: u64| g.rotate_to(self.start[seat], mask) & track;
        debug_assert_eq!(own_coordinates(g.safe_mask()), g.safe_mask() & track);
        let mut occ = Occupancy {
            opponents: own_coordinates(opponents),
            blockades: own_coordinates(blockades),
            own: 0,
            // Every arm has the same safe squares, so they are the same from every start.
            safe: g.safe_mask() & track,
        };
        // Own pieces matter only to passing `any` and when stacking is off.
        let options = rules.options(self);
        if options.stacking && options.passing != Passing::Any {
            return occ;
        }
        for p in self.pieces[seat] {
            let steps = p.raw();
            if steps < g.finished_from() {
                occ.own |= 1 << steps;
            }
        }
        occ
    }

    /// What `throw` lets `seat` do: which pieces may move, and where landing captures.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn reach<R: Rulebook>(&self, rules: R, seat: Colour, throw: Throw) -> Reach {
        let (checks, occ) = self.checks_with(rules, seat, throw);
        Reach {
            movable: checks.movable(),
            capturing: occ.opponents & !occ.safe,
        }
    }

    /// Every check `throw` makes of the pieces of `seat` (see [`Checks`]).
    pub(crate) fn checks(&self, seat: Colour, throw: Throw) -> Checks {
        self.checks_with(Own, seat, throw).0
    }

    /// The checks of `throw` for `seat`, and who stands where.
    ///
    /// A piece at progress `p` moves to `p + count` (an exit to the start), or to the finish when
    /// inexact finishes are allowed; it may not pass a blocking square strictly between, nor stop
    /// on a square it may not land on.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn checks_with<R: Rulebook>(
        &self,
        rules: R,
        seat: Colour,
        throw: Throw,
    ) -> (Checks, Occupancy) {
        let options = rules.options(self);
        let g = rules.geometry(self);
        let (door, last) = (g.door(), g.last());
        let occ = self.occupancy(rules, seat);
        let count = throw.count();
        let blocking = match options.passing {
            Passing::Free => 0,
            Passing::Blockades => occ.blockades,
            Passing::Opponents => occ.opponents,
            // Own pieces block in the home column too.
            Passing::Any => occ.opponents | occ.own,
        };
        let blockade_squares = if options.passing == Passing::Blockades {
            occ.blockades
        } else {
            0
        };
        let own_squares = if options.stacking { 0 } else { occ.own };
        let mut home = last;
        let mut home_squares = 0;
        if g.board() == Board::Horse {
            // A horse enters home only onto the deepest free cell.
            home = last - self.finished_count(rules, seat);
            home_squares = bits(door + 1, last) & !(1 << home);
        }
        // From where an advance of `count` passes a blocking square.
        let mut passes = 0;
        if blocking != 0 {
            for between in 1..count {
                passes |= blocking >> between;
            }
        }
        // Overshooting pieces stop on the Ludo finish, where any number may stand, when inexact
        // finishes are allowed.
        let overshoots = if g.board() == Board::Ludo && !options.exact_finish {
            0
        } else {
            !bits(0, last - count)
        };
        let checks = Checks {
            count,
            home,
            passing: options.passing,
            unfinished: bits(0, g.finished_from() - 1),
            exit_throw: options.is_exit_throw(throw),
            passes,
            overshoots,
            blockade_squares,
            own_squares,
            home_squares,
        };
        (checks, occ)
    }

    /// The moves `throw` offers `seat`, at most one per piece, in piece order.
    ///
    /// Always inlined: it is the heart of every throw, and its callers are few.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    pub(crate) fn moves_for<R: Rulebook>(&self, rules: R, seat: Colour, throw: Throw) -> MoveList {
        let reach = self.reach(rules, seat, throw);
        let (count, last) = (throw.count(), rules.geometry(self).last());
        let mut moves = MoveList::EMPTY;
        for (index, from) in self.pieces[seat].into_iter().enumerate() {
            let steps = from.raw();
            // The base (255) is bit 63; every progress (at most 61) is its own bit.
            let legal = reach.movable >> (steps & BASE_BIT) & 1 != 0;
            let to = target(steps, count, last);
            let captures = if reach.capturing >> to & 1 != 0 {
                self.captures_at(seat, to)
            } else {
                Captures::NONE
            };
            let m = Move {
                piece: index as u8,
                from,
                to: Progress::at(to),
                captures,
            };
            moves.push_if(legal, m);
        }
        moves
    }

    /// The opponent pieces a piece of `seat` landing on track progress `to` captures: every
    /// piece of another colour on that square.
    ///
    /// Inlined natively: a few word operations, without a branch (measured: 0.99 times the
    /// time per action of a call).
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn captures_at(&self, seat: Colour, to: u8) -> Captures {
        let square = self.geometry.square_from(self.start[seat], to);
        let mut pieces = 0u16;
        for colour in Colour::ALL {
            let on_square = matching_bytes(self.squares[colour], square);
            pieces |= u16::from(on_square) << (4 * colour.index());
        }
        Captures::from_bits(pieces & !(0xf << (4 * seat.index())))
    }
}

/// Which of four bytes equal `value`: bit `i` for byte `i`, worked out on the four as one word.
#[inline]
fn matching_bytes(bytes: [u8; 4], value: u8) -> u8 {
    // The bytes that equal `value` become zero; a zero byte is the only one whose low seven
    // bits plus 0x7f leave its top bit clear and whose own top bit is clear.
    let x = u32::from_le_bytes(bytes) ^ (u32::from(value) * 0x0101_0101);
    let zero_tops = !(((x & 0x7f7f_7f7f) + 0x7f7f_7f7f) | x | 0x7f7f_7f7f);
    // Gathers the four top bits (7, 15, 23, 31) into bits 28..32, in order.
    ((zero_tops >> 7).wrapping_mul(0x1020_4080) >> 28) as u8
}

/// Where a piece at raw progress `steps` (255 in the base) would go with `count`: the start for
/// an exit, else `steps + count`, stopping at `last` (which only inexact finishes allow). Worked
/// out without a branch, for legal and illegal moves alike.
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
fn target(steps: u8, count: u8, last: u8) -> u8 {
    let reached = u32::from(steps) + u32::from(count);
    // From the base, `reached` is 256 or more: the mask is then 0, else all ones.
    let from_track = (reached >> 8).wrapping_sub(1);
    (reached.min(u32::from(last)) & from_track) as u8
}

/// Bits `first..=last` (`last` below 64).
#[inline]
fn bits(first: u8, last: u8) -> u64 {
    let width = u32::from(last - first) + 1;
    (u64::MAX >> (64 - width)) << first
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matching_bytes_marks_exactly_the_bytes_equal_to_the_value() {
        for value in [0u8, 1, 7, 51, 127, 128, 255] {
            for bytes in [
                [value; 4],
                [0, 1, 255, 128],
                [value, value.wrapping_add(1), value, value.wrapping_sub(1)],
                [value.wrapping_sub(1), value, 0x80 ^ value, value],
                [1, 0, 1, 0],
            ] {
                let expected = (0..4).fold(0, |m, i| m | u8::from(bytes[i] == value) << i);
                assert_eq!(matching_bytes(bytes, value), expected, "{bytes:?} {value}");
            }
        }
    }
}
