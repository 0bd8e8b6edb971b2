//! The secret behind a game's dice, its public commitment, and the throws derived from it.

use std::fmt;

use hmac::{Hmac, KeyInit, Mac};
use ludo_rules::Throw;
use sha2::{Digest, Sha256};

/// A game's secret dice seed: 32 bytes, written as 64 hex digits.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Seed([u8; 32]);

/// A seed that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeedError(String);

impl fmt::Display for SeedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SeedError {}

impl fmt::Debug for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The seed is a secret until the game ends: never print it by accident.
        f.write_str("Seed(…)")
    }
}

impl Seed {
    /// A seed from 32 bytes (drawn from a cryptographic generator by whoever makes games).
    pub const fn from_bytes(bytes: [u8; 32]) -> Seed {
        Seed(bytes)
    }

    /// Reads 64 hex digits.
    ///
    /// # Errors
    /// When the text is not 64 hex digits.
    pub fn from_hex(hex: &str) -> Result<Seed, SeedError> {
        let bytes = decode_hex(hex)
            .filter(|b| b.len() == 32)
            .ok_or_else(|| SeedError(format!("a seed is 64 hex digits, not `{hex}`")))?;
        let mut seed = [0; 32];
        seed.copy_from_slice(&bytes);
        Ok(Seed(seed))
    }

    /// The seed as 64 hex digits (reveal it only when the game is over).
    pub fn to_hex(&self) -> String {
        encode_hex(&self.0)
    }

    /// The public commitment: the SHA-256 of the seed's 32 bytes, as 64 hex digits.
    pub fn commitment(&self) -> String {
        encode_hex(&Sha256::digest(self.0))
    }

    /// Throw number `number` of game `game_id`: `dice` dice (1 or 2).
    pub fn throw(&self, game_id: &str, number: u64, dice: u8) -> Throw {
        let mut faces = [0u8; 2];
        let mut found = 0;
        let mut extra = 0u64;
        while found < usize::from(dice) {
            let message = if extra == 0 {
                format!("{game_id}:{number}")
            } else {
                format!("{game_id}:{number}:{extra}")
            };
            let mut mac =
                Hmac::<Sha256>::new_from_slice(&self.0).expect("HMAC takes a key of any length");
            mac.update(message.as_bytes());
            for byte in mac.finalize().into_bytes() {
                if byte < 252 && found < usize::from(dice) {
                    faces[found] = byte % 6 + 1;
                    found += 1;
                }
            }
            extra += 1;
        }
        Throw::new(&faces[..usize::from(dice)]).expect("faces are 1..=6")
    }
}

fn encode_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn decode_hex(hex: &str) -> Option<Vec<u8>> {
    if hex.len() % 2 != 0 || !hex.is_ascii() {
        return None;
    }
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_commitment_is_the_sha256_of_the_seed() {
        // SHA-256 of 32 zero bytes.
        let zero = Seed::from_bytes([0; 32]);
        assert_eq!(
            zero.commitment(),
            "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
        );
    }

    #[test]
    fn seeds_read_back_from_hex_and_refuse_anything_else() {
        let seed = Seed::from_bytes([0xab; 32]);
        assert_eq!(Seed::from_hex(&seed.to_hex()), Ok(seed));
        assert!(Seed::from_hex("abc").is_err());
        assert!(Seed::from_hex(&"zz".repeat(32)).is_err());
        assert!(Seed::from_hex(&"ab".repeat(31)).is_err());
    }

    #[test]
    fn a_seed_never_shows_in_debug_output() {
        assert_eq!(format!("{:?}", Seed::from_bytes([1; 32])), "Seed(…)");
    }

    #[test]
    fn throws_are_reproducible_and_differ_by_game_and_number() {
        let seed = Seed::from_bytes([9; 32]);
        let sequence =
            |id: &str| -> Vec<u8> { (0..40).map(|n| seed.throw(id, n, 1).count()).collect() };
        assert_eq!(sequence("a"), sequence("a"));
        assert_ne!(sequence("a"), sequence("b"));
        assert_eq!(seed.throw("a", 3, 2).dice(), 2);
    }

    #[test]
    fn every_face_is_equally_likely_within_sampling_error() {
        let seed = Seed::from_bytes([3; 32]);
        let mut counts = [0u32; 6];
        let n = 60_000;
        for i in 0..n {
            counts[usize::from(seed.throw("fair", i, 1).count()) - 1] += 1;
        }
        // 10,000 expected per face, standard deviation about 91: six sigmas is 547.
        for c in counts {
            assert!((9_453..=10_547).contains(&c), "{counts:?}");
        }
    }
}
