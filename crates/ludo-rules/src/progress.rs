//! Where a piece is: in the base, or a number of steps from its own start (`rules.md` §2).

use std::fmt;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A piece's place: `"base"` or its progress from its own start (0 is the start).
///
/// One byte; the base is stored as `u8::MAX`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Progress(u8);

impl Progress {
    /// In the base.
    pub const BASE: Progress = Progress(u8::MAX);
    /// On the piece's own start.
    pub const START: Progress = Progress(0);

    /// Progress `steps` from the start; `steps` must be below 255.
    #[inline]
    pub const fn at(steps: u8) -> Progress {
        debug_assert!(steps != u8::MAX);
        Progress(steps)
    }

    /// Whether the piece is in the base.
    #[inline]
    pub const fn is_base(self) -> bool {
        self.0 == u8::MAX
    }

    /// The steps from the start, or `None` in the base.
    #[inline]
    pub const fn steps(self) -> Option<u8> {
        if self.is_base() { None } else { Some(self.0) }
    }

    /// The raw byte: steps, or 255 in the base.
    #[inline]
    pub(crate) const fn raw(self) -> u8 {
        self.0
    }
}

impl fmt::Display for Progress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.steps() {
            None => f.write_str("base"),
            Some(steps) => write!(f, "{steps}"),
        }
    }
}

impl Serialize for Progress {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.steps() {
            None => s.serialize_str("base"),
            Some(steps) => s.serialize_u8(steps),
        }
    }
}

struct ProgressVisitor;

impl Visitor<'_> for ProgressVisitor {
    type Value = Progress;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("\"base\" or a progress number")
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<Progress, E> {
        if s == "base" {
            Ok(Progress::BASE)
        } else {
            Err(E::custom(format!(
                "`{s}` is not \"base\" or a progress number"
            )))
        }
    }

    fn visit_u64<E: de::Error>(self, n: u64) -> Result<Progress, E> {
        if n < 100 {
            Ok(Progress(n as u8))
        } else {
            Err(E::custom(format!("progress {n} is out of range")))
        }
    }

    fn visit_i64<E: de::Error>(self, n: i64) -> Result<Progress, E> {
        if n < 0 {
            Err(E::custom(format!("progress {n} is negative")))
        } else {
            self.visit_u64(n as u64)
        }
    }
}

impl<'de> Deserialize<'de> for Progress {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ProgressVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_and_numbers_read_and_write_as_in_positions() {
        let places: Vec<Progress> = serde_json::from_str(r#"["base", 0, 56]"#).unwrap();
        assert_eq!(places, [Progress::BASE, Progress::START, Progress::at(56)]);
        assert_eq!(serde_json::to_string(&places).unwrap(), r#"["base",0,56]"#);
    }

    #[test]
    fn other_words_and_negative_numbers_are_refused() {
        assert!(serde_json::from_str::<Progress>(r#""home""#).is_err());
        assert!(serde_json::from_str::<Progress>("-1").is_err());
        assert!(serde_json::from_str::<Progress>("2.5").is_err());
    }
}
