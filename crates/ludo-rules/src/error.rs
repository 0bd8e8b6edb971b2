//! The two ways an engine call fails: a position that cannot occur, or an action the rules forbid.

use std::fmt;

use crate::colour::Colour;
use crate::game::Phase;

/// A position that cannot be read or cannot occur. `field` names the place in the JSON
/// (`pieces.red[2]`, `turn.phase`, `rules`…) and `reason` says what is wrong there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError {
    /// Where in the position the fault is.
    pub field: String,
    /// What is wrong with it.
    pub reason: String,
}

impl PositionError {
    pub(crate) fn new(field: impl Into<String>, reason: impl Into<String>) -> PositionError {
        PositionError {
            field: field.into(),
            reason: reason.into(),
        }
    }
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() {
            f.write_str(&self.reason)
        } else {
            write!(f, "{}: {}", self.field, self.reason)
        }
    }
}

impl std::error::Error for PositionError {}

/// An action the rules forbid in this position. The game is left unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The action belongs to another phase (a move while a throw is awaited, and so on).
    WrongPhase {
        /// What the action needs.
        wanted: &'static str,
        /// The phase the game is in.
        phase: Phase,
    },
    /// The throw has the wrong number of dice for these rules (a roll-off is always one die).
    WrongDice {
        /// Dice the rules throw here.
        wanted: u8,
        /// Dice given.
        given: u8,
    },
    /// A piece index outside 0..4.
    NoSuchPiece(u8),
    /// The piece has no legal move with this throw.
    NoMove {
        /// The seat to play.
        seat: Colour,
        /// The piece asked for.
        piece: u8,
    },
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::WrongPhase { wanted, phase } => {
                write!(f, "{wanted}, but the game is in phase {phase}")
            }
            PlayError::WrongDice { wanted, given } => {
                write!(f, "this throw needs {wanted} dice, {given} given")
            }
            PlayError::NoSuchPiece(piece) => {
                write!(f, "piece {piece} does not exist (pieces are 0..3)")
            }
            PlayError::NoMove { seat, piece } => {
                write!(f, "{seat} piece {piece} has no legal move with this throw")
            }
        }
    }
}

impl std::error::Error for PlayError {}
