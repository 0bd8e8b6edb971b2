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
    /// The database: an SQLite file, or a PostgreSQL server as a `postgres://` (or
    /// `postgresql://`) URL, e.g. `postgres://ludo:secret@db.example:5432/ludo`. A missing file
    /// is created; either database is migrated at start-up. (`--help` does not show `LUDO_DB`'s
    /// value, which may hold a password.)
    #[arg(
        long,
        env = "LUDO_DB",
        default_value = "ludo.db",
        hide_env_values = true
    )]
    pub db: PathBuf,
    /// The log filter, e.g. `info` or `ludo_server=debug` (`RUST_LOG` syntax).
    #[arg(long, env = "LUDO_LOG", default_value = "info")]
    pub log: String,
    /// Milliseconds a CPU player waits before it acts: about as long as the web client takes to
    /// show a throw or a move, so people can follow.
    #[arg(long, env = "LUDO_CPU_DELAY_MS", default_value_t = 1000)]
    pub cpu_delay_ms: u64,
    /// Milliseconds the CPU waits, from when a person's last connection closed, before playing
    /// their turns (a turn that begins later is played for them at once, at the CPU's pace).
    #[arg(long, env = "LUDO_GRACE_MS", default_value_t = 8000)]
    pub grace_ms: u64,
    /// Milliseconds a person must have been away before the host may free their seat (outside
    /// ranked tables).
    #[arg(long, env = "LUDO_FREE_AFTER_MS", default_value_t = 60_000)]
    pub free_after_ms: u64,
    /// Messages a connection may send per second (bursts of twice as many); more are refused
    /// with `rate_limited`.
    #[arg(long, env = "LUDO_RATE", default_value_t = 30)]
    pub rate: u32,
    /// Messages refused for rate within 10 seconds after which a connection is closed.
    #[arg(long, env = "LUDO_RATE_REFUSALS", default_value_t = 30)]
    pub rate_refusals: u32,
    /// Messages waiting to be sent to one connection; a client that falls further behind is
    /// disconnected (it reconnects and gets the whole state again).
    #[arg(long, env = "LUDO_OUTBOX_MESSAGES", default_value_t = 64)]
    pub outbox_messages: usize,
    /// KiB of messages waiting to be sent to one connection; a client that falls further behind
    /// is disconnected.
    #[arg(long, env = "LUDO_OUTBOX_KIB", default_value_t = 64)]
    pub outbox_kib: usize,
    /// Milliseconds one write to a WebSocket may take before the connection is closed.
    #[arg(long, env = "LUDO_WRITE_TIMEOUT_MS", default_value_t = 5000)]
    pub write_timeout_ms: u64,
    /// Milliseconds a new WebSocket has to say `hello` (or `seek`) before it is closed.
    #[arg(long, env = "LUDO_HELLO_TIMEOUT_MS", default_value_t = 10_000)]
    pub hello_timeout_ms: u64,
    /// Milliseconds a client has to send a request's headers, counted from the connection's
    /// start or the end of its previous request: also how long an idle keep-alive connection
    /// stays open.
    #[arg(long, env = "LUDO_HEADER_TIMEOUT_MS", default_value_t = 10_000)]
    pub header_timeout_ms: u64,
    /// Milliseconds an ordinary HTTP request (body included) may take; slower ones are answered
    /// 408.
    #[arg(long, env = "LUDO_REQUEST_TIMEOUT_MS", default_value_t = 30_000)]
    pub request_timeout_ms: u64,
    /// Open connections (HTTP and WebSocket) served at once; more are answered 503, except
    /// `/healthz` and `/metrics`.
    #[arg(long, env = "LUDO_MAX_CONNECTIONS", default_value_t = 10_000)]
    pub max_connections: usize,
    /// Open connections served at once from one IP address; more are answered 503, except
    /// `/healthz` and `/metrics`.
    #[arg(long, env = "LUDO_MAX_CONNECTIONS_PER_IP", default_value_t = 64)]
    pub max_connections_per_ip: usize,
    /// Rooms one IP address may create per minute (bursts of as many); more are answered 429
    /// `rate_limited`.
    #[arg(long, env = "LUDO_ROOMS_PER_MINUTE", default_value_t = 20)]
    pub rooms_per_minute: u32,
    /// Ranked searches one IP address may start per minute (bursts of as many); more are refused
    /// with `rate_limited`.
    #[arg(long, env = "LUDO_SEEKS_PER_MINUTE", default_value_t = 20)]
    pub seeks_per_minute: u32,
    /// New identities (devices never seen before) one IP address may make per minute (bursts of
    /// as many); more are refused with `rate_limited`.
    #[arg(long, env = "LUDO_IDENTITIES_PER_MINUTE", default_value_t = 20)]
    pub identities_per_minute: u32,
    /// Connections one IP address may have open to one room, seated or watching; more are
    /// refused with `rate_limited`.
    #[arg(long, env = "LUDO_CONNECTIONS_PER_ROOM", default_value_t = 8)]
    pub connections_per_room: usize,
    /// Room codes naming no room that one IP address may look up per minute (bursts of as
    /// many); past them, the address may look up no room for a minute (`rate_limited`).
    #[arg(long, env = "LUDO_MISSED_CODES_PER_MINUTE", default_value_t = 30)]
    pub missed_codes_per_minute: u32,
    /// Lets two ranked searches from the same IP address share a table: for trying ranked play
    /// on one machine. Off, one person cannot rate games against their own second device.
    #[arg(long, env = "LUDO_MATCH_SAME_ADDRESS")]
    pub match_same_address: bool,
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
    /// Hours after which an identity (a device) seen at no table and in no game is forgotten,
    /// counted from when it was made: one that only watched, or said hello and left. One that
    /// hosts or sits in a stored room, played a game or has a rating is kept, and so is one a
    /// connection used in the last two hours. A forgotten device that comes back is a new
    /// player. 0 forgets none.
    #[arg(long, env = "LUDO_FORGET_IDENTITIES_AFTER_HOURS", default_value_t = 24)]
    pub forget_identities_after_hours: u64,
    /// Days after which a room with no game being played is forgotten, counted from its last
    /// change: it can no longer be joined or looked up (`no_such_room`), while its games stay
    /// readable. A room in memory (someone connected) is never forgotten. 0 forgets none.
    #[arg(long, env = "LUDO_FORGET_ROOMS_AFTER_DAYS", default_value_t = 30)]
    pub forget_rooms_after_days: u64,
    /// Seconds (fractions allowed) between two rounds of forgetting (the first comes a minute
    /// after start-up, or sooner if this is shorter): 3600, except to test forgetting quickly.
    #[arg(
        long,
        env = "LUDO_FORGET_EVERY_SECS",
        default_value_t = 3600.0,
        hide = true
    )]
    pub forget_every_secs: f64,
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
    /// Origins besides the server's own (the origin of the `Host` the request names, over http
    /// or https) whose pages may open a WebSocket, e.g. `https://ludo.example` when a proxy in
    /// front rewrites `Host`; comma-separated, or the flag given again. A browser's upgrade from
    /// any other origin is refused with 403; a client that sends no `Origin` (not a browser) is
    /// let in.
    #[arg(
        long = "allowed-origin",
        env = "LUDO_ALLOWED_ORIGINS",
        value_delimiter = ','
    )]
    pub allowed_origins: Vec<String>,
    /// The host names (ports aside) the server answers to; a request naming another is refused
    /// with 421, against DNS rebinding. Comma-separated, or the flag given again. Without it, a
    /// server listening on a loopback address answers to `localhost`, `127.0.0.1` and `[::1]`
    /// only, and one listening on another address to any name.
    #[arg(long = "host", env = "LUDO_HOSTS", value_delimiter = ',')]
    pub hosts: Vec<String>,
    /// Addresses of proxies (a load balancer in front of the server) whose `X-Forwarded-For`
    /// names the client, for the per-address limits on rooms and ranked searches and the rule
    /// that two searches from one address never share a table; comma-separated, or the flag
    /// given again. Without it every client behind the balancer has the balancer's address.
    #[arg(
        long = "trusted-proxy",
        env = "LUDO_TRUSTED_PROXIES",
        value_delimiter = ','
    )]
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// This server's name among the nodes sharing one PostgreSQL database: unique to each node
    /// and kept across its restarts (a node restarted under its name takes its rooms back at
    /// once). By default the machine's host name and the port of `--addr`. Unused with SQLite,
    /// which one server owns alone.
    #[arg(long, env = "LUDO_NODE")]
    pub node: Option<String>,
    /// Milliseconds a node's hold on a room (its lease, in PostgreSQL) lasts without being
    /// renewed; renewed every third of that. A node that dies holds its rooms this long at most,
    /// then the other nodes take them over.
    #[arg(long, env = "LUDO_LEASE_MS", default_value_t = 5000)]
    pub lease_ms: u64,
}

/// Seconds (of matchmaking) the people of a matched table have to arrive before it is cancelled.
pub const MATCHED_ARRIVAL_SECONDS: u32 = 30;

impl Config {
    /// A configuration for tests: loopback, a free port, this database, CPUs without delay, and
    /// limits on clients too wide to get in the way (the tests of the limits set their own).
    pub fn for_tests(db: PathBuf) -> Config {
        Config {
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            db,
            log: "warn".to_owned(),
            cpu_delay_ms: 0,
            grace_ms: 300,
            free_after_ms: 500,
            clock_second_ms: 10,
            match_second_ms: 1000,
            room_idle_secs: 600.0,
            forget_identities_after_hours: 24,
            forget_rooms_after_days: 30,
            forget_every_secs: 3600.0,
            rate: 100_000,
            rate_refusals: 1_000_000,
            outbox_messages: 100_000,
            outbox_kib: 64 * 1024,
            write_timeout_ms: 5000,
            hello_timeout_ms: 10_000,
            header_timeout_ms: 10_000,
            request_timeout_ms: 30_000,
            max_connections: 10_000,
            max_connections_per_ip: 10_000,
            rooms_per_minute: 100_000,
            seeks_per_minute: 100_000,
            identities_per_minute: 100_000,
            missed_codes_per_minute: 100_000,
            connections_per_room: 100_000,
            match_same_address: true,
            static_dir: None,
            allowed_origins: Vec::new(),
            hosts: Vec::new(),
            trusted_proxies: Vec::new(),
            node: None,
            lease_ms: 5000,
        }
    }

    /// This node's name: `--node`, or the host name and the port of `--addr`.
    pub fn node_name(&self) -> String {
        self.node.clone().unwrap_or_else(|| {
            let host = std::fs::read_to_string("/etc/hostname")
                .ok()
                .map(|h| h.trim().to_owned())
                .filter(|h| !h.is_empty())
                .unwrap_or_else(|| "localhost".to_owned());
            format!("{host}:{}", self.addr.port())
        })
    }

    /// The rooms' timing.
    pub fn timing(&self) -> crate::room::Timing {
        crate::room::Timing {
            cpu_delay: Duration::from_millis(self.cpu_delay_ms),
            grace: Duration::from_millis(self.grace_ms),
            clock_second: Duration::from_millis(self.clock_second_ms),
            idle: Duration::try_from_secs_f64(self.room_idle_secs).unwrap_or(Duration::MAX),
            arrival: Duration::from_millis(self.match_second_ms.max(1)) * MATCHED_ARRIVAL_SECONDS,
            free_after: Duration::from_millis(self.free_after_ms),
        }
    }
}
