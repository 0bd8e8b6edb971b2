//! When a room acts by itself, and for whom: a CPU seat's turn, a person away past the grace
//! period, a turn whose clock ran out, or a seat whose person left the game. Pure: the moments
//! come in as inputs (when the turn began, when each person went away, the storage backoff), so
//! every case is tested here without waiting; the actor only sleeps until [`Schedule::next`].

use std::collections::{BTreeSet, HashMap};
use std::time::{Duration, Instant};

use ludo_bots::Level;
use ludo_rules::Colour;

use super::Timing;
use super::live::Live;
use crate::protocol::{Occupant, StandIn};

/// The level that plays for a person who is away, out of time, or gone.
pub const STAND_IN: Level = Level::Medium;

/// A game being played, with what decides when it is played by itself.
pub struct Schedule<'a> {
    /// The game (not over).
    pub live: &'a Live,
    /// The seats whose person left the game.
    pub left: &'a BTreeSet<Colour>,
    /// When each seated person went away (absent: connected).
    pub away_since: &'a HashMap<crate::ids::IdentityId, Instant>,
    /// How rooms behave in time.
    pub timing: Timing,
    /// How long a turn may take, if the table has a clock.
    pub clock: Option<Duration>,
    /// After storage failures: no automatic action before this.
    pub storage_until: Option<Instant>,
}

impl Schedule<'_> {
    /// When the room acts by itself next, if it will: a CPU seat, a seat left, or the rest of a
    /// turn the CPU already plays, a CPU delay after the last action (no sooner than storage
    /// allows); a person's turn when the CPU starts standing in for them.
    pub fn next(&self) -> Option<Instant> {
        let live = self.live;
        let seat = live.game.seat();
        let after_last = live.last_action + self.timing.cpu_delay;
        let after_last = self
            .storage_until
            .map_or(after_last, |until| until.max(after_last));
        match live.players.get(&seat)? {
            Occupant::Cpu { .. } => Some(after_last),
            Occupant::Person { .. } if self.left.contains(&seat) => Some(after_last),
            Occupant::Person { .. } => match live.stand_in {
                Some(_) => Some(after_last),
                // Never sooner than a CPU's own pace, so that people can follow.
                None => self.stand_in_due().map(|(at, _)| at.max(after_last)),
            },
        }
    }

    /// When the CPU starts standing in for the person whose turn it is, and why, if it will.
    pub fn stand_in_due(&self) -> Option<(Instant, StandIn)> {
        let live = self.live;
        let Occupant::Person { id, .. } = live.players.get(&live.game.seat())? else {
            return None;
        };
        // One grace period from when the person went away: the turn they went away in (or the
        // first one after) waits for it; a turn that begins once it is over is played for them
        // at the CPU's pace, so that the others are not held up turn after turn.
        let away = self
            .away_since
            .get(id)
            .map(|&since| (since + self.timing.grace).max(live.turn_began));
        let clock = self.clock.map(|limit| live.turn_began + limit);
        first_due(away, clock)
    }

    /// Whether the CPU stands in for the seat's person by `now`, and why: it already plays the
    /// turn, or its time has come though it has not acted yet (from that moment the rest of the
    /// turn is the CPU's); the person left the game; or `None` while the person's turn is theirs.
    pub fn standing_in(&self, now: Instant) -> Option<StandIn> {
        self.standing_in_with(now, self.live.stand_in)
    }

    /// [`Schedule::standing_in`] for a game whose CPU already stands in for `current`.
    pub fn standing_in_with(&self, now: Instant, current: Option<StandIn>) -> Option<StandIn> {
        let live = self.live;
        let seat = live.game.seat();
        if !matches!(live.players.get(&seat)?, Occupant::Person { .. }) {
            return None;
        }
        if self.left.contains(&seat) {
            return Some(StandIn::Left);
        }
        current.or_else(|| {
            self.stand_in_due()
                .filter(|&(at, _)| at <= now)
                .map(|(_, why)| why)
        })
    }

    /// Who plays the seat to act when the room acts by itself: a CPU seat's own level, or the
    /// stand-in and why it plays (for the rest of the turn, the reason it began with); `None` when
    /// a person plays their own turn.
    pub fn player(&self) -> Option<(Level, Option<StandIn>)> {
        let live = self.live;
        let seat = live.game.seat();
        match live.players.get(&seat)? {
            Occupant::Cpu { level } => Some((level.0, None)),
            Occupant::Person { .. } if self.left.contains(&seat) => {
                Some((STAND_IN, Some(StandIn::Left)))
            }
            Occupant::Person { .. } => live
                .stand_in
                .or_else(|| self.stand_in_due().map(|(_, why)| why))
                .map(|why| (STAND_IN, Some(why))),
        }
    }
}

/// Whichever of a person's two stand-in times comes first, with its reason: `away` (the end of
/// the grace period of a person who is away) or `clock` (the turn clock's deadline). A tie
/// counts as `away`.
fn first_due(away: Option<Instant>, clock: Option<Instant>) -> Option<(Instant, StandIn)> {
    match (away, clock) {
        (Some(a), Some(c)) if c < a => Some((c, StandIn::Clock)),
        (Some(a), _) => Some((a, StandIn::Away)),
        (None, c) => c.map(|c| (c, StandIn::Clock)),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use ludo_rules::{Preset, Rules};

    use super::*;
    use crate::protocol::LevelName;

    const SECOND: Duration = Duration::from_secs(1);

    fn timing() -> Timing {
        Timing {
            cpu_delay: SECOND,
            grace: 8 * SECOND,
            clock_second: SECOND,
            idle: 600 * SECOND,
            arrival: 30 * SECOND,
            free_after: 60 * SECOND,
        }
    }

    /// A game with Ana (a person) at yellow, to play first, and an easy CPU at red.
    fn game() -> Live {
        let players = BTreeMap::from([
            (
                Colour::Yellow,
                Occupant::Person {
                    id: "ana".into(),
                    name: "Ana".to_owned(),
                },
            ),
            (
                Colour::Red,
                Occupant::Cpu {
                    level: LevelName(Level::Easy),
                },
            ),
        ]);
        let seats = vec![Colour::Yellow, Colour::Red];
        Live::start("ROOM", Rules::preset(Preset::Qdan), seats, players, false)
            .expect("a game starts")
            .0
    }

    fn schedule<'a>(
        live: &'a Live,
        left: &'a BTreeSet<Colour>,
        away: &'a HashMap<crate::ids::IdentityId, Instant>,
        clock: Option<Duration>,
    ) -> Schedule<'a> {
        Schedule {
            live,
            left,
            away_since: away,
            timing: timing(),
            clock,
            storage_until: None,
        }
    }

    #[test]
    fn the_stand_in_reason_is_whichever_time_comes_first_and_a_tie_counts_as_away() {
        let now = Instant::now();
        let later = now + SECOND;
        assert_eq!(first_due(None, None), None);
        assert_eq!(first_due(Some(now), None), Some((now, StandIn::Away)));
        assert_eq!(first_due(None, Some(now)), Some((now, StandIn::Clock)));
        assert_eq!(
            first_due(Some(now), Some(later)),
            Some((now, StandIn::Away))
        );
        assert_eq!(
            first_due(Some(later), Some(now)),
            Some((now, StandIn::Clock))
        );
        assert_eq!(first_due(Some(now), Some(now)), Some((now, StandIn::Away)));
    }

    #[test]
    fn a_person_here_without_a_clock_is_never_played_for() {
        let live = game();
        let (left, away) = (BTreeSet::new(), HashMap::new());
        let s = schedule(&live, &left, &away, None);
        assert_eq!(s.next(), None);
        assert_eq!(s.player(), None);
    }

    #[test]
    fn a_turn_clock_runs_from_the_start_of_the_turn() {
        let live = game();
        let (left, away) = (BTreeSet::new(), HashMap::new());
        let s = schedule(&live, &left, &away, Some(30 * SECOND));
        assert_eq!(s.next(), Some(live.turn_began + 30 * SECOND));
        assert_eq!(s.player(), Some((STAND_IN, Some(StandIn::Clock))));
    }

    #[test]
    fn a_person_away_is_played_for_once_one_grace_period_from_leaving_is_over() {
        let live = game();
        let left = BTreeSet::new();
        // Gone just before the turn began: the grace period runs on into the turn.
        let away = HashMap::from([("ana".into(), live.turn_began - 3 * SECOND)]);
        let s = schedule(&live, &left, &away, None);
        assert_eq!(s.next(), Some(live.turn_began + 5 * SECOND));
        assert_eq!(s.player(), Some((STAND_IN, Some(StandIn::Away))));
        // Gone long before: no new grace period on this turn, only the CPU's pace.
        let away = HashMap::from([("ana".into(), live.turn_began - 100 * SECOND)]);
        let s = schedule(&live, &left, &away, None);
        assert_eq!(s.next(), Some(live.last_action + SECOND));
        assert_eq!(s.player(), Some((STAND_IN, Some(StandIn::Away))));
        // Gone during the turn: from then.
        let away = HashMap::from([("ana".into(), live.turn_began + 5 * SECOND)]);
        let s = schedule(&live, &left, &away, Some(10 * SECOND));
        assert_eq!(
            s.next(),
            Some(live.turn_began + 10 * SECOND),
            "the clock first"
        );
        assert_eq!(s.player(), Some((STAND_IN, Some(StandIn::Clock))));
    }

    #[test]
    fn the_cpu_stands_in_from_the_moment_it_is_due_before_it_has_acted() {
        let mut live = game();
        let (left, away) = (BTreeSet::new(), HashMap::new());
        let s = schedule(&live, &left, &away, Some(30 * SECOND));
        let deadline = live.turn_began + 30 * SECOND;
        assert_eq!(s.standing_in(deadline - SECOND), None, "the person's turn");
        assert_eq!(s.standing_in(deadline), Some(StandIn::Clock));
        // Once it plays, it keeps the turn whatever the time.
        live.stand_in = Some(StandIn::Clock);
        let s = schedule(&live, &left, &away, None);
        assert_eq!(s.standing_in(live.turn_began), Some(StandIn::Clock));
        // A seat left is the CPU's; a CPU seat plays itself.
        let left = BTreeSet::from([Colour::Yellow]);
        let s = schedule(&live, &left, &away, None);
        assert_eq!(s.standing_in(live.turn_began), Some(StandIn::Left));
        let throw = ludo_fair::Action::Throw(ludo_rules::Throw::one(1));
        let next = live.after(throw).expect("a throw");
        live.commit(throw, next);
        let s = schedule(&live, &left, &away, Some(SECOND));
        assert_eq!(
            s.standing_in(live.turn_began + 60 * SECOND),
            None,
            "red: a CPU"
        );
    }

    #[test]
    fn a_seat_left_and_a_turn_already_stood_in_for_are_played_a_cpu_delay_after_the_last_action() {
        let mut live = game();
        let away = HashMap::new();
        let left = BTreeSet::from([Colour::Yellow]);
        let s = schedule(&live, &left, &away, None);
        assert_eq!(s.next(), Some(live.last_action + SECOND));
        assert_eq!(s.player(), Some((STAND_IN, Some(StandIn::Left))));
        let nobody_left = BTreeSet::new();
        live.stand_in = Some(StandIn::Clock);
        let s = schedule(&live, &nobody_left, &away, None);
        assert_eq!(s.next(), Some(live.last_action + SECOND));
        assert_eq!(s.player(), Some((STAND_IN, Some(StandIn::Clock))));
    }

    #[test]
    fn a_cpu_plays_its_own_turn_no_sooner_than_storage_allows() {
        let mut live = game();
        // Yellow throws a 1 with no piece out: red, the CPU, is to play.
        let throw = ludo_fair::Action::Throw(ludo_rules::Throw::one(1));
        let next = live.after(throw).expect("a throw");
        live.commit(throw, next);
        let (left, away) = (BTreeSet::new(), HashMap::new());
        let mut s = schedule(&live, &left, &away, Some(30 * SECOND));
        assert_eq!(s.player(), Some((Level::Easy, None)));
        assert_eq!(s.next(), Some(live.last_action + SECOND));
        s.storage_until = Some(live.last_action + 5 * SECOND);
        assert_eq!(s.next(), Some(live.last_action + 5 * SECOND));
        s.storage_until = Some(live.last_action);
        assert_eq!(s.next(), Some(live.last_action + SECOND));
    }
}
