//! The WebSocket handshake, and a meter on every frame a client sends.
//!
//! The handshake is done here (HTTP/1.1, RFC 6455 §4.2) rather than by axum's extractor so that
//! the socket's bytes pass through a [`FrameMeter`] before tungstenite reads them: tungstenite
//! joins a fragmented message's frames itself and hands over whole messages only, so a client
//! sending endless empty continuation frames would otherwise never be seen, nor counted, by the
//! connection's rate limit. The meter counts every frame (data, continuation and control alike)
//! against a budget well above the message rate, and ends a connection whose client leaves a
//! fragmented message unfinished for longer than [`UNFINISHED_MESSAGE_LIMIT`].

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::Body;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::Response;
use hyper::upgrade::{OnUpgrade, Upgraded};
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::{Instant, Sleep};
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::handshake::derive_accept_key;
use tokio_tungstenite::tungstenite::protocol::{Role, WebSocketConfig};

use super::error::HttpError;

pub use tokio_tungstenite::tungstenite::Message;
pub use tokio_tungstenite::tungstenite::protocol::CloseFrame;

/// A client's WebSocket, its incoming bytes metered.
pub type WebSocket = WebSocketStream<Metered<TokioIo<Upgraded>>>;

/// The longest a client may leave a fragmented message unfinished (from its first frame) before
/// the connection is closed.
pub const UNFINISHED_MESSAGE_LIMIT: Duration = Duration::from_secs(2);

/// A WebSocket handshake asked for (`GET` with `Upgrade: websocket`, version 13), not yet answered.
pub struct Upgrade {
    key: HeaderValue,
    on_upgrade: OnUpgrade,
}

impl<S: Send + Sync> FromRequestParts<S> for Upgrade {
    /// A request that is not a WebSocket handshake: answered `400` (or `426` for another
    /// version), in plain text.
    type Rejection = HttpError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let bad = |why| HttpError::Plain(StatusCode::BAD_REQUEST, why);
        if parts.method != Method::GET {
            return Err(bad("a WebSocket is opened with GET"));
        }
        if !has_token(&parts.headers, header::CONNECTION, "upgrade")
            || !has_token(&parts.headers, header::UPGRADE, "websocket")
        {
            return Err(bad("this address takes WebSocket connections only"));
        }
        if !has_token(&parts.headers, header::SEC_WEBSOCKET_VERSION, "13") {
            return Err(HttpError::Plain(
                StatusCode::UPGRADE_REQUIRED,
                "WebSocket version 13 only",
            ));
        }
        let key = parts
            .headers
            .get(header::SEC_WEBSOCKET_KEY)
            .cloned()
            .ok_or(bad("Sec-WebSocket-Key is missing"))?;
        let on_upgrade = parts
            .extensions
            .remove::<OnUpgrade>()
            .ok_or(bad("this connection cannot be upgraded"))?;
        Ok(Upgrade { key, on_upgrade })
    }
}

/// Whether a header's comma-separated values include `token` (without regard to case).
fn has_token(headers: &HeaderMap, name: header::HeaderName, token: &str) -> bool {
    headers
        .get_all(name)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .any(|value| value.trim().eq_ignore_ascii_case(token))
}

impl Upgrade {
    /// Answers `101 Switching Protocols` and, once the connection is switched, runs `serve` on
    /// the WebSocket, with tungstenite's `config` and its frames metered by `meter`.
    pub fn on_upgrade<F, Fut>(
        self,
        config: WebSocketConfig,
        meter: FrameMeter,
        serve: F,
    ) -> Response
    where
        F: FnOnce(WebSocket) -> Fut + Send + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        let accept = derive_accept_key(self.key.as_bytes());
        let on_upgrade = self.on_upgrade;
        tokio::spawn(async move {
            let Ok(upgraded) = on_upgrade.await else {
                return;
            };
            let io = Metered::new(TokioIo::new(upgraded), meter);
            let socket = WebSocketStream::from_raw_socket(io, Role::Server, Some(config)).await;
            serve(socket).await;
        });
        Response::builder()
            .status(StatusCode::SWITCHING_PROTOCOLS)
            .header(header::CONNECTION, "upgrade")
            .header(header::UPGRADE, "websocket")
            .header(header::SEC_WEBSOCKET_ACCEPT, accept)
            .body(Body::empty())
            .expect("a valid 101 answer")
    }
}

/// Why the meter ended a connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameFault {
    /// More frames than the budget allows.
    TooManyFrames,
    /// A fragmented message was left unfinished for longer than [`UNFINISHED_MESSAGE_LIMIT`].
    Unfinished,
}

impl FrameFault {
    /// The reason given in the close frame.
    pub fn reason(self) -> &'static str {
        match self {
            FrameFault::TooManyFrames => "too many frames",
            FrameFault::Unfinished => "a message left unfinished",
        }
    }

    /// The fault behind a read error of a metered socket, if the meter caused it.
    pub fn of(error: &io::Error) -> Option<FrameFault> {
        error
            .get_ref()
            .and_then(|inner| inner.downcast_ref::<FaultError>())
            .map(|e| e.0)
    }
}

/// A [`FrameFault`] as an I/O error, which tungstenite passes on to the connection.
#[derive(Debug)]
struct FaultError(FrameFault);

impl std::fmt::Display for FaultError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0.reason())
    }
}

impl std::error::Error for FaultError {}

/// Follows the frames in a client's byte stream (RFC 6455 §5.2) without keeping them: where each
/// frame's header starts and how much payload follows it. Every frame takes a token from a
/// bucket refilled at `rate` a second, holding at most `burst`; a frame finding it empty is
/// [`FrameFault::TooManyFrames`]. A text or binary frame without FIN opens a fragmented message,
/// which the continuation frame with FIN closes; one open for longer than
/// [`UNFINISHED_MESSAGE_LIMIT`] is [`FrameFault::Unfinished`]. Time is given by the caller.
pub struct FrameMeter {
    header: [u8; 14],
    header_len: usize,
    payload_left: u64,
    open_since: Option<Instant>,
    rate: f64,
    burst: f64,
    tokens: f64,
    at: Instant,
}

impl FrameMeter {
    /// A meter allowing `rate` frames a second, in bursts of `burst`, from `now`.
    pub fn new(rate: f64, burst: f64, now: Instant) -> FrameMeter {
        FrameMeter {
            header: [0; 14],
            header_len: 0,
            payload_left: 0,
            open_since: None,
            rate,
            burst,
            tokens: burst,
            at: now,
        }
    }

    /// Reads the next bytes the client sent, at `now`.
    ///
    /// # Errors
    /// The fault, once the client has gone over the budget or left a message unfinished too
    /// long; the connection should then close.
    pub fn feed(&mut self, mut bytes: &[u8], now: Instant) -> Result<(), FrameFault> {
        while !bytes.is_empty() {
            if self.payload_left > 0 {
                let skipped = self.payload_left.min(bytes.len() as u64);
                self.payload_left -= skipped;
                bytes = &bytes[skipped as usize..];
                continue;
            }
            self.header[self.header_len] = bytes[0];
            self.header_len += 1;
            bytes = &bytes[1..];
            if Some(self.header_len) == self.header_size() {
                self.frame_begins(now)?;
            }
        }
        self.check_unfinished(now)
    }

    /// When a fragmented message must be finished by, if one is open.
    pub fn unfinished_deadline(&self) -> Option<Instant> {
        self.open_since
            .map(|since| since + UNFINISHED_MESSAGE_LIMIT)
    }

    /// The whole header's size, once its first two bytes are known.
    fn header_size(&self) -> Option<usize> {
        let second = *self.header.get(1).filter(|_| self.header_len >= 2)?;
        let extended = match second & 0x7f {
            126 => 2,
            127 => 8,
            _ => 0,
        };
        let mask = if second & 0x80 != 0 { 4 } else { 0 };
        Some(2 + extended + mask)
    }

    /// A frame's header is complete: count the frame, follow its message and skip its payload.
    fn frame_begins(&mut self, now: Instant) -> Result<(), FrameFault> {
        let (first, second) = (self.header[0], self.header[1]);
        self.payload_left = match second & 0x7f {
            126 => u64::from(u16::from_be_bytes([self.header[2], self.header[3]])),
            127 => u64::from_be_bytes(self.header[2..10].try_into().expect("eight bytes")),
            short => u64::from(short),
        };
        self.header_len = 0;
        self.take_token(now)?;
        let (fin, opcode) = (first & 0x80 != 0, first & 0x0f);
        match opcode {
            0x1 | 0x2 if !fin => self.open_since = Some(now),
            0x0 if fin => self.open_since = None,
            _ => {}
        }
        Ok(())
    }

    fn take_token(&mut self, now: Instant) -> Result<(), FrameFault> {
        let refill = now.saturating_duration_since(self.at).as_secs_f64() * self.rate;
        self.tokens = (self.tokens + refill).min(self.burst);
        self.at = now;
        if self.tokens < 1.0 {
            return Err(FrameFault::TooManyFrames);
        }
        self.tokens -= 1.0;
        Ok(())
    }

    fn check_unfinished(&self, now: Instant) -> Result<(), FrameFault> {
        match self.unfinished_deadline() {
            Some(deadline) if now >= deadline => Err(FrameFault::Unfinished),
            _ => Ok(()),
        }
    }
}

/// A byte stream whose incoming bytes pass through a [`FrameMeter`]: a fault becomes a read
/// error, and a fragmented message left open ends the stream at its deadline even if the client
/// sends nothing more.
pub struct Metered<T> {
    io: T,
    meter: FrameMeter,
    deadline: Option<Pin<Box<Sleep>>>,
}

impl<T> Metered<T> {
    fn new(io: T, meter: FrameMeter) -> Metered<T> {
        Metered {
            io,
            meter,
            deadline: None,
        }
    }

    /// Keeps the timer in step with the meter's deadline for an open message.
    fn follow_deadline(&mut self) {
        match (self.meter.unfinished_deadline(), &mut self.deadline) {
            (None, _) => self.deadline = None,
            (Some(at), Some(timer)) if timer.deadline() == at => {}
            (Some(at), _) => self.deadline = Some(Box::pin(tokio::time::sleep_until(at))),
        }
    }
}

fn fault(fault: FrameFault) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, FaultError(fault))
}

impl<T: AsyncRead + Unpin> AsyncRead for Metered<T> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        match Pin::new(&mut this.io).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                let read = &buf.filled()[before..];
                this.meter.feed(read, Instant::now()).map_err(fault)?;
                this.follow_deadline();
                Poll::Ready(Ok(()))
            }
            Poll::Pending => match this.deadline.as_mut().map(|timer| timer.as_mut().poll(cx)) {
                Some(Poll::Ready(())) => Poll::Ready(Err(fault(FrameFault::Unfinished))),
                _ => Poll::Pending,
            },
            error => error,
        }
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Metered<T> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bytes: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().io).poll_write(cx, bytes)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A masked client frame (zero mask) with this first byte and payload.
    fn frame(first: u8, payload: &[u8]) -> Vec<u8> {
        let mut bytes = vec![first];
        match payload.len() {
            n if n < 126 => bytes.push(0x80 | n as u8),
            n if n <= 0xffff => {
                bytes.push(0x80 | 126);
                bytes.extend_from_slice(&(n as u16).to_be_bytes());
            }
            n => {
                bytes.push(0x80 | 127);
                bytes.extend_from_slice(&(n as u64).to_be_bytes());
            }
        }
        bytes.extend_from_slice(&[0, 0, 0, 0]);
        bytes.extend_from_slice(payload);
        bytes
    }

    const TEXT: u8 = 0x81;
    const TEXT_UNFINISHED: u8 = 0x01;
    const CONTINUATION: u8 = 0x00;
    const LAST_CONTINUATION: u8 = 0x80;

    #[test]
    fn whole_messages_within_the_budget_pass_however_the_bytes_are_cut() {
        let start = Instant::now();
        let mut meter = FrameMeter::new(10.0, 20.0, start);
        let mut stream = Vec::new();
        for size in [0, 5, 125, 126, 300, 70_000] {
            stream.extend(frame(TEXT, &vec![b'x'; size]));
        }
        for chunk in stream.chunks(7) {
            assert_eq!(meter.feed(chunk, start), Ok(()));
        }
        assert_eq!(meter.tokens, 14.0, "six frames counted, payloads skipped");
    }

    #[test]
    fn every_frame_counts_continuations_and_empty_ones_included() {
        let start = Instant::now();
        let mut meter = FrameMeter::new(10.0, 20.0, start);
        assert_eq!(meter.feed(&frame(TEXT_UNFINISHED, b"{"), start), Ok(()));
        let empty = frame(CONTINUATION, b"");
        for _ in 0..19 {
            assert_eq!(meter.feed(&empty, start), Ok(()));
        }
        assert_eq!(meter.feed(&empty, start), Err(FrameFault::TooManyFrames));
    }

    #[test]
    fn the_budget_refills_with_time() {
        let start = Instant::now();
        let mut meter = FrameMeter::new(10.0, 2.0, start);
        let ping = frame(0x89, b"");
        assert_eq!(
            meter.feed(&[ping.clone(), ping.clone()].concat(), start),
            Ok(())
        );
        assert_eq!(meter.feed(&ping, start), Err(FrameFault::TooManyFrames));
        let later = start + Duration::from_millis(100);
        assert_eq!(
            meter.feed(&ping, later),
            Ok(()),
            "one token back after 0.1 s"
        );
    }

    #[test]
    fn a_fragmented_message_must_be_finished_within_the_limit() {
        let start = Instant::now();
        let mut meter = FrameMeter::new(100.0, 100.0, start);
        assert_eq!(meter.unfinished_deadline(), None);
        meter
            .feed(&frame(TEXT_UNFINISHED, b"{\"t\":"), start)
            .unwrap();
        assert_eq!(
            meter.unfinished_deadline(),
            Some(start + UNFINISHED_MESSAGE_LIMIT)
        );
        let soon = start + Duration::from_secs(1);
        meter.feed(&frame(CONTINUATION, b"\"ro"), soon).unwrap();
        meter
            .feed(&frame(LAST_CONTINUATION, b"ll\"}"), soon)
            .unwrap();
        assert_eq!(meter.unfinished_deadline(), None, "finished");

        meter.feed(&frame(TEXT_UNFINISHED, b"{"), soon).unwrap();
        let late = soon + UNFINISHED_MESSAGE_LIMIT;
        assert_eq!(
            meter.feed(&frame(0x89, b""), late),
            Err(FrameFault::Unfinished),
            "a ping does not finish a message"
        );
    }
}
