//! Group commit on the storage thread (see [`Store`]), over a real SQLite file: jobs waiting
//! together share one commit, a job that fails undoes only its own writes, and a group that
//! cannot be committed tells every job in it and writes nothing.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use ludo_fair::Action;
use ludo_rules::Colour;

use super::sqlite::SqliteBackend;
use super::*;
use crate::ids::{GameId, IdentityId, RoomCode};

/// SQLite, counting the groups it commits, and failing every commit while told to.
struct Probe {
    db: SqliteBackend,
    commits: Arc<AtomicUsize>,
    fail_commits: Arc<AtomicBool>,
}

impl Backend for Probe {
    fn known_identity(
        &mut self,
        hash: &str,
        name: &str,
        now: i64,
    ) -> StoreResult<Option<IdentityId>> {
        self.db.known_identity(hash, name, now)
    }
    fn identify(
        &mut self,
        hash: &str,
        name: &str,
        id: &IdentityId,
        now: i64,
    ) -> StoreResult<IdentityId> {
        self.db.identify(hash, name, id, now)
    }
    fn save_room(
        &mut self,
        code: &RoomCode,
        host: &IdentityId,
        state: &str,
        now: i64,
    ) -> StoreResult<()> {
        self.db.save_room(code, host, state, now)
    }
    fn room(&mut self, code: &RoomCode) -> StoreResult<Option<String>> {
        self.db.room(code)
    }
    fn rooms_in_play(&mut self) -> StoreResult<Vec<(RoomCode, String)>> {
        self.db.rooms_in_play()
    }
    fn create_game(&mut self, game: &NewGame) -> StoreResult<()> {
        self.db.create_game(game)
    }
    fn append_action(
        &mut self,
        game: &GameId,
        number: u64,
        seat: Colour,
        action: &Action,
        stand_in: Option<&str>,
        at: i64,
    ) -> StoreResult<bool> {
        self.db
            .append_action(game, number, seat, action, stand_in, at)
    }
    fn finish_game(
        &mut self,
        game: &GameId,
        places: &BTreeMap<Colour, u8>,
        at: i64,
    ) -> StoreResult<Vec<RatingChange>> {
        self.db.finish_game(game, places, at)
    }
    fn game(&mut self, id: &GameId) -> StoreResult<Option<StoredGame>> {
        self.db.game(id)
    }
    fn latest_game(&mut self, room: &RoomCode) -> StoreResult<Option<StoredGame>> {
        self.db.latest_game(room)
    }
    fn rating(&mut self, identity: &IdentityId, family: &str) -> StoreResult<(f64, u32)> {
        self.db.rating(identity, family)
    }
    fn leaderboard(&mut self, family: &str, limit: u32) -> StoreResult<Vec<Leader>> {
        self.db.leaderboard(family, limit)
    }
    fn profile(&mut self, identity: &IdentityId) -> StoreResult<Option<PlayerProfile>> {
        self.db.profile(identity)
    }
    fn forget(&mut self, what: &Forgetting) -> StoreResult<Forgotten> {
        self.db.forget(what)
    }
    fn groups_writes(&self) -> bool {
        self.db.groups_writes()
    }
    fn begin_group(&mut self) -> StoreResult<()> {
        self.db.begin_group()
    }
    fn begin_job(&mut self) -> StoreResult<()> {
        self.db.begin_job()
    }
    fn end_job(&mut self, keep: bool) -> StoreResult<()> {
        self.db.end_job(keep)
    }
    fn commit_group(&mut self) -> StoreResult<()> {
        if self.fail_commits.load(Ordering::SeqCst) {
            self.db.abandon_group()?;
            return Err(StoreError("the disk is full".to_owned()));
        }
        self.commits.fetch_add(1, Ordering::SeqCst);
        self.db.commit_group()
    }
    fn abandon_group(&mut self) -> StoreResult<()> {
        self.db.abandon_group()
    }
}

struct Setup {
    store: Store,
    commits: Arc<AtomicUsize>,
    fail_commits: Arc<AtomicBool>,
    _dir: tempfile::TempDir,
}

fn setup() -> Setup {
    let dir = tempfile::tempdir().unwrap();
    let commits = Arc::new(AtomicUsize::new(0));
    let fail_commits = Arc::new(AtomicBool::new(false));
    let mut db = SqliteBackend::open(&dir.path().join("t.db")).unwrap();
    // Every room has a host.
    db.identify("secret", "Ana", &"ana".into(), 0).unwrap();
    let store = Store::start(Probe {
        db,
        commits: commits.clone(),
        fail_commits: fail_commits.clone(),
    });
    Setup {
        store,
        commits,
        fail_commits,
        _dir: dir,
    }
}

/// Holds the storage thread busy for a moment, so that the jobs sent meanwhile wait together.
async fn while_busy<T>(store: &Store, send: impl std::future::Future<Output = T>) -> T {
    let busy = spawn_job(store, |_| {
        std::thread::sleep(Duration::from_millis(300));
        Ok(())
    });
    tokio::time::sleep(Duration::from_millis(50)).await;
    let sent = send.await;
    busy.await.unwrap().unwrap();
    sent
}

/// Sends `work` to the storage thread from a task of its own.
fn spawn_job(
    store: &Store,
    work: impl FnOnce(&mut dyn Backend) -> StoreResult<()> + Send + 'static,
) -> tokio::task::JoinHandle<StoreResult<()>> {
    let store = store.clone();
    tokio::spawn(async move { store.run(work).await })
}

fn save(store: &Store, code: &str) -> tokio::task::JoinHandle<StoreResult<()>> {
    let code = RoomCode::from(code);
    spawn_job(store, move |b| b.save_room(&code, &"ana".into(), "{}", 1))
}

async fn rooms(store: &Store, codes: &[&str]) -> Vec<bool> {
    let codes: Vec<RoomCode> = codes.iter().map(|&c| c.into()).collect();
    store
        .run(move |b| {
            codes
                .iter()
                .map(|c| b.room(c).map(|r| r.is_some()))
                .collect()
        })
        .await
        .unwrap()
}

#[tokio::test]
async fn jobs_waiting_together_share_one_commit_and_each_gets_its_own_result() {
    let s = setup();
    let codes: Vec<String> = (0..50).map(|i| format!("R{i}")).collect();
    let saves = while_busy(&s.store, async {
        let saves: Vec<_> = codes.iter().map(|c| save(&s.store, c)).collect();
        tokio::task::yield_now().await;
        saves
    })
    .await;
    for saved in saves {
        saved.await.unwrap().unwrap();
    }
    assert_eq!(s.commits.load(Ordering::SeqCst), 1, "one commit for the 50");
    let codes: Vec<&str> = codes.iter().map(String::as_str).collect();
    assert!(rooms(&s.store, &codes).await.into_iter().all(|r| r));
}

#[tokio::test]
async fn a_job_that_fails_in_a_group_undoes_only_its_own_writes() {
    let s = setup();
    let (a, failing, c) = while_busy(&s.store, async {
        let a = save(&s.store, "A");
        let failing = spawn_job(&s.store, |b| {
            b.save_room(&"B".into(), &"ana".into(), "{}", 1)?;
            Err(StoreError("the second half failed".to_owned()))
        });
        let c = save(&s.store, "C");
        tokio::task::yield_now().await;
        (a, failing, c)
    })
    .await;
    assert!(a.await.unwrap().is_ok());
    assert!(failing.await.unwrap().is_err());
    assert!(c.await.unwrap().is_ok());
    assert_eq!(s.commits.load(Ordering::SeqCst), 1, "one group");
    assert_eq!(rooms(&s.store, &["A", "B", "C"]).await, [true, false, true]);
}

#[tokio::test]
async fn a_job_that_panics_in_a_group_fails_alone() {
    let s = setup();
    let (a, panicking, c) = while_busy(&s.store, async {
        let a = save(&s.store, "A");
        let panicking = spawn_job(&s.store, |b| {
            b.save_room(&"B".into(), &"ana".into(), "{}", 1)?;
            panic!("a job fails");
        });
        let c = save(&s.store, "C");
        tokio::task::yield_now().await;
        (a, panicking, c)
    })
    .await;
    assert!(a.await.unwrap().is_ok());
    assert!(panicking.await.unwrap().is_err(), "its caller is told");
    assert!(c.await.unwrap().is_ok());
    assert_eq!(rooms(&s.store, &["A", "B", "C"]).await, [true, false, true]);
}

#[tokio::test]
async fn a_group_that_cannot_be_committed_tells_every_job_and_writes_nothing() {
    let s = setup();
    s.fail_commits.store(true, Ordering::SeqCst);
    let saves = while_busy(&s.store, async {
        let saves: Vec<_> = ["A", "B", "C"].iter().map(|c| save(&s.store, c)).collect();
        tokio::task::yield_now().await;
        saves
    })
    .await;
    for saved in saves {
        let refused = saved.await.unwrap().expect_err("told");
        assert!(refused.0.contains("disk is full"), "{refused}");
    }
    s.fail_commits.store(false, Ordering::SeqCst);
    assert_eq!(
        rooms(&s.store, &["A", "B", "C"]).await,
        [false, false, false]
    );
    let again = save(&s.store, "A").await.unwrap();
    assert!(again.is_ok(), "accepted once storage works again");
}

#[tokio::test]
async fn a_job_reaching_an_idle_storage_thread_runs_at_once_alone() {
    let s = setup();
    let started = std::time::Instant::now();
    save(&s.store, "A").await.unwrap().unwrap();
    assert!(started.elapsed() < Duration::from_millis(250));
    assert_eq!(
        s.commits.load(Ordering::SeqCst),
        0,
        "committed by itself, not as a group"
    );
    assert_eq!(rooms(&s.store, &["A"]).await, [true]);
}
