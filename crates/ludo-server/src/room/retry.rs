//! What a room does when storage fails: it waits longer after each failure before trying again
//! (doubling, capped), and says so in the log at most once per interval, with how many failures
//! there were. When a write succeeds again, everything goes back to normal.

use std::time::{Duration, Instant};

/// The first wait after a failure.
const FIRST_WAIT: Duration = Duration::from_millis(100);
/// The longest wait between two attempts.
const LONGEST_WAIT: Duration = Duration::from_secs(10);
/// At most one log line per this interval while storage keeps failing.
pub const LOG_INTERVAL: Duration = Duration::from_secs(30);

/// A room's record of storage failures since the last success.
#[derive(Debug, Default)]
pub struct Backoff {
    /// Failures in a row.
    failures: u32,
    /// No automatic action before this.
    until: Option<Instant>,
    /// When a failure was last logged.
    logged_at: Option<Instant>,
    /// Failures since the last log line.
    unlogged: u64,
}

impl Backoff {
    /// Notes a failure at `now`: the next attempt waits twice as long as the last (from 100 ms
    /// up to 10 s). Returns the number of failures to log if a line is due, else `None`.
    pub fn failed(&mut self, now: Instant) -> Option<u64> {
        let wait = FIRST_WAIT
            .saturating_mul(1 << self.failures.min(16))
            .min(LONGEST_WAIT);
        self.failures = self.failures.saturating_add(1);
        self.until = Some(now + wait);
        self.unlogged += 1;
        let due = self
            .logged_at
            .is_none_or(|at| now.duration_since(at) >= LOG_INTERVAL);
        due.then(|| {
            self.logged_at = Some(now);
            std::mem::take(&mut self.unlogged)
        })
    }

    /// Notes a success: no more waiting. Returns how many failures went unlogged, if any.
    pub fn succeeded(&mut self) -> Option<u64> {
        self.failures = 0;
        self.until = None;
        self.logged_at = None;
        let unlogged = std::mem::take(&mut self.unlogged);
        (unlogged > 0).then_some(unlogged)
    }

    /// When the room may try again, if it is waiting.
    pub fn until(&self) -> Option<Instant> {
        self.until
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_failure_doubles_the_wait_up_to_ten_seconds() {
        let (mut backoff, now) = (Backoff::default(), Instant::now());
        let waits: Vec<Duration> = (0..10)
            .map(|_| {
                backoff.failed(now);
                backoff.until().unwrap() - now
            })
            .collect();
        assert_eq!(waits[0], Duration::from_millis(100));
        assert_eq!(waits[1], Duration::from_millis(200));
        assert_eq!(waits[6], Duration::from_millis(6400));
        assert_eq!(waits[7], Duration::from_secs(10));
        assert_eq!(waits[9], Duration::from_secs(10));
    }

    #[test]
    fn failures_are_logged_once_per_interval_with_their_count() {
        let (mut backoff, start) = (Backoff::default(), Instant::now());
        assert_eq!(
            backoff.failed(start),
            Some(1),
            "the first is logged at once"
        );
        for second in 1..30 {
            assert_eq!(backoff.failed(start + Duration::from_secs(second)), None);
        }
        assert_eq!(backoff.failed(start + LOG_INTERVAL), Some(30));
        backoff.failed(start + LOG_INTERVAL + Duration::from_secs(1));
        assert_eq!(backoff.succeeded(), Some(1), "what was not logged yet");
        assert_eq!(backoff.until(), None);
        assert_eq!(backoff.failed(start + LOG_INTERVAL * 3), Some(1));
    }
}
