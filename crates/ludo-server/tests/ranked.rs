//! Ranked play over real sockets and a real SQLite file: matchmaking forms tables, ranked games
//! update ratings in the database, and records, leaderboards and players' pages show them.

mod support;

use std::net::SocketAddr;
use std::path::Path;
use std::time::{Duration, Instant};

use ludo_fair::Record;
use serde_json::{Value, json};
use support::{Client, GUEST, HOST, create_room, http, play_until_over, spawn_server_with};

/// A socket looking for a ranked game, and the first answer it had.
struct Seeker {
    client: Client,
    first: Option<Value>,
}

/// Asks for a ranked game and waits for the first answer, so that requests reach the
/// matchmaker in the order the test makes them.
async fn seek(addr: SocketAddr, device: &str, name: &str, rules: &str, size: Value) -> Seeker {
    let mut client = Client::connect(addr).await;
    client
        .send(json!({"t": "seek", "device": device, "name": name, "rules": rules, "size": size}))
        .await;
    let first = client.recv_or_refusal().await;
    Seeker {
        client,
        first: Some(first),
    }
}

/// Waits for `matched`; the message, and the widest range announced before it.
async fn matched(seeker: &mut Seeker) -> (Value, f64) {
    let mut widest: f64 = 0.0;
    loop {
        let message = match seeker.first.take() {
            Some(first) => first,
            None => seeker.client.recv().await,
        };
        match message["t"].as_str() {
            Some("seeking") => widest = widest.max(message["range"].as_f64().unwrap()),
            Some("matched") => return (message, widest),
            _ => panic!("unexpected while seeking: {message}"),
        }
    }
}

/// Ana (the host's device) and Bo (the guest's) both ask for a 2-seat table under `rules`; the
/// code of the room they are matched to.
async fn matched_pair(addr: SocketAddr, rules: &str) -> String {
    let mut ana = seek(addr, HOST, "Ana", rules, json!(2)).await;
    let mut bo = seek(addr, GUEST, "Bo", rules, json!(2)).await;
    let ((to_ana, _), _) = tokio::join!(matched(&mut ana), matched(&mut bo));
    to_ana["room"].as_str().unwrap().to_owned()
}

/// The identity id of a device, created by opening a room with it.
async fn identity_of(addr: SocketAddr, device: &str) -> String {
    let body = json!({"device": device, "name": "Someone"}).to_string();
    let (status, text) = http(addr, "POST", "/api/rooms", Some(&body)).await;
    assert_eq!(status, 201, "{text}");
    serde_json::from_str::<Value>(&text).unwrap()["you"]
        .as_str()
        .unwrap()
        .to_owned()
}

fn set_rating(db: &Path, identity: &str, family: &str, rating: f64, games: u32) {
    let db = rusqlite::Connection::open(db).unwrap();
    db.execute(
        "INSERT INTO ratings (identity, family, rating, games, updated_at) VALUES (?1, ?2, ?3, ?4, 0)",
        rusqlite::params![identity, family, rating, games],
    )
    .unwrap();
}

fn stored_rating(db: &Path, identity: &str, family: &str) -> (f64, u32) {
    let db = rusqlite::Connection::open(db).unwrap();
    db.query_row(
        "SELECT rating, games FROM ratings WHERE identity = ?1 AND family = ?2",
        rusqlite::params![identity, family],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
    .unwrap()
}

/// The seat colour of `identity` in a room's welcome.
fn seat_of(welcome: &Value, identity: &str) -> String {
    welcome["room"]["seats"]
        .as_object()
        .unwrap()
        .iter()
        .find(|(_, seat)| seat["occupant"]["id"] == identity)
        .map(|(colour, _)| colour.clone())
        .expect("the player is seated")
}

#[tokio::test]
async fn two_seekers_are_matched_and_their_ranked_game_updates_both_ratings() {
    let server = spawn_server_with(|c| c.grace_ms = 50).await;
    let mut ana = seek(server.addr, HOST, "Ana", "qdan", json!(2)).await;
    let mut bo = seek(server.addr, GUEST, "Bo", "qdan", json!("any")).await;
    let ((to_ana, _), (to_bo, _)) = tokio::join!(matched(&mut ana), matched(&mut bo));
    assert_eq!(to_ana["room"], to_bo["room"]);
    assert_eq!(to_ana["seats"], 2);
    let room = to_ana["room"].as_str().unwrap();

    // The game starts when both have arrived; both play it to the end.
    let mut ana = Client::join(server.addr, room, HOST, "Ana").await;
    assert!(ana.game.is_none(), "no game before everyone is here");
    let mut bo = Client::join(server.addr, room, GUEST, "Bo").await;
    let started = ana.recv_until(|m| m["t"] == "game").await;
    assert_eq!(started["game"]["ranked"], true);
    let (status, view) = http(server.addr, "GET", &format!("/api/rooms/{room}"), None).await;
    assert_eq!(status, 200);
    let view: Value = serde_json::from_str(&view).unwrap();
    assert_eq!(view["settings"]["ranked"], true);
    assert_eq!(view["settings"]["clock"], 60, "a ranked table has a clock");
    let colour = seat_of(&json!({"room": view.clone()}), &ana.you);
    let bo_colour = seat_of(&json!({"room": view}), &bo.you);
    let (end, _) = tokio::join!(
        play_until_over(&mut ana, &colour),
        play_until_over(&mut bo, &bo_colour)
    );
    let rated = ana.recv_until(|m| m["t"] == "rated").await;
    let changes = rated["changes"].as_array().unwrap();
    assert_eq!(changes.len(), 2, "{rated}");

    // Both were new: a provisional K of 64 moves each 32 points, one up and one down.
    let ana_won = end["position"]["places"][&colour] == 1;
    let ana_id = ana.you.clone();
    let bo_id = changes.iter().find(|c| c["id"] != ana_id.as_str()).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let (ana_rating, ana_games) = stored_rating(&server.db, &ana_id, "qdan");
    let (bo_rating, bo_games) = stored_rating(&server.db, &bo_id, "qdan");
    assert_eq!((ana_games, bo_games), (1, 1));
    let (winner, loser) = if ana_won {
        (ana_rating, bo_rating)
    } else {
        (bo_rating, ana_rating)
    };
    assert!((winner - 1532.0).abs() < 1e-9, "{winner}");
    assert!((loser - 1468.0).abs() < 1e-9, "{loser}");

    // The leaderboard, the player's page and the export show it.
    let (status, board) = http(server.addr, "GET", "/api/leaderboard/qdan", None).await;
    assert_eq!(status, 200, "{board}");
    let board: Value = serde_json::from_str(&board).unwrap();
    assert_eq!(board["players"].as_array().unwrap().len(), 2);
    assert!((board["players"][0]["rating"].as_f64().unwrap() - 1532.0).abs() < 1e-9);
    assert_eq!(board["players"][0]["provisional"], true);

    let (status, page) = http(server.addr, "GET", &format!("/api/players/{ana_id}"), None).await;
    assert_eq!(status, 200, "{page}");
    let page: Value = serde_json::from_str(&page).unwrap();
    assert_eq!(page["name"], "Ana");
    assert_eq!(page["history"].as_array().unwrap().len(), 1);
    assert_eq!(page["history"][0]["before"], 1500.0);
    assert!((page["history"][0]["after"].as_f64().unwrap() - ana_rating).abs() < 1e-9);
    assert_eq!(page["stats"]["games"], 1);
    assert_eq!(page["stats"]["wins"], u32::from(ana_won));
    assert_eq!(page["recent"][0]["id"], end["id"]);
    assert_eq!(page["recent"][0]["ranked"], true);

    let id = end["id"].as_str().unwrap();
    let (status, export) = http(server.addr, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(status, 200, "{export}");
    let export: Value = serde_json::from_str(&export).unwrap();
    assert_eq!(export["ranked"], true);
    assert_eq!(export["ratings"].as_array().unwrap().len(), 2);
    assert_eq!(
        export["times"].as_array().unwrap().len(),
        export["actions"].as_array().unwrap().len()
    );
    let record: Record = serde_json::from_value(export).unwrap();
    let replayed = record.verify().expect("the exported dice verify");
    assert_eq!(
        serde_json::to_value(replayed.to_setup()).unwrap(),
        end["position"]
    );
}

#[tokio::test]
async fn a_matched_table_keeps_its_people_and_settings_and_they_may_play_again() {
    let server = spawn_server_with(|c| c.grace_ms = 50).await;
    let room = &matched_pair(server.addr, "classic").await;
    let mut ana = Client::join(server.addr, room, HOST, "Ana").await;
    let mut bo = Client::join(server.addr, room, GUEST, "Bo").await;
    let started = ana.recv_until(|m| m["t"] == "game").await;
    let first = started["game"]["id"].clone();
    let (_, view) = http(server.addr, "GET", &format!("/api/rooms/{room}"), None).await;
    let view: Value = serde_json::from_str(&view).unwrap();
    assert_eq!(view["matched"], true, "{view}");
    let colour = seat_of(&json!({"room": view.clone()}), &ana.you);
    let bo_colour = seat_of(&json!({"room": view.clone()}), &bo.you);
    tokio::join!(
        play_until_over(&mut ana, &colour),
        play_until_over(&mut bo, &bo_colour)
    );

    // After the game, nobody else sits, nobody moves, and the settings stay as formed.
    let free = ["yellow", "blue", "red", "green"]
        .into_iter()
        .find(|c| view["seats"].get(*c).is_none())
        .unwrap();
    let mut cy = Client::join(server.addr, room, "third-device-secret-0003", "Cy").await;
    cy.send(json!({"t": "sit", "colour": free})).await;
    assert_eq!(cy.error_code().await, "matched_table");
    bo.send(json!({"t": "sit", "colour": free})).await;
    assert_eq!(bo.error_code().await, "matched_table");
    let host = if view["host"] == ana.you.as_str() {
        &mut ana
    } else {
        &mut bo
    };
    host.send(json!({"t": "settings", "public": true})).await;
    assert_eq!(host.error_code().await, "matched_table");
    let (_, after) = http(server.addr, "GET", &format!("/api/rooms/{room}"), None).await;
    let after: Value = serde_json::from_str(&after).unwrap();
    assert_eq!(after["seats"], view["seats"].clone(), "nothing moved");
    assert_eq!(after["settings"], view["settings"]);

    // Both accept a new game: it is ranked again, between the same two.
    ana.send(json!({"t": "play_again"})).await;
    bo.send(json!({"t": "play_again"})).await;
    let again = cy
        .recv_until(|m| m["t"] == "game" && m["game"]["id"] != first)
        .await;
    assert_eq!(again["game"]["ranked"], true, "{again}");
}

#[tokio::test]
async fn players_far_apart_are_matched_only_once_their_ranges_widen_enough() {
    let server = spawn_server_with(|c| c.match_second_ms = 40).await;
    let (low, high) = ("low-rated-device-0001", "high-rated-device-0002");
    let low_id = identity_of(server.addr, low).await;
    let high_id = identity_of(server.addr, high).await;
    set_rating(&server.db, &low_id, "classic", 1400.0, 20);
    set_rating(&server.db, &high_id, "classic", 1700.0, 20);
    let began = Instant::now();
    let mut a = seek(server.addr, low, "Low", "classic", json!(2)).await;
    let mut b = seek(server.addr, high, "High", "classic", json!(2)).await;
    let ((to_a, widest_a), (to_b, _)) = tokio::join!(matched(&mut a), matched(&mut b));
    assert_eq!(to_a["room"], to_b["room"]);
    // 300 apart: ranges start at 100 and widen by 25 a second, so eight seconds pass first.
    assert!((200.0..=300.0).contains(&widest_a), "{widest_a}");
    assert!(
        began.elapsed() >= Duration::from_millis(8 * 40),
        "{:?}",
        began.elapsed()
    );
}

/// The next `seeking` a seeker is told (its first answer, then each widening of its range).
async fn next_seeking(seeker: &mut Seeker) -> Value {
    let message = match seeker.first.take() {
        Some(first) => first,
        None => seeker.client.recv().await,
    };
    assert_eq!(message["t"], "seeking", "{message}");
    message
}

#[tokio::test]
async fn a_seeker_is_told_how_many_look_under_the_same_rules_not_under_others() {
    // A matchmaking second of 40 ms: ranges widen, and seekers are told, every 40 ms.
    let server = spawn_server_with(|c| c.match_second_ms = 40).await;
    let mut qdan = seek(server.addr, "looking-device-0001", "Ana", "qdan", json!(2)).await;
    next_seeking(&mut qdan).await;
    // Someone looks under other rules: not counted for Ana, and told of one (themselves).
    let mut classic = seek(
        server.addr,
        "looking-device-0002",
        "Bo",
        "classic",
        json!(2),
    )
    .await;
    for _ in 0..3 {
        assert_eq!(next_seeking(&mut classic).await["waiting"], 1);
        assert_eq!(next_seeking(&mut qdan).await["waiting"], 1);
    }
    // Someone looks under Ana's rules, for a table Ana's wish cannot make: both are counted.
    let mut four = seek(server.addr, "looking-device-0003", "Cy", "qdan", json!(4)).await;
    let mut told = 0;
    for _ in 0..5 {
        told = next_seeking(&mut qdan).await["waiting"].as_u64().unwrap();
        if told == 2 {
            break;
        }
    }
    assert_eq!(told, 2, "Ana is told of Cy");
    assert!(next_seeking(&mut four).await["waiting"].as_u64().unwrap() >= 1);
    assert_eq!(next_seeking(&mut classic).await["waiting"], 1);
}

#[tokio::test]
async fn seekers_form_tables_of_the_sizes_they_asked_for() {
    let server = spawn_server_with(|_| {}).await;
    let devices: Vec<String> = (0..7)
        .map(|i| format!("table-size-device-{i:04}"))
        .collect();
    // Three ask for three seats (one of them through "any"), four ask for four.
    let mut three = Vec::new();
    for (i, size) in [json!(3), json!(3), json!("any")].into_iter().enumerate() {
        three.push(seek(server.addr, &devices[i], "Three", "qdan", size).await);
    }
    let mut four = Vec::new();
    for device in &devices[3..] {
        four.push(seek(server.addr, device, "Four", "qdan", json!(4)).await);
    }
    let mut rooms = std::collections::BTreeMap::<String, Vec<u64>>::new();
    for client in three.iter_mut().chain(four.iter_mut()) {
        let (m, _) = matched(client).await;
        rooms
            .entry(m["room"].as_str().unwrap().to_owned())
            .or_default()
            .push(m["seats"].as_u64().unwrap());
    }
    let mut sizes: Vec<Vec<u64>> = rooms.into_values().collect();
    sizes.sort();
    assert_eq!(sizes, vec![vec![3, 3, 3], vec![4, 4, 4, 4]]);
}

#[tokio::test]
async fn a_vietnamese_ranked_table_has_two_seats_and_bad_seeks_are_refused() {
    let server = spawn_server_with(|_| {}).await;
    let mut bad = Client::connect(server.addr).await;
    bad.send(json!({"t": "seek", "device": HOST, "name": "Ana", "rules": "ludo", "size": 2}))
        .await;
    assert_eq!(bad.error_code().await, "bad_message");
    bad.send(json!({"t": "seek", "device": HOST, "name": "Ana", "rules": "qdan", "size": 5}))
        .await;
    assert_eq!(bad.error_code().await, "bad_message");
    bad.send(json!({"t": "seek", "device": HOST, "name": "", "rules": "qdan", "size": 2}))
        .await;
    assert_eq!(bad.error_code().await, "bad_name");
    // A search no Vietnamese ranked table could ever meet is refused rather than left waiting.
    for size in [3, 4] {
        bad.send(json!({"t": "seek", "device": HOST, "name": "Ana", "rules": "vietnamese", "size": size}))
            .await;
        assert_eq!(bad.error_code().await, "bad_message");
    }
    let mut seekers = Vec::new();
    for i in 0..3 {
        let device = format!("vietnamese-device-{i:04}");
        seekers.push(seek(server.addr, &device, "Viet", "vietnamese", json!("any")).await);
    }
    let (first, _) = matched(&mut seekers[0]).await;
    let (second, _) = matched(&mut seekers[1]).await;
    assert_eq!(first["seats"], 2);
    assert_eq!(first["room"], second["room"]);
    // The third waits, and may not do anything else meanwhile.
    let third = &mut seekers[2].client;
    third.send(json!({"t": "stand"})).await;
    assert_eq!(third.error_code().await, "seeking");
}

#[tokio::test]
async fn a_matched_table_whose_people_do_not_all_arrive_is_cancelled_unplayed_and_unrated_and_the_no_show_waits()
 {
    // One second of matchmaking lasts 20 ms here: the table's people have 600 ms to arrive.
    let server = spawn_server_with(|c| c.match_second_ms = 20).await;
    let room = &matched_pair(server.addr, "qdan").await;
    let mut ana = Client::join(server.addr, room, HOST, "Ana").await;
    let cancelled = ana
        .recv_until(|m| m["t"] == "cancelled" || m["t"] == "game")
        .await;
    assert_eq!(cancelled["t"], "cancelled", "Bo never came: {cancelled}");
    assert!(ana.game.is_none());
    // Nothing was played or rated.
    let db = rusqlite::Connection::open(&server.db).unwrap();
    let (games, ratings): (u32, u32) = db
        .query_row(
            "SELECT (SELECT COUNT(*) FROM games WHERE room = ?1), (SELECT COUNT(*) FROM ratings)",
            rusqlite::params![room],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!((games, ratings), (0, 0));
    // Bo, who never came, must wait before looking again; Ana, who came, may look at once.
    let bo_again = seek(server.addr, GUEST, "Bo", "qdan", json!(2)).await;
    let refusal = bo_again.first.unwrap();
    assert_eq!(refusal["code"], "rate_limited", "{refusal}");
    assert!(
        refusal["message"]
            .as_str()
            .unwrap()
            .contains("did not come"),
        "{refusal}"
    );
    let ana_again = seek(server.addr, HOST, "Ana", "qdan", json!(2)).await;
    assert_eq!(ana_again.first.unwrap()["t"], "seeking");
}

#[tokio::test]
async fn a_connection_looking_for_a_ranked_game_cannot_also_join_a_room() {
    let server = spawn_server_with(|_| {}).await;
    let code = create_room(server.addr, GUEST, json!({})).await;
    let mut ana = seek(server.addr, HOST, "Ana", "qdan", json!(2)).await;
    ana.client
        .send(json!({"t": "hello", "room": code, "device": HOST, "name": "Ana"}))
        .await;
    assert_eq!(ana.client.error_code().await, "seeking");
}

#[tokio::test]
async fn two_searches_from_one_address_never_share_a_table() {
    let server = spawn_server_with(|c| {
        c.match_same_address = false;
        c.match_second_ms = 10;
    })
    .await;
    let mut ana = seek(server.addr, HOST, "Ana", "qdan", json!(2)).await;
    let mut bo = seek(server.addr, GUEST, "Bo", "qdan", json!(2)).await;
    // A table would form at once if they were elsewhere (their ratings are equal); for 50
    // match-seconds, all either hears is that it is still looking.
    for seeker in [&mut ana, &mut bo] {
        let first = seeker.first.take().expect("the first answer");
        assert_eq!(first["t"], "seeking", "{first}");
    }
    let until = tokio::time::Instant::now() + std::time::Duration::from_millis(500);
    for seeker in [&mut ana, &mut bo] {
        while let Ok(message) = tokio::time::timeout_at(until, seeker.client.recv()).await {
            assert_eq!(message["t"], "seeking", "{message}");
        }
    }
}

#[tokio::test]
async fn rooms_and_searches_beyond_an_address_limit_are_refused_as_rate_limited() {
    let server = spawn_server_with(|c| {
        c.rooms_per_minute = 3;
        c.seeks_per_minute = 1;
    })
    .await;
    let body = json!({"device": HOST, "name": "Ana"}).to_string();
    for _ in 0..3 {
        assert_eq!(
            http(server.addr, "POST", "/api/rooms", Some(&body)).await.0,
            201
        );
    }
    let (status, text) = http(server.addr, "POST", "/api/rooms", Some(&body)).await;
    assert_eq!(status, 429, "{text}");
    assert!(text.contains("rate_limited"), "{text}");

    let _first = seek(server.addr, HOST, "Ana", "qdan", json!(2)).await;
    let mut second = seek(server.addr, GUEST, "Bo", "qdan", json!(2)).await;
    let refused = second.first.take().unwrap();
    assert_eq!(refused["code"], "rate_limited", "{refused}");
}

/// Creates a room as a client behind a balancer at this address would; the status.
async fn create_forwarded_for(addr: SocketAddr, client: &str) -> u16 {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let body = json!({"device": HOST, "name": "Ana"}).to_string();
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let request = format!(
        "POST /api/rooms HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\
         X-Forwarded-For: 203.0.113.9, {client}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).await.unwrap();
    response.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[tokio::test]
async fn behind_a_trusted_balancer_each_client_has_its_own_address_limit() {
    let server = spawn_server_with(|c| {
        c.rooms_per_minute = 1;
        c.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
    })
    .await;
    assert_eq!(create_forwarded_for(server.addr, "198.51.100.1").await, 201);
    assert_eq!(create_forwarded_for(server.addr, "198.51.100.2").await, 201);
    assert_eq!(create_forwarded_for(server.addr, "198.51.100.1").await, 429);

    // A server that trusts no proxy believes no `X-Forwarded-For`: one address, one room.
    let server = spawn_server_with(|c| c.rooms_per_minute = 1).await;
    assert_eq!(create_forwarded_for(server.addr, "198.51.100.1").await, 201);
    assert_eq!(create_forwarded_for(server.addr, "198.51.100.2").await, 429);
}

#[tokio::test]
async fn a_ranked_room_always_has_a_clock_and_starts_only_with_everyone_seated_here() {
    let server = spawn_server_with(|_| {}).await;
    let (code, mut host, guest) =
        support::two_player_room(&server, json!({"ranked": true, "rules": "classic"})).await;
    let (_, view) = http(server.addr, "GET", &format!("/api/rooms/{code}"), None).await;
    let view: Value = serde_json::from_str(&view).unwrap();
    assert_eq!(view["settings"]["clock"], 60, "none chosen: 60 s");
    host.send(json!({"t": "settings", "clock": 30})).await;
    host.recv_until(|m| m["t"] == "room" && m["room"]["settings"]["clock"] == 30)
        .await;
    host.send(json!({"t": "settings", "clock": null})).await;
    let told = host
        .recv_until(|m| m["t"] == "room" && m["room"]["settings"]["clock"] != 30)
        .await;
    assert_eq!(
        told["room"]["settings"]["clock"], 60,
        "never without a clock"
    );

    // The guest leaves: no ranked game can start (the CPU would play it for them).
    guest.close().await;
    host.recv_until(|m| m["t"] == "room" && m["room"]["seats"]["red"]["connected"] == false)
        .await;
    host.send(json!({"t": "start"})).await;
    assert_eq!(host.error_code().await, "players_away");
    let mut guest = Client::join(server.addr, &code, GUEST, "Guest").await;
    host.recv_until(|m| m["t"] == "room" && m["room"]["seats"]["red"]["connected"] == true)
        .await;
    support::start_rated(&mut host, &mut guest).await;
}

#[tokio::test]
async fn a_table_made_ranked_rates_only_people_who_accepted_its_settings() {
    let server = spawn_server_with(|_| {}).await;
    let (code, mut host, mut guest) = support::two_player_room(&server, json!({})).await;
    let seen = |m: &Value| m["room"]["settings_version"].as_u64().unwrap();
    let before = support::welcome(server.addr, &code, GUEST).await;
    assert_eq!(seen(&before), 0, "{before}");
    // The host makes the table ranked and starts at once: the guest has seen neither.
    host.send(json!({"t": "settings", "ranked": true, "rules": "classic"}))
        .await;
    host.send(json!({"t": "start"})).await;
    let offered = guest
        .recv_until(|m| m["t"] == "room" && !m["room"]["rematch"].is_null())
        .await;
    assert_eq!(offered["room"]["rematch"], json!(["yellow"]), "{offered}");
    assert_eq!(offered["room"]["settings"]["ranked"], true);
    let version = seen(&offered);
    assert_eq!(version, 1);
    assert!(
        support::welcome(server.addr, &code, HOST).await["game"].is_null(),
        "no game before the guest accepts"
    );
    // An acceptance of the settings the guest saw before is refused, and starts nothing.
    guest
        .send(json!({"t": "play_again", "settings_version": 0}))
        .await;
    assert_eq!(guest.error_code().await, "settings_changed");
    assert!(support::welcome(server.addr, &code, HOST).await["game"].is_null());
    guest
        .send(json!({"t": "play_again", "settings_version": version}))
        .await;
    let game = host.recv_until(|m| m["t"] == "game").await;
    assert_eq!(game["game"]["ranked"], true);
    guest.recv_until(|m| m["t"] == "game").await;
}

#[tokio::test]
async fn ranked_rooms_seat_people_only_and_play_a_presets_own_rules() {
    let server = spawn_server_with(|_| {}).await;
    let body = json!({"device": HOST, "name": "Ana", "ranked": true,
                      "rules": {"preset": "qdan", "bonus_on_capture": false}});
    let (status, text) = http(server.addr, "POST", "/api/rooms", Some(&body.to_string())).await;
    assert_eq!(status, 400, "{text}");
    assert!(text.contains("unranked_rules"), "{text}");

    let code = create_room(server.addr, HOST, json!({"ranked": true})).await;
    let mut host = Client::join(server.addr, &code, HOST, "Ana").await;
    host.send(json!({"t": "add_cpu", "colour": "red", "level": "easy"}))
        .await;
    assert_eq!(host.error_code().await, "ranked_people_only");
}

#[tokio::test]
async fn a_vietnamese_game_of_three_people_is_friendly_in_a_ranked_room() {
    let server = spawn_server_with(|_| {}).await;
    let code = create_room(
        server.addr,
        HOST,
        json!({"ranked": true, "rules": {"preset": "vietnamese"}}),
    )
    .await;
    let mut clients = Vec::new();
    for (i, colour) in ["yellow", "blue", "red"].into_iter().enumerate() {
        let device = if i == 0 {
            HOST.to_owned()
        } else {
            format!("vietnamese-guest-{i:04}-x")
        };
        let mut c = Client::join(server.addr, &code, &device, "Viet").await;
        c.send(json!({"t": "sit", "colour": colour})).await;
        c.recv_until(|m| m["t"] == "room" && !m["room"]["seats"][colour].is_null())
            .await;
        clients.push(c);
    }
    clients[0].send(json!({"t": "start"})).await;
    let game = clients[0].recv_until(|m| m["t"] == "game").await;
    assert_eq!(game["game"]["ranked"], false);
}

#[tokio::test]
async fn unknown_players_rules_and_games_are_clear_404s() {
    let server = spawn_server_with(|_| {}).await;
    for (path, code) in [
        ("/api/players/nobody", "no_such_player"),
        ("/api/leaderboard/chess", "no_such_rules"),
        ("/api/games/nothing", "no_such_game"),
    ] {
        let (status, body) = http(server.addr, "GET", path, None).await;
        assert_eq!(status, 404, "{path}: {body}");
        assert!(body.contains(code), "{path}: {body}");
    }
    let (status, body) = http(server.addr, "GET", "/api/leaderboard/qdan", None).await;
    assert_eq!(status, 200);
    assert_eq!(
        serde_json::from_str::<Value>(&body).unwrap()["players"],
        json!([])
    );
}

#[tokio::test]
async fn a_ranked_game_over_but_not_yet_rated_when_the_server_stopped_is_rated_on_restart() {
    let server = spawn_server_with(|_| {}).await;
    let (_code, mut host, mut guest) =
        support::two_player_room(&server, json!({"ranked": true, "rules": "classic"})).await;
    support::start_rated(&mut host, &mut guest).await;
    let (end, _) = tokio::join!(
        play_until_over(&mut host, "yellow"),
        play_until_over(&mut guest, "red")
    );
    host.recv_until(|m| m["t"] == "rated").await;
    let rated = stored_rating(&server.db, &host.you, "classic");
    // As if the server had stopped after storing the last move, before marking the game over.
    {
        let db = rusqlite::Connection::open(&server.db).unwrap();
        db.execute_batch(
            "UPDATE games SET finished_at = NULL, places = NULL;
             UPDATE game_players SET place = NULL;
             DELETE FROM rating_changes; DELETE FROM ratings;",
        )
        .unwrap();
    }
    let config = ludo_server::Config::for_tests(server.db.clone());
    let again = ludo_server::Application::build(&config).await.unwrap();
    let addr = again.local_addr();
    tokio::spawn(again.run_until_stopped(std::future::pending()));
    let id = end["id"].as_str().unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let (_, export) = http(addr, "GET", &format!("/api/games/{id}"), None).await;
        let export: Value = serde_json::from_str(&export).unwrap();
        if !export["finished_at"].is_null() {
            assert_eq!(export["ratings"].as_array().unwrap().len(), 2);
            assert_eq!(export["places"], end["position"]["places"]);
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the game was not finished on restart"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(stored_rating(&server.db, &host.you, "classic"), rated);
}

#[tokio::test]
async fn a_ranked_room_by_invitation_will_not_start_with_two_seats_from_one_address() {
    let server = spawn_server_with(|c| c.match_same_address = false).await;
    let (code, mut host, _guest) =
        support::two_player_room(&server, json!({"ranked": true, "rules": "classic"})).await;
    host.send(json!({"t": "start"})).await;
    let refusal = host.refusal().await;
    assert_eq!(refusal["code"], "same_address", "{refusal}");
    // Nothing started, nothing rated.
    let (_, view) = http(server.addr, "GET", &format!("/api/rooms/{code}"), None).await;
    assert!(!view.contains("\"game\""), "{view}");
    let db = rusqlite::Connection::open(&server.db).unwrap();
    let games: u32 = db
        .query_row("SELECT COUNT(*) FROM games", [], |r| r.get(0))
        .unwrap();
    assert_eq!(games, 0);
}
