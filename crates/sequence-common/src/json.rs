//! Strict JSON reading for records and the other texts that come from
//! outside the process, with messages a person can act on: a file that is
//! empty, a key written twice (which value counts is ambiguous, so it is
//! refused), a value of the wrong type named by its field.

use serde::de::{self, DeserializeOwned, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::fmt;

/// Parses `text` as one JSON value: a leading byte-order mark is skipped,
/// a key repeated within one object is refused.
///
/// # Errors
/// A message for a person: `the text is empty`, `not valid JSON at line 3
/// column 7: expected `,` or `}``, `not valid JSON: the text ends early
/// (line 1, column 12)`, `not valid JSON at line 1 column 25: duplicate
/// key `players``.
pub fn parse_strict(text: &str) -> Result<Value, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim().is_empty() {
        return Err("the text is empty (expected one JSON object)".into());
    }
    serde_json::from_str::<Strict>(text)
        .map(|s| s.0)
        .map_err(|e| describe(&e))
}

/// A serde_json error in words, its position said once.
fn describe(e: &serde_json::Error) -> String {
    let full = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    let msg = full.strip_suffix(&suffix).unwrap_or(&full);
    match e.classify() {
        serde_json::error::Category::Eof => format!(
            "not valid JSON: the text ends early (line {}, column {})",
            e.line(),
            e.column()
        ),
        _ => format!(
            "not valid JSON at line {} column {}: {}",
            e.line(),
            e.column(),
            plain(msg)
        ),
    }
}

/// Reads `v` as a `T`, naming the field at fault by its path
/// (`sequence_length`, `options.refill`) and the types in words.
///
/// # Errors
/// E.g. ``field `sequence_length`: expected a whole number, found the
/// string "5"``.
pub fn from_value_named<T: DeserializeOwned>(v: &Value) -> Result<T, String> {
    serde_path_to_error::deserialize(v.clone()).map_err(|e| {
        let path = e.path().to_string();
        let inner = plain(&e.inner().to_string());
        if path == "." || path.is_empty() {
            inner
        } else {
            format!("field `{path}`: {inner}")
        }
    })
}

/// Serde's words for types made plain: `invalid type: string "5",
/// expected u8` becomes `expected a whole number, found the string "5"`.
pub fn plain(msg: &str) -> String {
    let mut out = msg.to_string();
    if out.starts_with("invalid length ") && out.contains("expected struct ") {
        // serde reads an array as a struct's fields in order
        return "expected a JSON object, found an array".into();
    }
    if let Some(rest) = out.strip_prefix("invalid type: ") {
        if let Some((found, expected)) = rest.split_once(", expected ") {
            out = format!(
                "expected {}, found {}",
                type_words(expected),
                found_words(found)
            );
        }
    } else if let Some(rest) = out.strip_prefix("invalid value: ") {
        if let Some((found, expected)) = rest.split_once(", expected ") {
            out = format!(
                "expected {}, found {}",
                type_words(expected),
                found_words(found)
            );
        }
    }
    out
}

fn type_words(t: &str) -> String {
    match t {
        "u8" | "u16" | "u32" | "u64" | "usize" => "a whole number (0 or more)".into(),
        "i8" | "i16" | "i32" | "i64" | "isize" => "a whole number".into(),
        "f32" | "f64" => "a number".into(),
        "a boolean" => "true or false".into(),
        other if other.starts_with("struct ") => "a JSON object".into(),
        other => other.to_string(),
    }
}

fn found_words(f: &str) -> String {
    if f.starts_with("string ") {
        format!("the {f}")
    } else if let Some(n) = f.strip_prefix("integer `") {
        format!("the number {}", n.trim_end_matches('`'))
    } else if let Some(n) = f.strip_prefix("floating point `") {
        format!("the number {}", n.trim_end_matches('`'))
    } else if let Some(b) = f.strip_prefix("boolean `") {
        b.trim_end_matches('`').to_string()
    } else {
        f.to_string()
    }
}

/// A JSON value read with duplicate keys refused.
struct Strict(Value);

impl<'de> de::Deserialize<'de> for Strict {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Strict, D::Error> {
        d.deserialize_any(StrictVisitor).map(Strict)
    }
}

struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }
    fn visit_i64<E>(self, n: i64) -> Result<Value, E> {
        Ok(Value::from(n))
    }
    fn visit_u64<E>(self, n: u64) -> Result<Value, E> {
        Ok(Value::from(n))
    }
    fn visit_f64<E>(self, n: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(n).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::String(s.to_owned()))
    }
    fn visit_string<E>(self, s: String) -> Result<Value, E> {
        Ok(Value::String(s))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(Strict(v)) = seq.next_element()? {
            items.push(v);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if out.contains_key(&key) {
                return Err(de::Error::custom(format!("duplicate key `{key}`")));
            }
            let Strict(v) = map.next_value()?;
            out.insert(key, v);
        }
        Ok(Value::Object(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_text_is_named() {
        assert_eq!(
            parse_strict("").unwrap_err(),
            "the text is empty (expected one JSON object)"
        );
        assert!(parse_strict(" \n ").unwrap_err().contains("empty"));
    }

    #[test]
    fn early_end_says_its_position_once() {
        let e = parse_strict(r#"{"players": 2"#).unwrap_err();
        assert_eq!(e, "not valid JSON: the text ends early (line 1, column 13)");
    }

    #[test]
    fn syntax_errors_keep_serde_words_and_one_position() {
        let e = parse_strict("{\n  \"a\" 1}").unwrap_err();
        assert_eq!(e, "not valid JSON at line 2 column 7: expected `:`");
    }

    #[test]
    fn duplicate_keys_are_refused_at_any_depth() {
        let e = parse_strict(r#"{"players":2,"players":3}"#).unwrap_err();
        assert!(e.contains("duplicate key `players`"), "{e}");
        let e = parse_strict(r#"{"moves":[{"seat":0,"seat":1}]}"#).unwrap_err();
        assert!(e.contains("duplicate key `seat`"), "{e}");
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        let v = parse_strict("\u{feff}{\"a\":[1,-2,0.5,null,true,\"x\"]}").unwrap();
        assert_eq!(v, serde_json::json!({"a": [1, -2, 0.5, null, true, "x"]}));
    }

    #[test]
    fn wrong_types_are_named_by_field_in_words() {
        #[derive(serde::Deserialize, Debug)]
        #[serde(deny_unknown_fields)]
        struct O {
            #[allow(dead_code)]
            sequence_length: Option<u8>,
            #[allow(dead_code)]
            no_reshuffle: Option<bool>,
        }
        let e = from_value_named::<O>(&serde_json::json!({"sequence_length": "5"})).unwrap_err();
        assert_eq!(
            e,
            "field `sequence_length`: expected a whole number (0 or more), found the string \"5\""
        );
        let e = from_value_named::<O>(&serde_json::json!({"no_reshuffle": 1})).unwrap_err();
        assert_eq!(
            e,
            "field `no_reshuffle`: expected true or false, found the number 1"
        );
        let e = from_value_named::<O>(&serde_json::json!({"sequence_length": 300})).unwrap_err();
        assert!(e.starts_with("field `sequence_length`:"), "{e}");
        let e = from_value_named::<O>(&serde_json::json!([])).unwrap_err();
        assert_eq!(e, "expected a JSON object, found an array");
        let e = from_value_named::<O>(&serde_json::json!("x")).unwrap_err();
        assert_eq!(e, "expected a JSON object, found the string \"x\"");
    }
}
