//! Display names: what a person may call themselves at a table, and the form a name is kept in.
//!
//! The character data comes from maintained crates rather than lists of our own: ICU4X's
//! `icu_properties` for the general category and `Default_Ignorable_Code_Point`, and
//! `unicode-security` for the confusable skeletons of Unicode TR39.

use icu_properties::props::{DefaultIgnorableCodePoint, GeneralCategory};
use icu_properties::{CodePointMapData, CodePointSetData};
use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;
use unicode_security::confusable_detection::skeleton;

/// The most characters a display name may have: Unicode scalar values (code points, not bytes
/// and not UTF-16 units), counted after trimming and normalising to NFC (see [`check_name`]).
pub const NAME_MAX_CHARS: usize = 24;

/// Checks a display name and gives it as it is kept and shown: trimmed (of spaces, and of
/// zero-width spaces, word joiners and byte order marks at either end) and in Unicode
/// normalisation form C, so that the same name typed on two keyboards is the same text. It is
/// shown as text, never as HTML.
///
/// A name is refused when:
/// - it has fewer than 1 or more than [`NAME_MAX_CHARS`] characters (Unicode scalar values, after
///   normalising);
/// - it holds control characters, line or paragraph separators (U+2028, U+2029), private-use or
///   unassigned code points;
/// - it holds bidirectional embeddings, overrides or isolates (U+202A–U+202E, U+2066–U+2069),
///   which reorder the text shown after the name;
/// - it holds a default-ignorable character (drawn as nothing: zero-width spaces, word joiners,
///   tags, the Hangul fillers U+115F, U+1160, U+3164 and U+FFA0, U+00AD…) or a blank glyph
///   (U+2800, U+1D159) anywhere. Three kinds are kept where text needs them: the joiners U+200C
///   and U+200D between two characters that can be seen (emoji sequences, Persian and Indic
///   names), variation selectors after one ("❤️"), and the marks U+200E, U+200F and U+061C, which
///   only act like a letter, after one;
/// - nothing in it can be seen (only spaces and combining marks besides the above), or it begins
///   with a combining mark, which would sit on whatever is shown before it;
/// - it reads as a CPU player's label, which the web client writes "CPU · Medium" (in Vietnamese
///   "Máy · Vừa"): its letters and digits, read through their TR39 confusable skeleton, without
///   case, spaces, punctuation and compatibility forms, begin with `cpu` (so "CPU", "cpu 2",
///   "(CPU) Hard", "C.P.U.", "ＣＰＵ", Cherokee "ᏟᏢU" and Lisu "ꓚꓑꓴ" are refused, "Cupid" is
///   not), or are `máy` alone or followed by a level's name in a language of the web client.
///
/// # Errors
/// The reason, in English (the refusal code is `bad_name`).
pub fn check_name(name: &str) -> Result<String, String> {
    let name: String = name
        .trim_matches(|c: char| {
            c.is_whitespace() || matches!(c, '\u{200B}' | '\u{2060}' | '\u{FEFF}')
        })
        .nfc()
        .collect();
    let chars = name.chars().count();
    if chars == 0 || chars > NAME_MAX_CHARS {
        return Err(format!(
            "a name has 1 to {NAME_MAX_CHARS} characters, not {chars}"
        ));
    }
    if name.chars().any(char::is_control) {
        return Err("a name may not hold control characters".to_owned());
    }
    if let Some(c) = name.chars().find(|&c| is_unusable(c)) {
        return Err(format!(
            "a name may not hold U+{:04X}: a line break, a private-use or an unassigned character",
            c as u32
        ));
    }
    if name.chars().any(is_bidi_control) {
        return Err("a name may not hold bidirectional overrides or isolates".to_owned());
    }
    if let Some(c) = misplaced_invisible(&name) {
        return Err(format!(
            "a name may not hold U+{:04X}, which is drawn as nothing",
            c as u32
        ));
    }
    if !name.chars().any(is_visible) {
        return Err("a name needs a character that can be seen".to_owned());
    }
    if name.chars().next().is_some_and(is_combining_mark) {
        return Err("a name may not begin with a combining mark".to_owned());
    }
    if reads_as_cpu(&name) {
        return Err("a name may not read as a CPU player's label".to_owned());
    }
    Ok(name)
}

/// Line and paragraph separators, private-use, surrogate and unassigned code points.
fn is_unusable(c: char) -> bool {
    matches!(
        CodePointMapData::<GeneralCategory>::new().get(c),
        GeneralCategory::LineSeparator
            | GeneralCategory::ParagraphSeparator
            | GeneralCategory::PrivateUse
            | GeneralCategory::Surrogate
            | GeneralCategory::Unassigned
    )
}

/// Bidirectional embeddings, overrides and isolates: they change the order of the text around
/// them. (The marks U+200E, U+200F and U+061C only act like a letter; see [`misplaced_invisible`].)
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Characters drawn as nothing: the default-ignorable ones, and the blank Braille pattern and
/// musical null notehead, which are symbols with an empty glyph.
fn is_invisible(c: char) -> bool {
    CodePointSetData::new::<DefaultIgnorableCodePoint>().contains(c)
        || matches!(c, '\u{2800}' | '\u{1D159}')
}

/// The first invisible character (see [`is_invisible`]) that is not where text needs it: joiners
/// (U+200C, U+200D) between two characters that can be seen, variation selectors and the
/// direction marks (U+200E, U+200F, U+061C) after one.
fn misplaced_invisible(name: &str) -> Option<char> {
    let chars: Vec<char> = name.chars().collect();
    let seen_before =
        |i: usize| i > 0 && (is_visible(chars[i - 1]) || is_combining_mark(chars[i - 1]));
    let seen_after = |i: usize| chars.get(i + 1).is_some_and(|&c| is_visible(c));
    chars.iter().enumerate().find_map(|(i, &c)| {
        let allowed = match c {
            '\u{200C}' | '\u{200D}' => seen_before(i) && seen_after(i),
            '\u{FE00}'..='\u{FE0F}' | '\u{E0100}'..='\u{E01EF}' => seen_before(i),
            '\u{200E}' | '\u{200F}' | '\u{061C}' => i > 0,
            c => !is_invisible(c),
        };
        (!allowed).then_some(c)
    })
}

/// Whether a character can be seen on its own: not a space, control, invisible character or
/// combining mark.
fn is_visible(c: char) -> bool {
    !(c.is_whitespace() || c.is_control() || is_invisible(c) || is_combining_mark(c))
}

/// The names of the CPU levels in the web client's languages (`level.*` in `static/i18n/`),
/// lower case, letters only.
const LEVEL_NAMES: &[&str] = &[
    "random",
    "easy",
    "medium",
    "hard",
    "expert", // English
    "auhasard",
    "facile",
    "moyen",
    "difficile",
    "expert", // French (as in English)
    "aleatório",
    "fácil",
    "médio",
    "difícil",
    "especialista", // Portuguese
    "случайный",
    "лёгкий",
    "средний",
    "сильный",
    "эксперт", // Russian
    "ngẫunhiên",
    "dễ",
    "vừa",
    "khó",
    "chuyêngia", // Vietnamese
];

/// Look-alikes of c and p that TR39's confusables data does not map (Canadian syllabics TA, the
/// small capital P), read as those letters.
fn beyond_tr39(c: char) -> char {
    match c {
        '\u{1455}' => 'c',
        '\u{1D18}' => 'p',
        c => c,
    }
}

/// How a text reads when look-alikes are taken for what they look like: compatibility forms
/// folded, then the TR39 skeleton of its lower case (twice, since the skeleton of a lower-case
/// look-alike may be a capital), lower case; letters, digits and their accents only, composed.
fn reading(text: &str) -> String {
    let lower = |text: String| {
        text.chars()
            .flat_map(char::to_lowercase)
            .collect::<String>()
    };
    let once = lower(skeleton(&lower(text.nfkc().collect())).collect());
    let twice = lower(skeleton(&once).collect());
    twice
        .chars()
        .map(beyond_tr39)
        .filter(|&c| c.is_alphanumeric() || is_combining_mark(c))
        .collect::<String>()
        .nfc()
        .collect()
}

/// Whether a name reads as a CPU player's label (see [`check_name`]).
fn reads_as_cpu(name: &str) -> bool {
    let name = reading(name);
    if name.starts_with(&reading("cpu")) {
        return true;
    }
    name.strip_prefix(&reading("máy")).is_some_and(|rest| {
        rest.is_empty() || LEVEL_NAMES.iter().any(|level| reading(level) == rest)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_trimmed_and_checked() {
        assert_eq!(check_name("  Ana "), Ok("Ana".to_owned()));
        assert!(check_name("").is_err());
        assert!(check_name(&"x".repeat(NAME_MAX_CHARS)).is_ok());
        assert!(check_name(&"x".repeat(NAME_MAX_CHARS + 1)).is_err());
        assert!(check_name("a\u{7}b").is_err());
        assert_eq!(check_name("<b>Bo</b>"), Ok("<b>Bo</b>".to_owned()));
    }

    #[test]
    fn names_are_kept_in_normalisation_form_c() {
        // "é" typed as e and a combining acute accent is the same name as the composed letter.
        assert_eq!(check_name("Ame\u{301}lie"), Ok("Am\u{e9}lie".to_owned()));
        assert_eq!(check_name("Am\u{e9}lie"), Ok("Am\u{e9}lie".to_owned()));
        assert_eq!(check_name("Ho\u{302}\u{323}"), Ok("H\u{1ED9}".to_owned()));
        // Counted after composing: 24 decomposed letters with accents fit.
        assert!(check_name(&"e\u{301}".repeat(24)).is_ok());
        // Zero-width spaces, word joiners and byte order marks at the ends go with the spaces.
        assert_eq!(
            check_name("\u{200B} Ana\u{FEFF}\u{2060}"),
            Ok("Ana".to_owned())
        );
    }

    #[test]
    fn names_with_nothing_to_see_are_refused() {
        for blank in [
            "\u{200B}",
            "\u{200B}\u{200C}\u{200D}",
            "\u{200E}\u{200F}",
            "\u{2060}\u{2061}\u{2062}\u{2063}\u{2064}",
            "\u{FEFF}",
            "\u{3164}",
            "\u{115F}\u{1160}",
            "\u{FFA0}",
            "\u{2800}\u{2800}",
            "\u{AD}",
            "\u{301}",
            "\u{301}\u{302}\u{303}",
            "\u{3000}\u{A0}\u{2003}",
            "\u{FE0F}",
            "\u{E0041}\u{E0042}",
            " \u{200B} \u{3164} ",
        ] {
            assert!(check_name(blank).is_err(), "{blank:?}");
        }
        // A leading combining mark would sit on the text before the name.
        assert!(check_name("\u{301}Ana").is_err());
        // Joiners inside a name with something to see are fine: emoji sequences need them.
        assert!(check_name("Bo \u{1F469}\u{200D}\u{1F4BB}").is_ok());
        assert!(check_name("\u{2764}\u{FE0F}").is_ok());
    }

    #[test]
    fn bidirectional_overrides_and_isolates_are_refused() {
        for c in ('\u{202A}'..='\u{202E}').chain('\u{2066}'..='\u{2069}') {
            assert!(
                check_name(&format!("Ana{c}Bo")).is_err(),
                "U+{:04X}",
                c as u32
            );
        }
        // Right-to-left names, and the marks that only act like a letter, are fine.
        assert!(check_name("\u{645}\u{631}\u{64A}\u{645}").is_ok());
        assert!(check_name("Ana\u{200F}").is_ok());
    }

    #[test]
    fn names_that_read_as_a_cpu_are_refused() {
        for cpu in [
            "CPU",
            "cpu",
            "Cpu · Hard",
            "CPU · Medium",
            "(CPU) Easy",
            "[cpu]",
            "C.P.U.",
            "c p u",
            "cpu2",
            "CPUlover",
            "\u{FF23}\u{FF30}\u{FF35}",
            "\u{421}\u{420}U",
            "\u{1D402}\u{1D40F}\u{1D414}",
            "M\u{e1}y",
            "m\u{e1}y \u{b7} kh\u{f3}",
            "Ma\u{301}y - V\u{1EEB}a",
            "M\u{c1}Y HARD",
        ] {
            assert!(check_name(cpu).is_err(), "{cpu:?}");
        }
        for person in [
            "Cupid", "Ana CPU", "May", "Hard", "Máy bay", "ACPU", "C-3PO",
        ] {
            assert!(check_name(person).is_ok(), "{person:?}");
        }
    }

    /// Every label the web client gives a CPU, in each of its languages, is refused as a name.
    #[test]
    fn no_cpu_label_of_the_web_client_is_a_name() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("static/i18n");
        // Each language's texts are in `i18n/texts-<language>.js`.
        let quoted = |key: &str| -> Vec<String> {
            let opening = format!("'{key}': '");
            ["en", "fr", "pt", "ru", "vi"]
                .iter()
                .flat_map(|language| {
                    let text =
                        std::fs::read_to_string(dir.join(format!("texts-{language}.js"))).unwrap();
                    text.match_indices(&opening)
                        .map(|(at, _)| {
                            let rest = &text[at + opening.len()..];
                            rest[..rest.find('\'').unwrap()].to_owned()
                        })
                        .collect::<Vec<_>>()
                })
                .collect()
        };
        let labels = quoted("cpu.named");
        assert!(labels.len() >= 5, "{labels:?}");
        let mut seen = 0;
        for level in ["random", "easy", "medium", "hard", "expert"] {
            let names = quoted(&format!("level.{level}"));
            assert!(names.len() >= 5, "{level}: {names:?}");
            for name in names {
                for label in &labels {
                    let shown = label.replace("{level}", &name);
                    assert!(check_name(&shown).is_err(), "{shown:?}");
                    seen += 1;
                }
            }
        }
        assert!(seen >= 100);
    }

    #[test]
    fn fillers_blank_glyphs_and_ignorables_are_refused_anywhere_in_a_name() {
        for hidden in [
            "\u{3164}CPU · Medium",
            "Ana\u{115F}",
            "A\u{1160}na",
            "\u{FFA0}Bo",
            "Bo\u{1D159}",
            "Bo\u{2800}Ana",
            "An\u{AD}a",
            "Ana\u{200B}Bo",
            "Ana\u{2061}",
            "Ana\u{E0041}",
            "\u{200F}Ana",
            "\u{200D}Bo",
            "Bo\u{200D}",
            "\u{FE0F}Ana",
        ] {
            assert!(check_name(hidden).is_err(), "{hidden:?}");
        }
        // Where text needs them, they stay.
        for kept in [
            "Bo \u{1F469}\u{200D}\u{1F4BB}",
            "\u{2764}\u{FE0F} Ana",
            "\u{645}\u{6CC}\u{200C}\u{62E}\u{648}\u{627}\u{647}\u{645}",
            "Ana\u{200F}",
        ] {
            assert!(check_name(kept).is_ok(), "{kept:?}");
        }
    }

    #[test]
    fn line_breaks_private_use_and_unassigned_characters_are_refused() {
        for bad in [
            "Ana\u{2028}Bo",
            "Ana\u{2029}Bo",
            "\u{E000}Ana",
            "Ana\u{F8FF}",
            "Ana\u{378}",
            "Bo\u{10FFFD}",
        ] {
            assert!(check_name(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn look_alike_letters_of_any_script_that_read_as_cpu_are_refused() {
        for cpu in [
            "\u{A4DA}\u{A4D1}\u{A4F4}",
            "\u{1455}\u{146D}\u{144C}",
            "\u{13DF}\u{13E2}U",
            "\u{2CA5}\u{2CA3}u",
            "\u{1D04}\u{1D18}\u{1D1C}",
            "\u{2102}PU",
        ] {
            assert!(check_name(cpu).is_err(), "{cpu:?}");
        }
        for person in ["Pug", "Cup", "\u{13DF}\u{13B3}\u{13A9}"] {
            assert!(check_name(person).is_ok(), "{person:?}");
        }
    }
}
