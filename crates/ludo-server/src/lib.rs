//! The Ludo server: serves the web client, owns every online game, throws the dice, keeps seats
//! for returning players and lets the CPU stand in.
//!
//! [`Application::build`] opens the database, brings back every room and unfinished game, binds
//! the configured address (port 0 in tests) and returns an application that serves until the
//! shutdown future completes.

// A room that fails is stopped alone (see the room actor's supervisor), which needs panics that
// unwind: aborting would take every room down with it.
#[cfg(panic = "abort")]
compile_error!("ludo-server needs `panic = \"unwind\"`: one failing room must not stop the others");

/// Every program built on the server (its binary, the load tester, the tests) allocates with
/// mimalloc, which hands the pages a burst of requests used back to the system soon after; glibc's
/// allocator keeps them in its arenas for good.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod bare_answers;
mod config;
/// Content types of the web client's files.
mod content_type;
pub mod forgetting;
mod ids;
pub mod matchmaking;
mod metrics;
mod names;
pub mod per_address;
pub mod protocol;
pub mod rating;
mod room;
mod routes;
// Used by the build (`build.rs`), which writes the home page's preloads into it.
#[cfg(test)]
mod preloads;
// Used by the build (`build.rs`), which sends the scripts without their comment lines.
#[cfg(test)]
mod script_comments;
mod serve;
mod settings;
pub mod skips;
mod store;
mod strict_json;

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;
use std::time::Duration;

use tokio::net::TcpListener;

pub use config::Config;
pub use metrics::Metrics;
pub use room::Rooms;
#[cfg(feature = "testing")]
pub use store::TestDatabase;
pub use store::{
    Backend, Database, PostgresBackend, RatingChange, SqliteBackend, Store, StoreError,
};

/// A file of the web client built into the server: path, content type, bytes, gzipped bytes,
/// Brotli bytes.
pub type Asset = (
    &'static str,
    &'static str,
    &'static [u8],
    &'static [u8],
    &'static [u8],
);

/// Every file of the web client built into the server.
pub fn assets() -> &'static [Asset] {
    routes::pages::generated::ASSETS
}

/// What every route can reach.
#[derive(Clone)]
pub struct AppState {
    /// The rooms.
    pub rooms: Rooms,
    /// Quick ranked play's waiting list.
    pub matchmaker: matchmaking::Matchmaker,
    /// The storage.
    pub store: Store,
    /// The counters.
    pub metrics: Arc<Metrics>,
    /// Numbers for connections.
    pub next_conn: Arc<AtomicU64>,
    /// The identities the open connections hold, which are never forgotten.
    pub identities: forgetting::IdentitiesInUse,
    /// How each WebSocket connection is held within bounds.
    pub limits: ConnLimits,
    /// Turns `true` when the server shuts down: connections say goodbye and close.
    pub stopping: tokio::sync::watch::Receiver<bool>,
    /// The open WebSocket connections, which shutdown waits for (each says `bye` first).
    pub sockets: tokio_util::task::TaskTracker,
    /// How often each network address may create rooms and look for ranked games.
    pub per_address: Arc<per_address::PerAddress>,
    /// Where the web client's files are read from disk instead of the built-in copies, if set.
    pub static_dir: Option<Arc<std::path::Path>>,
    /// Origins besides the server's own whose pages may open a WebSocket: lower case, without
    /// a trailing slash.
    pub allowed_origins: Arc<[String]>,
    /// Proxies whose `X-Forwarded-For` names the client (see `routes::client_address`).
    pub trusted_proxies: Arc<[std::net::IpAddr]>,
}

/// How each WebSocket connection is held within bounds (see the `/ws` route for the memory
/// this bounds).
#[derive(Clone, Copy, Debug)]
pub struct ConnLimits {
    /// Messages a connection may send per second (bursts of twice as many).
    pub rate: u32,
    /// Messages refused for rate within 10 seconds after which the connection is closed.
    pub rate_refusals: u32,
    /// Messages waiting to be sent to one connection, at most.
    pub outbox_messages: usize,
    /// Bytes of messages waiting to be sent to one connection, at most.
    pub outbox_bytes: usize,
    /// How long one write may take before the connection is closed.
    pub write_timeout: Duration,
    /// How long a new connection has to say `hello` (or `seek`).
    pub hello_timeout: Duration,
}

/// A bound, ready server.
pub struct Application {
    listener: TcpListener,
    router: axum::Router,
    store: Store,
    stop: tokio::sync::watch::Sender<bool>,
    gate: std::sync::Arc<serve::Gate>,
    header_timeout: Duration,
    sockets: tokio_util::task::TaskTracker,
    rooms: Rooms,
}

/// How long shutdown waits for WebSocket connections to say `bye` and close: a write timeout
/// for what is queued, and a moment for the client to answer the close frame.
const SOCKETS_CLOSING: Duration = Duration::from_secs(8);

impl Application {
    /// Opens the database, restores the rooms, binds the address and assembles the routes.
    ///
    /// # Errors
    /// When the database cannot be opened or the address cannot be bound.
    pub async fn build(config: &Config) -> std::io::Result<Application> {
        let store = Store::open_as(&config.db, Some(config.node_name()))
            .await
            .map_err(std::io::Error::other)?;
        let metrics = Arc::<Metrics>::default();
        let (stop, stopping) = tokio::sync::watch::channel(false);
        let rooms = Rooms::load(room::Context {
            store: store.clone(),
            timing: config.timing(),
            metrics: metrics.clone(),
            registry: Arc::default(),
            directory: room::directory::Directory::default(),
            no_shows: matchmaking::no_shows::NoShows::default(),
            ranked_same_address: config.match_same_address,
            stopping: stopping.clone(),
            cluster: store.cluster().map(|shared| room::Cluster {
                node: config.node_name().into(),
                term: Duration::from_millis(config.lease_ms.max(30)),
                shared,
            }),
        })
        .await
        .map_err(std::io::Error::other)?;
        let sockets = tokio_util::task::TaskTracker::new();
        let identities = forgetting::IdentitiesInUse::default();
        forgetting::start(
            rooms.clone(),
            identities.clone(),
            forgetting::Periods::of(config),
            metrics.clone(),
            stopping.clone(),
        );
        let matchmaker = matchmaking::Matchmaker::start(
            rooms.clone(),
            store.clone(),
            matchmaking::pool::Params {
                same_address: config.match_same_address,
                ..matchmaking::pool::Params::standard(std::time::Duration::from_millis(
                    config.match_second_ms.max(1),
                ))
            },
        );
        let state = AppState {
            rooms: rooms.clone(),
            matchmaker,
            store: store.clone(),
            metrics,
            next_conn: Arc::default(),
            identities,
            limits: ConnLimits {
                rate: config.rate.max(1),
                rate_refusals: config.rate_refusals,
                outbox_messages: config.outbox_messages.max(1),
                outbox_bytes: config.outbox_kib.max(1).saturating_mul(1024),
                write_timeout: Duration::from_millis(config.write_timeout_ms.max(1)),
                hello_timeout: Duration::from_millis(config.hello_timeout_ms.max(1)),
            },
            stopping,
            sockets: sockets.clone(),
            per_address: Arc::new(per_address::PerAddress::new(per_address::PerMinute {
                rooms: config.rooms_per_minute,
                seeks: config.seeks_per_minute,
                identities: config.identities_per_minute,
                missed_codes: config.missed_codes_per_minute,
                connections_per_room: config.connections_per_room,
            })),
            static_dir: config.static_dir.as_deref().map(Arc::from),
            trusted_proxies: config.trusted_proxies.iter().copied().collect(),
            allowed_origins: config
                .allowed_origins
                .iter()
                .map(|o| o.trim().trim_end_matches('/').to_ascii_lowercase())
                .filter(|o| !o.is_empty())
                .collect(),
        };
        let listener = TcpListener::bind(config.addr).await?;
        let open_files = serve::raise_open_files();
        let caps = serve::Caps::fitting(
            config.max_connections,
            config.max_connections_per_ip,
            open_files,
        );
        // Bounds each ordinary request once its headers are in (reading the body included);
        // a WebSocket's handler answers the upgrade at once, so the socket is not bounded by it.
        let hosts = routes::host::Hosts::new(&config.hosts, config.addr.ip());
        let router = routes::with_security_headers(
            routes::router(state)
                .layer(tower_http::timeout::TimeoutLayer::with_status_code(
                    axum::http::StatusCode::REQUEST_TIMEOUT,
                    Duration::from_millis(config.request_timeout_ms.max(1)),
                ))
                .layer(axum::middleware::from_fn_with_state(
                    hosts,
                    routes::host::only_known_hosts,
                )),
        );
        Ok(Application {
            listener,
            router,
            store,
            stop,
            gate: serve::Gate::new(caps),
            header_timeout: Duration::from_millis(config.header_timeout_ms.max(1)),
            sockets,
            rooms,
        })
    }

    /// The address actually bound (the real port when the configuration asked for port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.listener
            .local_addr()
            .expect("a bound listener has an address")
    }

    /// Serves until `shutdown` completes; then stops accepting, tells every connected client
    /// goodbye, lets open requests finish and waits for every pending write.
    ///
    /// # Errors
    /// When serving fails.
    pub async fn run_until_stopped(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        let stop = self.stop;
        let stopping = stop.subscribe();
        tokio::spawn(async move {
            shutdown.await;
            let _ = stop.send(true);
        });
        serve::serve(
            self.listener,
            self.router,
            self.gate,
            self.header_timeout,
            stopping,
        )
        .await;
        // Every WebSocket has been told to stop: each sends `bye` and what is queued, closes,
        // and gives its client a moment to answer.
        self.sockets.close();
        if tokio::time::timeout(SOCKETS_CLOSING, self.sockets.wait())
            .await
            .is_err()
        {
            tracing::warn!(
                open = self.sockets.len(),
                "some WebSockets did not close in time"
            );
        }
        // The storage thread runs jobs in order: once this one is done, so are all before it.
        if let Err(error) = self.store.run(|_| Ok(())).await {
            tracing::error!(%error, "pending writes could not be finished");
        }
        // With several nodes, the others take this node's rooms over at once.
        if let Err(error) = self.rooms.release_all().await {
            tracing::warn!(%error, "this node's leases could not be given up; they run out by themselves");
        }
        Ok(())
    }
}

/// Completes on SIGTERM or Ctrl-C.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(error) => {
                tracing::error!(%error, "cannot listen for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
    tracing::info!("shutting down");
}

/// Libraries whose most verbose logs could show a device secret, and the most verbose level each
/// logs at whatever the filter asks: the WebSocket library writes every frame at `trace` (a
/// `hello` or `seek` with its device secret), and axum writes why it refused a request body
/// (which may hold one) at `trace`.
const LOG_CAPS: [(&str, tracing::Level); 3] = [
    ("tungstenite", tracing::Level::INFO),
    ("tokio_tungstenite", tracing::Level::INFO),
    ("axum::rejection", tracing::Level::DEBUG),
];

/// Structured logs on standard error, filtered by `filter` (`RUST_LOG` syntax) and never more
/// verbose than [`LOG_CAPS`] for the libraries it names, so that no filter prints a secret.
pub fn init_logging(filter: &str) {
    use tracing_subscriber::Layer;
    use tracing_subscriber::filter::FilterExt;
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    let filter = tracing_subscriber::EnvFilter::try_new(filter)
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    // A second filter that must also let an event through: a directive of `filter` for a
    // narrower target (or a span) cannot lift these caps.
    let caps = LOG_CAPS.iter().fold(
        tracing_subscriber::filter::Targets::new().with_default(tracing::Level::TRACE),
        |caps, &(target, level)| caps.with_target(target, level),
    );
    let layer = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_filter(filter.and(caps));
    tracing_subscriber::registry().with(layer).init();
}
