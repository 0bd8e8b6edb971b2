//! CPU players.
