//! The server's configuration, from flags or the environment.

use std::net::SocketAddr;

use clap::Parser;

/// How the server runs. Every flag can also be set by its environment variable.
#[derive(Clone, Debug, Parser)]
#[command(name = "ludo-server", version, about)]
pub struct Config {
    /// The address to listen on (port 0 picks a free port).
    #[arg(long, env = "LUDO_ADDR", default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// The log filter, e.g. `info` or `ludo_server=debug` (`RUST_LOG` syntax).
    #[arg(long, env = "LUDO_LOG", default_value = "info")]
    pub log: String,
}

impl Config {
    /// A configuration for tests: loopback, a free port, quiet logs.
    pub fn for_tests() -> Config {
        Config {
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            log: "warn".to_owned(),
        }
    }
}
