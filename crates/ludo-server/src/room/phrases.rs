//! Quick phrases: a known id, within each person's allowance; time is an input, so the
//! allowance is tested here without waiting.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use crate::ids::IdentityId;
use crate::protocol::{PHRASES, Refusal, RefusalCode};

/// How many quick phrases a person may send at once, and how often after that: a burst of
/// [`Allowance::BURST`], then one each [`Allowance::EVERY`].
pub struct Allowance {
    tokens: f64,
    at: Instant,
}

impl Allowance {
    /// Phrases at once.
    pub const BURST: f64 = 3.0;
    /// Then one each.
    pub const EVERY: Duration = Duration::from_secs(3);

    fn full(now: Instant) -> Allowance {
        Allowance {
            tokens: Self::BURST,
            at: now,
        }
    }

    /// Takes one phrase from the allowance, if there is one left.
    fn take(&mut self, now: Instant) -> bool {
        let earned = now.duration_since(self.at).as_secs_f64() / Self::EVERY.as_secs_f64();
        self.tokens = (self.tokens + earned).min(Self::BURST);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// Takes a phrase `phrase` from `identity`'s allowance at `now`: its id, or `no_such_phrase`
/// for an unknown id and `rate_limited` past the allowance (neither uses the allowance up).
pub fn allow(
    allowances: &mut HashMap<IdentityId, Allowance>,
    identity: &IdentityId,
    phrase: &str,
    now: Instant,
) -> Result<&'static str, Refusal> {
    let phrase = *PHRASES
        .iter()
        .find(|&&p| p == phrase)
        .ok_or_else(|| Refusal::new(RefusalCode::NoSuchPhrase, format!("no phrase {phrase:?}")))?;
    let allowed = allowances
        .entry(identity.clone())
        .or_insert_with(|| Allowance::full(now))
        .take(now);
    if allowed {
        Ok(phrase)
    } else {
        Err(Refusal::new(
            RefusalCode::RateLimited,
            "too many phrases; wait a few seconds",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_phrases_go_at_once_then_one_every_three_seconds_each() {
        let (mut allowances, start) = (HashMap::new(), Instant::now());
        let (ana, bo) = (IdentityId::from("ana"), IdentityId::from("bo"));
        let phrase = PHRASES[0];
        for _ in 0..3 {
            assert_eq!(allow(&mut allowances, &ana, phrase, start).unwrap(), phrase);
        }
        let refused = allow(&mut allowances, &ana, phrase, start).unwrap_err();
        assert_eq!(refused.code.as_str(), "rate_limited");
        assert!(
            allow(&mut allowances, &bo, phrase, start).is_ok(),
            "each their own"
        );
        let later = start + Duration::from_secs(3);
        assert!(allow(&mut allowances, &ana, phrase, later).is_ok());
        assert!(allow(&mut allowances, &ana, phrase, later).is_err());
    }

    #[test]
    fn an_unknown_phrase_is_refused_and_costs_nothing() {
        let (mut allowances, now) = (HashMap::new(), Instant::now());
        let ana = IdentityId::from("ana");
        let refused = allow(&mut allowances, &ana, "you are bad", now).unwrap_err();
        assert_eq!(refused.code.as_str(), "no_such_phrase");
        for _ in 0..3 {
            assert!(allow(&mut allowances, &ana, PHRASES[1], now).is_ok());
        }
    }
}
