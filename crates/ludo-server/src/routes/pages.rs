//! The web client's pages: the home page, and the same page for an invitation link.

use axum::Router;
use axum::response::Html;
use axum::routing::get;

use crate::AppState;

const INDEX: &str = include_str!("../../static/index.html");

/// The page routes.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/", get(|| async { Html(INDEX) }))
        .route("/r/{code}", get(|| async { Html(INDEX) }))
}
