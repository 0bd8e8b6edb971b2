//! Accepting connections and serving HTTP/1.1 on them, within bounds.
//!
//! The server runs hyper's HTTP/1 connection itself (rather than through `axum::serve`, which
//! sets no timer and so neither reads headers under a deadline nor lets idle connections go)
//! for three things:
//!
//! - **A header-read timeout.** hyper's own `header_read_timeout` (with hyper-util's Tokio timer)
//!   runs from the moment a connection waits for a request, the first or the next one on a
//!   keep-alive connection: a client that sends its headers a byte at a time, or keeps a
//!   connection open without asking anything, is dropped when it runs out. It is hyper's,
//!   tested with hyper's parser, where a layer above (tower-http's `TimeoutLayer`) only starts
//!   once the headers have all arrived. That layer bounds the rest of an ordinary request,
//!   body included ([`crate::Application::build`]).
//! - **Caps on open connections**, in all and per IP address, counted from `accept` until the
//!   socket closes (a WebSocket keeps its count for as long as it is open). A connection over a
//!   cap is still served one request, with `Connection: close`: `503 Service Unavailable` with
//!   `Retry-After`, except `/healthz` and `/metrics`, answered as usual, so that a load balancer
//!   or an operator still sees the server alive and how busy it is. Such answers get their own
//!   headroom of an eighth of the cap (at least 16), at most the per-address cap from one
//!   address, and must send their request within a second. When that headroom is full, a new
//!   connection takes the place of the oldest one still waiting (from its own address first):
//!   so file descriptors stay within the caps plus the headroom, and a health check, which sends
//!   its request at once, is answered however many idle connections an attacker opens.
//! - **Never running out of file descriptors:** at start-up the soft limit on open files is
//!   raised to the hard limit, and the caps are lowered, with a warning, if they and their
//!   headroom would not fit under it.
//!
//! Counts are plain counters under a lock (a map of addresses to counts, a queue of the
//! connections waiting over a cap): this is a cap on connections held open at once, not a rate,
//! so a rate limiter such as `governor` does not fit.

use std::collections::{HashMap, VecDeque};
use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::Body;
use axum::http::{Response, StatusCode, header};
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, watch};
use tower::ServiceExt;

/// File descriptors kept for everything but client connections (the database, the listener,
/// logs, the runtime).
const RESERVED_FDS: u64 = 128;

/// The most a request's head may take in the connection's read buffer.
const MAX_HEAD_BYTES: usize = 64 * 1024;

/// How long a connection over a cap has to send its one request (at most the header timeout):
/// short, so that idle connections do not hold the headroom kept for health checks.
const OVER_CAP_HEADER_TIMEOUT: Duration = Duration::from_secs(1);

/// The paths answered even over the caps.
const ALWAYS_ANSWERED: [&str; 2] = ["/healthz", "/metrics"];

/// How many connections are served at once.
#[derive(Clone, Copy, Debug)]
pub struct Caps {
    /// Connections served at once, in all.
    pub total: usize,
    /// Connections served at once from one IP address.
    pub per_ip: usize,
    /// Connections over a cap that are answered (503, or `/healthz` and `/metrics`) at once.
    pub spare: usize,
}

impl Caps {
    /// The caps asked for, with their headroom, lowered if need be to fit within
    /// `open_files` file descriptors.
    pub fn fitting(total: usize, per_ip: usize, open_files: Option<u64>) -> Caps {
        let total = total.max(1);
        let mut caps = Caps {
            total,
            per_ip: per_ip.max(1),
            spare: (total / 8).max(16),
        };
        if let Some(limit) = open_files {
            let budget = usize::try_from(limit.saturating_sub(RESERVED_FDS)).unwrap_or(usize::MAX);
            if caps.total + caps.spare > budget {
                let fitted_spare = (budget / 9).max(1);
                let fitted = Caps {
                    total: budget.saturating_sub(fitted_spare).max(1),
                    per_ip: caps.per_ip,
                    spare: fitted_spare,
                };
                tracing::warn!(
                    asked = caps.total,
                    allowed = fitted.total,
                    open_files = limit,
                    "the connection cap does not fit the open-file limit; lowered"
                );
                caps = fitted;
            }
        }
        caps
    }
}

/// Open connections, in all and by address.
#[derive(Default)]
struct Counts {
    served: usize,
    /// Served connections of each address that has any.
    by_ip: HashMap<IpAddr, usize>,
    /// Connections over a cap still waiting for their answer, oldest first.
    waiting: VecDeque<Waiting>,
    next_id: u64,
}

/// A connection over a cap, waiting for its one answer.
struct Waiting {
    id: u64,
    ip: IpAddr,
    /// Tells it to close, to make way for a newer one.
    evict: Arc<Notify>,
}

/// Admits connections within the caps.
pub struct Gate {
    caps: Caps,
    counts: Mutex<Counts>,
}

/// A connection's place in the counts, given back when it is dropped.
pub struct Permit {
    gate: Arc<Gate>,
    ip: IpAddr,
    /// For a connection over a cap (answered once, with 503 or health and metrics): its place
    /// among those waiting, and what tells it to make way.
    over: Option<(u64, Arc<Notify>)>,
}

impl Gate {
    /// A gate with these caps.
    pub fn new(caps: Caps) -> Arc<Gate> {
        Arc::new(Gate {
            caps,
            counts: Mutex::default(),
        })
    }

    fn counts(&self) -> MutexGuard<'_, Counts> {
        self.counts
            .lock()
            .expect("the connection counts are never poisoned")
    }

    /// A place for a connection from `ip`: served, or over a cap. A connection over a cap
    /// takes the place of the oldest one waiting from the same address when that address has
    /// as many waiting as its cap, or else of the oldest one waiting at all when the headroom
    /// is full: a health check sent at once is answered however many idle connections there
    /// are.
    pub fn admit(self: &Arc<Gate>, ip: IpAddr) -> Permit {
        let caps = self.caps;
        let mut counts = self.counts();
        let served = counts.served;
        let mine = counts.by_ip.entry(ip).or_default();
        if served < caps.total && *mine < caps.per_ip {
            *mine += 1;
            counts.served += 1;
            return Permit {
                gate: self.clone(),
                ip,
                over: None,
            };
        }
        if *mine == 0 {
            counts.by_ip.remove(&ip);
        }
        let same_address = counts.waiting.iter().filter(|w| w.ip == ip).count();
        let oldest = if same_address >= caps.per_ip {
            counts.waiting.iter().position(|w| w.ip == ip)
        } else if counts.waiting.len() >= caps.spare {
            Some(0)
        } else {
            None
        };
        if let Some(gone) = oldest.and_then(|at| counts.waiting.remove(at)) {
            gone.evict.notify_one();
        }
        let id = counts.next_id;
        counts.next_id += 1;
        let evict = Arc::new(Notify::new());
        counts.waiting.push_back(Waiting {
            id,
            ip,
            evict: evict.clone(),
        });
        Permit {
            gate: self.clone(),
            ip,
            over: Some((id, evict)),
        }
    }
}

impl Drop for Permit {
    fn drop(&mut self) {
        let mut counts = self.gate.counts();
        match &self.over {
            Some((id, _)) => {
                // Gone from the list already if it was made to make way.
                if let Some(at) = counts.waiting.iter().position(|w| w.id == *id) {
                    counts.waiting.remove(at);
                }
            }
            None => {
                counts.served -= 1;
                if let Some(mine) = counts.by_ip.get_mut(&self.ip) {
                    *mine -= 1;
                    if *mine == 0 {
                        counts.by_ip.remove(&self.ip);
                    }
                }
            }
        }
    }
}

/// A socket that holds its connection's [`Permit`] until it is dropped, WebSocket or not, and
/// adds the security headers to the error answers hyper writes on its own
/// ([`crate::bare_answers`]).
struct Counted {
    io: TcpStream,
    _permit: Permit,
    /// An answer being written with headers added: its bytes, how many are written, and the
    /// length of the bytes hyper asked to write (what it is told once all are written).
    rewritten: Option<(Vec<u8>, usize, usize)>,
}

impl Counted {
    /// Writes `buf`, or its rewriting with the security headers, whole before saying it is written.
    fn poll_write_answer(
        &mut self,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        if self.rewritten.is_none() {
            match crate::bare_answers::with_security_headers(buf) {
                Some(bytes) => self.rewritten = Some((bytes, 0, buf.len())),
                None => return Pin::new(&mut self.io).poll_write(cx, buf),
            }
        }
        let (bytes, written, asked) = self.rewritten.as_mut().expect("set above");
        while *written < bytes.len() {
            match Pin::new(&mut self.io).poll_write(cx, &bytes[*written..]) {
                Poll::Ready(Ok(0)) => {
                    self.rewritten = None;
                    return Poll::Ready(Ok(0));
                }
                Poll::Ready(Ok(n)) => *written += n,
                Poll::Ready(Err(error)) => {
                    self.rewritten = None;
                    return Poll::Ready(Err(error));
                }
                Poll::Pending => return Poll::Pending,
            }
        }
        let asked = *asked;
        self.rewritten = None;
        Poll::Ready(Ok(asked))
    }
}

impl AsyncRead for Counted {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.io).poll_read(cx, buf)
    }
}

impl AsyncWrite for Counted {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        self.poll_write_answer(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.io).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        // An answer's head comes first: one that needs headers added is written on its own.
        let first = bufs.iter().find(|buf| !buf.is_empty());
        match first {
            Some(head)
                if self.rewritten.is_some()
                    || crate::bare_answers::with_security_headers(head).is_some() =>
            {
                self.poll_write_answer(cx, head)
            }
            _ => Pin::new(&mut self.io).poll_write_vectored(cx, bufs),
        }
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }
}

/// Raises the soft limit on open files to the hard limit; the limit in force afterwards.
pub fn raise_open_files() -> Option<u64> {
    match rlimit::Resource::NOFILE.get() {
        Ok((soft, hard)) => {
            let raised = if soft < hard {
                rlimit::Resource::NOFILE.set(hard, hard).map(|()| hard)
            } else {
                Ok(soft)
            };
            match raised {
                Ok(now) => {
                    tracing::info!(soft = soft, hard = hard, now = now, "open-file limit");
                    Some(now)
                }
                Err(error) => {
                    tracing::warn!(soft = soft, hard = hard, %error, "open-file limit not raised");
                    Some(soft)
                }
            }
        }
        Err(error) => {
            tracing::warn!(%error, "open-file limit unknown");
            None
        }
    }
}

/// The answer to a request on a connection over a cap.
fn busy() -> Response<Body> {
    let mut response = Response::new(Body::from(
        "the server is busy: too many connections; try again in a moment\n",
    ));
    *response.status_mut() = StatusCode::SERVICE_UNAVAILABLE;
    let headers = response.headers_mut();
    headers.insert(header::RETRY_AFTER, header::HeaderValue::from_static("5"));
    for (name, value) in crate::routes::SECURITY_HEADERS {
        headers.insert(name, header::HeaderValue::from_static(value));
    }
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        header::HeaderValue::from_static(crate::routes::CONTENT_SECURITY_POLICY),
    );
    headers.insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

/// Serves `router` on `listener` within `gate`'s caps until `stopping` turns `true`; then stops
/// accepting, lets every open request finish and returns once every HTTP connection has closed
/// (WebSockets close themselves on `stopping`).
pub async fn serve(
    listener: TcpListener,
    router: axum::Router,
    gate: Arc<Gate>,
    header_timeout: Duration,
    mut stopping: watch::Receiver<bool>,
) {
    let (open, all_closed) = watch::channel(());
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    accept_failed(&error).await;
                    continue;
                }
            },
            () = stopped(&mut stopping) => break,
        };
        let permit = gate.admit(peer.ip());
        let _ = stream.set_nodelay(true);
        let connection = connection(
            stream,
            peer,
            permit,
            router.clone(),
            header_timeout,
            stopping.clone(),
        );
        let still_open = all_closed.clone();
        tokio::spawn(async move {
            connection.await;
            drop(still_open);
        });
    }
    drop(listener);
    drop(all_closed);
    open.closed().await;
}

/// Completes once the server is stopping.
async fn stopped(stopping: &mut watch::Receiver<bool>) {
    let _ = stopping.wait_for(|&stop| stop).await;
}

/// Waits after a failed `accept`: not at all when only that connection failed, a moment when
/// the process is out of file descriptors or memory (so as not to spin).
async fn accept_failed(error: &std::io::Error) {
    use std::io::ErrorKind;
    if matches!(
        error.kind(),
        ErrorKind::ConnectionRefused | ErrorKind::ConnectionAborted | ErrorKind::ConnectionReset
    ) {
        return;
    }
    tracing::warn!(%error, "accepting a connection failed");
    tokio::time::sleep(Duration::from_millis(50)).await;
}

async fn connection(
    stream: TcpStream,
    peer: SocketAddr,
    permit: Permit,
    router: axum::Router,
    header_timeout: Duration,
    mut stopping: watch::Receiver<bool>,
) {
    let evict = permit.over.as_ref().map(|(_, evict)| evict.clone());
    let over = evict.is_some();
    let io = TokioIo::new(Counted {
        io: stream,
        _permit: permit,
        rewritten: None,
    });
    let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
        let router = router.clone();
        async move {
            if over && !ALWAYS_ANSWERED.contains(&request.uri().path()) {
                return Ok::<_, Infallible>(busy());
            }
            request
                .extensions_mut()
                .insert(axum::extract::ConnectInfo(peer));
            router.oneshot(request).await
        }
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(if over {
            header_timeout.min(OVER_CAP_HEADER_TIMEOUT)
        } else {
            header_timeout
        })
        .max_buf_size(MAX_HEAD_BYTES)
        .keep_alive(!over);
    let connection = builder.serve_connection(io, service).with_upgrades();
    tokio::pin!(connection);
    let mut closing = false;
    loop {
        tokio::select! {
            served = connection.as_mut() => {
                if let Err(error) = served {
                    tracing::debug!(%error, "a connection ended with an error");
                }
                break;
            }
            () = async { evict.as_ref().expect("only over a cap").notified().await }, if over => {
                // A newer connection over the cap took this one's place.
                break;
            }
            () = stopped(&mut stopping), if !closing => {
                closing = true;
                connection.as_mut().graceful_shutdown();
            }
        }
    }
}
