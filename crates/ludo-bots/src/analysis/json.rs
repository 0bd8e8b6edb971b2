//! An analysis as JSON, as the browser's engine and the `ludo` command answer it.
//!
//! Built from `Value`s directly rather than with `json!` (which serialises each value again) or
//! by collecting maps (which sorts them): code the browser's engine would carry for this alone.

use serde_json::{Map, Value};

use super::{Analysis, Choice, TurningPoint};

/// A chance rounded to 4 decimals (chances are never negative).
fn rounded(chance: f32) -> Value {
    Value::from((f64::from(chance) * 1e4 + 0.5).floor() / 1e4)
}

/// An object of these fields, in this order.
fn object(fields: Vec<(&str, Value)>) -> Value {
    let mut object = Map::new();
    for (name, value) in fields {
        object.insert(name.to_owned(), value);
    }
    Value::Object(object)
}

fn choice(c: &Choice) -> Value {
    object(vec![
        ("action", c.action.into()),
        ("seat", c.seat.name().into()),
        ("played", c.played.into()),
        ("best", c.best.into()),
        ("played_chance", rounded(c.played_chance)),
        ("best_chance", rounded(c.best_chance)),
        ("worst_chance", rounded(c.worst_chance)),
    ])
}

impl Analysis {
    /// The analysis as JSON, chances rounded to 4 decimals: `{"chances": [[…], …], "start",
    /// "choices": [{"action", "seat", "played", "best", "played_chance", "best_chance",
    /// "worst_chance"}, …]}`, `start` being [`Analysis::first`]; when it is whole, also
    /// `"turning_points": [{"action", "seat", "before", "after"}, …]`, `"costly"` (choices) and
    /// `"summary": {seat: {"best", "costliest"}, …}` (actions, or null).
    pub fn to_json(&self) -> Value {
        let row = |row: &Vec<f32>| -> Value { row.iter().copied().map(rounded).collect() };
        let mut fields = vec![
            ("chances", self.chances.iter().map(row).collect()),
            ("start", self.first.into()),
            ("choices", self.choices.iter().map(choice).collect()),
        ];
        if self.is_whole() {
            let point = |p: &TurningPoint| {
                object(vec![
                    ("action", p.action.into()),
                    ("seat", p.seat.name().into()),
                    ("before", rounded(p.before)),
                    ("after", rounded(p.after)),
                ])
            };
            let mut summary = Map::new();
            for &seat in &self.seats {
                let s = self.summary(seat);
                let s = object(vec![
                    ("best", s.best.into()),
                    ("costliest", s.costliest.into()),
                ]);
                summary.insert(seat.name().to_owned(), s);
            }
            fields.extend([
                (
                    "turning_points",
                    self.turning_points().iter().map(point).collect(),
                ),
                ("costly", self.costly().map(choice).collect()),
                ("summary", summary.into()),
            ]);
        }
        object(fields)
    }
}
