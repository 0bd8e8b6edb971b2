//! `ludo train-expert`: learns one of the `expert` CPU's value networks (see
//! `ludo_bots::expert`).

use clap::Args;
use ludo_bots::Level;
use ludo_bots::expert::{Key, Model, Net, Training, Variant, train};
use ludo_rules::{Layout, Preset};

use crate::failure::{Failure, bad};

/// Arguments of `ludo train-expert`.
#[derive(Args)]
pub struct TrainArgs {
    /// The rules (a preset: qdan, classic, vietnamese) of the game the network is for.
    #[arg(long, default_value = "qdan")]
    pub rules: Preset,
    /// How many seats that game has (2 to 4).
    #[arg(long, default_value_t = 4)]
    pub seats: u8,
    /// The Ludo board's layout: `cross`, or `by_players` (one arm per seat: a horizontal board
    /// for two, a T for three).
    #[arg(long, default_value = "cross", value_parser = parse_layout)]
    pub layout: Layout,
    /// Games to play against `medium` players in every other seat.
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
    /// The level of the players it learns against: `medium` (the network played against people
    /// and every level) or `random` (played against three `random` players).
    #[arg(long, default_value = "medium")]
    pub against: Level,
}

/// Reads a layout as the rules name it (`cross`, `by_players`).
fn parse_layout(name: &str) -> Result<Layout, String> {
    serde_json::from_value(serde_json::Value::from(name))
        .map_err(|_| format!("a layout is cross or by_players, not {name}"))
}

/// Games between progress lines (and saves of the network so far).
const EVERY: u64 = 10_000;

/// `ludo train-expert`: trains, saving the network every [`EVERY`] games and at the end, and
/// prints the share of the last games won.
pub fn train_expert(args: &TrainArgs) -> Result<String, Failure> {
    let variant = Variant::on(args.rules, args.seats, args.layout)
        .filter(|variant| variant.layout == args.layout)
        .ok_or_else(|| match args.seats {
            2..=3 => bad(format!(
                "{} is not played with one arm per seat",
                args.rules
            )),
            4 => bad("with four seats, one arm per seat is the cross: leave out --layout"),
            _ => bad(format!("a game has 2 to 4 seats, not {}", args.seats)),
        })?;
    let model = match args.against {
        Level::Medium => Model::Medium,
        Level::Random => Model::Random,
        other => {
            return Err(bad(format!(
                "a network learns against medium or random, not {other}"
            )));
        }
    };
    let key = Key { variant, model };
    let mut net = match &args.from {
        Some(path) => {
            let bytes = std::fs::read(path).map_err(|e| bad(format!("{}: {e}", path.display())))?;
            let net =
                Net::from_bytes(&bytes).map_err(|e| bad(format!("{}: {e}", path.display())))?;
            if net.key() != key {
                let known = net.key();
                return Err(bad(format!(
                    "{}: a network for {known}, not {key}",
                    path.display()
                )));
            }
            net
        }
        None => Net::untrained(key, args.seed),
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
