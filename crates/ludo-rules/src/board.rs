//! The geometry of a board (`rules.md` §2): track length, doors, finishes, starts and safe squares.

use crate::options::{Board, Layout, Options, Safe};

/// The numbers of one board for one game: derived from the options and the number of seats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Geometry {
    board: Board,
    arms: u8,
    arm_len: u8,
    track_len: u8,
    door: u8,
    /// The lowest finished progress: the Ludo finish, or the horse board's first home cell.
    finished_from: u8,
    safe: u64,
}

impl Geometry {
    /// The board the options ask for, with `seats` seats.
    pub const fn new(options: &Options, seats: usize) -> Geometry {
        let (arm_len, arms) = match (options.board, options.layout) {
            (Board::Horse, _) => (14u8, 4u8),
            (Board::Ludo, Layout::Cross) => (13, 4),
            (Board::Ludo, Layout::ByPlayers) => (13, seats as u8),
        };
        let track_len = arm_len * arms;
        let door = match options.board {
            Board::Ludo => track_len - 2,
            Board::Horse => track_len - 1,
        };
        let mut safe = 0u64;
        // A `while` loop: `for` is not allowed in a `const fn`.
        let mut arm = 0;
        while arm < arms {
            let start = arm * arm_len;
            match options.safe {
                Safe::StartsAndStars => safe |= 1 << start | 1 << (start + 8),
                Safe::Starts => safe |= 1 << start,
                Safe::None => {}
            }
            arm += 1;
        }
        let finished_from = match options.board {
            Board::Ludo => door + 6,
            Board::Horse => door + 1,
        };
        Geometry {
            board: options.board,
            arms,
            arm_len,
            track_len,
            door,
            finished_from,
            safe,
        }
    }

    /// The kind of board.
    #[inline]
    pub const fn board(&self) -> Board {
        self.board
    }

    /// How many arms the board has.
    #[inline]
    pub const fn arms(&self) -> u8 {
        self.arms
    }

    /// Track squares each arm brings: 13 on the Ludo board, 14 on the horse board.
    #[inline]
    pub const fn arm_len(&self) -> u8 {
        self.arm_len
    }

    /// The number of track squares.
    #[inline]
    pub const fn track_len(&self) -> u8 {
        self.track_len
    }

    /// A seat's last track progress before its home column.
    #[inline]
    pub const fn door(&self) -> u8 {
        self.door
    }

    /// The highest progress there is: the Ludo finish, or home cell 6 of the horse board.
    #[inline]
    pub const fn last(&self) -> u8 {
        self.door + 6
    }

    /// Whether a piece at `steps` is finished: on the Ludo finish, or in a horse home cell.
    /// The base (stored as 255) is not.
    #[inline]
    pub const fn is_finished(&self, steps: u8) -> bool {
        steps >= self.finished_from && steps <= self.door + 6
    }

    /// The track square of the start of `arm`.
    #[inline]
    pub const fn start_square(&self, arm: u8) -> u8 {
        arm * self.arm_len
    }

    /// The track square of progress `steps` (at most the door) of a seat on `arm`.
    #[inline]
    pub const fn square(&self, arm: u8, steps: u8) -> u8 {
        self.square_from(self.start_square(arm), steps)
    }

    /// The track square of progress `steps` (at most the door) of a seat whose start is `start`.
    #[inline]
    pub(crate) const fn square_from(&self, start: u8, steps: u8) -> u8 {
        // The start is below track_len and steps at most the door, so one subtraction wraps.
        let s = start + steps;
        if s >= self.track_len {
            s - self.track_len
        } else {
            s
        }
    }

    /// The lowest finished progress: the Ludo finish, or the horse board's first home cell.
    #[inline]
    pub const fn finished_from(&self) -> u8 {
        self.finished_from
    }

    /// A mask of track squares seen from a seat whose start is `start`: bit `r` of the result is
    /// the square at progress `r` of that seat.
    #[inline]
    pub(crate) const fn rotate_to(&self, start: u8, mask: u64) -> u64 {
        let len = self.track_len as u32;
        let full = (1u64 << len) - 1;
        ((mask >> start) | (mask << (len - start as u32))) & full
    }

    /// Whether a track square is safe from capture.
    #[inline]
    pub const fn is_safe(&self, square: u8) -> bool {
        self.safe & (1 << square) != 0
    }

    /// The safe squares, one bit per track square.
    #[inline]
    pub(crate) const fn safe_mask(&self) -> u64 {
        self.safe
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::Preset;

    fn ludo(layout: Layout, seats: usize) -> Geometry {
        let options = Options {
            layout,
            ..Preset::Qdan.options()
        };
        Geometry::new(&options, seats)
    }

    #[test]
    fn the_cross_has_52_squares_and_doors_at_50_whatever_the_seats() {
        for seats in 2..=4 {
            let g = ludo(Layout::Cross, seats);
            assert_eq!((g.track_len(), g.door(), g.last()), (52, 50, 56));
        }
    }

    #[test]
    fn by_players_boards_bring_13_squares_an_arm() {
        assert_eq!(ludo(Layout::ByPlayers, 2).track_len(), 26);
        assert_eq!(ludo(Layout::ByPlayers, 2).door(), 24);
        assert_eq!(ludo(Layout::ByPlayers, 3).track_len(), 39);
        assert_eq!(ludo(Layout::ByPlayers, 3).door(), 37);
        assert_eq!(ludo(Layout::ByPlayers, 4), ludo(Layout::Cross, 4));
    }

    #[test]
    fn the_horse_board_has_56_squares_and_six_home_cells() {
        let g = Geometry::new(&Preset::Vietnamese.options(), 2);
        assert_eq!((g.track_len(), g.door(), g.last()), (56, 55, 61));
        assert!(g.is_finished(56) && !g.is_finished(55));
        assert_eq!(g.square(2, 55), 27);
    }

    #[test]
    fn starts_and_stars_are_safe_on_every_arm() {
        let g = ludo(Layout::Cross, 2);
        let safe: Vec<u8> = (0..52).filter(|&s| g.is_safe(s)).collect();
        assert_eq!(safe, [0, 8, 13, 21, 26, 34, 39, 47]);
    }
}
