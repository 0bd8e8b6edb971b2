//! `ludo bot` and `ludo arena`: the CPU players on the command line.

use std::time::Instant;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use ludo_bots::{Level, Rng, run_arena};
use ludo_rules::Phase;

use crate::engine::{read_game, read_rules};
use crate::failure::{Failure, bad};

/// Arguments of `ludo bot`.
#[derive(Args)]
pub struct BotArgs {
    /// The level: random, easy, medium, hard or expert.
    pub level: Level,
    /// The seed of the bot's own choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// `ludo bot LEVEL`: the move the bot chooses in the position on standard input, printed as
/// `ludo legal` prints moves.
pub fn bot(args: &BotArgs) -> Result<String, Failure> {
    let game = read_game()?;
    if game.phase() != Phase::Move {
        return Err(Failure::Illegal(format!(
            "a bot chooses a move in phase move, but the game is in phase {}",
            game.phase()
        )));
    }
    let moves = game.legal_moves();
    let choice = args
        .level
        .player()
        .choose(&game, &moves, &mut Rng::new(args.seed));
    Ok(serde_json::to_string(&choice).expect("a move always serialises"))
}

/// Arguments of `ludo arena`.
#[derive(Args)]
pub struct ArenaArgs {
    /// A preset (qdan, classic, vietnamese) or a JSON file holding a rules object.
    #[arg(long, default_value = "qdan")]
    pub rules: String,
    /// One level per seat, comma-separated (2 to 4), e.g. medium,random,random,random.
    #[arg(long, value_delimiter = ',', required = true)]
    pub bots: Vec<Level>,
    /// How many games.
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    /// The seed every throw and choice follows from.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// `ludo arena`.
pub fn arena(args: &ArenaArgs) -> Result<String, Failure> {
    let rules = read_rules(&args.rules)?;
    let bar = ProgressBar::new(args.games);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games, {eta} left")
            .expect("the template is valid"),
    );
    let began = Instant::now();
    let standings = run_arena(rules, &args.bots, args.games, args.seed, |g| {
        if g % 64 == 0 {
            bar.set_position(g);
        }
    })
    .map_err(bad)?;
    bar.finish_and_clear();
    let secs = began.elapsed().as_secs_f64();
    let mut out = format!(
        "{} games of {} with {} seats, seed {}\n",
        standings.games,
        args.rules,
        args.bots.len(),
        args.seed
    );
    for (i, e) in standings.entrants.iter().enumerate() {
        out += &format!(
            "seat list {} {:<7} win {:5.1}% ± {:.1}   mean place {:.3} ± {:.3}\n",
            i + 1,
            e.level.name(),
            100.0 * e.win_rate(),
            100.0 * e.win_rate_margin(),
            e.mean_place(),
            e.mean_place_margin()
        );
    }
    out += &format!(
        "games/s: {:.0}\nactions/s: {:.0}\nmean game length: {:.1} actions",
        standings.games as f64 / secs,
        standings.tally.actions() as f64 / secs,
        standings.tally.actions() as f64 / standings.games.max(1) as f64
    );
    Ok(out)
}

/// Arguments of `ludo bot-bench`.
#[derive(Args)]
pub struct BotBenchArgs {
    /// A preset (qdan, classic, vietnamese) or a JSON file holding a rules object.
    #[arg(long, default_value = "qdan")]
    pub rules: String,
    /// How many seats play (2 to 4).
    #[arg(long, default_value_t = 4)]
    pub seats: usize,
    /// How many positions with a real choice (two moves or more) each level decides.
    #[arg(long, default_value_t = 2000)]
    pub positions: usize,
    /// Games of four `medium` players for the arena's speed.
    #[arg(long, default_value_t = 20_000)]
    pub games: u64,
    /// The seed every throw and choice follows from.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Positions in phase move with at least two legal moves, from games of `medium` players.
fn decision_positions(start: &ludo_rules::Game, count: usize, seed: u64) -> Vec<ludo_rules::Game> {
    let mut found = Vec::with_capacity(count);
    let mut medium = Level::Medium.player();
    let mut rng = Rng::new(seed);
    while found.len() < count {
        let mut game = *start;
        while !game.is_over() && found.len() < count {
            match game.phase() {
                Phase::Move => {
                    let moves = game.legal_moves();
                    if moves.len() > 1 {
                        found.push(game);
                    }
                    let m = medium.choose(&game, &moves, &mut rng);
                    game.play_unchecked(&m);
                }
                _ => {
                    let throw = ludo_bots::throw_dice(&game, &mut rng);
                    game.roll(throw).expect("a throw the game asks for");
                }
            }
        }
    }
    found
}

/// Median, 99th percentile and maximum of some durations, in microseconds.
fn percentiles(mut micros: Vec<f64>) -> (f64, f64, f64) {
    micros.sort_by(f64::total_cmp);
    let at = |q: f64| micros[((micros.len() - 1) as f64 * q).round() as usize];
    (at(0.5), at(0.99), at(1.0))
}

/// `ludo bot-bench`: how long each level takes to decide, and how fast `medium` arenas run.
pub fn bot_bench(args: &BotBenchArgs) -> Result<String, Failure> {
    let rules = read_rules(&args.rules)?;
    let seats = ludo_bots::seats_for(args.seats)
        .ok_or_else(|| bad(format!("--seats {}: a game has 2 to 4 seats", args.seats)))?;
    let start = ludo_rules::Game::new(rules, seats).map_err(bad)?;
    let positions = decision_positions(&start, args.positions.max(1), args.seed);
    let mut out = format!(
        "{} decisions with two moves or more, {} with {} seats\n",
        positions.len(),
        args.rules,
        args.seats
    );
    for level in Level::ALL {
        let mut player = level.player();
        let mut rng = Rng::new(args.seed);
        let mut micros = Vec::with_capacity(positions.len());
        for game in &positions {
            let moves = game.legal_moves();
            let began = Instant::now();
            let choice = player.choose(game, &moves, &mut rng);
            micros.push(began.elapsed().as_secs_f64() * 1e6);
            if !moves.iter().any(|m| *m == choice) {
                return Err(Failure::Illegal(format!("{level} chose an illegal move")));
            }
        }
        let (median, p99, max) = percentiles(micros);
        out += &format!(
            "{:<7} median {median:9.2} µs   99th percentile {p99:9.2} µs   max {max:9.2} µs\n",
            level.name()
        );
    }
    let medium = [Level::Medium; 4];
    let began = Instant::now();
    let standings =
        run_arena(rules, &medium[..args.seats], args.games, args.seed, |_| {}).map_err(bad)?;
    let secs = began.elapsed().as_secs_f64();
    out += &format!(
        "arena of {} medium players: {:.0} games/s ({} games)",
        args.seats,
        standings.games as f64 / secs,
        standings.games
    );
    Ok(out)
}
