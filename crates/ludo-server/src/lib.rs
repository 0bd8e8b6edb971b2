//! The Ludo server: serves the web client, owns every online game, throws the dice, keeps seats
//! for returning players and lets the CPU stand in.
//!
//! [`Application::build`] opens the database, brings back every room and unfinished game, binds
//! the configured address (port 0 in tests) and returns an application that serves until the
//! shutdown future completes.

mod config;
mod ids;
pub mod matchmaking;
pub mod protocol;
pub mod rating;
mod room;
mod routes;
mod store;

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use tokio::net::TcpListener;

pub use config::Config;
pub use room::Rooms;
pub use store::{Backend, RatingChange, SqliteBackend, Store, StoreError};

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

/// Counters for `/metrics`.
#[derive(Default)]
pub struct Metrics {
    /// Open WebSocket connections.
    pub connections: AtomicU64,
    /// Messages received from clients.
    pub messages: AtomicU64,
    /// Requests refused at the connection (bad messages, sizes, rates).
    pub refusals: AtomicU64,
    /// Game actions accepted (throws and moves), stored and broadcast.
    pub actions: AtomicU64,
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
    /// Messages a connection may send per second.
    pub rate: u32,
    /// Turns `true` when the server shuts down: connections say goodbye and close.
    pub stopping: tokio::sync::watch::Receiver<bool>,
    /// Where the web client's files are read from disk instead of the built-in copies, if set.
    pub static_dir: Option<Arc<std::path::Path>>,
}

/// A bound, ready server.
pub struct Application {
    listener: TcpListener,
    router: axum::Router,
    store: Store,
    stop: tokio::sync::watch::Sender<bool>,
}

impl Application {
    /// Opens the database, restores the rooms, binds the address and assembles the routes.
    ///
    /// # Errors
    /// When the database cannot be opened or the address cannot be bound.
    pub async fn build(config: &Config) -> std::io::Result<Application> {
        let backend = SqliteBackend::open(&config.db).map_err(std::io::Error::other)?;
        let store = Store::start(backend);
        let metrics = Arc::<Metrics>::default();
        let rooms = Rooms::load(room::Context {
            store: store.clone(),
            timing: config.timing(),
            metrics: metrics.clone(),
            registry: Arc::default(),
        })
        .await
        .map_err(std::io::Error::other)?;
        let (stop, stopping) = tokio::sync::watch::channel(false);
        let matchmaker = matchmaking::Matchmaker::start(
            rooms.clone(),
            store.clone(),
            matchmaking::pool::Params::standard(std::time::Duration::from_millis(
                config.match_second_ms.max(1),
            )),
        );
        let state = AppState {
            rooms,
            matchmaker,
            store: store.clone(),
            metrics,
            next_conn: Arc::default(),
            rate: config.rate.max(1),
            stopping,
            static_dir: config.static_dir.as_deref().map(Arc::from),
        };
        let listener = TcpListener::bind(config.addr).await?;
        Ok(Application {
            listener,
            router: routes::router(state),
            store,
            stop,
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
        let served = axum::serve(self.listener, self.router)
            .with_graceful_shutdown(async move {
                shutdown.await;
                let _ = stop.send(true);
            })
            .await;
        // The storage thread runs jobs in order: once this one is done, so are all before it.
        if let Err(error) = self.store.run(|_| Ok(())).await {
            tracing::error!(%error, "pending writes could not be finished");
        }
        served
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

/// Structured logs on standard error, filtered by `filter` (`RUST_LOG` syntax).
pub fn init_logging(filter: &str) {
    let filter = tracing_subscriber::EnvFilter::try_new(filter)
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
}
