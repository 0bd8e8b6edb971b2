//! One bot client: a WebSocket to the server, playing its seat as fast as the server answers,
//! and (with `--reconnect`) coming back whenever its connection is lost.

use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use ludo_rules::Colour;
use serde_json::Value;
use tokio::net::TcpStream;
use tokio::time::Sleep;
use tokio_tungstenite::tungstenite::{Message, Utf8Bytes};

use crate::message::{GameView, Incoming, Outgoing, Turn};
use crate::seen::Seen;

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

/// The first wait before reconnecting; it doubles after each failed attempt.
const FIRST_BACKOFF: Duration = Duration::from_millis(100);
/// The longest wait between two attempts to reconnect.
const LONGEST_BACKOFF: Duration = Duration::from_secs(1);
/// How long a seat keeps trying to reconnect before it gives up.
const RECONNECT_FOR: Duration = Duration::from_secs(60);
/// How long one attempt (connecting, saying hello, the welcome) may take: a node may hold a
/// `hello` while the lease of a room's dead node runs out.
const ATTEMPT_TIMEOUT: Duration = Duration::from_secs(20);
/// How long a seat waits for a message before it deems the server silent.
const SILENCE: Duration = Duration::from_secs(30);
/// How long a seat with nothing left to do listens for what is still in flight.
const DRAIN: Duration = Duration::from_millis(500);

/// What every client adds to.
pub struct Stats {
    /// When the run began.
    began: Instant,
    /// Actions this tool's clients made and saw broadcast.
    pub actions: AtomicU64,
    /// Milliseconds from `began` to the last action counted in `actions`.
    last_action_ms: AtomicU64,
    /// Microseconds from sending an action to receiving its broadcast.
    pub latencies: Mutex<Vec<u32>>,
    /// Refusals received.
    pub refusals: AtomicU64,
    /// Connections lost and made again.
    pub reconnections: AtomicU64,
    /// The longest time from a connection lost to the `welcome` after it, in milliseconds.
    pub longest_to_welcome_ms: AtomicU64,
    /// The longest time from a connection lost to the first `action` received after it, in
    /// milliseconds.
    pub longest_to_action_ms: AtomicU64,
    /// Every such time, one an outage a seat lived through, in milliseconds.
    pub outages_ms: Mutex<Vec<u64>>,
}

impl Stats {
    /// Empty figures for a run that begins now.
    pub fn new() -> Stats {
        Stats {
            began: Instant::now(),
            actions: AtomicU64::new(0),
            last_action_ms: AtomicU64::new(0),
            latencies: Mutex::new(Vec::new()),
            refusals: AtomicU64::new(0),
            reconnections: AtomicU64::new(0),
            longest_to_welcome_ms: AtomicU64::new(0),
            longest_to_action_ms: AtomicU64::new(0),
            outages_ms: Mutex::new(Vec::new()),
        }
    }

    /// The time from the start of the run to the last action counted.
    pub fn last_action(&self) -> Duration {
        Duration::from_millis(self.last_action_ms.load(Ordering::Relaxed))
    }

    /// Counts one of our actions seen broadcast `latency` after it was sent.
    fn count_action(&self, latency: Duration) {
        let micros = latency.as_micros().min(u128::from(u32::MAX)) as u32;
        self.latencies.lock().expect("not poisoned").push(micros);
        self.actions.fetch_add(1, Ordering::Relaxed);
        self.last_action_ms
            .fetch_max(millis(self.began.elapsed()), Ordering::Relaxed);
    }
}

fn millis(duration: Duration) -> u64 {
    duration.as_millis().try_into().unwrap_or(u64::MAX)
}

/// The WebSocket address for a room: `ws://{addr}/ws?room={code}`, so that a balancer can send
/// every connection of a room to the same node.
fn room_url(addr: SocketAddr, room: &str) -> String {
    let mut url = format!("ws://{addr}/ws?room=");
    for byte in room.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            url.push(char::from(byte));
        } else {
            url.push_str(&format!("%{byte:02X}"));
        }
    }
    url
}

/// The read buffer of each connection (see [`Client::join`]).
const READ_BUFFER_BYTES: usize = 4 * 1024;

/// A connected client.
pub struct Client {
    socket: Socket,
    /// Ends a wait for a message (see [`Client::next`]).
    alarm: Pin<Box<Sleep>>,
}

impl Client {
    /// Connects to the room's address and says hello; the client and the `welcome`'s text.
    pub async fn join(
        addr: SocketAddr,
        room: &str,
        device: &str,
        name: &str,
    ) -> Result<(Client, Utf8Bytes), String> {
        // tungstenite zero-fills its whole read buffer before every read: at its default
        // 128 KiB that costs more than anything else the client does, for messages of a few KiB.
        let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
            .read_buffer_size(READ_BUFFER_BYTES);
        let (socket, _) =
            tokio_tungstenite::connect_async_with_config(room_url(addr, room), Some(config), false)
                .await
                .map_err(|e| format!("connecting: {e}"))?;
        let mut client = Client {
            socket,
            alarm: Box::pin(tokio::time::sleep(SILENCE)),
        };
        client.send(&Outgoing::Hello { room, device, name }).await?;
        let answer = client
            .until_text(|text| {
                let message = Incoming::read(text).map_err(unreadable)?;
                match &*message.t {
                    "welcome" => Ok(true),
                    "error" => Err(format!("hello refused: {}", message.code())),
                    _ => Ok(false),
                }
            })
            .await?;
        Ok((client, answer))
    }

    /// Sends one message.
    pub async fn send(&mut self, message: &Outgoing<'_>) -> Result<(), String> {
        self.socket
            .send(Message::Text(message.text().into()))
            .await
            .map_err(|e| format!("sending: {e}"))
    }

    /// The next message's text, or `None` after `wait` without one.
    ///
    /// One alarm serves every wait: it is set earlier when a wait ends before it, and set
    /// again only when it rings before the wait's end, rather than a timer made and dropped
    /// for each message.
    pub async fn next(&mut self, wait: Duration) -> Result<Option<Utf8Bytes>, String> {
        let end = tokio::time::Instant::now() + wait;
        if self.alarm.deadline() > end {
            self.alarm.as_mut().reset(end);
        }
        loop {
            let frame = tokio::select! {
                biased;
                frame = self.socket.next() => frame,
                () = &mut self.alarm => {
                    if tokio::time::Instant::now() >= end {
                        return Ok(None);
                    }
                    self.alarm.as_mut().reset(end);
                    continue;
                }
            };
            match frame {
                None => return Err("the server closed the connection".to_owned()),
                Some(frame) => {
                    if let Message::Text(text) = frame.map_err(|e| format!("receiving: {e}"))? {
                        return Ok(Some(text));
                    }
                }
            }
        }
    }

    /// Messages until the text of one satisfies `wanted` (within 30 s): that one's text.
    async fn until_text(
        &mut self,
        wanted: impl Fn(&str) -> Result<bool, String>,
    ) -> Result<Utf8Bytes, String> {
        loop {
            match self.next(SILENCE).await? {
                Some(text) if wanted(text.as_str())? => return Ok(text),
                Some(_) => {}
                None => return Err("no answer within 30 s".to_owned()),
            }
        }
    }

    /// Messages until one satisfies `wanted` (within 30 s), each read whole: for the few
    /// messages before play.
    pub async fn until(&mut self, wanted: impl Fn(&Value) -> bool) -> Result<(), String> {
        self.until_text(|text| {
            serde_json::from_str(text)
                .map(|message| wanted(&message))
                .map_err(unreadable)
        })
        .await
        .map(drop)
    }

    /// Closes the connection.
    pub async fn close(mut self) {
        let _ = self.socket.close(None).await;
    }
}

/// How a seat plays.
pub struct SeatPlan {
    /// The server (or the balancer in front of it).
    pub addr: SocketAddr,
    /// The room's code.
    pub room: String,
    /// The seat's device secret, to say hello again after a reconnection.
    pub device: String,
    /// The seat's display name.
    pub name: String,
    /// Its colour.
    pub colour: &'static str,
    /// When to stop starting games (and, without `finish_games`, acting).
    pub until: Instant,
    /// Whether to reconnect when the connection is lost.
    pub reconnect: bool,
    /// Whether to play the game in progress to its end after `until`.
    pub finish_games: bool,
}

/// A seat's state of play.
struct Seat {
    plan: SeatPlan,
    stats: Arc<Stats>,
    /// Every game position and action this seat received.
    seen: Seen,
    /// The version our last action was sent at, and when, until its broadcast arrives.
    sent: Option<(u64, Instant)>,
    /// The game and version last acted on: never twice on the same state.
    acted_on: Option<(String, u64)>,
    /// The last game after which this seat accepted a new one.
    again_after: Option<String>,
    /// Whether the last game seen is still being played.
    in_game: bool,
    /// When the connection was lost, until an action arrives after reconnecting.
    outage: Option<Instant>,
}

/// Why a seat's step failed.
enum Failure {
    /// The connection was lost (or the server said `bye`): reconnecting mends it.
    Lost(String),
    /// Something reconnecting does not mend.
    Fatal(String),
}

/// Plays a seat until `plan.until` (and, with `plan.finish_games`, to the end of the game then
/// in progress), then drains what is still in flight. Returns every game position and action
/// the seat received.
pub async fn play_seat(client: Client, plan: SeatPlan, stats: Arc<Stats>) -> Result<Seen, String> {
    let mut seat = Seat {
        plan,
        stats,
        seen: Seen::default(),
        sent: None,
        acted_on: None,
        again_after: None,
        in_game: false,
        outage: None,
    };
    let mut client = client;
    // A welcome received on reconnecting, to act on before reading on.
    let mut welcome: Option<Utf8Bytes> = None;
    loop {
        let stopping = seat.stopping();
        let step = match welcome.take() {
            Some(text) => seat.answer(&mut client, &text).await.map(|()| true),
            None => seat.step(&mut client, stopping).await,
        };
        match step {
            Ok(true) => {}
            Ok(false) if stopping => break,
            Ok(false) => return Err(format!("{} heard nothing for 30 s", seat.plan.colour)),
            Err(Failure::Lost(lost)) if seat.plan.reconnect => {
                let (again, message) = seat.reconnect(&lost).await?;
                client = again;
                welcome = Some(message);
            }
            Err(Failure::Lost(e) | Failure::Fatal(e)) => {
                return Err(format!("{}: {e}", seat.plan.colour));
            }
        }
    }
    client.close().await;
    Ok(seat.seen)
}

impl Seat {
    /// Whether the seat has nothing left to do: time is up, and no game is to be finished.
    fn stopping(&self) -> bool {
        Instant::now() >= self.plan.until && !(self.plan.finish_games && self.in_game)
    }

    /// Reads and answers one message; `false` when none came in time. A lost connection (or,
    /// with `--reconnect`, the server's `bye`) is an error.
    async fn step(&mut self, client: &mut Client, stopping: bool) -> Result<bool, Failure> {
        let wait = if stopping { DRAIN } else { SILENCE };
        let Some(text) = client.next(wait).await.map_err(Failure::Lost)? else {
            return Ok(false);
        };
        self.answer(client, &text).await?;
        Ok(true)
    }

    /// Takes in one message (its text) and sends what it calls for, if anything. With
    /// `--reconnect`, the server's `bye` is a lost connection.
    async fn answer(&mut self, client: &mut Client, text: &str) -> Result<(), Failure> {
        let message = read(text)?;
        if self.plan.reconnect && message.t == "bye" {
            return Err(Failure::Lost("the server said bye".to_owned()));
        }
        match self.take_in(text, &message).map_err(Failure::Fatal)? {
            Some(request) => client.send(&request).await.map_err(Failure::Lost),
            None => Ok(()),
        }
    }

    /// Notes what one message (`text`, read as `message`) says; the request it calls for, if
    /// any.
    fn take_in(
        &mut self,
        text: &str,
        message: &Incoming,
    ) -> Result<Option<Outgoing<'static>>, String> {
        if message.t == "error" {
            self.stats.refusals.fetch_add(1, Ordering::Relaxed);
            return Ok(None);
        }
        let Some(game) = &message.game else {
            return Ok(None);
        };
        let turn = &game.position.turn;
        self.in_game = turn.phase != "over";
        let action = if message.t == "action" {
            let action = message.action()?;
            self.on_action(game.version, action.0);
            Some(action)
        } else {
            None
        };
        self.seen.observe(&game.id, game.version, text, action);
        Ok(self.request(game, turn))
    }

    /// An action by `seat` arrived: ends an outage, and times our own action's broadcast.
    fn on_action(&mut self, version: u64, seat: Colour) {
        if let Some(lost) = self.outage.take() {
            let outage = millis(lost.elapsed());
            self.stats
                .longest_to_action_ms
                .fetch_max(outage, Ordering::Relaxed);
            self.stats
                .outages_ms
                .lock()
                .expect("not poisoned")
                .push(outage);
        }
        if seat.name() == self.plan.colour
            && let Some((at_version, at)) = self.sent
            && version == at_version + 1
        {
            self.stats.count_action(at.elapsed());
            self.sent = None;
        }
    }

    /// What to send on seeing `game`, at `turn`, if anything.
    fn request(&mut self, game: &GameView, turn: &Turn) -> Option<Outgoing<'static>> {
        let time_up = Instant::now() >= self.plan.until;
        let (id, version) = (&*game.id, game.version);
        if turn.phase == "over" {
            // Every seat accepts a new game, once per game, while there is time: it starts
            // when all have.
            if time_up || self.again_after.as_deref() == Some(id) {
                return None;
            }
            self.again_after = Some(id.to_owned());
            return Some(Outgoing::PlayAgain);
        }
        if time_up && !self.plan.finish_games {
            return None;
        }
        let fresh = self
            .acted_on
            .as_ref()
            .is_none_or(|(on_id, on_version)| on_id != id || *on_version != version);
        if turn.seat != self.plan.colour || !fresh {
            return None;
        }
        self.acted_on = Some((id.to_owned(), version));
        self.sent = Some((version, Instant::now()));
        Some(if turn.phase == "move" {
            Outgoing::Move {
                piece: game.first_legal.0,
                version,
            }
        } else {
            Outgoing::Roll { version }
        })
    }

    /// Connects again and says hello, with a growing backoff, for up to a minute; the new
    /// client and its welcome (not yet taken in).
    async fn reconnect(&mut self, lost: &str) -> Result<(Client, Utf8Bytes), String> {
        // An outage lasts until play resumes: a loss before then belongs to the same one.
        let since = *self.outage.get_or_insert_with(Instant::now);
        let give_up = Instant::now() + RECONNECT_FOR;
        let mut backoff = FIRST_BACKOFF;
        loop {
            tokio::time::sleep(backoff).await;
            let plan = &self.plan;
            let attempt = tokio::time::timeout(
                ATTEMPT_TIMEOUT,
                Client::join(plan.addr, &plan.room, &plan.device, &plan.name),
            )
            .await
            .unwrap_or_else(|_| Err("no welcome in time".to_owned()));
            match attempt {
                Ok(joined) => {
                    self.stats.reconnections.fetch_add(1, Ordering::Relaxed);
                    self.stats
                        .longest_to_welcome_ms
                        .fetch_max(millis(since.elapsed()), Ordering::Relaxed);
                    self.forget_requests();
                    return Ok(joined);
                }
                Err(e) if Instant::now() + backoff >= give_up => {
                    return Err(format!(
                        "{} could not reconnect within {} s ({lost}; last: {e})",
                        plan.colour,
                        RECONNECT_FOR.as_secs()
                    ));
                }
                Err(_) => backoff = (backoff * 2).min(LONGEST_BACKOFF),
            }
        }
    }

    /// Forgets what was asked on a lost connection: the welcome says what the game still
    /// needs (an action at the same version, if it was never stored; the new-game offer, which
    /// may have been lost with the node that held it).
    fn forget_requests(&mut self) {
        self.sent = None;
        self.acted_on = None;
        self.again_after = None;
    }
}

/// What is wrong with a message that does not read.
fn unreadable(e: serde_json::Error) -> String {
    if e.is_data() {
        format!("a message that does not read: {e}")
    } else {
        format!("a message that is no JSON: {e}")
    }
}

/// Reads a message during play: text that is no JSON is a broken connection (reconnecting
/// mends it), JSON of the wrong shape is not.
fn read(text: &str) -> Result<Incoming<'_>, Failure> {
    Incoming::read(text).map_err(|e| {
        if e.is_data() {
            Failure::Fatal(unreadable(e))
        } else {
            Failure::Lost(unreadable(e))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_room_code_goes_into_the_url_escaped_where_it_must_be() {
        let addr: SocketAddr = "127.0.0.1:8080".parse().unwrap();
        assert_eq!(
            room_url(addr, "cndr7pkf"),
            "ws://127.0.0.1:8080/ws?room=cndr7pkf"
        );
        assert_eq!(
            room_url(addr, "a b&c"),
            "ws://127.0.0.1:8080/ws?room=a%20b%26c"
        );
    }
}
