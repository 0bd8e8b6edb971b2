//! Per-address limits on what is cheap to ask and dear to serve: creating rooms and looking for
//! ranked games. Each address has a bucket per kind (governor's keyed rate limiter, GCRA), refilled
//! evenly over a minute; a request with an empty bucket is refused with `rate_limited`. Buckets of
//! addresses not seen for a while are forgotten, so the table stays small.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU32, Ordering};

use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

/// Forget idle addresses once per this many checks.
const FORGET_EVERY: u32 = 1024;

/// The limits for every address.
pub struct PerAddress {
    rooms: DefaultKeyedRateLimiter<IpAddr>,
    seeks: DefaultKeyedRateLimiter<IpAddr>,
    checks: AtomicU32,
}

/// What is limited.
#[derive(Clone, Copy, Debug)]
pub enum Ask {
    /// Creating a room.
    Room,
    /// Starting to look for a ranked game.
    Seek,
}

impl PerAddress {
    /// `rooms` room creations and `seeks` ranked searches per minute and address (at least one).
    pub fn new(rooms: u32, seeks: u32) -> PerAddress {
        let per_minute =
            |n: u32| Quota::per_minute(NonZeroU32::new(n.max(1)).expect("at least one"));
        PerAddress {
            rooms: RateLimiter::keyed(per_minute(rooms)),
            seeks: RateLimiter::keyed(per_minute(seeks)),
            checks: AtomicU32::new(0),
        }
    }

    /// Whether `address` may ask for this now (and counts it if so).
    pub fn allows(&self, ask: Ask, address: IpAddr) -> bool {
        let limiter = match ask {
            Ask::Room => &self.rooms,
            Ask::Seek => &self.seeks,
        };
        if self.checks.fetch_add(1, Ordering::Relaxed) % FORGET_EVERY == FORGET_EVERY - 1 {
            self.rooms.retain_recent();
            self.seeks.retain_recent();
        }
        limiter.check_key(&address).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_address_has_its_own_bucket_for_each_kind() {
        let limits = PerAddress::new(2, 1);
        let (a, b) = (IpAddr::from([192, 0, 2, 1]), IpAddr::from([192, 0, 2, 2]));
        assert!(limits.allows(Ask::Room, a));
        assert!(limits.allows(Ask::Room, a));
        assert!(!limits.allows(Ask::Room, a), "the third within a minute");
        assert!(limits.allows(Ask::Room, b), "another address");
        assert!(limits.allows(Ask::Seek, a), "another kind");
        assert!(!limits.allows(Ask::Seek, a));
    }
}
