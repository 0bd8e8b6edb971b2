//! The ways an engine call fails, and how each is declared.
//!
//! Every error has a stable code and parameters for programs (a client says it in its reader's
//! words, by code and parameter names), and an English sentence for logs (`Display`); programs
//! read both through [`Fault`].
//!
//! Each kind of error is one enum, declared with [`faults!`] beside the code that raises it, and
//! each is its own public type, so that a call answers only the errors it can make:
//!
//! - [`crate::ThrowError`] in `throw.rs`: a throw that cannot be made with real dice;
//! - [`crate::OptionsError`] in `options.rs`: options that contradict each other;
//! - [`crate::PlayError`] in `turn.rs`: an action the rules forbid;
//! - [`crate::PositionFault`] in `position/fault.rs`: a position that cannot be read or cannot
//!   occur, carried in a [`crate::PositionError`] with the field at fault (a contradiction
//!   between the position's options keeps the [`crate::OptionsError`]'s code).
//!
//! One line of [`faults!`] gives a variant its fields, its code, its parameters and its message,
//! and the macro writes the enum, its `CODES`, `code()`, `params()`, `Display` and [`Fault`]: a
//! variant cannot lack any of them. [`crate::all_codes`] gathers the codes of the four enums.
//!
//! To add an error, add a line to the enum of the module that raises it, then its words in every
//! language of the web client (`crates/ludo-server/static/i18n/`: a test there checks) and its
//! row in `docs/protocol.md` (a test of this crate checks).

/// An engine error as programs read it: a stable snake_case code and the values it speaks of.
pub trait Fault: std::error::Error {
    /// The stable code of the error's kind.
    fn code(&self) -> &'static str;
    /// The values the error speaks of, as a JSON object (empty when there are none).
    fn params(&self) -> serde_json::Value;
}

/// Declares an enum of engine errors, one line per variant: its fields, its code, and its
/// message (a format string whose `{name}`s are the variant's fields).
///
/// ```text
/// faults! {
///     /// The enum's docs.
///     #[derive(Clone, Debug, PartialEq, Eq)]
///     pub enum ExampleError {
///         /// A unit variant: no parameters.
///         Empty => "empty": "no dice";
///         /// A tuple variant names its fields; the parameters are the fields by name.
///         Face(face: u8) => "face": "die face {face} is outside 1..6";
///         /// A struct variant; the message may add arguments after the format string.
///         Over {
///             /// Dice given.
///             count: usize,
///         } => "over": "{} dice, one too many", count;
///         /// Parameters other than the fields are written out, in braces after the code.
///         Named(dice: u8) => "named" { "option": "dice", "dice": dice }: "{dice} dice";
///         /// A variant that is another error enum's, with its code, parameters and message.
///         Inner(error: OtherError) => error;
///     }
/// }
/// ```
///
/// The macro writes the enum, `CODES` (every code of the enum's own variants, in order), `code()`,
/// `params()`, `Display`, `std::error::Error` and [`Fault`].
macro_rules! faults {
    // Another enum's error: its parameters.
    (@params [$inner:ident] [$($field:ident)*] []) => {
        $inner.params()
    };
    // The fields by name.
    (@params [] [$($field:ident)*] []) => {
        $crate::error::faults!(@object $(stringify!($field) => $field),*)
    };
    // Parameters written out.
    (@params [] [$($field:ident)*] [$($key:literal : $value:expr),+]) => {
        $crate::error::faults!(@object $($key => $value),+)
    };
    (@object $($key:expr => $value:expr),*) => {{
        #[allow(unused_mut)]
        let mut params = serde_json::Map::new();
        $(
            let value = serde_json::to_value(&$value).expect("an error's values are JSON");
            params.insert(String::from($key), value);
        )*
        serde_json::Value::Object(params)
    }};
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $(
                $(#[$variant_meta:meta])*
                $variant:ident
                $( ( $($tuple_field:ident : $tuple_type:ty),* $(,)? ) )?
                $( { $( $(#[$field_meta:meta])* $field:ident : $field_type:ty ),* $(,)? } )?
                => $( $code:literal )? $( $inner:ident )?
                $( { $($key:literal : $value:expr),* $(,)? } )?
                $( : $message:literal $(, $argument:expr)* )? ;
            )*
        }
    ) => {
        $(#[$meta])*
        $vis enum $name {
            $(
                $(#[$variant_meta])*
                $variant
                $( ( $($tuple_type),* ) )?
                $( { $( $(#[$field_meta])* $field : $field_type ),* } )?,
            )*
        }

        impl $name {
            /// Every code of this kind of error, in the order declared.
            pub const CODES: &'static [&'static str] = &[$($($code,)?)*];

            /// The stable code of the error.
            #[allow(unused_variables)]
            pub const fn code(&self) -> &'static str {
                match self {
                    $(
                        $name::$variant $( ( $($tuple_field),* ) )? $( { $($field),* } )? => {
                            $( $code )? $( $inner.code() )?
                        }
                    )*
                }
            }

            /// The values the error speaks of, as a JSON object (empty when there are none).
            #[allow(unused_variables)]
            pub fn params(&self) -> serde_json::Value {
                match self {
                    $(
                        $name::$variant $( ( $($tuple_field),* ) )? $( { $($field),* } )? => {
                            $crate::error::faults!(
                                @params [$($inner)?]
                                [$($($tuple_field)*)? $($($field)*)?]
                                [$($($key : $value),*)?]
                            )
                        }
                    )*
                }
            }
        }

        impl std::fmt::Display for $name {
            #[allow(unused_variables)]
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                match self {
                    $(
                        $name::$variant $( ( $($tuple_field),* ) )? $( { $($field),* } )? => {
                            $( write!(f, $message $(, $argument)*) )?
                            $( std::fmt::Display::fmt($inner, f) )?
                        }
                    )*
                }
            }
        }

        impl std::error::Error for $name {}

        impl $crate::error::Fault for $name {
            fn code(&self) -> &'static str {
                $name::code(self)
            }

            fn params(&self) -> serde_json::Value {
                $name::params(self)
            }
        }
    };

}

pub(crate) use faults;
