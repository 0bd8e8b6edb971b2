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
    /// The level: random, easy or medium.
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
