//! Every route of the server, each module exposing its own `router()`.

mod health;
mod pages;
mod rules;

/// All routes together.
pub fn router() -> axum::Router {
    axum::Router::new()
        .merge(pages::router())
        .merge(health::router())
        .merge(rules::router())
}
