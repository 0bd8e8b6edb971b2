//! Quick phrases: a known id, within the speaker's allowances; time is an input, so the
//! allowances are tested here without waiting.
//!
//! Everyone has an allowance of their own. A watcher's phrase also takes from their network
//! address's allowance and from one the room's watchers share, so that many watchers, or many
//! identities from one address, cannot drown a table in chatter; the people seated are limited
//! by their own allowance only.

use std::collections::HashMap;
use std::net::IpAddr;
use std::time::{Duration, Instant};

use crate::ids::IdentityId;
use crate::protocol::{PHRASES, Refusal, RefusalCode};

/// A bucket of phrases: a burst, then one each so often.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Allowance {
    tokens: f64,
    at: Instant,
    burst: f64,
    every: Duration,
}

/// A person's (and a watcher's address's) allowance: 3 at once, then one each 3 s.
pub const EACH: (f64, Duration) = (3.0, Duration::from_secs(3));
/// The allowance a room's watchers share: 6 at once, then one each 2 s.
pub const WATCHERS: (f64, Duration) = (6.0, Duration::from_secs(2));

impl Allowance {
    fn full((burst, every): (f64, Duration), now: Instant) -> Allowance {
        Allowance {
            tokens: burst,
            at: now,
            burst,
            every,
        }
    }

    /// Whether a phrase is left at `now` (refilling first).
    fn has_one(&mut self, now: Instant) -> bool {
        let earned =
            now.saturating_duration_since(self.at).as_secs_f64() / self.every.as_secs_f64();
        self.tokens = (self.tokens + earned).min(self.burst);
        self.at = now;
        self.tokens >= 1.0
    }

    fn take(&mut self) {
        self.tokens -= 1.0;
    }
}

/// Who speaks: a person seated at the table, or a watcher from an address.
#[derive(Clone, Copy, Debug)]
pub enum Speaker<'a> {
    /// Seated (at the table or in the game).
    Seated(&'a IdentityId),
    /// Watching, connected from this address.
    Watching(&'a IdentityId, IpAddr),
}

/// A room's allowances of quick phrases.
#[derive(Clone, Debug, PartialEq)]
pub struct Allowances {
    people: HashMap<IdentityId, Allowance>,
    addresses: HashMap<IpAddr, Allowance>,
    watchers: Allowance,
}

impl Allowances {
    /// Everyone's allowances full, at `now`.
    pub fn new(now: Instant) -> Allowances {
        Allowances {
            people: HashMap::new(),
            addresses: HashMap::new(),
            watchers: Allowance::full(WATCHERS, now),
        }
    }

    /// Takes a phrase `phrase` from `speaker`'s allowances at `now`: its id, or `no_such_phrase`
    /// for an unknown id and `rate_limited` past any of them (neither uses any allowance up).
    pub fn allow(
        &mut self,
        speaker: Speaker<'_>,
        phrase: &str,
        now: Instant,
    ) -> Result<&'static str, Refusal> {
        let phrase = *PHRASES.iter().find(|&&p| p == phrase).ok_or_else(|| {
            Refusal::new(RefusalCode::NoSuchPhrase, format!("no phrase {phrase:?}"))
        })?;
        let (identity, address) = match speaker {
            Speaker::Seated(identity) => (identity, None),
            Speaker::Watching(identity, address) => (identity, Some(address)),
        };
        let own = self
            .people
            .entry(identity.clone())
            .or_insert_with(|| Allowance::full(EACH, now));
        let mut buckets = vec![own];
        if let Some(address) = address {
            buckets.push(
                self.addresses
                    .entry(address)
                    .or_insert_with(|| Allowance::full(EACH, now)),
            );
            buckets.push(&mut self.watchers);
        }
        // Every bucket is asked before any is taken from (one not asked earns its refill the
        // next time it is).
        if !buckets.iter_mut().all(|bucket| bucket.has_one(now)) {
            return Err(Refusal::new(
                RefusalCode::RateLimited,
                "too many phrases; wait a few seconds",
            ));
        }
        buckets.into_iter().for_each(Allowance::take);
        Ok(phrase)
    }
}

/// A quick phrase said, as everyone is shown it.
#[derive(Clone, Debug, PartialEq)]
pub struct Said {
    /// Who said it.
    pub from: IdentityId,
    /// The name they are connected under.
    pub name: String,
    /// Their seat, if seated.
    pub seat: Option<ludo_rules::Colour>,
    /// The phrase's id.
    pub phrase: &'static str,
    /// Whether it is chatter (a watcher's), dropped for whoever is behind.
    pub chatter: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn address(n: u8) -> IpAddr {
        IpAddr::from([192, 0, 2, n])
    }

    #[test]
    fn three_phrases_go_at_once_then_one_every_three_seconds_each() {
        let start = Instant::now();
        let mut allowances = Allowances::new(start);
        let (ana, bo) = (IdentityId::from("ana"), IdentityId::from("bo"));
        let phrase = PHRASES[0];
        for _ in 0..3 {
            assert_eq!(
                allowances
                    .allow(Speaker::Seated(&ana), phrase, start)
                    .unwrap(),
                phrase
            );
        }
        let refused = allowances
            .allow(Speaker::Seated(&ana), phrase, start)
            .unwrap_err();
        assert_eq!(refused.code.as_str(), "rate_limited");
        assert!(
            allowances
                .allow(Speaker::Seated(&bo), phrase, start)
                .is_ok(),
            "each their own"
        );
        let later = start + Duration::from_secs(3);
        assert!(
            allowances
                .allow(Speaker::Seated(&ana), phrase, later)
                .is_ok()
        );
        assert!(
            allowances
                .allow(Speaker::Seated(&ana), phrase, later)
                .is_err()
        );
    }

    #[test]
    fn an_unknown_phrase_is_refused_and_costs_nothing() {
        let now = Instant::now();
        let mut allowances = Allowances::new(now);
        let ana = IdentityId::from("ana");
        let refused = allowances
            .allow(Speaker::Seated(&ana), "you are bad", now)
            .unwrap_err();
        assert_eq!(refused.code.as_str(), "no_such_phrase");
        for _ in 0..3 {
            assert!(
                allowances
                    .allow(Speaker::Seated(&ana), PHRASES[1], now)
                    .is_ok()
            );
        }
    }

    #[test]
    fn watchers_share_their_address_and_the_rooms_allowance_and_the_seated_keep_theirs() {
        let now = Instant::now();
        let mut allowances = Allowances::new(now);
        let phrase = PHRASES[0];
        // Many identities from one address: three phrases between them.
        let from_one: Vec<IdentityId> = (0..10)
            .map(|i| IdentityId::from(format!("w{i}").as_str()))
            .collect();
        let said = from_one
            .iter()
            .filter(|w| {
                allowances
                    .allow(Speaker::Watching(w, address(1)), phrase, now)
                    .is_ok()
            })
            .count();
        assert_eq!(said, 3);
        // Watchers from many addresses: the room's six between them (three already said).
        let said = (2..20u8)
            .filter(|&n| {
                let w = IdentityId::from(format!("x{n}").as_str());
                allowances
                    .allow(Speaker::Watching(&w, address(n)), phrase, now)
                    .is_ok()
            })
            .count();
        assert_eq!(said, 3);
        // The people seated are not held back by the watchers.
        let ana = IdentityId::from("ana");
        for _ in 0..3 {
            assert!(allowances.allow(Speaker::Seated(&ana), phrase, now).is_ok());
        }
        // A refusal by the room's allowance takes nothing from the watcher's own.
        let late = IdentityId::from("late");
        assert!(
            allowances
                .allow(Speaker::Watching(&late, address(99)), phrase, now)
                .is_err()
        );
        let later = now + Duration::from_secs(2);
        assert!(
            allowances
                .allow(Speaker::Watching(&late, address(99)), phrase, later)
                .is_ok()
        );
    }
}
