//! What the expert's value network sees of a position: which of its inputs are on, from one
//! seat's point of view.
//!
//! Every input is 0 or 1, so a position is the list of the inputs that are on (a few dozen of
//! [`INPUTS`]). The seats are taken in turn order from the seat whose view it is, and every track
//! square is counted from that seat's start, so that a piece and the pieces that threaten it sit
//! at fixed distances whatever the colours. For each seat, in that order:
//!
//! - how many of its pieces are in the base (one input per piece, "at least 1" to "all 4");
//! - each track square holding at least one of its pieces, and each holding two or more;
//! - each cell of its home column holding a piece;
//! - how many of its pieces are finished (as for the base).
//!
//! Then, for every seat, each track square where one of its pieces stands unsafe with a piece
//! of another colour 1 to 6 squares behind it (one throw away), and each where such a piece is
//! 7 to 12 squares behind; each square where an opponent's piece is one throw ahead of a piece
//! of the viewer's; and whether the viewer throws next.
//!
//! The layout fits the 52-square Ludo cross with four seats, the board the network was trained
//! on (see [`fits`]).

use ludo_rules::{Board, Colour, Game, Options, Phase, Preset};

/// Track squares of the board the network knows.
const SQUARES: usize = 52;
/// Cells of a home column before the finish.
const HOME_CELLS: usize = 6;
/// Inputs per seat: base count, squares with one and with two pieces, home cells, finished count.
const PER_SEAT: usize = 4 + 2 * SQUARES + HOME_CELLS + 4;
/// The input for "another seat acts next"; the one after it: "the viewer throws next".
const NEXT_TO_ACT: usize = 4 * PER_SEAT;
/// The first threat input: a piece one throw away from being captured.
const NEAR_THREAT: usize = NEXT_TO_ACT + 2;
/// The first far-threat input: 7 to 12 squares away.
const FAR_THREAT: usize = NEAR_THREAT + 4 * SQUARES;
/// The first input of an opponent's piece within the viewer's throw.
const IN_REACH: usize = FAR_THREAT + 4 * SQUARES;

/// How many inputs the network has.
pub const INPUTS: usize = IN_REACH + SQUARES;

/// Whether the network knows this game's board and seats: the 52-square Ludo cross with four
/// seats and the rules it was trained under (`qdan`).
pub fn fits(game: &Game) -> bool {
    let g = game.geometry();
    g.board() == Board::Ludo
        && usize::from(g.track_len()) == SQUARES
        && plays(game.options(), game.seats().len())
}

/// Whether a game under `options` with `seats` seats is one the network was trained for: the
/// `qdan` rules with no house rule changed, and four seats. A game that is not plays `expert` as
/// `hard`, so it is offered only where this holds.
pub fn plays(options: &Options, seats: usize) -> bool {
    seats == 4 && *options == Preset::Qdan.options()
}

/// A piece out on the track: its seat (0 = the viewer, then in turn order), square (counted
/// from the viewer's start) and progress.
#[derive(Clone, Copy)]
struct OnTrack {
    seat: usize,
    square: u8,
    steps: u8,
}

/// Writes into `active` the inputs that are on for `game` seen by `viewer` (which must sit in a
/// game that [`fits`]).
pub fn encode(game: &Game, viewer: Colour, active: &mut Vec<u16>) {
    active.clear();
    let g = game.geometry();
    let seats = game.seats();
    let first = seats
        .iter()
        .position(|&s| s == viewer)
        .expect("the viewer has a seat");
    let len = g.track_len();
    let origin = g.start_square(game.arm(viewer));
    let from_origin = |square: u8| (square + len - origin) % len;
    let mut on_track: [OnTrack; 16] = [OnTrack {
        seat: 0,
        square: 0,
        steps: 0,
    }; 16];
    let mut out = 0;
    for k in 0..seats.len() {
        let seat = seats[(first + k) % seats.len()];
        let block = k * PER_SEAT;
        let (mut in_base, mut finished) = (0, 0);
        let mut count = [0u8; SQUARES];
        for piece in game.pieces(seat) {
            match (piece.steps(), game.track_square(seat, piece)) {
                (None, _) => in_base += 1,
                (Some(steps), _) if g.is_finished(steps) => finished += 1,
                (Some(steps), None) => {
                    let cell = usize::from(steps - g.door() - 1).min(HOME_CELLS - 1);
                    active.push((block + 4 + 2 * SQUARES + cell) as u16);
                }
                (Some(steps), Some(square)) => {
                    let square = from_origin(square);
                    count[usize::from(square)] += 1;
                    on_track[out] = OnTrack {
                        seat: k,
                        square,
                        steps,
                    };
                    out += 1;
                }
            }
        }
        active.extend((0..in_base).map(|c| (block + c) as u16));
        for (square, &n) in count.iter().enumerate() {
            if n >= 1 {
                active.push((block + 4 + square) as u16);
            }
            if n >= 2 {
                active.push((block + 4 + SQUARES + square) as u16);
            }
        }
        let finished_at = block + 4 + 2 * SQUARES + HOME_CELLS;
        active.extend((0..finished).map(|c| (finished_at + c) as u16));
    }
    let pieces = &on_track[..out];
    // Whether `hunter` is `distance` squares behind `prey` and can get there on its own track.
    let behind = |hunter: &OnTrack, prey: &OnTrack, distances: std::ops::RangeInclusive<u8>| {
        let d = (prey.square + len - hunter.square) % len;
        distances.contains(&d) && hunter.steps + d <= g.door()
    };
    for prey in pieces {
        if g.is_safe((prey.square + origin) % len) {
            continue;
        }
        let hunters = || pieces.iter().filter(|h| h.seat != prey.seat);
        let at = usize::from(prey.square);
        if hunters().any(|h| behind(h, prey, 1..=6)) {
            active.push((NEAR_THREAT + prey.seat * SQUARES + at) as u16);
        }
        if hunters().any(|h| behind(h, prey, 7..=12)) {
            active.push((FAR_THREAT + prey.seat * SQUARES + at) as u16);
        }
        if prey.seat != 0 && pieces.iter().any(|h| h.seat == 0 && behind(h, prey, 1..=6)) {
            active.push((IN_REACH + at) as u16);
        }
    }
    let viewer_throws = game.seat() == viewer && game.phase() == Phase::Roll;
    active.push((NEXT_TO_ACT + usize::from(viewer_throws)) as u16);
}

#[cfg(test)]
mod tests {
    use super::*;
    use ludo_rules::Rules;

    /// A `qdan` position with four seats, yellow to throw; `pieces` names the pieces of the
    /// colours with a piece out (the others are all in the base).
    fn qdan(pieces: &[(&str, &str)]) -> Game {
        let all = ["yellow", "blue", "red", "green"].map(|colour| {
            let listed = pieces.iter().find(|p| p.0 == colour);
            let list = listed.map_or(r#""base","base","base","base""#, |p| p.1);
            format!(r#""{colour}":[{list}]"#)
        });
        Game::from_json(&format!(
            r#"{{"rules":"qdan","seats":["yellow","blue","red","green"],"pieces":{{{}}},
            "turn":{{"seat":"yellow","phase":"roll"}}}}"#,
            all.join(",")
        ))
        .unwrap()
    }

    #[test]
    fn the_start_shows_every_piece_in_its_base_and_who_throws() {
        let game = Game::new(Rules::default(), &Colour::ALL).unwrap();
        let mut active = Vec::new();
        encode(&game, Colour::Yellow, &mut active);
        let bases: Vec<u16> = (0..4)
            .flat_map(|k| (0..4).map(move |c| (k * PER_SEAT + c) as u16))
            .collect();
        assert_eq!(active[..16], bases[..]);
        assert_eq!(active[16..], [(NEXT_TO_ACT + 1) as u16]);
        encode(&game, Colour::Red, &mut active);
        assert_eq!(active[16..], [NEXT_TO_ACT as u16]);
    }

    #[test]
    fn squares_are_counted_from_the_viewers_start_whatever_its_colour() {
        // Yellow's piece 5 squares after its start, and red's 5 squares after red's start.
        let game = qdan(&[
            ("yellow", r#"5,"base","base","base""#),
            ("red", r#"5,"base","base","base""#),
        ]);
        let (mut seen_by_yellow, mut seen_by_red) = (Vec::new(), Vec::new());
        encode(&game, Colour::Yellow, &mut seen_by_yellow);
        encode(&game, Colour::Red, &mut seen_by_red);
        // Each sees its own piece on square 5 of its own block, and the other's 26 squares on
        // in the block two seats after its own.
        for seen in [&seen_by_yellow, &seen_by_red] {
            assert!(seen.contains(&((4 + 5) as u16)), "{seen:?}");
            assert!(seen.contains(&((2 * PER_SEAT + 4 + 31) as u16)), "{seen:?}");
        }
    }

    #[test]
    fn a_piece_three_squares_ahead_of_an_opponent_is_threatened_and_in_its_reach() {
        let game = qdan(&[
            ("yellow", r#"10,"base","base","base""#),
            ("blue", r#"46,"base","base","base""#),
        ]);
        let mut seen_by_yellow = Vec::new();
        encode(&game, Colour::Yellow, &mut seen_by_yellow);
        // Blue's piece stands on square (13 + 46) % 52 = 7, three behind yellow's on 10.
        assert!(seen_by_yellow.contains(&((NEAR_THREAT + 10) as u16)));
        let mut seen_by_blue = Vec::new();
        encode(&game, Colour::Blue, &mut seen_by_blue);
        // From blue's start (13), yellow's piece is on 49: one of blue's throws away.
        assert!(
            seen_by_blue.contains(&((IN_REACH + 49) as u16)),
            "{seen_by_blue:?}"
        );
        assert!(seen_by_blue.contains(&((NEAR_THREAT + 3 * SQUARES + 49) as u16)));
    }

    #[test]
    fn only_qdan_with_four_seats_fits() {
        let four = Game::new(Rules::default(), &Colour::ALL).unwrap();
        assert!(fits(&four));
        let two = Game::new(Rules::default(), &[Colour::Yellow, Colour::Red]).unwrap();
        assert!(!fits(&two));
        let classic = Game::new(Rules::preset(ludo_rules::Preset::Classic), &Colour::ALL);
        assert!(!fits(&classic.unwrap()));
    }
}
