//! Life around the table over real WebSockets: the host seated on creation, offers of a new
//! game accepted and declined, leaving a game (the CPU plays on, a ranked result counts), the
//! host freeing an away person's seat, quick phrases, and the public lists.

mod support;

use std::time::Duration;

use serde_json::{Value, json};
use support::{
    Client, GUEST, HOST, Server, create_room, http, next_request, spawn_server, spawn_server_with,
    turn_of, two_player_room,
};

/// Plays a game between two people to its end, each acting for their own seat in turn, and
/// both reading every action; the final game.
async fn play_out(a: &mut Client, a_seat: &str, b: &mut Client) -> Value {
    loop {
        let game = a.game.clone().expect("a game is on");
        let (phase, seat, version) = turn_of(&game);
        if phase == "over" {
            return game;
        }
        let actor = if seat == a_seat { &mut *a } else { &mut *b };
        actor.send(next_request(&game)).await;
        let next = |m: &Value| m["t"] == "action" && m["game"]["version"] == version + 1;
        a.recv_until(next).await;
        b.recv_until(next).await;
    }
}

/// A two-person room whose first game has been played to its end.
async fn after_a_game(server: &Server) -> (String, Client, Client) {
    let (code, mut host, mut guest) = two_player_room(server, json!({})).await;
    host.send(json!({"t": "start"})).await;
    host.recv_until(|m| m["t"] == "game").await;
    guest.recv_until(|m| m["t"] == "game").await;
    play_out(&mut host, "yellow", &mut guest).await;
    (code, host, guest)
}

/// The table as the server shows it now.
async fn table(server: &Server, code: &str) -> Value {
    let (status, text) = http(server.addr, "GET", &format!("/api/rooms/{code}"), None).await;
    assert_eq!(status, 200, "{text}");
    serde_json::from_str(&text).unwrap()
}

#[tokio::test]
async fn the_host_is_seated_at_yellow_when_the_room_is_made() {
    let server = spawn_server().await;
    let code = create_room(server.addr, HOST, json!({})).await;
    let room = table(&server, &code).await;
    assert_eq!(
        room["seats"]["yellow"]["occupant"]["name"], "Host",
        "{room}"
    );
    assert_eq!(room["seats"].as_object().unwrap().len(), 1, "{room}");
    // Sitting where one already sits changes nothing and is not refused; moving frees it.
    let mut host = Client::join(server.addr, &code, HOST, "Host").await;
    host.send(json!({"t": "sit", "colour": "yellow"})).await;
    host.recv_until(|m| m["t"] == "room").await;
    host.send(json!({"t": "sit", "colour": "green"})).await;
    let moved = host
        .recv_until(|m| m["t"] == "room" && !m["room"]["seats"]["green"].is_null())
        .await;
    assert!(moved["room"]["seats"]["yellow"].is_null(), "{moved}");
}

#[tokio::test]
async fn a_new_game_starts_when_everyone_seated_has_accepted_with_the_next_seat_first() {
    let server = spawn_server().await;
    let (_, mut host, mut guest) = after_a_game(&server).await;
    let first = host.game.clone().unwrap();
    assert!(first["position"]["seats"][0] == "yellow", "{first}");

    guest.send(json!({"t": "play_again"})).await;
    let offered = |m: &Value| m["t"] == "room" && m["room"]["rematch"] == json!(["red"]);
    host.recv_until(offered).await;
    guest.recv_until(offered).await;
    // Asking again changes nothing.
    guest.send(json!({"t": "play_again"})).await;
    guest.recv_until(offered).await;

    host.send(json!({"t": "play_again"})).await;
    let next = host.recv_until(|m| m["t"] == "game").await;
    guest.recv_until(|m| m["t"] == "game").await;
    assert_ne!(next["game"]["id"], first["id"]);
    assert_eq!(next["game"]["position"]["seats"], json!(["red", "yellow"]));
    assert_eq!(next["game"]["version"], 0);
    // The offer is over once the game starts.
    let room = host.recv_until(|m| m["t"] == "room").await;
    assert!(room["room"]["rematch"].is_null(), "{room}");
}

#[tokio::test]
async fn a_declined_offer_is_withdrawn_for_everyone_and_starts_nothing() {
    let server = spawn_server().await;
    let (code, mut host, mut guest) = after_a_game(&server).await;
    // Nothing to decline before anyone offers.
    guest.send(json!({"t": "decline"})).await;
    assert_eq!(guest.error_code().await, "no_offer");

    host.send(json!({"t": "play_again"})).await;
    guest
        .recv_until(|m| m["t"] == "room" && m["room"]["rematch"] == json!(["yellow"]))
        .await;
    guest.send(json!({"t": "decline"})).await;
    for conn in [&mut host, &mut guest] {
        let declined = conn.recv_until(|m| m["t"] == "declined").await;
        assert_eq!(declined["seat"], "red");
        let room = conn.recv_until(|m| m["t"] == "room").await;
        assert!(room["room"]["rematch"].is_null(), "{room}");
    }
    let room = table(&server, &code).await;
    assert!(room["rematch"].is_null());
    assert_eq!(
        support::welcome(server.addr, &code, HOST).await["game"]["position"]["turn"]["phase"],
        "over",
        "no new game started"
    );
    // A watcher cannot accept for anyone.
    let mut watcher = Client::join(server.addr, &code, "watcher-device-secret-03", "Wat").await;
    watcher.send(json!({"t": "play_again"})).await;
    assert_eq!(watcher.error_code().await, "not_seated");
}

#[tokio::test]
async fn an_acceptance_is_the_persons_and_goes_with_them_when_they_move() {
    let server = spawn_server().await;
    let (code, mut host, mut guest) = after_a_game(&server).await;
    guest.send(json!({"t": "play_again"})).await;
    host.recv_until(|m| m["t"] == "room" && m["room"]["rematch"] == json!(["red"]))
        .await;
    // The guest, alone to have accepted, moves: the offer ends as if cancelled.
    guest.send(json!({"t": "sit", "colour": "green"})).await;
    let declined = host.recv_until(|m| m["t"] == "declined").await;
    assert_eq!(declined["seat"], "red");
    let room = host.recv_until(|m| m["t"] == "room").await;
    assert!(room["room"]["rematch"].is_null(), "{room}");
    assert_eq!(room["room"]["seats"]["green"]["occupant"]["name"], "Guest");
    // Cy sits where the guest sat: whatever the guest accepted there is not his.
    let mut cy = Client::join(server.addr, &code, "cy-device-secret-000004", "Cy").await;
    cy.send(json!({"t": "sit", "colour": "red"})).await;
    cy.recv_until(|m| m["t"] == "room" && !m["room"]["seats"]["red"].is_null())
        .await;
    host.send(json!({"t": "play_again"})).await;
    guest.send(json!({"t": "play_again"})).await;
    let both = |m: &Value| m["t"] == "room" && m["room"]["rematch"] == json!(["yellow", "green"]);
    cy.recv_until(both).await;
    host.recv_until(both).await;
    assert_eq!(
        support::welcome(server.addr, &code, HOST).await["game"]["position"]["turn"]["phase"],
        "over",
        "no game starts before Cy accepts"
    );
    cy.send(json!({"t": "play_again"})).await;
    let game = host.recv_until(|m| m["t"] == "game").await;
    assert_eq!(game["game"]["version"], 0);
}

#[tokio::test]
async fn a_friendly_new_game_does_not_wait_for_someone_gone_and_they_take_their_seat_back() {
    // Someone away holds a new game up for 1.5 s here: longer than a reload.
    let server = spawn_server_with(|c| c.grace_ms = 1500).await;
    let (code, mut host, guest) = after_a_game(&server).await;
    guest.close().await;
    host.recv_until(|m| m["t"] == "room" && m["room"]["seats"]["red"]["connected"] == false)
        .await;
    host.send(json!({"t": "play_again"})).await;
    // First the offer waits for the guest, as for a reload.
    let offered = host
        .recv_until(|m| m["t"] == "room" || m["t"] == "game")
        .await;
    assert_eq!(offered["room"]["rematch"], json!(["yellow"]), "{offered}");
    // Once the guest has been away for the grace period, it starts without them, and the CPU
    // plays their seat.
    let game = host.recv_until(|m| m["t"] == "game").await;
    assert_eq!(game["game"]["position"]["seats"], json!(["red", "yellow"]));
    let action = host.recv_until(|m| m["t"] == "action").await;
    assert_eq!(action["seat"], "red", "{action}");
    assert_eq!(action["stand_in"], "away", "{action}");
    // Back, the guest plays their own turns at once.
    let mut guest = Client::join(server.addr, &code, GUEST, "Guest").await;
    loop {
        let game = guest.game.clone().expect("the game is on");
        let (phase, seat, version) = turn_of(&game);
        assert_ne!(phase, "over", "the guest had a turn of their own");
        let actor = if seat == "red" { &mut guest } else { &mut host };
        actor.send(next_request(&game)).await;
        let next = |m: &Value| m["t"] == "action" && m["game"]["version"] == version + 1;
        host.recv_until(next).await;
        let action = guest.recv_until(next).await;
        if seat == "red" {
            assert!(action.get("stand_in").is_none(), "{action}");
            break;
        }
    }
}

#[tokio::test]
async fn leaving_between_games_frees_the_seat_and_the_others_may_start_again() {
    let server = spawn_server().await;
    let (code, mut host, mut guest) = after_a_game(&server).await;
    host.send(json!({"t": "add_cpu", "colour": "blue", "level": "random"}))
        .await;
    host.send(json!({"t": "play_again"})).await;
    guest
        .recv_until(|m| m["t"] == "room" && m["room"]["rematch"] == json!(["yellow"]))
        .await;
    // The guest leaves rather than answer: everyone left has accepted, so the game starts.
    guest.send(json!({"t": "leave"})).await;
    let game = host.recv_until(|m| m["t"] == "game").await;
    assert_eq!(game["game"]["position"]["seats"], json!(["blue", "yellow"]));
    assert!(table(&server, &code).await["seats"]["red"].is_null());
}

#[tokio::test]
async fn a_person_who_leaves_a_game_is_played_by_the_cpu_to_its_end_then_their_seat_is_freed() {
    let server = spawn_server().await;
    let (code, mut host, mut guest) = two_player_room(&server, json!({})).await;
    host.send(json!({"t": "start"})).await;
    let game = guest.recv_until(|m| m["t"] == "game").await;
    let id = game["game"]["id"].as_str().unwrap().to_owned();

    guest.send(json!({"t": "leave"})).await;
    for conn in [&mut host, &mut guest] {
        let left = conn.recv_until(|m| m["t"] == "left").await;
        assert_eq!(left, json!({"t": "left", "seat": "red", "freed": false}));
        let room = conn.recv_until(|m| m["t"] == "room").await;
        assert_eq!(room["room"]["seats"]["red"]["left"], true, "{room}");
    }
    // They no longer play, nor leave twice.
    let version = guest.game.as_ref().unwrap()["version"].as_u64().unwrap();
    guest.send(json!({"t": "roll", "version": version})).await;
    assert_eq!(guest.error_code().await, "not_seated");
    guest.send(json!({"t": "leave"})).await;
    assert_eq!(guest.error_code().await, "not_seated");

    // The host plays on; every action of red is the CPU's, marked as such.
    let mut red_actions = 0;
    loop {
        let game = host.game.clone().unwrap();
        let (phase, seat, version) = turn_of(&game);
        if phase == "over" {
            break;
        }
        if seat == "yellow" {
            host.send(next_request(&game)).await;
        }
        let action = host
            .recv_until(|m| m["t"] == "action" && m["game"]["version"] == version + 1)
            .await;
        if action["seat"] == "red" {
            red_actions += 1;
            assert_eq!(action["stand_in"], "left", "{action}");
        } else {
            assert!(action.get("stand_in").is_none(), "{action}");
        }
    }
    assert!(red_actions > 0);
    let freed = host
        .recv_until(|m| m["t"] == "room" && m["room"]["seats"]["red"].is_null())
        .await;
    assert_eq!(freed["room"]["seats"]["yellow"]["occupant"]["name"], "Host");
    // The record keeps who played: the person who left is still red's player.
    let (_, record) = http(server.addr, "GET", &format!("/api/games/{id}"), None).await;
    assert!(record.contains("Guest"), "{record}");
    assert!(table(&server, &code).await["seats"]["red"].is_null());
}

#[tokio::test]
async fn leaving_a_ranked_game_still_counts_its_result() {
    let server = spawn_server().await;
    let (_, mut host, mut guest) = two_player_room(&server, json!({"ranked": true})).await;
    support::start_rated(&mut host, &mut guest).await;
    guest.send(json!({"t": "leave"})).await;
    host.recv_until(|m| m["t"] == "left").await;
    support::play_until_over(&mut host, "yellow").await;
    let rated = host.recv_until(|m| m["t"] == "rated").await;
    let changes = rated["changes"].as_array().unwrap();
    assert_eq!(changes.len(), 2, "{rated}");
    assert!(
        changes.iter().any(|c| c["name"] == "Guest"),
        "the one who left is rated too: {rated}"
    );
}

#[tokio::test]
async fn the_host_frees_the_seat_of_someone_away_for_a_while_and_only_then() {
    let server = spawn_server().await;
    let (code, mut host, guest) = two_player_room(&server, json!({})).await;
    let free = json!({"t": "free_seat", "colour": "red"});
    host.send(free.clone()).await;
    assert_eq!(host.error_code().await, "not_away", "the guest is here");
    host.send(json!({"t": "free_seat", "colour": "blue"})).await;
    assert_eq!(
        host.error_code().await,
        "bad_message",
        "nobody sits at blue"
    );
    guest.close().await;
    let away = host
        .recv_until(|m| m["t"] == "room" && m["room"]["seats"]["red"]["connected"] == false)
        .await;
    assert!(away["room"]["seats"]["red"]["away_since"].as_i64().unwrap() > 0);
    host.send(free.clone()).await;
    assert_eq!(host.error_code().await, "not_away", "not away for long yet");
    // Away long enough (half a second in tests): the seat is freed.
    tokio::time::sleep(Duration::from_millis(600)).await;
    host.send(free).await;
    host.recv_until(|m| m["t"] == "room" && m["room"]["seats"]["red"].is_null())
        .await;
    assert!(table(&server, &code).await["seats"]["red"].is_null());
    // Only the host may, and never at a ranked table.
    let mut other = Client::join(server.addr, &code, GUEST, "Guest").await;
    other
        .send(json!({"t": "free_seat", "colour": "yellow"}))
        .await;
    assert_eq!(other.error_code().await, "not_host");
    let (_, mut host, _guest) = two_player_room(&server, json!({"ranked": true})).await;
    host.send(json!({"t": "free_seat", "colour": "red"})).await;
    assert_eq!(host.error_code().await, "ranked_people_only");
}

#[tokio::test]
async fn a_seat_freed_during_a_game_is_played_by_the_cpu() {
    let server = spawn_server().await;
    let (_, mut host, mut guest) = two_player_room(&server, json!({})).await;
    host.send(json!({"t": "start"})).await;
    guest.recv_until(|m| m["t"] == "game").await;
    guest.close().await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    host.send(json!({"t": "free_seat", "colour": "red"})).await;
    let left = host.recv_until(|m| m["t"] == "left").await;
    assert_eq!(left, json!({"t": "left", "seat": "red", "freed": true}));
    support::play_until_over(&mut host, "yellow").await;
}

#[tokio::test]
async fn quick_phrases_reach_everyone_by_id_within_an_allowance() {
    let server = spawn_server().await;
    let (code, mut host, mut guest) = two_player_room(&server, json!({})).await;
    let mut watcher = Client::join(server.addr, &code, "watcher-device-secret-03", "Wat").await;
    host.send(json!({"t": "say", "phrase": "good_luck"})).await;
    for conn in [&mut host, &mut guest, &mut watcher] {
        let said = conn.recv_until(|m| m["t"] == "said").await;
        assert_eq!(said["phrase"], "good_luck");
        assert_eq!(said["name"], "Host");
        assert_eq!(said["seat"], "yellow");
        assert!(said["from"].as_str().is_some_and(|id| !id.is_empty()));
    }
    watcher
        .send(json!({"t": "say", "phrase": "emoji_clap"}))
        .await;
    let said = guest.recv_until(|m| m["t"] == "said").await;
    assert_eq!(said["name"], "Wat");
    assert!(said.get("seat").is_none(), "a watcher has no seat: {said}");

    // No free text: an unknown id is refused and shown to nobody.
    guest
        .send(json!({"t": "say", "phrase": "buy cheap dice at example.com"}))
        .await;
    assert_eq!(guest.error_code().await, "no_such_phrase");
    // Three at once, then one every few seconds.
    for _ in 0..3 {
        guest.send(json!({"t": "say", "phrase": "oops"})).await;
        guest.recv_until(|m| m["t"] == "said").await;
    }
    guest.send(json!({"t": "say", "phrase": "oops"})).await;
    assert_eq!(guest.error_code().await, "rate_limited");
    // The host's allowance is the host's own.
    host.send(json!({"t": "say", "phrase": "thanks"})).await;
    let said = guest.recv_until(|m| m["t"] == "said").await;
    assert_eq!(said["phrase"], "thanks");
    // Every phrase the protocol lists is accepted (each said by a host at a table of their own:
    // watchers from one address share an allowance).
    for phrase in ludo_server::protocol::PHRASES {
        let device = format!("speaker-{phrase}-0000");
        let code = create_room(server.addr, &device, json!({})).await;
        let mut speaker = Client::join(server.addr, &code, &device, "S").await;
        speaker.send(json!({"t": "say", "phrase": phrase})).await;
        let said = speaker.recv_until(|m| m["t"] == "said").await;
        assert_eq!(said["phrase"], *phrase);
    }
}

/// One of the public lists, whole.
async fn listed(server: &Server, kind: &str) -> Vec<Value> {
    let (status, text) = http(server.addr, "GET", &format!("/api/tables/{kind}"), None).await;
    assert_eq!(status, 200, "{text}");
    let page: Value = serde_json::from_str(&text).unwrap();
    page["tables"].as_array().unwrap().clone()
}

/// Waits (up to 5 s) until the list says whether `code` is in it.
async fn until_listed(server: &Server, kind: &str, code: &str, wanted: bool) -> Option<Value> {
    for _ in 0..250 {
        let found = listed(server, kind)
            .await
            .into_iter()
            .find(|t| t["code"] == code);
        if found.is_some() == wanted {
            return found;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!(
        "{code} never {} the {kind} list",
        if wanted { "in" } else { "out of" }
    );
}

#[tokio::test]
async fn a_public_game_whose_people_have_all_gone_is_no_game_to_watch_until_one_is_back() {
    // The CPU takes its time, so that the game is still on while its people are gone.
    let server = spawn_server_with(|c| c.cpu_delay_ms = 5_000).await;
    let code = create_room(server.addr, HOST, json!({"public": true})).await;
    let mut host = Client::join(server.addr, &code, HOST, "Ana").await;
    host.send(json!({"t": "add_cpu", "colour": "red", "level": "random"}))
        .await;
    host.send(json!({"t": "start"})).await;
    until_listed(&server, "playing", &code, true).await;
    let watcher = Client::join(server.addr, &code, GUEST, "Bo").await;
    host.close().await;
    // Only a watcher and the CPU are left: the game leaves the list, though it goes on.
    until_listed(&server, "playing", &code, false).await;
    let (_, view) = http(server.addr, "GET", &format!("/api/rooms/{code}"), None).await;
    assert!(view.contains("\"watchers\":1"), "{view}");
    let host = Client::join(server.addr, &code, HOST, "Ana").await;
    let game = host.game.as_ref().expect("the game goes on");
    assert_ne!(game["position"]["turn"]["phase"], "over");
    until_listed(&server, "playing", &code, true).await;
    drop(watcher);
}

#[tokio::test]
async fn a_public_table_is_listed_while_a_seat_is_free_then_as_a_game_to_watch() {
    let server = spawn_server().await;
    let private = create_room(server.addr, GUEST, json!({})).await;
    let _at_private = Client::join(server.addr, &private, GUEST, "Host").await;
    let code = create_room(server.addr, HOST, json!({"public": true, "rotate": false})).await;
    // Nobody is at the table yet: not listed.
    assert!(listed(&server, "open").await.is_empty());
    let mut host = Client::join(server.addr, &code, HOST, "Ana").await;
    let open = until_listed(&server, "open", &code, true).await.unwrap();
    assert_eq!(open["taken"], 1);
    assert_eq!(open["clock"], Value::Null);
    assert_eq!(open["players"], json!(["Ana"]));
    assert_eq!(open["rules"], json!({"preset": "qdan"}));
    for colour in ["blue", "red", "green"] {
        host.send(json!({"t": "add_cpu", "colour": colour, "level": "random"}))
            .await;
    }
    // Full: out of the open list.
    until_listed(&server, "open", &code, false).await;
    host.send(json!({"t": "start"})).await;
    let playing = until_listed(&server, "playing", &code, true).await.unwrap();
    assert_eq!(playing["players"][1], "cpu:random", "{playing}");
    assert!(playing["playing_since"].as_i64().unwrap() > 0);
    // A watcher sees the board and the game as it goes.
    let mut watcher = Client::join(server.addr, &code, GUEST, "Bo").await;
    assert!(watcher.game.is_some(), "the watcher is shown the game");
    // The private room never shows.
    for kind in ["open", "playing"] {
        assert!(
            listed(&server, kind)
                .await
                .iter()
                .all(|t| t["code"] != private),
            "a private room is listed"
        );
    }
    // Over: out of the games to watch; a seat freed puts it back among the open tables, until
    // the host makes it private.
    support::play_until_over(&mut host, "yellow").await;
    let seen = watcher.recv_until(|m| m["t"] == "action").await;
    assert_eq!(
        seen["game"]["version"], 1,
        "the watcher saw the game from its start"
    );
    until_listed(&server, "playing", &code, false).await;
    host.send(json!({"t": "remove_cpu", "colour": "green"}))
        .await;
    until_listed(&server, "open", &code, true).await;
    host.send(json!({"t": "settings", "public": false})).await;
    until_listed(&server, "open", &code, false).await;
    // The lists refuse what they do not know.
    let (status, _) = http(server.addr, "GET", "/api/tables/secret", None).await;
    assert_eq!(status, 404);
    let (status, _) = http(server.addr, "GET", "/api/tables/open?page=x", None).await;
    assert_eq!(status, 400);
}

#[tokio::test]
async fn one_address_keeps_at_most_three_tables_listed_and_a_watcher_keeps_none() {
    let server = spawn_server().await;
    let mut hosts = Vec::new();
    for n in 0..5 {
        let device = format!("flooding-host-device-{n}");
        let code = create_room(server.addr, &device, json!({"public": true})).await;
        hosts.push((
            code.clone(),
            Client::join(server.addr, &code, &device, "Flood").await,
        ));
        // Each a moment apart, so that the newest are known.
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let newest = hosts[4].0.clone();
    until_listed(&server, "open", &newest, true).await;
    let open = listed(&server, "open").await;
    assert_eq!(open.len(), 3, "{open:?}");
    assert!(
        open.iter().all(|t| t.get("addresses").is_none()),
        "{open:?}"
    );
    // The host of the newest goes; a watcher stays: the table leaves the list, and an older one
    // of the same address takes its place.
    let _watcher = Client::join(server.addr, &newest, GUEST, "Eve").await;
    let (_, host) = hosts.pop().unwrap();
    host.close().await;
    until_listed(&server, "open", &newest, false).await;
    assert_eq!(listed(&server, "open").await.len(), 3);
}
