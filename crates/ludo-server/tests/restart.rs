//! The real server binary, killed with SIGKILL or stopped with SIGTERM, and started again on the
//! same SQLite file.

mod support;

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};
use support::{Client, create_room, http, next_request, play_until_over, turn_of};

/// The server binary on a free port with this database; its address once it serves.
fn start_binary(db: &Path) -> (Child, SocketAddr) {
    start_binary_with(db, "")
}

/// [`start_binary`] with these fail points (`FAILPOINTS`, e.g. `store-append-action=sleep(300)`).
fn start_binary_with(db: &Path, fail_points: &str) -> (Child, SocketAddr) {
    start_binary_env(db, &[("FAILPOINTS", fail_points)])
}

/// [`start_binary`] with these environment variables besides (or instead of) the usual ones.
fn start_binary_env(db: &Path, env: &[(&str, &str)]) -> (Child, SocketAddr) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ludo-server"))
        .env("LUDO_ADDR", "127.0.0.1:0")
        .env("LUDO_DB", db)
        .env("LUDO_LOG", "info")
        .env("LUDO_CPU_DELAY_MS", "0")
        .env("LUDO_GRACE_MS", "60000")
        .env("LUDO_RATE", "100000")
        // Every test client comes from one address, with a device of its own.
        .env("LUDO_IDENTITIES_PER_MINUTE", "100000")
        .env("LUDO_CONNECTIONS_PER_ROOM", "100000")
        .envs(env.iter().copied())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server binary starts");
    let stderr = child.stderr.take().expect("standard error is piped");
    let mut lines = BufReader::new(stderr).lines();
    let addr = loop {
        let line = lines
            .next()
            .expect("the server logs its address")
            .expect("a log line");
        if let Some(rest) = line.split("serving http://").nth(1) {
            let addr = rest.split_whitespace().next().unwrap();
            break addr.parse().expect("an address");
        }
    };
    // Keep draining the log so the server never blocks on a full pipe.
    std::thread::spawn(move || lines.for_each(drop));
    (child, addr)
}

const HOST: &str = "restart-host-device-01";
const GUEST: &str = "restart-guest-device-02";

/// The seat to act plays one action; both clients then see it.
async fn one_action(yellow: &mut Client, red: &mut Client) {
    let game = yellow.game.clone().expect("a game is on");
    let (_, seat, version) = turn_of(&game);
    let actor = if seat == "yellow" {
        &mut *yellow
    } else {
        &mut *red
    };
    actor.send(next_request(&game)).await;
    let seen = |m: &Value| m["t"] == "action" && m["game"]["version"] == version + 1;
    yellow.recv_until(seen).await;
    red.recv_until(seen).await;
}

/// A room with the host in yellow, a guest in red, and a game started.
async fn game_in_progress(addr: SocketAddr) -> (String, Client, Client) {
    let (code, mut host, mut guest) = host_and_guest_seated(addr).await;
    host.send(json!({"t": "start"})).await;
    host.recv_until(|m| m["t"] == "game").await;
    guest.recv_until(|m| m["t"] == "game").await;
    (code, host, guest)
}

/// A room with the host in yellow and a guest in red, its game not started.
async fn host_and_guest_seated(addr: SocketAddr) -> (String, Client, Client) {
    let code = create_room(addr, HOST, json!({})).await;
    let mut host = Client::join(addr, &code, HOST, "Host").await;
    host.send(json!({"t": "sit", "colour": "yellow"})).await;
    host.recv_until(|m| m["t"] == "room" && !m["room"]["seats"]["yellow"].is_null())
        .await;
    let mut guest = Client::join(addr, &code, GUEST, "Guest").await;
    guest.send(json!({"t": "sit", "colour": "red"})).await;
    guest
        .recv_until(|m| m["t"] == "room" && !m["room"]["seats"]["red"].is_null())
        .await;
    (code, host, guest)
}

#[tokio::test]
async fn a_game_killed_mid_way_resumes_from_its_exact_position_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("ludo.db");
    let (mut first, addr) = start_binary(&db);
    let (code, mut host, mut guest) = game_in_progress(addr).await;
    for _ in 0..40 {
        one_action(&mut host, &mut guest).await;
    }
    let before = host.game.clone().unwrap();
    first.kill().expect("SIGKILL");
    first.wait().unwrap();

    let (mut second, addr) = start_binary(&db);
    let mut host = Client::join(addr, &code, HOST, "Host").await;
    let mut guest = Client::join(addr, &code, GUEST, "Guest").await;
    let after = host.game.clone().expect("the welcome carries the game");
    assert_eq!(after["position"], before["position"]);
    assert_eq!(after["version"], before["version"]);
    assert_eq!(after["id"], before["id"]);
    assert_eq!(after["commitment"], before["commitment"]);
    // And the game carries on to its end, its record verifying.
    let (end, _) = tokio::join!(
        play_until_over(&mut host, "yellow"),
        play_until_over(&mut guest, "red")
    );
    let id = end["id"].as_str().unwrap();
    let (status, body) = http(addr, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(status, 200);
    let record: ludo_fair::Record = serde_json::from_str(&body).unwrap();
    record
        .verify()
        .expect("the record verifies across the restart");
    second.kill().unwrap();
    second.wait().unwrap();
}

#[tokio::test]
async fn a_person_who_left_a_game_stays_left_across_a_kill_and_the_cpu_plays_on_for_them() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("ludo.db");
    let (mut first, addr) = start_binary(&db);
    let (code, mut host, mut guest) = game_in_progress(addr).await;
    guest.send(json!({"t": "leave"})).await;
    host.recv_until(|m| m["t"] == "left").await;
    first.kill().expect("SIGKILL");
    first.wait().unwrap();

    let (mut second, addr) = start_binary(&db);
    let mut host = Client::join(addr, &code, HOST, "Host").await;
    let mut guest = Client::join(addr, &code, GUEST, "Guest").await;
    let (status, room) = http(addr, "GET", &format!("/api/rooms/{code}"), None).await;
    assert_eq!(status, 200);
    assert!(room.contains(r#""left":true"#), "{room}");
    let version = guest.game.as_ref().unwrap()["version"].as_u64().unwrap();
    guest.send(json!({"t": "roll", "version": version})).await;
    assert_eq!(guest.error_code().await, "not_seated");
    // The guest is connected again, yet the CPU plays red to the end (the grace period here is
    // a minute: only leaving explains it), then the seat is freed.
    play_until_over(&mut host, "yellow").await;
    host.recv_until(|m| m["t"] == "room" && m["room"]["seats"]["red"].is_null())
        .await;
    second.kill().unwrap();
    second.wait().unwrap();
}

#[tokio::test]
async fn sigterm_says_goodbye_to_every_client_and_exits_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("ludo.db");
    let (mut server, addr) = start_binary(&db);
    let (code, host, guest) = game_in_progress(addr).await;
    // Fifty connections in all: the two players and 48 watchers.
    let mut clients = vec![host, guest];
    for i in 0..48 {
        let device = format!("restart-watcher-device-{i:02}");
        clients.push(Client::join(addr, &code, &device, &format!("Watcher {i}")).await);
    }
    let status = Command::new("kill")
        .args(["-TERM", &server.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let endings = futures_util::future::join_all(clients.iter_mut().map(|client| async {
        let mut bye = false;
        let close = client.closed(|m| bye |= m["t"] == "bye").await;
        (bye, close.is_some_and(|(code, _)| code == 1001))
    }))
    .await;
    let told = endings.iter().filter(|(bye, _)| *bye).count();
    let closed = endings.iter().filter(|(_, frame)| *frame).count();
    assert_eq!(
        (told, closed),
        (50, 50),
        "every client reads bye, then a close frame saying 1001 (going away)"
    );
    let exited = tokio::task::spawn_blocking(move || {
        for _ in 0..100 {
            if let Some(status) = server.try_wait().unwrap() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = server.kill();
        None
    })
    .await
    .unwrap();
    let status = exited.expect("the server exits within 5 s of SIGTERM");
    assert!(status.success(), "{status:?}");
}

#[tokio::test]
async fn nothing_is_played_while_the_server_stops() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("ludo.db");
    // CPUs acting every 20 ms, and a grace period of none: without a stop to automatic play,
    // the CPUs would go on, and stand in for the people being disconnected.
    let (mut server, addr) =
        start_binary_env(&db, &[("LUDO_CPU_DELAY_MS", "20"), ("LUDO_GRACE_MS", "0")]);
    let code = create_room(addr, HOST, json!({})).await;
    let mut host = Client::join(addr, &code, HOST, "Host").await;
    // The host watches three CPUs play.
    host.send(json!({"t": "stand"})).await;
    for colour in ["blue", "red", "green"] {
        host.send(json!({"t": "add_cpu", "colour": colour, "level": "random"}))
            .await;
    }
    host.send(json!({"t": "start"})).await;
    let game = host
        .recv_until(|m| m["t"] == "action" && m["game"]["version"] == 10)
        .await;
    let id = game["game"]["id"].as_str().unwrap().to_owned();
    let status = Command::new("kill")
        .args(["-TERM", &server.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    // The client takes its time to read its last messages and answer the close: the server
    // waits for it, and plays nothing meanwhile.
    tokio::time::sleep(Duration::from_millis(600)).await;
    let mut seen = game["game"]["version"].as_u64().unwrap();
    host.closed(|m| {
        if let Some(version) = m["game"]["version"].as_u64() {
            seen = seen.max(version);
        }
    })
    .await;
    let exited = tokio::task::spawn_blocking(move || server.wait().unwrap())
        .await
        .unwrap();
    assert!(exited.success(), "{exited:?}");
    let stored: u64 = rusqlite::Connection::open(&db)
        .unwrap()
        .query_row("SELECT COUNT(*) FROM actions WHERE game = ?1", [&id], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(
        stored, seen,
        "every action stored was shown, none played after SIGTERM"
    );
}

#[tokio::test]
async fn a_server_killed_while_storing_an_action_loses_nothing_anyone_saw() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("ludo.db");
    // Every action's write waits a second before its statement: each kill below lands while one
    // is being stored, with room to spare for a busy machine's late timers. (A kill between the
    // statements of one transaction: `a_server_killed_in_the_middle_of_storing_a_new_game_…`.)
    let slow_writes = "store-append-action=sleep(1000)";
    let (mut server, addr) = start_binary_with(&db, slow_writes);
    let (code, mut host, mut guest) = game_in_progress(addr).await;
    for kill_after_ms in [50, 250, 500] {
        one_action(&mut host, &mut guest).await;
        // The seat to act sends its next action, and the server is killed while storing it.
        let game = host.game.clone().unwrap();
        let (_, seat, version) = turn_of(&game);
        let actor = if seat == "yellow" {
            &mut host
        } else {
            &mut guest
        };
        actor.send(next_request(&game)).await;
        tokio::time::sleep(Duration::from_millis(kill_after_ms)).await;
        server.kill().expect("SIGKILL");
        server.wait().unwrap();
        // Whatever either client was shown before the socket closed.
        host.closed(|_| {}).await;
        guest.closed(|_| {}).await;
        let seen = [&host, &guest]
            .map(|c| c.game.clone().unwrap())
            .into_iter()
            .max_by_key(|g| turn_of(g).2)
            .unwrap();

        assert_eq!(
            turn_of(&seen).2,
            version,
            "the action being written when the server died was shown to nobody"
        );

        let addr;
        (server, addr) = start_binary_with(&db, slow_writes);
        host = Client::join(addr, &code, HOST, "Host").await;
        guest = Client::join(addr, &code, GUEST, "Guest").await;
        let stored = host.game.clone().expect("the game is back");
        assert_eq!(
            (turn_of(&stored).2, &stored["position"]),
            (turn_of(&seen).2, &seen["position"]),
            "the game is back exactly as last shown (killed {kill_after_ms} ms into a write)"
        );
    }
    server.kill().unwrap();
    server.wait().unwrap();
}

/// How many games are stored, and how many of them without their players: what a new game's
/// write cut off half-way would leave behind.
const GAMES_AND_HALF_GAMES: &str = "SELECT (SELECT count(*) FROM games),
    (SELECT count(*) FROM games g WHERE NOT EXISTS
        (SELECT 1 FROM game_players p WHERE p.game = g.id))";

/// The server on `db` (a SQLite file, or a PostgreSQL URL) is killed in the middle of storing a
/// new game, its first statement run and the rest not: restarted, it has no game, not half of one,
/// and starts the game afresh. `stored` counts [`GAMES_AND_HALF_GAMES`] in `db`.
async fn a_new_game_cut_off_half_way_leaves_nothing(db: &Path, stored: impl Fn() -> (i64, i64)) {
    let dir = tempfile::tempdir().unwrap();
    let held = dir.path().join("held");
    let hold = format!("store-game-held=return({})", held.display());
    let (mut server, addr) = start_binary_with(db, &hold);
    let (code, mut host, mut guest) = host_and_guest_seated(addr).await;
    host.send(json!({"t": "start"})).await;
    // The game's row is written, its players' are not, nothing is committed: the server dies.
    let waited = tokio::time::timeout(Duration::from_secs(60), async {
        while !held.exists() {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    });
    waited
        .await
        .expect("the new game's write reaches its middle");
    server.kill().expect("SIGKILL");
    server.wait().unwrap();
    host.closed(|_| {}).await;
    guest.closed(|_| {}).await;
    assert!(
        host.game.is_none() && guest.game.is_none(),
        "nobody saw the game start"
    );

    let (mut server, addr) = start_binary(db);
    assert_eq!(stored(), (0, 0), "no game, and no half of one, is stored");
    let mut host = Client::join(addr, &code, HOST, "Host").await;
    let mut guest = Client::join(addr, &code, GUEST, "Guest").await;
    assert!(host.game.is_none(), "the room waits for its start");
    host.send(json!({"t": "start"})).await;
    host.recv_until(|m| m["t"] == "game").await;
    guest.recv_until(|m| m["t"] == "game").await;
    for _ in 0..4 {
        one_action(&mut host, &mut guest).await;
    }
    assert_eq!(stored(), (1, 0), "the game started again is stored whole");
    server.kill().unwrap();
    server.wait().unwrap();
}

#[tokio::test]
async fn a_server_killed_in_the_middle_of_storing_a_new_game_on_sqlite_keeps_none_of_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("ludo.db");
    a_new_game_cut_off_half_way_leaves_nothing(&db, || {
        let sqlite = rusqlite::Connection::open(&db).unwrap();
        sqlite
            .query_row(GAMES_AND_HALF_GAMES, [], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
    })
    .await;
}

#[tokio::test]
async fn a_server_killed_in_the_middle_of_storing_a_new_game_on_postgresql_keeps_none_of_it() {
    let Some(database) = ludo_server::TestDatabase::create() else {
        return;
    };
    let url = database.url().to_owned();
    a_new_game_cut_off_half_way_leaves_nothing(Path::new(&url), || {
        let url = url.clone();
        // The synchronous client runs off the test's runtime.
        std::thread::spawn(move || {
            let mut client = postgres::Client::connect(&url, postgres::NoTls).unwrap();
            let row = client.query_one(GAMES_AND_HALF_GAMES, &[]).unwrap();
            (row.get(0), row.get(1))
        })
        .join()
        .unwrap()
    })
    .await;
}
