//! Whole online games over real WebSockets against the real server and a real SQLite file.

mod support;

use ludo_fair::Record;
use serde_json::{Value, json};
use support::{
    Client, GUEST, HOST, create_room, host_and_cpu, host_and_cpu_with, http, play_until_over,
    spawn_server, turn_of,
};

/// A fresh server with a two-player room.
async fn two_player_room(settings: Value) -> (support::Server, String, Client, Client) {
    let server = spawn_server().await;
    let (code, host, guest) = support::two_player_room(&server, settings).await;
    (server, code, host, guest)
}

#[tokio::test]
async fn a_full_two_player_game_is_played_to_the_end_and_its_record_verifies() {
    let (server, _code, mut host, mut guest) = two_player_room(json!({})).await;
    host.send(json!({"t": "start"})).await;
    let started = guest.recv_until(|m| m["t"] == "game").await;
    let commitment = started["game"]["commitment"].as_str().unwrap().to_owned();
    assert_eq!(started["game"]["seed"], Value::Null);
    let (end_host, end_guest) = tokio::join!(
        play_until_over(&mut host, "yellow"),
        play_until_over(&mut guest, "red")
    );
    assert_eq!(end_host["position"], end_guest["position"]);
    let places = &end_host["position"]["places"];
    assert!(
        places["yellow"].is_u64() && places["red"].is_u64(),
        "{places}"
    );
    // The record, fetched over HTTP, reveals the seed and verifies against the commitment.
    let id = end_host["id"].as_str().unwrap();
    let (status, body) = http(server.addr, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(status, 200, "{body}");
    let record: Record = serde_json::from_str(&body).unwrap();
    assert_eq!(record.commitment, commitment);
    let end = record.verify().expect("the record verifies");
    assert_eq!(
        serde_json::to_value(end.to_setup()).unwrap(),
        end_host["position"]
    );
    assert_eq!(
        record.actions.len() as u64,
        end_host["version"].as_u64().unwrap()
    );
}

#[tokio::test]
async fn a_four_seat_game_with_two_cpus_plays_to_the_end() {
    let (_server, _code, mut host, mut guest) = two_player_room(json!({})).await;
    for (colour, level) in [("blue", "medium"), ("green", "easy")] {
        host.send(json!({"t": "add_cpu", "colour": colour, "level": level}))
            .await;
        host.recv_until(|m| m["t"] == "room" && !m["room"]["seats"][colour].is_null())
            .await;
    }
    host.send(json!({"t": "start"})).await;
    host.recv_until(|m| m["t"] == "game").await;
    let (end, _) = tokio::join!(
        play_until_over(&mut host, "yellow"),
        play_until_over(&mut guest, "red")
    );
    let places = &end["position"]["places"];
    for colour in ["yellow", "blue", "red", "green"] {
        assert!(places[colour].is_u64(), "{places}");
    }
}

#[tokio::test]
async fn a_player_who_drops_gets_the_seat_back_and_the_cpu_played_meanwhile() {
    let (server, code, mut host, guest) = two_player_room(json!({})).await;
    host.send(json!({"t": "start"})).await;
    host.recv_until(|m| m["t"] == "game").await;
    guest.close().await;
    // The host plays on; red's turns are played by the CPU after the grace period.
    let mut red_actions = 0;
    let mut acted_on = None;
    while red_actions < 3 {
        let game = host.game.clone().unwrap();
        let (phase, seat, version) = turn_of(&game);
        assert_ne!(phase, "over", "the game ended before the guest came back");
        if seat == "yellow" && acted_on != Some(version) {
            acted_on = Some(version);
            host.send(support::next_request(&game)).await;
        }
        let message = host.recv().await;
        if message["t"] == "action" && message["seat"] == "red" {
            red_actions += 1;
        }
    }
    // The guest comes back on the same device: the seat is theirs, the game where it is.
    let mut back = Client::join(server.addr, &code, GUEST, "Guest").await;
    // The CPU may still be playing red's turn, for which the guest's first request can come too
    // late: refused as stale, or as not red's turn once the CPU has ended it.
    back.tolerate("stale_version");
    back.tolerate("not_your_turn");
    let game = back.game.clone().expect("the welcome carries the game");
    assert!(game["version"].as_u64().unwrap() >= 3);
    let welcome_room = {
        let (status, body) = http(server.addr, "GET", &format!("/api/rooms/{code}"), None).await;
        assert_eq!(status, 200);
        serde_json::from_str::<Value>(&body).unwrap()
    };
    assert_eq!(
        welcome_room["seats"]["red"]["occupant"]["id"],
        back.you.as_str()
    );
    assert_eq!(welcome_room["seats"]["red"]["connected"], true);
    let (end, _) = tokio::join!(
        play_until_over(&mut back, "red"),
        play_until_over(&mut host, "yellow")
    );
    assert!(end["position"]["places"]["red"].is_u64());
}

#[tokio::test]
async fn when_the_turn_clock_runs_out_the_cpu_plays_the_turn() {
    // A 30-second clock; in tests a clock second lasts 10 ms.
    let (_server, _code, mut host, _guest) = two_player_room(json!({"clock": 30})).await;
    host.send(json!({"t": "start"})).await;
    let started = host.recv_until(|m| m["t"] == "game").await;
    let deadline = started["game"]["deadline"].as_i64().expect("a deadline");
    assert!(deadline > 0);
    // Nobody acts: the CPU throws for yellow when the clock runs out.
    let action = host.recv_until(|m| m["t"] == "action").await;
    assert_eq!(action["seat"], "yellow");
    assert!(action["action"]["throw"].is_array(), "{action}");
}

#[tokio::test]
async fn play_again_keeps_the_table_and_the_next_seat_starts() {
    let (_server, mut host) = host_and_cpu().await;
    host.send(json!({"t": "start"})).await;
    let first = host.recv_until(|m| m["t"] == "game").await;
    assert_eq!(first["game"]["position"]["seats"], json!(["yellow", "red"]));
    let end = play_until_over(&mut host, "yellow").await;
    host.send(json!({"t": "play_again"})).await;
    let second = host.recv_until(|m| m["t"] == "game").await;
    assert_ne!(second["game"]["id"], end["id"]);
    assert_eq!(
        second["game"]["position"]["seats"],
        json!(["red", "yellow"])
    );
    assert_eq!(second["game"]["version"], 0);
}

#[tokio::test]
async fn a_table_that_does_not_rotate_starts_every_game_with_the_same_seat() {
    let (server, mut host) = host_and_cpu_with(json!({"rotate": false})).await;
    host.send(json!({"t": "start"})).await;
    let first = host.recv_until(|m| m["t"] == "game").await;
    assert_eq!(first["game"]["position"]["seats"], json!(["yellow", "red"]));
    play_until_over(&mut host, "yellow").await;
    host.send(json!({"t": "play_again"})).await;
    let second = host.recv_until(|m| m["t"] == "game").await;
    assert_eq!(
        second["game"]["position"]["seats"],
        json!(["yellow", "red"])
    );
    // A ranked table always passes the first throw on.
    let body = json!({"device": HOST, "name": "Host", "ranked": true, "rotate": false});
    let (status, text) = http(server.addr, "POST", "/api/rooms", Some(&body.to_string())).await;
    assert_eq!(status, 400, "{text}");
    assert!(text.contains("unranked_rules"), "{text}");
    // Rooms say whether they rotate; by default they do.
    for (asked, said) in [
        (json!({}), r#""rotate":true"#),
        (json!({"rotate": false}), r#""rotate":false"#),
    ] {
        let code = create_room(server.addr, GUEST, asked).await;
        let (_, room) = http(server.addr, "GET", &format!("/api/rooms/{code}"), None).await;
        assert!(room.contains(said), "{room}");
    }
}

#[tokio::test]
async fn metrics_count_rooms_connections_and_actions() {
    let (server, mut host) = host_and_cpu().await;
    host.send(json!({"t": "start"})).await;
    host.recv_until(|m| m["t"] == "game").await;
    host.send(json!({"t": "roll", "version": 0})).await;
    host.recv_until(|m| m["t"] == "action").await;
    let (status, metrics) = http(server.addr, "GET", "/metrics", None).await;
    assert_eq!(status, 200);
    let value = |name: &str| -> u64 {
        metrics
            .lines()
            .find_map(|l| l.strip_prefix(&format!("{name} ")))
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("no {name} in {metrics}"))
    };
    assert_eq!(value("ludo_rooms"), 1);
    assert_eq!(value("ludo_connections"), 1);
    assert!(value("ludo_actions_total") >= 1);
    assert!(value("ludo_messages_total") >= 4);
}

#[tokio::test]
async fn the_host_changes_rules_clock_and_rotation_at_the_table_until_a_game_starts() {
    let (server, code, mut host, mut guest) = two_player_room(json!({})).await;
    let room_now = || async {
        let (_, room) = http(server.addr, "GET", &format!("/api/rooms/{code}"), None).await;
        serde_json::from_str::<Value>(&room).unwrap()["settings"].clone()
    };
    let before = room_now().await;

    guest.send(json!({"t": "settings", "clock": 30})).await;
    assert_eq!(guest.error_code().await, "not_host");

    let change = json!({"t": "settings", "rules": {"preset": "classic", "safe": "starts"},
                        "clock": 30, "rotate": false});
    host.send(change).await;
    for client in [&mut host, &mut guest] {
        let told = client
            .recv_until(|m| m["t"] == "room" && m["room"]["settings"]["clock"] == 30)
            .await;
        let settings = &told["room"]["settings"];
        assert_eq!(settings["rules"]["preset"], "classic", "{settings}");
        assert_eq!(settings["rules"]["safe"], "starts", "{settings}");
        assert_eq!(settings["clock"], 30);
        assert_eq!(settings["rotate"], false);
    }

    // A field left out keeps its value; `null` clears the clock.
    host.send(json!({"t": "settings", "clock": null})).await;
    let told = host
        .recv_until(|m| m["t"] == "room" && m["room"]["settings"]["clock"].is_null())
        .await;
    assert_eq!(told["room"]["settings"]["clock"], Value::Null);
    assert_eq!(told["room"]["settings"]["rules"]["safe"], "starts");
    let changed = room_now().await;
    assert_ne!(changed, before);

    // Contradictory house rules are refused with the engine's reason; nothing changes.
    host.send(json!({"t": "settings", "rules": {"preset": "qdan", "dice": 2}}))
        .await;
    let refusal = host.recv_until(|m| m["t"] == "error").await;
    assert_eq!(refusal["code"], "bad_rules", "{refusal}");
    assert_eq!(refusal["engine"]["code"], "bonus_values_with_two_dice");
    assert_eq!(refusal["engine"]["option"], "bonus_values");
    for (bad, code) in [
        (json!({"t": "settings", "clock": 45}), "bad_message"),
        (json!({"t": "settings", "rules": "chess"}), "bad_message"),
        (json!({"t": "settings", "ranked": true}), "unranked_rules"),
    ] {
        host.send(bad.clone()).await;
        assert_eq!(host.error_code().await, code, "{bad}");
    }
    assert_eq!(room_now().await, changed, "a refusal changes nothing");

    // The game plays the house rules; during it the settings cannot change.
    host.send(json!({"t": "start"})).await;
    let game = host.recv_until(|m| m["t"] == "game").await;
    assert_eq!(
        game["game"]["position"]["rules"]["safe"], "starts",
        "{game}"
    );
    host.send(json!({"t": "settings", "rotate": true})).await;
    assert_eq!(host.error_code().await, "game_on");
}

#[tokio::test]
async fn a_table_with_a_cpu_cannot_become_ranked_and_a_ranked_table_plays_its_preset() {
    let (_server, mut host) = host_and_cpu().await;
    host.send(json!({"t": "settings", "ranked": true})).await;
    assert_eq!(host.error_code().await, "ranked_people_only");
    host.send(json!({"t": "remove_cpu", "colour": "red"})).await;
    host.recv_until(|m| m["t"] == "room" && m["room"]["seats"]["red"].is_null())
        .await;
    host.send(json!({"t": "settings", "ranked": true, "rules": "vietnamese"}))
        .await;
    let told = host
        .recv_until(|m| m["t"] == "room" && m["room"]["settings"]["ranked"] == true)
        .await;
    assert_eq!(
        told["room"]["settings"]["rules"],
        json!({"preset": "vietnamese"}),
        "the preset's own rules"
    );
}
