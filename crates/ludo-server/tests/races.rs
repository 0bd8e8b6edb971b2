//! Concurrency inside one room, on real sockets, with the timings varied so that requests meet
//! in every order. What these tests prove:
//!
//! - two connections of one seat that ask for an action on the same version at the same moment
//!   get exactly one action accepted and broadcast; the other is refused with the code the
//!   documented order of checks calls for (`stale_version` while the seat still has the turn,
//!   followed by the game as it is now; `not_your_turn` or `game_over` otherwise), and every
//!   connection ends with the same game;
//! - a person's request that meets the end of their turn clock, or the end of the grace period
//!   of a person coming back, is played exactly once: by them, or by the CPU standing in (and
//!   then their request is refused); never both, never at another version;
//! - every client sees the actions' versions go up by one, and a game's record holds exactly the
//!   actions broadcast, its dice verifying against the seed;
//! - a `hello` that meets an idle room's unloading is always welcomed, with the room and its
//!   last game as they were, and never refused with `no_such_room` or left unanswered.
//!
//! The test clients fail on any refusal a test did not expect (see `support`).

mod support;

use std::net::SocketAddr;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};
use support::{Client, HOST, http, spawn_server, spawn_server_with, turn_of};

/// How many races each test runs (the quick same-version races run at least four times as many);
/// `LUDO_SOAK` times as many in a soak (`scripts/soak.sh`).
const RACES: usize = 50;

/// [`RACES`] times the soak factor `LUDO_SOAK` (1 unless set).
fn race_count() -> usize {
    let factor: usize = std::env::var("LUDO_SOAK")
        .ok()
        .and_then(|factor| factor.parse().ok())
        .unwrap_or(1);
    RACES * factor.max(1)
}

/// After a game's end, the host starts the next one; returns once it has started.
async fn play_again(host: &mut Conn) {
    host.send(json!({"t": "play_again"})).await;
    host.until(|m| m["t"] == "game" && m["game"]["version"] == 0)
        .await;
}

/// A watcher's device secret.
const WATCHER: &str = "races-watcher-device-0003";

/// A small random generator for the timings and the choices of the races; its seed is printed,
/// and `RACES_SEED` sets it to make the same choices again (the timings still vary).
struct Dice(u64);

impl Dice {
    fn new() -> Dice {
        let seed = std::env::var("RACES_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| {
                SystemTime::now()
                    .duration_since(UNIX_EPOCH)
                    .unwrap()
                    .as_nanos() as u64
            });
        eprintln!("RACES_SEED={seed}");
        Dice(seed | 1)
    }

    fn below(&mut self, n: u64) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 32) % n
    }
}

/// Unix milliseconds, as the server's deadlines.
fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

/// What one connection has seen of the games: each action must carry the version after the one
/// seen before it, of the same game.
#[derive(Default)]
struct Seen {
    game: Option<String>,
    version: u64,
    /// Every action seen, in order.
    actions: Vec<Value>,
}

impl Seen {
    fn note(&mut self, label: &str, message: &Value) {
        let game = &message["game"];
        if game.is_null() {
            return;
        }
        let id = game["id"].as_str().expect("a game id").to_owned();
        let version = game["version"].as_u64().expect("a version");
        let same_game = self.game.as_deref() == Some(id.as_str());
        match message["t"].as_str() {
            Some("game") if !same_game => {
                assert_eq!(
                    version, 0,
                    "{label}: a new game starts at version 0: {message}"
                );
            }
            Some("game") => assert_eq!(
                version, self.version,
                "{label}: the game sent again after a refusal is the one last seen: {message}"
            ),
            Some("action") => {
                assert!(same_game, "{label}: an action of another game: {message}");
                assert_eq!(
                    version,
                    self.version + 1,
                    "{label}: versions go up by one; after {} came {message}",
                    self.version
                );
                self.actions.push(message.clone());
            }
            _ => {}
        }
        self.game = Some(id);
        self.version = version;
    }
}

/// A test client whose every message is checked by [`Seen`].
struct Conn {
    client: Client,
    seen: Seen,
    label: &'static str,
}

impl Conn {
    fn new(client: Client, label: &'static str) -> Conn {
        let mut seen = Seen::default();
        if let Some(game) = &client.game {
            seen.note(label, &json!({"t": "welcome", "game": game}));
        }
        Conn {
            client,
            seen,
            label,
        }
    }

    async fn send(&mut self, message: Value) {
        self.client.send(message).await;
    }

    /// The next message; a refusal fails the test.
    async fn recv(&mut self) -> Value {
        let message = self.client.recv().await;
        self.seen.note(self.label, &message);
        message
    }

    /// The next message, which may be a refusal the caller checks.
    async fn recv_or_refusal(&mut self) -> Value {
        let message = self.client.recv_or_refusal().await;
        self.seen.note(self.label, &message);
        message
    }

    /// Messages until one satisfies `wanted`; a refusal on the way fails the test.
    async fn until(&mut self, wanted: impl Fn(&Value) -> bool) -> Value {
        loop {
            let message = self.recv().await;
            if wanted(&message) {
                return message;
            }
        }
    }

    /// The latest game seen.
    fn game(&self) -> Value {
        self.client.game.clone().expect("a game is on")
    }
}

/// A watcher whose messages a task reads as they come (so that it never falls behind), checking
/// them with [`Seen`].
struct Observer {
    task: tokio::task::JoinHandle<Conn>,
    stop: tokio::sync::watch::Sender<Option<(String, u64)>>,
}

impl Observer {
    async fn join(addr: SocketAddr, code: &str) -> Observer {
        let mut conn = Conn::new(
            Client::join(addr, code, WATCHER, "Watcher").await,
            "watcher",
        );
        let (stop, mut until) = tokio::sync::watch::channel::<Option<(String, u64)>>(None);
        let task = tokio::spawn(async move {
            loop {
                let target = until.borrow_and_update().clone();
                if let Some((id, version)) = target
                    && conn.seen.game.as_deref() == Some(id.as_str())
                    && conn.seen.version >= version
                {
                    return conn;
                }
                tokio::select! {
                    _ = conn.recv() => {}
                    _ = until.changed() => {}
                }
            }
        });
        Observer { task, stop }
    }

    /// Every action the watcher saw, once it has seen game `id` at `version`.
    async fn actions_until(self, id: &str, version: u64) -> Vec<Value> {
        self.stop.send_replace(Some((id.to_owned(), version)));
        self.task
            .await
            .expect("the watcher saw everything in order")
            .seen
            .actions
    }
}

/// The request that plays `game`'s next action: a throw, or the move of legal piece `pick`
/// (counted round the legal moves).
fn request(game: &Value, pick: usize) -> Value {
    let (phase, _, version) = turn_of(game);
    if phase == "move" {
        let legal = game["legal"].as_array().expect("legal moves");
        json!({"t": "move", "piece": legal[pick % legal.len()]["piece"], "version": version})
    } else {
        json!({"t": "roll", "version": version})
    }
}

/// Whether `action` (an `action` message) is what `request` asked for.
fn answers(request: &Value, action: &Value) -> bool {
    match request["t"].as_str() {
        Some("roll") => action["action"]["throw"].is_array(),
        _ => action["action"]["move"] == request["piece"],
    }
}

/// The action's `stand_in`, if it has one.
fn stand_in(action: &Value) -> Option<&str> {
    action
        .get("stand_in")
        .map(|v| v.as_str().expect("a string"))
}

/// Whether a yellow turn has just begun: nothing thrown in it yet.
fn fresh_turn(game: &Value) -> bool {
    let (phase, _, _) = turn_of(game);
    phase == "roll" && game["position"]["turn"]["throws"] == 0
}

/// The refusal a request of `seat` on `version` gets when the room has `game`, by the documented
/// order of checks: the game is not over, it is the seat's turn, the version is current.
fn refusal_for(game: &Value, seat: &str, version: u64) -> &'static str {
    let (phase, to_act, now) = turn_of(game);
    if phase == "over" {
        "game_over"
    } else if to_act != seat {
        "not_your_turn"
    } else {
        assert_ne!(now, version, "a request on the current version was refused");
        "stale_version"
    }
}

/// Two views of one game, equal but for the deadline, which is computed when each is sent.
fn same_game(a: &Value, b: &Value) -> bool {
    let (mut a, mut b) = (a.clone(), b.clone());
    for game in [&mut a, &mut b] {
        game["deadline"] = Value::Null;
    }
    a == b
}

/// Checks that each game's record holds exactly the actions seen broadcast, in order, and that
/// a finished game's dice verify against its seed.
async fn records_match(addr: SocketAddr, actions: &[Value]) {
    let mut games: Vec<(String, Vec<&Value>)> = Vec::new();
    for action in actions {
        let id = action["game"]["id"].as_str().unwrap().to_owned();
        match games.last_mut() {
            Some((last, list)) if *last == id => list.push(action),
            _ => games.push((id, vec![action])),
        }
    }
    for (id, seen) in &games {
        let (status, body) = http(addr, "GET", &format!("/api/games/{id}"), None).await;
        assert_eq!(status, 200, "{body}");
        let record: Value = serde_json::from_str(&body).unwrap();
        let broadcast: Vec<Value> = seen.iter().map(|a| a["action"].clone()).collect();
        assert_eq!(
            record["actions"].as_array().expect("actions"),
            &broadcast,
            "game {id}: the record holds exactly the actions broadcast, in order"
        );
        let last = seen.last().expect("an action");
        assert_eq!(last["game"]["version"], broadcast.len() as u64);
        if turn_of(&last["game"]).0 == "over" {
            let record: ludo_fair::Record = serde_json::from_value(record).unwrap();
            record
                .verify()
                .unwrap_or_else(|e| panic!("game {id}: the record verifies: {e:?}"));
        }
    }
}

/// Refusals that answer the probe `{"t":"sit","colour":…}` of a player asking for the other
/// player's seat: it changes nothing, and marks where the room has got to.
const PROBE_ANSWERS: [&str; 2] = ["game_on", "seat_taken"];

/// Messages until the answer to a probe (which is not among them).
async fn until_probe_answer(conn: &mut Conn) -> Vec<Value> {
    let mut before = Vec::new();
    loop {
        let message = conn.recv_or_refusal().await;
        if message["t"] == "error"
            && PROBE_ANSWERS.contains(&message["code"].as_str().unwrap_or_default())
        {
            return before;
        }
        before.push(message);
    }
}

/// Messages until the refusal of `probe`, a request of `seat` on a version that never comes
/// (`not_your_turn`, or `stale_version` and the game after it); the messages before it.
async fn until_refusal_of(conn: &mut Conn, probe: &Value, seat: &str) -> Vec<Value> {
    let mut before = Vec::new();
    loop {
        let message = conn.recv_or_refusal().await;
        if message["t"] == "error" && message["code"] != "game_on" {
            let version = probe["version"].as_u64().unwrap();
            let code = refusal_for(&conn.game(), seat, version);
            assert_eq!(message["code"], code, "{probe}: {message}");
            if code == "stale_version" {
                let again = conn.recv().await;
                assert_eq!(
                    again["t"], "game",
                    "the game follows stale_version: {again}"
                );
            }
            return before;
        }
        before.push(message);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_connections_of_one_seat_acting_on_the_same_version_have_exactly_one_action_accepted() {
    let server = spawn_server().await;
    let (code, host, guest) = support::two_player_room(&server, json!({})).await;
    let twin = Client::join(server.addr, &code, HOST, "Host").await;
    let (mut host, mut twin, mut guest) = (
        Conn::new(host, "host"),
        Conn::new(twin, "twin"),
        Conn::new(guest, "guest"),
    );
    host.send(json!({"t": "start"})).await;
    for conn in [&mut host, &mut twin, &mut guest] {
        conn.until(|m| m["t"] == "game").await;
    }
    let mut dice = Dice::new();
    let began = Instant::now();
    let (mut races, mut host_won, mut first_won, mut restarts) = (0, 0, 0, 0);
    let mut codes = std::collections::BTreeMap::<String, usize>::new();
    // Until three games have ended too, to race the next game's start.
    while races < 4 * race_count() || restarts < 3 {
        let game = host.game();
        let (phase, seat, version) = turn_of(&game);
        if phase == "over" {
            // The guest accepts a new game first; then both of the host's connections accept
            // at once: one starts it.
            restarts += 1;
            let again = json!({"t": "play_again"});
            guest.send(again.clone()).await;
            let offered = |m: &Value| m["t"] == "room" && m["room"]["rematch"] == json!(["red"]);
            for conn in [&mut host, &mut twin, &mut guest] {
                conn.until(offered).await;
            }
            tokio::join!(host.send(again.clone()), twin.send(again.clone()));
            let new_game = guest
                .until(|m| m["t"] == "game" && m["game"]["version"] == 0)
                .await;
            // A throw on a version that never comes is answered after the play_again before it.
            let probe = json!({"t": "roll", "version": 1_000_000});
            tokio::join!(host.send(probe.clone()), twin.send(probe.clone()));
            let mut refused = 0;
            for conn in [&mut host, &mut twin] {
                let saw = until_refusal_of(conn, &probe, "yellow").await;
                let games: Vec<&Value> = saw.iter().filter(|m| m["t"] == "game").collect();
                assert_eq!(games, [&new_game], "{}: one new game: {saw:#?}", conn.label);
                for message in saw.iter().filter(|m| m["t"] == "error") {
                    assert_eq!(message["code"], "game_on", "{message}");
                    refused += 1;
                }
            }
            assert_eq!(refused, 1, "one of the two play_again is refused");
            continue;
        }
        if seat == "red" {
            guest.send(request(&game, 0)).await;
            for conn in [&mut host, &mut twin, &mut guest] {
                conn.until(|m| m["t"] == "action" && m["game"]["version"] == version + 1)
                    .await;
            }
            continue;
        }
        // Yellow's two connections ask at once: for the same throw, or for two different moves
        // when there are two, so that the action broadcast says whose request won.
        races += 1;
        let pick = dice.below(4) as usize;
        let (a, b) = (request(&game, pick), request(&game, pick + 1));
        let host_first = dice.below(2) == 0;
        if host_first {
            tokio::join!(host.send(a.clone()), twin.send(b.clone()));
        } else {
            tokio::join!(twin.send(b.clone()), host.send(a.clone()));
        }
        // Each connection's probe is answered after its request; once both are, a second probe
        // on every connection is answered after everything the two requests caused.
        let probe = json!({"t": "sit", "colour": "red"});
        tokio::join!(host.send(probe.clone()), twin.send(probe.clone()));
        let mut host_saw = until_probe_answer(&mut host).await;
        let mut twin_saw = until_probe_answer(&mut twin).await;
        for conn in [&mut host, &mut twin] {
            conn.send(probe.clone()).await;
        }
        guest.send(json!({"t": "sit", "colour": "yellow"})).await;
        host_saw.extend(until_probe_answer(&mut host).await);
        twin_saw.extend(until_probe_answer(&mut twin).await);
        let guest_saw = until_probe_answer(&mut guest).await;

        let only_action = |label: &str, saw: &[Value]| -> Value {
            let actions: Vec<&Value> = saw.iter().filter(|m| m["t"] == "action").collect();
            assert_eq!(
                actions.len(),
                1,
                "race {races} on version {version}: {label} saw one action: {saw:#?}"
            );
            actions[0].clone()
        };
        let accepted = only_action("host", &host_saw);
        assert_eq!(only_action("twin", &twin_saw), accepted);
        assert_eq!(only_action("guest", &guest_saw), accepted);
        assert_eq!(accepted["seat"], "yellow", "{accepted}");
        assert_eq!(accepted["game"]["version"], version + 1, "{accepted}");
        assert_eq!(stand_in(&accepted), None, "{accepted}");
        assert!(
            answers(&a, &accepted) || answers(&b, &accepted),
            "the action is one of the two asked for: {a} {b} {accepted}"
        );
        let refusals = |saw: &[Value]| -> Vec<usize> {
            (0..saw.len()).filter(|&i| saw[i]["t"] == "error").collect()
        };
        assert_eq!(refusals(&guest_saw), Vec::<usize>::new(), "{guest_saw:#?}");
        let (host_refused, twin_refused) = (refusals(&host_saw), refusals(&twin_saw));
        assert_eq!(
            host_refused.len() + twin_refused.len(),
            1,
            "race {races} on version {version}: exactly one request is refused: \
             host saw {host_saw:#?}, twin saw {twin_saw:#?}"
        );
        let host_won_it = host_refused.is_empty();
        host_won += usize::from(host_won_it);
        first_won += usize::from(host_won_it == host_first);
        let (loser, refused_at, loser_asked, winner_asked) = if host_won_it {
            (&twin_saw, twin_refused[0], &b, &a)
        } else {
            (&host_saw, host_refused[0], &a, &b)
        };
        if loser_asked != winner_asked {
            assert!(
                answers(winner_asked, &accepted) && !answers(loser_asked, &accepted),
                "the accepted action is the request that was not refused: {accepted}"
            );
        }
        let refusal = &loser[refused_at];
        let code = refusal["code"].as_str().unwrap();
        assert_eq!(
            code,
            refusal_for(&accepted["game"], "yellow", version),
            "{refusal}"
        );
        let action_at = loser.iter().position(|m| m["t"] == "action").unwrap();
        assert!(
            action_at < refused_at,
            "the refusal follows the action: {loser:#?}"
        );
        if code == "stale_version" {
            let again = loser
                .get(refused_at + 1)
                .expect("a message after the refusal");
            assert_eq!(
                again["t"], "game",
                "the game follows stale_version: {loser:#?}"
            );
            assert_eq!(again["game"], accepted["game"]);
        }
        *codes.entry(code.to_owned()).or_default() += 1;
        // Every connection has the same game.
        assert_eq!(host.game(), accepted["game"]);
        assert_eq!(twin.game(), accepted["game"]);
        assert_eq!(guest.game(), accepted["game"]);
    }
    eprintln!(
        "{races} races in {:?}: the host's request won {host_won}, the one sent first \
         {first_won}; the other was refused {codes:?}; {restarts} games started again at once",
        began.elapsed()
    );
    // Both orders were raced: each connection's request won some races and lost others.
    assert!(
        host_won > 0 && host_won < races,
        "each connection won some races: the host's request won {host_won} of {races}"
    );
    assert_eq!(host.seen.actions, guest.seen.actions);
    assert_eq!(twin.seen.actions, guest.seen.actions);
    records_match(server.addr, &guest.seen.actions).await;
}

/// Who played the version a person's request was made on.
#[derive(Debug, PartialEq, Eq)]
enum Played {
    /// The request was accepted.
    ByThem,
    /// The CPU played that version for them, and the request was refused.
    ByCpu,
}

/// After `conn` sent `sent`, a request of `seat`: reads until it is known who played the version
/// it was made on. Either the request is accepted as the action of that version (without
/// `stand_in`), or the CPU played that version for the seat (with `stand_in` `why`) and the
/// request is refused: with `out_of_time` when the seat's clock ran out (then the CPU has the
/// turn, and plays that version if it has not yet), otherwise with the code the game calls for
/// (followed by the game, for `stale_version`). Never both, and never is the request played at
/// another version.
async fn fate(conn: &mut Conn, seat: &str, sent: &Value, why: &str) -> Played {
    let version = sent["version"].as_u64().unwrap();
    // Already played, as a welcome may show.
    let mut by_cpu = conn.seen.version > version;
    let mut out_of_time = false;
    loop {
        let message = conn.recv_or_refusal().await;
        match message["t"].as_str() {
            Some("action") => {
                let played = message["game"]["version"].as_u64().unwrap();
                if message["seat"] == seat && stand_in(&message).is_none() {
                    assert!(
                        !by_cpu && !out_of_time,
                        "the request {sent} was played after the CPU had played its version or \
                         taken the turn: {message}"
                    );
                    assert_eq!(played, version + 1, "{sent} played as {message}");
                    assert!(answers(sent, &message), "{sent} played as {message}");
                    return Played::ByThem;
                }
                if played == version + 1 {
                    assert_eq!(message["seat"], seat, "{message}");
                    assert_eq!(stand_in(&message), Some(why), "{message}");
                    by_cpu = true;
                    if out_of_time {
                        return Played::ByCpu;
                    }
                }
            }
            Some("error") if message["code"] == "out_of_time" => {
                // The seat's clock ran out: the rest of its turn is the CPU's.
                assert_eq!(why, "clock", "{sent}: {message}");
                let (phase, to_act, _) = turn_of(&conn.game());
                assert!(phase != "over" && to_act == seat, "{sent}: {message}");
                out_of_time = true;
                if by_cpu {
                    return Played::ByCpu;
                }
            }
            Some("error") => {
                assert!(
                    by_cpu,
                    "{sent} was refused though nobody had played its version: {message}"
                );
                let now = conn.game();
                let code = message["code"].as_str().unwrap();
                assert_eq!(
                    code,
                    refusal_for(&now, seat, version),
                    "{sent} refused with {message} when the game was {now}"
                );
                if code == "stale_version" {
                    let again = conn.recv().await;
                    assert_eq!(
                        again["t"], "game",
                        "the game follows stale_version: {again}"
                    );
                    assert!(same_game(&again["game"], &now), "{again} is not {now}");
                }
                return Played::ByCpu;
            }
            _ => {}
        }
    }
}

/// Sleeps until the Unix millisecond `at`, if it is still to come.
async fn sleep_until_ms(at: i64) {
    let wait = at - now_ms();
    if wait > 0 {
        tokio::time::sleep(Duration::from_millis(wait as u64)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_persons_request_racing_their_turn_clock_is_played_once_by_them_or_by_the_cpu() {
    // A 30-second clock lasts 60 ms here.
    let server = spawn_server_with(|c| c.clock_second_ms = 2).await;
    let (code, host) =
        support::host_and_cpu_in(&server, json!({"clock": 30}), "Host", "random").await;
    let watcher = Observer::join(server.addr, &code).await;
    let mut host = Conn::new(host, "host");
    host.send(json!({"t": "start"})).await;
    host.until(|m| m["t"] == "game").await;
    let began = Instant::now();
    // The request goes at the deadline plus `offset` ms, moved towards where the outcome turns.
    let (mut offset, mut races, mut theirs, mut cpus) = (0i64, 0, 0, 0);
    // Whether the CPU has taken yellow's turn, and how often the person's own request was played
    // after it had (never: the CPU keeps the rest of the turn).
    let (mut cpu_turn, mut in_cpu_turn) = (false, 0);
    loop {
        let game = host.game();
        let (phase, seat, _) = turn_of(&game);
        if phase == "over" {
            if races >= race_count() {
                break;
            }
            play_again(&mut host).await;
            continue;
        }
        if seat != "yellow" || fresh_turn(&game) {
            cpu_turn = false;
        }
        // No deadline: the CPU plays the rest of yellow's turn (or red's own).
        let Some(deadline) = game["deadline"].as_i64().filter(|_| seat == "yellow") else {
            host.recv().await;
            continue;
        };
        let racing = races < race_count();
        if racing {
            sleep_until_ms(deadline + offset).await;
        }
        let sent = request(&game, 0);
        host.send(sent.clone()).await;
        let played = fate(&mut host, "yellow", &sent, "clock").await;
        in_cpu_turn += usize::from(cpu_turn && played == Played::ByThem);
        cpu_turn |= played == Played::ByCpu;
        if racing {
            races += 1;
            if played == Played::ByThem {
                theirs += 1;
                offset = (offset + 1).min(30);
            } else {
                cpus += 1;
                offset = (offset - 1).max(-50);
            }
        }
    }
    eprintln!(
        "{races} races with the clock in {:?}: the person played {theirs}, the CPU {cpus}; \
         offset at the end {offset} ms; {in_cpu_turn} requests of the person were played in a \
         turn the CPU had begun playing for them",
        began.elapsed()
    );
    assert!(
        theirs > 0 && cpus > 0,
        "both outcomes happen: {theirs} {cpus}"
    );
    assert_eq!(in_cpu_turn, 0, "the CPU keeps a turn it has taken");
    let game = host.game();
    let seen = watcher
        .actions_until(game["id"].as_str().unwrap(), turn_of(&game).2)
        .await;
    assert_eq!(seen, host.seen.actions, "every client saw the same actions");
    for action in &seen {
        match (action["seat"].as_str(), stand_in(action)) {
            (Some("yellow"), None | Some("clock")) | (Some("red"), None) => {}
            _ => panic!("{action}"),
        }
    }
    records_match(server.addr, &seen).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_coming_back_as_the_cpu_stands_in_for_them_is_played_for_exactly_once() {
    const GRACE_MS: i64 = 30;
    let server = spawn_server_with(|c| c.grace_ms = GRACE_MS as u64).await;
    let (code, host) = support::host_and_cpu_in(&server, json!({}), "Host", "random").await;
    let watcher = Observer::join(server.addr, &code).await;
    let mut host = Conn::new(host, "host");
    host.send(json!({"t": "start"})).await;
    host.until(|m| m["t"] == "game").await;
    let began = Instant::now();
    // The person comes back at the end of the grace period plus `offset` ms, moved towards
    // where the outcome turns. Whoever played the version raced for, the rest of the turn is
    // theirs: the CPU stops standing in the moment they are back.
    let (mut offset, mut races, mut theirs, mut cpus) = (0i64, 0, 0, 0);
    loop {
        let game = host.game();
        let (phase, seat, _) = turn_of(&game);
        if phase == "over" {
            if races >= race_count() {
                break;
            }
            play_again(&mut host).await;
            continue;
        }
        if seat != "yellow" {
            host.recv().await;
            continue;
        }
        let sent = request(&game, 0);
        if !(fresh_turn(&game) && races < race_count()) {
            // The person plays their own turn.
            host.send(sent.clone()).await;
            assert_eq!(
                fate(&mut host, "yellow", &sent, "away").await,
                Played::ByThem
            );
            continue;
        }
        // Yellow's turn has just begun: the person leaves, and comes back as the CPU is due to
        // stand in, with the request they meant to make.
        let back = Client::connect(server.addr).await;
        let gone = std::mem::replace(&mut host, Conn::new(back, "host"));
        gone.client.close().await;
        let left = now_ms();
        sleep_until_ms(left + GRACE_MS + offset).await;
        host.send(json!({"t": "hello", "room": code, "device": HOST, "name": "Host"}))
            .await;
        host.send(sent.clone()).await;
        let welcome = host.until(|m| m["t"] == "welcome").await;
        assert_eq!(welcome["room"]["seats"]["yellow"]["connected"], true);
        let played = fate(&mut host, "yellow", &sent, "away").await;
        races += 1;
        if played == Played::ByThem {
            theirs += 1;
            offset += 1;
        } else {
            cpus += 1;
            offset -= 1;
        }
    }
    eprintln!(
        "{races} races with the grace period in {:?}: the person played {theirs}, the CPU \
         {cpus}; offset at the end {offset} ms",
        began.elapsed()
    );
    assert!(
        theirs > 0 && cpus > 0,
        "both outcomes happen: {theirs} {cpus}"
    );
    let game = host.game();
    let seen = watcher
        .actions_until(game["id"].as_str().unwrap(), turn_of(&game).2)
        .await;
    for action in &seen {
        match (action["seat"].as_str(), stand_in(action)) {
            (Some("yellow"), None | Some("away")) | (Some("red"), None) => {}
            _ => panic!("{action}"),
        }
    }
    records_match(server.addr, &seen).await;
}

/// A room whose game is over, as it was when everyone left: what a `hello` must find.
struct Left {
    code: String,
    /// The room as `GET /api/rooms/{code}` showed it.
    room: Value,
    /// The last game, as it ended.
    game: Value,
}

/// Checks a welcome to `device` (the identity `you`) into `left`, in which the host (`host`) has
/// just been renamed `name` (from `previous`) by a hello that may come before or after this one.
fn welcomed_as_it_was(welcome: &Value, left: &Left, device: &str, you: &str, names: [&str; 2]) {
    let [name, previous] = names;
    let (room, shown) = (&left.room, &welcome["room"]);
    assert_eq!(welcome["you"], you, "{welcome}");
    assert_eq!(shown["code"], left.code.as_str(), "{welcome}");
    assert_eq!(shown["host"], room["host"], "{welcome}");
    assert_eq!(shown["settings"], room["settings"], "{welcome}");
    let yellow = &shown["seats"]["yellow"]["occupant"];
    assert_eq!(yellow["id"], room["host"], "{welcome}");
    if device == HOST {
        assert_eq!(yellow["name"], name, "renamed by this hello: {welcome}");
        assert_eq!(shown["seats"]["yellow"]["connected"], true, "{welcome}");
    } else {
        assert!(
            yellow["name"] == name || yellow["name"] == previous,
            "the name of the last hello or of this round's: {welcome}"
        );
    }
    assert_eq!(
        shown["seats"]["red"]["occupant"], room["seats"]["red"]["occupant"],
        "{welcome}"
    );
    assert_eq!(welcome["game"], left.game, "the last game, as it ended");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hello_racing_the_unload_of_an_idle_room_is_always_welcomed_with_the_room_as_it_was() {
    const IDLE_MS: i64 = 30;
    /// Rooms racing at once, each with its own timing.
    const ROOMS: usize = 12;
    let server = spawn_server_with(|c| c.room_idle_secs = IDLE_MS as f64 / 1000.0).await;
    // Rooms whose games are over: a room unloads only when no game is being played.
    let games = (0..ROOMS).map(|i| {
        let server = &server;
        async move {
            let settings = json!({"rotate": i % 2 == 0});
            let (code, mut host) =
                support::host_and_cpu_in(server, settings, "Ana", "random").await;
            host.send(json!({"t": "start"})).await;
            let game = support::play_until_over(&mut host, "yellow").await;
            let (status, room) =
                http(server.addr, "GET", &format!("/api/rooms/{code}"), None).await;
            assert_eq!(status, 200, "{room}");
            host.close().await;
            let room = serde_json::from_str(&room).unwrap();
            Left { code, room, game }
        }
    });
    let rooms = futures_util::future::join_all(games).await;
    // When the rooms last had something to do: each unloads `IDLE_MS` after.
    let mut left = now_ms();
    let host_id = rooms[0].room["host"].as_str().unwrap().to_owned();
    let mut watcher_id: Option<String> = None;
    let mut dice = Dice::new();
    let began = Instant::now();
    let mut name = "Ana".to_owned();
    for round in 0..race_count() {
        let previous = std::mem::replace(&mut name, format!("Ana {round}"));
        // The host and a watcher come back to every room, each at its own moment around the
        // room's unloading, on sockets opened beforehand.
        let mut hellos = Vec::new();
        for left_room in &rooms {
            for device in [HOST, WATCHER] {
                let at = left + IDLE_MS - 7 + dice.below(12) as i64;
                let hello = json!({"t": "hello", "room": left_room.code, "device": device,
                                   "name": if device == HOST { name.as_str() } else { "Cy" }});
                let client = Client::connect(server.addr).await;
                hellos.push(async move {
                    let mut client = client;
                    sleep_until_ms(at).await;
                    client.send(hello).await;
                    let welcome = tokio::time::timeout(
                        Duration::from_secs(3),
                        client.recv_until(|m| m["t"] == "welcome"),
                    )
                    .await
                    .unwrap_or_else(|_| panic!("round {round}: no welcome within 3 s"));
                    (client, welcome, left_room, device)
                });
            }
        }
        let welcomes = futures_util::future::join_all(hellos).await;
        let mut clients = Vec::new();
        for (client, welcome, left_room, device) in welcomes {
            let you = if device == HOST {
                host_id.clone()
            } else {
                watcher_id
                    .get_or_insert_with(|| welcome["you"].as_str().unwrap().to_owned())
                    .clone()
            };
            welcomed_as_it_was(&welcome, left_room, device, &you, [&name, &previous]);
            clients.push(client);
        }
        for client in clients {
            client.close().await;
        }
        left = now_ms();
    }
    eprintln!(
        "{} rounds of {} hellos at the unloading of {ROOMS} rooms in {:?}",
        race_count(),
        2 * ROOMS,
        began.elapsed()
    );
}
