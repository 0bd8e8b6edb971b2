//! Per-address limits on what is cheap to ask and dear to serve: creating rooms and identities,
//! looking for ranked games, and trying room codes. Each address has a bucket per kind
//! (governor's keyed rate limiter, GCRA), refilled evenly over a minute; a request with an empty
//! bucket is refused with `rate_limited`. Buckets of addresses not seen for a while are
//! forgotten, so the table stays small.
//!
//! Room codes are limited by the guesses that miss: looking up a room that exists costs nothing,
//! but an address whose misses empty its bucket may look up no room at all, found or not, for
//! [`GUESSING_PAUSE`], so that a guesser cannot tell a hit from a refusal.

use std::collections::HashMap;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

/// Forget idle addresses once per this many checks.
const FORGET_EVERY: u32 = 1024;

/// How long an address that guessed too many room codes may look up none.
pub const GUESSING_PAUSE: Duration = Duration::from_secs(60);

/// How many of each a single address may ask for per minute (bursts of as many; at least one).
#[derive(Clone, Copy, Debug)]
pub struct PerMinute {
    /// Rooms created.
    pub rooms: u32,
    /// Ranked searches started.
    pub seeks: u32,
    /// New identities (devices never seen before) made.
    pub identities: u32,
    /// Room codes looked up that name no room.
    pub missed_codes: u32,
    /// Connections open to one room at once (not per minute).
    pub connections_per_room: usize,
}

/// The limits for every address.
pub struct PerAddress {
    rooms: DefaultKeyedRateLimiter<IpAddr>,
    seeks: DefaultKeyedRateLimiter<IpAddr>,
    identities: DefaultKeyedRateLimiter<IpAddr>,
    missed_codes: DefaultKeyedRateLimiter<IpAddr>,
    /// Addresses that may look up no room until the time given.
    guessing: Mutex<HashMap<IpAddr, Instant>>,
    /// The connections open to each room from each address.
    in_rooms: Arc<Mutex<HashMap<(String, IpAddr), usize>>>,
    connections_per_room: usize,
    checks: AtomicU32,
}

/// A connection's place in a room, counted against its address until it is dropped.
pub struct RoomPass {
    in_rooms: Arc<Mutex<HashMap<(String, IpAddr), usize>>>,
    key: (String, IpAddr),
}

impl Drop for RoomPass {
    fn drop(&mut self) {
        let mut in_rooms = self
            .in_rooms
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(count) = in_rooms.get_mut(&self.key) {
            *count -= 1;
            if *count == 0 {
                in_rooms.remove(&self.key);
            }
        }
    }
}

/// What is limited.
#[derive(Clone, Copy, Debug)]
pub enum Ask {
    /// Creating a room.
    Room,
    /// Starting to look for a ranked game.
    Seek,
    /// Making an identity for a device never seen before.
    Identity,
}

impl PerAddress {
    /// The limits, per minute and address.
    pub fn new(limits: PerMinute) -> PerAddress {
        let per_minute = |n: u32| {
            RateLimiter::keyed(Quota::per_minute(
                NonZeroU32::new(n.max(1)).expect("at least one"),
            ))
        };
        PerAddress {
            rooms: per_minute(limits.rooms),
            seeks: per_minute(limits.seeks),
            identities: per_minute(limits.identities),
            missed_codes: per_minute(limits.missed_codes),
            guessing: Mutex::new(HashMap::new()),
            in_rooms: Arc::default(),
            connections_per_room: limits.connections_per_room,
            checks: AtomicU32::new(0),
        }
    }

    /// Whether `address` may ask for this now (and counts it if so).
    pub fn allows(&self, ask: Ask, address: IpAddr) -> bool {
        let limiter = match ask {
            Ask::Room => &self.rooms,
            Ask::Seek => &self.seeks,
            Ask::Identity => &self.identities,
        };
        self.now_and_then_forget();
        limiter.check_key(&address).is_ok()
    }

    /// Whether `address` may look up a room code now: not while it is paused for guessing.
    pub fn may_look_up(&self, address: IpAddr, now: Instant) -> bool {
        let mut guessing = self.guessing.lock().expect("never poisoned");
        match guessing.get(&address) {
            Some(&until) if now < until => false,
            Some(_) => {
                guessing.remove(&address);
                true
            }
            None => true,
        }
    }

    /// A place in room `code` for a connection from `address`, or `None` if the address already
    /// has as many connections open to it as it may.
    pub fn enter_room(&self, code: &str, address: IpAddr) -> Option<RoomPass> {
        let key = (code.to_owned(), address);
        let mut in_rooms = self
            .in_rooms
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let count = in_rooms.entry(key.clone()).or_default();
        if *count >= self.connections_per_room {
            return None;
        }
        *count += 1;
        Some(RoomPass {
            in_rooms: self.in_rooms.clone(),
            key,
        })
    }

    /// `address` looked up a room code that names no room: counted, and once its bucket is
    /// empty the address is paused for [`GUESSING_PAUSE`] from `now`.
    pub fn missed_code(&self, address: IpAddr, now: Instant) {
        self.now_and_then_forget();
        if self.missed_codes.check_key(&address).is_err() {
            let mut guessing = self.guessing.lock().expect("never poisoned");
            guessing.insert(address, now + GUESSING_PAUSE);
        }
    }

    /// Every [`FORGET_EVERY`] checks, forgets the addresses whose buckets are full again and
    /// whose pause is over.
    fn now_and_then_forget(&self) {
        if self.checks.fetch_add(1, Ordering::Relaxed) % FORGET_EVERY != FORGET_EVERY - 1 {
            return;
        }
        for limiter in [
            &self.rooms,
            &self.seeks,
            &self.identities,
            &self.missed_codes,
        ] {
            limiter.retain_recent();
        }
        let now = Instant::now();
        let mut guessing = self.guessing.lock().expect("never poisoned");
        guessing.retain(|_, until| *until > now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(rooms: u32, seeks: u32) -> PerAddress {
        PerAddress::new(PerMinute {
            rooms,
            seeks,
            identities: 2,
            missed_codes: 2,
            connections_per_room: 8,
        })
    }

    #[test]
    fn each_address_has_its_own_bucket_for_each_kind() {
        let limits = limits(2, 1);
        let (a, b) = (IpAddr::from([192, 0, 2, 1]), IpAddr::from([192, 0, 2, 2]));
        assert!(limits.allows(Ask::Room, a));
        assert!(limits.allows(Ask::Room, a));
        assert!(!limits.allows(Ask::Room, a), "the third within a minute");
        assert!(limits.allows(Ask::Room, b), "another address");
        assert!(limits.allows(Ask::Seek, a), "another kind");
        assert!(!limits.allows(Ask::Seek, a));
        assert!(limits.allows(Ask::Identity, a));
        assert!(limits.allows(Ask::Identity, a));
        assert!(!limits.allows(Ask::Identity, a));
    }

    #[test]
    fn one_address_holds_only_so_many_connections_to_one_room_until_one_closes() {
        let limits = limits(1, 1);
        let (a, b) = (IpAddr::from([192, 0, 2, 1]), IpAddr::from([192, 0, 2, 2]));
        let mut passes: Vec<RoomPass> = (0..8)
            .map(|_| limits.enter_room("room", a).expect("within the limit"))
            .collect();
        assert!(limits.enter_room("room", a).is_none());
        assert!(limits.enter_room("other", a).is_some(), "another room");
        assert!(limits.enter_room("room", b).is_some(), "another address");
        passes.pop();
        assert!(limits.enter_room("room", a).is_some(), "one closed");
    }

    #[test]
    fn an_address_that_misses_too_many_codes_may_look_up_none_for_a_while() {
        let limits = limits(1, 1);
        let (a, b) = (IpAddr::from([192, 0, 2, 1]), IpAddr::from([192, 0, 2, 2]));
        let now = Instant::now();
        limits.missed_code(a, now);
        limits.missed_code(a, now);
        assert!(
            limits.may_look_up(a, now),
            "two misses are within the bucket"
        );
        limits.missed_code(a, now);
        assert!(!limits.may_look_up(a, now), "the third empties it");
        assert!(limits.may_look_up(b, now), "another address");
        assert!(!limits.may_look_up(a, now + GUESSING_PAUSE - Duration::from_secs(1)));
        assert!(limits.may_look_up(a, now + GUESSING_PAUSE));
    }
}
