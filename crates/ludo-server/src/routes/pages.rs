//! The web client's pages.

use axum::Router;
use axum::response::Html;
use axum::routing::get;

const INDEX: &str = include_str!("../../static/index.html");

/// The page routes.
pub fn router() -> Router {
    Router::new().route("/", get(|| async { Html(INDEX) }))
}
