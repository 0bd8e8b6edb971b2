//! `ludo sim` and `ludo bench`: random games on one core, measured.

use std::time::{Duration, Instant};

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use ludo_bots::{RandomPlayer, Rng, Tally, play_out_by};
use ludo_rules::{Colour, Game, Rules};

use crate::engine::read_rules;
use crate::failure::{Failure, bad};

/// A game longer than this many actions is a bug, not bad luck.
const MAX_ACTIONS: u64 = 1_000_000;

/// Arguments of `ludo sim`.
#[derive(Args)]
pub struct SimArgs {
    /// A preset (qdan, classic, vietnamese) or a JSON file holding a rules object.
    #[arg(long, default_value = "qdan")]
    pub rules: String,
    /// How many seats play (2 to 4): yellow and red, then blue, then green.
    #[arg(long, default_value_t = 4)]
    pub seats: usize,
    /// How many games.
    #[arg(long, default_value_t = 10_000)]
    pub games: u64,
    /// The seed every throw and choice follows from.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Arguments of `ludo bench`.
#[derive(Args)]
pub struct BenchArgs {
    /// How many games.
    #[arg(long, default_value_t = 200_000)]
    pub games: u64,
    /// The seed every throw and choice follows from.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// The seats of an `n`-seat game, clockwise: two seats face each other.
fn seats_for(n: usize) -> Result<&'static [Colour], Failure> {
    ludo_bots::seats_for(n).ok_or_else(|| bad(format!("--seats {n}: a game has 2 to 4 seats")))
}

/// What a run of random games counted.
struct Run {
    games: u64,
    tally: Tally,
    elapsed: Duration,
}

/// Plays `games` random games from `start`, each with its own dice and choices drawn from `seed`.
fn run(start: &Game, games: u64, seed: u64, bar: &ProgressBar) -> Result<Run, Failure> {
    let mut seeds = Rng::new(seed);
    let mut tally = Tally::default();
    let mut random = RandomPlayer;
    let began = Instant::now();
    for g in 0..games {
        let mut game = *start;
        let (mut dice, mut choices) = (seeds.fork(), seeds.fork());
        let one = play_out_by(&mut game, &mut dice, &mut random, &mut choices, MAX_ACTIONS)
            .ok_or_else(|| Failure::Illegal(format!("game {g} did not end")))?;
        check_finished(&game, g)?;
        tally += one;
        if g % 4096 == 0 {
            bar.set_position(g);
        }
    }
    bar.finish_and_clear();
    Ok(Run {
        games,
        tally,
        elapsed: began.elapsed(),
    })
}

/// A finished game has a winner with every piece finished and a place for every seat.
fn check_finished(game: &Game, g: u64) -> Result<(), Failure> {
    let winner = game.done().first().copied();
    let sound = game.is_over()
        && winner.is_some_and(|w| {
            game.pieces(w)
                .iter()
                .all(|p| p.steps().is_some_and(|s| game.geometry().is_finished(s)))
        })
        && game.seats().iter().all(|&s| game.place(s).is_some());
    if sound {
        Ok(())
    } else {
        Err(Failure::Illegal(format!(
            "game {g} ended without a sound result"
        )))
    }
}

fn progress_bar(games: u64) -> ProgressBar {
    // Hidden by itself when standard error is not a terminal.
    let bar = ProgressBar::new(games);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games, {eta} left")
            .expect("the template is valid"),
    );
    bar
}

fn report(run: &Run) -> String {
    let secs = run.elapsed.as_secs_f64();
    let actions = run.tally.actions();
    format!(
        "games: {}\nactions: {} ({} throws, {} moves)\nmean game length: {:.1} actions\n\
         seconds: {:.3}\ngames/s: {:.0}\nactions/s: {:.0}\nns/action: {:.2}",
        run.games,
        actions,
        run.tally.throws,
        run.tally.moves,
        actions as f64 / run.games.max(1) as f64,
        secs,
        run.games as f64 / secs,
        actions as f64 / secs,
        secs * 1e9 / actions.max(1) as f64,
    )
}

/// `ludo sim`.
pub fn sim(args: &SimArgs) -> Result<String, Failure> {
    let rules = read_rules(&args.rules)?;
    let start = Game::new(rules, seats_for(args.seats)?).map_err(bad)?;
    let run = run(&start, args.games, args.seed, &progress_bar(args.games))?;
    Ok(report(&run))
}

/// `ludo bench`: random 4-seat qdan games; checks what it counted before it reports.
pub fn bench(args: &BenchArgs) -> Result<String, Failure> {
    let start = Game::new(Rules::default(), &Colour::ALL).map_err(bad)?;
    let run = run(&start, args.games, args.seed, &ProgressBar::hidden())?;
    // Every game ended with a winner (checked game by game); every move follows a throw, and a
    // winner needs at least 4 exits and 40 moves of at most 6 steps for its 4 × 56 steps.
    let tally = run.tally;
    if run.games != args.games || tally.moves > tally.throws || tally.moves < run.games * 44 {
        return Err(Failure::Illegal(format!(
            "the benchmark counted {} games, {} throws, {} moves: not what {} games need",
            run.games, tally.throws, tally.moves, args.games
        )));
    }
    Ok(format!(
        "{}\nposition size: {} bytes",
        report(&run),
        std::mem::size_of::<Game>()
    ))
}
