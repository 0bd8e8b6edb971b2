//! Invariants over many random complete games (`rules.md`, `position.md`).
//!
//! 10,000 games are played with random throws and random choices, spread over the three presets,
//! both layouts of the Ludo board, every seat count from 2 to 4 and a random mix of house rules.
//! Every position reached is checked:
//!
//! 1. every move of `legal_moves()` is accepted by `play` (and `play_unchecked` does the same);
//!    every other piece index (0..=3, 4, 255) is refused and leaves the game unchanged;
//! 2. four pieces per seat, each in the base or on a progress of the board;
//! 3. without stacking no two own pieces share a square (the Ludo finish excepted); two colours
//!    never share a track square that is not safe; horses home fill cells 6, 5, 4, 3 in order;
//! 4. every game ends within a generous number of actions;
//! 5. the same seed gives the same game;
//! 6. positions round-trip through JSON;
//! 7. in phase `over` every seat has a consistent place;
//! 8. throws are refused in phase `move` and `over`, moves in phase `roll`, `rolloff` and `over`,
//!    and a throw with the wrong number of dice is refused, each time with no change.
//!
//! Beyond these, the engine is checked against the spec worked out again in this file:
//!
//! - the moves a throw offers are those of `rules.md` §5 (exits, exact or inexact finish, the
//!   horse's target cell, passing, landing, captures); the shape of each move and its captures
//!   on every position, the whole list wherever (1) runs;
//! - every throw and move changes the turn as `rules.md` §4 says (roll-off, auto exit, bonus
//!   streak and forfeit, three tries, another throw without a move, another throw after a move,
//!   done seats and the end of the game), and moves exactly the pieces it should;
//! - `why_no_move` gives a reason to exactly the pieces a throw does not move, and a forfeit
//!   exactly when the throw forfeits the turn;
//! - the board's numbers, arms and safe squares are those of §2, and `Options::validate` refuses
//!   exactly the combinations §3 refuses.
//!
//! Which checks run on every position and which on a sample is said at [`FULL_CHECKS`].
//!
//! Throws, choices and house rules come from a SplitMix64 generator with fixed seeds, so a failure
//! names a game number that replays exactly, and prints the position where it happened.

use std::collections::BTreeSet;

use ludo_rules::{
    Board, Captures, Colour, FaceSet, FirstPlayer, Game, Layout, Move, MoveList, NoPieceOut,
    Options, Passing, Phase, PlayError, Preset, Progress, Refusal, Rules, Safe, Throw,
};

/// Games played in all, shared out over the three presets; `LUDO_SOAK` times as many in a soak
/// (`scripts/soak.sh`), the first 10,000 being the same games.
const GAMES: u64 = 10_000;

/// [`GAMES`] times the soak factor `LUDO_SOAK` (1 unless set).
fn games() -> u64 {
    GAMES * soak_factor()
}

/// How many times the usual counts a soak runs (`LUDO_SOAK`, at least 1).
fn soak_factor() -> u64 {
    std::env::var("LUDO_SOAK")
        .ok()
        .and_then(|factor| factor.parse().ok())
        .unwrap_or(1)
        .max(1)
}
/// The seed every game's own seed is drawn from.
const SEED: u64 = 0x5EED_1D0C_0FFE_E000;
/// Throws and moves after which a game that has not ended counts as endless. The longest of the
/// 10,000 random games takes about 8,000.
const MAX_ACTIONS: u32 = 100_000;

// ---------------------------------------------------------------------------------------------
// A tiny deterministic generator.

/// SplitMix64 (Steele, Lea and Flood): tiny, fast, and good enough to drive random games.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// True with probability `num / den`.
    fn chance(&mut self, num: u64, den: u64) -> bool {
        self.below(den) < num
    }

    fn die(&mut self) -> u8 {
        1 + self.below(6) as u8
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

/// The generator of game number `index`.
fn game_rng(index: u64) -> SplitMix64 {
    let mut seeder = SplitMix64(SEED ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03));
    SplitMix64(seeder.next_u64())
}

// ---------------------------------------------------------------------------------------------
// Random rules and seats.

/// What one game is played with.
#[derive(Clone, Debug)]
struct Config {
    rules: Rules,
    seats: Vec<Colour>,
}

fn random_faces(rng: &mut SplitMix64, one_in: u64) -> FaceSet {
    let faces: Vec<u8> = (1..=6).filter(|_| rng.chance(1, one_in)).collect();
    FaceSet::of(&faces)
}

/// Whether `rules.md` §3 accepts these options together (computed here from the spec, to check
/// `Options::validate` against it).
fn spec_accepts(o: &Options) -> bool {
    let dice_ok = match o.dice {
        1 => !o.exit_on_double && !o.bonus_on_double,
        2 => o.bonus_values.is_empty(),
        _ => false,
    };
    let way_out = !o.exit_values.is_empty() || o.exit_on_double;
    let board_ok = match o.board {
        Board::Horse => o.layout == Layout::Cross && o.exact_finish,
        Board::Ludo => !(o.dice == 2 && o.exact_finish),
    };
    dice_ok && way_out && board_ok
}

/// Random house rules over `preset`: each option is re-drawn with probability 1/2, then the
/// combinations `Options::validate` refuses are repaired.
fn random_options(rng: &mut SplitMix64, preset: Preset) -> Options {
    let mut o = preset.options();
    macro_rules! maybe {
        ($($field:ident = $value:expr;)*) => {
            $(if rng.chance(1, 2) {
                o.$field = $value;
            })*
        };
    }
    maybe! {
        board = rng.pick(&[Board::Ludo, Board::Horse]);
        // Now and then a dice count the rules refuse, to see `validate` refuse it.
        dice = if rng.chance(1, 20) { rng.pick(&[0, 3]) } else { rng.pick(&[1, 2]) };
        exit_values = random_faces(rng, 3);
        exit_on_double = rng.chance(1, 2);
        bonus_values = random_faces(rng, 4);
        bonus_on_double = rng.chance(1, 2);
        three_bonus_forfeit = rng.chance(1, 2);
        bonus_on_capture = rng.chance(1, 2);
        bonus_on_finish = rng.chance(1, 2);
        bonus_if_no_move = rng.chance(1, 2);
        no_piece_out = rng.pick(&[NoPieceOut::Roll, NoPieceOut::AutoExit, NoPieceOut::ThreeTries]);
        safe = rng.pick(&[Safe::StartsAndStars, Safe::Starts, Safe::None]);
        passing = rng.pick(&[Passing::Blockades, Passing::Free, Passing::Opponents, Passing::Any]);
        stacking = rng.chance(1, 2);
        exact_finish = rng.chance(1, 2);
        rank_everyone = rng.chance(1, 2);
        first_player = rng.pick(&[FirstPlayer::SeatOrder, FirstPlayer::HighestRoll]);
    }
    // Half of the Ludo games are on the board of one arm per seat.
    o.layout = if rng.chance(1, 2) {
        Layout::ByPlayers
    } else {
        Layout::Cross
    };
    repair(rng, o)
}

/// Makes the options acceptable, checking on the way that `validate` agrees with the spec.
fn repair(rng: &mut SplitMix64, mut o: Options) -> Options {
    for _ in 0..8 {
        let verdict = o.validate();
        assert_eq!(
            verdict.is_ok(),
            spec_accepts(&o),
            "validate says {verdict:?} for {o:?}"
        );
        if verdict.is_ok() {
            break;
        }
        if !matches!(o.dice, 1 | 2) {
            o.dice = rng.pick(&[1, 2]);
        }
        if o.dice == 1 {
            o.exit_on_double = false;
            o.bonus_on_double = false;
        } else {
            o.bonus_values = FaceSet::EMPTY;
        }
        if o.exit_values.is_empty() && !o.exit_on_double {
            if o.dice == 2 && rng.chance(1, 2) {
                o.exit_on_double = true;
            } else {
                o.exit_values = FaceSet::of(&[rng.die()]);
            }
        }
        match o.board {
            Board::Horse => {
                o.layout = Layout::Cross;
                o.exact_finish = true;
            }
            Board::Ludo if o.dice == 2 => o.exact_finish = false,
            Board::Ludo => {}
        }
    }
    // Every face a bonus, no forfeit and another throw even without a move is a ruleset in which
    // a blocked seat throws for ever; it is valid, but no game of it need end, so leave it out.
    let every_face = (1..=6).all(|f| o.bonus_values.contains(f));
    if every_face && !o.three_bonus_forfeit && o.bonus_if_no_move {
        let keep: Vec<u8> = (1..=6).filter(|&f| f != rng.die()).collect();
        o.bonus_values = FaceSet::of(&keep);
    }
    assert_eq!(o.validate(), Ok(()), "repaired options {o:?}");
    o
}

/// `n` seats: any colours in clockwise order from any of them, or any order with one arm per seat.
fn random_seats(rng: &mut SplitMix64, o: &Options, n: usize) -> Vec<Colour> {
    let mut colours = Colour::ALL;
    rng.shuffle(&mut colours);
    let mut seats = colours[..n].to_vec();
    if o.layout == Layout::Cross {
        seats.sort();
        seats.rotate_left(rng.below(n as u64) as usize);
    }
    seats
}

/// The rules and seats of game number `index`: the preset cycles with the index, the seat count
/// with the index over 3, and one game in six keeps the preset's own options (on either layout).
fn config_of(index: u64, rng: &mut SplitMix64) -> Config {
    let preset = Preset::ALL[(index % 3) as usize];
    let n = 2 + ((index / 3) % 3) as usize;
    let options = if rng.chance(1, 6) {
        let mut o = preset.options();
        if o.board == Board::Ludo && rng.chance(1, 2) {
            o.layout = Layout::ByPlayers;
        }
        o
    } else {
        random_options(rng, preset)
    };
    let rules = Rules::new(preset, options).expect("repaired options are valid");
    let seats = random_seats(rng, &options, n);
    Config { rules, seats }
}

// ---------------------------------------------------------------------------------------------
// What the spec says of the board, computed here independently of the engine.

/// The board's numbers by `rules.md` §2.
#[derive(Clone, Copy, Debug)]
struct SpecBoard {
    horse: bool,
    arms: u8,
    arm_len: u8,
    track_len: u8,
    door: u8,
    last: u8,
    safe: u64,
}

impl SpecBoard {
    fn of(o: &Options, seats: usize) -> SpecBoard {
        let horse = o.board == Board::Horse;
        let arm_len = if horse { 14 } else { 13 };
        let arms = if !horse && o.layout == Layout::ByPlayers {
            seats as u8
        } else {
            4
        };
        let track_len = arm_len * arms;
        let door = if horse { track_len - 1 } else { track_len - 2 };
        let mut safe = 0u64;
        for a in 0..arms {
            let start = u32::from(a * arm_len);
            match o.safe {
                Safe::StartsAndStars => safe |= 1 << start | 1 << (start + 8),
                Safe::Starts => safe |= 1 << start,
                Safe::None => {}
            }
        }
        SpecBoard {
            horse,
            arms,
            arm_len,
            track_len,
            door,
            last: door + 6,
            safe,
        }
    }

    fn is_finished(&self, steps: u8) -> bool {
        if self.horse {
            steps > self.door && steps <= self.last
        } else {
            steps == self.last
        }
    }

    fn is_safe(&self, square: u8) -> bool {
        self.safe & (1 << square) != 0
    }

    /// The track square of progress `steps` (at most the door) of a seat on `arm`.
    fn square(&self, arm: u8, steps: u8) -> u8 {
        ((u16::from(arm) * u16::from(self.arm_len) + u16::from(steps)) % u16::from(self.track_len))
            as u8
    }
}

/// The arm `seat` sits on (`rules.md` §2.1).
fn arm_of(o: &Options, seats: &[Colour], seat: Colour) -> u8 {
    match o.layout {
        Layout::ByPlayers => seats.iter().position(|&s| s == seat).unwrap() as u8,
        Layout::Cross => seat.index() as u8,
    }
}

fn is_bonus(o: &Options, t: Throw) -> bool {
    match t.faces() {
        [d] => o.bonus_values.contains(*d),
        [a, b] => o.bonus_on_double && a == b,
        _ => unreachable!(),
    }
}

fn is_exit(o: &Options, t: Throw) -> bool {
    t.faces().iter().any(|&f| o.exit_values.contains(f)) || (o.exit_on_double && t.is_double())
}

// ---------------------------------------------------------------------------------------------
// One game, checked at every position.

/// Where the costly checks run: on every position of the first games, and on a random sample
/// of the positions of the others (one in `n`; 0 for none).
#[derive(Clone, Copy, Debug)]
struct Checks {
    /// (1) and (6) through `Setup` on every position of the games numbered below this.
    full_games: u64,
    /// (6) through JSON text on every position of the games numbered below this.
    json_games: u64,
    /// (1) on one position in this many of the other games: play every legal move and refuse
    /// every other piece, on copies.
    moves_one_in: u64,
    /// (6) without the text on one position in this many of the other games:
    /// `Game::from_setup(&game.to_setup())` gives the game back. This runs every check of the
    /// position reader; only the text is left out.
    setup_one_in: u64,
    /// (6) through JSON text on one position in this many of the other games.
    json_one_in: u64,
}

/// The 10,000 games reach over six million positions, and every check runs on every one of
/// them: (1) plays every legal move and refuses every other piece, (6) reads every position back
/// both through `Setup` and through JSON text. The workspace builds the engine and the JSON
/// crates optimised even for tests (`[profile.dev.package.…]` in the root `Cargo.toml`), which
/// keeps the whole file near 20 s on two cores; a plain debug build would take minutes.
const FULL_CHECKS: Checks = Checks {
    full_games: u64::MAX,
    json_games: u64::MAX,
    moves_one_in: 16,
    setup_one_in: 32,
    json_one_in: 1000,
};

/// The cheap checks only, to replay games quickly.
const CHEAP_CHECKS: Checks = Checks {
    full_games: 0,
    json_games: 0,
    moves_one_in: 0,
    setup_one_in: 0,
    json_one_in: 0,
};

/// Which costly checks run on one position.
#[derive(Clone, Copy, Debug)]
struct Costly {
    moves: bool,
    setup: bool,
    json: bool,
}

impl Checks {
    fn draw(&self, index: u64, probe: &mut SplitMix64) -> Costly {
        let mut one_in = |n: u64| n > 0 && probe.below(n) == 0;
        let full = index < self.full_games;
        Costly {
            moves: one_in(self.moves_one_in) || full,
            setup: one_in(self.setup_one_in) || full,
            json: one_in(self.json_one_in) || index < self.json_games,
        }
    }
}

/// What was seen, to make sure the random games reach what they are meant to test.
#[derive(Debug, Default)]
struct Seen {
    games: u64,
    positions: u64,
    moves_checks: u64,
    spec_checks: u64,
    setup_round_trips: u64,
    json_round_trips: u64,
    actions: u64,
    longest: u32,
    captures: u64,
    rolloffs: u64,
    turns_without_move: u64,
    ranked_everyone: u64,
    shared_places: u64,
    /// (horse board, one arm per seat, seat count, dice) of every game.
    kinds: BTreeSet<(bool, bool, usize, u8)>,
}

impl Seen {
    fn add(&mut self, other: Seen) {
        self.games += other.games;
        self.positions += other.positions;
        self.moves_checks += other.moves_checks;
        self.spec_checks += other.spec_checks;
        self.setup_round_trips += other.setup_round_trips;
        self.json_round_trips += other.json_round_trips;
        self.actions += other.actions;
        self.longest = self.longest.max(other.longest);
        self.captures += other.captures;
        self.rolloffs += other.rolloffs;
        self.turns_without_move += other.turns_without_move;
        self.ranked_everyone += other.ranked_everyone;
        self.shared_places += other.shared_places;
        self.kinds.extend(other.kinds);
    }
}

/// The context of a check, for a message that replays the failure.
struct Ctx<'a> {
    index: u64,
    config: &'a Config,
    board: SpecBoard,
    /// Each colour's arm by `rules.md` §2, by colour index.
    arms: [u8; 4],
    previous: Game,
    action: String,
}

impl Ctx<'_> {
    #[track_caller]
    fn fail(&self, game: &Game, message: impl AsRef<str>) -> ! {
        panic!(
            "game #{index} ({seats:?}, rules {rules}): {message}\n\
             after `{action}` from\n{previous}\nposition\n{position}",
            index = self.index,
            seats = self.config.seats,
            rules = serde_json::to_string(&self.config.rules).unwrap(),
            message = message.as_ref(),
            action = self.action,
            previous = self.previous.to_json(),
            position = game.to_json(),
        )
    }
}

macro_rules! ensure {
    ($ctx:expr, $game:expr, $cond:expr, $($msg:tt)+) => {
        if !$cond {
            $ctx.fail($game, format!($($msg)+));
        }
    };
}

/// Plays game number `index` to its end, checking every position; returns the final position as
/// JSON and the number of actions.
fn play_game(index: u64, checks: Checks, seen: &mut Seen) -> (String, u32) {
    let mut rng = game_rng(index);
    let config = config_of(index, &mut rng);
    // The checks draw from their own generator, so that they never change the game.
    let mut probe = SplitMix64(!rng.next_u64());
    let o = *config.rules.options();
    let mut game = Game::new(config.rules, &config.seats)
        .unwrap_or_else(|e| panic!("game #{index}: {config:?} refused: {e}"));
    let mut ctx = Ctx {
        index,
        config: &config,
        board: SpecBoard::of(&o, config.seats.len()),
        arms: Colour::ALL.map(|c| {
            if config.seats.contains(&c) {
                arm_of(&o, &config.seats, c)
            } else {
                u8::MAX
            }
        }),
        previous: game,
        action: "Game::new".to_owned(),
    };
    check_board(&game, &ctx);
    check_start(&game, &ctx);
    seen.games += 1;
    seen.kinds.insert((
        ctx.board.horse,
        o.layout == Layout::ByPlayers,
        config.seats.len(),
        o.dice,
    ));
    if game.phase() == Phase::Rolloff {
        seen.rolloffs += 1;
    }
    let mut actions = 0u32;
    // The moves the last throw offered, to compare with `legal_moves()`.
    let mut offered = None;
    loop {
        seen.positions += 1;
        let mut costly = checks.draw(index, &mut probe);
        // The first and the last position of every game go through JSON text (with the roll-off
        // and the places), wherever the checks are not cheap.
        costly.json |= checks.json_one_in > 0 && (actions == 0 || game.is_over());
        seen.moves_checks += u64::from(costly.moves && game.phase() == Phase::Move);
        seen.setup_round_trips += u64::from(costly.setup);
        seen.json_round_trips += u64::from(costly.json);
        let legal = check_position(&game, &ctx, costly, &mut probe);
        if let Some(offered) = offered.take() {
            ensure!(
                ctx,
                &game,
                offered == legal,
                "roll offered other moves than legal_moves"
            );
        }
        if game.is_over() {
            check_places(&game, &ctx, seen);
            break;
        }
        ensure!(
            ctx,
            &game,
            actions < MAX_ACTIONS,
            "(4) no end after {MAX_ACTIONS} actions"
        );
        ctx.previous = game;
        match game.phase() {
            Phase::Rolloff | Phase::Roll => {
                let throw = random_throw(&mut rng, game.dice_to_throw());
                ctx.action = format!("roll {throw}");
                let phase = game.phase();
                seen.spec_checks += u64::from(phase == Phase::Roll && costly.moves);
                let moves = game
                    .roll(throw)
                    .unwrap_or_else(|e| ctx.fail(&game, format!("throw refused: {e}")));
                match phase {
                    Phase::Rolloff => check_rolloff_throw(&ctx.previous, &game, throw, &ctx),
                    _ => check_roll(&ctx.previous, &game, throw, &moves, costly, &ctx),
                }
                if phase == Phase::Roll && costly.moves {
                    let mut fast = ctx.previous;
                    let fast_offered = fast.roll_unchecked(throw);
                    ensure!(
                        ctx,
                        &game,
                        fast == game && fast_offered == moves,
                        "roll_unchecked differs from roll: {}",
                        fast.to_json()
                    );
                }
                if phase == Phase::Roll && game.phase() == Phase::Roll {
                    seen.turns_without_move += u64::from(game.seat() != ctx.previous.seat());
                }
                ensure!(
                    ctx,
                    &game,
                    moves.is_empty() != (game.phase() == Phase::Move),
                    "roll offered {} moves and left phase {}",
                    moves.len(),
                    game.phase()
                );
                offered = Some(moves);
            }
            Phase::Move => {
                let chosen = *legal.get(rng.below(legal.len() as u64) as usize).unwrap();
                ctx.action = format!("move {}", chosen.piece);
                let played = game
                    .play(chosen.piece)
                    .unwrap_or_else(|e| ctx.fail(&game, format!("legal move refused: {e}")));
                ensure!(
                    ctx,
                    &game,
                    played == chosen,
                    "played {played:?}, not {chosen:?}"
                );
                check_move(&ctx.previous, &game, &chosen, &ctx);
                seen.captures += chosen.captures.len() as u64;
            }
            Phase::Over => unreachable!(),
        }
        actions += 1;
    }
    seen.actions += u64::from(actions);
    seen.longest = seen.longest.max(actions);
    (game.to_json(), actions)
}

fn random_throw(rng: &mut SplitMix64, dice: u8) -> Throw {
    match dice {
        1 => Throw::one(rng.die()),
        _ => Throw::two(rng.die(), rng.die()),
    }
}

/// The board's numbers, arms and safe squares are those of `rules.md` §2.
fn check_board(game: &Game, ctx: &Ctx) {
    let (g, b) = (game.geometry(), &ctx.board);
    ensure!(
        ctx,
        game,
        (g.arms(), g.arm_len(), g.track_len(), g.door(), g.last())
            == (b.arms, b.arm_len, b.track_len, b.door, b.last),
        "geometry {g:?} is not the spec's {b:?}"
    );
    for square in 0..b.track_len {
        ensure!(
            ctx,
            game,
            g.is_safe(square) == b.is_safe(square),
            "square {square} safe: engine {}, spec {}",
            g.is_safe(square),
            b.is_safe(square)
        );
    }
    for &seat in &ctx.config.seats {
        let arm = ctx.arms[seat.index()];
        ensure!(
            ctx,
            game,
            game.arm(seat) == arm,
            "{seat} sits on arm {}, not {arm}",
            game.arm(seat)
        );
    }
}

/// Checks one position; returns its legal moves.
fn check_position(game: &Game, ctx: &Ctx, costly: Costly, probe: &mut SplitMix64) -> MoveList {
    check_pieces(game, ctx);
    let legal = game.legal_moves();
    check_turn(game, ctx, &legal);
    // (8)
    check_refusals(game, ctx, probe);
    // (1)
    if costly.moves && game.phase() == Phase::Move {
        check_every_move(game, ctx, &legal);
    }
    // (6)
    if costly.setup {
        let setup = game.to_setup();
        // (2) four pieces per seat, as written.
        ensure!(
            ctx,
            game,
            setup.pieces.len() == game.seats().len()
                && game
                    .seats()
                    .iter()
                    .all(|s| setup.pieces.get(s).is_some_and(|p| p.len() == 4)),
            "(2) pieces written as {:?}",
            setup.pieces
        );
        match Game::from_setup(&setup) {
            Ok(read) => ensure!(ctx, game, read == *game, "(6) setup read back as {read:?}"),
            Err(e) => ctx.fail(game, format!("(6) own setup refused: {e}")),
        }
    }
    if costly.json {
        let text = game.to_json();
        let read = Game::from_json(&text)
            .unwrap_or_else(|e| ctx.fail(game, format!("(6) own JSON refused: {e}")));
        ensure!(
            ctx,
            game,
            read == *game,
            "(6) JSON read back as another game"
        );
        let again = read.to_json();
        ensure!(
            ctx,
            game,
            again == text,
            "(6) JSON written back differently:\n{again}"
        );
    }
    legal
}

/// (2) and (3): where the pieces stand. Written with plain loops and bit sets: it runs on every
/// one of millions of positions in a debug build.
fn check_pieces(game: &Game, ctx: &Ctx) {
    let (o, b, seats) = (game.options(), &ctx.board, game.seats());
    ensure!(ctx, game, seats == ctx.config.seats, "seats changed");
    // Who stands on each track square: colour index + 1, or 0 for nobody.
    let mut owner = [0u8; 64];
    for &seat in seats {
        let colour = seat.index() as u8 + 1;
        let pieces = game.pieces(seat);
        let arm = ctx.arms[seat.index()];
        let (mut own_track, mut own_home) = (0u64, 0u8);
        let (mut home, mut finished) = (0u32, 0);
        for (i, p) in pieces.iter().enumerate() {
            let Some(steps) = p.steps() else { continue };
            ensure!(
                ctx,
                game,
                steps <= b.last,
                "(2) {seat} piece {i} at {steps}, beyond {}",
                b.last
            );
            if steps <= b.door {
                let square = b.square(arm, steps);
                let bit = 1u64 << square;
                ensure!(
                    ctx,
                    game,
                    o.stacking || own_track & bit == 0,
                    "(3) {seat} piece {i} shares progress {steps} with another, without stacking"
                );
                own_track |= bit;
                let there = owner[square as usize];
                ensure!(
                    ctx,
                    game,
                    there == 0 || there == colour || b.is_safe(square),
                    "(3) {} and {seat} share unsafe track square {square}",
                    Colour::from_index(there as usize - 1)
                );
                owner[square as usize] = colour;
                continue;
            }
            if b.is_finished(steps) {
                finished += 1;
                if !b.horse {
                    // Any number of pieces may be finished on the Ludo finish.
                    continue;
                }
            }
            // A home square (on the horse board, a home cell: each horse has a cell of its own).
            let bit = 1u8 << (steps - b.door - 1);
            ensure!(
                ctx,
                game,
                (o.stacking && !b.horse) || own_home & bit == 0,
                "(3) {seat} piece {i} shares home square {steps} with another"
            );
            own_home |= bit;
            home += 1;
        }
        if b.horse {
            // Horses home fill cells 6, 5, 4, 3 in that order: the top `home` of six cells.
            ensure!(
                ctx,
                game,
                u32::from(own_home) == ((1 << home) - 1) << (6 - home),
                "(3) {seat} horses home on cells {own_home:#08b}, not 6, 5, 4, 3 in order"
            );
        }
        let is_done = game.done().contains(&seat);
        ensure!(
            ctx,
            game,
            (finished == 4) == is_done,
            "{seat}: {finished} pieces finished, listed done: {is_done}"
        );
    }
}

/// The turn fits the phase (`rules.md` §4, `position.md` §1).
fn check_turn(game: &Game, ctx: &Ctx, legal: &MoveList) {
    let (o, seats) = (game.options(), game.seats());
    let n = seats.len();
    let done = game.done();
    let twice = (0..done.len()).any(|i| done[i + 1..].contains(&done[i]));
    ensure!(ctx, game, !twice, "a seat is done twice: {done:?}");
    let done_at_end = if o.rank_everyone { n - 1 } else { 1 };
    if game.phase() == Phase::Over {
        ensure!(
            ctx,
            game,
            done.len() == done_at_end && done.last() == Some(&game.seat()),
            "(7) over with done {done:?} and seat {}",
            game.seat()
        );
        ensure!(
            ctx,
            game,
            game.throws() == 0 && game.bonus_streak() == 0,
            "(7) counters not 0 in phase over"
        );
    } else {
        ensure!(
            ctx,
            game,
            done.len() < done_at_end && !done.contains(&game.seat()),
            "play goes on with done {done:?} and seat {}",
            game.seat()
        );
        ensure!(
            ctx,
            game,
            seats.iter().all(|&s| game.place(s).is_none()),
            "places before the end"
        );
    }
    match game.phase() {
        Phase::Rolloff => {
            ensure!(
                ctx,
                game,
                o.first_player == FirstPlayer::HighestRoll,
                "a roll-off without first_player = highest_roll"
            );
            ensure!(
                ctx,
                game,
                seats.iter().all(|&s| game.pieces(s) == [Progress::BASE; 4]),
                "a roll-off after a piece moved"
            );
            ensure!(
                ctx,
                game,
                game.rolloff(game.seat()) == Some(None),
                "the seat to throw in the roll-off has thrown or is out"
            );
            ensure!(
                ctx,
                game,
                game.throws() == 0 && game.bonus_streak() == 0,
                "counters not 0 in the roll-off"
            );
        }
        Phase::Roll | Phase::Move => {
            ensure!(
                ctx,
                game,
                !o.three_bonus_forfeit || game.bonus_streak() < 3,
                "a bonus streak of {} with three_bonus_forfeit",
                game.bonus_streak()
            );
            ensure!(
                ctx,
                game,
                game.bonus_streak() <= game.throws(),
                "bonus streak {} over {} throws",
                game.bonus_streak(),
                game.throws()
            );
        }
        Phase::Over => {}
    }
    let expected_dice = if game.phase() == Phase::Rolloff {
        1
    } else {
        o.dice
    };
    ensure!(
        ctx,
        game,
        game.dice_to_throw() == expected_dice,
        "dice_to_throw {} in phase {}",
        game.dice_to_throw(),
        game.phase()
    );
    if game.phase() == Phase::Move {
        let Some(throw) = game.roll_in_play() else {
            ctx.fail(game, "phase move without a throw in play");
        };
        ensure!(ctx, game, throw.dice() == o.dice, "throw {throw} in play");
        ensure!(
            ctx,
            game,
            !legal.is_empty(),
            "phase move with no legal move"
        );
        ensure!(
            ctx,
            game,
            game.throws() >= 1 && (game.bonus_streak() > 0) == is_bonus(o, throw),
            "phase move: throws {}, bonus streak {} with throw {throw}",
            game.throws(),
            game.bonus_streak()
        );
        check_moves_are_well_formed(game, ctx, throw, legal);
    } else {
        ensure!(
            ctx,
            game,
            game.roll_in_play().is_none(),
            "a throw in play in phase {}",
            game.phase()
        );
        ensure!(
            ctx,
            game,
            legal.is_empty(),
            "legal moves in phase {}",
            game.phase()
        );
    }
}

/// The moves offered obey `rules.md` §5 in what can be seen of each move alone: one per piece
/// at most, in piece order, from where the piece stands, by the count thrown (or to the start
/// for an exit), capturing exactly the opponent pieces on an unsafe landing square.
fn check_moves_are_well_formed(game: &Game, ctx: &Ctx, throw: Throw, legal: &MoveList) {
    let (o, b) = (game.options(), &ctx.board);
    let seat = game.seat();
    let pieces = game.pieces(seat);
    let count = throw.count();
    let arm = ctx.arms[seat.index()];
    let finished = pieces
        .iter()
        .filter(|p| p.steps().is_some_and(|s| b.is_finished(s)))
        .count() as u8;
    let mut last_piece = None;
    for m in legal.iter() {
        ensure!(
            ctx,
            game,
            m.piece < 4 && last_piece.is_none_or(|l| l < m.piece),
            "(1) moves out of piece order: {m:?}"
        );
        last_piece = Some(m.piece);
        let from = pieces[m.piece as usize];
        ensure!(ctx, game, m.from == from, "(1) {m:?} from a wrong place");
        let to_ok = match from.steps() {
            None => is_exit(o, throw) && m.to == Progress::START,
            Some(s) if b.is_finished(s) => false,
            Some(s) => {
                let to = m.to.steps().unwrap_or(u8::MAX);
                if b.horse {
                    to == s + count && (to <= b.door || to == b.last - finished)
                } else if o.exact_finish {
                    to == s + count && to <= b.last
                } else {
                    to == (s + count).min(b.last)
                }
            }
        };
        ensure!(
            ctx,
            game,
            to_ok,
            "(1) {m:?} does not move {count} (throw {throw})"
        );
        // One bit per colour and piece index.
        let mut expected = 0u16;
        let to = m.to.steps().unwrap();
        if to <= b.door && !b.is_safe(b.square(arm, to)) {
            let square = b.square(arm, to);
            for &other in game.seats().iter().filter(|&&c| c != seat) {
                let other_arm = ctx.arms[other.index()];
                for (i, p) in game.pieces(other).iter().enumerate() {
                    if p.steps()
                        .is_some_and(|s| s <= b.door && b.square(other_arm, s) == square)
                    {
                        expected |= 1 << (other.index() * 4 + i);
                    }
                }
            }
        }
        let captured = m
            .captures
            .iter()
            .fold(0u16, |bits, (c, i)| bits | 1 << (c.index() * 4 + i));
        ensure!(
            ctx,
            game,
            captured == expected,
            "(1) {m:?} captures {captured:#b}, not {expected:#b}"
        );
    }
}

/// (1) Every legal move is accepted by `play` (as `play_unchecked` plays it) and every other
/// piece index is refused, with no change.
fn check_every_move(game: &Game, ctx: &Ctx, legal: &MoveList) {
    let seat = game.seat();
    for m in legal.iter() {
        let mut after = *game;
        match after.play(m.piece) {
            Ok(played) if played == *m => {}
            other => ctx.fail(
                game,
                format!("(1) play({}) gave {other:?}, not {m:?}", m.piece),
            ),
        }
        let mut fast = *game;
        fast.play_unchecked(m);
        ensure!(
            ctx,
            game,
            fast == after,
            "(1) play_unchecked({}) differs from play: {}",
            m.piece,
            fast.to_json()
        );
        ensure!(
            ctx,
            game,
            after.pieces(seat)[m.piece as usize] == m.to
                && m.captures
                    .iter()
                    .all(|(c, i)| after.pieces(c)[i] == Progress::BASE),
            "(1) after play({}) the piece or a captured piece is elsewhere",
            m.piece
        );
    }
    for piece in [0u8, 1, 2, 3, 4, 255] {
        if legal.of_piece(piece).is_some() {
            continue;
        }
        let mut after = *game;
        let result = after.play(piece);
        let right_error = match result {
            Err(PlayError::NoSuchPiece(p)) => p == piece && piece > 3,
            Err(PlayError::NoMove { seat: s, piece: p }) => s == seat && p == piece && piece <= 3,
            _ => false,
        };
        ensure!(
            ctx,
            game,
            right_error,
            "(1) play({piece}), not a legal move, gave {result:?}"
        );
        ensure!(
            ctx,
            game,
            after == *game,
            "(1) refused play({piece}) changed the game"
        );
    }
}

/// (8) Throws outside phase `roll`/`rolloff`, moves outside phase `move`, and throws with the
/// wrong number of dice are refused and change nothing. The throw and the pieces tried are drawn
/// at random, position by position.
fn check_refusals(game: &Game, ctx: &Ctx, probe: &mut SplitMix64) {
    let phase = game.phase();
    let throws_allowed = matches!(phase, Phase::Roll | Phase::Rolloff);
    let (one, two) = (
        Throw::one(probe.die()),
        Throw::two(probe.die(), probe.die()),
    );
    let (right, wrong) = if game.dice_to_throw() == 1 {
        (one, two)
    } else {
        (two, one)
    };
    let tried: &[Throw] = if throws_allowed {
        &[wrong]
    } else {
        &[right, wrong]
    };
    for &throw in tried {
        let mut after = *game;
        let result = after.roll(throw);
        let right_error = match result {
            Err(PlayError::WrongPhase { phase: p, .. }) => !throws_allowed && p == phase,
            Err(PlayError::WrongDice { wanted, given }) => {
                throws_allowed && wanted == game.dice_to_throw() && given == throw.dice()
            }
            _ => false,
        };
        ensure!(
            ctx,
            game,
            right_error,
            "(8) roll {throw} in phase {phase} gave {result:?}"
        );
        ensure!(
            ctx,
            game,
            after == *game,
            "(8) refused roll {throw} changed the game"
        );
    }
    if phase != Phase::Move {
        for piece in [probe.below(4) as u8, probe.pick(&[4, 255])] {
            let mut after = *game;
            let result = after.play(piece);
            ensure!(
                ctx,
                game,
                matches!(result, Err(PlayError::WrongPhase { phase: p, .. }) if p == phase),
                "(8) play({piece}) in phase {phase} gave {result:?}"
            );
            ensure!(
                ctx,
                game,
                after == *game,
                "(8) refused play({piece}) changed the game"
            );
        }
    }
}

/// The moves `rules.md` §5 gives the seat to act for `throw`, by piece index, worked out from
/// the spec alone (exits, exact or inexact finish, the horse's target cell, passing, landing and
/// captures).
fn spec_moves(game: &Game, ctx: &Ctx, throw: Throw) -> [Option<Move>; 4] {
    let (o, b) = (game.options(), &ctx.board);
    let seat = game.seat();
    let me = seat.index();
    // How many pieces of each colour stand on each track square.
    let mut on = [[0u8; 4]; 64];
    for &c in game.seats() {
        for p in game.pieces(c) {
            if let Some(s) = p.steps().filter(|&s| s <= b.door) {
                on[b.square(ctx.arms[c.index()], s) as usize][c.index()] += 1;
            }
        }
    }
    let opponents = |sq: usize| (0..4).any(|c| c != me && on[sq][c] > 0);
    let blockade = |sq: usize| (0..4).any(|c| c != me && on[sq][c] >= 2);
    let pieces = game.pieces(seat);
    // An own piece on home square `q` that is not finished.
    let own_home = |q: u8| !b.is_finished(q) && pieces.iter().any(|p| p.steps() == Some(q));
    let arm = ctx.arms[me];
    let count = throw.count();
    let finished = pieces
        .iter()
        .filter(|p| p.steps().is_some_and(|s| b.is_finished(s)))
        .count() as u8;
    let mut moves = [None; 4];
    for (i, &from) in pieces.iter().enumerate() {
        let to = match from.steps() {
            None if is_exit(o, throw) => 0,
            None => continue,
            Some(s) if b.is_finished(s) => continue,
            Some(s) => {
                let mut to = s + count;
                if b.horse {
                    if to > b.door && to != b.last - finished {
                        continue;
                    }
                } else if to > b.last {
                    if o.exact_finish {
                        continue;
                    }
                    to = b.last;
                }
                let blocked = (s + 1..to).any(|q| {
                    if q > b.door {
                        return o.passing == Passing::Any && own_home(q);
                    }
                    let sq = b.square(arm, q) as usize;
                    match o.passing {
                        Passing::Free => false,
                        Passing::Blockades => blockade(sq),
                        Passing::Opponents => opponents(sq),
                        Passing::Any => opponents(sq) || on[sq][me] > 0,
                    }
                });
                if blocked {
                    continue;
                }
                to
            }
        };
        let mut captures = Captures::NONE;
        if to <= b.door {
            let sq = b.square(arm, to);
            if o.passing == Passing::Blockades && blockade(sq as usize) {
                continue;
            }
            if !o.stacking && on[sq as usize][me] > 0 {
                continue;
            }
            if !b.is_safe(sq) {
                for &c in game.seats().iter().filter(|&&c| c != seat) {
                    for (j, p) in game.pieces(c).iter().enumerate() {
                        if p.steps()
                            .is_some_and(|s| s <= b.door && b.square(ctx.arms[c.index()], s) == sq)
                        {
                            captures = captures.with(c, j);
                        }
                    }
                }
            }
        } else if !o.stacking && own_home(to) {
            continue;
        }
        moves[i] = Some(Move {
            piece: i as u8,
            from,
            to: Progress::at(to),
            captures,
        });
    }
    moves
}

/// The moves offered are the moves of `rules.md` §5.
fn check_spec_moves(game: &Game, ctx: &Ctx, throw: Throw, offered: &MoveList) {
    let expected = spec_moves(game, ctx, throw);
    let same = offered.len() == expected.iter().flatten().count()
        && expected
            .iter()
            .flatten()
            .all(|m| offered.of_piece(m.piece) == Some(m));
    ensure!(
        ctx,
        game,
        same,
        "throw {throw} offers {:?}, but rules.md §5 gives {:?}",
        offered.iter().collect::<Vec<_>>(),
        expected.iter().flatten().collect::<Vec<_>>()
    );
}

/// `why_no_move` gives a reason to exactly the pieces the throw does not move, and says a
/// forfeit when the throw forfeits the turn; a piece in the base is held there by the throw
/// exactly when the throw is not an exit throw, and only finished pieces are called finished.
fn check_why_no_move(game: &Game, ctx: &Ctx, throw: Throw, offered: &MoveList, forfeit: bool) {
    let why = game.why_no_move(game.seat(), throw);
    ensure!(
        ctx,
        game,
        why.forfeit == forfeit,
        "throw {throw}: why_no_move says forfeit {}, the turn {forfeit}",
        why.forfeit
    );
    if forfeit {
        return;
    }
    for (index, piece) in game.pieces(game.seat()).into_iter().enumerate() {
        let reason = why.pieces[index];
        let moves = offered.of_piece(index as u8).is_some();
        ensure!(
            ctx,
            game,
            reason.is_none() == moves,
            "throw {throw}: piece {index} has the reason {reason:?}, and a move: {moves}"
        );
        let in_base = matches!(reason, Some(Refusal::InBase { .. }));
        ensure!(
            ctx,
            game,
            in_base == (piece.is_base() && !is_exit(game.options(), throw)),
            "throw {throw}: piece {index} at {piece} has the reason {reason:?}"
        );
        let finished = piece.steps().is_some_and(|s| ctx.board.is_finished(s));
        ensure!(
            ctx,
            game,
            (reason == Some(Refusal::Finished)) == finished,
            "throw {throw}: piece {index} at {piece} has the reason {reason:?}"
        );
    }
}

/// The seat after `seat` in seat order that is not done.
fn next_seat(seats: &[Colour], done: &[Colour], seat: Colour) -> Colour {
    let at = seats.iter().position(|&s| s == seat).unwrap();
    (1..=seats.len())
        .map(|k| seats[(at + k) % seats.len()])
        .find(|s| !done.contains(s))
        .unwrap_or(seat)
}

/// The turn after an action, as `rules.md` §4 says it must be: whose turn, its phase and counters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct TurnState {
    seat: Colour,
    phase: Phase,
    roll: Option<Throw>,
    bonus_streak: u8,
    throws: u8,
}

impl TurnState {
    fn of(game: &Game) -> TurnState {
        TurnState {
            seat: game.seat(),
            phase: game.phase(),
            roll: game.roll_in_play(),
            bonus_streak: game.bonus_streak(),
            throws: game.throws(),
        }
    }

    /// A fresh turn of `seat`.
    fn fresh(seat: Colour, phase: Phase) -> TurnState {
        TurnState {
            seat,
            phase,
            roll: None,
            bonus_streak: 0,
            throws: 0,
        }
    }
}

/// Every seat's pieces, by colour index.
fn all_pieces(game: &Game) -> [[Progress; 4]; 4] {
    let mut all = [[Progress::BASE; 4]; 4];
    for &seat in game.seats() {
        all[seat.index()] = game.pieces(seat);
    }
    all
}

/// A new game starts with a roll-off (all seats to throw, the first listed first) or with the
/// first listed seat's turn.
fn check_start(game: &Game, ctx: &Ctx) {
    let seats = game.seats();
    let rolloff = game.options().first_player == FirstPlayer::HighestRoll;
    let phase = if rolloff { Phase::Rolloff } else { Phase::Roll };
    ensure!(
        ctx,
        game,
        TurnState::of(game) == TurnState::fresh(seats[0], phase)
            && seats
                .iter()
                .all(|&s| game.rolloff(s) == rolloff.then_some(None))
            && all_pieces(game) == [[Progress::BASE; 4]; 4]
            && game.done().is_empty(),
        "a new game does not start as rules.md §4 says"
    );
}

/// One roll-off throw (`rules.md` §4.1): the next seat still to throw throws next; once all have
/// thrown, the only highest starts, or the seats tied for highest throw again among themselves.
fn check_rolloff_throw(before: &Game, after: &Game, throw: Throw, ctx: &Ctx) {
    let seats = before.seats();
    let face = throw.count();
    let mut entries: Vec<Option<Option<u8>>> = seats.iter().map(|&s| before.rolloff(s)).collect();
    let at = seats.iter().position(|&s| s == before.seat()).unwrap();
    entries[at] = Some(Some(face));
    let waiting = (0..seats.len()).find(|&i| entries[i] == Some(None));
    let (turn, expected): (TurnState, Vec<Option<Option<u8>>>) = match waiting {
        Some(next) => (TurnState::fresh(seats[next], Phase::Rolloff), entries),
        None => {
            let best = entries.iter().flatten().flatten().max().copied();
            let tied: Vec<usize> = (0..seats.len())
                .filter(|&i| entries[i] == Some(best))
                .collect();
            if tied.len() == 1 {
                let none = vec![None; seats.len()];
                (TurnState::fresh(seats[tied[0]], Phase::Roll), none)
            } else {
                let again = (0..seats.len())
                    .map(|i| tied.contains(&i).then_some(None))
                    .collect();
                (TurnState::fresh(seats[tied[0]], Phase::Rolloff), again)
            }
        }
    };
    let got: Vec<Option<Option<u8>>> = seats.iter().map(|&s| after.rolloff(s)).collect();
    ensure!(
        ctx,
        after,
        TurnState::of(after) == turn
            && (got == expected || turn.phase == Phase::Roll)
            && all_pieces(after) == all_pieces(before),
        "roll-off: expected {turn:?} with throws {expected:?}, got {:?} with {got:?}",
        TurnState::of(after)
    );
}

/// One throw in phase `roll` (`rules.md` §4.2): auto exit, bonus streak and forfeit, phase move,
/// three tries, bonus throw without a move, or the end of the turn.
fn check_roll(
    before: &Game,
    after: &Game,
    throw: Throw,
    offered: &MoveList,
    costly: Costly,
    ctx: &Ctx,
) {
    let o = before.options();
    let seat = before.seat();
    let seats = before.seats();
    let next = TurnState::fresh(next_seat(seats, before.done(), seat), Phase::Roll);
    let pieces = before.pieces(seat);
    let no_piece_out = pieces
        .iter()
        .all(|p| p.steps().is_none_or(|s| ctx.board.is_finished(s)));
    let mut expected_pieces = all_pieces(before);
    let turn = if o.no_piece_out == NoPieceOut::AutoExit && no_piece_out {
        // The lowest-numbered base piece goes to the start if that exit is legal.
        let lowest = pieces.iter().position(|p| p.is_base()).unwrap();
        let exit = if before.options().dice == 1 {
            Throw::one(o.exit_values.faces().next().unwrap_or(6))
        } else {
            let face = o.exit_values.faces().next().unwrap_or(1);
            Throw::two(face, face)
        };
        if let Some(m) = spec_moves(before, ctx, exit)[lowest] {
            expected_pieces[seat.index()][lowest] = m.to;
            for (c, j) in m.captures.iter() {
                expected_pieces[c.index()][j] = Progress::BASE;
            }
        }
        next
    } else {
        let bonus = is_bonus(o, throw);
        let streak = if bonus { before.bonus_streak() + 1 } else { 0 };
        let throws = before.throws() + 1;
        let again = TurnState {
            seat,
            phase: Phase::Roll,
            roll: None,
            bonus_streak: streak,
            throws,
        };
        let forfeit = o.three_bonus_forfeit && streak >= 3;
        if forfeit {
            ensure!(
                ctx,
                after,
                offered.is_empty(),
                "a forfeited throw offers moves"
            );
        } else if costly.moves {
            check_spec_moves(before, ctx, throw, offered);
        }
        if costly.moves {
            check_why_no_move(before, ctx, throw, offered, forfeit);
        }
        if forfeit {
            next
        } else if !offered.is_empty() {
            TurnState {
                phase: Phase::Move,
                roll: Some(throw),
                ..again
            }
        } else if (o.no_piece_out == NoPieceOut::ThreeTries && throws < 3 && no_piece_out)
            || (bonus && o.bonus_if_no_move)
        {
            // Three tries to bring a piece out, or a bonus throw that gives another throw even
            // without a move: the same seat throws again.
            again
        } else {
            next
        }
    };
    ensure!(
        ctx,
        after,
        TurnState::of(after) == turn && all_pieces(after) == expected_pieces,
        "throw {throw}: rules.md §4 expects {turn:?} and pieces {expected_pieces:?}, got {:?}",
        TurnState::of(after)
    );
    ensure!(
        ctx,
        after,
        after.done() == before.done(),
        "a throw changed the done seats"
    );
}

/// One move (`rules.md` §4.3–4): the pieces move as the move says; then the seat is done, or
/// throws again after a bonus throw, a capture with `bonus_on_capture` or a finish with
/// `bonus_on_finish`, or the turn passes.
fn check_move(before: &Game, after: &Game, m: &Move, ctx: &Ctx) {
    let (o, b) = (before.options(), &ctx.board);
    let seat = before.seat();
    let seats = before.seats();
    let mut pieces = all_pieces(before);
    pieces[seat.index()][m.piece as usize] = m.to;
    for (c, j) in m.captures.iter() {
        pieces[c.index()][j] = Progress::BASE;
    }
    let finished = m.to.steps().is_some_and(|s| b.is_finished(s));
    let all_finished = pieces[seat.index()]
        .iter()
        .all(|p| p.steps().is_some_and(|s| b.is_finished(s)));
    let mut done = before.done().to_vec();
    let turn = if all_finished {
        done.push(seat);
        if o.rank_everyone && seats.len() - done.len() > 1 {
            TurnState::fresh(next_seat(seats, &done, seat), Phase::Roll)
        } else {
            TurnState::fresh(seat, Phase::Over)
        }
    } else {
        let throw = before.roll_in_play().unwrap();
        let again = is_bonus(o, throw)
            || (o.bonus_on_capture && !m.captures.is_empty())
            || (o.bonus_on_finish && finished);
        if again {
            TurnState {
                phase: Phase::Roll,
                roll: None,
                ..TurnState::of(before)
            }
        } else {
            TurnState::fresh(next_seat(seats, &done, seat), Phase::Roll)
        }
    };
    ensure!(
        ctx,
        after,
        TurnState::of(after) == turn && all_pieces(after) == pieces && after.done() == done,
        "move {m:?}: rules.md §4 expects {turn:?}, done {done:?}, got {:?}",
        TurnState::of(after)
    );
}

/// (7) Places at the end of a game (`rules.md` §6).
fn check_places(game: &Game, ctx: &Ctx, seen: &mut Seen) {
    let (seats, b) = (game.seats(), &ctx.board);
    let n = seats.len();
    let done = game.done();
    let places: Vec<(Colour, u8)> = seats
        .iter()
        .map(|&s| {
            let place = game
                .place(s)
                .unwrap_or_else(|| ctx.fail(game, format!("(7) {s} has no place")));
            (s, place)
        })
        .collect();
    let place_of = |seat: Colour| places.iter().find(|p| p.0 == seat).unwrap().1;
    ensure!(
        ctx,
        game,
        places.iter().all(|&(_, p)| (1..=n as u8).contains(&p)),
        "(7) places {places:?} outside 1..{n}"
    );
    ensure!(
        ctx,
        game,
        place_of(done[0]) == 1,
        "(7) the first done seat has place {}",
        place_of(done[0])
    );
    let distinct: BTreeSet<u8> = places.iter().map(|p| p.1).collect();
    if game.options().rank_everyone {
        seen.ranked_everyone += 1;
        for (k, &seat) in done.iter().enumerate() {
            ensure!(
                ctx,
                game,
                place_of(seat) == k as u8 + 1,
                "(7) done seat {seat} (number {k} done) has place {}",
                place_of(seat)
            );
        }
        ensure!(
            ctx,
            game,
            distinct == (1..=n as u8).collect(),
            "(7) with rank_everyone, places {places:?} are not 1..{n}"
        );
    } else {
        // The others rank by pieces finished, then pieces out of the base, then their progress;
        // a seat's place is one more than the number of seats ranked strictly above it.
        let standing = |seat: Colour| {
            let out: Vec<u8> = game.pieces(seat).iter().filter_map(|p| p.steps()).collect();
            let finished = out.iter().filter(|&&s| b.is_finished(s)).count();
            let progress: u32 = out.iter().map(|&s| u32::from(s)).sum();
            (finished, out.len(), progress)
        };
        let others: Vec<Colour> = seats.iter().copied().filter(|s| s != &done[0]).collect();
        for &seat in &others {
            let above = others
                .iter()
                .filter(|&&s| standing(s) > standing(seat))
                .count();
            ensure!(
                ctx,
                game,
                place_of(seat) as usize == 2 + above,
                "(7) {seat} has place {} with {above} seats above it ({places:?})",
                place_of(seat)
            );
        }
        if distinct.len() < n {
            seen.shared_places += 1;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The tests.

/// Plays every game of `preset` (every third game number) with every check, on as many threads
/// as there are cores, and makes sure the games reached what they are meant to test.
fn play_every_game_of(preset: Preset) {
    let first = Preset::ALL.iter().position(|&p| p == preset).unwrap() as u64;
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get().min(4)) as u64;
    let mut seen = Seen::default();
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|w| {
                scope.spawn(move || {
                    let mut seen = Seen::default();
                    for index in (first + 3 * w..games()).step_by(3 * workers as usize) {
                        play_game(index, FULL_CHECKS, &mut seen);
                    }
                    seen
                })
            })
            .collect();
        for handle in handles {
            match handle.join() {
                Ok(part) => seen.add(part),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
    });
    eprintln!(
        "{preset}: {} games, {} positions ({} with every move played, {} throws checked against \
         §5, {} read back from a setup, {} from JSON text), {} actions (longest game {}), \
         {} captures, {} roll-offs, {} turns ended without a move, {} ranked everyone, \
         {} ended with shared places, {} kinds of board",
        seen.games,
        seen.positions,
        seen.moves_checks,
        seen.spec_checks,
        seen.setup_round_trips,
        seen.json_round_trips,
        seen.actions,
        seen.longest,
        seen.captures,
        seen.rolloffs,
        seen.turns_without_move,
        seen.ranked_everyone,
        seen.shared_places,
        seen.kinds.len()
    );
    assert!(seen.games >= games() / 3);
    assert!(seen.captures > 0 && seen.rolloffs > 0 && seen.turns_without_move > 0);
    assert!(seen.ranked_everyone > 0 && seen.shared_places > 0);
    for horse in [false, true] {
        for n in 2..=4 {
            for dice in [1, 2] {
                let played = |by_players| seen.kinds.contains(&(horse, by_players, n, dice));
                assert!(
                    played(false),
                    "{preset}: horse {horse}, {n} seats, {dice} dice"
                );
                if !horse {
                    assert!(
                        played(true),
                        "{preset}: {n} seats on arms of their own, {dice} dice"
                    );
                }
            }
        }
    }
}

#[test]
fn random_qdan_games_keep_every_invariant_in_every_position() {
    play_every_game_of(Preset::Qdan);
}

#[test]
fn random_classic_games_keep_every_invariant_in_every_position() {
    play_every_game_of(Preset::Classic);
}

#[test]
fn random_vietnamese_games_keep_every_invariant_in_every_position() {
    play_every_game_of(Preset::Vietnamese);
}

#[test]
fn the_same_seed_gives_the_same_game() {
    // Each sampled game is played twice, with the cheap checks and then with every check: the
    // checks play on copies and draw from a generator of their own, so the game is the same.
    let mut seen = Seen::default();
    for index in (0..games()).step_by(197) {
        let first = play_game(index, CHEAP_CHECKS, &mut seen);
        let again = play_game(index, FULL_CHECKS, &mut seen);
        assert_eq!(first, again, "game #{index} played twice");
    }
    // And different seeds give different games.
    let finals: BTreeSet<String> = (0..30)
        .map(|i| play_game(i, CHEAP_CHECKS, &mut seen).0)
        .collect();
    assert!(finals.len() > 25, "only {} different games", finals.len());
}

#[test]
fn the_generator_is_splitmix64() {
    // The first outputs of SplitMix64 from seed 0, as Vigna's reference code gives them.
    let mut rng = SplitMix64(0);
    assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
    assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
}
