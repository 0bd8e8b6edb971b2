//! The server's counters, read by `/metrics`: connections, messages, the rooms' actions and
//! failures, and what forgetting removed.

use std::sync::atomic::AtomicU64;

/// Counters for `/metrics`.
#[derive(Default)]
pub struct Metrics {
    /// Open WebSocket connections.
    pub connections: AtomicU64,
    /// Messages received from clients.
    pub messages: AtomicU64,
    /// Requests refused at the connection (bad messages, sizes, rates).
    pub refusals: AtomicU64,
    /// Game actions accepted (throws and moves), stored and broadcast.
    pub actions: AtomicU64,
    /// Writes that failed (each refused with `internal`, or retried later by the CPU).
    pub storage_failures: AtomicU64,
    /// Rooms that failed (panicked) and were stopped alone.
    pub room_failures: AtomicU64,
    /// Identities forgotten (seen at no table and in no game).
    pub forgotten_identities: AtomicU64,
    /// Rooms forgotten (no game being played, unchanged for the period).
    pub forgotten_rooms: AtomicU64,
}
