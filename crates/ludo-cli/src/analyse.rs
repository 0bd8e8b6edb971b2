//! `ludo analyse GAME.json`: each seat's chance to win after every action of a game, and its
//! costly moves, as `expert`'s network sees them (see `ludo_bots::analysis`); the JSON the
//! browser's engine answers.

use std::path::Path;

use clap::Args;
use ludo_bots::expert::{Model, network};
use ludo_bots::{AnalysisError, analyse as analyse_game};
use ludo_fair::{Action, VerifyError};
use ludo_rules::{Colour, Rules};
use serde::Deserialize;

use crate::failure::{Failure, bad};

/// Arguments of `ludo analyse`.
#[derive(Args)]
pub struct AnalyseArgs {
    /// The game's record, as the server or a local game exports it (JSON; only `rules`,
    /// `seats` and `actions` are read).
    pub record: std::path::PathBuf,
    /// The first action analysed.
    #[arg(long, default_value_t = 0)]
    pub from: usize,
    /// The action the analysis stops before (the whole game when left out).
    #[arg(long)]
    pub to: Option<usize>,
}

/// What an analysis reads of a record.
#[derive(Deserialize)]
struct Played {
    rules: Rules,
    seats: Vec<Colour>,
    actions: Vec<Action>,
}

/// `ludo analyse`.
pub fn analyse(args: &AnalyseArgs) -> Result<String, Failure> {
    let path = &args.record;
    let text =
        std::fs::read_to_string(path).map_err(|e| bad(format!("{}: {e}", path.display())))?;
    let game: Played =
        serde_json::from_str(&text).map_err(|e| bad(format!("{}: {e}", path.display())))?;
    let range = args.from..args.to.unwrap_or(usize::MAX);
    let net = network(&game.rules, game.seats.len(), Model::Medium);
    let analysis = analyse_game(game.rules, &game.seats, &game.actions, net, range)
        .map_err(|e| failure(path, &e))?;
    Ok(analysis.to_json().to_string())
}

/// An action the rules refuse is an illegal one (exit 1); anything else, bad input.
fn failure(path: &Path, e: &AnalysisError) -> Failure {
    let message = format!("{}: {e} ({})", path.display(), e.code());
    match e {
        AnalysisError::Record(VerifyError::Illegal { .. }) => Failure::Illegal(message),
        _ => Failure::BadInput(message),
    }
}
