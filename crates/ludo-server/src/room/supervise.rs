//! A room's actor run so that its failure stays its own.

use std::sync::Arc;

use super::directory::Directory;
use super::{Registry, RoomHandle};
use crate::ids::RoomCode;

/// Runs a room's actor, and contains its failure: a room that panics is stopped alone (its
/// connections close, asked to reconnect), leaves the registry, and is loaded again from
/// storage, where everything it accepted already is, when it is next needed. Every other room
/// plays on.
pub(super) async fn supervise(
    code: RoomCode,
    registry: Registry,
    directory: Directory,
    metrics: Arc<crate::Metrics>,
    actor: impl std::future::Future<Output = ()>,
) {
    use futures_util::FutureExt;
    let outcome = std::panic::AssertUnwindSafe(actor).catch_unwind().await;
    directory.remove(&code);
    {
        // The actor's queue is gone with it: its handle, if still registered, leaves.
        let mut registry = super::lock(&registry);
        if registry.get(&code).is_some_and(RoomHandle::is_stopped) {
            registry.remove(&code);
        }
    }
    let Err(panic) = outcome else {
        return;
    };
    let what = panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_default();
    metrics
        .room_failures
        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    tracing::error!(room = %code, panic = %what, "the room failed and was stopped; it is loaded again from storage when next needed");
}
