//! Where a game's pieces stand, read through a [`Rulebook`]: the track square of a progress,
//! moving a piece, and the questions the turn asks about a seat's pieces.

use crate::colour::Colour;
use crate::game::{Game, OFF_TRACK, Stands};
use crate::progress::Progress;
use crate::rulebook::{Own, Rulebook};

impl Game {
    /// The track square of a piece of `seat` at `progress`; `None` in the base, the home column
    /// or finished.
    #[inline]
    pub fn track_square(&self, seat: Colour, progress: Progress) -> Option<u8> {
        let square = self.square_of(Own, seat, progress);
        (square != OFF_TRACK).then_some(square)
    }

    /// The track square of a piece of `seat` at `progress`, or [`OFF_TRACK`].
    #[inline]
    pub(crate) fn square_of<R: Rulebook>(&self, rules: R, seat: Colour, progress: Progress) -> u8 {
        let g = rules.geometry(self);
        let steps = progress.raw();
        if steps <= g.door() {
            g.square_from(self.start[seat], steps)
        } else {
            OFF_TRACK
        }
    }

    /// Puts piece `index` of `seat` at `progress`.
    #[inline]
    pub(crate) fn put<R: Rulebook>(
        &mut self,
        rules: R,
        seat: Colour,
        index: usize,
        progress: Progress,
    ) {
        self.pieces[seat][index] = progress;
        // The four squares as one word, changed and read back in registers: a byte stored and
        // the word read soon after (to find the blockades) would wait for the store to reach
        // the cache (measured: a random game took about 1.15 times as long).
        let square = self.square_of(rules, seat, progress);
        let squares = with_byte(self.squares[seat], index, square);
        self.squares[seat] = squares;
        self.stands[seat] = Stands::of(squares);
    }

    /// Recomputes every piece's track square from the pieces.
    pub(crate) fn place_all(&mut self) {
        for seat in Colour::ALL {
            for index in 0..4 {
                self.squares[seat][index] = self.square_of(Own, seat, self.pieces[seat][index]);
            }
            self.stands[seat] = Stands::of(self.squares[seat]);
        }
    }

    /// Whether a seat has all four pieces finished.
    #[inline]
    pub(crate) fn all_finished<R: Rulebook>(&self, rules: R, seat: Colour) -> bool {
        let g = rules.geometry(self);
        self.pieces[seat].iter().all(|p| g.is_finished(p.raw()))
    }

    /// Whether a seat has no piece out: every piece in the base or finished.
    #[inline]
    pub(crate) fn has_no_piece_out<R: Rulebook>(&self, rules: R, seat: Colour) -> bool {
        let g = rules.geometry(self);
        self.pieces[seat]
            .iter()
            .all(|p| p.is_base() || g.is_finished(p.raw()))
    }

    /// How many of a seat's pieces are finished.
    #[inline]
    pub(crate) fn finished_count<R: Rulebook>(&self, rules: R, seat: Colour) -> u8 {
        let g = rules.geometry(self);
        self.pieces[seat]
            .iter()
            .filter(|p| g.is_finished(p.raw()))
            .count() as u8
    }
}

/// `bytes` with byte `index` (0..4) set to `value`, worked out as one word.
#[inline]
fn with_byte(bytes: [u8; 4], index: usize, value: u8) -> [u8; 4] {
    let shift = 8 * (index as u32 & 3);
    (u32::from_le_bytes(bytes) & !(0xff << shift) | u32::from(value) << shift).to_le_bytes()
}
