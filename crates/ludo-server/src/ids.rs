//! Every id the server passes around, each a type of its own: the unguessable ones (room codes,
//! game ids, identity ids), which are strings on the wire and in storage and are read from them
//! once, where they arrive (a message, an HTTP path, a stored row); a connection's number; and
//! device secrets turned into hashes.

use std::sync::atomic::{AtomicU64, Ordering};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// A string id as a type of its own, so that one kind of id is never passed for another. Written
/// as the plain string in JSON and in storage.
macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(String);

        impl $name {
            /// The id as text.
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl From<String> for $name {
            fn from(id: String) -> $name {
                $name(id)
            }
        }

        impl From<&str> for $name {
            fn from(id: &str) -> $name {
                $name(id.to_owned())
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl std::borrow::Borrow<str> for $name {
            fn borrow(&self) -> &str {
                &self.0
            }
        }

        impl std::ops::Deref for $name {
            type Target = str;
            fn deref(&self) -> &str {
                &self.0
            }
        }

        impl PartialEq<str> for $name {
            fn eq(&self, other: &str) -> bool {
                self.0 == other
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.0 == *other
            }
        }
    };
}

id_type!(
    /// A person's public id (never their device's secret): what seats, records and ratings name.
    IdentityId
);
id_type!(
    /// A room's code, as in its invitation link `/r/<code>`.
    RoomCode
);
id_type!(
    /// A game's id, as in `/api/games/<id>`.
    GameId
);

/// A WebSocket connection's number, unique on this node while it runs: what a room and the
/// matchmaker know a connection by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ConnectionId(u64);

impl ConnectionId {
    /// The next connection's number, from this node's count of connections so far.
    pub fn next(count: &AtomicU64) -> ConnectionId {
        ConnectionId(count.fetch_add(1, Ordering::Relaxed))
    }
}

impl std::fmt::Display for ConnectionId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Letters and digits that cannot be mistaken for one another when read aloud or typed.
const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";

impl RoomCode {
    /// A new room's code: 13 characters (64 bits), too many to guess.
    pub fn random() -> RoomCode {
        RoomCode(random_code(13))
    }
}

impl GameId {
    /// A new game's id: 12 characters, unguessable.
    pub fn random() -> GameId {
        GameId(random_code(12))
    }
}

/// `len` characters drawn from the operating system's cryptographic generator.
pub fn random_code(len: usize) -> String {
    // Rejection sampling keeps every character equally likely.
    let limit = 256 - 256 % ALPHABET.len();
    let mut code = String::with_capacity(len);
    while code.len() < len {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes).expect("the operating system gives random bytes");
        for byte in bytes {
            if usize::from(byte) < limit && code.len() < len {
                code.push(char::from(ALPHABET[usize::from(byte) % ALPHABET.len()]));
            }
        }
    }
    code
}

/// 32 random bytes for a game's dice seed.
pub fn random_seed() -> [u8; 32] {
    let mut seed = [0u8; 32];
    getrandom::fill(&mut seed).expect("the operating system gives random bytes");
    seed
}

/// The stored form of a device secret: its SHA-256, as hex.
pub fn secret_hash(secret: &str) -> String {
    Sha256::digest(secret.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_have_the_asked_length_and_only_clear_characters() {
        let code = random_code(10);
        assert_eq!(code.len(), 10);
        assert!(code.bytes().all(|b| ALPHABET.contains(&b)));
        assert_ne!(random_code(10), random_code(10));
    }

    #[test]
    fn secrets_are_stored_as_their_hash() {
        assert_eq!(
            secret_hash("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
