//! `ludo new`, `roll`, `legal` and `move`: positions in on standard input, out on standard output.

use std::io::Read;

use clap::Args;
use ludo_rules::{Colour, Game, Preset, Rules, Throw};

use crate::failure::{Failure, bad};

/// Arguments of `ludo new`.
#[derive(Args)]
pub struct NewArgs {
    /// A preset (qdan, classic, vietnamese) or a JSON file holding a rules object.
    #[arg(long, default_value = "qdan")]
    pub rules: String,
    /// The seats in turn order, comma-separated (default: all four).
    #[arg(long, value_delimiter = ',')]
    pub seats: Vec<Colour>,
}

/// Reads `--rules`: a preset name, or a file holding a rules object (or a preset name in quotes).
pub fn read_rules(arg: &str) -> Result<Rules, Failure> {
    if let Ok(preset) = arg.parse::<Preset>() {
        return Ok(Rules::preset(preset));
    }
    let text = std::fs::read_to_string(arg).map_err(|e| {
        bad(format!(
            "--rules {arg}: not a preset, and no file to read ({e})"
        ))
    })?;
    serde_json::from_str(&text).map_err(|e| bad(format!("--rules {arg}: {e}")))
}

/// `ludo new`.
pub fn new(args: &NewArgs) -> Result<String, Failure> {
    let rules = read_rules(&args.rules)?;
    let seats = if args.seats.is_empty() {
        Colour::ALL.to_vec()
    } else {
        args.seats.clone()
    };
    let game = Game::new(rules, &seats).map_err(|e| bad(format!("--seats: {e}")))?;
    Ok(game.to_json())
}

/// Reads the position on standard input.
pub fn read_game() -> Result<Game, Failure> {
    let mut input = String::new();
    std::io::stdin()
        .read_to_string(&mut input)
        .map_err(|e| bad(format!("standard input: {e}")))?;
    Game::from_json(&input).map_err(|e| bad(format!("position: {e}")))
}

/// `ludo roll D [D2]`.
pub fn roll(dice: &[u8]) -> Result<String, Failure> {
    let throw = Throw::new(dice).map_err(bad)?;
    let mut game = read_game()?;
    game.roll(throw)
        .map_err(|e| Failure::Illegal(e.to_string()))?;
    Ok(game.to_json())
}

/// `ludo legal`.
pub fn legal() -> Result<String, Failure> {
    let game = read_game()?;
    if game.phase() != ludo_rules::Phase::Move {
        return Err(Failure::Illegal(format!(
            "legal moves need phase move, but the game is in phase {}",
            game.phase()
        )));
    }
    Ok(serde_json::to_string(&game.legal_moves()).expect("moves always serialise"))
}

/// `ludo move PIECE`.
pub fn play(piece: u8) -> Result<String, Failure> {
    let mut game = read_game()?;
    game.play(piece)
        .map_err(|e| Failure::Illegal(e.to_string()))?;
    Ok(game.to_json())
}
