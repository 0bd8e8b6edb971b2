//! `/api/rules`: the presets and the options each stands for, as the settings screens show them.

use axum::routing::get;
use axum::{Json, Router};
use ludo_rules::Preset;
use serde_json::{Value, json};

use crate::AppState;

/// The rules route.
pub fn router() -> Router<AppState> {
    Router::new().route("/api/rules", get(|| async { Json(presets()) }))
}

/// Every preset with its options, default preset first.
fn presets() -> Value {
    let presets: Vec<Value> = Preset::ALL
        .iter()
        .map(|p| json!({ "preset": p.name(), "options": p.options() }))
        .collect();
    json!({ "default": Preset::default().name(), "presets": presets })
}
