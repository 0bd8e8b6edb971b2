//! The four seat colours, their marks and their fixed arms on the cross.

use std::fmt;
use std::str::FromStr;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A seat, named by its colour. The order of the variants is clockwise round the cross.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Colour {
    /// Arm 0, mark ○.
    Yellow,
    /// Arm 1, mark □.
    Blue,
    /// Arm 2, mark △.
    Red,
    /// Arm 3, mark ✚.
    Green,
}

impl Colour {
    /// Every colour, clockwise from arm 0.
    pub const ALL: [Colour; 4] = [Colour::Yellow, Colour::Blue, Colour::Red, Colour::Green];

    /// The colour's index, 0..4, in clockwise order.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The colour with the given index (0..4); panics on other values.
    #[inline]
    pub const fn from_index(index: usize) -> Colour {
        Colour::ALL[index]
    }

    /// The arm this colour sits on when colours have fixed arms (the cross and the horse board).
    #[inline]
    pub const fn fixed_arm(self) -> u8 {
        self as u8
    }

    /// The shape that tells this colour apart without colour.
    pub const fn mark(self) -> char {
        match self {
            Colour::Yellow => '○',
            Colour::Blue => '□',
            Colour::Red => '△',
            Colour::Green => '✚',
        }
    }

    /// The colour's name as written in positions.
    pub const fn name(self) -> &'static str {
        match self {
            Colour::Yellow => "yellow",
            Colour::Blue => "blue",
            Colour::Red => "red",
            Colour::Green => "green",
        }
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error for a name that is not a colour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownColour(pub String);

impl fmt::Display for UnknownColour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` is not a colour (yellow, blue, red, green)", self.0)
    }
}

impl std::error::Error for UnknownColour {}

impl FromStr for Colour {
    type Err = UnknownColour;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Colour::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| UnknownColour(s.to_owned()))
    }
}

impl Serialize for Colour {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

struct ColourVisitor;

impl Visitor<'_> for ColourVisitor {
    type Value = Colour;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a colour (yellow, blue, red, green)")
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<Colour, E> {
        s.parse().map_err(E::custom)
    }
}

/// Read as a plain string, so that error paths name a colour used as a map key
/// (`pieces.yellow[1]`).
impl<'de> Deserialize<'de> for Colour {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_str(ColourVisitor)
    }
}

/// One value per colour, indexed by [`Colour`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BySeat<T>(pub [T; 4]);

impl<T> std::ops::Index<Colour> for BySeat<T> {
    type Output = T;
    #[inline]
    fn index(&self, colour: Colour) -> &T {
        &self.0[colour.index()]
    }
}

impl<T> std::ops::IndexMut<Colour> for BySeat<T> {
    #[inline]
    fn index_mut(&mut self, colour: Colour) -> &mut T {
        &mut self.0[colour.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_colour_reads_back_from_its_name() {
        for c in Colour::ALL {
            assert_eq!(c.to_string().parse::<Colour>(), Ok(c));
        }
    }

    #[test]
    fn an_unknown_colour_name_is_refused() {
        assert!("purple".parse::<Colour>().is_err());
    }

    #[test]
    fn marks_follow_the_colour_blind_key() {
        let marks: String = Colour::ALL.iter().map(|c| c.mark()).collect();
        assert_eq!(marks, "○□△✚");
    }
}
