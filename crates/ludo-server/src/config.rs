//! The server's configuration, from flags or the environment.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::Parser;

/// How the server runs. Every flag can also be set by its environment variable.
#[derive(Clone, Debug, Parser)]
#[command(name = "ludo-server", version, about)]
pub struct Config {
    /// The address to listen on (port 0 picks a free port).
    #[arg(long, env = "LUDO_ADDR", default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// The SQLite database file (created, and migrated, at start-up).
    #[arg(long, env = "LUDO_DB", default_value = "ludo.db")]
    pub db: PathBuf,
    /// The log filter, e.g. `info` or `ludo_server=debug` (`RUST_LOG` syntax).
    #[arg(long, env = "LUDO_LOG", default_value = "info")]
    pub log: String,
    /// Milliseconds a CPU player waits before it acts: about as long as the web client takes to
    /// show a throw or a move, so people can follow.
    #[arg(long, env = "LUDO_CPU_DELAY_MS", default_value_t = 1000)]
    pub cpu_delay_ms: u64,
    /// Milliseconds the CPU waits on the turn of a person who left before playing for them.
    #[arg(long, env = "LUDO_GRACE_MS", default_value_t = 8000)]
    pub grace_ms: u64,
    /// Messages a connection may send per second (bursts of twice as many); more are refused
    /// with `rate_limited`.
    #[arg(long, env = "LUDO_RATE", default_value_t = 30)]
    pub rate: u32,
    /// Milliseconds in one second of a turn clock: 1000, except to test clocks quickly.
    #[arg(
        long,
        env = "LUDO_CLOCK_SECOND_MS",
        default_value_t = 1000,
        hide = true
    )]
    pub clock_second_ms: u64,
    /// Seconds (fractions allowed) a room with nobody connected and no game being played stays
    /// in memory; it stays in the database and is loaded again on the next visit.
    #[arg(long, env = "LUDO_ROOM_IDLE_SECS", default_value_t = 600.0)]
    pub room_idle_secs: f64,
    /// Milliseconds in one second of matchmaking (ranges widen each second): 1000, except to
    /// test matchmaking quickly.
    #[arg(
        long,
        env = "LUDO_MATCH_SECOND_MS",
        default_value_t = 1000,
        hide = true
    )]
    pub match_second_ms: u64,
    /// A directory whose files are served instead of the built-in copies of the same name, read
    /// from disk at each request: for working on the web client without rebuilding the server.
    #[arg(long, env = "LUDO_STATIC_DIR")]
    pub static_dir: Option<PathBuf>,
}

impl Config {
    /// A configuration for tests: loopback, a free port, this database, CPUs without delay.
    pub fn for_tests(db: PathBuf) -> Config {
        Config {
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            db,
            log: "warn".to_owned(),
            cpu_delay_ms: 0,
            grace_ms: 300,
            clock_second_ms: 10,
            match_second_ms: 1000,
            room_idle_secs: 600.0,
            rate: 100_000,
            static_dir: None,
        }
    }

    /// The rooms' timing.
    pub fn timing(&self) -> crate::room::Timing {
        crate::room::Timing {
            cpu_delay: Duration::from_millis(self.cpu_delay_ms),
            grace: Duration::from_millis(self.grace_ms),
            clock_second: Duration::from_millis(self.clock_second_ms),
            idle: Duration::try_from_secs_f64(self.room_idle_secs).unwrap_or(Duration::MAX),
        }
    }
}
