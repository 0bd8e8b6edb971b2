//! What the server's integration tests share: a real server on port 0 with a fresh SQLite file,
//! real HTTP requests and real WebSocket clients.
//!
//! A test client fails the test on any refusal (`error` message) the test did not say it
//! expects. A test expects a refusal by reading it with [`Client::error_code`] or
//! [`Client::refusal`], by waiting for it with [`Client::recv_until`] (a refusal the predicate
//! accepts is expected), by reading a message that may be one with [`Client::recv_or_refusal`],
//! or, for refusals it provokes in numbers, by [`Client::tolerate`]-ing their code.

#![allow(dead_code)]

use std::collections::HashSet;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use ludo_server::{Application, Config};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

/// A server running in this test with a configuration of the test's, until told to stop.
pub struct Running {
    pub addr: SocketAddr,
    stop: tokio::sync::oneshot::Sender<()>,
    done: tokio::task::JoinHandle<std::io::Result<()>>,
}

/// Starts a server with `config`.
pub async fn run(config: &Config) -> Running {
    let app = Application::build(config).await.expect("the server starts");
    let addr = app.local_addr();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let done = tokio::spawn(app.run_until_stopped(async {
        let _ = stopped.await;
    }));
    Running { addr, stop, done }
}

impl Running {
    /// Stops the server as SIGTERM would, and waits until it has.
    pub async fn stop(self) {
        let _ = self.stop.send(());
        self.done.await.unwrap().expect("the server stops cleanly");
    }

    /// Stops the server as SIGTERM would, with `client` connected until the server closes it,
    /// and waits until it has.
    pub async fn stop_with(self, mut client: Client) {
        let _ = self.stop.send(());
        let (_, stopped) = tokio::join!(client.closed(|_| ()), self.done);
        stopped.unwrap().expect("the server stops cleanly");
    }
}

/// A server running in this test, with its own database file.
pub struct Server {
    pub addr: SocketAddr,
    pub db: PathBuf,
    _dir: tempfile::TempDir,
}

/// Starts a server on a free port with a fresh database.
pub async fn spawn_server() -> Server {
    spawn_server_with(|_| {}).await
}

/// Starts a server on a free port with a fresh database and the test configuration as `adjust`
/// changes it.
pub async fn spawn_server_with(adjust: impl FnOnce(&mut Config)) -> Server {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let db = dir.path().join("ludo.db");
    let mut config = Config::for_tests(db.clone());
    adjust(&mut config);
    let app = Application::build(&config)
        .await
        .expect("the server starts");
    let addr = app.local_addr();
    tokio::spawn(app.run_until_stopped(std::future::pending()));
    Server {
        addr,
        db,
        _dir: dir,
    }
}

/// One HTTP/1.1 request; the status code and the body.
pub async fn http(addr: SocketAddr, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).await.expect("the server accepts");
    let body = body.unwrap_or("");
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).await.unwrap();
    let status = response
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status line");
    let (head, body) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
    // Chunked bodies: keep only the chunks' data.
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(body)
    } else {
        body.to_owned()
    };
    (status, body)
}

fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let size = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if size == 0 {
            break;
        }
        out.push_str(&rest[..size]);
        body = &rest[size + 2..];
    }
    out
}

/// Creates a room hosted by `device`; its code.
pub async fn create_room(addr: SocketAddr, device: &str, settings: Value) -> String {
    let mut body = json!({ "device": device, "name": "Host" });
    if let (Some(b), Some(s)) = (body.as_object_mut(), settings.as_object()) {
        b.extend(s.clone());
    }
    let (status, text) = http(addr, "POST", "/api/rooms", Some(&body.to_string())).await;
    assert_eq!(status, 201, "{text}");
    let room: Value = serde_json::from_str(&text).unwrap();
    room["code"].as_str().unwrap().to_owned()
}

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

/// A WebSocket client, as a browser would be.
pub struct Client {
    socket: Socket,
    /// The latest game state seen.
    pub game: Option<Value>,
    /// The identity id the server gave.
    pub you: String,
    /// Refusal codes read like any other message (see [`Client::tolerate`]).
    tolerated: HashSet<String>,
}

impl Client {
    /// Connects, says hello, and waits for the welcome.
    pub async fn join(addr: SocketAddr, room: &str, device: &str, name: &str) -> Client {
        let mut client = Client::connect(addr).await;
        client
            .send(json!({"t": "hello", "room": room, "device": device, "name": name}))
            .await;
        let welcome = client.recv_until(|m| m["t"] == "welcome").await;
        client.you = welcome["you"].as_str().unwrap().to_owned();
        client
    }

    /// Connects without saying anything.
    pub async fn connect(addr: SocketAddr) -> Client {
        let (socket, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws"))
            .await
            .expect("the WebSocket opens");
        Client {
            socket,
            game: None,
            you: String::new(),
            tolerated: HashSet::new(),
        }
    }

    /// Sends a JSON message.
    pub async fn send(&mut self, message: Value) {
        self.send_text(message.to_string()).await;
    }

    /// Sends raw text.
    pub async fn send_text(&mut self, text: String) {
        self.socket
            .send(Message::Text(text.into()))
            .await
            .expect("the message is sent");
    }

    /// From now on, refusals with this code are read like any other message instead of failing
    /// the test: for tests that provoke them in numbers (a flood of requests, say).
    pub fn tolerate(&mut self, code: &str) {
        self.tolerated.insert(code.to_owned());
    }

    /// The next message (within 10 s), remembering the latest game state. A refusal fails the
    /// test unless its code is tolerated.
    pub async fn recv(&mut self) -> Value {
        let message = self.recv_or_refusal().await;
        self.unless_unexpected(&message);
        message
    }

    /// The next message (within 10 s), a refusal included: for a test that reads what it is.
    pub async fn recv_or_refusal(&mut self) -> Value {
        loop {
            let frame = tokio::time::timeout(Duration::from_secs(10), self.socket.next())
                .await
                .expect("a message within 10 s")
                .expect("the socket is open")
                .expect("a frame");
            match frame {
                Message::Text(text) => {
                    let message: Value = serde_json::from_str(text.as_str()).unwrap();
                    if !message["game"].is_null() {
                        self.game = Some(message["game"].clone());
                    }
                    return message;
                }
                Message::Close(frame) => {
                    panic!("the server closed the connection ({frame:?}) instead of answering")
                }
                _ => {}
            }
        }
    }

    /// Fails the test if `message` is a refusal it did not expect.
    fn unless_unexpected(&self, message: &Value) {
        if message["t"] == "error" {
            let code = message["code"].as_str().unwrap_or_default();
            assert!(
                self.tolerated.contains(code),
                "a refusal the test did not expect: {message}"
            );
        }
    }

    /// Messages until one satisfies `wanted`; that one. A refusal `wanted` accepts is expected;
    /// any other fails the test unless its code is tolerated.
    pub async fn recv_until(&mut self, wanted: impl Fn(&Value) -> bool) -> Value {
        loop {
            let message = self.recv_or_refusal().await;
            if wanted(&message) {
                return message;
            }
            self.unless_unexpected(&message);
        }
    }

    /// The next refusal, which the test expects (messages before it are read as by
    /// [`Client::recv`]).
    pub async fn refusal(&mut self) -> Value {
        self.recv_until(|m| m["t"] == "error").await
    }

    /// The code of the next refusal, which the test expects.
    pub async fn error_code(&mut self) -> String {
        let error = self.refusal().await;
        error["code"].as_str().unwrap().to_owned()
    }

    /// Reads until the server ends the connection (within 10 s): the close frame's code and
    /// reason, or `None` if it ended without one. Every message before it is handed to `seen`
    /// (and the latest game state remembered); a refusal fails the test unless its code is
    /// tolerated.
    pub async fn closed(&mut self, mut seen: impl FnMut(&Value)) -> Option<(u16, String)> {
        loop {
            let frame = tokio::time::timeout(Duration::from_secs(10), self.socket.next())
                .await
                .expect("the server ends the connection within 10 s");
            match frame {
                Some(Ok(Message::Text(text))) => {
                    let message: Value = serde_json::from_str(text.as_str()).unwrap();
                    if !message["game"].is_null() {
                        self.game = Some(message["game"].clone());
                    }
                    self.unless_unexpected(&message);
                    seen(&message);
                }
                Some(Ok(Message::Close(frame))) => {
                    return frame.map(|f| (u16::from(f.code), f.reason.to_string()));
                }
                Some(Ok(_)) => {}
                Some(Err(_)) | None => return None,
            }
        }
    }

    /// Closes the connection.
    pub async fn close(mut self) {
        let _ = self.socket.close(None).await;
    }
}

/// The `welcome` a connection from `device` (named "Probe") is given in the room `code` now: the
/// room and its game as the server has them. The connection is closed again.
pub async fn welcome(addr: SocketAddr, code: &str, device: &str) -> Value {
    let mut probe = Client::connect(addr).await;
    probe
        .send(json!({"t": "hello", "room": code, "device": device, "name": "Probe"}))
        .await;
    let welcome = probe.recv_until(|m| m["t"] == "welcome").await;
    probe.close().await;
    welcome
}

/// The game's phase, seat to act and version.
pub fn turn_of(game: &Value) -> (String, String, u64) {
    let turn = &game["position"]["turn"];
    (
        turn["phase"].as_str().unwrap().to_owned(),
        turn["seat"].as_str().unwrap().to_owned(),
        game["version"].as_u64().unwrap(),
    )
}

/// The request that plays `game`'s next action: a throw, or the first legal move.
pub fn next_request(game: &Value) -> Value {
    let (phase, _, version) = turn_of(game);
    if phase == "move" {
        json!({"t": "move", "piece": game["legal"][0]["piece"], "version": version})
    } else {
        json!({"t": "roll", "version": version})
    }
}

/// Plays `colour` for this client: throws and moves (the first legal move) whenever it is
/// its turn, until the game is over. Returns the final game state.
pub async fn play_until_over(client: &mut Client, colour: &str) -> Value {
    let mut acted_on = None;
    loop {
        if let Some(game) = client.game.clone() {
            let (phase, seat, version) = turn_of(&game);
            if phase == "over" {
                return game;
            }
            if seat == colour && acted_on != Some(version) {
                acted_on = Some(version);
                client.send(next_request(&game)).await;
            }
        }
        client.recv().await;
    }
}

/// The host's and a guest's device secrets.
pub const HOST: &str = "host-device-secret-0001";
pub const GUEST: &str = "guest-device-secret-0002";

/// A room with `settings`, the host seated in yellow and a guest in red, both joined.
pub async fn two_player_room(server: &Server, settings: Value) -> (String, Client, Client) {
    let code = create_room(server.addr, HOST, settings).await;
    let mut host = Client::join(server.addr, &code, HOST, "Host").await;
    host.send(json!({"t": "sit", "colour": "yellow"})).await;
    host.recv_until(|m| m["t"] == "room" && !m["room"]["seats"]["yellow"].is_null())
        .await;
    let mut guest = Client::join(server.addr, &code, GUEST, "Guest").await;
    guest.send(json!({"t": "sit", "colour": "red"})).await;
    guest
        .recv_until(|m| m["t"] == "room" && !m["room"]["seats"]["red"].is_null())
        .await;
    (code, host, guest)
}

/// At a table of two people whose game counts for ratings, the host starts it and the guest
/// accepts it (such a game starts only once everyone seated has); returns once both see it.
pub async fn start_rated(host: &mut Client, guest: &mut Client) {
    host.send(json!({"t": "start"})).await;
    guest
        .recv_until(|m| m["t"] == "room" && !m["room"]["rematch"].is_null())
        .await;
    guest.send(json!({"t": "play_again"})).await;
    host.recv_until(|m| m["t"] == "game").await;
    guest.recv_until(|m| m["t"] == "game").await;
}

/// A fresh server with a room: the host in yellow, a random CPU in red, the host joined.
pub async fn host_and_cpu() -> (Server, Client) {
    host_and_cpu_with(json!({})).await
}

/// [`host_and_cpu`] in a room created with these settings (`{"rotate": false}`, say).
pub async fn host_and_cpu_with(settings: Value) -> (Server, Client) {
    let server = spawn_server().await;
    let (_, host) = host_and_cpu_in(&server, settings, "Host", "random").await;
    (server, host)
}

/// A room on `server` with `settings`: the host, named `name`, seated in yellow and a CPU of
/// `level` in red, the host joined; the room's code and the host.
pub async fn host_and_cpu_in(
    server: &Server,
    settings: Value,
    name: &str,
    level: &str,
) -> (String, Client) {
    let code = create_room(server.addr, HOST, settings).await;
    let mut host = Client::join(server.addr, &code, HOST, name).await;
    host.send(json!({"t": "sit", "colour": "yellow"})).await;
    host.send(json!({"t": "add_cpu", "colour": "red", "level": level}))
        .await;
    host.recv_until(|m| m["t"] == "room" && !m["room"]["seats"]["red"].is_null())
        .await;
    (code, host)
}

/// A room on the server at `addr` with the host in yellow and a random CPU in red, its game
/// started and played until the host's turn at version `version` or later (nothing moves until
/// the host acts): the room's code and the host.
pub async fn game_part_played(addr: SocketAddr, version: u64) -> (String, Client) {
    let code = create_room(addr, HOST, json!({})).await;
    let mut host = Client::join(addr, &code, HOST, "Host").await;
    host.send(json!({"t": "add_cpu", "colour": "red", "level": "random"}))
        .await;
    host.recv_until(|m| m["t"] == "room" && !m["room"]["seats"]["red"].is_null())
        .await;
    host.send(json!({"t": "start"})).await;
    host.recv_until(|m| m["t"] == "game").await;
    let mut acted_on = None;
    loop {
        let game = host.game.clone().unwrap();
        let (_, seat, at) = turn_of(&game);
        if seat == "yellow" && acted_on != Some(at) {
            if at >= version {
                return (code, host);
            }
            acted_on = Some(at);
            host.send(next_request(&game)).await;
        }
        host.recv().await;
    }
}
