//! Unguessable ids: room codes, game ids, identity ids; and device secrets turned into hashes.

use sha2::{Digest, Sha256};

/// Letters and digits that cannot be mistaken for one another when read aloud or typed.
const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";

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
