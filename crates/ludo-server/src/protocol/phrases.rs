//! The quick phrases: wire vocabulary, the ids `say` sends and `said` carries (how often a person
//! may say one is the room's business).

/// The quick phrases and emoji reactions a person may send, by id; each client says them in its
/// reader's own language. There is no free text: a site without accounts cannot moderate it.
pub const PHRASES: &[&str] = &[
    "hello",
    "good_luck",
    "nice_one",
    "oops",
    "well_played",
    "good_game",
    "thanks",
    "sorry",
    "your_turn",
    "rematch",
    "emoji_smile",
    "emoji_laugh",
    "emoji_wow",
    "emoji_sad",
    "emoji_angry",
    "emoji_clap",
];
