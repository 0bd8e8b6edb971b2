//! `ludo train-expert`: learns one of the `expert` CPU's value networks (see
//! `ludo_bots::expert`).

use clap::Args;
use ludo_bots::expert::{Net, Training, train};

use crate::failure::{Failure, bad};

/// Arguments of `ludo train-expert`.
#[derive(Args)]
pub struct TrainArgs {
    /// Games to play against three `medium` players.
    #[arg(long, default_value_t = 2_000_000)]
    pub games: u64,
    /// The seed of the dice and of the untrained network.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Where to write the network.
    #[arg(long)]
    pub out: std::path::PathBuf,
    /// Go on from this network instead of an untrained one.
    #[arg(long)]
    pub from: Option<std::path::PathBuf>,
    /// The level of the three players it learns against (`medium` for `value.bin`, `random` for
    /// `value-random.bin`).
    #[arg(long, default_value = "medium")]
    pub against: ludo_bots::Level,
}

/// Games between progress lines (and saves of the network so far).
const EVERY: u64 = 10_000;

/// `ludo train-expert`: trains, saving the network every [`EVERY`] games and at the end, and
/// prints the share of the last games won.
pub fn train_expert(args: &TrainArgs) -> Result<String, Failure> {
    let mut net = match &args.from {
        Some(path) => {
            let bytes = std::fs::read(path).map_err(|e| bad(format!("{}: {e}", path.display())))?;
            Net::from_bytes(&bytes).map_err(|e| bad(format!("{}: {e}", path.display())))?
        }
        None => Net::untrained(args.seed),
    };
    let save = |net: &Net| {
        std::fs::write(&args.out, net.to_bytes())
            .map_err(|e| bad(format!("{}: {e}", args.out.display())))
    };
    let mut last = String::from("no games played");
    let mut failed = None;
    let training = Training::standard(args.games, args.seed, args.against);
    train(&mut net, &training, EVERY, |net, games, won, of| {
        last = format!(
            "{games} games: won {:.1}% of the last {of}",
            100.0 * won as f64 / of as f64
        );
        eprintln!("{last}");
        if let Err(e) = save(net) {
            failed.get_or_insert(e);
        }
    });
    if let Some(e) = failed {
        return Err(e);
    }
    save(&net)?;
    Ok(last)
}
