//! Places at the end of a game (`rules.md` §6).

use crate::colour::{BySeat, Colour};
use crate::game::Game;
use crate::rulebook::Own;

/// How a seat that is not done ranks when the game ends: more pieces finished, then more pieces
/// out of the base, then more total progress of the pieces out of the base.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Standing {
    finished: u8,
    out: u8,
    progress: u16,
}

impl Game {
    fn standing(&self, seat: Colour) -> Standing {
        let pieces = self.pieces[seat];
        let out = pieces.iter().filter_map(|p| p.steps());
        Standing {
            finished: self.finished_count(Own, seat),
            out: out.clone().count() as u8,
            progress: out.map(u16::from).sum(),
        }
    }

    /// Every seat's place once the game is over: done seats in the order they finished, then the
    /// others best first (shared places repeat and skip the next number: 1, 2, 2, 4).
    pub(crate) fn compute_places(&self) -> BySeat<u8> {
        let mut places = BySeat([0u8; 4]);
        let done = self.done.as_slice();
        for (i, &seat) in done.iter().enumerate() {
            places[seat] = i as u8 + 1;
        }
        let mut rest: Vec<(Standing, Colour)> = self
            .seats()
            .iter()
            .filter(|s| !done.contains(s))
            .map(|&s| (self.standing(s), s))
            .collect();
        rest.sort_by_key(|&(standing, _)| std::cmp::Reverse(standing));
        for (i, &(standing, seat)) in rest.iter().enumerate() {
            let shared_with_previous = i > 0 && rest[i - 1].0 == standing;
            places[seat] = if shared_with_previous {
                places[rest[i - 1].1]
            } else {
                (done.len() + i + 1) as u8
            };
        }
        places
    }
}
