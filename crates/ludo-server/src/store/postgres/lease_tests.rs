//! Leases on rooms, between two nodes sharing one database.

use std::time::Duration;

use super::PostgresBackend;
use crate::store::suite::{new_game, with_people};
use crate::store::{Backend, Claim, Cluster, Forgetting, Forgotten, TestDatabase};

/// Two nodes' backends on a fresh database with rooms `R1` and `R2` stored.
fn two_nodes() -> Option<(TestDatabase, PostgresBackend, PostgresBackend)> {
    let db = TestDatabase::create()?;
    let mut a = PostgresBackend::connect_as(db.url(), Some("a")).unwrap();
    let b = PostgresBackend::connect_as(db.url(), Some("b")).unwrap();
    with_people(&mut a, &["ana", "bo"]);
    for room in ["R1", "R2"] {
        a.save_room(&room.into(), &"ana".into(), "{}", 0).unwrap();
    }
    Some((db, a, b))
}

fn granted(claim: Claim) -> i64 {
    match claim {
        Claim::Granted { token } => token,
        Claim::HeldBy(node) => panic!("held by {node}"),
    }
}

#[test]
fn a_room_held_by_one_node_is_refused_to_another_until_its_lease_runs_out() {
    let Some((_db, mut a, mut b)) = two_nodes() else {
        return;
    };
    granted(a.claim_room(&"R1".into(), "a", 300).unwrap());
    assert_eq!(
        b.claim_room(&"R1".into(), "b", 300).unwrap(),
        Claim::HeldBy("a".into())
    );
    // Its holder may claim it again, and another room is free.
    granted(a.claim_room(&"R1".into(), "a", 300).unwrap());
    granted(b.claim_room(&"R2".into(), "b", 300).unwrap());
    std::thread::sleep(Duration::from_millis(400));
    granted(b.claim_room(&"R1".into(), "b", 300).unwrap());
    // The first holder has lost it: renewing keeps only what it still holds.
    let renewal = a.renew_leases("a", &["R1".into()], 300).unwrap();
    assert!(renewal.kept.is_empty(), "{renewal:?}");
}

#[test]
fn a_room_whose_node_has_no_connection_left_is_granted_at_once_long_before_its_term() {
    let Some((_db, mut a, mut b)) = two_nodes() else {
        return;
    };
    granted(a.claim_room(&"R1".into(), "a", 60_000).unwrap());
    assert_eq!(
        b.claim_room(&"R1".into(), "b", 60_000).unwrap(),
        Claim::HeldBy("a".into()),
        "its node is alive"
    );
    // Node `a` dies: its connection closes, which PostgreSQL sees at once (its session ends
    // within a moment: polled, never slept for a fixed time).
    drop(a);
    let mut claim = b.claim_room(&"R1".into(), "b", 60_000).unwrap();
    for _ in 0..200 {
        if matches!(claim, Claim::Granted { .. }) {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
        claim = b.claim_room(&"R1".into(), "b", 60_000).unwrap();
    }
    granted(claim);
}

#[test]
fn a_renewed_lease_outlives_its_first_term() {
    let Some((_db, mut a, mut b)) = two_nodes() else {
        return;
    };
    granted(a.claim_room(&"R1".into(), "a", 300).unwrap());
    for _ in 0..4 {
        std::thread::sleep(Duration::from_millis(150));
        let renewal = a
            .renew_leases("a", &["R1".into(), "R2".into()], 300)
            .unwrap();
        assert_eq!(renewal.kept, ["R1"], "only what it holds is renewed");
    }
    assert_eq!(
        b.claim_room(&"R1".into(), "b", 300).unwrap(),
        Claim::HeldBy("a".into())
    );
}

#[test]
fn a_node_asked_for_a_room_learns_it_at_its_next_renewal_and_releasing_frees_it() {
    let Some((_db, mut a, mut b)) = two_nodes() else {
        return;
    };
    let token = granted(a.claim_room(&"R1".into(), "a", 5000).unwrap());
    granted(a.claim_room(&"R2".into(), "a", 5000).unwrap());
    assert_eq!(
        b.claim_room(&"R1".into(), "b", 5000).unwrap(),
        Claim::HeldBy("a".into())
    );
    let renewal = a
        .renew_leases("a", &["R1".into(), "R2".into()], 5000)
        .unwrap();
    assert_eq!(renewal.wanted, ["R1"]);
    assert_eq!(a.asked_rooms("a").unwrap(), ["R1"]);
    assert!(b.asked_rooms("b").unwrap().is_empty());
    a.release_room(&"R1".into(), "a", token).unwrap();
    granted(b.claim_room(&"R1".into(), "b", 5000).unwrap());
    // Nobody asks for it any more once it is granted.
    assert!(
        b.renew_leases("b", &["R1".into()], 5000)
            .unwrap()
            .wanted
            .is_empty()
    );
}

#[test]
fn releasing_an_old_grant_leaves_the_newer_one() {
    let Some((_db, mut a, mut b)) = two_nodes() else {
        return;
    };
    let old = granted(a.claim_room(&"R1".into(), "a", 300).unwrap());
    std::thread::sleep(Duration::from_millis(400));
    let new = granted(a.claim_room(&"R1".into(), "a", 5000).unwrap());
    assert_ne!(old, new);
    a.release_room(&"R1".into(), "a", old).unwrap();
    assert_eq!(
        b.claim_room(&"R1".into(), "b", 5000).unwrap(),
        Claim::HeldBy("a".into())
    );
    a.release_all("a").unwrap();
    granted(b.claim_room(&"R1".into(), "b", 5000).unwrap());
}

#[test]
fn rooms_in_play_nobody_holds_are_listed_for_taking_over() {
    let Some((_db, mut a, _b)) = two_nodes() else {
        return;
    };
    let people = [
        (ludo_rules::Colour::Yellow, "ana"),
        (ludo_rules::Colour::Red, "bo"),
    ];
    let mut game = new_game("G1", false, &people);
    game.room = "R1".into();
    a.create_game(&game).unwrap();
    let codes = |a: &mut PostgresBackend| -> Vec<String> {
        a.unheld_rooms_in_play()
            .unwrap()
            .into_iter()
            .map(|r| r.0.to_string())
            .collect()
    };
    // R2 has no game in play.
    assert_eq!(codes(&mut a), ["R1"]);
    granted(a.claim_room(&"R1".into(), "a", 300).unwrap());
    assert!(codes(&mut a).is_empty());
    std::thread::sleep(Duration::from_millis(400));
    assert_eq!(codes(&mut a), ["R1"], "a lease run out holds nothing");
}

/// Forgetting at 1,000 the rooms saved before 100 (identities are kept).
fn forgetting_rooms() -> Forgetting {
    Forgetting {
        now: 1_000,
        rooms_updated_before: Some(100),
        limit: 1_000,
        ..Forgetting::default()
    }
}

#[test]
fn a_room_another_node_holds_is_not_forgotten_and_one_whose_lease_ran_out_is_with_its_lease() {
    let Some((_db, mut a, mut b)) = two_nodes() else {
        return;
    };
    granted(a.claim_room(&"R1".into(), "a", 60_000).unwrap());
    granted(a.claim_room(&"R2".into(), "a", 1).unwrap());
    std::thread::sleep(Duration::from_millis(20));
    // b forgets ROOM (stored by two_nodes) and R2, whose lease ran out; a's R1 stays.
    assert_eq!(b.forget(&forgetting_rooms()).unwrap().rooms, 2);
    assert!(b.room(&"R1".into()).unwrap().is_some());
    assert!(b.room(&"R2".into()).unwrap().is_none() && b.room(&"ROOM".into()).unwrap().is_none());
    // R2 can be stored anew, with no lease left of it.
    b.save_room(&"R2".into(), &"ana".into(), "{}", 1_000)
        .unwrap();
    granted(b.claim_room(&"R2".into(), "b", 60_000).unwrap());
}

#[test]
fn two_nodes_forgetting_at_once_forget_each_room_once() {
    let Some((_db, a, b)) = two_nodes() else {
        return;
    };
    let forget = |mut backend: PostgresBackend| {
        std::thread::spawn(move || backend.forget(&forgetting_rooms()).unwrap())
    };
    let (a, b) = (forget(a), forget(b));
    let (a, b): (Forgotten, Forgotten) = (a.join().unwrap(), b.join().unwrap());
    // ROOM, R1 and R2, each by one node or the other.
    assert_eq!(a.rooms + b.rooms, 3, "{a:?} {b:?}");
}

#[test]
fn a_renewal_that_postgresql_aborts_to_break_a_deadlock_is_tried_again_and_keeps_its_rooms() {
    let Some((db, mut a, _b)) = two_nodes() else {
        return;
    };
    granted(a.claim_room(&"R1".into(), "a", 60_000).unwrap());
    granted(a.claim_room(&"R2".into(), "a", 60_000).unwrap());
    // Another session locks R2, then (once the renewal holds R1 and waits for R2) wants R1: a
    // deadlock. It waits longer than the node's session before looking for one, so that
    // PostgreSQL breaks it by aborting the renewal.
    let mut other = postgres::Client::connect(db.url(), postgres::NoTls).unwrap();
    other
        .batch_execute(
            "BEGIN; SET LOCAL deadlock_timeout = '30s';
             UPDATE room_leases SET expires_at = expires_at WHERE room = 'R2'",
        )
        .unwrap();
    let renewing =
        std::thread::spawn(move || a.renew_leases("a", &["R1".into(), "R2".into()], 60_000));
    // Polled until the renewal waits for a lock, never slept for a fixed time.
    let waiting = "SELECT count(*) FROM pg_stat_activity
                   WHERE wait_event_type = 'Lock' AND pid <> pg_backend_pid()";
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while other.query_one(waiting, &[]).unwrap().get::<_, i64>(0) == 0 {
        assert!(
            std::time::Instant::now() < deadline,
            "the renewal waits for R2"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    other
        .batch_execute("UPDATE room_leases SET expires_at = expires_at WHERE room = 'R1'; COMMIT")
        .unwrap();
    let renewal = renewing
        .join()
        .unwrap()
        .expect("tried again after the deadlock");
    assert_eq!(renewal.kept, ["R1", "R2"]);
}
