//! The wire protocol: every message between a browser and the server. `docs/protocol.md` lists
//! them with example JSON.
//!
//! - [`client`]: what a client sends ([`ClientMsg`], read with its request id as a [`Request`]);
//! - [`server`]: what the server sends ([`ServerMsg`]);
//! - [`views`]: the table and the game as everyone sees them;
//! - [`refusals`]: why a request was refused, as a stable code;
//! - [`levels`] and [`phrases`]: the words of the protocol's own vocabulary (CPU levels by
//!   name, quick phrases by id).
//!
//! The settings a table plays under, and the rules they follow, are the table's, not the wire's:
//! they live in `src/settings.rs` and are re-exported here, as the name policy is from
//! `src/names.rs`.

pub mod client;
pub mod levels;
pub mod phrases;
pub mod refusals;
pub mod server;
pub mod views;

pub use crate::names::{NAME_MAX_CHARS, check_name};
pub use crate::settings::{CLOCKS, RANKED_CLOCK, Settings, check_clock, clock_for, read_rules};
pub use client::{ClientMsg, Request, RequestId, SizeName};
pub use levels::LevelName;
pub use phrases::PHRASES;
pub use refusals::{EngineFault, REFUSAL_CODES, Refusal, RefusalCode};
pub use server::{ServerMsg, StandIn};
pub use views::{GameView, Occupant, RoomView, SeatView};

/// The largest message a client may send, in bytes.
pub const MAX_MESSAGE_BYTES: usize = 4096;
