//! A move, the pieces it captures, and the short list of moves one throw offers.

use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

use crate::colour::Colour;
use crate::progress::Progress;

/// The opponent pieces a move sends back to their bases: one bit per colour and piece index.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Captures(u16);

impl Captures {
    /// No capture.
    pub const NONE: Captures = Captures(0);

    /// These captures plus piece `piece` of `colour`.
    #[inline]
    pub const fn with(self, colour: Colour, piece: usize) -> Captures {
        Captures(self.0 | 1 << (colour.index() * 4 + piece))
    }

    /// The captures of these bits: bit `4 × colour index + piece`.
    #[inline]
    pub(crate) const fn from_bits(bits: u16) -> Captures {
        Captures(bits)
    }

    /// Whether the move captures nothing.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// How many pieces are captured.
    #[inline]
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// The captured pieces as (colour, piece index), colours clockwise from yellow.
    pub fn iter(self) -> impl Iterator<Item = (Colour, usize)> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let bit = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            Some((Colour::from_index(bit / 4), bit % 4))
        })
    }
}

/// One legal move: a piece, where it goes from and to, and what it captures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The piece's index, 0..4.
    pub piece: u8,
    /// Where it stands now (the base for an exit).
    pub from: Progress,
    /// Where it lands.
    pub to: Progress,
    /// Every opponent piece sent back to its base.
    pub captures: Captures,
}

#[derive(Serialize)]
struct CapturedPiece {
    seat: Colour,
    piece: usize,
}

impl Serialize for Move {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let captures: Vec<CapturedPiece> = self
            .captures
            .iter()
            .map(|(seat, piece)| CapturedPiece { seat, piece })
            .collect();
        let mut m = s.serialize_struct("Move", 4)?;
        m.serialize_field("piece", &self.piece)?;
        m.serialize_field("from", &self.from)?;
        m.serialize_field("to", &self.to)?;
        m.serialize_field("captures", &captures)?;
        m.end()
    }
}

/// The moves one throw offers: at most one per piece, sorted by piece index.
#[derive(Clone, Copy, Debug, Default)]
pub struct MoveList {
    moves: [Move; 4],
    len: u8,
}

impl Default for Move {
    fn default() -> Self {
        Move {
            piece: 0,
            from: Progress::BASE,
            to: Progress::BASE,
            captures: Captures::NONE,
        }
    }
}

impl MoveList {
    /// No move.
    pub const EMPTY: MoveList = MoveList {
        moves: [Move {
            piece: 0,
            from: Progress::BASE,
            to: Progress::BASE,
            captures: Captures::NONE,
        }; 4],
        len: 0,
    };

    /// Appends `m` when `keep` holds, without a branch: the move is written in the next free
    /// place either way, and counted only when kept. Call it at most once per piece, so that the
    /// list is never full when it is called.
    #[inline]
    pub(crate) fn push_if(&mut self, keep: bool, m: Move) {
        // At most three moves are kept before the fourth piece's call: `& 3` only spares the
        // bounds check.
        self.moves[usize::from(self.len & 3)] = m;
        self.len += u8::from(keep);
    }

    /// How many moves there are.
    #[inline]
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether there is no move.
    #[inline]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The move at `index` (0..len), in piece order.
    #[inline]
    pub fn get(&self, index: usize) -> Option<&Move> {
        self.moves[..self.len()].get(index)
    }

    /// The move of piece `piece`, if it has one.
    pub fn of_piece(&self, piece: u8) -> Option<&Move> {
        self.iter().find(|m| m.piece == piece)
    }

    /// The moves in piece order.
    pub fn iter(&self) -> impl Iterator<Item = &Move> {
        self.moves[..self.len()].iter()
    }
}

impl PartialEq for MoveList {
    fn eq(&self, other: &Self) -> bool {
        self.moves[..self.len()] == other.moves[..other.len()]
    }
}

impl Eq for MoveList {}

impl Serialize for MoveList {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn captures_list_each_piece_once_by_colour_and_index() {
        let c = Captures::NONE
            .with(Colour::Red, 3)
            .with(Colour::Blue, 0)
            .with(Colour::Red, 3);
        assert_eq!(c.len(), 2);
        assert_eq!(
            c.iter().collect::<Vec<_>>(),
            [(Colour::Blue, 0), (Colour::Red, 3)]
        );
    }

    #[test]
    fn a_move_is_written_as_in_the_position_page() {
        let m = Move {
            piece: 2,
            from: Progress::at(17),
            to: Progress::at(23),
            captures: Captures::NONE.with(Colour::Red, 0),
        };
        assert_eq!(
            serde_json::to_string(&m).unwrap(),
            r#"{"piece":2,"from":17,"to":23,"captures":[{"seat":"red","piece":0}]}"#
        );
        let exit = Move {
            piece: 0,
            from: Progress::BASE,
            to: Progress::START,
            captures: Captures::NONE,
        };
        assert_eq!(
            serde_json::to_string(&exit).unwrap(),
            r#"{"piece":0,"from":"base","to":0,"captures":[]}"#
        );
    }
}
