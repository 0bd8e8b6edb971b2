//! Hostile clients against the real server: floods that never read, clients over the rate,
//! WebSockets that never say hello, headers sent a byte at a time, more connections than the
//! caps. Each attack is reproduced, and the server is shown to hold: the client is cut off, the
//! server's memory stays bounded, and everyone else is still served.

mod support;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::{Client, GUEST, HOST, create_room, http, spawn_server, spawn_server_with};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// This process's resident memory, in bytes (the server runs inside the test).
fn rss() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let kib: u64 = status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .expect("a VmRSS line");
    kib * 1024
}

/// A WebSocket to `/ws` opened by hand: the handshake done, nothing read after it.
async fn raw_websocket(addr: SocketAddr) -> TcpStream {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream
        .write_all(
            b"GET /ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
              Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
        )
        .await
        .unwrap();
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        stream.read_exact(&mut byte).await.unwrap();
        head.push(byte[0]);
    }
    assert!(head.starts_with(b"HTTP/1.1 101"), "{head:?}");
    stream
}

/// Masked client frames (with a zero mask): one-byte binary frames and empty pings, alternating.
fn binary_and_pings(count: usize) -> Vec<u8> {
    let mut frames = Vec::with_capacity(count * 7);
    for i in 0..count {
        if i % 2 == 0 {
            frames.extend_from_slice(&[0x82, 0x81, 0, 0, 0, 0, b'x']);
        } else {
            frames.extend_from_slice(&[0x89, 0x80, 0, 0, 0, 0]);
        }
    }
    frames
}

/// Writes `frames` over and over, never reading, until the server cuts the connection off;
/// how long that took. Panics if it is still open after `limit`.
async fn flood_until_cut_off(stream: &mut TcpStream, frames: &[u8], limit: Duration) -> Duration {
    let start = Instant::now();
    loop {
        let written = tokio::time::timeout(Duration::from_secs(1), stream.write_all(frames)).await;
        if matches!(written, Ok(Err(_))) {
            return start.elapsed();
        }
        assert!(
            start.elapsed() < limit,
            "the flooding client is still connected after {limit:?}"
        );
    }
}

/// The value of a series in `/metrics`.
async fn metric(addr: SocketAddr, name: &str) -> u64 {
    let (status, body) = http(addr, "GET", "/metrics", None).await;
    assert_eq!(status, 200);
    body.lines()
        .find_map(|line| line.strip_prefix(&format!("{name} ")))
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("{name} in {body}"))
}

/// Waits (up to 5 s) until `ludo_connections` is `n`.
async fn connections_become(addr: SocketAddr, n: u64) {
    let start = Instant::now();
    while metric(addr, "ludo_connections").await != n {
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "ludo_connections never became {n}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

const MIB: u64 = 1024 * 1024;

/// One client floods binary frames and pings without reading until the server cuts it off
/// (within `limit`); the server's memory must not grow by 32 MiB meanwhile.
async fn flood_and_measure(server: &support::Server, limit: Duration) {
    let before = rss();
    let mut hostile = raw_websocket(server.addr).await;
    let took = flood_until_cut_off(&mut hostile, &binary_and_pings(100_000), limit).await;
    let grown = rss().saturating_sub(before);
    eprintln!(
        "cut off after {took:?}; memory grew by {:.1} MiB",
        grown as f64 / MIB as f64
    );
    assert!(grown < 32 * MIB, "memory grew by {grown} bytes");
}

#[tokio::test]
async fn a_client_flooding_binary_frames_and_pings_without_reading_is_cut_off_and_memory_stays_bounded()
 {
    // The default limits, as in production.
    let server = spawn_server_with(|config| {
        config.rate = 30;
        config.rate_refusals = 30;
        config.outbox_messages = 64;
        config.outbox_kib = 64;
    })
    .await;
    flood_and_measure(&server, Duration::from_secs(5)).await;
    connections_become(server.addr, 0).await;
    assert_eq!(http(server.addr, "GET", "/healthz", None).await.0, 200);
}

#[tokio::test]
async fn a_client_that_never_reads_its_refusals_is_cut_off_when_its_outbox_is_full() {
    // No rate limit to stop the flood first: only the outbox and the write timeout hold it.
    let server = spawn_server_with(|config| {
        config.outbox_messages = 16;
        config.outbox_kib = 16;
        config.write_timeout_ms = 1000;
    })
    .await;
    // Every one-byte binary frame is refused with `bad_message`, and every ping answered.
    flood_and_measure(&server, Duration::from_secs(8)).await;
    connections_become(server.addr, 0).await;
    assert!(metric(server.addr, "ludo_refusals_total").await > 0);
}

#[tokio::test]
async fn a_client_over_the_rate_is_refused_then_disconnected() {
    let server = spawn_server_with(|config| {
        config.rate = 5;
        config.rate_refusals = 5;
    })
    .await;
    let code = create_room(server.addr, HOST, json!({})).await;
    let mut host = Client::join(server.addr, &code, HOST, "Host").await;
    // A burst of 10 goes through, 5 more are refused, and the next closes the connection.
    // Standing without a seat is refused too: only the rate matters here.
    host.tolerate("not_seated");
    host.tolerate("rate_limited");
    for _ in 0..20 {
        host.send(json!({"t": "stand"})).await;
    }
    let mut refused = 0;
    let closed = host
        .closed(|m: &Value| {
            if m["code"] == "rate_limited" {
                refused += 1;
            }
        })
        .await;
    assert_eq!(closed, Some((1008, "too many messages".to_owned())));
    assert!((1..=5).contains(&refused), "{refused} refusals for rate");
    // Coming back is allowed.
    Client::join(server.addr, &code, HOST, "Host").await;
}

#[tokio::test]
async fn pings_count_against_the_rate() {
    let server = spawn_server_with(|config| {
        config.rate = 5;
        config.rate_refusals = 5;
    })
    .await;
    let mut hostile = raw_websocket(server.addr).await;
    // 20 pings: 10 within the burst, 5 refused, then the connection is closed.
    let pings: Vec<u8> = (0..20).flat_map(|_| [0x89, 0x80, 0, 0, 0, 0]).collect();
    hostile.write_all(&pings).await.unwrap();
    let mut received = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(5), async {
        let _ = hostile.read_to_end(&mut received).await;
    })
    .await;
    assert!(read.is_ok(), "the connection is closed");
    let text = String::from_utf8_lossy(&received);
    assert!(text.contains("rate_limited"), "{text}");
    assert!(text.contains("too many messages"), "{text}");
}

#[tokio::test]
async fn a_websocket_that_never_says_hello_is_closed_after_the_deadline() {
    let server = spawn_server_with(|config| config.hello_timeout_ms = 300).await;
    let code = create_room(server.addr, HOST, json!({})).await;
    let start = Instant::now();
    let mut silent = Client::connect(server.addr).await;
    let closed = silent.closed(|_| {}).await;
    assert_eq!(closed, Some((1008, "no hello in time".to_owned())));
    assert!(start.elapsed() >= Duration::from_millis(300));
    assert!(start.elapsed() < Duration::from_secs(3));

    // Refused hellos do not stop the clock either.
    let mut wrong_room = Client::connect(server.addr).await;
    wrong_room
        .send(json!({"t": "hello", "room": "nosuchrm", "device": HOST, "name": "Host"}))
        .await;
    assert_eq!(wrong_room.error_code().await, "no_such_room");
    assert_eq!(
        wrong_room.closed(|_| {}).await,
        Some((1008, "no hello in time".to_owned()))
    );

    // A client that said hello in time stays past the deadline.
    let mut host = Client::join(server.addr, &code, HOST, "Host").await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    host.send(json!({"t": "sit", "colour": "yellow"})).await;
    host.recv_until(|m| m["t"] == "room").await;
}

/// Whether the server ends the connection (end of stream or reset) within `limit` while the
/// client trickles `bytes` one every `gap`; the time it took.
async fn trickle(
    stream: &mut TcpStream,
    bytes: &[u8],
    gap: Duration,
    limit: Duration,
) -> Option<Duration> {
    let start = Instant::now();
    let mut buf = [0u8; 256];
    for &byte in bytes.iter().cycle() {
        if start.elapsed() > limit {
            return None;
        }
        if stream.write_all(&[byte]).await.is_err() {
            return Some(start.elapsed());
        }
        if let Ok(Ok(0) | Err(_)) = tokio::time::timeout(gap, stream.read(&mut buf)).await {
            return Some(start.elapsed());
        }
    }
    None
}

#[tokio::test]
async fn a_header_sent_a_byte_at_a_time_is_dropped_after_the_header_timeout() {
    let server = spawn_server_with(|config| config.header_timeout_ms = 500).await;
    let mut slow = TcpStream::connect(server.addr).await.unwrap();
    let header = b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Padding: aaaaaaaaaaaaaaaaaaaaaaaa";
    let dropped = trickle(
        &mut slow,
        header,
        Duration::from_millis(50),
        Duration::from_secs(5),
    )
    .await
    .expect("the slow client is dropped");
    assert!(dropped >= Duration::from_millis(450), "{dropped:?}");
    assert!(dropped < Duration::from_secs(2), "{dropped:?}");
    // Everyone else is served as usual.
    assert_eq!(http(server.addr, "GET", "/healthz", None).await.0, 200);
}

#[tokio::test]
async fn an_idle_connection_is_closed_after_the_header_timeout() {
    let server = spawn_server_with(|config| config.header_timeout_ms = 300).await;
    // A connection that never asks anything.
    let mut idle = TcpStream::connect(server.addr).await.unwrap();
    let mut buf = Vec::new();
    let start = Instant::now();
    let read = tokio::time::timeout(Duration::from_secs(3), idle.read_to_end(&mut buf)).await;
    assert!(read.is_ok(), "the idle connection is closed");
    assert!(start.elapsed() >= Duration::from_millis(250));
    // A keep-alive connection idle after its answer.
    let mut kept = TcpStream::connect(server.addr).await.unwrap();
    kept.write_all(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
        .await
        .unwrap();
    let mut answer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(3), kept.read_to_end(&mut answer)).await;
    assert!(read.is_ok(), "the idle keep-alive connection is closed");
    assert!(String::from_utf8_lossy(&answer).starts_with("HTTP/1.1 200"));
}

#[tokio::test]
async fn a_slow_request_body_is_answered_408() {
    let server = spawn_server_with(|config| config.request_timeout_ms = 300).await;
    let mut slow = TcpStream::connect(server.addr).await.unwrap();
    slow.write_all(
        b"POST /api/rooms HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
          Content-Length: 100\r\n\r\n{",
    )
    .await
    .unwrap();
    let mut answer = vec![0u8; 2048];
    let n = tokio::time::timeout(Duration::from_secs(3), slow.read(&mut answer))
        .await
        .expect("an answer in time")
        .unwrap();
    let answer = String::from_utf8_lossy(&answer[..n]);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert_security_headers(&answer);
}

/// Fails unless an ordinary request is served again within 5 seconds.
async fn served_within_5_seconds(addr: std::net::SocketAddr) {
    let start = Instant::now();
    while http(addr, "GET", "/api/rules", None).await.0 != 200 {
        assert!(start.elapsed() < Duration::from_secs(5), "still refused");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Whether an answer's head carries the headers every answer has, whoever made it.
fn assert_security_headers(head: &str) {
    let head = head.to_ascii_lowercase();
    for wanted in [
        "x-content-type-options: nosniff",
        "referrer-policy: no-referrer",
        "content-security-policy: default-src 'none'",
    ] {
        assert!(head.contains(wanted), "{wanted} in {head}");
    }
}

/// A whole HTTP/1.1 answer to `GET path`, head and body.
async fn raw_get(addr: std::net::SocketAddr, path: &str) -> String {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let request = format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.unwrap();
    String::from_utf8_lossy(&answer).into_owned()
}

#[tokio::test]
async fn connections_beyond_the_per_address_cap_get_503_while_healthz_still_answers() {
    let server = spawn_server_with(|config| config.max_connections_per_ip = 4).await;
    let mut open = Vec::new();
    for _ in 0..4 {
        open.push(Client::connect(server.addr).await);
    }
    let busy = raw_get(server.addr, "/api/rules").await;
    assert!(busy.starts_with("HTTP/1.1 503"), "{busy}");
    assert_security_headers(&busy);
    assert!(
        tokio_tungstenite::connect_async(format!("ws://{}/ws", server.addr))
            .await
            .is_err(),
        "a fifth WebSocket is refused"
    );
    let (status, body) = http(server.addr, "GET", "/healthz", None).await;
    assert_eq!((status, body.as_str()), (200, "ok"));
    assert_eq!(metric(server.addr, "ludo_connections").await, 4);
    // Once one closes, the next is served.
    open.pop().unwrap().close().await;
    served_within_5_seconds(server.addr).await;
}

#[tokio::test]
async fn connections_beyond_the_total_cap_get_503_and_idle_ones_make_way_for_health_checks() {
    let server = spawn_server_with(|config| {
        config.max_connections = 3;
        config.max_connections_per_ip = 100;
    })
    .await;
    let mut open = Vec::new();
    for _ in 0..3 {
        open.push(TcpStream::connect(server.addr).await.unwrap());
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(http(server.addr, "GET", "/api/rules", None).await.0, 503);
    assert_eq!(http(server.addr, "GET", "/healthz", None).await.0, 200);
    // The headroom for such answers (16 here) filled with idle connections, and more: each new
    // one takes the place of the oldest waiting, which is closed.
    let mut waiting = Vec::new();
    for _ in 0..40 {
        waiting.push(TcpStream::connect(server.addr).await.unwrap());
    }
    let mut oldest = waiting.remove(0);
    let mut buf = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(3), oldest.read_to_end(&mut buf)).await;
    assert!(matches!(read, Ok(Ok(0)) | Ok(Err(_))), "{buf:?}");
    for _ in 0..5 {
        let (status, body) = http(server.addr, "GET", "/healthz", None).await;
        assert_eq!((status, body.as_str()), (200, "ok"));
        waiting.push(TcpStream::connect(server.addr).await.unwrap());
    }
    // The served connections are not touched, and once they close others are served.
    drop(open);
    served_within_5_seconds(server.addr).await;
}

#[tokio::test]
async fn a_watcher_that_never_reads_is_cut_off_and_the_room_plays_on() {
    let server = spawn_server_with(|config| {
        config.outbox_messages = 8;
        config.outbox_kib = 8;
        config.write_timeout_ms = 500;
    })
    .await;
    let code = create_room(server.addr, HOST, json!({})).await;
    let mut host = Client::join(server.addr, &code, HOST, "Host").await;
    // The watcher says hello by hand and then never reads again.
    let mut watcher = raw_websocket(server.addr).await;
    let hello =
        json!({"t": "hello", "room": code, "device": "lagging-watcher-device-1", "name": "Slow"})
            .to_string();
    let mut frame = vec![
        0x81,
        0x80 | 126,
        (hello.len() >> 8) as u8,
        hello.len() as u8,
    ];
    frame.extend_from_slice(&[0, 0, 0, 0]);
    frame.extend_from_slice(hello.as_bytes());
    watcher.write_all(&frame).await.unwrap();
    connections_become(server.addr, 2).await;
    // Every sit and stand is broadcast to both; the host reads, the watcher does not.
    let start = Instant::now();
    let mut rounds = 0;
    while metric(server.addr, "ludo_connections").await == 2 {
        for _ in 0..200 {
            host.send(json!({"t": "sit", "colour": "yellow"})).await;
            host.recv_until(|m| m["t"] == "room").await;
            host.send(json!({"t": "stand"})).await;
            host.recv_until(|m| m["t"] == "room").await;
        }
        rounds += 1;
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the watcher is still connected after {rounds} rounds"
        );
    }
    eprintln!("cut off after {:?}", start.elapsed());
    // The room goes on for the host.
    host.send(json!({"t": "sit", "colour": "red"})).await;
    let room = host
        .recv_until(|m| m["t"] == "room" && !m["room"]["seats"]["red"].is_null())
        .await;
    assert_eq!(room["room"]["watchers"], 0);
}

#[tokio::test]
async fn a_hundred_clients_flooding_at_once_cost_no_more_than_the_bound_each() {
    const CLIENTS: usize = 100;
    /// The bound per connection stated in the documentation of `/ws`, with the defaults.
    const BOUND: u64 = 340 * 1024;
    // No rate limit to stop them first: only the outbox and the socket's buffers hold them.
    let server = spawn_server_with(|config| {
        config.outbox_messages = 64;
        config.outbox_kib = 64;
    })
    .await;
    // Each message is refused with a long `bad_message` (it names the unknown tag), and each
    // ping is answered: the largest refusals a client can cause.
    let big = json!({"t": "x".repeat(4000)}).to_string();
    let mut frames = vec![0x81, 0x80 | 126, (big.len() >> 8) as u8, big.len() as u8];
    frames.extend_from_slice(&[0, 0, 0, 0]);
    frames.extend_from_slice(big.as_bytes());
    frames.extend_from_slice(&[0x89, 0x80, 0, 0, 0, 0]);
    let frames: std::sync::Arc<[u8]> = frames.repeat(16).into();
    let before = rss();
    let peak = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(before));
    let sampler = {
        let peak = peak.clone();
        tokio::spawn(async move {
            loop {
                peak.fetch_max(rss(), std::sync::atomic::Ordering::Relaxed);
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        })
    };
    let mut floods = Vec::new();
    for _ in 0..CLIENTS {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.set_recv_buffer_size(4096).unwrap();
        let mut stream = socket.connect(server.addr).await.unwrap();
        stream
            .write_all(
                b"GET /ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\n\
                  Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\
                  Sec-WebSocket-Version: 13\r\n\r\n",
            )
            .await
            .unwrap();
        let frames = frames.clone();
        floods.push(tokio::spawn(async move {
            flood_until_cut_off(&mut stream, &frames, Duration::from_secs(20)).await
        }));
    }
    for flood in floods {
        flood.await.unwrap();
    }
    sampler.abort();
    let grown = peak
        .load(std::sync::atomic::Ordering::Relaxed)
        .saturating_sub(before);
    let each = grown / CLIENTS as u64;
    eprintln!(
        "{CLIENTS} flooding clients: peak memory {:.1} MiB above the start, {} KiB each",
        grown as f64 / MIB as f64,
        each / 1024
    );
    assert!(each < BOUND, "{each} bytes per connection");
    connections_become(server.addr, 0).await;
}

/// A `POST /api/rooms` whose rules hold `count` tiny objects in one list: about 3 bytes each.
fn hostile_new_room(count: usize) -> String {
    let objects = vec!["{}"; count].join(",");
    format!(
        r#"{{"device":"a-device-of-32-characters-or-more","name":"Ana","rules":{{"preset":"qdan","bonus_values":[{objects}]}}}}"#
    )
}

/// Sends `body` to `POST /api/rooms` on a connection of its own; the answer's status.
async fn post_room(addr: SocketAddr, body: &str) -> u16 {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "POST /api/rooms HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    // The server may answer and close before the whole body is sent.
    let _ = stream.write_all(body.as_bytes()).await;
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer).await;
    let answer = String::from_utf8_lossy(&answer);
    answer
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("a status line in {answer:?}"))
}

#[tokio::test]
async fn two_hostile_two_megabyte_room_requests_are_refused_as_too_large_and_cost_little_memory() {
    let server = spawn_server().await;
    let body = hostile_new_room(680_000);
    assert!(body.len() > 2_000_000);
    let before = rss();
    let (a, b) = tokio::join!(post_room(server.addr, &body), post_room(server.addr, &body));
    let grown = rss().saturating_sub(before);
    assert_eq!((a, b), (413, 413));
    println!(
        "two hostile 2 MB room requests grew resident memory by {} KiB",
        grown >> 10
    );
    assert!(
        grown < 60 << 20,
        "two hostile requests grew resident memory by {} MiB",
        grown >> 20
    );
    // A small request with the same hostile list is read without keeping the list: refused as
    // rules that do not read, at the list's first object.
    assert_eq!(post_room(server.addr, &hostile_new_room(2000)).await, 400);
}

#[tokio::test]
async fn a_room_request_over_the_address_limit_is_refused_before_its_body_is_sent() {
    let server = spawn_server_with(|config| config.rooms_per_minute = 1).await;
    create_room(server.addr, "device-ana-0123456789abcdef0123456", json!({})).await;
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    stream
        .write_all(
            b"POST /api/rooms HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
              Content-Length: 2000000\r\n\r\n",
        )
        .await
        .unwrap();
    let mut answer = vec![0u8; 2048];
    let n = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut answer))
        .await
        .expect("the refusal comes without waiting for the body")
        .unwrap();
    let answer = String::from_utf8_lossy(&answer[..n]);
    assert!(answer.starts_with("HTTP/1.1 429"), "{answer}");
}

#[tokio::test]
async fn a_key_given_twice_in_a_room_request_or_a_message_is_refused() {
    let server = spawn_server().await;
    let twice = r#"{"device":"a-device-of-32-characters-or-more","name":"Ana","rules":{"preset":"qdan","safe":"none","safe":"stars"}}"#;
    let (status, body) = http(server.addr, "POST", "/api/rooms", Some(twice)).await;
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("duplicate field `safe`"), "{body}");
    let ranked_twice = r#"{"device":"a-device-of-32-characters-or-more","name":"Ana","ranked":false,"ranked":true}"#;
    let (status, body) = http(server.addr, "POST", "/api/rooms", Some(ranked_twice)).await;
    assert_eq!(status, 400, "{body}");

    let device = "device-ana-0123456789abcdef0123456";
    let code = create_room(server.addr, device, json!({})).await;
    let mut host = Client::join(server.addr, &code, device, "Ana").await;
    host.send_text(r#"{"t":"settings","ranked":false,"ranked":true}"#.to_owned())
        .await;
    let refusal = host.refusal().await;
    assert_eq!(refusal["code"], "bad_message", "{refusal}");
    assert!(
        refusal["message"]
            .as_str()
            .unwrap()
            .contains("`ranked` is given twice")
    );
}

/// A masked client frame (zero mask) with this first byte (FIN and opcode) and a short payload.
fn client_frame(first: u8, payload: &[u8]) -> Vec<u8> {
    assert!(payload.len() < 126);
    let mut frame = vec![first, 0x80 | payload.len() as u8, 0, 0, 0, 0];
    frame.extend_from_slice(payload);
    frame
}

/// A raw WebSocket that has said hello in a room of its own and read its welcome.
async fn raw_websocket_after_hello(server: &support::Server) -> TcpStream {
    let code = create_room(server.addr, HOST, json!({})).await;
    let mut socket = raw_websocket(server.addr).await;
    let hello = json!({"t": "hello", "room": code, "device": HOST, "name": "Host"}).to_string();
    socket
        .write_all(&client_frame(0x81, hello.as_bytes()))
        .await
        .unwrap();
    let mut welcome = [0u8; 512];
    let n = socket.read(&mut welcome).await.unwrap();
    assert!(String::from_utf8_lossy(&welcome[..n]).contains("welcome"));
    socket
}

/// Everything the server sends until it closes the connection (within `limit`), as text.
async fn read_until_closed(socket: &mut TcpStream, limit: Duration) -> String {
    let mut received = Vec::new();
    let read = tokio::time::timeout(limit, socket.read_to_end(&mut received)).await;
    assert!(read.is_ok(), "still open after {limit:?}");
    String::from_utf8_lossy(&received).into_owned()
}

#[tokio::test]
async fn empty_continuation_frames_count_against_the_rate_and_the_flood_is_cut_off() {
    let server = spawn_server_with(|config| config.rate = 30).await;
    let mut hostile = raw_websocket_after_hello(&server).await;
    // A message begun and never finished, then empty continuation frames without end.
    hostile.write_all(&client_frame(0x01, b"{")).await.unwrap();
    let empties: Vec<u8> = (0..10_000).flat_map(|_| client_frame(0x00, b"")).collect();
    let took = flood_until_cut_off(&mut hostile, &empties, Duration::from_secs(5)).await;
    eprintln!("a flood of empty continuation frames was cut off after {took:?}");
    served_within_5_seconds(server.addr).await;
}

#[tokio::test]
async fn a_message_left_unfinished_is_closed_within_two_seconds() {
    let server = spawn_server().await;
    let mut hostile = raw_websocket_after_hello(&server).await;
    let start = Instant::now();
    hostile
        .write_all(&client_frame(0x01, b"{\"t\":"))
        .await
        .unwrap();
    // A ping in the middle is answered, but does not finish the message.
    hostile.write_all(&client_frame(0x89, b"")).await.unwrap();
    let received = read_until_closed(&mut hostile, Duration::from_secs(10)).await;
    let took = start.elapsed();
    eprintln!("a message left unfinished was closed after {took:?}");
    assert!(took >= Duration::from_millis(1900), "closed after {took:?}");
    assert!(
        received.contains("a message left unfinished"),
        "{received:?}"
    );
}

#[tokio::test]
async fn an_address_makes_only_so_many_new_identities_a_minute_while_known_devices_still_come_in() {
    let server = spawn_server_with(|config| config.identities_per_minute = 3).await;
    let code = create_room(server.addr, HOST, json!({})).await;
    let mut client = Client::connect(server.addr).await;
    for n in 0..2 {
        let device = format!("new-device-secret-{n:04}");
        client
            .send(json!({"t": "hello", "room": code, "device": device, "name": "Ana"}))
            .await;
        assert_eq!(client.recv().await["t"], "welcome");
        client = Client::connect(server.addr).await;
    }
    client
        .send(json!({"t": "hello", "room": code, "device": "new-device-secret-9999", "name": "Bo"}))
        .await;
    let refusal = client.refusal().await;
    assert_eq!(refusal["code"], "rate_limited", "{refusal}");
    assert!(refusal["message"].as_str().unwrap().contains("new players"));
    let body = json!({"device": "new-device-secret-8888", "name": "Cy"}).to_string();
    let (status, text) = http(server.addr, "POST", "/api/rooms", Some(&body)).await;
    assert_eq!(status, 429, "{text}");
    // Devices already known are not new identities.
    Client::join(server.addr, &code, HOST, "Host").await;
    Client::join(server.addr, &code, "new-device-secret-0001", "Ana").await;
    let (status, _) = http(
        server.addr,
        "POST",
        "/api/rooms",
        Some(&json!({"device": HOST, "name": "Host"}).to_string()),
    )
    .await;
    assert_eq!(status, 201);
}

#[tokio::test]
async fn room_codes_are_long_and_an_address_guessing_them_may_look_up_no_room_for_a_while() {
    let server = spawn_server_with(|config| config.missed_codes_per_minute = 3).await;
    let code = create_room(server.addr, HOST, json!({})).await;
    assert!(code.len() >= 13, "{code}: at least 60 bits");
    assert_eq!(
        http(server.addr, "GET", &format!("/api/rooms/{code}"), None)
            .await
            .0,
        200
    );
    for guess in ["aaaaaaaaaaaaa", "bbbbbbbbbbbbb", "ccccccccccccc"] {
        let (status, _) = http(server.addr, "GET", &format!("/api/rooms/{guess}"), None).await;
        assert_eq!(status, 404);
    }
    let mut guesser = Client::connect(server.addr).await;
    guesser
        .send(json!({"t": "hello", "room": "ddddddddddddd", "device": GUEST, "name": "Eve"}))
        .await;
    assert_eq!(
        guesser.error_code().await,
        "no_such_room",
        "the fourth miss empties the bucket"
    );
    // Now not even a room that exists is found from this address, over HTTP or the WebSocket.
    let (status, text) = http(server.addr, "GET", &format!("/api/rooms/{code}"), None).await;
    assert_eq!(status, 429, "{text}");
    assert!(text.contains("rate_limited"), "{text}");
    guesser
        .send(json!({"t": "hello", "room": code, "device": GUEST, "name": "Eve"}))
        .await;
    assert_eq!(guesser.error_code().await, "rate_limited");
}

#[tokio::test]
async fn sixty_chattering_watchers_from_one_address_cannot_knock_the_players_out() {
    // The limits of a real server, but for the connections one address may open to a room.
    let server = spawn_server_with(|config| {
        config.rate = 30;
        config.outbox_messages = 64;
        config.outbox_kib = 64;
    })
    .await;
    let (code, mut host, mut guest) = support::two_player_room(&server, json!({})).await;
    let joins = (0..60).map(|n| {
        let code = code.clone();
        async move {
            let mut watcher =
                Client::join(server.addr, &code, &format!("chatty-watcher-{n:04}"), "Eve").await;
            watcher.tolerate("rate_limited");
            for phrase in ["good_luck", "oops", "thanks"] {
                watcher.send(json!({"t": "say", "phrase": phrase})).await;
            }
            watcher
        }
    });
    let watchers = futures_util::future::join_all(joins).await;
    // The players are still connected: the host's word reaches the guest, after at most the
    // three phrases the watchers' address was allowed.
    host.send(json!({"t": "say", "phrase": "well_played"}))
        .await;
    let mut from_watchers = 0;
    loop {
        let said = guest.recv_until(|m| m["t"] == "said").await;
        if said["phrase"] == "well_played" {
            break;
        }
        from_watchers += 1;
    }
    assert!(
        from_watchers <= 3,
        "{from_watchers} watchers' phrases reached the guest"
    );
    drop(watchers);
    // By default one address may open only eight connections to a room.
    let crowded = spawn_server_with(|config| config.connections_per_room = 8).await;
    let code = create_room(crowded.addr, HOST, json!({})).await;
    let mut open = Vec::new();
    for n in 0..8 {
        open.push(Client::join(crowded.addr, &code, &format!("watcher-device-{n:04}"), "W").await);
    }
    let mut ninth = Client::connect(crowded.addr).await;
    ninth
        .send(json!({"t": "hello", "room": code, "device": "watcher-device-0009", "name": "W"}))
        .await;
    assert_eq!(ninth.error_code().await, "rate_limited");
    open.pop().unwrap().close().await;
    // Once one has closed, another may come.
    let start = Instant::now();
    loop {
        let mut another = Client::connect(crowded.addr).await;
        another
            .send(json!({"t": "hello", "room": code, "device": "watcher-device-0010", "name": "W"}))
            .await;
        if another.recv_or_refusal().await["t"] == "welcome" {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "never let in again"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// What the server answers to `request` sent whole on a connection of its own.
async fn raw_answer(addr: SocketAddr, request: &[u8]) -> String {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    // The server may answer and close before the whole request is sent.
    let _ = stream.write_all(request).await;
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer).await;
    String::from_utf8_lossy(&answer).into_owned()
}

#[tokio::test]
async fn requests_refused_before_the_router_still_carry_the_security_headers() {
    let server = spawn_server().await;
    let long_path = format!("/{}", "a".repeat(70 * 1024));
    for (request, status) in [
        (b"\x16\x03\x01 not http at all\r\n\r\n".to_vec(), "400"),
        (
            b"POST /api/rooms HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\n\
              Content-Length: 3\r\n\r\n{}"
                .to_vec(),
            "400",
        ),
        (
            format!("GET {long_path} HTTP/1.1\r\nHost: localhost\r\n\r\n").into_bytes(),
            "414",
        ),
        (
            format!(
                "GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n{}\r\n",
                "X-Long: a-header-line-of-forty-bytes-or-so\r\n".repeat(4000)
            )
            .into_bytes(),
            "431",
        ),
    ] {
        let answer = raw_answer(server.addr, &request).await;
        assert!(
            answer.starts_with(&format!("HTTP/1.1 {status} ")),
            "{answer}"
        );
        assert_security_headers(&answer);
    }
    // The server serves on.
    served_within_5_seconds(server.addr).await;
}
