//! Every route of the server, each module exposing its own `router()`.

mod health;
pub mod pages;
mod records;
mod rooms;
mod rules;
mod ws;

use crate::AppState;

/// All routes together.
pub fn router(state: AppState) -> axum::Router {
    axum::Router::new()
        .merge(pages::router())
        .merge(health::router())
        .merge(rules::router())
        .merge(rooms::router())
        .merge(records::router())
        .merge(ws::router())
        .with_state(state)
}
