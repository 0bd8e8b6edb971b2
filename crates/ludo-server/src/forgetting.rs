//! Forgetting what nobody uses: identities seen at no table and in no game, a day after they
//! were made, and rooms with no game being played, a month after their last change (both
//! periods are flags). A round runs on the storage thread a minute after start-up, then every
//! hour (see [`crate::store::Backend::forget`] for what each round keeps).
//!
//! What this node uses right now is never forgotten under it: the rooms in its memory or being
//! loaded (see [`crate::Rooms::with_rooms_in_use`]), and the identities its connections hold,
//! which each round marks seen so that no node forgets them for two rounds more.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::store::{Forgetting, Forgotten, StoreResult};
use crate::{Config, Metrics, Rooms};

/// The identities this node's connections hold, each with how many hold it.
#[derive(Clone, Default)]
pub struct IdentitiesInUse(Arc<Mutex<HashMap<String, usize>>>);

impl IdentitiesInUse {
    /// Holds `identity` until the hold is dropped.
    pub fn hold(&self, identity: &str) -> Held {
        *self.lock().entry(identity.to_owned()).or_default() += 1;
        Held {
            in_use: self.clone(),
            identity: identity.to_owned(),
        }
    }

    /// Every identity held now.
    pub fn all(&self) -> Vec<crate::ids::IdentityId> {
        self.lock().keys().map(|id| id.as_str().into()).collect()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, usize>> {
        // A plain map of counts, whole after any panic.
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// A connection's hold on its identity: let go when dropped.
pub struct Held {
    in_use: IdentitiesInUse,
    identity: String,
}

impl Drop for Held {
    fn drop(&mut self) {
        let mut held = self.in_use.lock();
        if let Some(count) = held.get_mut(&self.identity) {
            *count -= 1;
            if *count == 0 {
                held.remove(&self.identity);
            }
        }
    }
}

/// How long things are kept, and how often forgetting runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Periods {
    /// How long after it was made an identity seen at no table and in no game is forgotten;
    /// `None` keeps every identity.
    pub identities: Option<Duration>,
    /// How long after its last change a room with no game being played is forgotten; `None`
    /// keeps every room.
    pub rooms: Option<Duration>,
    /// How long between two rounds.
    pub every: Duration,
}

/// The most the first round waits after start-up.
const FIRST_ROUND_WITHIN: Duration = Duration::from_secs(60);

/// The most identities, and rooms, one storage job forgets: a tenth of a second or so of the
/// storage thread (deleting 495,000 identities at once took 4 s on a 2-core machine). A round
/// with more to forget runs one job after another, other work going between them.
const BATCH: u32 = 5_000;

/// A round's identities used within this many rounds are kept: each node marks its
/// connections' identities seen once a round, so one it holds is never older than that.
const SEEN_ROUNDS: u32 = 2;

impl Periods {
    /// The periods `config` gives (0 keeps everything of its kind).
    pub fn of(config: &Config) -> Periods {
        let hours = config.forget_identities_after_hours;
        let days = config.forget_rooms_after_days;
        Periods {
            identities: (hours > 0).then(|| Duration::from_secs(hours.saturating_mul(3600))),
            rooms: (days > 0).then(|| Duration::from_secs(days.saturating_mul(86_400))),
            every: Duration::try_from_secs_f64(config.forget_every_secs)
                .unwrap_or(Duration::from_secs(3600))
                .max(Duration::from_millis(10)),
        }
    }

    /// What a round at `now` (Unix milliseconds) forgets, keeping these identities in use.
    pub fn at(&self, now: i64, identities_in_use: Vec<crate::ids::IdentityId>) -> Forgetting {
        let before = |period: Duration| {
            now.saturating_sub(i64::try_from(period.as_millis()).unwrap_or(i64::MAX))
        };
        Forgetting {
            now,
            identities_made_before: self.identities.map(before),
            seen_before: before(self.every * SEEN_ROUNDS),
            rooms_updated_before: self.rooms.map(before),
            identities_in_use,
            rooms_in_use: Vec::new(),
            limit: BATCH,
        }
    }
}

/// Forgets what nobody uses once, now, a batch at a time: what was forgotten, counted in
/// `metrics` and logged.
///
/// # Errors
/// When storage fails (what earlier batches forgot stays forgotten, and counted).
pub async fn round(
    rooms: &Rooms,
    identities: &IdentitiesInUse,
    periods: Periods,
    metrics: &Metrics,
) -> StoreResult<Forgotten> {
    let mut what = periods.at(crate::ids::now_ms(), identities.all());
    let mut total = Forgotten::default();
    let outcome = loop {
        let batch = what.clone();
        let forgotten = rooms
            .with_rooms_in_use(move |backend, rooms_in_use| {
                backend.forget(&Forgetting {
                    rooms_in_use,
                    ..batch
                })
            })
            .await;
        let forgotten = match forgotten {
            Ok(forgotten) => forgotten,
            Err(error) => break Err(error),
        };
        metrics
            .forgotten_identities
            .fetch_add(forgotten.identities, Ordering::Relaxed);
        metrics
            .forgotten_rooms
            .fetch_add(forgotten.rooms, Ordering::Relaxed);
        total.identities += forgotten.identities;
        total.rooms += forgotten.rooms;
        let limit = u64::from(what.limit);
        if forgotten.identities < limit && forgotten.rooms < limit {
            break Ok(total);
        }
        // Marked seen once a round is enough.
        what.identities_in_use = Vec::new();
    };
    tracing::info!(
        identities = total.identities,
        rooms = total.rooms,
        "forgot what nobody used"
    );
    outcome
}

/// Until the server stops, runs a [`round`] shortly after start-up and then every
/// [`Periods::every`].
pub fn start(
    rooms: Rooms,
    identities: IdentitiesInUse,
    periods: Periods,
    metrics: Arc<Metrics>,
    mut stopping: tokio::sync::watch::Receiver<bool>,
) {
    if periods.identities.is_none() && periods.rooms.is_none() {
        return;
    }
    tokio::spawn(async move {
        let first = tokio::time::Instant::now() + periods.every.min(FIRST_ROUND_WITHIN);
        let mut rounds = tokio::time::interval_at(first, periods.every);
        rounds.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = rounds.tick() => {}
                _ = stopping.wait_for(|&stop| stop) => break,
            }
            if let Err(error) = round(&rooms, &identities, periods, &metrics).await {
                tracing::warn!(%error, "forgetting failed; trying again at the next round");
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_round_forgets_what_is_older_than_its_periods_and_keeps_two_rounds_of_use() {
        let periods = Periods {
            identities: Some(Duration::from_secs(24 * 3600)),
            rooms: Some(Duration::from_secs(30 * 86_400)),
            every: Duration::from_secs(3600),
        };
        let now = 100 * 86_400_000;
        let what = periods.at(now, vec!["ana".into()]);
        assert_eq!(what.identities_made_before, Some(now - 86_400_000));
        assert_eq!(what.seen_before, now - 2 * 3_600_000);
        assert_eq!(what.rooms_updated_before, Some(now - 30 * 86_400_000));
        assert_eq!(what.identities_in_use, ["ana"]);
    }

    #[test]
    fn a_period_of_zero_forgets_nothing_of_its_kind() {
        let mut config = Config::for_tests("ludo.db".into());
        assert_eq!(
            Periods::of(&config),
            Periods {
                identities: Some(Duration::from_secs(24 * 3600)),
                rooms: Some(Duration::from_secs(30 * 86_400)),
                every: Duration::from_secs(3600),
            }
        );
        config.forget_identities_after_hours = 0;
        config.forget_rooms_after_days = 0;
        let periods = Periods::of(&config);
        assert_eq!((periods.identities, periods.rooms), (None, None));
        let what = periods.at(1_000, Vec::new());
        assert_eq!(
            (what.identities_made_before, what.rooms_updated_before),
            (None, None)
        );
    }

    #[test]
    fn an_identity_is_held_until_its_last_connection_lets_go() {
        let in_use = IdentitiesInUse::default();
        let first = in_use.hold("ana");
        let second = in_use.hold("ana");
        let bo = in_use.hold("bo");
        drop(first);
        let mut held = in_use.all();
        held.sort();
        assert_eq!(held, ["ana", "bo"]);
        drop((second, bo));
        assert!(in_use.all().is_empty());
    }
}
