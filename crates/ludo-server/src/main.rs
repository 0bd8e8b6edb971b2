//! Starts the Ludo server: reads the configuration, then runs until SIGTERM or Ctrl-C.

use clap::Parser;
use ludo_server::{Application, Config};

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let config = Config::parse();
    ludo_server::init_logging(&config.log);
    let app = Application::build(&config).await?;
    tracing::info!(address = %app.local_addr(), "serving http://{}", app.local_addr());
    app.run_until_stopped(ludo_server::shutdown_signal()).await
}
