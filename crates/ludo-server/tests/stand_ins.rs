//! The `action` broadcast says when the CPU played for a person, and why: `"stand_in":"clock"`
//! or `"stand_in":"away"`. A person's own actions and a CPU seat's carry no `stand_in`. The
//! game's record keeps the same (`stand_ins`, by action index), for a log rebuilt after a reload
//! and for the replay. Once a person's clock runs out the CPU keeps the rest of the turn and
//! their own requests are refused with `out_of_time`; a person who was away takes the turn back
//! as soon as they are here again, unless their clock ran out meanwhile. Only a person playing
//! their own turn is shown a deadline.

mod support;

use serde_json::{Value, json};
use support::{
    Client, HOST, host_and_cpu, host_and_cpu_in, http, next_request, spawn_server_with, turn_of,
};

/// The action's `stand_in`, or `None` when the field is left out; it is never `null`.
fn stand_in(action: &Value) -> Option<&str> {
    action
        .as_object()
        .expect("a message is an object")
        .get("stand_in")
        .map(|v| {
            v.as_str()
                .unwrap_or_else(|| panic!("stand_in is a string: {action}"))
        })
}

/// The next action the host sees: it plays yellow's turns itself (throws, first legal moves)
/// and waits for everyone else's. Returns the action and the seat that was to act.
async fn host_plays_yellow(host: &mut Client) -> (Value, String) {
    let game = host.game.clone().expect("a game is on");
    let (phase, seat, _) = turn_of(&game);
    assert_ne!(phase, "over");
    if seat == "yellow" {
        host.send(next_request(&game)).await;
    }
    let action = host.recv_until(|m| m["t"] == "action").await;
    assert_eq!(action["seat"], seat.as_str(), "{action}");
    (action, seat)
}

/// Starts the game of a two-player room and closes the guest's (red's) connection.
async fn start_and_lose_red(host: &mut Client, guest: Client) {
    host.send(json!({"t": "start"})).await;
    host.recv_until(|m| m["t"] == "game").await;
    guest.close().await;
    host.recv_until(|m| m["t"] == "room" && m["room"]["seats"]["red"]["connected"] == false)
        .await;
}

/// Whether the turn has passed from `seat` (or the game is over) after this action.
fn turn_passed(action: &Value, seat: &str) -> bool {
    let (phase, to_act, _) = turn_of(&action["game"]);
    to_act != seat || phase == "over"
}

#[tokio::test]
async fn actions_played_when_the_clock_runs_out_say_clock_for_the_rest_of_the_turn() {
    // A 30-second clock lasts 1.5 s here (50 ms a clock second), so that the people below
    // comfortably play their own turns in time.
    let server = spawn_server_with(|c| c.clock_second_ms = 50).await;
    let (_code, mut host, mut guest) =
        support::two_player_room(&server, json!({"clock": 30})).await;
    host.send(json!({"t": "start"})).await;
    let started = host.recv_until(|m| m["t"] == "game").await;
    assert_eq!(turn_of(&started["game"]).1, "yellow");
    // The host is connected but does nothing: the CPU plays yellow's whole first turn.
    let mut stood_in = 0;
    loop {
        let action = host.recv_until(|m| m["t"] == "action").await;
        assert_eq!(action["seat"], "yellow", "{action}");
        assert_eq!(stand_in(&action), Some("clock"), "{action}");
        stood_in += 1;
        if turn_passed(&action, "yellow") {
            break;
        }
    }
    assert!(stood_in >= 1);
    // Red's turn, then yellow's next: each person plays their own, and nothing says stand_in.
    let mut yellow_own = 0;
    let mut played = stood_in;
    loop {
        let game = host.game.clone().expect("a game is on");
        let (phase, seat, _) = turn_of(&game);
        assert_ne!(phase, "over");
        let player: &mut Client = if seat == "yellow" {
            &mut host
        } else {
            &mut guest
        };
        player.send(next_request(&game)).await;
        let action = host.recv_until(|m| m["t"] == "action").await;
        assert_eq!(action["seat"], seat.as_str(), "{action}");
        assert_eq!(stand_in(&action), None, "{action}");
        played += 1;
        if seat == "yellow" {
            yellow_own += 1;
            if turn_passed(&action, "yellow") {
                break;
            }
        }
    }
    assert!(yellow_own >= 1);
    // The record says which actions the CPU played for yellow, and why: the first turn's, only.
    let id = host.game.as_ref().expect("a game is on")["id"]
        .as_str()
        .expect("a game id")
        .to_owned();
    let (status, body) = http(server.addr, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(status, 200, "{body}");
    let record: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        record["actions"].as_array().unwrap().len(),
        played,
        "{body}"
    );
    let expected: serde_json::Map<String, Value> = (0..stood_in)
        .map(|index| (index.to_string(), json!("clock")))
        .collect();
    assert_eq!(record["stand_ins"], Value::Object(expected), "{body}");
}

#[tokio::test]
async fn actions_the_cpu_plays_for_a_person_who_left_say_away() {
    let server = spawn_server_with(|_| {}).await;
    let (_code, mut host, guest) = support::two_player_room(&server, json!({})).await;
    start_and_lose_red(&mut host, guest).await;
    // The host plays yellow; red's turns are played by the CPU after the grace period.
    let mut red_turns = 0;
    while red_turns < 2 {
        let (action, seat) = host_plays_yellow(&mut host).await;
        if seat == "red" {
            assert_eq!(stand_in(&action), Some("away"), "{action}");
            if turn_passed(&action, "red") {
                red_turns += 1;
            }
        } else {
            assert_eq!(stand_in(&action), None, "{action}");
        }
    }
}

#[tokio::test]
async fn a_person_who_left_is_stood_in_for_as_away_when_the_grace_period_ends_before_the_clock() {
    // A 60-second clock lasts 6 s here; the grace period is 300 ms.
    let server = spawn_server_with(|c| c.clock_second_ms = 100).await;
    let (_code, mut host, guest) = support::two_player_room(&server, json!({"clock": 60})).await;
    start_and_lose_red(&mut host, guest).await;
    loop {
        let (action, _) = host_plays_yellow(&mut host).await;
        if action["seat"] == "red" {
            assert_eq!(stand_in(&action), Some("away"), "{action}");
            if turn_passed(&action, "red") {
                break;
            }
        } else {
            assert_eq!(stand_in(&action), None, "{action}");
        }
    }
}

#[tokio::test]
async fn a_cpu_seats_actions_carry_no_stand_in() {
    let (_server, mut host) = host_and_cpu().await;
    host.send(json!({"t": "start"})).await;
    host.recv_until(|m| m["t"] == "game").await;
    let mut cpu_actions = 0;
    while cpu_actions < 5 {
        let (action, _) = host_plays_yellow(&mut host).await;
        assert_eq!(stand_in(&action), None, "{action}");
        if action["seat"] == "red" {
            cpu_actions += 1;
        }
    }
}

#[tokio::test]
async fn a_person_away_longer_than_the_grace_period_is_played_for_at_once_on_their_later_turns() {
    // A grace period of 2 s and CPUs without delay: the first of red's turns waits for the grace
    // period; the later ones are played as soon as they begin, not 2 s each.
    let server = spawn_server_with(|c| c.grace_ms = 2000).await;
    let (_code, mut host, guest) = support::two_player_room(&server, json!({})).await;
    start_and_lose_red(&mut host, guest).await;
    let gone = std::time::Instant::now();
    let mut red_turns = 0;
    let mut red_to_play_since = None;
    while red_turns < 3 {
        let (action, seat) = host_plays_yellow(&mut host).await;
        let now = std::time::Instant::now();
        if seat == "red" {
            assert_eq!(stand_in(&action), Some("away"), "{action}");
            if let Some(since) = red_to_play_since.take() {
                let waited = now - since;
                if red_turns == 0 {
                    assert!(
                        now - gone >= std::time::Duration::from_millis(1500),
                        "{waited:?}"
                    );
                } else {
                    assert!(
                        waited < std::time::Duration::from_millis(1000),
                        "{waited:?}"
                    );
                }
            }
            if turn_passed(&action, "red") {
                red_turns += 1;
            }
        }
        let (phase, to_act, _) = turn_of(&action["game"]);
        if phase != "over" && to_act == "red" && (seat != "red" || turn_passed(&action, "red")) {
            red_to_play_since = Some(now);
        }
        if phase == "over" {
            break;
        }
    }
    assert!(red_turns >= 2, "red played {red_turns} turns");
}

/// Qdan rules where a seat with no piece out throws up to three times: a game's first turn
/// always has more than one throw, unless its first is a 6 (which leaves a move to make).
fn rules_with_three_tries() -> Value {
    json!({"preset": "qdan", "no_piece_out": "three_tries"})
}

/// Sleeps until the Unix millisecond `at`, if it is still to come.
async fn sleep_until_ms(at: i64) {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    if at > now {
        tokio::time::sleep(std::time::Duration::from_millis((at - now) as u64)).await;
    }
}

#[tokio::test]
async fn a_person_out_of_time_is_refused_until_their_next_turn() {
    // A 30-second clock lasts 600 ms here; the CPU acts 1 s after the last action, so that a
    // request sent just after the deadline reaches the room before the CPU's first action.
    let server = spawn_server_with(|c| {
        c.clock_second_ms = 20;
        c.cpu_delay_ms = 1000;
    })
    .await;
    let settings = json!({"clock": 30, "rules": rules_with_three_tries()});
    let (_code, mut host) = host_and_cpu_in(&server, settings, "Host", "random").await;
    host.send(json!({"t": "start"})).await;
    let started = host.recv_until(|m| m["t"] == "game").await;
    assert_eq!(turn_of(&started["game"]).1, "yellow");
    let deadline = started["game"]["deadline"]
        .as_i64()
        .expect("a person's own turn has a deadline");
    // Past the deadline the turn is the CPU's, though it has not acted yet.
    sleep_until_ms(deadline + 50).await;
    host.send(json!({"t": "roll", "version": 0})).await;
    assert_eq!(host.error_code().await, "out_of_time");
    // The CPU plays the whole rest of the turn; each request of the person meanwhile, on the
    // current version, is refused the same way; nobody is shown a clock.
    let mut stood_in = 0;
    loop {
        let action = host.recv_until(|m| m["t"] == "action").await;
        assert_eq!(action["seat"], "yellow", "{action}");
        assert_eq!(action["stand_in"], "clock", "{action}");
        stood_in += 1;
        if turn_passed(&action, "yellow") {
            break;
        }
        assert!(action["game"]["deadline"].is_null(), "{action}");
        host.send(next_request(&action["game"])).await;
        assert_eq!(host.error_code().await, "out_of_time");
    }
    assert!(stood_in >= 2, "three tries or a move: {stood_in} actions");
    // The CPU seat's turn shows no deadline either.
    let mut game = host.game.clone().expect("a game is on");
    while turn_of(&game).1 == "red" {
        assert!(game["deadline"].is_null(), "{game}");
        let action = host.recv_until(|m| m["t"] == "action").await;
        assert_eq!(action["seat"], "red", "{action}");
        assert_eq!(stand_in(&action), None, "{action}");
        game = action["game"].clone();
    }
    // The next turn is the person's again, with a fresh deadline, and their request is played.
    assert_eq!(turn_of(&game).1, "yellow", "{game}");
    assert!(game["deadline"].as_i64().expect("a deadline") > deadline);
    host.send(next_request(&game)).await;
    let action = host.recv_until(|m| m["t"] == "action").await;
    assert_eq!(action["seat"], "yellow", "{action}");
    assert_eq!(stand_in(&action), None, "{action}");
}

/// What the watcher of a game saw when its host went away at the start of their first turn.
struct HostGone {
    server: support::Server,
    code: String,
    /// A connection without a seat, watching.
    watcher: Client,
    /// The first turn's deadline.
    deadline: i64,
    /// The first action the CPU played for the host, in the middle of their turn.
    first: Value,
}

/// A game of the host (yellow) against a random CPU, under rules with three tries and a clock
/// of `clock` seconds, on a server with `grace_ms`, `cpu_delay_ms` and `clock_second_ms`: the
/// host goes away at the start of their turn and the CPU stands in once the grace period is
/// over, showing no deadline while it does.
async fn host_gone_at_the_start(timings: [u64; 3], clock: u32) -> HostGone {
    let [grace_ms, cpu_delay_ms, clock_second_ms] = timings;
    let server = spawn_server_with(|c| {
        c.grace_ms = grace_ms;
        c.cpu_delay_ms = cpu_delay_ms;
        c.clock_second_ms = clock_second_ms;
    })
    .await;
    let settings = json!({"clock": clock, "rules": rules_with_three_tries()});
    let (code, mut host) = host_and_cpu_in(&server, settings, "Host", "random").await;
    let mut watcher = Client::join(server.addr, &code, "stand-in-watcher-0003", "Watcher").await;
    host.send(json!({"t": "start"})).await;
    let started = watcher.recv_until(|m| m["t"] == "game").await;
    let deadline = started["game"]["deadline"].as_i64().expect("a deadline");
    host.close().await;
    let first = watcher.recv_until(|m| m["t"] == "action").await;
    assert_eq!(first["seat"], "yellow", "{first}");
    assert_eq!(first["stand_in"], "away", "{first}");
    assert!(
        !turn_passed(&first, "yellow"),
        "three tries or a move: {first}"
    );
    assert!(first["game"]["deadline"].is_null(), "{first}");
    HostGone {
        server,
        code,
        watcher,
        deadline,
        first,
    }
}

#[tokio::test]
async fn a_person_back_from_away_takes_the_rest_of_the_turn_from_the_cpu_at_once() {
    // A grace period of 200 ms; the CPU acts 700 ms after the last action, time enough to come
    // back between two of its actions; a 60-second clock lasting 6 s.
    let HostGone {
        server,
        code,
        mut watcher,
        deadline,
        first,
    } = host_gone_at_the_start([200, 700, 100], 60).await;
    // Back in the middle of the turn: the welcome gives them the turn, and its deadline.
    let mut host = Client::join(server.addr, &code, HOST, "Host").await;
    let game = host.game.clone().expect("the welcome carries the game");
    assert_eq!(
        game["version"], first["game"]["version"],
        "the CPU played no more"
    );
    assert_eq!(turn_of(&game).1, "yellow");
    assert_eq!(
        game["deadline"], deadline,
        "the turn's deadline, shown again"
    );
    // They play the rest of the turn themselves; the CPU plays none of it.
    loop {
        let game = host.game.clone().expect("a game is on");
        host.send(next_request(&game)).await;
        let action = watcher.recv_until(|m| m["t"] == "action").await;
        assert_eq!(action["seat"], "yellow", "{action}");
        assert_eq!(stand_in(&action), None, "{action}");
        host.recv_until(|m| m["t"] == "action").await;
        if turn_passed(&action, "yellow") {
            break;
        }
        assert_eq!(action["game"]["deadline"], deadline, "{action}");
    }
}

#[tokio::test]
async fn a_person_back_after_their_clock_ran_out_leaves_the_rest_of_the_turn_to_the_cpu() {
    // A grace period of 200 ms, a 30-second clock lasting 600 ms, and the CPU acting 1 s after
    // the last action: it stands in because the host is away, and by the time they are back
    // their clock has run out as well.
    let HostGone {
        server,
        code,
        mut watcher,
        deadline,
        ..
    } = host_gone_at_the_start([200, 1000, 20], 30).await;
    sleep_until_ms(deadline).await;
    // Back, but out of time: no deadline to show, and the CPU plays on, now for the clock.
    let mut host = Client::join(server.addr, &code, HOST, "Host").await;
    let game = host.game.clone().expect("the welcome carries the game");
    assert_eq!(turn_of(&game).1, "yellow");
    assert!(game["deadline"].is_null(), "{game}");
    host.send(next_request(&game)).await;
    assert_eq!(host.error_code().await, "out_of_time");
    let next = watcher.recv_until(|m| m["t"] == "action").await;
    assert_eq!(next["seat"], "yellow", "{next}");
    assert_eq!(next["stand_in"], "clock", "{next}");
}
