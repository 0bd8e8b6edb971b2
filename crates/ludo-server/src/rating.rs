//! Elo ratings for games of two to four seats.
//!
//! A game with `n` seats counts, for each player, as a match against each of the `n − 1` others
//! decided by place: a better place is a win (1), a worse one a loss (0), a shared place a draw
//! (½). The change is `K / (n − 1)` times the sum over the others of (score − expected score),
//! with the usual expected score `1 / (1 + 10^((Rother − Rself) / 400))`. Dividing by `n − 1`
//! makes a 4-seat game move a rating about as much as a 2-seat game: beating three equal players
//! gains what beating one does. A player's first [`PROVISIONAL_GAMES`] games use the larger
//! [`PROVISIONAL_K`], so a new rating finds its level quickly.

/// Every rating starts here.
pub const START: f64 = 1500.0;
/// The K-factor of an established player.
pub const K: f64 = 32.0;
/// The K-factor of a provisional player (fewer than [`PROVISIONAL_GAMES`] rated games).
pub const PROVISIONAL_K: f64 = 64.0;
/// How many rated games a rating stays provisional for.
pub const PROVISIONAL_GAMES: u32 = 10;

/// One player of a rated game, as it starts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Entrant {
    /// The rating before the game.
    pub rating: f64,
    /// Rated games played before this one (in this ruleset family).
    pub games: u32,
    /// The place reached (1 is best; equal places are shared).
    pub place: u8,
}

impl Entrant {
    /// The K-factor that applies to this player.
    pub fn k(&self) -> f64 {
        if self.games < PROVISIONAL_GAMES {
            PROVISIONAL_K
        } else {
            K
        }
    }
}

/// The expected score of a player rated `own` against one rated `other`.
pub fn expected(own: f64, other: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf((other - own) / 400.0))
}

/// The score of place `own` against place `other`: 1 better, 0 worse, ½ shared.
fn score(own: u8, other: u8) -> f64 {
    match own.cmp(&other) {
        std::cmp::Ordering::Less => 1.0,
        std::cmp::Ordering::Greater => 0.0,
        std::cmp::Ordering::Equal => 0.5,
    }
}

/// The ratings after a game, in the order of `entrants`. Fewer than two entrants change nothing.
pub fn after_game(entrants: &[Entrant]) -> Vec<f64> {
    let opponents = entrants.len().saturating_sub(1);
    if opponents == 0 {
        return entrants.iter().map(|e| e.rating).collect();
    }
    entrants
        .iter()
        .enumerate()
        .map(|(i, me)| {
            let surprise: f64 = entrants
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, other)| score(me.place, other.place) - expected(me.rating, other.rating))
                .sum();
            me.rating + me.k() / opponents as f64 * surprise
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn established(rating: f64, place: u8) -> Entrant {
        Entrant {
            rating,
            games: 30,
            place,
        }
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-6
    }

    #[test]
    fn two_equal_players_move_sixteen_points_each() {
        let after = after_game(&[established(1500.0, 1), established(1500.0, 2)]);
        assert!(close(after[0], 1516.0), "{after:?}");
        assert!(close(after[1], 1484.0), "{after:?}");
    }

    #[test]
    fn an_upset_moves_more_than_an_expected_win() {
        // 1600 against 1400: the favourite expects 1 / (1 + 10^-0.5) = 0.759747.
        let favourite_wins = after_game(&[established(1600.0, 1), established(1400.0, 2)]);
        assert!(
            close(favourite_wins[0], 1600.0 + 32.0 * 0.240_253_07),
            "{favourite_wins:?}"
        );
        assert!(
            close(favourite_wins[1], 1400.0 - 32.0 * 0.240_253_07),
            "{favourite_wins:?}"
        );
        let upset = after_game(&[established(1600.0, 2), established(1400.0, 1)]);
        assert!(close(upset[0], 1600.0 - 32.0 * 0.759_746_93), "{upset:?}");
        assert!(close(upset[1], 1400.0 + 32.0 * 0.759_746_93), "{upset:?}");
    }

    #[test]
    fn four_seats_with_a_shared_place_count_it_as_half_a_win() {
        // All 1500: the winner scores 3 of 3 against expectations of 1.5, the second 2 of 3,
        // the two sharing third place ½ of 3 each. K / 3 = 32 / 3.
        let after = after_game(&[
            established(1500.0, 1),
            established(1500.0, 2),
            established(1500.0, 3),
            established(1500.0, 3),
        ]);
        let k = 32.0 / 3.0;
        assert!(close(after[0], 1500.0 + k * 1.5), "{after:?}");
        assert!(close(after[1], 1500.0 + k * 0.5), "{after:?}");
        assert!(close(after[2], 1500.0 - k * 1.0), "{after:?}");
        assert!(close(after[3], 1500.0 - k * 1.0), "{after:?}");
        assert!(close(after.iter().sum::<f64>(), 6000.0));
    }

    #[test]
    fn winning_against_three_equals_gains_what_winning_against_one_does() {
        let four = after_game(&[
            established(1500.0, 1),
            established(1500.0, 2),
            established(1500.0, 3),
            established(1500.0, 4),
        ]);
        let two = after_game(&[established(1500.0, 1), established(1500.0, 2)]);
        assert!(close(four[0] - 1500.0, two[0] - 1500.0));
    }

    #[test]
    fn a_provisional_player_moves_twice_as_far() {
        let newcomer = Entrant {
            rating: START,
            games: 0,
            place: 1,
        };
        let after = after_game(&[newcomer, established(1500.0, 2)]);
        assert!(close(after[0], 1532.0), "{after:?}");
        assert!(close(after[1], 1484.0), "{after:?}");
        let almost = Entrant {
            games: PROVISIONAL_GAMES - 1,
            ..newcomer
        };
        assert_eq!(almost.k(), PROVISIONAL_K);
        let settled = Entrant {
            games: PROVISIONAL_GAMES,
            ..newcomer
        };
        assert_eq!(settled.k(), K);
    }

    #[test]
    fn a_lone_entrant_keeps_its_rating() {
        assert_eq!(after_game(&[established(1432.0, 1)]), vec![1432.0]);
        assert!(after_game(&[]).is_empty());
    }
}
