//! A table's settings and the rules they follow: which turn clocks there are, the clock a ranked
//! table always has, and that ranked play keeps a preset's own rules and passes the first throw
//! on. Not wire vocabulary: the room, matchmaking and the HTTP route that creates rooms all apply
//! these rules, and the room keeps its settings in storage; the wire only carries them (in a
//! room's view, re-exported from [`crate::protocol`]).

use ludo_rules::{Preset, Rules};
use serde::{Deserialize, Serialize};

use crate::protocol::{Refusal, RefusalCode};

/// A room's settings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// The rules played.
    pub rules: Rules,
    /// Seconds a turn may take before the CPU plays it (none, 30 or 60).
    pub clock: Option<u32>,
    /// Ranked or friendly.
    pub ranked: bool,
    /// Whether each new game at the table starts with the seat after the one that started the
    /// last (the house rule "the next player starts when playing again", on by default); off,
    /// the same seat starts again while it is taken. Always on at a ranked table.
    #[serde(default = "rotate_by_default")]
    pub rotate: bool,
    /// Whether the room is listed for anyone to join (while a seat is free) or watch (while a
    /// game is played). Private rooms, the default, are never listed.
    #[serde(default)]
    pub public: bool,
}

const fn rotate_by_default() -> bool {
    true
}

/// The turn clocks a room may have, in seconds: `None` for no clock.
pub const CLOCKS: [Option<u32>; 3] = [None, Some(30), Some(60)];

/// The turn clock of a ranked table when none was chosen, in seconds (one of [`CLOCKS`]).
pub const RANKED_CLOCK: u32 = 60;

/// Checks a turn clock asked for, in seconds.
///
/// # Errors
/// `bad_message` for a clock that is not one of [`CLOCKS`].
pub fn check_clock(clock: Option<u32>) -> Result<(), Refusal> {
    if CLOCKS.contains(&clock) {
        return Ok(());
    }
    let seconds: Vec<String> = CLOCKS.iter().flatten().map(u32::to_string).collect();
    Err(Refusal::new(
        RefusalCode::BadMessage,
        format!("clock: none, {} seconds", seconds.join(" or ")),
    ))
}

/// The clock a table plays with: the one chosen, except that a ranked table always has one (so
/// that nobody can hold a rated game forever by never acting), [`RANKED_CLOCK`] unless 30 s was
/// chosen.
pub const fn clock_for(ranked: bool, chosen: Option<u32>) -> Option<u32> {
    match chosen {
        None if ranked => Some(RANKED_CLOCK),
        other => other,
    }
}

impl Settings {
    /// Whether a game at a table with `seats` seats under these settings counts for ratings:
    /// a ranked room, except Vietnamese games of more than two seats, which are always friendly.
    pub fn rates(&self, seats: usize) -> bool {
        self.ranked && !(self.rules.preset_name() == Preset::Vietnamese && seats > 2)
    }

    /// These settings with the changes a `settings` request asks for, checked as a whole.
    ///
    /// # Errors
    /// `bad_rules` (with the engine's reason) for contradictory house rules, `bad_message` for
    /// rules that do not read or a clock other than none, 30 or 60, and what [`Settings::check`]
    /// refuses.
    pub fn changed(
        &self,
        rules: Option<&serde_json::Value>,
        clock: Option<Option<u32>>,
        ranked: Option<bool>,
        rotate: Option<bool>,
        public: Option<bool>,
    ) -> Result<Settings, Refusal> {
        let rules = match rules {
            None => self.rules,
            Some(json) => read_rules(&json.to_string())?,
        };
        let clock = clock.unwrap_or(self.clock);
        check_clock(clock)?;
        let ranked = ranked.unwrap_or(self.ranked);
        let settings = Settings {
            rules,
            clock: clock_for(ranked, clock),
            ranked,
            rotate: rotate.unwrap_or(self.rotate),
            public: public.unwrap_or(self.public),
        };
        settings.check()?;
        Ok(settings)
    }

    /// Checks that these settings can be played: ranked games play a preset's own rules, so
    /// that ratings compare like with like.
    pub fn check(&self) -> Result<(), Refusal> {
        let preset = self.rules.preset_name();
        if self.ranked && self.rules != Rules::preset(preset) {
            return Err(Refusal::new(
                RefusalCode::UnrankedRules,
                format!(
                    "ranked games play the {} rules without house-rule changes",
                    preset.name()
                ),
            ));
        }
        if self.ranked && !self.rotate {
            return Err(Refusal::new(
                RefusalCode::UnrankedRules,
                "a ranked table always passes the first throw on to the next seat",
            ));
        }
        Ok(())
    }
}

/// Reads rules as a position's `rules` field holds them (a preset's name, or a preset and options
/// over it).
///
/// # Errors
/// `bad_rules` with the engine's reason for options that contradict each other, `bad_message`
/// for JSON that is not rules.
pub fn read_rules(json: &str) -> Result<Rules, Refusal> {
    Rules::check_json(json).map_err(|e| match e {
        Ok(contradiction) => Refusal::contradiction(&contradiction),
        Err(unreadable) => Refusal::new(RefusalCode::BadMessage, format!("rules: {unreadable}")),
    })
}
