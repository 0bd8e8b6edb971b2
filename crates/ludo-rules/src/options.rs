//! The options of `rules.md` §3: one value type per option, the three presets, and the checks
//! that refuse values which make no sense together.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::error::faults;

/// The board the game is played on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Board {
    /// The Ludo board: 13 track squares an arm, five home squares and a finish.
    Ludo,
    /// The horse board of cờ cá ngựa: 4 arms of 14 squares and six home cells.
    Horse,
}

/// How many arms the Ludo board has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Layout {
    /// Always the 4-arm cross, whatever the number of seats.
    Cross,
    /// One arm per seat: a horizontal board for 2, a T for 3, the cross for 4.
    ByPlayers,
}

/// What happens when every piece of the seat to throw is in the base or finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NoPieceOut {
    /// Throw as usual.
    Roll,
    /// The throw is not used: the lowest-numbered base piece goes to the start, and the turn ends.
    AutoExit,
    /// Up to three throws to bring a piece out.
    ThreeTries,
}

/// Which track squares are safe from capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Safe {
    /// Every arm's start and the star eight squares further on.
    StartsAndStars,
    /// Every arm's start.
    Starts,
    /// No square.
    None,
}

/// Which pieces stand in the way of a moving piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Passing {
    /// An opponent blockade (two or more pieces of one opponent colour) can be neither passed nor
    /// landed on.
    Blockades,
    /// Nothing blocks.
    Free,
    /// No opponent piece may be passed.
    Opponents,
    /// No piece at all may be passed, own or opponent.
    Any,
}

/// Who throws first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FirstPlayer {
    /// The first listed seat.
    SeatOrder,
    /// A roll-off: the highest throw starts.
    HighestRoll,
}

/// A named set of options.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Preset {
    /// The default, shown to players as the standard rules: Ludo as the Qdan rules page writes
    /// it, with its house rules.
    #[default]
    Qdan,
    /// Classic Ludo as the "Ludo App" rules page writes it: the highest throw starts, and a lone
    /// opponent piece cannot be passed.
    Classic,
    /// The Vietnamese two-dice game, cờ cá ngựa.
    Vietnamese,
}

impl Preset {
    /// Every preset.
    pub const ALL: [Preset; 3] = [Preset::Qdan, Preset::Classic, Preset::Vietnamese];

    /// The preset's name as written in positions.
    pub const fn name(self) -> &'static str {
        match self {
            Preset::Qdan => "qdan",
            Preset::Classic => "classic",
            Preset::Vietnamese => "vietnamese",
        }
    }

    /// The options this preset stands for.
    pub const fn options(self) -> Options {
        match self {
            Preset::Qdan => Options {
                board: Board::Ludo,
                layout: Layout::Cross,
                dice: 1,
                exit_values: FaceSet::of(&[6]),
                exit_on_double: false,
                bonus_values: FaceSet::of(&[6]),
                bonus_on_double: false,
                three_bonus_forfeit: true,
                bonus_on_capture: true,
                bonus_on_finish: false,
                bonus_if_no_move: false,
                no_piece_out: NoPieceOut::Roll,
                safe: Safe::StartsAndStars,
                passing: Passing::Blockades,
                stacking: true,
                exact_finish: true,
                rank_everyone: false,
                first_player: FirstPlayer::SeatOrder,
            },
            Preset::Classic => Options {
                bonus_on_capture: false,
                bonus_if_no_move: true,
                safe: Safe::None,
                passing: Passing::Opponents,
                rank_everyone: true,
                first_player: FirstPlayer::HighestRoll,
                ..Preset::Qdan.options()
            },
            Preset::Vietnamese => Options {
                board: Board::Horse,
                dice: 2,
                exit_values: FaceSet::of(&[1, 6]),
                exit_on_double: true,
                bonus_values: FaceSet::EMPTY,
                bonus_on_double: true,
                three_bonus_forfeit: false,
                bonus_on_capture: false,
                bonus_if_no_move: true,
                safe: Safe::None,
                passing: Passing::Any,
                stacking: false,
                ..Preset::Qdan.options()
            },
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Preset {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Preset::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| format!("`{s}` is not a preset (qdan, classic, vietnamese)"))
    }
}

/// A set of die faces (1..=6), written in JSON as a sorted array such as `[1, 6]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FaceSet(u8);

impl FaceSet {
    /// No face.
    pub const EMPTY: FaceSet = FaceSet(0);

    /// The set of the given faces; panics at compile time on a face outside 1..=6.
    pub const fn of(faces: &[u8]) -> FaceSet {
        let mut bits = 0u8;
        let mut i = 0;
        while i < faces.len() {
            assert!(faces[i] >= 1 && faces[i] <= 6, "die faces are 1..=6");
            bits |= 1 << faces[i];
            i += 1;
        }
        FaceSet(bits)
    }

    /// Whether the set holds this face.
    #[inline]
    pub const fn contains(self, face: u8) -> bool {
        // Without a branch: bits 8 and up are clear, so any face past 7 shifts to nothing.
        let shift = if face < 31 { face } else { 31 };
        (self.0 as u32 >> shift) & 1 != 0
    }

    /// Whether the set has no face.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The faces in increasing order.
    pub fn faces(self) -> impl Iterator<Item = u8> {
        (1..=6).filter(move |&f| self.contains(f))
    }
}

impl Serialize for FaceSet {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.faces())
    }
}

impl<'de> Deserialize<'de> for FaceSet {
    /// Reads a list of die faces one element at a time, keeping only the set: however long the
    /// list, reading it allocates nothing, and its first face outside 1..6 ends the reading.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_seq(FaceSetVisitor)
    }
}

struct FaceSetVisitor;

impl<'de> serde::de::Visitor<'de> for FaceSetVisitor {
    type Value = FaceSet;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a list of die faces from 1 to 6")
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut faces: A) -> Result<FaceSet, A::Error> {
        use serde::de::Error;
        let mut bits = 0u8;
        while let Some(face) = faces.next_element::<u64>()? {
            if !(1..=6).contains(&face) {
                return Err(A::Error::custom(format!("die face {face} is outside 1..6")));
            }
            bits |= 1 << face;
        }
        Ok(FaceSet(bits))
    }
}

/// Every option of `rules.md` §3, resolved to a value; written as JSON under the options' names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Options {
    /// `board`: the Ludo board or the horse board.
    pub board: Board,
    /// `layout`: the cross, or one arm per seat (Ludo board only).
    pub layout: Layout,
    /// `dice`: one or two dice a throw.
    pub dice: u8,
    /// `exit_values`: die faces that bring a piece out (with two dice, either die is enough).
    pub exit_values: FaceSet,
    /// `exit_on_double`: with two dice, any double brings a piece out.
    pub exit_on_double: bool,
    /// `bonus_values`: die faces that give another throw (one die).
    pub bonus_values: FaceSet,
    /// `bonus_on_double`: with two dice, a double gives another throw.
    pub bonus_on_double: bool,
    /// `three_bonus_forfeit`: a third bonus throw in a row ends the turn with no move.
    pub three_bonus_forfeit: bool,
    /// `bonus_on_capture`: a capture gives another throw.
    pub bonus_on_capture: bool,
    /// `bonus_on_finish`: finishing a piece gives another throw.
    pub bonus_on_finish: bool,
    /// `bonus_if_no_move`: a bonus throw with no legal move still gives another throw.
    pub bonus_if_no_move: bool,
    /// `no_piece_out`: what a seat with no piece out does.
    pub no_piece_out: NoPieceOut,
    /// `safe`: which track squares are safe.
    pub safe: Safe,
    /// `passing`: what blocks a moving piece.
    pub passing: Passing,
    /// `stacking`: own pieces may share a square.
    pub stacking: bool,
    /// `exact_finish`: reaching the finish needs the exact count.
    pub exact_finish: bool,
    /// `rank_everyone`: play on after the first seat is done, until one remains.
    pub rank_everyone: bool,
    /// `first_player`: the first listed seat starts, or a roll-off decides.
    pub first_player: FirstPlayer,
}

impl Default for Options {
    fn default() -> Self {
        Preset::Qdan.options()
    }
}

faults! {
    /// Values that make no sense together (`rules.md` §3). Each names the option a person would
    /// change as its `option` parameter.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub enum OptionsError {
        /// `dice` is neither 1 nor 2.
        DiceCount(dice: u8) => "dice_count" { "option": "dice", "dice": dice }:
            "dice: {dice} is not 1 or 2";
        /// `exit_on_double` or `bonus_on_double` with one die.
        DoubleWithOneDie(option: &'static str) => "double_with_one_die":
            "{option} needs two dice, but dice is 1";
        /// A non-empty `bonus_values` with two dice.
        BonusValuesWithTwoDice => "bonus_values_with_two_dice" { "option": "bonus_values" }:
            "bonus_values must be empty with dice = 2 (use bonus_on_double)";
        /// Empty `exit_values` and no `exit_on_double`: no piece could ever leave the base.
        NoWayOut => "no_way_out" { "option": "exit_values" }:
            "exit_values is empty and exit_on_double is false: no piece could leave the base";
        /// `layout = by_players` on the horse board.
        HorseLayout => "horse_layout" { "option": "layout" }:
            "layout = by_players is not possible with board = horse";
        /// `exact_finish = false` on the horse board.
        HorseInexactFinish => "horse_inexact_finish" { "option": "exact_finish" }:
            "exact_finish = false is not possible with board = horse";
        /// Two dice on the Ludo board with `exact_finish = true`.
        TwoDiceExactFinish => "two_dice_exact_finish" { "option": "exact_finish" }:
            "dice = 2 with board = ludo needs exact_finish = false \
             (a piece on the last home square would need a total of 1)";
    }
}

impl Options {
    /// Checks that the values make sense together.
    ///
    /// # Errors
    /// The first contradiction found, naming the options involved.
    pub fn validate(&self) -> Result<(), OptionsError> {
        match self.dice {
            1 => {
                if self.exit_on_double {
                    return Err(OptionsError::DoubleWithOneDie("exit_on_double"));
                }
                if self.bonus_on_double {
                    return Err(OptionsError::DoubleWithOneDie("bonus_on_double"));
                }
            }
            2 => {
                if !self.bonus_values.is_empty() {
                    return Err(OptionsError::BonusValuesWithTwoDice);
                }
            }
            n => return Err(OptionsError::DiceCount(n)),
        }
        if self.exit_values.is_empty() && !self.exit_on_double {
            return Err(OptionsError::NoWayOut);
        }
        match self.board {
            Board::Horse if self.layout == Layout::ByPlayers => Err(OptionsError::HorseLayout),
            Board::Horse if !self.exact_finish => Err(OptionsError::HorseInexactFinish),
            Board::Ludo if self.dice == 2 && self.exact_finish => {
                Err(OptionsError::TwoDiceExactFinish)
            }
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_is_consistent() {
        for preset in Preset::ALL {
            assert_eq!(preset.options().validate(), Ok(()), "{preset}");
        }
    }

    #[test]
    fn presets_differ_as_the_table_says() {
        let (q, c, v) = (
            Preset::Qdan.options(),
            Preset::Classic.options(),
            Preset::Vietnamese.options(),
        );
        assert_eq!(q.safe, Safe::StartsAndStars);
        assert_eq!(c.passing, Passing::Opponents);
        assert_eq!(c.first_player, FirstPlayer::HighestRoll);
        assert!(c.rank_everyone && !q.rank_everyone && !v.rank_everyone);
        assert_eq!(v.board, Board::Horse);
        assert_eq!(v.exit_values, FaceSet::of(&[1, 6]));
        assert!(v.exit_on_double && v.bonus_on_double && !v.stacking);
    }

    #[test]
    fn contradictory_options_are_refused_naming_them() {
        let q = Preset::Qdan.options();
        let v = Preset::Vietnamese.options();
        let cases: [(Options, &str); 8] = [
            (Options { dice: 3, ..q }, "dice"),
            (
                Options {
                    exit_on_double: true,
                    ..q
                },
                "exit_on_double",
            ),
            (
                Options {
                    bonus_on_double: true,
                    ..q
                },
                "bonus_on_double",
            ),
            (
                Options {
                    bonus_values: FaceSet::of(&[6]),
                    ..v
                },
                "bonus_values",
            ),
            (
                Options {
                    exit_values: FaceSet::EMPTY,
                    ..q
                },
                "exit_values",
            ),
            (
                Options {
                    layout: Layout::ByPlayers,
                    ..v
                },
                "layout",
            ),
            (
                Options {
                    exact_finish: false,
                    ..v
                },
                "exact_finish",
            ),
            (
                Options {
                    dice: 2,
                    bonus_values: FaceSet::EMPTY,
                    ..q
                },
                "exact_finish",
            ),
        ];
        for (options, named) in cases {
            let error = options.validate().unwrap_err();
            assert_eq!(error.params()["option"], named, "{error:?}");
            assert!(error.to_string().contains(named), "{error}");
        }
    }

    #[test]
    fn two_dice_on_the_ludo_board_work_with_inexact_finish() {
        let options = Options {
            dice: 2,
            bonus_values: FaceSet::EMPTY,
            exact_finish: false,
            ..Preset::Qdan.options()
        };
        assert_eq!(options.validate(), Ok(()));
    }

    #[test]
    fn face_sets_refuse_faces_outside_one_to_six() {
        assert!(serde_json::from_str::<FaceSet>("[0]").is_err());
        assert!(serde_json::from_str::<FaceSet>("[7]").is_err());
        let set: FaceSet = serde_json::from_str("[6, 1, 6]").unwrap();
        assert_eq!(serde_json::to_string(&set).unwrap(), "[1,6]");
    }
}
