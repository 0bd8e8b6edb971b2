//! `/ws`: one WebSocket per player or watcher. A reader parses each message once at the edge and
//! hands it to the room; a writer sends what the room broadcasts. When one ends, both end.
//!
//! One client cannot make the server hold more than a fixed amount of memory for it:
//!
//! - every message it sends (text, binary, ping, too large or not) counts against its rate limit
//!   before anything else is done with it, and a client refused for rate more than
//!   `--rate-refusals` times in 10 seconds is disconnected;
//! - every frame, continuations and empty ones included, counts against a frame budget of four
//!   times the message rate, and a fragmented message must be finished within 2 seconds, or the
//!   connection is closed (see [`super::websocket`]);
//! - what is sent to it (broadcasts, answers, refusals) waits in a bounded [`Outbox`]; a client
//!   that falls so far behind that its outbox is full is disconnected (rooms never wait for it);
//! - every write must complete within `--write-timeout-ms`, or the connection is closed;
//! - a connection that has not said `hello` (or `seek`) within `--hello-timeout-ms` is closed.
//!
//! The memory one connection can hold is therefore bounded by
//!
//! - its outbox: `--outbox-kib` KiB of text (64 by default) plus 32 bytes for each of at most
//!   `--outbox-messages` messages (64): 66 KiB;
//! - the socket's write side: [`MAX_WRITE_BUFFER_BYTES`] (64 KiB) of frames not yet taken by the
//!   operating system, plus the one frame being written (at most one message): 128 KiB;
//! - the socket's read side: one frame being read, at most [`MAX_FRAME_BYTES`] (64 KiB) plus a
//!   4 KiB read chunk, and one message being assembled from fragments, at most 64 KiB: 132 KiB;
//! - the two tasks and the rate limit: a few KiB;
//!
//! about 340 KiB with the defaults, whatever the client does, and for a moment after the
//! handshake the HTTP read buffer it came in (8 KiB, at most 64 KiB when frames came with the
//! request), freed once those frames are read; an idle player costs about 10 KiB. The operating
//! system's socket buffers come on top, in the kernel.

use crate::protocol::RefusalCode;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::State;
use axum::response::Response;
use axum::routing::get;
use futures_util::stream::SplitSink;
use futures_util::{SinkExt, StreamExt};
use tokio::sync::oneshot;
use tokio::time::timeout;

use super::websocket::{CloseFrame, FrameFault, FrameMeter, Message, Upgrade, WebSocket};
use crate::AppState;
use crate::matchmaking::Seek;
use crate::protocol::{
    ClientMsg, MAX_MESSAGE_BYTES, Refusal, Request, RequestId, ServerMsg, check_name,
};
use crate::room::{Command, Next, Outbox, OutboxReceiver, RoomHandle, Text, Unsent};
use crate::store::StoreError;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

/// Frames larger than this close the connection; messages between [`MAX_MESSAGE_BYTES`] and
/// this are refused with `too_large`.
const MAX_FRAME_BYTES: usize = 64 * 1024;

/// The most the socket buffers for writing (frames not yet taken by the operating system,
/// including automatic pongs) before a write fails and the connection closes. Every server
/// message is far smaller.
const MAX_WRITE_BUFFER_BYTES: usize = 64 * 1024;

/// The WebSocket route.
pub fn router() -> Router<AppState> {
    Router::new().route("/ws", get(upgrade))
}

/// Opens a WebSocket, for pages of the server's own origin and the allowed ones only (see
/// [`super::origin`]): another site's page cannot open one from its visitors' browsers.
async fn upgrade(
    ws: Upgrade,
    State(state): State<AppState>,
    super::client_address::ClientAddress(address): super::client_address::ClientAddress,
    headers: axum::http::HeaderMap,
) -> Response {
    if !super::origin::allowed(&headers, &state.allowed_origins) {
        return axum::response::IntoResponse::into_response(super::error::HttpError::Plain(
            axum::http::StatusCode::FORBIDDEN,
            "this origin may not open a WebSocket here",
        ));
    }
    // Small buffers: a Ludo message is a few hundred bytes, and thousands of idle players
    // should cost little memory.
    let config = WebSocketConfig::default()
        .max_message_size(Some(MAX_FRAME_BYTES))
        .max_frame_size(Some(MAX_FRAME_BYTES))
        .read_buffer_size(4 * 1024)
        .write_buffer_size(0)
        .max_write_buffer_size(MAX_WRITE_BUFFER_BYTES);
    let meter = frame_meter(f64::from(state.limits.rate));
    ws.on_upgrade(config, meter, move |socket| {
        let sockets = state.sockets.clone();
        sockets.track_future(connection(socket, state, address))
    })
}

/// Frames, of any kind, are allowed at [`FRAMES_PER_MESSAGE`] times the message rate: an honest
/// client sends one frame a message, so the message limit (refusals, then closing) is what it
/// meets first; a client flooding frames that make no message is closed by the meter.
fn frame_meter(message_rate: f64) -> FrameMeter {
    let rate = FRAMES_PER_MESSAGE * message_rate.max(1.0);
    FrameMeter::new(rate, 2.0 * rate, tokio::time::Instant::now())
}

/// See [`frame_meter`].
const FRAMES_PER_MESSAGE: f64 = 4.0;

/// Why a device could not be identified.
pub enum IdentifyError {
    /// The device secret is not acceptable.
    BadDevice(String),
    /// The device is new, and its address has made as many identities as it may for now.
    TooMany,
    /// Storage failed.
    Store(StoreError),
}

impl IdentifyError {
    /// The refusal to answer with, when it is the client's (`None` for a storage failure).
    pub fn refusal(&self) -> Option<Refusal> {
        match self {
            IdentifyError::BadDevice(m) => Some(Refusal::new(RefusalCode::BadMessage, m.clone())),
            IdentifyError::TooMany => Some(Refusal::new(
                RefusalCode::RateLimited,
                "too many new players from this address; wait a minute",
            )),
            IdentifyError::Store(_) => None,
        }
    }
}

/// The identity of a device secret (16 to 128 visible ASCII characters), made if the device is
/// new and its `address` may make another identity now (see [`crate::per_address`]).
pub async fn identify(
    state: &AppState,
    address: std::net::IpAddr,
    device: &str,
    name: &str,
) -> Result<crate::ids::IdentityId, IdentifyError> {
    let fits = (16..=128).contains(&device.len()) && device.bytes().all(|b| b.is_ascii_graphic());
    if !fits {
        return Err(IdentifyError::BadDevice(
            "device: 16 to 128 visible ASCII characters".to_owned(),
        ));
    }
    let hash = crate::ids::secret_hash(device);
    let (known_hash, known_name, now) = (hash.clone(), name.to_owned(), crate::ids::now_ms());
    let known = state
        .store
        .run(move |b| b.known_identity(&known_hash, &known_name, now))
        .await
        .map_err(IdentifyError::Store)?;
    if let Some(identity) = known {
        return Ok(identity);
    }
    if !state
        .per_address
        .allows(crate::per_address::Ask::Identity, address)
    {
        return Err(IdentifyError::TooMany);
    }
    let (name, new_id, now) = (
        name.to_owned(),
        crate::ids::IdentityId::from(crate::ids::random_code(10)),
        crate::ids::now_ms(),
    );
    state
        .store
        .run(move |b| b.identify(&hash, &name, &new_id, now))
        .await
        .map_err(IdentifyError::Store)
}

/// How long the count of over-rate messages runs before it starts again from zero.
const STRIKE_WINDOW: Duration = Duration::from_secs(10);

/// What to do with an incoming frame, as the rate limit says.
#[derive(Debug, PartialEq, Eq)]
enum Verdict {
    /// Within the rate: handle it.
    Allow,
    /// Over the rate: refuse it with `rate_limited`.
    Refuse,
    /// Over the rate too often: close the connection.
    Close,
}

/// A token bucket: `rate` messages a second, bursts of twice that; and a count of the frames
/// refused for rate within [`STRIKE_WINDOW`], past `strikes` of which the connection closes.
struct RateLimit {
    rate: f64,
    tokens: f64,
    at: Instant,
    strikes: u32,
    struck: u32,
    window: Instant,
}

impl RateLimit {
    fn new(rate: u32, strikes: u32) -> RateLimit {
        let rate = f64::from(rate.max(1));
        let now = Instant::now();
        RateLimit {
            rate,
            tokens: 2.0 * rate,
            at: now,
            strikes,
            struck: 0,
            window: now,
        }
    }

    fn check(&mut self) -> Verdict {
        let now = Instant::now();
        let refill = now.duration_since(self.at).as_secs_f64() * self.rate;
        self.tokens = (self.tokens + refill).min(2.0 * self.rate);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            return Verdict::Allow;
        }
        if now.duration_since(self.window) > STRIKE_WINDOW {
            self.window = now;
            self.struck = 0;
        }
        self.struck += 1;
        if self.struck > self.strikes {
            Verdict::Close
        } else {
            Verdict::Refuse
        }
    }
}

/// Refuses what the connection sent, answering the request `req` if it carried an id.
fn refuse(state: &AppState, out: &Outbox, req: Option<RequestId>, refusal: Refusal) {
    state.metrics.refusals.fetch_add(1, Ordering::Relaxed);
    let _ = out.send(Text::from(refusal.answering(req).to_json()));
}

/// The display name, checked; or `None` after refusing the request `req` with `bad_name`.
fn checked_name(
    state: &AppState,
    out: &Outbox,
    req: Option<RequestId>,
    name: &str,
) -> Option<String> {
    check_name(name)
        .map_err(|e| refuse(state, out, req, Refusal::new(RefusalCode::BadName, e)))
        .ok()
}

/// The identity of a device, created if new; or `None` after refusing the request `req`.
async fn identity_of(
    state: &AppState,
    out: &Outbox,
    req: Option<RequestId>,
    address: std::net::IpAddr,
    device: &str,
    name: &str,
) -> Option<crate::ids::IdentityId> {
    match identify(state, address, device, name).await {
        Ok(identity) => Some(identity),
        Err(e) => {
            if let IdentifyError::Store(e) = &e {
                tracing::error!(error = %e, "identifying a device failed");
            }
            refuse(
                state,
                out,
                req,
                e.refusal().unwrap_or_else(something_went_wrong),
            );
            None
        }
    }
}

/// `rate_limited` for an address that tried too many room codes naming no room.
pub fn too_many_codes_tried() -> Refusal {
    Refusal::new(
        RefusalCode::RateLimited,
        "too many room codes tried from this address; wait a minute",
    )
}

/// `internal`, without details: they are in the server's log.
fn something_went_wrong() -> Refusal {
    Refusal::new(RefusalCode::Internal, "something went wrong on our side")
}

/// How a connection ends.
enum Closing {
    /// Send what is queued, then a close frame without a reason (the client closed).
    Normal,
    /// The server is stopping and has queued `bye`: send it, then close with 1001.
    GoingAway,
    /// Send what is queued, then a close frame with this code and reason.
    Policy(&'static str),
    /// The room failed: close with 1011 and ask the client to come back (the room is loaded
    /// again from storage when it does).
    RoomStopped,
}

/// The close code for a connection the server ends because of the client's behaviour (too
/// many messages, no `hello` in time, too far behind).
const POLICY_VIOLATION: u16 = 1008;

/// The close code for every connection when the server stops.
const GOING_AWAY: u16 = 1001;

/// The close code for a connection whose room failed.
const INTERNAL_ERROR: u16 = 1011;

impl Closing {
    /// The close frame's code and reason, if it has one.
    fn frame(&self) -> Option<(u16, &'static str)> {
        match self {
            Closing::Normal => None,
            Closing::GoingAway => Some((GOING_AWAY, "the server is restarting")),
            Closing::Policy(reason) => Some((POLICY_VIOLATION, reason)),
            Closing::RoomStopped => {
                Some((INTERNAL_ERROR, "the room stopped; reconnect and say hello"))
            }
        }
    }
}

/// Resolves when the room stops taking commands (it failed); never without a room.
async fn stopped(room: Option<&RoomHandle>) {
    match room {
        Some(room) => room.stopped().await,
        None => std::future::pending().await,
    }
}

/// Sends what the outbox holds, each write bounded by `write_timeout`; ends the connection when
/// the outbox overflows (the client is too far behind), a write fails or does not complete in
/// time, or the reader asks it to close.
async fn write(
    mut sink: SplitSink<WebSocket, Message>,
    mut outbox: OutboxReceiver,
    mut closing: oneshot::Receiver<Closing>,
    write_timeout: Duration,
) {
    let send = async |sink: &mut SplitSink<WebSocket, Message>, text: Text| {
        let message = Message::Text(text);
        matches!(timeout(write_timeout, sink.send(message)).await, Ok(Ok(())))
    };
    let reason = loop {
        let next = tokio::select! {
            biased;
            // A one-shot channel: polling it again and again, once for each message sent,
            // takes no lock (a watch's `changed` would register a waiter and drop it, under a
            // lock, each time).
            closed = &mut closing => {
                let how = closed.ok().as_ref().and_then(Closing::frame);
                // The reader is done: send what is already queued (all of it within one write
                // timeout), then close.
                let finish = async {
                    while let Next::Message(text) = outbox.try_next() {
                        if !send(&mut sink, text).await {
                            return;
                        }
                    }
                    close(&mut sink, how).await;
                };
                let _ = timeout(write_timeout, finish).await;
                return;
            }
            next = outbox.next() => next,
        };
        match next {
            Next::Message(text) => {
                if !send(&mut sink, text).await {
                    // Too slow or gone: drop the connection without waiting any longer.
                    return;
                }
            }
            Next::Overflowed => {
                break Some((POLICY_VIOLATION, "too far behind; reconnect and say hello"));
            }
            Next::Closed => break None,
        }
    };
    let _ = timeout(write_timeout, close(&mut sink, reason)).await;
}

async fn close(sink: &mut SplitSink<WebSocket, Message>, frame: Option<(u16, &'static str)>) {
    match frame {
        Some((code, reason)) => {
            let frame = CloseFrame {
                code: code.into(),
                reason: reason.into(),
            };
            let _ = sink.send(Message::Close(Some(frame))).await;
        }
        None => {
            let _ = sink.close().await;
        }
    }
}

async fn connection(socket: WebSocket, state: AppState, address: std::net::IpAddr) {
    let limits = state.limits;
    let conn = crate::ids::ConnectionId::next(&state.next_conn);
    state.metrics.connections.fetch_add(1, Ordering::Relaxed);
    let (sink, mut stream) = socket.split();
    let (out, outbox) = Outbox::bounded(limits.outbox_messages, limits.outbox_bytes);
    let (close_with, closing) = oneshot::channel();
    let mut writer = tokio::spawn(write(sink, outbox, closing, limits.write_timeout));
    let mut writer_done = false;
    let hello_deadline = tokio::time::sleep(limits.hello_timeout);
    tokio::pin!(hello_deadline);
    let mut room: Option<RoomHandle> = None;
    // Counts this connection against its address's connections to the room it joins.
    let mut room_pass: Option<crate::per_address::RoomPass> = None;
    let mut seeking = false;
    // The identity the connection said hello (or seek) with, held so it is not forgotten.
    let mut _held = None;
    let mut limit = RateLimit::new(limits.rate, limits.rate_refusals);
    let mut stopping = state.stopping.clone();
    // Made once and polled with every message: waiting anew for each message would register
    // a waiter and drop it again each time.
    let server_stops = stopping.wait_for(|&stop| stop);
    tokio::pin!(server_stops);
    let mut ending = Closing::Normal;
    loop {
        let message = tokio::select! {
            message = stream.next() => match message {
                Some(Ok(message)) => message,
                Some(Err(tokio_tungstenite::tungstenite::Error::Io(error))) => {
                    if let Some(fault) = FrameFault::of(&error) {
                        state.metrics.refusals.fetch_add(1, Ordering::Relaxed);
                        ending = Closing::Policy(fault.reason());
                    }
                    break;
                }
                _ => break,
            },
            _ = &mut server_stops => {
                let _ = out.send(Text::from(ServerMsg::Bye.to_json()));
                ending = Closing::GoingAway;
                break;
            }
            () = stopped(room.as_ref()) => {
                ending = Closing::RoomStopped;
                break;
            }
            _ = &mut writer => {
                // The client fell too far behind, or a write failed or timed out.
                writer_done = true;
                break;
            }
            () = &mut hello_deadline, if room.is_none() && !seeking => {
                ending = Closing::Policy("no hello in time");
                break;
            }
        };
        if matches!(message, Message::Close(_)) {
            break;
        }
        // Every frame counts against the rate, whatever it holds, before anything else is done
        // with it (a ping has already been answered by then: pongs wait in the socket's bounded
        // write buffer, one at a time).
        match limit.check() {
            Verdict::Allow => {}
            Verdict::Refuse => {
                let slow_down =
                    Refusal::new(RefusalCode::RateLimited, "too many messages; slow down");
                refuse(&state, &out, None, slow_down);
                continue;
            }
            Verdict::Close => {
                state.metrics.refusals.fetch_add(1, Ordering::Relaxed);
                ending = Closing::Policy("too many messages");
                break;
            }
        }
        let text = match message {
            Message::Text(text) => text,
            Message::Binary(_) => {
                state.metrics.messages.fetch_add(1, Ordering::Relaxed);
                let binary = Refusal::new(RefusalCode::BadMessage, "messages are JSON text");
                refuse(&state, &out, None, binary);
                continue;
            }
            _ => continue,
        };
        state.metrics.messages.fetch_add(1, Ordering::Relaxed);
        if text.len() > MAX_MESSAGE_BYTES {
            let too_large = Refusal::new(
                RefusalCode::TooLarge,
                format!("messages are at most {MAX_MESSAGE_BYTES} bytes"),
            );
            refuse(&state, &out, None, too_large);
            continue;
        }
        let (msg, req) = match Request::parse(text.as_str()) {
            Ok(Request { msg, req }) => (msg, req),
            Err((refusal, req)) => {
                refuse(&state, &out, req, refusal);
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
            ) if !seeking => {
                let Some(name) = checked_name(&state, &out, req, &name) else {
                    continue;
                };
                let no_such_room =
                    || Refusal::new(RefusalCode::NoSuchRoom, format!("no room `{code}`"));
                if !state.per_address.may_look_up(address, Instant::now()) {
                    refuse(&state, &out, req, too_many_codes_tried());
                    continue;
                }
                match state.rooms.exists(&code).await {
                    Ok(true) => {}
                    Ok(false) => {
                        state.per_address.missed_code(address, Instant::now());
                        refuse(&state, &out, req, no_such_room());
                        continue;
                    }
                    Err(e) => {
                        tracing::error!(error = %e, "looking up a room failed");
                        refuse(&state, &out, req, something_went_wrong());
                        continue;
                    }
                }
                let Some(pass) = state.per_address.enter_room(&code, address) else {
                    let crowded = Refusal::new(
                        RefusalCode::RateLimited,
                        "too many connections to this room from this address",
                    );
                    refuse(&state, &out, req, crowded);
                    continue;
                };
                let Some(identity) = identity_of(&state, &out, req, address, &device, &name).await
                else {
                    continue;
                };
                _held = Some(state.identities.hold(&identity));
                let join = Command::Join {
                    conn,
                    identity,
                    name,
                    address,
                    out: out.clone(),
                };
                match state.rooms.send(&code, join).await {
                    Ok(Ok(handle)) => {
                        room = Some(handle);
                        room_pass = Some(pass);
                    }
                    Ok(Err(Unsent::ServedElsewhere(node))) => {
                        // The balancer routes a room's clients to one node; this one was not
                        // handed the room in time. The client comes back through the balancer.
                        tracing::warn!(room = %code, %node, "a room stayed with another node");
                        ending = Closing::RoomStopped;
                        break;
                    }
                    Ok(Err(Unsent::NoSuchRoom)) => refuse(&state, &out, req, no_such_room()),
                    Err(e) => {
                        tracing::error!(error = %e, "loading a room failed");
                        refuse(&state, &out, req, something_went_wrong());
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
                if !size.0.can_be_met_under(rules) {
                    let unmet = Refusal::new(
                        RefusalCode::BadMessage,
                        "size: ranked tables under these rules have 2 seats; ask for 2 or \"any\"",
                    );
                    refuse(&state, &out, req, unmet);
                    continue;
                }
                if !state
                    .per_address
                    .allows(crate::per_address::Ask::Seek, address)
                {
                    let too_many = Refusal::new(
                        RefusalCode::RateLimited,
                        "too many ranked searches from this address; wait a minute",
                    );
                    refuse(&state, &out, req, too_many);
                    continue;
                }
                let Some(name) = checked_name(&state, &out, req, &name) else {
                    continue;
                };
                let Some(identity) = identity_of(&state, &out, req, address, &device, &name).await
                else {
                    continue;
                };
                if let Some(wait) = state.rooms.no_shows().wait_left(&identity, Instant::now()) {
                    let come_back = Refusal::new(
                        RefusalCode::RateLimited,
                        format!(
                            "you did not come to the last table you were matched to; look again in {} s",
                            wait.as_secs().max(1)
                        ),
                    );
                    refuse(&state, &out, req, come_back);
                    continue;
                }
                _held = Some(state.identities.hold(&identity));
                state.matchmaker.seek(Seek {
                    ticket: conn,
                    identity,
                    name,
                    preset: rules,
                    wish: size.0,
                    address,
                    out: out.clone(),
                });
                seeking = true;
            }
            (None, _) if seeking => {
                let seeking = Refusal::new(
                    RefusalCode::Seeking,
                    "this connection is looking for a ranked game; close it to stop",
                );
                refuse(&state, &out, req, seeking);
            }
            (None, _) => {
                let first = Refusal::new(RefusalCode::HelloFirst, "say hello first");
                refuse(&state, &out, req, first);
            }
            (Some(_), ClientMsg::Hello { .. }) => {
                let again =
                    Refusal::new(RefusalCode::BadMessage, "hello is the first message only");
                refuse(&state, &out, req, again);
            }
            (Some(handle), msg) => {
                if !handle.send(Command::Client { conn, msg, req }) {
                    break;
                }
            }
        }
    }
    // A client closed for what it did is given the same moment as on shutdown to read its
    // close frame: closing a socket with its messages unread would reset the connection under
    // the last messages sent to it.
    let linger = !matches!(ending, Closing::Normal);
    let _ = close_with.send(ending);
    if let Some(handle) = room {
        handle.send(Command::Leave { conn });
    }
    // The connection no longer counts against its address in the room.
    drop(room_pass);
    if seeking {
        state.matchmaker.cancel(conn);
    }
    drop(out);
    if !writer_done {
        // At most one write timeout: the writer sends only what is already queued.
        let _ = writer.await;
    }
    if linger && !writer_done {
        // The writer has sent `bye` or what was queued, and a close frame: give the client a
        // moment to answer it, so that closing the socket does not reset the connection under
        // its last messages.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rate_limit_allows_a_burst_refuses_then_closes() {
        let mut limit = RateLimit::new(5, 3);
        for _ in 0..10 {
            assert_eq!(limit.check(), Verdict::Allow);
        }
        for _ in 0..3 {
            assert_eq!(limit.check(), Verdict::Refuse);
        }
        assert_eq!(limit.check(), Verdict::Close);
    }

    #[test]
    fn refusals_for_rate_are_forgotten_after_the_window() {
        let mut limit = RateLimit::new(1, 2);
        limit.tokens = 0.0;
        assert_eq!(limit.check(), Verdict::Refuse);
        assert_eq!(limit.check(), Verdict::Refuse);
        limit.window -= STRIKE_WINDOW + Duration::from_millis(1);
        limit.at = Instant::now();
        limit.tokens = 0.0;
        assert_eq!(limit.check(), Verdict::Refuse);
        assert_eq!(limit.check(), Verdict::Refuse);
        assert_eq!(limit.check(), Verdict::Close);
    }
}
