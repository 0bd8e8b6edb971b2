//! The store's test suite, written once against [`Backend`] and run for each backend: SQLite on
//! a fresh file, PostgreSQL on a fresh database of the server `LUDO_TEST_POSTGRES` names
//! (skipped without it, except on CI).

use std::collections::BTreeMap;

use ludo_fair::{Action, Record};
use ludo_rules::{Colour, Preset, Rules};

use super::{Backend, Forgetting, Forgotten, NewGame};

/// Runs each named test of this file on both backends, as `store::suite::sqlite::NAME` and
/// `store::suite::postgres::NAME`.
macro_rules! on_both_backends {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[test]
                fn $name() {
                    let dir = tempfile::tempdir().unwrap();
                    let path = dir.path().join("ludo.db");
                    let mut backend = crate::store::SqliteBackend::open(&path).unwrap();
                    super::$name(&mut backend);
                }
            )*
        }
        mod postgres {
            $(
                #[test]
                fn $name() {
                    let Some(db) = crate::store::TestDatabase::create() else {
                        return;
                    };
                    let mut backend = crate::store::PostgresBackend::connect(db.url()).unwrap();
                    super::$name(&mut backend);
                }
            )*
        }
    };
}

on_both_backends!(
    finishing_a_ranked_game_rates_its_players_once,
    finishing_a_friendly_game_rates_nobody_but_counts_in_statistics,
    a_finish_failing_after_its_first_statement_leaves_nothing_and_succeeds_when_tried_again,
    identifying_a_known_device_keeps_its_id_and_takes_its_new_name,
    a_saved_room_comes_back_as_saved_and_a_new_save_replaces_it,
    only_rooms_with_a_game_not_yet_over_are_in_play,
    a_stored_game_comes_back_with_its_record_actions_times_and_stand_ins,
    an_action_at_a_number_already_stored_is_refused_and_the_first_kept,
    the_latest_game_of_a_room_is_the_last_started_and_on_a_tie_the_last_created,
    the_leaderboard_ranks_a_family_by_rating_and_stops_at_its_limit,
    a_profile_lists_ratings_history_recent_games_and_statistics,
    a_game_the_cpu_finished_for_someone_who_left_is_marked_so_on_the_pages,
    nothing_is_found_for_an_unknown_game_room_or_player,
    identities_seen_at_no_table_and_in_no_game_are_forgotten_and_their_devices_come_back_new,
    finished_rooms_untouched_for_the_period_are_forgotten_and_their_games_stay_readable,
    an_identity_only_a_forgotten_room_named_is_forgotten_with_it,
    without_periods_nothing_is_forgotten_but_identities_in_use_are_marked_seen,
    forgetting_stops_at_its_limit_and_the_next_call_goes_on,
);

/// A classic game in room `ROOM` started at 1, with these people seated.
pub(super) fn new_game(id: &str, ranked: bool, people: &[(Colour, &str)]) -> NewGame {
    let seats: Vec<Colour> = people.iter().map(|p| p.0).collect();
    let players: BTreeMap<Colour, serde_json::Value> = people
        .iter()
        .map(|(c, who)| {
            (
                *c,
                serde_json::json!({"kind": "person", "id": who, "name": who}),
            )
        })
        .collect();
    NewGame {
        id: id.into(),
        room: "ROOM".into(),
        record: Record {
            game_id: id.to_owned(),
            rules: Rules::preset(Preset::Classic),
            seats,
            commitment: "c".repeat(64),
            seed: None,
            actions: Vec::new(),
        },
        players: serde_json::to_string(&players).unwrap(),
        people: people
            .iter()
            .map(|(c, who)| (*c, (*who).into(), (*who).to_owned()))
            .collect(),
        ranked,
        seed: "0".repeat(64),
        started_at: 1,
    }
}

/// Makes these identities (each its own id and name) and the room `ROOM`, hosted by the first.
pub(super) fn with_people(backend: &mut dyn Backend, identities: &[&str]) {
    for who in identities {
        backend
            .identify(&format!("hash-{who}"), who, &(*who).into(), 0)
            .unwrap();
    }
    backend
        .save_room(&"ROOM".into(), &identities[0].into(), "{}", 0)
        .unwrap();
}

/// Plays a ranked two-seat game `id` to its end: `winner` in yellow first, `loser` in red second.
fn ranked_win(backend: &mut dyn Backend, id: &str, winner: &str, loser: &str, at: i64) {
    let people = [(Colour::Yellow, winner), (Colour::Red, loser)];
    backend.create_game(&new_game(id, true, &people)).unwrap();
    let places = BTreeMap::from([(Colour::Yellow, 1), (Colour::Red, 2)]);
    backend.finish_game(&id.into(), &places, at).unwrap();
}

fn finishing_a_ranked_game_rates_its_players_once(backend: &mut dyn Backend) {
    with_people(backend, &["ana", "bo"]);
    backend
        .create_game(&new_game(
            "G1",
            true,
            &[(Colour::Yellow, "ana"), (Colour::Red, "bo")],
        ))
        .unwrap();
    let places = BTreeMap::from([(Colour::Yellow, 2), (Colour::Red, 1)]);
    let changes = backend.finish_game(&"G1".into(), &places, 5).unwrap();
    assert_eq!(changes.len(), 2);
    let bo = changes.iter().find(|c| c.id == "bo").unwrap();
    assert_eq!((bo.before, bo.after, bo.place), (1500.0, 1532.0, 1));
    // A second finish (after a restart, say) changes nothing and reports the same changes.
    assert_eq!(
        backend.finish_game(&"G1".into(), &places, 9).unwrap(),
        changes
    );
    assert_eq!(
        backend.rating(&"bo".into(), "classic").unwrap(),
        (1532.0, 1)
    );
    assert_eq!(
        backend.rating(&"ana".into(), "classic").unwrap(),
        (1468.0, 1)
    );
    assert_eq!(backend.rating(&"ana".into(), "qdan").unwrap(), (1500.0, 0));
    let stored = backend.game(&"G1".into()).unwrap().unwrap();
    assert!(stored.ranked);
    assert_eq!(stored.places, places);
    assert_eq!(stored.finished_at, Some(5));
    assert_eq!(stored.ratings, changes);
}

fn a_finish_failing_after_its_first_statement_leaves_nothing_and_succeeds_when_tried_again(
    backend: &mut dyn Backend,
) {
    with_people(backend, &["ana", "bo"]);
    // A game of its own: the fail point fails this game's finish only, whatever runs beside it.
    let game = "MIDWAY-G1";
    backend
        .create_game(&new_game(
            game,
            true,
            &[(Colour::Yellow, "ana"), (Colour::Red, "bo")],
        ))
        .unwrap();
    let places = BTreeMap::from([(Colour::Yellow, 2), (Colour::Red, 1)]);
    fail::cfg("store-midway", &format!("return({game})")).unwrap();
    let failed = backend.finish_game(&game.into(), &places, 5);
    fail::remove("store-midway");
    assert!(failed.is_err(), "{failed:?}");
    // Nothing half-written: the game is not over, no place is stored, nobody is rated.
    let stored = backend.game(&game.into()).unwrap().unwrap();
    assert_eq!(stored.finished_at, None);
    assert!(stored.places.is_empty(), "{:?}", stored.places);
    assert!(stored.ratings.is_empty());
    assert_eq!(
        backend.rating(&"bo".into(), "classic").unwrap(),
        (1500.0, 0)
    );
    // Tried again, the same finish goes through whole.
    let changes = backend.finish_game(&game.into(), &places, 6).unwrap();
    assert_eq!(changes.len(), 2);
    assert_eq!(
        backend.rating(&"bo".into(), "classic").unwrap(),
        (1532.0, 1)
    );
    assert_eq!(
        backend.game(&game.into()).unwrap().unwrap().finished_at,
        Some(6)
    );
}

fn finishing_a_friendly_game_rates_nobody_but_counts_in_statistics(backend: &mut dyn Backend) {
    with_people(backend, &["ana", "bo"]);
    backend
        .create_game(&new_game(
            "G1",
            false,
            &[(Colour::Yellow, "ana"), (Colour::Red, "bo")],
        ))
        .unwrap();
    let places = BTreeMap::from([(Colour::Yellow, 1), (Colour::Red, 2)]);
    assert!(
        backend
            .finish_game(&"G1".into(), &places, 5)
            .unwrap()
            .is_empty()
    );
    let ana = backend.profile(&"ana".into()).unwrap().unwrap();
    assert!(ana.ratings.is_empty() && ana.history.is_empty());
    assert_eq!((ana.stats.games, ana.stats.wins), (1, 1));
    assert_eq!(ana.stats.places, [1, 0, 0, 0]);
    assert_eq!(ana.recent[0].seats[1].name, "bo");
    assert!(backend.leaderboard("classic", 10).unwrap().is_empty());
}

fn identifying_a_known_device_keeps_its_id_and_takes_its_new_name(backend: &mut dyn Backend) {
    assert_eq!(
        backend
            .identify("hash-a", "Ana", &"id-a".into(), 1)
            .unwrap(),
        "id-a"
    );
    assert_eq!(
        backend.identify("hash-b", "Bo", &"id-b".into(), 2).unwrap(),
        "id-b"
    );
    // The same device again, offered a fresh id: it keeps its own, under its new name.
    assert_eq!(
        backend
            .identify("hash-a", "Anna", &"id-x".into(), 3)
            .unwrap(),
        "id-a"
    );
    assert_eq!(
        backend.profile(&"id-a".into()).unwrap().unwrap().name,
        "Anna"
    );
    assert_eq!(backend.profile(&"id-b".into()).unwrap().unwrap().name, "Bo");
    assert!(backend.profile(&"id-x".into()).unwrap().is_none());
    // Looked up without making one: a known device is renamed, an unknown one is not made.
    assert_eq!(
        backend
            .known_identity("hash-b", "Bob", 4)
            .unwrap()
            .as_deref(),
        Some("id-b")
    );
    assert_eq!(
        backend.profile(&"id-b".into()).unwrap().unwrap().name,
        "Bob"
    );
    assert_eq!(backend.known_identity("hash-new", "Cy", 5).unwrap(), None);
}

fn a_saved_room_comes_back_as_saved_and_a_new_save_replaces_it(backend: &mut dyn Backend) {
    with_people(backend, &["ana"]);
    assert_eq!(backend.room(&"ROOM".into()).unwrap().as_deref(), Some("{}"));
    assert_eq!(backend.room(&"OTHER".into()).unwrap(), None);
    let state = r#"{"seats":{"yellow":"ana"},"name":"Ünïcode ✓"}"#;
    backend
        .save_room(&"ROOM".into(), &"ana".into(), state, 5)
        .unwrap();
    assert_eq!(
        backend.room(&"ROOM".into()).unwrap().as_deref(),
        Some(state)
    );
}

fn only_rooms_with_a_game_not_yet_over_are_in_play(backend: &mut dyn Backend) {
    with_people(backend, &["ana", "bo"]);
    for (code, state) in [("PLAY", "{\"p\":1}"), ("DONE", "{\"d\":1}"), ("IDLE", "{}")] {
        backend
            .save_room(&code.into(), &"ana".into(), state, 1)
            .unwrap();
    }
    let people = [(Colour::Yellow, "ana"), (Colour::Red, "bo")];
    for (id, room) in [("G1", "PLAY"), ("G2", "DONE"), ("G3", "PLAY")] {
        let game = NewGame {
            room: room.into(),
            ..new_game(id, false, &people)
        };
        backend.create_game(&game).unwrap();
    }
    let places = BTreeMap::from([(Colour::Yellow, 1), (Colour::Red, 2)]);
    backend.finish_game(&"G1".into(), &places, 5).unwrap();
    backend.finish_game(&"G2".into(), &places, 5).unwrap();
    assert_eq!(
        backend.rooms_in_play().unwrap(),
        [("PLAY".into(), "{\"p\":1}".to_owned())]
    );
}

fn a_stored_game_comes_back_with_its_record_actions_times_and_stand_ins(backend: &mut dyn Backend) {
    with_people(backend, &["ana", "bo"]);
    let game = new_game("G1", false, &[(Colour::Yellow, "ana"), (Colour::Red, "bo")]);
    backend.create_game(&game).unwrap();
    let actions = [Action::Move(0), Action::Move(3), Action::Move(2)];
    // The CPU played the second action for the seat's person: its turn clock ran out.
    let stand_ins = [None, Some("clock"), None];
    for (number, (action, stand_in)) in actions.iter().zip(stand_ins).enumerate() {
        let at = 100 + number as i64;
        backend
            .append_action(
                &"G1".into(),
                number as u64,
                Colour::Yellow,
                action,
                stand_in,
                at,
            )
            .unwrap();
    }
    let stored = backend.game(&"G1".into()).unwrap().unwrap();
    assert_eq!((stored.id.as_str(), stored.room.as_str()), ("G1", "ROOM"));
    assert_eq!(stored.record.actions, actions);
    assert_eq!(stored.action_times, [100, 101, 102]);
    assert_eq!(stored.stand_ins, BTreeMap::from([(1, "clock".to_owned())]));
    assert_eq!(stored.record.rules, game.record.rules);
    assert_eq!(stored.record.seats, game.record.seats);
    assert_eq!(stored.record.commitment, game.record.commitment);
    assert_eq!(stored.record.seed.as_deref(), Some(game.seed.as_str()));
    assert_eq!(stored.players, game.players);
    assert_eq!((stored.ranked, stored.started_at), (false, 1));
    assert_eq!(stored.finished_at, None);
    assert!(stored.places.is_empty() && stored.ratings.is_empty());
}

fn an_action_at_a_number_already_stored_is_refused_and_the_first_kept(backend: &mut dyn Backend) {
    with_people(backend, &["ana", "bo"]);
    let people = [(Colour::Yellow, "ana"), (Colour::Red, "bo")];
    backend
        .create_game(&new_game("G1", false, &people))
        .unwrap();
    backend
        .append_action(&"G1".into(), 0, Colour::Yellow, &Action::Move(1), None, 10)
        .unwrap();
    let again = backend.append_action(&"G1".into(), 0, Colour::Red, &Action::Move(2), None, 11);
    assert!(
        matches!(again, Ok(false)),
        "a second action 0 is not stored: {again:?}"
    );
    // The backend goes on, and the game holds the first action only.
    backend
        .append_action(&"G1".into(), 1, Colour::Red, &Action::Move(3), None, 12)
        .unwrap();
    let stored = backend.game(&"G1".into()).unwrap().unwrap();
    assert_eq!(stored.record.actions, [Action::Move(1), Action::Move(3)]);
    assert_eq!(stored.action_times, [10, 12]);
}

fn the_latest_game_of_a_room_is_the_last_started_and_on_a_tie_the_last_created(
    backend: &mut dyn Backend,
) {
    with_people(backend, &["ana", "bo"]);
    backend
        .save_room(&"OTHER".into(), &"ana".into(), "{}", 0)
        .unwrap();
    let people = [(Colour::Yellow, "ana"), (Colour::Red, "bo")];
    // Ids in an order unlike creation's, so nothing but the start time and creation decides.
    for (id, room, started_at) in [
        ("G5", "ROOM", 5),
        ("G9", "ROOM", 9),
        ("G1", "ROOM", 9),
        ("G7", "ROOM", 7),
        ("G0", "OTHER", 50),
    ] {
        let game = NewGame {
            room: room.into(),
            started_at,
            ..new_game(id, false, &people)
        };
        backend.create_game(&game).unwrap();
    }
    assert_eq!(
        backend.latest_game(&"ROOM".into()).unwrap().unwrap().id,
        "G1"
    );
    assert_eq!(
        backend.latest_game(&"OTHER".into()).unwrap().unwrap().id,
        "G0"
    );
    backend
        .save_room(&"EMPTY".into(), &"ana".into(), "{}", 0)
        .unwrap();
    assert!(backend.latest_game(&"EMPTY".into()).unwrap().is_none());
}

fn the_leaderboard_ranks_a_family_by_rating_and_stops_at_its_limit(backend: &mut dyn Backend) {
    with_people(backend, &["ana", "bo", "cy"]);
    ranked_win(backend, "G1", "ana", "bo", 10);
    ranked_win(backend, "G2", "ana", "cy", 20);
    ranked_win(backend, "G3", "bo", "cy", 30);
    let board = backend.leaderboard("classic", 10).unwrap();
    let names: Vec<&str> = board.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(names, ["ana", "bo", "cy"]);
    assert!(board.windows(2).all(|w| w[0].rating >= w[1].rating));
    assert_eq!(board[0].games, 2);
    assert!(board.iter().all(|l| l.provisional));
    assert_eq!(
        (board[0].rating, board[0].games),
        backend.rating(&"ana".into(), "classic").unwrap()
    );
    assert_eq!(backend.leaderboard("classic", 2).unwrap(), board[..2]);
    assert!(backend.leaderboard("qdan", 10).unwrap().is_empty());
}

fn a_profile_lists_ratings_history_recent_games_and_statistics(backend: &mut dyn Backend) {
    with_people(backend, &["ana", "bo"]);
    ranked_win(backend, "G1", "ana", "bo", 10);
    // A friendly game against bo and a CPU, which ana ends second.
    let mut game = new_game("G2", false, &[(Colour::Yellow, "ana"), (Colour::Red, "bo")]);
    game.record.seats.push(Colour::Green);
    let mut players: serde_json::Value = serde_json::from_str(&game.players).unwrap();
    players["green"] = serde_json::json!({"kind": "cpu", "level": "hard"});
    game.players = players.to_string();
    backend.create_game(&game).unwrap();
    let places = BTreeMap::from([(Colour::Yellow, 2), (Colour::Red, 3), (Colour::Green, 1)]);
    backend.finish_game(&"G2".into(), &places, 20).unwrap();

    let ana = backend.profile(&"ana".into()).unwrap().unwrap();
    assert_eq!((ana.id.as_str(), ana.name.as_str()), ("ana", "ana"));
    assert_eq!(ana.ratings.len(), 1);
    assert_eq!(
        (ana.ratings[0].family.as_str(), ana.ratings[0].rating),
        ("classic", 1532.0)
    );
    assert_eq!(
        (ana.ratings[0].games, ana.ratings[0].provisional),
        (1, true)
    );
    assert_eq!(ana.history.len(), 1);
    let point = &ana.history[0];
    assert_eq!(
        (point.game.as_str(), point.family.as_str(), point.at),
        ("G1", "classic", 10)
    );
    assert_eq!(
        (point.before, point.after, point.place),
        (1500.0, 1532.0, 1)
    );
    let recent: Vec<&str> = ana.recent.iter().map(|g| g.id.as_str()).collect();
    assert_eq!(recent, ["G2", "G1"], "newest first");
    let g2 = &ana.recent[0];
    assert_eq!((g2.family.as_str(), g2.ranked), ("classic", false));
    assert_eq!((g2.started_at, g2.finished_at), (1, 20));
    let seats: Vec<(Colour, Option<&str>, &str, Option<u8>)> = g2
        .seats
        .iter()
        .map(|s| (s.seat, s.id.as_deref(), s.name.as_str(), s.place))
        .collect();
    assert_eq!(
        seats,
        [
            (Colour::Yellow, Some("ana"), "ana", Some(2)),
            (Colour::Red, Some("bo"), "bo", Some(3)),
            (Colour::Green, None, "CPU (hard)", Some(1)),
        ]
    );
    assert!(ana.recent[1].ranked);
    assert_eq!((ana.stats.games, ana.stats.wins), (2, 1));
    assert_eq!(ana.stats.places, [1, 1, 0, 0]);
    assert_eq!(ana.stats.mean_place, Some(1.5));
}

fn a_game_the_cpu_finished_for_someone_who_left_is_marked_so_on_the_pages(
    backend: &mut dyn Backend,
) {
    with_people(backend, &["ana", "bo"]);
    let game = new_game("G1", false, &[(Colour::Yellow, "ana"), (Colour::Red, "bo")]);
    backend.create_game(&game).unwrap();
    // Bo's clock ran out once, then Bo left and the CPU played on for them.
    let plays = [
        (Colour::Yellow, None),
        (Colour::Red, Some("clock")),
        (Colour::Yellow, None),
        (Colour::Red, Some("left")),
        (Colour::Red, Some("left")),
    ];
    for (number, (seat, stand_in)) in plays.into_iter().enumerate() {
        backend
            .append_action(
                &"G1".into(),
                number as u64,
                seat,
                &Action::Move(0),
                stand_in,
                10,
            )
            .unwrap();
    }
    let places = BTreeMap::from([(Colour::Red, 1), (Colour::Yellow, 2)]);
    backend.finish_game(&"G1".into(), &places, 20).unwrap();
    for who in ["ana", "bo"] {
        let page = backend.profile(&who.into()).unwrap().unwrap();
        let seats = &page.recent[0].seats;
        let left: Vec<(Colour, bool)> = seats.iter().map(|s| (s.seat, s.left)).collect();
        assert_eq!(
            left,
            [(Colour::Yellow, false), (Colour::Red, true)],
            "on {who}'s page"
        );
    }
}

fn nothing_is_found_for_an_unknown_game_room_or_player(backend: &mut dyn Backend) {
    assert!(backend.game(&"NONE".into()).unwrap().is_none());
    assert!(backend.latest_game(&"NONE".into()).unwrap().is_none());
    assert!(backend.room(&"NONE".into()).unwrap().is_none());
    assert!(backend.profile(&"NONE".into()).unwrap().is_none());
    assert!(backend.rooms_in_play().unwrap().is_empty());
    assert_eq!(
        backend.rating(&"NONE".into(), "classic").unwrap(),
        (1500.0, 0)
    );
    let places = BTreeMap::from([(Colour::Yellow, 1)]);
    assert!(backend.finish_game(&"NONE".into(), &places, 1).is_err());
}

/// When the forgetting tests forget.
const NOW: i64 = 1_000;

/// Forgetting at [`NOW`] what was made, seen or saved before 100, keeping what is in use.
fn forgetting(identities_in_use: &[&str], rooms_in_use: &[&str]) -> Forgetting {
    Forgetting {
        now: NOW,
        identities_made_before: Some(100),
        seen_before: 100,
        rooms_updated_before: Some(100),
        identities_in_use: identities_in_use.iter().map(|&id| id.into()).collect(),
        rooms_in_use: rooms_in_use.iter().map(|&code| code.into()).collect(),
        limit: 1_000,
    }
}

/// A room's state with these people seated (yellow, red, …) beside a CPU in blue.
fn seating(host: &str, people: &[&str]) -> String {
    let mut seats = serde_json::Map::new();
    for (colour, who) in ["yellow", "red", "green"].iter().zip(people) {
        seats.insert(
            (*colour).to_owned(),
            serde_json::json!({"kind": "person", "id": who, "name": who}),
        );
    }
    seats.insert(
        "blue".to_owned(),
        serde_json::json!({"kind": "cpu", "level": "hard"}),
    );
    serde_json::json!({"host": host, "settings": {}, "seats": seats}).to_string()
}

/// Whether an identity is stored.
fn known(backend: &mut dyn Backend, id: &str) -> bool {
    backend.profile(&id.into()).unwrap().is_some()
}

fn identities_seen_at_no_table_and_in_no_game_are_forgotten_and_their_devices_come_back_new(
    backend: &mut dyn Backend,
) {
    let people = [
        ("watcher", 0),
        ("host", 0),
        ("seated", 0),
        ("player", 0),
        ("young", 500),
        ("connected", 0),
        ("returning", 0),
    ];
    for (who, made) in people {
        backend
            .identify(&format!("hash-{who}"), who, &who.into(), made)
            .unwrap();
    }
    backend
        .save_room(
            &"ROOM".into(),
            &"host".into(),
            &seating("host", &["seated"]),
            900,
        )
        .unwrap();
    let game = new_game("G1", false, &[(Colour::Yellow, "player")]);
    backend.create_game(&game).unwrap();
    backend
        .finish_game(&"G1".into(), &BTreeMap::from([(Colour::Yellow, 1)]), 950)
        .unwrap();
    // A device that said hello again a moment ago.
    backend
        .known_identity("hash-returning", "returning", 990)
        .unwrap();

    let forgotten = backend.forget(&forgetting(&["connected"], &[])).unwrap();
    assert_eq!(
        forgotten,
        Forgotten {
            identities: 1,
            rooms: 0
        }
    );
    assert!(!known(backend, "watcher"), "a device that only watched");
    for kept in [
        "host",
        "seated",
        "player",
        "young",
        "connected",
        "returning",
    ] {
        assert!(known(backend, kept), "{kept} is kept");
    }
    // Forgetting again forgets nothing more: the connected identity was marked seen.
    assert_eq!(
        backend.forget(&forgetting(&[], &[])).unwrap(),
        Forgotten::default()
    );
    // The forgotten device, back, is a new identity; a kept one is still itself.
    assert_eq!(
        backend
            .identify("hash-watcher", "watcher", &"watcher-2".into(), 1_100)
            .unwrap(),
        "watcher-2"
    );
    assert_eq!(
        backend
            .known_identity("hash-seated", "seated", 1_100)
            .unwrap()
            .as_deref(),
        Some("seated")
    );
}

fn finished_rooms_untouched_for_the_period_are_forgotten_and_their_games_stay_readable(
    backend: &mut dyn Backend,
) {
    with_people(backend, &["ana", "bo"]);
    let state = seating("ana", &["ana", "bo"]);
    for (code, saved) in [
        ("ROOM", 10),
        ("EMPTY", 10),
        ("PLAY", 10),
        ("FRESH", 500),
        ("LOADED", 10),
    ] {
        backend
            .save_room(&code.into(), &"ana".into(), &state, saved)
            .unwrap();
    }
    let people = [(Colour::Yellow, "ana"), (Colour::Red, "bo")];
    let places = BTreeMap::from([(Colour::Yellow, 1), (Colour::Red, 2)]);
    backend.create_game(&new_game("G1", true, &people)).unwrap();
    backend.finish_game(&"G1".into(), &places, 20).unwrap();
    let in_play = NewGame {
        room: "PLAY".into(),
        ..new_game("G2", false, &people)
    };
    backend.create_game(&in_play).unwrap();

    let forgotten = backend.forget(&forgetting(&[], &["LOADED"])).unwrap();
    assert_eq!(forgotten.rooms, 2, "ROOM and EMPTY");
    assert_eq!(forgotten.identities, 0, "ana and bo played");
    for (code, found) in [
        ("ROOM", false),
        ("EMPTY", false),
        ("PLAY", true),
        ("FRESH", true),
        ("LOADED", true),
    ] {
        assert_eq!(
            backend.room(&code.into()).unwrap().is_some(),
            found,
            "{code}"
        );
    }
    // The forgotten room's game is whole, on its own and on its players' pages.
    let game = backend.game(&"G1".into()).unwrap().unwrap();
    assert_eq!((game.room.as_str(), game.finished_at), ("ROOM", Some(20)));
    assert_eq!(game.ratings.len(), 2);
    let ana = backend.profile(&"ana".into()).unwrap().unwrap();
    assert_eq!(ana.recent[0].id, "G1");
    assert_eq!(ana.history.len(), 1);
    assert_eq!(
        backend.rooms_in_play().unwrap(),
        [("PLAY".into(), state.clone())]
    );
    assert_eq!(
        backend.forget(&forgetting(&[], &["LOADED"])).unwrap(),
        Forgotten::default()
    );
    // A room saved again (by a node that still had it in memory) is found again.
    backend
        .save_room(&"ROOM".into(), &"ana".into(), &state, 1_100)
        .unwrap();
    assert_eq!(backend.room(&"ROOM".into()).unwrap(), Some(state));
}

fn an_identity_only_a_forgotten_room_named_is_forgotten_with_it(backend: &mut dyn Backend) {
    for who in ["host", "sitter", "elsewhere"] {
        backend
            .identify(&format!("hash-{who}"), who, &who.into(), 0)
            .unwrap();
    }
    backend
        .save_room(
            &"OLD".into(),
            &"host".into(),
            &seating("host", &["host", "sitter"]),
            10,
        )
        .unwrap();
    // A room not forgotten keeps whoever sits in it.
    backend
        .save_room(
            &"NEW".into(),
            &"elsewhere".into(),
            &seating("elsewhere", &["elsewhere", "sitter"]),
            500,
        )
        .unwrap();
    let forgotten = backend.forget(&forgetting(&[], &[])).unwrap();
    assert_eq!(
        forgotten,
        Forgotten {
            identities: 1,
            rooms: 1
        }
    );
    assert!(!known(backend, "host"));
    assert!(known(backend, "sitter") && known(backend, "elsewhere"));
}

fn without_periods_nothing_is_forgotten_but_identities_in_use_are_marked_seen(
    backend: &mut dyn Backend,
) {
    for who in ["idle", "connected"] {
        backend
            .identify(&format!("hash-{who}"), who, &who.into(), 0)
            .unwrap();
    }
    backend
        .save_room(&"ROOM".into(), &"idle".into(), "{}", 0)
        .unwrap();
    let nothing = Forgetting {
        identities_made_before: None,
        rooms_updated_before: None,
        ..forgetting(&["connected"], &[])
    };
    assert_eq!(backend.forget(&nothing).unwrap(), Forgotten::default());
    assert!(backend.room(&"ROOM".into()).unwrap().is_some());
    // Seen at NOW, the connected identity outlives the next forgetting; the idle one does not.
    let forgotten = backend
        .forget(&Forgetting {
            rooms_updated_before: None,
            ..forgetting(&[], &[])
        })
        .unwrap();
    assert_eq!(forgotten, Forgotten::default(), "idle hosts a room");
    let both = backend.forget(&forgetting(&[], &[])).unwrap();
    assert_eq!(
        both,
        Forgotten {
            identities: 1,
            rooms: 1
        }
    );
    assert!(known(backend, "connected") && !known(backend, "idle"));
}

fn forgetting_stops_at_its_limit_and_the_next_call_goes_on(backend: &mut dyn Backend) {
    for who in ["ana", "bo", "cy"] {
        backend
            .identify(&format!("hash-{who}"), who, &who.into(), 0)
            .unwrap();
    }
    backend
        .save_room(&"ROOM".into(), &"ana".into(), "{}", 0)
        .unwrap();
    for code in ["R1", "R2", "R3"] {
        backend
            .save_room(&code.into(), &"ana".into(), "{}", 10)
            .unwrap();
    }
    let mut game = new_game("G1", false, &[(Colour::Yellow, "ana")]);
    for code in ["R1", "R2"] {
        game.id = format!("G-{code}").into();
        game.record.game_id = game.id.to_string();
        game.room = code.into();
        backend.create_game(&game).unwrap();
        backend
            .finish_game(&game.id, &BTreeMap::from([(Colour::Yellow, 1)]), 20)
            .unwrap();
    }
    let one = Forgetting {
        limit: 1,
        ..forgetting(&[], &[])
    };
    // Each call deletes one room (of ROOM and R3), empties one (of R1 and R2) and forgets one
    // identity (of bo and cy); a third finds nothing left.
    for _ in 0..2 {
        assert_eq!(
            backend.forget(&one).unwrap(),
            Forgotten {
                identities: 1,
                rooms: 2
            }
        );
    }
    assert_eq!(backend.forget(&one).unwrap(), Forgotten::default());
    assert!(known(backend, "ana") && !known(backend, "bo") && !known(backend, "cy"));
}
