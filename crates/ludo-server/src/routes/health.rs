//! `/healthz`: answers while the server can serve.

use axum::Router;
use axum::routing::get;

/// The health route.
pub fn router() -> Router {
    Router::new().route("/healthz", get(|| async { "ok" }))
}
