//! Tables and games for the room's unit tests.

use ludo_fair::Action;
use ludo_rules::{Colour, Preset, Rules, Throw};

use super::RoomState;
use super::live::Live;
use crate::ids::IdentityId;
use crate::protocol::{LevelName, Occupant, Settings};

/// The identity id `name`.
pub fn id(name: &str) -> IdentityId {
    IdentityId::from(name)
}

/// Qdan rules, no clock, the next seat starting each game; ranked or not.
pub fn settings(ranked: bool) -> Settings {
    Settings {
        rules: Rules::preset(Preset::Qdan),
        clock: None,
        ranked,
        rotate: true,
        public: false,
    }
}

/// Ana hosts and sits at yellow, Bo at red; a CPU at blue when `cpu`.
pub fn table(ranked: bool, cpu: bool) -> RoomState {
    let mut state = RoomState::seated(
        settings(ranked),
        &[
            (Colour::Yellow, id("ana"), "ana".to_owned()),
            (Colour::Red, id("bo"), "bo".to_owned()),
        ],
    );
    if cpu {
        state.seats.insert(
            Colour::Blue,
            Occupant::Cpu {
                level: LevelName(ludo_bots::Level::Easy),
            },
        );
    }
    state
}

/// A game between the table's seats, yellow to throw first.
pub fn game(state: &RoomState) -> Live {
    let seats = state.seats.keys().copied().collect();
    Live::start(
        "ROOM",
        state.settings.rules,
        seats,
        state.seats.clone(),
        false,
    )
    .expect("a game starts")
    .0
}

/// Plays `live` to its end: throws of 1 to 6 in turn, and each time the first legal move.
pub fn play_to_the_end(live: &mut Live) {
    for step in 0..100_000u32 {
        if live.game.is_over() {
            return;
        }
        let action = match live.game.phase() {
            ludo_rules::Phase::Move => {
                Action::Move(live.game.legal_moves().iter().next().expect("a move").piece)
            }
            _ => Action::Throw(Throw::one((step % 6) as u8 + 1)),
        };
        let next = live.after(action).expect("a legal action");
        live.commit(action, next);
    }
    panic!("the game never ended");
}
