//! Why a game is not analysed.

use std::fmt;

use ludo_fair::VerifyError;
use ludo_rules::Fault;

/// Why a game is not analysed: its own faults, or its record's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnalysisError {
    /// No network knows the game: a house rule is changed, or there is none for its preset and
    /// seats (`expert::fits`).
    Unavailable,
    /// No network to value positions with (in the browser, until it is installed).
    NoNetwork,
    /// The rules or seats make no game, or an action is refused (with its index).
    Record(VerifyError),
}

impl AnalysisError {
    /// The codes of an analysis's own faults; a record's answer the engine's codes
    /// ([`ludo_rules::all_codes`]), with the action's `index`.
    pub const CODES: &'static [&'static str] = &["analysis_unavailable", "no_network"];

    /// The stable code.
    pub fn code(&self) -> &'static str {
        match self {
            AnalysisError::Unavailable => "analysis_unavailable",
            AnalysisError::NoNetwork => "no_network",
            AnalysisError::Record(e) => e.code(),
        }
    }

    /// The values the fault speaks of: a record's (an action's `index`), else none.
    pub fn params(&self) -> serde_json::Value {
        match self {
            AnalysisError::Record(e) => e.params(),
            _ => serde_json::json!({}),
        }
    }
}

impl fmt::Display for AnalysisError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnalysisError::Unavailable => {
                f.write_str("only games the expert has a network for (a preset without house rules) can be analysed")
            }
            AnalysisError::NoNetwork => f.write_str("the expert's network is not installed"),
            AnalysisError::Record(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for AnalysisError {}

impl Fault for AnalysisError {
    fn code(&self) -> &'static str {
        AnalysisError::code(self)
    }

    fn params(&self) -> serde_json::Value {
        AnalysisError::params(self)
    }
}

impl From<VerifyError> for AnalysisError {
    fn from(e: VerifyError) -> AnalysisError {
        AnalysisError::Record(e)
    }
}
