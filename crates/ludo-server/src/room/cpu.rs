//! What the CPU plays when a room plays by itself: the throw the seed gives, or the move its
//! level chooses, searched off the async threads.

use ludo_bots::{Level, Rng};
use ludo_fair::Action;
use ludo_rules::Phase;

use super::live::Live;
use crate::ids::RoomCode;

/// The action the CPU playing at `level` takes for the seat to act in `live`; `None` when the
/// game is over or the search was cancelled. A search that panics fails the room (see
/// `supervise.rs`) rather than being asked again at once, and again.
pub async fn choice(room: &RoomCode, live: &Live, level: Level, rng: &mut Rng) -> Option<Action> {
    match live.game.phase() {
        Phase::Roll | Phase::Rolloff => Some(Action::Throw(live.next_throw())),
        Phase::Move => {
            // The strongest level searches for a few milliseconds: off the async threads, so
            // that other rooms are not held up meanwhile.
            let (game, mut rng) = (live.game, rng.fork());
            let opponents = live.opponents_of(game.seat());
            let choice = tokio::task::spawn_blocking(move || {
                let moves = game.legal_moves();
                let mut player = level.player();
                player.facing(&opponents);
                player.choose(&game, &moves, &mut rng).piece
            })
            .await;
            match choice {
                Ok(piece) => Some(Action::Move(piece)),
                Err(error) if error.is_panic() => std::panic::resume_unwind(error.into_panic()),
                Err(error) => {
                    tracing::error!(%room, %error, "a CPU player was cancelled");
                    None
                }
            }
        }
        Phase::Over => None,
    }
}
