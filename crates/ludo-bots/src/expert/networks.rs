//! Which games `expert` has a value network for, and the networks themselves.
//!
//! A network is learned for one [`Variant`] (a preset's rules without a house rule changed but the
//! board's layout, and a number of seats) against one model of its opponents
//! ([`Key`]). [`TRAINED`] lists those there are; `expert` is offered exactly where one learned
//! against `medium` is listed ([`plays`]). Each is stored in `networks/<name>.bin` (see
//! [`Key::file`]) and, natively, built into the program.

use std::fmt;
use std::sync::OnceLock;

use ludo_rules::{Board, Game, Geometry, Layout, Options, Preset, Rules};

use super::Model;
use super::features::Shape;
use super::net::{Net, NetError};

use crate::arena::seats_for;

/// A game a network can be learned for: a preset's own rules, on the cross or (on the Ludo board,
/// with two or three seats) on a board of one arm per seat, with 2 to 4 seats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    /// The rules, without a house rule changed but the layout.
    pub preset: Preset,
    /// How many seats are taken.
    pub seats: u8,
    /// The board's layout: [`Layout::ByPlayers`] only where that is not the cross.
    pub layout: Layout,
}

impl Variant {
    /// The variant of `preset` with `seats` seats on the cross, if that many can play.
    pub const fn new(preset: Preset, seats: u8) -> Option<Variant> {
        Variant::on(preset, seats, Layout::Cross)
    }

    /// The variant of `preset` with `seats` seats on the board `layout` draws, if that many can
    /// play there. One arm per seat for four seats is the cross, and is answered as the cross.
    pub const fn on(preset: Preset, seats: u8, layout: Layout) -> Option<Variant> {
        let layout = match (layout, seats, preset.options().board) {
            (Layout::ByPlayers, _, Board::Horse) => return None,
            (Layout::ByPlayers, 4, Board::Ludo) => Layout::Cross,
            (layout, _, _) => layout,
        };
        match seats {
            2..=4 => Some(Variant {
                preset,
                seats,
                layout,
            }),
            _ => None,
        }
    }

    /// The variant a game under `rules` with `seats` seats is: none where a house rule other
    /// than the layout is changed.
    pub fn of(rules: &Rules, seats: usize) -> Option<Variant> {
        let preset = rules.preset_name();
        let layout = rules.options().layout;
        let but_layout = Options {
            layout: preset.options().layout,
            ..*rules.options()
        };
        if but_layout != preset.options() {
            return None;
        }
        Variant::on(preset, u8::try_from(seats).ok()?, layout)
    }

    /// Its rules.
    pub fn rules(self) -> Rules {
        let options = Options {
            layout: self.layout,
            ..self.preset.options()
        };
        Rules::new(self.preset, options).expect("a variant's layout fits its board")
    }

    /// A new game of it, the seats taken clockwise (two face each other).
    pub fn game(self) -> Game {
        let seats = seats_for(usize::from(self.seats)).expect("2 to 4 seats");
        Game::new(self.rules(), seats).expect("every preset seats 2 to 4")
    }

    /// Where a network of it reads each input.
    pub fn shape(self) -> Shape {
        Shape::on(&Geometry::new(
            self.rules().options(),
            usize::from(self.seats),
        ))
    }
}

/// `qdan-2`, or `qdan-2-by_players` on a board of one arm per seat.
impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.preset, self.seats)?;
        match self.layout {
            Layout::Cross => Ok(()),
            Layout::ByPlayers => f.write_str("-by_players"),
        }
    }
}

/// What a network was learned for: its game, and whom it learned against.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Key {
    /// The game.
    pub variant: Variant,
    /// The opponents it played: three (or one or two) `medium`, or `random`.
    pub model: Model,
}

impl Key {
    /// The network of the standard game: `qdan` with four seats, learned against `medium`.
    pub const STANDARD: Key = Key::medium(Preset::Qdan, 4);

    /// The key of a network for `preset` with `seats` seats on the cross learned against
    /// `medium`.
    const fn medium(preset: Preset, seats: u8) -> Key {
        Key::medium_on(preset, seats, Layout::Cross)
    }

    /// The key of a network for `preset` with `seats` seats on the board `layout` draws, learned
    /// against `medium`.
    const fn medium_on(preset: Preset, seats: u8, layout: Layout) -> Key {
        Key {
            variant: Variant {
                preset,
                seats,
                layout,
            },
            model: Model::Medium,
        }
    }
}

/// The name of its file in `networks/` (and, for one learned against `medium`, in the server's
/// `/expert/`), without `.bin`: `qdan-4`, or `qdan-4-random`.
impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.model {
            Model::Medium => write!(f, "{}", self.variant),
            Model::Random => write!(f, "{}-random", self.variant),
        }
    }
}

/// The networks there are.
pub const TRAINED: [Key; 12] = [
    Key::STANDARD,
    Key {
        model: Model::Random,
        ..Key::STANDARD
    },
    Key::medium(Preset::Qdan, 2),
    Key::medium(Preset::Qdan, 3),
    Key::medium(Preset::Classic, 2),
    Key::medium(Preset::Classic, 3),
    Key::medium(Preset::Classic, 4),
    Key::medium(Preset::Vietnamese, 2),
    Key::medium_on(Preset::Qdan, 2, Layout::ByPlayers),
    Key::medium_on(Preset::Qdan, 3, Layout::ByPlayers),
    Key::medium_on(Preset::Classic, 2, Layout::ByPlayers),
    Key::medium_on(Preset::Classic, 3, Layout::ByPlayers),
];

/// Their bytes, built into native programs, in the order of [`TRAINED`].
#[cfg(not(target_arch = "wasm32"))]
pub const BYTES: [&[u8]; TRAINED.len()] = [
    include_bytes!("networks/qdan-4.bin"),
    include_bytes!("networks/qdan-4-random.bin"),
    include_bytes!("networks/qdan-2.bin"),
    include_bytes!("networks/qdan-3.bin"),
    include_bytes!("networks/classic-2.bin"),
    include_bytes!("networks/classic-3.bin"),
    include_bytes!("networks/classic-4.bin"),
    include_bytes!("networks/vietnamese-2.bin"),
    include_bytes!("networks/qdan-2-by_players.bin"),
    include_bytes!("networks/qdan-3-by_players.bin"),
    include_bytes!("networks/classic-2-by_players.bin"),
    include_bytes!("networks/classic-3-by_players.bin"),
];

/// Slots for every network there could be: by preset, seats, layout and model ([`slot`]).
const SLOTS: usize = Preset::ALL.len() * 3 * 2 * 2;

/// A network's slot.
const fn slot(key: Key) -> usize {
    let Variant {
        preset,
        seats,
        layout,
    } = key.variant;
    (((preset as usize) * 3 + (seats as usize - 2)) * 2 + layout as usize) * 2 + key.model as usize
}

/// The networks in use, read once, by [`slot`].
static NETWORKS: [OnceLock<Net>; SLOTS] = [const { OnceLock::new() }; SLOTS];

/// Whether `expert` plays a game under `rules` with `seats` seats as itself: there is a network
/// for it learned against `medium`. Where there is none it is not offered.
pub fn plays(rules: &Rules, seats: usize) -> bool {
    Variant::of(rules, seats).is_some_and(|variant| {
        TRAINED.contains(&Key {
            variant,
            model: Model::Medium,
        })
    })
}

/// Whether `expert` has a network for `game` (see [`plays`]).
pub fn fits(game: &Game) -> bool {
    plays(game.rules(), game.seats().len())
}

/// The network `expert` plays a game under `rules` with `seats` seats with, against opponents
/// modelled as `model`: the one learned against `random` only where there is one, else the one
/// learned against `medium`. Natively always there for a game that [`fits`]; in the browser once
/// [`install`]ed.
pub fn network(rules: &Rules, seats: usize, model: Model) -> Option<&'static Net> {
    let variant = Variant::of(rules, seats)?;
    [model, Model::Medium]
        .into_iter()
        .find_map(|model| loaded(Key { variant, model }))
}

/// The network for `key`: natively, if it is listed; in the browser, if it was installed.
fn loaded(key: Key) -> Option<&'static Net> {
    let network = &NETWORKS[slot(key)];
    #[cfg(not(target_arch = "wasm32"))]
    {
        let i = TRAINED.iter().position(|&k| k == key)?;
        Some(network.get_or_init(|| Net::from_bytes(BYTES[i]).expect("the shipped networks read")))
    }
    #[cfg(target_arch = "wasm32")]
    {
        network.get()
    }
}

/// Hands over a network's bytes (one of `networks/`, as the server serves them at
/// `/expert/<name>.bin`); it is then played with in the game its key names. Natively the
/// built-in networks are kept and the bytes are only checked.
///
/// # Errors
/// When the bytes are not a network.
pub fn install(bytes: &[u8]) -> Result<Key, NetError> {
    let net = Net::from_bytes(bytes)?;
    let key = net.key();
    let _ = NETWORKS[slot(key)].set(net);
    Ok(key)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ludo_rules::Colour;

    #[test]
    fn every_listed_network_reads_and_is_for_its_key() {
        for (key, bytes) in TRAINED.iter().zip(BYTES) {
            assert_eq!(Net::from_bytes(bytes).unwrap().key(), *key);
            assert_eq!(install(bytes).unwrap(), *key);
        }
        assert!(install(b"not a network").is_err());
    }

    #[test]
    fn every_network_there_could_be_has_a_slot_of_its_own() {
        let mut slots: Vec<usize> = Preset::ALL
            .into_iter()
            .flat_map(|preset| (2..=4).map(move |seats| (preset, seats)))
            .flat_map(|(preset, seats)| {
                // Every layout, whether or not its board can be drawn: the slots stay simple.
                [Layout::Cross, Layout::ByPlayers].map(|layout| Variant {
                    preset,
                    seats,
                    layout,
                })
            })
            .flat_map(|variant| {
                [Model::Medium, Model::Random].map(|model| slot(Key { variant, model }))
            })
            .collect();
        slots.sort_unstable();
        assert_eq!(slots, (0..SLOTS).collect::<Vec<_>>());
    }

    #[test]
    fn a_variant_is_a_preset_without_house_rules() {
        let qdan = Rules::default();
        assert_eq!(Variant::of(&qdan, 4), Some(Key::STANDARD.variant));
        assert_eq!(Variant::of(&qdan, 5), None);
        let changed = Rules::check_json(r#"{"preset": "qdan", "stacking": false}"#).unwrap();
        assert_eq!(Variant::of(&changed, 4), None);
        assert_eq!(Key::STANDARD.to_string(), "qdan-4");
    }

    #[test]
    fn a_board_of_one_arm_per_seat_is_a_variant_of_its_own_but_with_four_seats_the_cross() {
        let by_players = |preset| {
            Rules::new(
                preset,
                Options {
                    layout: Layout::ByPlayers,
                    ..Preset::options(preset)
                },
            )
        };
        let t = Variant::of(&by_players(Preset::Classic).unwrap(), 3).unwrap();
        assert_eq!(t.layout, Layout::ByPlayers);
        assert_eq!(t.to_string(), "classic-3-by_players");
        assert_eq!(t.game().rules().options().layout, Layout::ByPlayers);
        let on_the_cross = Variant::new(Preset::Classic, 3).unwrap();
        assert!(t.shape().inputs() < on_the_cross.shape().inputs());
        let cross = Variant::of(&by_players(Preset::Qdan).unwrap(), 4).unwrap();
        assert_eq!(cross, Key::STANDARD.variant);
        assert!(by_players(Preset::Vietnamese).is_err());
        assert_eq!(Variant::on(Preset::Vietnamese, 2, Layout::ByPlayers), None);
    }

    #[test]
    fn against_random_players_the_network_learned_against_medium_stands_in_where_there_is_no_other()
    {
        let standard = Key::STANDARD.variant.game();
        let random = network(standard.rules(), 4, Model::Random).unwrap();
        assert_eq!(random.key().model, Model::Random);
        for variant in TRAINED.map(|k| k.variant) {
            let seats = usize::from(variant.seats);
            let net = network(&variant.rules(), seats, Model::Random).unwrap();
            assert_eq!(net.key().variant, variant);
        }
        let two = Game::new(Rules::default(), &[Colour::Yellow, Colour::Green]).unwrap();
        let net = network(two.rules(), 2, Model::Medium);
        assert_eq!(net.is_some(), fits(&two));
    }
}
