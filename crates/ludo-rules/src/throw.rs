//! One throw: one die, or two dice with `dice = 2`.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::error::faults;

/// The faces of one throw, written in JSON as `[d]` or `[d1, d2]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Throw {
    dice: [u8; 2],
    len: u8,
}

faults! {
    /// A throw that cannot be made with real dice.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub enum ThrowError {
        /// A face outside 1..=6.
        Face(face: u8) => "face": "die face {face} is outside 1..6";
        /// Not one or two dice.
        DiceCount(count: usize) => "dice_in_throw": "a throw is one or two dice, not {count}";
    }
}

impl Throw {
    /// A throw of the given dice (one or two faces, each 1..=6).
    ///
    /// # Errors
    /// A face outside 1..=6, or not one or two dice.
    pub fn new(faces: &[u8]) -> Result<Throw, ThrowError> {
        if let Some(&bad) = faces.iter().find(|f| !(1..=6).contains(*f)) {
            return Err(ThrowError::Face(bad));
        }
        match *faces {
            [d] => Ok(Throw {
                dice: [d, 0],
                len: 1,
            }),
            [d1, d2] => Ok(Throw {
                dice: [d1, d2],
                len: 2,
            }),
            _ => Err(ThrowError::DiceCount(faces.len())),
        }
    }

    /// A throw of one die; the face must be 1..=6 (checked in debug builds).
    #[inline]
    pub const fn one(face: u8) -> Throw {
        debug_assert!(face >= 1 && face <= 6);
        Throw {
            dice: [face, 0],
            len: 1,
        }
    }

    /// A throw of two dice; the faces must be 1..=6 (checked in debug builds).
    #[inline]
    pub const fn two(d1: u8, d2: u8) -> Throw {
        debug_assert!(d1 >= 1 && d1 <= 6 && d2 >= 1 && d2 <= 6);
        Throw {
            dice: [d1, d2],
            len: 2,
        }
    }

    /// The faces thrown.
    #[inline]
    pub fn faces(&self) -> &[u8] {
        &self.dice[..self.len as usize]
    }

    /// Both faces, the second 0 with one die: for tests that need no branch on the dice.
    #[inline]
    pub(crate) const fn faces_or_zero(&self) -> [u8; 2] {
        self.dice
    }

    /// How many dice were thrown.
    #[inline]
    pub const fn dice(&self) -> u8 {
        self.len
    }

    /// The count a piece moves: the die, or the total of both dice.
    #[inline]
    pub const fn count(&self) -> u8 {
        self.dice[0] + self.dice[1]
    }

    /// Whether two dice show the same face.
    #[inline]
    pub const fn is_double(&self) -> bool {
        self.len == 2 && self.dice[0] == self.dice[1]
    }
}

impl fmt::Display for Throw {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.faces() {
            [d] => write!(f, "{d}"),
            [d1, d2] => write!(f, "{d1}+{d2}"),
            _ => unreachable!("a throw has one or two dice"),
        }
    }
}

impl Serialize for Throw {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.faces().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Throw {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let faces = Vec::<u8>::deserialize(d)?;
        Throw::new(&faces).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_dice_count_their_total() {
        let t = Throw::new(&[3, 5]).unwrap();
        assert_eq!((t.count(), t.is_double(), t.dice()), (8, false, 2));
        assert!(Throw::two(4, 4).is_double());
        assert!(!Throw::one(4).is_double());
    }

    #[test]
    fn impossible_throws_are_refused() {
        assert_eq!(Throw::new(&[7]), Err(ThrowError::Face(7)));
        assert_eq!(Throw::new(&[0, 3]), Err(ThrowError::Face(0)));
        assert_eq!(Throw::new(&[1, 2, 3]), Err(ThrowError::DiceCount(3)));
        assert_eq!(Throw::new(&[]), Err(ThrowError::DiceCount(0)));
    }

    #[test]
    fn a_throw_error_gives_the_values_it_speaks_of() {
        assert_eq!(ThrowError::Face(9).params(), serde_json::json!({"face": 9}));
        assert_eq!(
            ThrowError::DiceCount(3).params(),
            serde_json::json!({"count": 3})
        );
        assert_eq!(
            ThrowError::DiceCount(3).to_string(),
            "a throw is one or two dice, not 3"
        );
    }

    #[test]
    fn throws_read_and_write_as_arrays() {
        let t: Throw = serde_json::from_str("[6, 1]").unwrap();
        assert_eq!(serde_json::to_string(&t).unwrap(), "[6,1]");
    }
}
