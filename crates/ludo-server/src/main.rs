//! Starts the Ludo server: reads the configuration, then runs until SIGTERM or Ctrl-C.

use clap::Parser;
use ludo_server::{Application, Config};

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let config = Config::parse();
    ludo_server::init_logging(&config.log);
    // Test builds only: fail points named in `FAILPOINTS` (e.g. `store-write=sleep(200)`).
    #[cfg(feature = "failpoints")]
    let _fail_points = fail::FailScenario::setup();
    let app = Application::build(&config).await?;
    tracing::info!(address = %app.local_addr(), "serving http://{}", app.local_addr());
    app.run_until_stopped(ludo_server::shutdown_signal()).await
}
