//! The Ludo server: serves the web client and its API.
//!
//! [`Application::build`] binds the configured address (port 0 in tests) and returns an
//! application that serves until the shutdown future completes.

mod config;
mod routes;

use std::future::Future;
use std::net::SocketAddr;

use tokio::net::TcpListener;

pub use config::Config;

/// A bound, ready server.
pub struct Application {
    listener: TcpListener,
    router: axum::Router,
}

impl Application {
    /// Binds the configured address and assembles the routes.
    ///
    /// # Errors
    /// When the address cannot be bound.
    pub async fn build(config: &Config) -> std::io::Result<Application> {
        let listener = TcpListener::bind(config.addr).await?;
        Ok(Application {
            listener,
            router: routes::router(),
        })
    }

    /// The address actually bound (the real port when the configuration asked for port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.listener
            .local_addr()
            .expect("a bound listener has an address")
    }

    /// Serves until `shutdown` completes, then stops accepting and lets open requests finish.
    ///
    /// # Errors
    /// When serving fails.
    pub async fn run_until_stopped(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        axum::serve(self.listener, self.router)
            .with_graceful_shutdown(shutdown)
            .await
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
