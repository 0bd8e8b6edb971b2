//! Legal moves (`rules.md` §5): exits, advances, passing, landing and captures.
//!
//! The generator works in the moving seat's own coordinates: bit `r` of a track mask is the
//! track square at progress `r` of that seat. The other pieces' squares are turned into those
//! coordinates once per throw; then a path is a run of consecutive bits and never wraps.

use crate::colour::Colour;
use crate::game::{Game, Phase};
use crate::moves::{Captures, Move, MoveList};
use crate::options::{Board, Options, Passing};
use crate::progress::Progress;
use crate::throw::Throw;

/// Who stands where, seen from the seat to move, in its own coordinates.
struct Occupancy {
    /// Track squares holding any opponent piece.
    opponents: u64,
    /// Track squares holding two or more pieces of one opponent colour.
    blockades: u64,
    /// Track squares holding a piece of the moving seat (only filled when passing is `any` or
    /// stacking is off).
    own_track: u64,
    /// Home-column squares holding an unfinished piece of the moving seat (bit `steps − door − 1`;
    /// filled as `own_track` is).
    own_home: u8,
    /// Safe track squares.
    safe: u64,
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

    /// Look-ahead for CPU players: the moves `throw` would offer `seat` in this position, whoever
    /// is to act (empty for a seat that does not play or is done).
    pub fn moves_of(&self, seat: Colour, throw: Throw) -> MoveList {
        if !self.seats.contains(seat) || self.done.contains(seat) {
            return MoveList::EMPTY;
        }
        self.moves_for(seat, throw)
    }

    /// The squares holding pieces of `colour` (`once`) and holding two or more of them
    /// (`twice`), one bit per track square.
    #[inline]
    fn squares_of(&self, colour: Colour) -> (u64, u64) {
        let (mut once, mut twice) = (0u64, 0u64);
        for square in self.squares[colour] {
            let bit = if square < 64 { 1u64 << square } else { 0 };
            twice |= once & bit;
            once |= bit;
        }
        (once, twice)
    }

    #[inline]
    fn occupancy(&self, seat: Colour) -> Occupancy {
        let g = &self.geometry;
        let door = g.door();
        let options = self.options();
        let (mut opponents, mut blockades) = (0, 0);
        for &other in self.seats() {
            if other != seat {
                let (once, twice) = self.squares_of(other);
                opponents |= once;
                blockades |= twice;
            }
        }
        let own_coordinates = |mask: u64| g.rotate_to(self.start[seat], mask);
        let mut occ = Occupancy {
            opponents: own_coordinates(opponents),
            blockades: own_coordinates(blockades),
            own_track: 0,
            own_home: 0,
            safe: own_coordinates(g.safe_mask()),
        };
        // Own pieces matter only to passing `any` and when stacking is off. Unfinished pieces in
        // the home column never occur on the horse board, where a horse home is finished.
        if options.stacking && options.passing != Passing::Any {
            return occ;
        }
        for p in self.pieces[seat] {
            let steps = p.raw();
            if steps <= door {
                occ.own_track |= 1 << steps;
            } else if steps < g.finished_from() {
                occ.own_home |= 1 << (steps - door - 1);
            }
        }
        occ
    }

    /// The moves `throw` offers `seat`, at most one per piece, in piece order.
    pub(crate) fn moves_for(&self, seat: Colour, throw: Throw) -> MoveList {
        let options = self.options();
        let g = &self.geometry;
        let (door, last) = (g.door(), g.last());
        let pieces = self.pieces[seat];
        let exit = options.is_exit_throw(throw);
        let can_advance = pieces.iter().any(|p| p.raw() < g.finished_from());
        if !exit && !can_advance {
            return MoveList::EMPTY;
        }
        let occ = self.occupancy(seat);
        let count = throw.count();
        let track = TrackRules::new(options, &occ, count);
        let mut moves = MoveList::EMPTY;
        // On the horse board a horse enters home only onto the deepest free cell.
        let horse_target = if g.board() == Board::Horse {
            last - self.finished_count(seat)
        } else {
            last
        };
        for (index, from) in pieces.into_iter().enumerate() {
            let steps = from.raw();
            let (to, captures) = if from.is_base() {
                if !exit || !track.may_land(0) {
                    continue;
                }
                (0, self.captures_at(seat, 0, &track))
            } else if steps + count <= door {
                // The common case: from the track to the track.
                let to = steps + count;
                if track.is_blocked_from(steps) || !track.may_land(to) {
                    continue;
                }
                (to, self.captures_at(seat, to, &track))
            } else {
                if steps >= g.finished_from() {
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
                    Board::Horse if to != horse_target => continue,
                    _ => {}
                }
                if !self.path_is_clear(steps, to, &occ) || !self.may_enter_home(to, &occ) {
                    continue;
                }
                (to, Captures::NONE)
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

    /// Whether every square strictly between progress `from` and `to` lets the piece pass.
    #[inline]
    fn path_is_clear(&self, from: u8, to: u8, occ: &Occupancy) -> bool {
        let passing = self.options().passing;
        let blocking = match passing {
            Passing::Free => return true,
            Passing::Blockades => occ.blockades,
            Passing::Opponents => occ.opponents,
            Passing::Any => occ.opponents | occ.own_track,
        };
        let door = self.geometry.door();
        let (first, last_between) = (from + 1, to - 1);
        if first > last_between {
            return true;
        }
        let track_last = last_between.min(door);
        if first <= track_last && bits(first, track_last) & blocking != 0 {
            return false;
        }
        if passing == Passing::Any && last_between > door {
            let home_first = first.max(door + 1);
            let home = bits(home_first - door - 1, last_between - door - 1) as u8;
            if occ.own_home & home != 0 {
                return false;
            }
        }
        true
    }

    /// Whether a piece may stop on progress `to` in its home column.
    #[inline]
    fn may_enter_home(&self, to: u8, occ: &Occupancy) -> bool {
        let g = &self.geometry;
        self.options().stacking
            || g.is_finished(to)
            || occ.own_home & (1 << (to - g.door() - 1)) == 0
    }

    /// The opponent pieces a piece of `seat` landing on track progress `to` captures.
    #[inline]
    fn captures_at(&self, seat: Colour, to: u8, track: &TrackRules) -> Captures {
        if !track.captures_on(to) {
            return Captures::NONE;
        }
        let square = self.geometry.square_from(self.start[seat], to);
        let mut captures = Captures::NONE;
        for &other in self.seats() {
            if other == seat {
                continue;
            }
            for (i, &at) in self.squares[other].iter().enumerate() {
                if at == square {
                    captures = captures.with(other, i);
                }
            }
        }
        captures
    }
}

/// What one throw may do on the track, as masks in the moving seat's coordinates.
struct TrackRules {
    /// Progress values from which an advance of the throw's count passes a blocking square.
    blocked_from: u64,
    /// Squares the piece may not stop on.
    no_landing: u64,
    /// Squares where landing captures.
    capturing: u64,
}

impl TrackRules {
    #[inline]
    fn new(options: &Options, occ: &Occupancy, count: u8) -> TrackRules {
        let blocking = match options.passing {
            Passing::Free => 0,
            Passing::Blockades => occ.blockades,
            Passing::Opponents => occ.opponents,
            Passing::Any => occ.opponents | occ.own_track,
        };
        let mut blocked_from = 0;
        if blocking != 0 {
            for between in 1..count {
                blocked_from |= blocking >> between;
            }
        }
        let mut no_landing = 0;
        if options.passing == Passing::Blockades {
            no_landing |= occ.blockades;
        }
        if !options.stacking {
            no_landing |= occ.own_track;
        }
        TrackRules {
            blocked_from,
            no_landing,
            capturing: occ.opponents & !occ.safe,
        }
    }

    #[inline]
    fn is_blocked_from(&self, from: u8) -> bool {
        self.blocked_from >> from & 1 != 0
    }

    #[inline]
    fn may_land(&self, to: u8) -> bool {
        self.no_landing >> to & 1 == 0
    }

    #[inline]
    fn captures_on(&self, to: u8) -> bool {
        self.capturing >> to & 1 != 0
    }
}

/// Bits `first..=last` (`last` below 64).
#[inline]
fn bits(first: u8, last: u8) -> u64 {
    let width = u32::from(last - first) + 1;
    (u64::MAX >> (64 - width)) << first
}
