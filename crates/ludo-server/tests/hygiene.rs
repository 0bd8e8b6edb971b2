//! What every answer of the server holds back or adds: security headers on every response, the
//! WebSocket closed to other sites' pages, validators for the web client's files, names that
//! cannot hide or pass for a CPU, and logs that never show a device secret. And what the
//! repository's documents hold back: no path outside the repository, no link to nothing.

mod support;

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::json;
use support::{Client, create_room, http, spawn_server, spawn_server_with};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

const HOST: &str = "hygiene-device-host-0001";

/// An answer: status, headers (names in lower case) and body.
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// One HTTP/1.1 request with extra header lines; the whole answer.
async fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    extra: &[(&str, &str)],
    body: &str,
) -> Answer {
    let mut stream = TcpStream::connect(addr).await.expect("the server accepts");
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (name, value) in extra {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(body.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await.unwrap();
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a head");
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
        .expect("a status line");
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    Answer {
        status,
        headers,
        body: raw[split + 4..].to_vec(),
    }
}

#[tokio::test]
async fn every_page_worker_and_api_answer_carries_the_security_headers_and_the_policy() {
    let server = spawn_server().await;
    let room = format!(r#"{{"device":"{HOST}","name":"Ana"}}"#);
    let asked = [
        ("GET", "/", ""),
        ("GET", "/r/abcdefgh", ""),
        ("GET", "/sw.js", ""),
        ("GET", "/engine/cpu-worker.js", ""),
        ("GET", "/no-such-file.js", ""),
        ("GET", "/rules/nosuchpreset", ""),
        ("GET", "/api/rules", ""),
        ("GET", "/api/rooms/nosuchroom", ""),
        ("GET", "/healthz", ""),
        ("GET", "/metrics", ""),
        ("GET", "/ws", ""),
        ("POST", "/api/rooms", room.as_str()),
        ("POST", "/api/rooms", "{"),
    ];
    for (method, path, body) in asked {
        let answer = request(server.addr, method, path, &[], body).await;
        assert_security_headers_but_the_policy(&answer, method, path);
        let csp = answer.header("content-security-policy");
        assert_eq!(
            csp,
            Some(
                "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; \
                 img-src 'self' data:; connect-src 'self'; worker-src 'self'; \
                 manifest-src 'self'; frame-ancestors 'none'; base-uri 'none'; \
                 form-action 'self'; object-src 'none'"
            ),
            "{method} {path} ({})",
            answer.status
        );
    }
    // The upgrade itself too.
    let (_, response) = tokio_tungstenite::connect_async(format!("ws://{}/ws", server.addr))
        .await
        .expect("the WebSocket opens");
    assert_eq!(
        response.headers()["x-content-type-options"],
        "nosniff",
        "{response:?}"
    );
}

/// `answer` says not to guess its content type and to send no `Referer` anywhere.
fn assert_security_headers_but_the_policy(answer: &Answer, method: &str, path: &str) {
    assert_eq!(
        answer.header("x-content-type-options"),
        Some("nosniff"),
        "{method} {path}"
    );
    assert_eq!(
        answer.header("referrer-policy"),
        Some("no-referrer"),
        "{method} {path}"
    );
}

#[tokio::test]
async fn the_page_s_modules_styles_and_engine_carry_no_policy_that_would_mean_nothing_to_them() {
    let server = spawn_server().await;
    for path in [
        "/app.js",
        "/game/table.js",
        "/app.css",
        "/engine.wasm",
        "/engine/engine.js",
    ] {
        let answer = request(server.addr, "GET", path, &[], "").await;
        assert_eq!(answer.status, 200, "{path}");
        assert_security_headers_but_the_policy(&answer, "GET", path);
        assert_eq!(answer.header("content-security-policy"), None, "{path}");
    }
}

#[tokio::test]
async fn the_page_asks_for_exactly_the_experts_networks_learned_against_medium_and_each_is_served()
{
    use ludo_bots::expert::{BYTES, Model, TRAINED};
    let listed = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/static/engine/engine.js"
    ))
    .unwrap();
    let set = listed.split("new Set([").nth(1).unwrap();
    let names: Vec<&str> = set[..set.find("])").unwrap()]
        .split(',')
        .map(|name| name.trim().trim_matches('\''))
        .collect();
    let medium: Vec<String> = TRAINED
        .iter()
        .filter(|k| k.model == Model::Medium)
        .map(|k| k.to_string())
        .collect();
    assert_eq!(names, medium, "engine.js lists the networks there are");
    let server = spawn_server().await;
    for (key, bytes) in TRAINED.iter().zip(BYTES) {
        let path = format!("/expert/{key}.bin");
        let answer = request(server.addr, "GET", &path, &[], "").await;
        if key.model == Model::Medium {
            assert_eq!(answer.status, 200, "{path}");
            assert_eq!(answer.body, bytes, "{path}");
        } else {
            assert_eq!(answer.status, 404, "{path}: the page never needs it");
        }
    }
}

#[tokio::test]
async fn the_page_has_no_inline_script_or_style_for_the_policy_to_block() {
    let server = spawn_server().await;
    let page = request(server.addr, "GET", "/", &[], "").await;
    let html = String::from_utf8(page.body).unwrap();
    assert!(!html.contains("<style"), "no <style> element");
    assert!(!html.contains("style="), "no style attribute");
    for script in html.split("<script").skip(1) {
        let tag = &script[..script.find('>').unwrap()];
        assert!(
            tag.contains("src=") && tag.contains(r#"type="module""#),
            "{tag}"
        );
    }
    // No attribute `on…=` (an inline event handler); words such as "one" or "on" in the page's
    // comments are not handlers.
    let handler = html.match_indices(" on").any(|(at, _)| {
        let rest = &html[at + 3..];
        let name = rest.bytes().take_while(u8::is_ascii_lowercase).count();
        name > 0 && rest[name..].trim_start().starts_with('=')
    });
    assert!(!handler, "no inline event handler");
}

/// Opens a WebSocket sending `origin` (if any); the status refusing the upgrade, or `None` when
/// it opened.
async fn upgrade_status(addr: SocketAddr, origin: Option<&str>) -> Option<u16> {
    let mut ask = format!("ws://{addr}/ws").into_client_request().unwrap();
    if let Some(origin) = origin {
        ask.headers_mut()
            .insert("origin", origin.parse().expect("a header value"));
    }
    match tokio_tungstenite::connect_async(ask).await {
        Ok((mut socket, _)) => {
            let _ = socket.close(None).await;
            None
        }
        Err(tungstenite::Error::Http(response)) => Some(response.status().as_u16()),
        Err(e) => panic!("{e}"),
    }
}

#[tokio::test]
async fn a_websocket_from_a_foreign_origin_is_refused_and_the_own_and_listed_ones_accepted() {
    let server = spawn_server_with(|c| {
        c.allowed_origins = vec!["https://ludo.example".to_owned()];
    })
    .await;
    let addr = server.addr;
    // tungstenite names the address as `Host`: the page's own origin is that, over http or https.
    assert_eq!(
        upgrade_status(addr, Some(&format!("http://{addr}"))).await,
        None
    );
    assert_eq!(
        upgrade_status(addr, Some(&format!("https://{addr}"))).await,
        None
    );
    assert_eq!(
        upgrade_status(addr, Some("https://ludo.example")).await,
        None
    );
    assert_eq!(
        upgrade_status(addr, Some("HTTPS://LUDO.EXAMPLE")).await,
        None
    );
    // Clients that are not browsers send no Origin.
    assert_eq!(upgrade_status(addr, None).await, None);
    for foreign in [
        "https://evil.example",
        "http://ludo.example",
        "null",
        "http://127.0.0.1:1",
    ] {
        assert_eq!(
            upgrade_status(addr, Some(foreign)).await,
            Some(403),
            "{foreign}"
        );
    }
    // Without the list, only the own origin.
    let plain = spawn_server().await;
    assert_eq!(
        upgrade_status(plain.addr, Some("https://ludo.example")).await,
        Some(403)
    );
}

#[tokio::test]
async fn files_carry_an_etag_and_a_current_copy_costs_a_304() {
    let server = spawn_server().await;
    for (path, coding) in [
        ("/app.js", "br"),
        ("/app.js", "gzip"),
        ("/app.js", "identity"),
        ("/", "br"),
        ("/engine.wasm", "br"),
    ] {
        let asking = [("Accept-Encoding", coding)];
        let first = request(server.addr, "GET", path, &asking, "").await;
        assert_eq!(first.status, 200);
        let etag = first.header("etag").expect("an ETag").to_owned();
        assert!(etag.starts_with('"') && etag.ends_with('"'), "{etag}");
        let again = request(
            server.addr,
            "GET",
            path,
            &[("Accept-Encoding", coding), ("If-None-Match", &etag)],
            "",
        )
        .await;
        assert_eq!(again.status, 304, "{path} {coding}");
        assert!(again.body.is_empty());
        assert_eq!(again.header("etag"), Some(etag.as_str()));
        assert_eq!(again.header("x-content-type-options"), Some("nosniff"));
        let listed = format!(r#""other", W/{etag}"#);
        let weak = request(
            server.addr,
            "GET",
            path,
            &[("Accept-Encoding", coding), ("If-None-Match", &listed)],
            "",
        )
        .await;
        assert_eq!(weak.status, 304, "a list, and the weak form, match too");
        let stale = request(
            server.addr,
            "GET",
            path,
            &[("Accept-Encoding", coding), ("If-None-Match", "\"old\"")],
            "",
        )
        .await;
        assert_eq!(stale.status, 200);
        assert!(!stale.body.is_empty());
    }
    // Each compression is its own representation, with its own tag.
    let br = request(
        server.addr,
        "GET",
        "/app.js",
        &[("Accept-Encoding", "br")],
        "",
    )
    .await;
    let gz = request(
        server.addr,
        "GET",
        "/app.js",
        &[("Accept-Encoding", "gzip")],
        "",
    )
    .await;
    assert_ne!(br.header("etag"), gz.header("etag"));
    let other = request(server.addr, "GET", "/app.css", &[], "").await;
    assert_ne!(
        other.header("etag"),
        request(server.addr, "GET", "/app.js", &[], "")
            .await
            .header("etag")
    );
}

#[tokio::test]
async fn files_read_from_disk_carry_an_etag_that_follows_their_bytes() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("app.css"), "body { margin: 0 }").unwrap();
    let static_dir = dir.path().to_path_buf();
    let server = spawn_server_with(|c| c.static_dir = Some(static_dir)).await;
    let first = request(server.addr, "GET", "/app.css", &[], "").await;
    assert_eq!(first.body, b"body { margin: 0 }");
    assert_eq!(first.header("x-content-type-options"), Some("nosniff"));
    let etag = first.header("etag").expect("an ETag").to_owned();
    let again = request(
        server.addr,
        "GET",
        "/app.css",
        &[("If-None-Match", &etag)],
        "",
    )
    .await;
    assert_eq!(again.status, 304);
    std::fs::write(dir.path().join("app.css"), "body { margin: 1px }").unwrap();
    let changed = request(
        server.addr,
        "GET",
        "/app.css",
        &[("If-None-Match", &etag)],
        "",
    )
    .await;
    assert_eq!(changed.status, 200);
    assert_eq!(changed.body, b"body { margin: 1px }");
    assert_ne!(changed.header("etag"), Some(etag.as_str()));
}

#[tokio::test]
async fn names_that_hide_reorder_or_pass_for_a_cpu_are_refused() {
    let server = spawn_server().await;
    let code = create_room(server.addr, HOST, json!({})).await;
    let mut client = Client::connect(server.addr).await;
    for name in [
        "\u{200B}\u{200D}",
        "\u{3164}",
        "\u{2800}",
        "\u{301}",
        "Ana\u{202E}oB",
        "\u{2067}Ana",
        "CPU · Hard",
        "cpu",
        "(CPU) Bo",
        "\u{FF23}\u{FF30}\u{FF35}",
        "Máy · Khó",
        // Hangul fillers before a CPU's label, look-alike letters of other scripts, a blank
        // glyph, private use and line breaks.
        "\u{3164}CPU · Medium",
        "\u{115F}\u{1160}CPU",
        "\u{FFA0}CPU",
        "\u{A4DA}\u{A4D1}\u{A4F4}",
        "\u{1455}\u{146D}\u{144C}",
        "\u{13DF}\u{13E2}U",
        "\u{2CA5}\u{2CA3}u",
        "Bo\u{1D159}",
        "\u{E000}Ana",
        "Ana\u{2028}Bo",
        "Ana\u{2029}Bo",
    ] {
        client
            .send(json!({"t": "hello", "room": code, "device": HOST, "name": name}))
            .await;
        assert_eq!(client.error_code().await, "bad_name", "{name:?}");
        let body = json!({"device": HOST, "name": name}).to_string();
        let (status, text) = http(server.addr, "POST", "/api/rooms", Some(&body)).await;
        assert_eq!(status, 400, "{name:?}");
        assert!(text.contains("bad_name"), "{text}");
    }
    // A name is kept composed: the decomposed "é" comes back as one character.
    let body = json!({"device": HOST, "name": "Ame\u{301}lie"}).to_string();
    let (status, text) = http(server.addr, "POST", "/api/rooms", Some(&body)).await;
    assert_eq!(status, 201, "{text}");
    let created: serde_json::Value = serde_json::from_str(&text).unwrap();
    let path = format!("/api/players/{}", created["you"].as_str().unwrap());
    let (_, player) = http(server.addr, "GET", &path, None).await;
    assert!(player.contains("Am\u{e9}lie"), "{player}");
    assert!(!player.contains("e\u{301}"), "{player}");
}

/// The server as its own process, logging at the most verbose level to a buffer.
struct Logged {
    child: std::process::Child,
    addr: SocketAddr,
    log: Arc<Mutex<String>>,
    reader: std::thread::JoinHandle<()>,
    _dir: tempfile::TempDir,
}

fn start_logged(filter: &str) -> Logged {
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_ludo-server"))
        .args(["--addr", "127.0.0.1:0", "--db"])
        .arg(dir.path().join("ludo.db"))
        .env("LUDO_LOG", filter)
        .env("LUDO_CPU_DELAY_MS", "0")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server starts");
    let log = Arc::new(Mutex::new(String::new()));
    let (tx, rx) = std::sync::mpsc::channel();
    let stderr = child.stderr.take().unwrap();
    let kept = log.clone();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            if let Some(at) = line.find("serving http://") {
                let addr = line[at + "serving http://".len()..]
                    .split_whitespace()
                    .next()
                    .unwrap_or_default()
                    .to_owned();
                let _ = tx.send(addr);
            }
            let mut log = kept.lock().unwrap();
            log.push_str(&line);
            log.push('\n');
        }
    });
    let addr = rx
        .recv_timeout(Duration::from_secs(20))
        .expect("the server says where it listens")
        .parse()
        .expect("an address");
    Logged {
        child,
        addr,
        log,
        reader,
        _dir: dir,
    }
}

#[tokio::test]
async fn no_log_filter_shows_a_device_secret() {
    for filter in [
        "trace",
        "trace,tungstenite::protocol=trace,tokio_tungstenite=trace,axum::rejection=trace",
    ] {
        let mut server = start_logged(filter);
        let addr = server.addr;
        let secrets = [
            "Logged0Secret0Room0Host0aaaa",
            "Logged0Secret0Room0Bad00bbbb",
            "Logged0Secret0Hello00000cccc",
            "Logged0Secret0Seek000000dddd",
            "Logged0Secret0BadHello00eeee",
        ];
        let code = create_room(addr, secrets[0], json!({})).await;
        let bad = json!({"device": secrets[1], "name": "Ana", "colour": "red"}).to_string();
        let (status, _) = http(addr, "POST", "/api/rooms", Some(&bad)).await;
        assert_eq!(status, 400);
        let player = Client::join(addr, &code, secrets[2], "Bo").await;
        let mut seeker = Client::connect(addr).await;
        seeker
            .send(json!({"t": "seek", "device": secrets[3], "name": "Cy", "rules": "qdan", "size": 4}))
            .await;
        let mut wrong = Client::connect(addr).await;
        wrong
            .send(json!({"t": "hello", "room": code, "device": secrets[4], "name": "Di", "x": 1}))
            .await;
        assert_eq!(wrong.error_code().await, "bad_message");
        player.close().await;
        seeker.close().await;
        wrong.close().await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        server.child.kill().expect("the server stops");
        let _ = server.child.wait();
        server.reader.join().unwrap();
        let log = server.log.lock().unwrap().clone();
        assert!(log.contains("serving http://"), "{log}");
        for secret in secrets {
            let hex: String = secret.bytes().map(|b| format!("{b:02x}")).collect();
            assert!(
                !log.contains(secret),
                "{filter}: the log shows {secret}:\n{log}"
            );
            assert!(
                !log.to_ascii_lowercase().contains(&hex),
                "{filter}: the log shows {secret} in hexadecimal:\n{log}"
            );
        }
        eprintln!("{filter}: {} lines of log, no secret", log.lines().count());
    }
}

#[tokio::test]
async fn a_coding_refused_with_a_capital_q_is_not_sent() {
    let server = spawn_server().await;
    for (asked, sent) in [
        ("gzip;Q=0", None),
        ("br;Q=0, gzip", Some("gzip")),
        ("br ; q = 0 , gzip ; q=0.5", Some("gzip")),
        ("br;q=0.5", Some("br")),
    ] {
        let answer = request(
            server.addr,
            "GET",
            "/app.js",
            &[("Accept-Encoding", asked)],
            "",
        )
        .await;
        assert_eq!(answer.status, 200);
        assert_eq!(answer.header("content-encoding"), sent, "{asked}");
    }
}

/// The status line and head of the answer to `GET path` naming `host`, with `extra` headers.
async fn head_for_host(addr: SocketAddr, host: &str, path: &str, extra: &str) -> String {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let ask = format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n{extra}\r\n");
    stream.write_all(ask.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await.unwrap();
    let raw = String::from_utf8_lossy(&raw).into_owned();
    raw.split("\r\n\r\n").next().unwrap_or_default().to_owned()
}

#[tokio::test]
async fn a_page_of_a_rebound_host_name_gets_nothing_from_a_loopback_server() {
    let server = spawn_server().await;
    let port = server.addr.port();
    let rebound = format!("evil.example:{port}");
    let upgrade = format!(
        "Origin: http://{rebound}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
    );
    for (path, extra) in [("/", ""), ("/api/rules", ""), ("/ws", upgrade.as_str())] {
        let head = head_for_host(server.addr, &rebound, path, extra).await;
        assert!(head.starts_with("HTTP/1.1 421"), "{path}: {head}");
        assert!(
            head.to_ascii_lowercase()
                .contains("x-content-type-options: nosniff")
        );
    }
    for host in [format!("localhost:{port}"), format!("127.0.0.1:{port}")] {
        let head = head_for_host(server.addr, &host, "/api/rules", "").await;
        assert!(head.starts_with("HTTP/1.1 200"), "{host}: {head}");
    }
}

// The documents: a clone on its own is complete, so no Markdown file names a path outside the
// repository (a folder beside it, or one machine's folders), and every link leads somewhere.

/// The repository's root, two levels up from this crate.
fn repository() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the repository's root")
}

/// Every Markdown file the repository tracks, as paths from its root: `git ls-files`, or without
/// git (a copy of the sources) every `.md` file outside `target/`, `node_modules/` and dot-folders.
fn markdown_files(root: &std::path::Path) -> Vec<String> {
    let listed = Command::new("git")
        .args(["ls-files", "-z", "--", "*.md"])
        .current_dir(root)
        .output()
        .ok()
        .filter(|out| out.status.success());
    if let Some(out) = listed {
        return String::from_utf8(out.stdout)
            .expect("paths in UTF-8")
            .split('\0')
            .filter(|p| !p.is_empty())
            .map(str::to_owned)
            .collect();
    }
    fn walk(root: &std::path::Path, dir: &std::path::Path, found: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).expect("a readable folder") {
            let path = entry.expect("a folder entry").path();
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            if path.is_dir() {
                if !name.starts_with('.') && name != "target" && name != "node_modules" {
                    walk(root, &path, found);
                }
            } else if name.ends_with(".md") {
                let relative = path.strip_prefix(root).expect("under the root");
                found.push(relative.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    let mut found = Vec::new();
    walk(root, root, &mut found);
    found
}

/// A Markdown text taken apart: its code (fenced blocks and inline spans), its prose with the
/// code taken out, and its headings.
struct Markdown {
    code: Vec<String>,
    prose: String,
    headings: Vec<String>,
}

fn parse_markdown(text: &str) -> Markdown {
    let mut code = Vec::new();
    let mut headings = Vec::new();
    // Fenced blocks are code; the rest is read on.
    let mut rest_of_text = String::new();
    let mut fence: Option<(String, String)> = None;
    for line in text.lines() {
        let trimmed = line.trim_start();
        if let Some((marker, block)) = &mut fence {
            if trimmed.starts_with(marker.as_str()) {
                code.push(std::mem::take(block));
                fence = None;
            } else {
                block.push_str(line);
                block.push('\n');
            }
            continue;
        }
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            let first = trimmed.chars().next().unwrap_or('`');
            let marker: String = trimmed.chars().take_while(|&c| c == first).collect();
            fence = Some((marker, String::new()));
            // A fenced block stands between paragraphs.
            rest_of_text.push('\n');
            continue;
        }
        let level = trimmed.chars().take_while(|&c| c == '#').count();
        if (1..=6).contains(&level) && trimmed[level..].starts_with(' ') {
            // The heading's words, its code spans' words included, as an anchor is made of them.
            let words = trimmed.trim_start_matches('#').trim().trim_end_matches('#');
            headings.push(words.trim().to_owned());
        }
        rest_of_text.push_str(line);
        rest_of_text.push('\n');
    }
    // Code spans: a run of backticks up to the same run, within one paragraph (a span may go on
    // to the next line); a run left open is plain text.
    let mut prose = String::new();
    let mut rest = rest_of_text.as_str();
    while let Some(start) = rest.find('`') {
        prose.push_str(&rest[..start]);
        let ticks = rest[start..].chars().take_while(|&c| c == '`').count();
        let after = &rest[start + ticks..];
        let paragraph = &after[..after.find("\n\n").unwrap_or(after.len())];
        match paragraph.find(&"`".repeat(ticks)) {
            Some(end) => {
                code.push(after[..end].to_owned());
                rest = &after[end + ticks..];
            }
            None => {
                prose.push_str(&rest[start..start + ticks]);
                rest = after;
            }
        }
    }
    prose.push_str(rest);
    Markdown {
        code,
        prose,
        headings,
    }
}

/// The targets of the links in prose: `[text](target)`, `[name]: target`, and HTML's `src` and
/// `href`.
fn link_targets(prose: &str) -> Vec<String> {
    let mut targets = Vec::new();
    let mut rest = prose;
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let mut depth = 0;
        let end = after
            .char_indices()
            .find(|&(_, c)| match c {
                '(' => {
                    depth += 1;
                    false
                }
                ')' if depth == 0 => true,
                ')' => {
                    depth -= 1;
                    false
                }
                _ => false,
            })
            .map_or(after.len(), |(i, _)| i);
        let target = after[..end].split_whitespace().next().unwrap_or_default();
        targets.push(target.trim_matches(['<', '>']).to_owned());
        rest = &after[end..];
    }
    for line in prose.lines() {
        let line = line.trim_start();
        if let Some((label, target)) = line.split_once("]:")
            && label.starts_with('[')
            && !label.contains(']')
        {
            targets.push(
                target
                    .split_whitespace()
                    .next()
                    .unwrap_or_default()
                    .to_owned(),
            );
        }
    }
    for attribute in ["src=\"", "href=\""] {
        let mut rest = prose;
        while let Some(at) = rest.find(attribute) {
            let after = &rest[at + attribute.len()..];
            let end = after.find('"').unwrap_or(after.len());
            targets.push(after[..end].to_owned());
            rest = &after[end..];
        }
    }
    targets
}

/// The anchors of a document's headings, as GitHub makes them: lower case, letters, digits,
/// spaces, `-` and `_` kept, spaces turned to `-`, and `-1`, `-2`… after a repeated one.
fn anchors(headings: &[String]) -> Vec<String> {
    let mut made: Vec<String> = Vec::new();
    for heading in headings {
        let slug: String = heading
            .to_lowercase()
            .chars()
            .filter(|&c| c.is_alphanumeric() || c == ' ' || c == '-' || c == '_')
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let mut anchor = slug.clone();
        let mut n = 0;
        while made.contains(&anchor) {
            n += 1;
            anchor = format!("{slug}-{n}");
        }
        made.push(anchor);
    }
    made
}

/// What in `text` names a path outside the repository, if anything.
fn outside_path(text: &str) -> Option<&'static str> {
    ["../", "/work/", "/home/", "/root/"]
        .into_iter()
        .find(|marker| text.contains(marker))
}

#[test]
fn no_document_names_a_path_outside_the_repository() {
    let root = repository();
    let files = markdown_files(&root);
    assert!(
        files.iter().any(|f| f == "README.md"),
        "the README is among the documents: {files:?}"
    );
    let mut found = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(root.join(file)).expect("a readable document");
        let markdown = parse_markdown(&text);
        for code in &markdown.code {
            if let Some(marker) = outside_path(code) {
                let first = code.lines().find(|l| l.contains(marker)).unwrap_or(code);
                found.push(format!("{file}: code names `{marker}`: {}", first.trim()));
            }
        }
        for target in link_targets(&markdown.prose) {
            if let Some(marker) = outside_path(&target) {
                found.push(format!("{file}: a link names `{marker}`: {target}"));
            }
        }
    }
    assert!(
        found.is_empty(),
        "paths outside the repository:\n{}",
        found.join("\n")
    );
}

#[test]
fn every_link_in_the_documents_leads_to_a_file_and_a_heading_that_exist() {
    let root = repository();
    let mut found = Vec::new();
    let mut links = 0;
    for file in markdown_files(&root) {
        let text = std::fs::read_to_string(root.join(&file)).expect("a readable document");
        let markdown = parse_markdown(&text);
        let folder = std::path::Path::new(&file)
            .parent()
            .unwrap_or(std::path::Path::new(""))
            .to_path_buf();
        for target in link_targets(&markdown.prose) {
            if target.is_empty()
                || target.contains("://")
                || target.starts_with("mailto:")
                || outside_path(&target).is_some()
            {
                continue;
            }
            links += 1;
            let (path, anchor) = match target.split_once('#') {
                Some((path, anchor)) => (path, Some(anchor)),
                None => (target.as_str(), None),
            };
            let linked = if path.is_empty() {
                root.join(&file)
            } else if let Some(from_root) = path.strip_prefix('/') {
                root.join(from_root)
            } else {
                root.join(&folder).join(path)
            };
            if !linked.exists() {
                found.push(format!("{file}: {target}: no such file"));
                continue;
            }
            let Some(anchor) = anchor else { continue };
            if linked.extension().is_some_and(|e| e == "md") {
                let linked_text = std::fs::read_to_string(&linked).expect("a readable document");
                if !anchors(&parse_markdown(&linked_text).headings)
                    .iter()
                    .any(|a| a == anchor)
                {
                    found.push(format!("{file}: {target}: no such heading"));
                }
            }
        }
    }
    assert!(
        links > 20,
        "only {links} links to files of the repository were read"
    );
    assert!(found.is_empty(), "links to nothing:\n{}", found.join("\n"));
}

#[test]
fn the_document_checks_see_paths_links_and_headings_as_github_shows_them() {
    let text = "# Ludo: `ludo` & co\n\nSee [rules](docs/rules.md#3-options-and-presets) and \
                `../shared/spec/rules.md`.\n\n```sh\ncd /work/x\n```\n\n## Client → server\n\
                ## Client → server\n<img src=\"docs/images/phone.png\">\n[ref]: ../x.md\n\
                Code `[not](a-link.md)` is not a link, nor `this\n[one](b.md)`.\n";
    let markdown = parse_markdown(text);
    assert_eq!(
        link_targets(&markdown.prose),
        vec![
            "docs/rules.md#3-options-and-presets",
            "../x.md",
            "docs/images/phone.png"
        ]
    );
    assert_eq!(
        markdown
            .code
            .iter()
            .map(String::as_str)
            .filter_map(outside_path)
            .collect::<Vec<_>>(),
        vec!["/work/", "../"]
    );
    assert_eq!(
        anchors(&markdown.headings),
        vec!["ludo-ludo--co", "client--server", "client--server-1"]
    );
}
