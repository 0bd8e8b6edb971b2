//! Group commit on the storage thread (see [`Store`]), on both backends (a real SQLite file, and
//! a fresh database of the PostgreSQL server `LUDO_TEST_POSTGRES` names, skipped without it):
//! jobs waiting together share one commit, a job that fails undoes only its own writes, and a
//! group that cannot be committed tells every job in it and writes nothing.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use ludo_fair::Action;
use ludo_rules::Colour;

use super::*;
use crate::ids::{GameId, IdentityId, RoomCode};

/// Runs each named test of this file on both backends, as `store::group_tests::sqlite::NAME`
/// and `store::group_tests::postgres::NAME`.
macro_rules! on_both_backends {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test]
                async fn $name() {
                    super::$name(super::on_sqlite()).await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test]
                async fn $name() {
                    let Some(setup) = super::on_postgres() else {
                        return;
                    };
                    super::$name(setup).await;
                }
            )*
        }
    };
}

on_both_backends!(
    jobs_waiting_together_share_one_commit_and_each_gets_its_own_result,
    a_job_that_fails_in_a_group_undoes_only_its_own_writes,
    a_job_that_panics_in_a_group_fails_alone,
    a_group_that_cannot_be_committed_tells_every_job_and_writes_nothing,
    a_job_reaching_an_idle_storage_thread_runs_at_once_alone,
    a_job_whose_write_fails_may_go_on_and_keep_its_other_writes,
    a_new_game_in_a_group_is_kept_or_undone_with_its_job,
);

/// A backend counting the groups it commits, and failing every commit while told to.
struct Probe<B> {
    db: B,
    commits: Arc<AtomicUsize>,
    fail_commits: Arc<AtomicBool>,
}

impl<B: Backend> Backend for Probe<B> {
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
    /// The SQLite file's directory or the PostgreSQL database, removed at the end.
    _place: Box<dyn std::any::Any + Send>,
}

/// A store over `open`'s backend, opened on the storage thread, with the host every room has.
fn setup<B: Backend>(
    open: impl FnOnce() -> StoreResult<B> + Send + 'static,
    place: Box<dyn std::any::Any + Send>,
) -> Setup {
    let commits = Arc::new(AtomicUsize::new(0));
    let fail_commits = Arc::new(AtomicBool::new(false));
    let (counted, failing) = (commits.clone(), fail_commits.clone());
    let (ready, opened) = std::sync::mpsc::channel();
    let store = Store::spawn(
        move || {
            let mut db = open()?;
            db.identify("secret", "Ana", &"ana".into(), 0)?;
            Ok(Probe {
                db,
                commits: counted,
                fail_commits: failing,
            })
        },
        false,
        move |outcome| ready.send(outcome).unwrap(),
    );
    opened.recv().unwrap().expect("the store opens");
    Setup {
        store,
        commits,
        fail_commits,
        _place: place,
    }
}

fn on_sqlite() -> Setup {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.db");
    setup(move || SqliteBackend::open(&path), Box::new(dir))
}

fn on_postgres() -> Option<Setup> {
    let db = TestDatabase::create()?;
    let url = db.url().to_owned();
    Some(setup(move || PostgresBackend::connect(&url), Box::new(db)))
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

async fn jobs_waiting_together_share_one_commit_and_each_gets_its_own_result(s: Setup) {
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

async fn a_job_that_fails_in_a_group_undoes_only_its_own_writes(s: Setup) {
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

async fn a_job_that_panics_in_a_group_fails_alone(s: Setup) {
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

async fn a_group_that_cannot_be_committed_tells_every_job_and_writes_nothing(s: Setup) {
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

async fn a_job_reaching_an_idle_storage_thread_runs_at_once_alone(s: Setup) {
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

async fn a_job_whose_write_fails_may_go_on_and_keep_its_other_writes(s: Setup) {
    let (a, going_on) = while_busy(&s.store, async {
        let a = save(&s.store, "A");
        let going_on = spawn_job(&s.store, |b| {
            b.save_room(&"B".into(), &"ana".into(), "{}", 1)?;
            // No such host: refused, and undone alone.
            let refused = b.save_room(&"X".into(), &"nobody".into(), "{}", 1);
            assert!(refused.is_err(), "{refused:?}");
            b.save_room(&"C".into(), &"ana".into(), "{}", 1)
        });
        tokio::task::yield_now().await;
        (a, going_on)
    })
    .await;
    assert!(a.await.unwrap().is_ok());
    assert!(going_on.await.unwrap().is_ok());
    assert_eq!(s.commits.load(Ordering::SeqCst), 1, "one group");
    assert_eq!(
        rooms(&s.store, &["A", "B", "X", "C"]).await,
        [true, true, false, true]
    );
}

async fn a_new_game_in_a_group_is_kept_or_undone_with_its_job(s: Setup) {
    let new = |id: &str| super::suite::new_game(id, false, &[(Colour::Yellow, "ana")]);
    let (kept, undone) = (new("KEPT"), new("UNDONE"));
    save(&s.store, "ROOM").await.unwrap().unwrap();
    let (kept, undone) = while_busy(&s.store, async {
        let kept = s.store.run(move |b| b.create_game(&kept));
        let undone = s.store.run(move |b| {
            b.create_game(&undone)?;
            Err::<(), _>(StoreError("the job failed after its game".to_owned()))
        });
        tokio::join!(kept, undone)
    })
    .await;
    kept.unwrap();
    assert!(undone.is_err());
    let games = s
        .store
        .run(|b| Ok((b.game(&"KEPT".into())?, b.game(&"UNDONE".into())?)))
        .await
        .unwrap();
    assert!(games.0.is_some(), "the kept game is stored");
    assert!(games.1.is_none(), "the undone game is not");
}
