//! People matched to a ranked table who never came to it. Each time it happens they wait longer
//! before they may look for a ranked game again: [`FIRST_PAUSE`], doubling with each no-show,
//! at most [`LONGEST_PAUSE`]; a day without one starts the count again. Otherwise one person
//! could cancel table after table of others by seeking and walking away, at no cost.
//!
//! Kept in memory, by each node for the tables it served: a restart forgets them.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::ids::IdentityId;

/// The wait after a first no-show.
pub const FIRST_PAUSE: Duration = Duration::from_secs(30);
/// The longest wait.
pub const LONGEST_PAUSE: Duration = Duration::from_secs(30 * 60);
/// How long after the last no-show the count starts again.
pub const FORGIVEN_AFTER: Duration = Duration::from_secs(24 * 60 * 60);

/// The no-shows of the tables this node served. Cheap to clone: clones share the record.
#[derive(Clone, Default)]
pub struct NoShows {
    record: Arc<Mutex<HashMap<IdentityId, Missed>>>,
}

/// One person's no-shows: how many in a row, and when the last was.
#[derive(Clone, Copy)]
struct Missed {
    count: u32,
    last: Instant,
}

impl Missed {
    fn pause(self) -> Duration {
        let doublings = self.count.saturating_sub(1).min(16);
        FIRST_PAUSE
            .saturating_mul(1 << doublings)
            .min(LONGEST_PAUSE)
    }
}

impl NoShows {
    fn record(&self) -> std::sync::MutexGuard<'_, HashMap<IdentityId, Missed>> {
        self.record
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// `who` did not come to the table they were matched to, at `now`.
    pub fn missed(&self, who: &IdentityId, now: Instant) {
        let mut record = self.record();
        record.retain(|_, m| now.saturating_duration_since(m.last) < FORGIVEN_AFTER);
        let missed = record.entry(who.clone()).or_insert(Missed {
            count: 0,
            last: now,
        });
        missed.count += 1;
        missed.last = now;
    }

    /// How long `who` must still wait, at `now`, before looking for a ranked game; `None` if
    /// they may look now.
    pub fn wait_left(&self, who: &IdentityId, now: Instant) -> Option<Duration> {
        let missed = *self.record().get(who)?;
        let until = missed.last + missed.pause();
        (now < until).then(|| until - now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_no_show_doubles_the_wait_up_to_half_an_hour_and_a_day_forgives() {
        let (no_shows, start) = (NoShows::default(), Instant::now());
        let (ana, bo) = (IdentityId::from("ana"), IdentityId::from("bo"));
        assert_eq!(no_shows.wait_left(&ana, start), None);
        no_shows.missed(&ana, start);
        assert_eq!(no_shows.wait_left(&ana, start), Some(FIRST_PAUSE));
        assert_eq!(no_shows.wait_left(&bo, start), None, "each their own");
        assert_eq!(no_shows.wait_left(&ana, start + FIRST_PAUSE), None);
        let again = start + Duration::from_secs(60);
        no_shows.missed(&ana, again);
        assert_eq!(no_shows.wait_left(&ana, again), Some(2 * FIRST_PAUSE));
        let mut now = again;
        for _ in 0..10 {
            now += Duration::from_secs(1);
            no_shows.missed(&ana, now);
        }
        assert_eq!(no_shows.wait_left(&ana, now), Some(LONGEST_PAUSE));
        let next_day = now + FORGIVEN_AFTER;
        no_shows.missed(&ana, next_day);
        assert_eq!(no_shows.wait_left(&ana, next_day), Some(FIRST_PAUSE));
    }
}
