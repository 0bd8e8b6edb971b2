//! Why a command failed, and the exit code that says so.

use std::fmt;
use std::process::ExitCode;

/// A command's failure.
#[derive(Debug)]
pub enum Failure {
    /// The rules forbid the action (exit 1).
    Illegal(String),
    /// The input or an argument cannot be used (exit 2).
    BadInput(String),
}

impl Failure {
    /// The process exit code for this failure.
    pub fn exit_code(&self) -> ExitCode {
        match self {
            Failure::Illegal(_) => ExitCode::from(1),
            Failure::BadInput(_) => ExitCode::from(2),
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Illegal(message) | Failure::BadInput(message) => f.write_str(message),
        }
    }
}

/// Shorthand for a bad-input failure.
pub fn bad(message: impl fmt::Display) -> Failure {
    Failure::BadInput(message.to_string())
}
