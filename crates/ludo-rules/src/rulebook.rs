//! Where the fast path reads the rules from: the game's own, read as it plays ([`Own`]), or the
//! `qdan` preset's, known when the program is compiled ([`Qdan`]).
//!
//! A random game spends most of its time asking the options and the board the same questions:
//! does this throw bring a piece out, may a piece pass a blockade, where is the door. Read from
//! the game, each answer is a load and a branch. With the `qdan` preset's options and board as
//! constants, the compiler answers them once, when it compiles, and leaves out the code of every
//! rule `qdan` does not play. The playout loop of simulations, benchmarks and arenas checks once
//! per game whether its rules are `qdan`'s ([`Qdan::of`]) and then plays the whole game through
//! [`Game::roll_by`] and [`Game::play_by`] with it; every other game goes through [`Own`], the
//! same code.
//!
//! Measured with `ludo bench` (random 4-seat `qdan` games on one core): about 0.8 times the time
//! an action of reading the rules from the game.

use crate::board::Geometry;
use crate::game::Game;
use crate::options::{Options, Preset};

/// Where the rules of the fast path come from: the answers must be the game's own options and
/// geometry.
pub trait Rulebook: Copy + sealed::Sealed {
    /// The options in force in `game`.
    fn options(self, game: &Game) -> Options;
    /// The board `game` is played on.
    fn geometry(self, game: &Game) -> Geometry;
}

/// The game's own rules, read as it plays: right for every game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Own;

/// The `qdan` preset's rules, constants when compiled: only for a game played by them, which
/// [`Qdan::of`] checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Qdan(());

/// The `qdan` preset's options.
const QDAN_OPTIONS: Options = Preset::Qdan.options();

/// The `qdan` board: the cross, the same for every number of seats.
const QDAN_GEOMETRY: Geometry = Geometry::new(&QDAN_OPTIONS, 4);

impl Qdan {
    /// The `qdan` rulebook, when `game` is played by the `qdan` preset's options.
    #[inline]
    pub fn of(game: &Game) -> Option<Qdan> {
        let fits = *game.options() == QDAN_OPTIONS;
        debug_assert!(!fits || *game.geometry() == QDAN_GEOMETRY);
        fits.then_some(Qdan(()))
    }
}

impl Rulebook for Own {
    #[inline(always)]
    fn options(self, game: &Game) -> Options {
        *game.options()
    }

    #[inline(always)]
    fn geometry(self, game: &Game) -> Geometry {
        *game.geometry()
    }
}

impl Rulebook for Qdan {
    #[inline(always)]
    fn options(self, _: &Game) -> Options {
        QDAN_OPTIONS
    }

    #[inline(always)]
    fn geometry(self, _: &Game) -> Geometry {
        QDAN_GEOMETRY
    }
}

mod sealed {
    /// Only this crate's rulebooks: each must give the game's own rules.
    pub trait Sealed {}
    impl Sealed for super::Own {}
    impl Sealed for super::Qdan {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::colour::Colour;
    use crate::options::Layout;
    use crate::rules::Rules;

    /// A tiny xorshift generator for the test's dice and choices.
    fn next(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    #[test]
    fn random_qdan_games_played_with_the_presets_constants_match_those_reading_the_game() {
        let mut state = 0x9e37_79b9_7f4a_7c15;
        for seats in [2, 3, 4, 4, 4] {
            for _ in 0..100 {
                let start = Game::new(Rules::preset(Preset::Qdan), &Colour::ALL[..seats]).unwrap();
                let qdan = Qdan::of(&start).unwrap();
                let (mut by_constants, mut by_game) = (start, start);
                let mut actions = 0;
                while !by_game.is_over() {
                    let face = (next(&mut state) % 6) as u8 + 1;
                    let throw = crate::throw::Throw::one(face);
                    let moves = by_game.roll_by(Own, throw);
                    assert_eq!(by_constants.roll_by(qdan, throw), moves);
                    if !moves.is_empty() {
                        let pick = (next(&mut state) % moves.len() as u64) as usize;
                        let m = *moves.get(pick).unwrap();
                        by_game.play_by(Own, &m);
                        by_constants.play_by(qdan, &m);
                    }
                    assert_eq!(by_constants, by_game);
                    actions += 1;
                    assert!(actions < 100_000, "a game that long is a bug");
                }
            }
        }
    }

    #[test]
    fn the_qdan_rulebook_fits_only_games_played_by_qdan_options_and_gives_their_board() {
        for seats in 2..=4 {
            let game = Game::new(Rules::preset(Preset::Qdan), &Colour::ALL[..seats]).unwrap();
            assert!(Qdan::of(&game).is_some());
            assert_eq!(QDAN_GEOMETRY, *game.geometry());
            assert_eq!(Own.options(&game), QDAN_OPTIONS);
        }
        for preset in [Preset::Classic, Preset::Vietnamese] {
            let game = Game::new(Rules::preset(preset), &Colour::ALL).unwrap();
            assert!(Qdan::of(&game).is_none());
        }
        let options = Options {
            layout: Layout::ByPlayers,
            ..QDAN_OPTIONS
        };
        let rules = Rules::new(Preset::Qdan, options).unwrap();
        let game = Game::new(rules, &Colour::ALL[..3]).unwrap();
        assert!(Qdan::of(&game).is_none());
    }
}
