//! Provably fair dice and game records.
//!
//! Before a game the server draws a secret 32-byte [`Seed`] and publishes its
//! [`Seed::commitment`], the SHA-256 of the seed. Throw number `n` (0, 1, 2… over the whole
//! game, roll-off included) of game `id` is derived from
//! `HMAC-SHA256(key = seed, message = "<id>:<n>")`: its bytes are read in order, a byte below 252
//! gives the face `byte mod 6 + 1` and a byte of 252 or more is skipped, so every face has the
//! same chance (no modulo bias). Should all 32 bytes be skipped, the message `"<id>:<n>:<k>"`
//! gives 32 more, for k = 1, 2… When the game ends the seed is revealed, and anyone can recompute
//! every throw of its [`Record`] and check it against the commitment with [`Record::verify`].
//!
//! ```
//! use ludo_fair::Seed;
//!
//! let seed = Seed::from_bytes([7; 32]);
//! let throw = seed.throw("g1", 0, 2);
//! assert_eq!(throw, seed.throw("g1", 0, 2)); // the same inputs, the same dice
//! assert_eq!(seed.commitment().len(), 64); // hex SHA-256
//! ```

mod record;
mod seed;

pub use record::{Action, Record, VerifyError};
pub use seed::{Seed, SeedError};
