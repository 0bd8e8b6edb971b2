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
//! of another colour one throw behind it (1 to 6 squares with one die, 1 to 12 with two), and
//! each where such a piece is two throws behind (7 to 12 squares, or 13 to 24); each square where
//! an opponent's piece is one throw ahead of a piece of the viewer's; and whether the viewer
//! throws next. Where no piece may be passed (`passing = any`, the Vietnamese rules), a piece
//! with another between it and its prey does not count as behind it.
//!
//! Each board has its own layout of these inputs: the number of track squares differs (52 on the
//! Ludo cross, 56 on the horse board, 13 an arm with one arm per seat), so a network reads the
//! positions of the board it was learned on ([`Shape`]). Seats that are not taken leave their
//! block off. On the horse board a piece in a home cell counts as finished and also shows its
//! cell, as it may still move up.

use ludo_rules::{Board, Colour, Game, Geometry, Passing, Phase};

/// Cells of a home column before the finish (the Ludo board's five and its finish; the horse
/// board's six).
const HOME_CELLS: usize = 6;
/// Seat blocks: one per seat there can be.
const SEATS: usize = 4;
/// The most track squares a board has (the horse board's).
const MOST_SQUARES: usize = 56;

/// Where each input sits for a board of so many track squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    squares: usize,
}

impl Shape {
    /// The shape of `game`'s board.
    pub fn of(game: &Game) -> Shape {
        Shape::on(game.geometry())
    }

    /// The shape of a board.
    pub fn on(board: &Geometry) -> Shape {
        Shape {
            squares: usize::from(board.track_len()),
        }
    }

    /// Inputs per seat: base count, squares with one and with two pieces, home cells, finished
    /// count.
    const fn per_seat(self) -> usize {
        4 + 2 * self.squares + HOME_CELLS + 4
    }

    /// The input for "another seat acts next"; the one after it: "the viewer throws next".
    const fn next_to_act(self) -> usize {
        SEATS * self.per_seat()
    }

    /// The first threat input: a piece one throw away from being captured.
    const fn near_threat(self) -> usize {
        self.next_to_act() + 2
    }

    /// The first far-threat input: 7 to 12 squares away.
    const fn far_threat(self) -> usize {
        self.near_threat() + SEATS * self.squares
    }

    /// The first input of an opponent's piece within the viewer's throw.
    const fn in_reach(self) -> usize {
        self.far_threat() + SEATS * self.squares
    }

    /// How many inputs a network of this board has.
    pub const fn inputs(self) -> usize {
        self.in_reach() + self.squares
    }
}

/// How many inputs the network of the standard game (the 52-square Ludo cross) has.
pub const INPUTS: usize = Shape { squares: 52 }.inputs();

/// A piece out on the track: its seat (0 = the viewer, then in turn order), square (counted
/// from the viewer's start) and progress.
#[derive(Clone, Copy)]
struct OnTrack {
    seat: usize,
    square: u8,
    steps: u8,
}

/// Writes into `active` the inputs that are on for `game` seen by `viewer` (a seat of it), in
/// the layout of its board's [`Shape`].
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
    let shape = Shape::of(game);
    let squares = shape.squares;
    let horse = g.board() == Board::Horse;
    let mut out = 0;
    for k in 0..seats.len() {
        let seat = seats[(first + k) % seats.len()];
        let block = k * shape.per_seat();
        let home = block + 4 + 2 * squares;
        let (mut in_base, mut finished) = (0, 0);
        let mut count = [0u8; MOST_SQUARES];
        for piece in game.pieces(seat) {
            match (piece.steps(), game.track_square(seat, piece)) {
                (None, _) => in_base += 1,
                (Some(steps), _) if g.is_finished(steps) => {
                    finished += 1;
                    if horse {
                        active.push((home + usize::from(steps - g.door() - 1)) as u16);
                    }
                }
                (Some(steps), None) => {
                    let cell = usize::from(steps - g.door() - 1).min(HOME_CELLS - 1);
                    active.push((home + cell) as u16);
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
        for (square, &n) in count[..squares].iter().enumerate() {
            if n >= 1 {
                active.push((block + 4 + square) as u16);
            }
            if n >= 2 {
                active.push((block + 4 + squares + square) as u16);
            }
        }
        let finished_at = home + HOME_CELLS;
        active.extend((0..finished).map(|c| (finished_at + c) as u16));
    }
    let pieces = &on_track[..out];
    let throw = 6 * game.options().dice;
    let (one_throw, two_throws) = (1..=throw, throw + 1..=2 * throw);
    let nothing_passed = game.options().passing == Passing::Any;
    // Whether `hunter` is `distance` squares behind `prey` and can get there on its own track
    // (without passing a piece where none may be passed).
    let behind = |hunter: &OnTrack, prey: &OnTrack, distances: &std::ops::RangeInclusive<u8>| {
        let d = (prey.square + len - hunter.square) % len;
        let between = |p: &OnTrack| {
            let e = (p.square + len - hunter.square) % len;
            e > 0 && e < d
        };
        distances.contains(&d)
            && hunter.steps + d <= g.door()
            && !(nothing_passed && pieces.iter().any(between))
    };
    for prey in pieces {
        if g.is_safe((prey.square + origin) % len) {
            continue;
        }
        let hunters = || pieces.iter().filter(|h| h.seat != prey.seat);
        let at = usize::from(prey.square);
        if hunters().any(|h| behind(h, prey, &one_throw)) {
            active.push((shape.near_threat() + prey.seat * squares + at) as u16);
        }
        if hunters().any(|h| behind(h, prey, &two_throws)) {
            active.push((shape.far_threat() + prey.seat * squares + at) as u16);
        }
        if prey.seat != 0
            && pieces
                .iter()
                .any(|h| h.seat == 0 && behind(h, prey, &one_throw))
        {
            active.push((shape.in_reach() + at) as u16);
        }
    }
    let viewer_throws = game.seat() == viewer && game.phase() == Phase::Roll;
    active.push((shape.next_to_act() + usize::from(viewer_throws)) as u16);
}

#[cfg(test)]
mod tests {
    use super::*;
    use ludo_rules::{Preset, Rules};

    /// The layout of the 52-square Ludo cross.
    const CROSS: Shape = Shape { squares: 52 };

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
            .flat_map(|k| (0..4).map(move |c| (k * CROSS.per_seat() + c) as u16))
            .collect();
        assert_eq!(active[..16], bases[..]);
        assert_eq!(active[16..], [(CROSS.next_to_act() + 1) as u16]);
        encode(&game, Colour::Red, &mut active);
        assert_eq!(active[16..], [CROSS.next_to_act() as u16]);
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
            assert!(
                seen.contains(&((2 * CROSS.per_seat() + 4 + 31) as u16)),
                "{seen:?}"
            );
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
        assert!(seen_by_yellow.contains(&((CROSS.near_threat() + 10) as u16)));
        let mut seen_by_blue = Vec::new();
        encode(&game, Colour::Blue, &mut seen_by_blue);
        // From blue's start (13), yellow's piece is on 49: one of blue's throws away.
        assert!(
            seen_by_blue.contains(&((CROSS.in_reach() + 49) as u16)),
            "{seen_by_blue:?}"
        );
        assert!(seen_by_blue.contains(&((CROSS.near_threat() + 3 * 52 + 49) as u16)));
    }

    #[test]
    fn each_board_has_its_own_number_of_inputs() {
        let inputs = |preset, seats: &[Colour]| {
            let game = Game::new(Rules::preset(preset), seats).unwrap();
            Shape::of(&game).inputs()
        };
        assert_eq!(inputs(Preset::Qdan, &Colour::ALL), INPUTS);
        assert_eq!(
            inputs(Preset::Classic, &[Colour::Yellow, Colour::Red]),
            INPUTS
        );
        assert!(inputs(Preset::Vietnamese, &Colour::ALL) > INPUTS);
    }

    #[test]
    fn on_the_horse_board_a_piece_in_a_home_cell_shows_its_cell_and_counts_as_finished() {
        let game = Game::from_json(
            r#"{"rules":"vietnamese","seats":["yellow","red"],
            "pieces":{"yellow":[61,"base","base","base"],"red":["base","base","base","base"]},
            "turn":{"seat":"yellow","phase":"roll"}}"#,
        )
        .unwrap();
        let shape = Shape::of(&game);
        let mut active = Vec::new();
        encode(&game, Colour::Yellow, &mut active);
        let home = 4 + 2 * 56;
        // Progress 61 is the sixth home cell, the deepest (the door is 55).
        assert!(active.contains(&((home + 5) as u16)), "{active:?}");
        assert!(active.contains(&((home + HOME_CELLS) as u16)), "{active:?}");
        assert!(active.iter().all(|&i| usize::from(i) < shape.inputs()));
    }
}
