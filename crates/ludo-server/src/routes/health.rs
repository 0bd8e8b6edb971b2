//! `/healthz`, and `/metrics` in Prometheus text format.

use std::sync::atomic::Ordering;

use axum::Router;
use axum::extract::State;
use axum::routing::get;

use crate::AppState;

/// The health and metrics routes.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/healthz", get(|| async { "ok" }))
        .route("/metrics", get(metrics))
}

async fn metrics(State(state): State<AppState>) -> String {
    let m = &state.metrics;
    format!(
        "# HELP ludo_rooms Rooms open.\n# TYPE ludo_rooms gauge\nludo_rooms {}\n\
         # HELP ludo_connections Open WebSocket connections.\n# TYPE ludo_connections gauge\n\
         ludo_connections {}\n\
         # HELP ludo_messages_total Messages received from clients.\n\
         # TYPE ludo_messages_total counter\nludo_messages_total {}\n\
         # HELP ludo_refusals_total Messages refused at the connection.\n\
         # TYPE ludo_refusals_total counter\nludo_refusals_total {}\n\
         # HELP ludo_actions_total Game actions accepted.\n\
         # TYPE ludo_actions_total counter\nludo_actions_total {}\n\
         # HELP ludo_storage_failures_total Writes that failed.\n\
         # TYPE ludo_storage_failures_total counter\nludo_storage_failures_total {}\n\
         # HELP ludo_room_failures_total Rooms that failed and were stopped alone.\n\
         # TYPE ludo_room_failures_total counter\nludo_room_failures_total {}\n\
         # HELP ludo_forgotten_identities_total Identities seen at no table and in no game, \
         forgotten.\n# TYPE ludo_forgotten_identities_total counter\n\
         ludo_forgotten_identities_total {}\n\
         # HELP ludo_forgotten_rooms_total Rooms unused for the period, forgotten.\n\
         # TYPE ludo_forgotten_rooms_total counter\nludo_forgotten_rooms_total {}\n",
        state.rooms.count(),
        m.connections.load(Ordering::Relaxed),
        m.messages.load(Ordering::Relaxed),
        m.refusals.load(Ordering::Relaxed),
        m.actions.load(Ordering::Relaxed),
        m.storage_failures.load(Ordering::Relaxed),
        m.room_failures.load(Ordering::Relaxed),
        m.forgotten_identities.load(Ordering::Relaxed),
        m.forgotten_rooms.load(Ordering::Relaxed),
    )
}
