//! JSON read as a tree, as `serde_json::Value` reads it, except that an object giving one key
//! twice is refused: the generic tree would keep the last value silently, so `{"ranked": false,
//! "ranked": true}` would mean whatever the reader's order made of it.

use std::fmt;

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

/// Reads `text` as one JSON value.
///
/// # Errors
/// The reader's error for text that is not JSON, or that gives a key twice in one object.
pub fn parse(text: &str) -> Result<Value, serde_json::Error> {
    let mut reader = serde_json::Deserializer::from_str(text);
    let value = reader.deserialize_any(Strict)?;
    reader.end()?;
    Ok(value)
}

/// Builds a `Value`, refusing duplicate keys at every depth.
struct Strict;

impl<'de> de::DeserializeSeed<'de> for Strict {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(Strict)
    }
}

impl<'de> Visitor<'de> for Strict {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<Value, A::Error> {
        let mut list = Vec::new();
        while let Some(item) = items.next_element_seed(Strict)? {
            list.push(item);
        }
        Ok(Value::Array(list))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut entries: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        while let Some(key) = entries.next_key::<String>()? {
            if object.contains_key(&key) {
                return Err(de::Error::custom(format!("the key `{key}` is given twice")));
            }
            let value = entries.next_value_seed(Strict)?;
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_reads_as_the_generic_tree_would() {
        let text = r#"{"t": "settings", "rules": {"preset": "qdan", "bonus_values": [6]},
            "clock": null, "n": -3, "x": 1.5, "ok": true}"#;
        assert_eq!(
            parse(text).unwrap(),
            serde_json::from_str::<Value>(text).unwrap()
        );
    }

    #[test]
    fn a_key_given_twice_is_refused_at_any_depth() {
        let top = parse(r#"{"ranked": false, "ranked": true}"#).unwrap_err();
        assert!(
            top.to_string().contains("the key `ranked` is given twice"),
            "{top}"
        );
        let deep = parse(r#"{"rules": {"safe": "none", "safe": "stars"}}"#).unwrap_err();
        assert!(deep.to_string().contains("`safe`"), "{deep}");
        assert!(
            parse(r#"[{"a": 1}, {"a": 2}]"#).is_ok(),
            "one key in each of two objects"
        );
    }

    #[test]
    fn trailing_text_is_refused() {
        assert!(parse(r#"{"t": "roll"} {"t": "roll"}"#).is_err());
    }
}
