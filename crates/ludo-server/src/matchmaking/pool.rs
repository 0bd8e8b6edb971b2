//! Which waiting players make a table: pure, so it is tested without clocks or sockets.
//!
//! Each seeker accepts ratings within a range of its own that starts at
//! [`Params::initial_range`] and widens by [`Params::widen_per_second`] for every second waited,
//! up to [`Params::max_range`]. Two seekers may share a table when each one's rating is within
//! the other's range, they asked for the same rules and both accept the table's size.
//!
//! Tables are formed oldest seeker first, biggest table first (4, then 3, then 2). A seeker who
//! asked for a size gets a table as soon as enough compatible players wait. A table of seekers
//! who all said "any" size forms at once only with four; smaller ones wait until its oldest
//! member has waited [`Params::gather`], in case more players arrive.

use std::net::IpAddr;
use std::time::Duration;

use ludo_rules::Preset;

/// The table sizes a seeker accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SizeWish {
    /// Exactly this many seats (2, 3 or 4).
    Exactly(u8),
    /// Any size from 2 to 4.
    Any,
}

impl SizeWish {
    /// Whether a table of `seats` seats suits this wish.
    pub fn accepts(self, seats: usize) -> bool {
        match self {
            SizeWish::Exactly(n) => usize::from(n) == seats,
            SizeWish::Any => (2..=4).contains(&seats),
        }
    }

    /// Whether some ranked table under `preset` suits this wish: a Vietnamese search for 3 or 4
    /// seats never could (see [`largest_ranked_table`]).
    pub fn can_be_met_under(self, preset: Preset) -> bool {
        (2..=largest_ranked_table(preset)).any(|seats| self.accepts(seats))
    }
}

/// The largest ranked table under `preset`: Vietnamese games of more than two seats are always
/// friendly, so their ranked tables have two.
pub fn largest_ranked_table(preset: Preset) -> usize {
    if preset == Preset::Vietnamese { 2 } else { 4 }
}

/// How ranges widen and tables gather.
#[derive(Clone, Copy, Debug)]
pub struct Params {
    /// The rating range a seeker accepts at first, either side of its own rating.
    pub initial_range: f64,
    /// How much the range widens per second of waiting.
    pub widen_per_second: f64,
    /// The widest range.
    pub max_range: f64,
    /// How long the oldest of a group that accepts any size waits for a fourth player.
    pub gather: Duration,
    /// How long a second lasts (one second, except in tests).
    pub second: Duration,
    /// Whether two seekers from the same network address may share a table (off, so that one
    /// person cannot play ranked games against their own second device; on to test locally).
    pub same_address: bool,
}

impl Params {
    /// The server's matchmaking, with `second` as the length of a second.
    pub fn standard(second: Duration) -> Params {
        Params {
            initial_range: 100.0,
            widen_per_second: 25.0,
            max_range: 800.0,
            gather: second * 5,
            second,
            same_address: false,
        }
    }

    /// The range of a seeker who has waited `waited`.
    pub fn range(&self, waited: Duration) -> f64 {
        let seconds = waited.as_secs_f64() / self.second.as_secs_f64();
        (self.initial_range + self.widen_per_second * seconds.floor()).min(self.max_range)
    }
}

/// A waiting player, as matchmaking sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Seeker {
    /// Its rating under the rules asked for.
    pub rating: f64,
    /// The rules asked for.
    pub preset: Preset,
    /// The table sizes accepted.
    pub wish: SizeWish,
    /// How long it has waited.
    pub waited: Duration,
    /// The network address it asked from.
    pub address: IpAddr,
}

fn compatible(params: &Params, a: &Seeker, b: &Seeker) -> bool {
    let gap = (a.rating - b.rating).abs();
    a.preset == b.preset
        && gap <= params.range(a.waited)
        && gap <= params.range(b.waited)
        && (params.same_address || a.address != b.address)
}

/// The tables to form now, as indices into `seekers`, each seeker in at most one table.
pub fn form_tables(params: &Params, seekers: &[Seeker]) -> Vec<Vec<usize>> {
    let mut order: Vec<usize> = (0..seekers.len()).collect();
    order.sort_by(|&a, &b| seekers[b].waited.cmp(&seekers[a].waited));
    let mut taken = vec![false; seekers.len()];
    let mut tables = Vec::new();
    for &anchor in &order {
        if taken[anchor] {
            continue;
        }
        let first = &seekers[anchor];
        let largest = largest_ranked_table(first.preset);
        for size in (2..=largest).rev() {
            if !first.wish.accepts(size) {
                continue;
            }
            let mut table = vec![anchor];
            for &other in &order {
                if table.len() == size {
                    break;
                }
                let candidate = &seekers[other];
                if taken[other]
                    || other == anchor
                    || !candidate.wish.accepts(size)
                    || !table
                        .iter()
                        .all(|&m| compatible(params, &seekers[m], candidate))
                {
                    continue;
                }
                table.push(other);
            }
            if table.len() < size {
                continue;
            }
            let someone_asked_for_it = table
                .iter()
                .any(|&m| seekers[m].wish == SizeWish::Exactly(size as u8));
            if size == largest || someone_asked_for_it || first.waited >= params.gather {
                for &m in &table {
                    taken[m] = true;
                }
                tables.push(table);
                break;
            }
        }
    }
    tables
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECOND: Duration = Duration::from_secs(1);

    fn params() -> Params {
        Params::standard(SECOND)
    }

    /// A seeker from an address of its own.
    fn seeker(rating: f64, wish: SizeWish, waited_seconds: u64) -> Seeker {
        static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(1);
        let address = IpAddr::from(std::net::Ipv4Addr::from(
            NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        ));
        Seeker {
            rating,
            preset: Preset::Qdan,
            wish,
            waited: SECOND * waited_seconds as u32,
            address,
        }
    }

    #[test]
    fn two_seekers_from_one_address_never_share_a_table_unless_allowed() {
        let (mut a, mut b) = (
            seeker(1500.0, SizeWish::Exactly(2), 0),
            seeker(1500.0, SizeWish::Exactly(2), 1),
        );
        assert_eq!(form_tables(&params(), &[a, b]).len(), 1);
        a.address = IpAddr::from([192, 0, 2, 7]);
        b.address = a.address;
        assert!(form_tables(&params(), &[a, b]).is_empty());
        let allowed = Params {
            same_address: true,
            ..params()
        };
        assert_eq!(form_tables(&allowed, &[a, b]).len(), 1);
    }

    fn sorted(mut tables: Vec<Vec<usize>>) -> Vec<Vec<usize>> {
        for t in &mut tables {
            t.sort_unstable();
        }
        tables.sort();
        tables
    }

    #[test]
    fn the_range_widens_with_waiting_up_to_its_limit() {
        let p = params();
        assert_eq!(p.range(Duration::ZERO), 100.0);
        assert_eq!(p.range(SECOND * 4), 200.0);
        assert_eq!(p.range(Duration::from_millis(4_900)), 200.0);
        assert_eq!(p.range(SECOND * 1_000), 800.0);
    }

    #[test]
    fn two_players_who_asked_for_two_seats_are_matched_at_once() {
        let s = [
            seeker(1500.0, SizeWish::Exactly(2), 0),
            seeker(1550.0, SizeWish::Exactly(2), 0),
        ];
        assert_eq!(form_tables(&params(), &s), vec![vec![0, 1]]);
    }

    #[test]
    fn players_too_far_apart_wait_until_their_ranges_meet() {
        let far = |waited| {
            [
                seeker(1500.0, SizeWish::Exactly(2), waited),
                seeker(1750.0, SizeWish::Exactly(2), waited),
            ]
        };
        assert!(form_tables(&params(), &far(0)).is_empty());
        assert!(form_tables(&params(), &far(5)).is_empty()); // 225 < 250
        assert_eq!(form_tables(&params(), &far(6)), vec![vec![0, 1]]);
        // Both ranges must reach: a newcomer's narrow range holds the table back.
        let uneven = [
            seeker(1500.0, SizeWish::Exactly(2), 60),
            seeker(1750.0, SizeWish::Exactly(2), 0),
        ];
        assert!(form_tables(&params(), &uneven).is_empty());
    }

    #[test]
    fn different_rules_and_sizes_never_share_a_table() {
        let mut classic = seeker(1500.0, SizeWish::Exactly(2), 9);
        classic.preset = Preset::Classic;
        let s = [
            seeker(1500.0, SizeWish::Exactly(2), 9),
            classic,
            seeker(1500.0, SizeWish::Exactly(3), 9),
        ];
        assert!(form_tables(&params(), &s).is_empty());
    }

    #[test]
    fn four_players_of_any_size_make_one_table_of_four() {
        let s = [
            seeker(1500.0, SizeWish::Any, 0),
            seeker(1520.0, SizeWish::Any, 0),
            seeker(1480.0, SizeWish::Any, 0),
            seeker(1510.0, SizeWish::Any, 0),
            seeker(1505.0, SizeWish::Any, 0),
        ];
        let tables = form_tables(&params(), &s);
        assert_eq!(tables.len(), 1);
        assert_eq!(tables[0].len(), 4);
    }

    #[test]
    fn a_smaller_table_of_any_size_waits_for_the_gathering_time() {
        let three = |waited| {
            [
                seeker(1500.0, SizeWish::Any, waited),
                seeker(1500.0, SizeWish::Any, waited),
                seeker(1500.0, SizeWish::Any, waited),
            ]
        };
        assert!(form_tables(&params(), &three(4)).is_empty());
        assert_eq!(
            sorted(form_tables(&params(), &three(5))),
            vec![vec![0, 1, 2]]
        );
    }

    #[test]
    fn a_player_of_any_size_joins_one_who_asked_for_three() {
        let s = [
            seeker(1500.0, SizeWish::Exactly(3), 1),
            seeker(1500.0, SizeWish::Any, 0),
            seeker(1500.0, SizeWish::Exactly(2), 0),
            seeker(1500.0, SizeWish::Any, 0),
        ];
        let tables = sorted(form_tables(&params(), &s));
        assert_eq!(tables, vec![vec![0, 1, 3]]);
    }

    #[test]
    fn the_oldest_seekers_are_served_first() {
        let s = [
            seeker(1500.0, SizeWish::Exactly(2), 0),
            seeker(1500.0, SizeWish::Exactly(2), 30),
            seeker(1500.0, SizeWish::Exactly(2), 20),
        ];
        assert_eq!(sorted(form_tables(&params(), &s)), vec![vec![1, 2]]);
    }

    #[test]
    fn vietnamese_ranked_tables_have_two_seats() {
        let vietnamese = |wish| Seeker {
            preset: Preset::Vietnamese,
            ..seeker(1500.0, wish, 0)
        };
        let s = [
            vietnamese(SizeWish::Any),
            vietnamese(SizeWish::Any),
            vietnamese(SizeWish::Any),
        ];
        let tables = form_tables(&params(), &s);
        assert_eq!(tables.len(), 1);
        assert_eq!(tables[0].len(), 2);
    }
}
