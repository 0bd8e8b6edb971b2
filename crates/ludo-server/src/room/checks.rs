//! The checks that decide whether a room refuses a request, and with which code: pure functions
//! of the table and its game, with no I/O and no clock, so that each refusal and the order of the
//! checks are tested in milliseconds here. The actor runs them before it changes, stores or sends
//! anything.

use ludo_rules::Colour;

use super::RoomState;
use super::live::Live;
use crate::ids::IdentityId;
use crate::protocol::{Occupant, Refusal, RefusalCode, Settings, StandIn};

/// A room's table and its latest game (being played or over), as the checks read them.
pub struct Checks<'a> {
    /// The table.
    pub state: &'a RoomState,
    /// The latest game, if one has started.
    pub live: Option<&'a Live>,
}

impl Checks<'_> {
    /// `not_host` unless `identity` hosts the room.
    pub fn host_only(&self, identity: &IdentityId) -> Result<(), Refusal> {
        if *identity == self.state.host {
            Ok(())
        } else {
            Err(Refusal::new(
                RefusalCode::NotHost,
                "only the host may do that",
            ))
        }
    }

    /// `settings_changed` unless `seen`, the settings version a request accepts (if it names
    /// one), is the table's current one.
    pub fn settings_seen(&self, seen: Option<u64>) -> Result<(), Refusal> {
        match seen {
            Some(version) if version != self.state.settings_version => Err(Refusal::new(
                RefusalCode::SettingsChanged,
                "the settings changed since you saw them: look at them again",
            )),
            _ => Ok(()),
        }
    }

    /// Whether a game is being played (started and not over).
    pub fn game_on(&self) -> bool {
        self.live.is_some_and(|l| !l.game.is_over())
    }

    /// `game_on` while a game is being played: the table changes only between games.
    pub fn lobby_only(&self) -> Result<(), Refusal> {
        if self.game_on() {
            Err(Refusal::new(
                RefusalCode::GameOn,
                "the table cannot change during a game",
            ))
        } else {
            Ok(())
        }
    }

    /// `ranked_people_only` at a ranked table: it seats people only.
    pub fn people_only(&self) -> Result<(), Refusal> {
        if self.state.settings.ranked {
            Err(Refusal::new(
                RefusalCode::RankedPeopleOnly,
                "a ranked table seats people only",
            ))
        } else {
            Ok(())
        }
    }

    /// `ranked_people_only` for ranked `settings` while a CPU sits at the table.
    pub fn no_cpu_for(&self, settings: &Settings) -> Result<(), Refusal> {
        let cpu_seated = self
            .state
            .seats
            .values()
            .any(|o| matches!(o, Occupant::Cpu { .. }));
        if settings.ranked && cpu_seated {
            Err(Refusal::new(
                RefusalCode::RankedPeopleOnly,
                "a ranked table seats people only: remove the CPUs first",
            ))
        } else {
            Ok(())
        }
    }

    /// `expert_unavailable` while an `expert` CPU sits at the table and a game under
    /// `settings` with `seats` seats is one it has no network for ([`ludo_bots::Level::plays`]):
    /// it would play as `hard`. While the table fills (`seats` not known yet) a game of any
    /// number of seats it has a network for will do; at a start, the seats taken must be one.
    pub fn expert_plays(&self, settings: &Settings, seats: Option<usize>) -> Result<(), Refusal> {
        let expert_seated =
            self.state.seats.values().any(
                |o| matches!(o, Occupant::Cpu { level } if level.0 == ludo_bots::Level::Expert),
            );
        let rules = &settings.rules;
        let plays = |n| ludo_bots::Level::Expert.plays(rules, n);
        let playable = match seats {
            Some(n) => plays(n),
            None => (2..=4).any(plays),
        };
        if !expert_seated || playable {
            return Ok(());
        }
        let message = match (ludo_bots::expert::Variant::of(rules, 2), seats) {
            (None, _) => "expert plays only without house rules: seat another level",
            (Some(_), Some(n)) => &format!(
                "expert has not learned these rules with {n} seats: seat another level, or take \
                 another number of seats"
            ),
            (Some(_), None) => "expert has not learned these rules: seat another level",
        };
        Err(Refusal::new(RefusalCode::ExpertUnavailable, message))
    }

    /// `matched_table` at a table matchmaking formed: it keeps its people and its settings.
    pub fn not_matched(&self) -> Result<(), Refusal> {
        if self.state.matched {
            Err(Refusal::new(
                RefusalCode::MatchedTable,
                "a table formed by matchmaking keeps its seats and its settings",
            ))
        } else {
            Ok(())
        }
    }

    /// `seat_taken` unless `colour` is free.
    pub fn seat_free(&self, colour: Colour) -> Result<(), Refusal> {
        if self.state.seats.contains_key(&colour) {
            Err(Refusal::new(
                RefusalCode::SeatTaken,
                format!("{colour} is taken"),
            ))
        } else {
            Ok(())
        }
    }

    /// The seat of a person allowed to act now on `version`. Checks, in this order (the first
    /// that fails decides the refusal): a game is on (`no_game`), the sender plays in it and has
    /// not left it (`not_seated`), it is not over (`game_over`), it is their turn
    /// (`not_your_turn`), their turn clock has not run out (`out_of_time`: the CPU plays the
    /// rest of the turn for them), the version is current (`stale_version`).
    pub fn turn_of(&self, identity: &IdentityId, version: u64) -> Result<Colour, Refusal> {
        let live = self
            .live
            .ok_or_else(|| Refusal::new(RefusalCode::NoGame, "no game has started"))?;
        let seat = live
            .players
            .iter()
            .find_map(|(&c, o)| {
                matches!(o, Occupant::Person { id, .. } if id == identity).then_some(c)
            })
            .filter(|seat| !self.state.left.contains(seat))
            .ok_or_else(|| Refusal::new(RefusalCode::NotSeated, "you do not play in this game"))?;
        if live.game.is_over() {
            return Err(Refusal::new(RefusalCode::GameOver, "the game is over"));
        }
        if live.game.seat() != seat {
            return Err(Refusal::new(
                RefusalCode::NotYourTurn,
                format!("it is {}'s turn", live.game.seat()),
            ));
        }
        if live.stand_in == Some(StandIn::Clock) {
            return Err(Refusal::new(
                RefusalCode::OutOfTime,
                "your time for this turn ran out: the CPU plays the rest of it",
            ));
        }
        if version != live.version() {
            return Err(Refusal::new(
                RefusalCode::StaleVersion,
                format!("the game is at version {}, not {version}", live.version()),
            ));
        }
        Ok(seat)
    }
}

/// `same_address` if two different people seated at a ranked table are connected from one
/// network address: a rated game is between people, not one person's two devices. `seated`
/// holds each connection of a seated person, with its address.
pub fn one_person_per_address<'a>(
    seated: impl IntoIterator<Item = (&'a IdentityId, std::net::IpAddr)>,
) -> Result<(), Refusal> {
    let mut by_address: std::collections::HashMap<std::net::IpAddr, &IdentityId> =
        std::collections::HashMap::new();
    for (identity, address) in seated {
        match by_address.insert(address, identity) {
            Some(other) if other != identity => {
                return Err(Refusal::new(
                    RefusalCode::SameAddress,
                    "two seats of a ranked table are played from one network address",
                ));
            }
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::id;
    use super::super::fixtures::{game, play_to_the_end, settings, table};
    use super::*;
    use ludo_fair::Action;
    use ludo_rules::Throw;

    fn code(outcome: Result<impl std::fmt::Debug, Refusal>) -> &'static str {
        outcome.expect_err("refused").code.as_str()
    }

    #[test]
    fn only_the_host_passes_the_host_check() {
        let state = table(false, false);
        let checks = Checks {
            state: &state,
            live: None,
        };
        assert!(checks.host_only(&id("ana")).is_ok());
        assert_eq!(code(checks.host_only(&id("bo"))), "not_host");
    }

    #[test]
    fn the_table_changes_only_while_no_game_is_played() {
        let state = table(false, false);
        let mut live = game(&state);
        let playing = Checks {
            state: &state,
            live: Some(&live),
        };
        assert!(playing.game_on());
        assert_eq!(code(playing.lobby_only()), "game_on");
        let before = Checks {
            state: &state,
            live: None,
        };
        assert!(before.lobby_only().is_ok());
        // Over: the table may change again.
        play_to_the_end(&mut live);
        let after = Checks {
            state: &state,
            live: Some(&live),
        };
        assert!(!after.game_on());
        assert!(after.lobby_only().is_ok());
    }

    #[test]
    fn a_ranked_table_seats_people_only() {
        let friendly = table(false, true);
        let ranked = table(true, false);
        let checks = |state| Checks { state, live: None };
        assert!(checks(&friendly).people_only().is_ok());
        assert_eq!(code(checks(&ranked).people_only()), "ranked_people_only");
        assert!(checks(&ranked).no_cpu_for(&settings(true)).is_ok());
        assert_eq!(
            code(checks(&friendly).no_cpu_for(&settings(true))),
            "ranked_people_only"
        );
        assert!(checks(&friendly).no_cpu_for(&settings(false)).is_ok());
    }

    #[test]
    fn a_seat_taken_is_refused() {
        let state = table(false, true);
        let checks = Checks {
            state: &state,
            live: None,
        };
        assert!(checks.seat_free(Colour::Green).is_ok());
        for taken in [Colour::Yellow, Colour::Blue, Colour::Red] {
            assert_eq!(code(checks.seat_free(taken)), "seat_taken");
        }
    }

    #[test]
    fn every_turn_refusal_comes_from_the_first_check_that_fails() {
        let mut state = table(false, false);
        let none = Checks {
            state: &state,
            live: None,
        };
        // Everything wrong at once: no game decides.
        assert_eq!(code(none.turn_of(&id("stranger"), 99)), "no_game");
        let live = game(&state);
        let checks = Checks {
            state: &state,
            live: Some(&live),
        };
        assert_eq!(
            checks.turn_of(&id("ana"), 0).expect("ana's turn"),
            Colour::Yellow
        );
        // A stranger on the wrong version: not seated, before the version.
        assert_eq!(code(checks.turn_of(&id("stranger"), 99)), "not_seated");
        // Bo on the wrong version: not his turn, before the version.
        assert_eq!(code(checks.turn_of(&id("bo"), 99)), "not_your_turn");
        assert_eq!(code(checks.turn_of(&id("ana"), 1)), "stale_version");
        // Someone who left no longer plays, even on their turn.
        state.left.insert(Colour::Yellow);
        let left = Checks {
            state: &state,
            live: Some(&live),
        };
        assert_eq!(code(left.turn_of(&id("ana"), 0)), "not_seated");
    }

    #[test]
    fn a_person_out_of_time_is_refused_until_their_next_turn() {
        let state = table(false, false);
        let mut live = game(&state);
        // Ana's clock ran out: the CPU plays her turn.
        live.stand_in = Some(StandIn::Clock);
        let checks = Checks {
            state: &state,
            live: Some(&live),
        };
        assert_eq!(code(checks.turn_of(&id("ana"), 0)), "out_of_time");
        // Before the version: the CPU's turn, whatever she saw.
        assert_eq!(code(checks.turn_of(&id("ana"), 7)), "out_of_time");
        // After whose turn it is: Bo is told it is not his.
        assert_eq!(code(checks.turn_of(&id("bo"), 0)), "not_your_turn");
        // Standing in for someone away who is back does not lock them out.
        live.stand_in = Some(StandIn::Away);
        let away = Checks {
            state: &state,
            live: Some(&live),
        };
        assert_eq!(away.turn_of(&id("ana"), 0).expect("hers"), Colour::Yellow);
        // Her next turn is hers again: the turn passing ends the stand-in. (A 1 with no piece
        // out passes the turn.)
        live.stand_in = Some(StandIn::Clock);
        for seat in [Colour::Yellow, Colour::Red] {
            assert_eq!(live.game.seat(), seat);
            let play = live
                .play(seat, Action::Throw(Throw::one(1)))
                .expect("a throw");
            live.commit(play.action, play.next);
            assert_eq!(live.stand_in, None);
        }
        let next = Checks {
            state: &state,
            live: Some(&live),
        };
        assert_eq!(next.turn_of(&id("ana"), 2).expect("hers"), Colour::Yellow);
    }

    #[test]
    fn a_game_over_refuses_every_player_before_their_turn_or_version() {
        let state = table(false, false);
        let mut live = game(&state);
        play_to_the_end(&mut live);
        let checks = Checks {
            state: &state,
            live: Some(&live),
        };
        assert_eq!(code(checks.turn_of(&id("bo"), 0)), "game_over");
        assert_eq!(code(checks.turn_of(&id("ana"), 12345)), "game_over");
        assert_eq!(code(checks.turn_of(&id("stranger"), 0)), "not_seated");
    }

    #[test]
    fn two_people_from_one_address_may_not_share_a_ranked_table_but_one_person_twice_may() {
        let (home, away) = (
            std::net::IpAddr::from([192, 0, 2, 1]),
            std::net::IpAddr::from([192, 0, 2, 2]),
        );
        let (ana, bo) = (id("ana"), id("bo"));
        assert!(one_person_per_address([(&ana, home), (&bo, away)]).is_ok());
        assert!(
            one_person_per_address([(&ana, home), (&ana, home), (&bo, away)]).is_ok(),
            "Ana in two tabs"
        );
        let refused = one_person_per_address([(&ana, home), (&bo, away), (&bo, home)]);
        assert_eq!(refused.unwrap_err().code.as_str(), "same_address");
    }
}
