//! `/ws`: one WebSocket per player or watcher. A reader parses each message once at the edge and
//! hands it to the room; a writer sends what the room broadcasts. When one ends, both end.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

use axum::Router;
use axum::extract::State;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::response::Response;
use axum::routing::get;
use futures_util::{SinkExt, StreamExt};
use tokio::sync::mpsc;

use crate::AppState;
use crate::matchmaking::Seek;
use crate::protocol::{ClientMsg, MAX_MESSAGE_BYTES, ServerMsg, check_name};
use crate::room::{Command, Outbox, RoomHandle};
use crate::store::StoreError;

/// Frames larger than this close the connection; messages between [`MAX_MESSAGE_BYTES`] and
/// this are refused with `too_large`.
const MAX_FRAME_BYTES: usize = 64 * 1024;

/// The WebSocket route.
pub fn router() -> Router<AppState> {
    Router::new().route("/ws", get(upgrade))
}

async fn upgrade(ws: WebSocketUpgrade, State(state): State<AppState>) -> Response {
    // Small buffers: a Ludo message is a few hundred bytes, and thousands of idle players
    // should cost little memory.
    ws.max_message_size(MAX_FRAME_BYTES)
        .max_frame_size(MAX_FRAME_BYTES)
        .read_buffer_size(4 * 1024)
        .write_buffer_size(0)
        .on_upgrade(move |socket| connection(socket, state))
}

/// Why a device could not be identified.
pub enum IdentifyError {
    /// The device secret is not acceptable.
    BadDevice(String),
    /// Storage failed.
    Store(StoreError),
}

/// The identity of a device secret (16 to 128 visible ASCII characters), created if new.
pub async fn identify(state: &AppState, device: &str, name: &str) -> Result<String, IdentifyError> {
    let fits = (16..=128).contains(&device.len()) && device.bytes().all(|b| b.is_ascii_graphic());
    if !fits {
        return Err(IdentifyError::BadDevice(
            "device: 16 to 128 visible ASCII characters".to_owned(),
        ));
    }
    let hash = crate::ids::secret_hash(device);
    let (name, new_id, now) = (
        name.to_owned(),
        crate::ids::random_code(10),
        crate::ids::now_ms(),
    );
    state
        .store
        .run(move |b| b.identify(&hash, &name, &new_id, now))
        .await
        .map_err(IdentifyError::Store)
}

/// A token bucket: `rate` messages a second, bursts of twice that.
struct RateLimit {
    rate: f64,
    tokens: f64,
    at: Instant,
}

impl RateLimit {
    fn new(rate: u32) -> RateLimit {
        let rate = f64::from(rate);
        RateLimit {
            rate,
            tokens: 2.0 * rate,
            at: Instant::now(),
        }
    }

    fn allow(&mut self) -> bool {
        let now = Instant::now();
        let refill = now.duration_since(self.at).as_secs_f64() * self.rate;
        self.tokens = (self.tokens + refill).min(2.0 * self.rate);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

fn refuse(state: &AppState, out: &Outbox, code: &'static str, message: impl Into<String>) {
    state.metrics.refusals.fetch_add(1, Ordering::Relaxed);
    let _ = out.send(Arc::from(ServerMsg::error(code, message).to_json()));
}

/// The display name, checked; or `None` after refusing it with `bad_name`.
fn checked_name(state: &AppState, out: &Outbox, name: &str) -> Option<String> {
    check_name(name)
        .map_err(|e| refuse(state, out, "bad_name", e))
        .ok()
}

/// The identity of a device, created if new; or `None` after refusing the request.
async fn identity_of(state: &AppState, out: &Outbox, device: &str, name: &str) -> Option<String> {
    match identify(state, device, name).await {
        Ok(identity) => Some(identity),
        Err(IdentifyError::BadDevice(m)) => {
            refuse(state, out, "bad_message", m);
            None
        }
        Err(IdentifyError::Store(e)) => {
            tracing::error!(error = %e, "identifying a device failed");
            refuse(state, out, "internal", "something went wrong on our side");
            None
        }
    }
}

async fn connection(socket: WebSocket, state: AppState) {
    let conn = state.next_conn.fetch_add(1, Ordering::Relaxed);
    state.metrics.connections.fetch_add(1, Ordering::Relaxed);
    let (mut sink, mut stream) = socket.split();
    let (out, mut outbox) = mpsc::unbounded_channel::<Arc<str>>();
    let writer = tokio::spawn(async move {
        while let Some(text) = outbox.recv().await {
            if sink
                .send(Message::Text(text.as_ref().into()))
                .await
                .is_err()
            {
                break;
            }
        }
        let _ = sink.close().await;
    });
    let mut room: Option<RoomHandle> = None;
    let mut seeking = false;
    let mut limit = RateLimit::new(state.rate);
    let mut stopping = state.stopping.clone();
    let mut say_goodbye = false;
    loop {
        let message = tokio::select! {
            message = stream.next() => match message {
                Some(Ok(message)) => message,
                _ => break,
            },
            _ = stopping.wait_for(|&stop| stop) => {
                let _ = out.send(Arc::from(ServerMsg::Bye.to_json()));
                say_goodbye = true;
                break;
            }
        };
        let text = match message {
            Message::Text(text) => text,
            Message::Binary(_) => {
                refuse(&state, &out, "bad_message", "messages are JSON text");
                continue;
            }
            Message::Close(_) => break,
            Message::Ping(_) | Message::Pong(_) => continue,
        };
        state.metrics.messages.fetch_add(1, Ordering::Relaxed);
        if text.len() > MAX_MESSAGE_BYTES {
            refuse(
                &state,
                &out,
                "too_large",
                format!("messages are at most {MAX_MESSAGE_BYTES} bytes"),
            );
            continue;
        }
        if !limit.allow() {
            refuse(&state, &out, "rate_limited", "too many messages; slow down");
            continue;
        }
        let msg = match serde_json::from_str::<ClientMsg>(text.as_str()) {
            Ok(msg) => msg,
            Err(e) => {
                refuse(&state, &out, "bad_message", e.to_string());
                continue;
            }
        };
        match (&room, msg) {
            (
                None,
                ClientMsg::Hello {
                    room: code,
                    device,
                    name,
                },
            ) => {
                let Some(name) = checked_name(&state, &out, &name) else {
                    continue;
                };
                match state.rooms.exists(&code).await {
                    Ok(true) => {}
                    Ok(false) => {
                        refuse(&state, &out, "no_such_room", format!("no room `{code}`"));
                        continue;
                    }
                    Err(e) => {
                        tracing::error!(error = %e, "looking up a room failed");
                        refuse(&state, &out, "internal", "something went wrong on our side");
                        continue;
                    }
                }
                let Some(identity) = identity_of(&state, &out, &device, &name).await else {
                    continue;
                };
                let join = Command::Join {
                    conn,
                    identity,
                    name,
                    out: out.clone(),
                };
                match state.rooms.send(&code, join).await {
                    Ok(Ok(handle)) => room = Some(handle),
                    Ok(Err(_)) => {
                        refuse(&state, &out, "no_such_room", format!("no room `{code}`"));
                    }
                    Err(e) => {
                        tracing::error!(error = %e, "loading a room failed");
                        refuse(&state, &out, "internal", "something went wrong on our side");
                    }
                }
            }
            (
                None,
                ClientMsg::Seek {
                    device,
                    name,
                    rules,
                    size,
                },
            ) if !seeking => {
                let Some(name) = checked_name(&state, &out, &name) else {
                    continue;
                };
                let Some(identity) = identity_of(&state, &out, &device, &name).await else {
                    continue;
                };
                state.matchmaker.seek(Seek {
                    ticket: conn,
                    identity,
                    name,
                    preset: rules,
                    wish: size.0,
                    out: out.clone(),
                });
                seeking = true;
            }
            (None, _) if seeking => refuse(
                &state,
                &out,
                "seeking",
                "this connection is looking for a ranked game; close it to stop",
            ),
            (None, _) => refuse(&state, &out, "hello_first", "say hello first"),
            (Some(_), ClientMsg::Hello { .. }) => {
                refuse(
                    &state,
                    &out,
                    "bad_message",
                    "hello is the first message only",
                );
            }
            (Some(handle), msg) => {
                if !handle.send(Command::Client { conn, msg }) {
                    break;
                }
            }
        }
    }
    if let Some(handle) = room {
        handle.send(Command::Leave { conn });
    }
    if seeking {
        state.matchmaker.cancel(conn);
    }
    drop(out);
    let _ = writer.await;
    if say_goodbye {
        // The writer has sent `bye` and a close frame: give the client a moment to answer it,
        // so that closing the socket does not reset the connection under its last messages.
        let _ = tokio::time::timeout(std::time::Duration::from_secs(1), async {
            while let Some(Ok(message)) = stream.next().await {
                if matches!(message, Message::Close(_)) {
                    break;
                }
            }
        })
        .await;
    }
    state.metrics.connections.fetch_sub(1, Ordering::Relaxed);
}
