//! `ludo`: the rules engine on the command line (`position.md` §3), random-play simulation, the
//! engine's benchmark, and checking and analysing games' records.
//!
//! Exit codes: 0 done; 1 an action the rules forbid; 2 unreadable input or a bad argument. On an
//! error nothing is printed on standard output and one line on standard error says what was wrong.

mod analyse;
mod bots;
mod engine;
mod failure;
mod sim;
mod train;
mod verify;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// The Ludo rules engine on the command line.
#[derive(Parser)]
#[command(name = "ludo", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Prints the starting position.
    New(engine::NewArgs),
    /// Reads a position in phase roll or rolloff, applies the throw, prints the next position.
    Roll {
        /// The die (and the second die with two dice), 1 to 6.
        #[arg(required = true, num_args = 1..=2)]
        dice: Vec<u8>,
    },
    /// Reads a position in phase move and prints its legal moves, sorted by piece index.
    Legal,
    /// Reads a position in phase move, plays that piece's move, prints the next position.
    Move {
        /// The piece's index, 0 to 3.
        piece: u8,
    },
    /// Plays random games and prints games/s, actions/s and the mean game length.
    Sim(sim::SimArgs),
    /// The engine's benchmark: random 4-seat qdan games on one core.
    Bench(sim::BenchArgs),
    /// Reads a position in phase move and prints the move a CPU player chooses.
    Bot(bots::BotArgs),
    /// Plays CPU players against each other and prints their win rates and mean places.
    Arena(bots::ArenaArgs),
    /// The CPU players' benchmark: decision times per level, and the speed of medium arenas.
    BotBench(bots::BotBenchArgs),
    /// Learns a value network of the `expert` CPU by playing against three `medium` (or `random`)
    /// players.
    TrainExpert(train::TrainArgs),
    /// Checks a finished game's record: the seed against its commitment, and every throw.
    Verify {
        /// The record, as exported by the server (JSON).
        record: std::path::PathBuf,
    },
    /// Analyses a game's record with the `expert` CPU's network: each seat's chance to win after
    /// every action, each decision's best move, the turning points and the costly moves (JSON).
    Analyse(analyse::AnalyseArgs),
}

/// Parses the arguments; a bad argument is reported on one line, like every other failure.
fn parse_args() -> Result<Cli, ExitCode> {
    use clap::error::ErrorKind;
    Cli::try_parse().map_err(|error| match error.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = error.print();
            ExitCode::SUCCESS
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = error.print();
            ExitCode::from(2)
        }
        _ => {
            let rendered = error.to_string();
            let first = rendered.lines().next().unwrap_or("bad arguments");
            let message = first.strip_prefix("error: ").unwrap_or(first);
            eprintln!("ludo: {message} (see ludo --help)");
            ExitCode::from(2)
        }
    })
}

fn main() -> ExitCode {
    let cli = match parse_args() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    let outcome = match cli.command {
        Command::New(args) => engine::new(&args),
        Command::Roll { dice } => engine::roll(&dice),
        Command::Legal => engine::legal(),
        Command::Move { piece } => engine::play(piece),
        Command::Sim(args) => sim::sim(&args),
        Command::Bench(args) => sim::bench(&args),
        Command::Bot(args) => bots::bot(&args),
        Command::Arena(args) => bots::arena(&args),
        Command::BotBench(args) => bots::bot_bench(&args),
        Command::TrainExpert(args) => train::train_expert(&args),
        Command::Verify { record } => verify::verify(&record),
        Command::Analyse(args) => analyse::analyse(&args),
    };
    match outcome {
        Ok(output) => {
            use std::io::Write;
            if !output.is_empty() {
                // A reader that stops early (`| head`) is not an error of ours.
                let _ = writeln!(std::io::stdout(), "{output}");
            }
            ExitCode::SUCCESS
        }
        Err(failure) => {
            eprintln!("ludo: {failure}");
            failure.exit_code()
        }
    }
}
