//! CPU levels by the names the protocol gives them (`easy`, `medium`, `hard`…). Wire vocabulary:
//! the names are what `add_cpu` sends and what a CPU seat shows; the levels themselves, and their
//! names, belong to the bots crate, and each client says them in its reader's language.

use ludo_bots::Level;
use serde::{Deserialize, Serialize};

/// A CPU level by name, as in the protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelName(pub Level);

impl<'de> Deserialize<'de> for LevelName {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        name.parse()
            .map(LevelName)
            .map_err(serde::de::Error::custom)
    }
}

impl Serialize for LevelName {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0.name())
    }
}
