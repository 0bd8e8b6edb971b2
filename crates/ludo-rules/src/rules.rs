//! A ruleset: a preset and the options that override it, read and written as in
//! `position.md` §1 (`"classic"` or `{"preset": "qdan", "bonus_on_finish": true}`).

use std::fmt;

use serde::de::{self, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::options::{
    Board, FaceSet, FirstPlayer, Layout, NoPieceOut, Options, OptionsError, Passing, Preset, Safe,
};

/// A checked ruleset: the preset it was named after and the options in force.
///
/// Written back as the preset plus every option whose value differs from the preset's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    preset: Preset,
    options: Options,
}

impl Rules {
    /// A ruleset from a preset and the options in force.
    ///
    /// # Errors
    /// When the options contradict each other (`rules.md` §3).
    pub fn new(preset: Preset, options: Options) -> Result<Rules, OptionsError> {
        options.validate()?;
        Ok(Rules { preset, options })
    }

    /// Reads a ruleset as a position's `rules` field holds it (`"classic"`, or a preset and
    /// options over it), telling a contradiction between options apart from unreadable JSON.
    ///
    /// # Errors
    /// `Err(Ok(contradiction))` when the options contradict each other; `Err(Err(message))` when
    /// the JSON is not a ruleset.
    pub fn check_json(json: &str) -> Result<Rules, Result<OptionsError, String>> {
        // Read straight into the overrides, never into a generic JSON tree: a long list is refused
        // at its first wrong element, and a key given twice is refused, not taken last-wins.
        let overrides = if json.trim_start().starts_with('"') {
            Overrides {
                preset: serde_json::from_str(json).map_err(|e| Err(e.to_string()))?,
                ..Overrides::default()
            }
        } else {
            serde_json::from_str(json).map_err(|e| Err(e.to_string()))?
        };
        overrides.resolve().map_err(Ok)
    }

    /// The preset's own rules.
    pub const fn preset(preset: Preset) -> Rules {
        Rules {
            preset,
            options: preset.options(),
        }
    }

    /// The preset this ruleset names.
    pub const fn preset_name(&self) -> Preset {
        self.preset
    }

    /// The options in force.
    #[inline]
    pub const fn options(&self) -> &Options {
        &self.options
    }
}

impl Default for Rules {
    fn default() -> Self {
        Rules::preset(Preset::Qdan)
    }
}

/// Options given one by one over a preset; each `None` keeps the preset's value.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Overrides {
    #[serde(default)]
    preset: Preset,
    board: Option<Board>,
    layout: Option<Layout>,
    dice: Option<u8>,
    exit_values: Option<FaceSet>,
    exit_on_double: Option<bool>,
    bonus_values: Option<FaceSet>,
    bonus_on_double: Option<bool>,
    three_bonus_forfeit: Option<bool>,
    bonus_on_capture: Option<bool>,
    bonus_on_finish: Option<bool>,
    bonus_if_no_move: Option<bool>,
    no_piece_out: Option<NoPieceOut>,
    safe: Option<Safe>,
    passing: Option<Passing>,
    stacking: Option<bool>,
    exact_finish: Option<bool>,
    rank_everyone: Option<bool>,
    first_player: Option<FirstPlayer>,
}

impl Overrides {
    fn resolve(self) -> Result<Rules, OptionsError> {
        let p = self.preset.options();
        let options = Options {
            board: self.board.unwrap_or(p.board),
            layout: self.layout.unwrap_or(p.layout),
            dice: self.dice.unwrap_or(p.dice),
            exit_values: self.exit_values.unwrap_or(p.exit_values),
            exit_on_double: self.exit_on_double.unwrap_or(p.exit_on_double),
            bonus_values: self.bonus_values.unwrap_or(p.bonus_values),
            bonus_on_double: self.bonus_on_double.unwrap_or(p.bonus_on_double),
            three_bonus_forfeit: self.three_bonus_forfeit.unwrap_or(p.three_bonus_forfeit),
            bonus_on_capture: self.bonus_on_capture.unwrap_or(p.bonus_on_capture),
            bonus_on_finish: self.bonus_on_finish.unwrap_or(p.bonus_on_finish),
            bonus_if_no_move: self.bonus_if_no_move.unwrap_or(p.bonus_if_no_move),
            no_piece_out: self.no_piece_out.unwrap_or(p.no_piece_out),
            safe: self.safe.unwrap_or(p.safe),
            passing: self.passing.unwrap_or(p.passing),
            stacking: self.stacking.unwrap_or(p.stacking),
            exact_finish: self.exact_finish.unwrap_or(p.exact_finish),
            rank_everyone: self.rank_everyone.unwrap_or(p.rank_everyone),
            first_player: self.first_player.unwrap_or(p.first_player),
        };
        Rules::new(self.preset, options)
    }
}

impl Serialize for Rules {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (o, p) = (&self.options, self.preset.options());
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("preset", &self.preset)?;
        macro_rules! differing {
            ($($field:ident),*) => {
                $(if o.$field != p.$field {
                    map.serialize_entry(stringify!($field), &o.$field)?;
                })*
            };
        }
        differing!(
            board,
            layout,
            dice,
            exit_values,
            exit_on_double,
            bonus_values,
            bonus_on_double,
            three_bonus_forfeit,
            bonus_on_capture,
            bonus_on_finish,
            bonus_if_no_move,
            no_piece_out,
            safe,
            passing,
            stacking,
            exact_finish,
            rank_everyone,
            first_player
        );
        map.end()
    }
}

struct RulesVisitor;

impl<'de> Visitor<'de> for RulesVisitor {
    type Value = Rules;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a preset name or an object with a preset and options")
    }

    fn visit_str<E: de::Error>(self, name: &str) -> Result<Rules, E> {
        name.parse::<Preset>().map(Rules::preset).map_err(E::custom)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Rules, A::Error> {
        let overrides = Overrides::deserialize(de::value::MapAccessDeserializer::new(map))?;
        overrides.resolve().map_err(de::Error::custom)
    }
}

impl<'de> Deserialize<'de> for Rules {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(RulesVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(json: &str) -> Result<Rules, String> {
        serde_json::from_str(json).map_err(|e| e.to_string())
    }

    #[test]
    fn a_contradiction_is_told_apart_from_unreadable_rules_and_has_a_code() {
        let contradiction = Rules::check_json(r#"{"preset": "qdan", "dice": 2}"#)
            .unwrap_err()
            .unwrap();
        assert_eq!(contradiction.code(), "bonus_values_with_two_dice");
        assert_eq!(contradiction.params()["option"], "bonus_values");
        let one_die = Rules::check_json(r#"{"preset": "classic", "exit_on_double": true}"#)
            .unwrap_err()
            .unwrap();
        assert_eq!(
            (one_die.code(), one_die.params()["option"].as_str()),
            ("double_with_one_die", Some("exit_on_double"))
        );
        assert!(
            Rules::check_json(r#"{"preset": "qdan", "turbo": true}"#)
                .unwrap_err()
                .is_err()
        );
        assert_eq!(
            Rules::check_json(r#""classic""#),
            Ok(Rules::preset(Preset::Classic))
        );
        assert_eq!(
            Rules::check_json(r#"{"preset": "qdan", "safe": "none"}"#),
            parse(r#"{"preset": "qdan", "safe": "none"}"#).map_err(Err)
        );
    }

    #[test]
    fn an_option_given_twice_is_refused_rather_than_the_last_taken() {
        let twice = Rules::check_json(r#"{"preset": "qdan", "safe": "none", "safe": "stars"}"#);
        let message = twice.unwrap_err().unwrap_err();
        assert!(message.contains("duplicate field `safe`"), "{message}");
    }

    #[test]
    fn a_long_list_of_faces_is_read_without_keeping_it_and_refused_at_its_first_wrong_face() {
        let faces = vec!["6"; 200_000].join(",");
        let long = format!(r#"{{"preset": "qdan", "bonus_values": [{faces}]}}"#);
        assert_eq!(
            Rules::check_json(&long).map(|rules| rules.options().bonus_values),
            Ok(FaceSet::of(&[6]))
        );
        let wrong = format!(r#"{{"preset": "qdan", "bonus_values": [{faces}, {{}}]}}"#);
        assert!(Rules::check_json(&wrong).unwrap_err().is_err());
        let outside = Rules::check_json(r#"{"preset": "qdan", "exit_values": [6, 7, 1]}"#);
        let message = outside.unwrap_err().unwrap_err();
        assert!(message.contains("die face 7 is outside 1..6"), "{message}");
    }

    #[test]
    fn a_preset_name_alone_is_short_for_the_preset() {
        assert_eq!(parse(r#""classic""#), Ok(Rules::preset(Preset::Classic)));
        assert_eq!(
            parse(r#"{"preset": "classic"}"#),
            Ok(Rules::preset(Preset::Classic))
        );
    }

    #[test]
    fn options_override_the_preset() {
        let rules =
            parse(r#"{"preset": "qdan", "bonus_on_finish": true, "safe": "none"}"#).unwrap();
        assert!(rules.options().bonus_on_finish);
        assert_eq!(rules.options().safe, Safe::None);
        assert_eq!(rules.options().passing, Passing::Blockades);
    }

    #[test]
    fn rules_are_written_as_the_preset_and_the_options_that_differ() {
        let rules = parse(r#"{"preset": "qdan", "bonus_on_finish": true, "dice": 1}"#).unwrap();
        assert_eq!(
            serde_json::to_string(&rules).unwrap(),
            r#"{"preset":"qdan","bonus_on_finish":true}"#
        );
    }

    #[test]
    fn an_unknown_option_is_refused_by_name() {
        let err = parse(r#"{"preset": "qdan", "bonus_on_sunday": true}"#).unwrap_err();
        assert!(err.contains("bonus_on_sunday"), "{err}");
    }

    #[test]
    fn an_unknown_value_or_preset_is_refused() {
        assert!(parse(r#"{"passing": "sometimes"}"#).is_err());
        assert!(parse(r#""chess""#).is_err());
        assert!(parse(r#"{"dice": 3}"#).unwrap_err().contains("dice"));
    }

    #[test]
    fn contradictory_overrides_are_refused_naming_them() {
        let err = parse(r#"{"preset": "vietnamese", "layout": "by_players"}"#).unwrap_err();
        assert!(err.contains("by_players"), "{err}");
    }
}
