//! The order of checks for `roll` and `move`, with several faults at once: the first failing
//! check decides the code (a game is on, the sender plays in it, it is not over, it is their
//! turn, the version is current, the rules allow it), and each refusal changes nothing. Also the
//! refusals the other files do not produce: `no_game`, `not_enough_players`,
//! `seeking_elsewhere`, `remove_cpu` where no CPU sits, and `expert_unavailable`.

mod support;

use std::net::SocketAddr;

use serde_json::{Value, json};
use support::{Client, HOST, create_room, play_until_over, spawn_server, turn_of};

/// The room's seats and game as a connection joining now is welcomed with them.
async fn as_welcomed(addr: SocketAddr, code: &str) -> Value {
    let welcome = support::welcome(addr, code, "order-probe-device-9").await;
    json!({"seats": welcome["room"]["seats"].clone(), "game": welcome["game"].clone()})
}

/// Sends `request` from `client` and returns the refusal's code.
async fn refused(client: &mut Client, request: Value) -> String {
    client.send(request).await;
    client.error_code().await
}

#[tokio::test]
async fn the_first_failing_check_decides_the_refusal_when_several_fail_at_once() {
    let server = spawn_server().await;
    let (code, mut host, mut guest) = support::two_player_room(&server, json!({})).await;
    let mut watcher = Client::join(server.addr, &code, "order-watcher-device-3", "Cy").await;
    let bad_roll = json!({"t": "roll", "version": 7});
    let bad_move = json!({"t": "move", "piece": 3, "version": 7});

    // No game yet: a watcher, with a stale version and a move out of phase, is told `no_game`.
    for request in [&bad_roll, &bad_move] {
        assert_eq!(refused(&mut watcher, request.clone()).await, "no_game");
        assert_eq!(refused(&mut guest, request.clone()).await, "no_game");
    }

    host.send(json!({"t": "start"})).await;
    host.recv_until(|m| m["t"] == "game").await;
    guest.recv_until(|m| m["t"] == "game").await;
    let before = as_welcomed(server.addr, &code).await;
    let (phase, seat, version) = turn_of(&before["game"]);
    assert_eq!(
        (phase.as_str(), seat.as_str(), version),
        ("roll", "yellow", 0)
    );

    // Not seated, out of turn, stale and illegal at once: `not_seated`.
    assert_eq!(refused(&mut watcher, bad_move.clone()).await, "not_seated");
    // Out of turn, stale and illegal: `not_your_turn`.
    assert_eq!(refused(&mut guest, bad_move.clone()).await, "not_your_turn");
    // Stale and illegal (a move in phase roll): `stale_version`, followed by the game as it is.
    assert_eq!(refused(&mut host, bad_move.clone()).await, "stale_version");
    let resent = host.recv().await;
    assert_eq!(resent["t"], "game", "{resent}");
    assert_eq!(resent["game"], before["game"]);
    // Illegal alone: `illegal_move`, with the engine's reason.
    host.send(json!({"t": "move", "piece": 0, "version": 0}))
        .await;
    let error = host.recv_until(|m| m["t"] == "error").await;
    assert_eq!(error["code"], "illegal_move", "{error}");
    assert_eq!(error["engine"]["code"], "wrong_phase", "{error}");
    assert_eq!(
        as_welcomed(server.addr, &code).await,
        before,
        "nothing changed"
    );

    // Over, out of turn (nobody's turn) and stale: `game_over`.
    let (over, _) = tokio::join!(
        play_until_over(&mut host, "yellow"),
        play_until_over(&mut guest, "red")
    );
    let after = as_welcomed(server.addr, &code).await;
    for client in [&mut host, &mut guest] {
        assert_eq!(refused(client, bad_roll.clone()).await, "game_over");
        let version = over["version"].as_u64().unwrap();
        let current = json!({"t": "roll", "version": version});
        assert_eq!(refused(client, current).await, "game_over");
    }
    assert_eq!(
        refused(&mut watcher, bad_roll.clone()).await,
        "not_seated",
        "a watcher is not seated in a finished game either"
    );
    assert_eq!(
        as_welcomed(server.addr, &code).await,
        after,
        "nothing changed"
    );
}

#[tokio::test]
async fn a_game_needs_two_seats_or_more() {
    let server = spawn_server().await;
    let code = create_room(server.addr, HOST, json!({})).await;
    let mut host = Client::join(server.addr, &code, HOST, "Host").await;
    assert_eq!(
        refused(&mut host, json!({"t": "start"})).await,
        "not_enough_players"
    );
    host.send(json!({"t": "sit", "colour": "yellow"})).await;
    host.recv_until(|m| m["t"] == "room" && !m["room"]["seats"]["yellow"].is_null())
        .await;
    assert_eq!(
        refused(&mut host, json!({"t": "start"})).await,
        "not_enough_players"
    );
    assert!(as_welcomed(server.addr, &code).await["game"].is_null());
}

#[tokio::test]
async fn removing_a_cpu_where_none_sits_is_refused_and_changes_nothing() {
    let server = spawn_server().await;
    let (code, mut host) = support::host_and_cpu_in(&server, json!({}), "Host", "easy").await;
    let before = as_welcomed(server.addr, &code).await;
    for colour in ["green", "yellow"] {
        let request = json!({"t": "remove_cpu", "colour": colour});
        host.send(request).await;
        let error = host.recv_until(|m| m["t"] == "error").await;
        assert_eq!(error["code"], "bad_message", "{error}");
        assert_eq!(error["message"], format!("no CPU sits at {colour}"));
    }
    assert_eq!(as_welcomed(server.addr, &code).await, before);
}

#[tokio::test]
async fn an_expert_cpu_is_refused_where_it_has_no_network_and_nothing_changes() {
    let server = spawn_server().await;
    let (code, mut host) = support::host_and_cpu_in(&server, json!({}), "Host", "expert").await;
    let before = as_welcomed(server.addr, &code).await;
    // The rules do not change under it to house rules, where it would play as `hard`.
    let house = json!({"preset": "qdan", "stacking": false});
    host.send(json!({"t": "settings", "rules": house})).await;
    let refusal = host.refusal().await;
    assert_eq!(refusal["code"], "expert_unavailable");
    assert_eq!(
        refusal["message"],
        "expert plays only without house rules: seat another level"
    );
    assert_eq!(as_welcomed(server.addr, &code).await, before);
    // Under house rules, it is not seated at all.
    let other = create_room(server.addr, HOST, json!({"rules": house})).await;
    let mut at_other = Client::join(server.addr, &other, HOST, "Host").await;
    let add = json!({"t": "add_cpu", "colour": "red", "level": "expert"});
    assert_eq!(refused(&mut at_other, add).await, "expert_unavailable");
    assert!(as_welcomed(server.addr, &other).await["seats"]["red"].is_null());
}

#[tokio::test]
async fn a_second_search_from_the_same_device_ends_the_first_with_seeking_elsewhere() {
    let server = spawn_server().await;
    let seek = json!({"t": "seek", "device": HOST, "name": "Ana", "rules": "qdan", "size": 2});
    let mut first = Client::connect(server.addr).await;
    first.send(seek.clone()).await;
    first.recv_until(|m| m["t"] == "seeking").await;
    let mut second = Client::connect(server.addr).await;
    second.send(seek).await;
    assert_eq!(first.error_code().await, "seeking_elsewhere");
    second.recv_until(|m| m["t"] == "seeking").await;
}

/// Guards the list: a refusal code added to the server with no test that expects it fails here.
/// A code counts only where a test expects it: inside an `assert!`, `assert_eq!` or
/// `assert_ne!`, or in the table of a `for` loop whose body asserts. A mention anywhere else (a
/// comment, a message built for sending, a refusal merely tolerated) does not count, and the file
/// of texts, which names every code, is left out.
#[test]
fn every_refusal_code_is_expected_by_some_test() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let expected: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .filter(|p| p.file_name().is_some_and(|n| n != "error_texts.rs"))
        .flat_map(|p| expectations(&std::fs::read_to_string(p).unwrap()))
        .collect();
    let untested: Vec<&ludo_server::protocol::RefusalCode> = ludo_server::protocol::REFUSAL_CODES
        .iter()
        .filter(|code| {
            let literal = format!("\"{code}\"");
            !expected.iter().any(|e| e.contains(&literal))
        })
        .collect();
    assert!(untested.is_empty(), "no test expects {untested:?}");
}

#[test]
fn a_code_mentioned_outside_an_assertion_is_not_counted_as_expected() {
    let source = r#"
        // "in_a_comment"
        client.send(json!({"t": "sent_not_expected"})).await;
        client.tolerate("only_tolerated");
        assert_eq!(client.error_code().await, "asserted");
        for (message, code) in [(json!({}), "in_a_table")] {
            assert_eq!(refused(message).await, code);
        }
        for name in ["in_a_loop_without_assert"] {
            send(name);
        }
    "#;
    let found = expectations(source).concat();
    for counted in ["asserted", "in_a_table"] {
        assert!(found.contains(&format!("\"{counted}\"")), "{counted}");
    }
    for ignored in [
        "in_a_comment",
        "sent_not_expected",
        "only_tolerated",
        "in_a_loop_without_assert",
    ] {
        assert!(!found.contains(&format!("\"{ignored}\"")), "{ignored}");
    }
}

/// The parts of a test file's source that say what a test expects: every assertion macro's
/// arguments, and every table a `for` loop with an assertion in its body runs over; comments are
/// left out first.
fn expectations(source: &str) -> Vec<String> {
    let code = without_comments(source);
    let mut parts = Vec::new();
    for macro_name in ["assert!(", "assert_eq!(", "assert_ne!("] {
        for (at, _) in code.match_indices(macro_name) {
            let open = at + macro_name.len() - 1;
            parts.push(code[open..closing(&code, open)].to_owned());
        }
    }
    for (at, _) in code.match_indices("for ") {
        let head = &code[at..];
        let Some(table) = head
            .find(" in [")
            .filter(|&i| !head[..i].contains(['{', ';']))
        else {
            continue;
        };
        let open = at + table + " in ".len();
        let end = closing(&code, open);
        let Some(body) = code[end..].find('{').map(|i| end + i) else {
            continue;
        };
        if code[body..closing(&code, body)].contains("assert") {
            parts.push(code[open..end].to_owned());
        }
    }
    parts
}

/// `source` without its `//` comments (string literals kept whole).
fn without_comments(source: &str) -> String {
    let mut kept = String::with_capacity(source.len());
    let mut chars = source.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        if in_string {
            kept.push(c);
            match c {
                '\\' => kept.extend(chars.next()),
                '"' => in_string = false,
                _ => {}
            }
        } else if c == '/' && chars.peek() == Some(&'/') {
            for skipped in chars.by_ref() {
                if skipped == '\n' {
                    kept.push('\n');
                    break;
                }
            }
        } else {
            in_string = c == '"';
            kept.push(c);
        }
    }
    kept
}

/// Where the bracket opened at byte `open` of `code` closes (string literals skipped), or the
/// end of `code`.
fn closing(code: &str, open: usize) -> usize {
    let (opening, closing) = match code.as_bytes()[open] {
        b'(' => (b'(', b')'),
        b'[' => (b'[', b']'),
        _ => (b'{', b'}'),
    };
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for (i, &b) in code.as_bytes().iter().enumerate().skip(open) {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
        } else if b == b'"' {
            in_string = true;
        } else if b == opening {
            depth += 1;
        } else if b == closing {
            depth -= 1;
            if depth == 0 {
                return i + 1;
            }
        }
    }
    code.len()
}

#[tokio::test]
async fn an_expert_cpu_plays_on_a_board_of_one_arm_per_seat_which_is_no_house_rule_to_it() {
    let server = spawn_server().await;
    let rules = json!({"preset": "classic", "layout": "by_players"});
    let settings = json!({"rules": rules});
    let (code, mut host) = support::host_and_cpu_in(&server, settings, "Host", "expert").await;
    host.send(json!({"t": "start"})).await;
    host.recv_until(|m| m["t"] == "game").await;
    let game = as_welcomed(server.addr, &code).await["game"].clone();
    assert_eq!(game["position"]["rules"]["layout"], "by_players", "{game}");
}
