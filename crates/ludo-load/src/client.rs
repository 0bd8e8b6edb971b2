//! One bot client: a WebSocket to the server, playing its seat as fast as the server answers.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

/// What every client adds to.
#[derive(Default)]
pub struct Stats {
    /// Actions this tool's clients made and saw broadcast.
    pub actions: AtomicU64,
    /// Microseconds from sending an action to receiving its broadcast.
    pub latencies: Mutex<Vec<u32>>,
    /// Refusals received.
    pub refusals: AtomicU64,
}

/// A connected client.
pub struct Client {
    socket: Socket,
}

impl Client {
    /// Connects and says hello; waits for the welcome.
    pub async fn join(
        addr: SocketAddr,
        room: &str,
        device: &str,
        name: &str,
    ) -> Result<Client, String> {
        let (socket, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws"))
            .await
            .map_err(|e| format!("connecting: {e}"))?;
        let mut client = Client { socket };
        client
            .send(json!({"t": "hello", "room": room, "device": device, "name": name}))
            .await?;
        client.until(|m| m["t"] == "welcome").await?;
        Ok(client)
    }

    /// Sends one message.
    pub async fn send(&mut self, message: Value) -> Result<(), String> {
        self.socket
            .send(Message::Text(message.to_string().into()))
            .await
            .map_err(|e| format!("sending: {e}"))
    }

    /// The next message, or `None` after `wait` without one.
    pub async fn next(&mut self, wait: Duration) -> Result<Option<Value>, String> {
        loop {
            let frame = match tokio::time::timeout(wait, self.socket.next()).await {
                Err(_) => return Ok(None),
                Ok(None) => return Err("the server closed the connection".to_owned()),
                Ok(Some(frame)) => frame.map_err(|e| format!("receiving: {e}"))?,
            };
            if let Message::Text(text) = frame {
                return serde_json::from_str(text.as_str())
                    .map(Some)
                    .map_err(|e| format!("a message that is no JSON: {e}"));
            }
        }
    }

    /// Messages until one satisfies `wanted` (within 30 s).
    pub async fn until(&mut self, wanted: impl Fn(&Value) -> bool) -> Result<Value, String> {
        loop {
            match self.next(Duration::from_secs(30)).await? {
                Some(m) if wanted(&m) => return Ok(m),
                Some(_) => {}
                None => return Err("no answer within 30 s".to_owned()),
            }
        }
    }

    /// Closes the connection.
    pub async fn close(mut self) {
        let _ = self.socket.close(None).await;
    }
}

/// How a seat plays.
pub struct SeatPlan {
    /// Its colour.
    pub colour: &'static str,
    /// When to stop acting.
    pub until: Instant,
}

/// Plays a seat until `plan.until`, then drains what is still in flight. Returns the last
/// version and position seen of every game (by id).
pub async fn play_seat(
    mut client: Client,
    plan: SeatPlan,
    stats: Arc<Stats>,
) -> Result<HashMap<String, (u64, Value)>, String> {
    let mut last_seen: HashMap<String, (u64, Value)> = HashMap::new();
    let mut sent: Option<(u64, Instant)> = None;
    let mut acted_on: Option<(String, u64)> = None;
    let mut again_after: Option<String> = None;
    loop {
        let stopping = Instant::now() >= plan.until;
        let wait = if stopping {
            Duration::from_millis(500)
        } else {
            Duration::from_secs(30)
        };
        let Some(message) = client.next(wait).await? else {
            if stopping {
                break;
            }
            return Err(format!("{} heard nothing for 30 s", plan.colour));
        };
        if message["t"] == "error" {
            stats.refusals.fetch_add(1, Ordering::Relaxed);
            continue;
        }
        let game = &message["game"];
        if game.is_null() {
            continue;
        }
        let id = game["id"].as_str().unwrap_or_default().to_owned();
        let version = game["version"].as_u64().unwrap_or(0);
        last_seen.insert(id.clone(), (version, game["position"].clone()));
        if message["t"] == "action"
            && message["seat"] == plan.colour
            && let Some((at_version, at)) = sent
            && version == at_version + 1
        {
            let micros = at.elapsed().as_micros().min(u128::from(u32::MAX)) as u32;
            stats.latencies.lock().expect("not poisoned").push(micros);
            stats.actions.fetch_add(1, Ordering::Relaxed);
            sent = None;
        }
        // Time may have run out while this message was awaited: act on nothing after it.
        if Instant::now() >= plan.until {
            continue;
        }
        let turn = &game["position"]["turn"];
        let phase = turn["phase"].as_str().unwrap_or_default();
        if phase == "over" {
            // Every seat accepts a new game, once per game: it starts when all have.
            if again_after.as_ref() != Some(&id) {
                again_after = Some(id);
                client.send(json!({"t": "play_again"})).await?;
            }
            continue;
        }
        let mine = turn["seat"] == plan.colour;
        let fresh = acted_on.as_ref() != Some(&(id.clone(), version));
        if mine && fresh {
            acted_on = Some((id, version));
            let request = if phase == "move" {
                json!({"t": "move", "piece": game["legal"][0]["piece"], "version": version})
            } else {
                json!({"t": "roll", "version": version})
            };
            sent = Some((version, Instant::now()));
            client.send(request).await?;
        }
    }
    client.close().await;
    Ok(last_seen)
}
