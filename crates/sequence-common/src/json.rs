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
        .map_err(|e| syntax_error(&e))
}

/// A serde_json error in words, its position said once.
fn syntax_error(e: &serde_json::Error) -> String {
    let full = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    let msg = full.strip_suffix(&suffix).unwrap_or(&full);
    match e.classify() {
        // serde_json stops at 128 open arrays and objects: the text may be
        // well-formed, so it is not called invalid
        _ if msg == "recursion limit exceeded" => format!(
            "JSON nested too deeply at line {} column {}: at most 128 arrays and objects inside each other",
            e.line(),
            e.column()
        ),
        serde_json::error::Category::Eof => format!(
            "not valid JSON: the text ends early (line {}, column {})",
            e.line(),
            e.column()
        ),
        _ => format!(
            "not valid JSON at line {} column {}: {}",
            e.line(),
            e.column(),
            syntax_words(msg)
        ),
    }
}

/// serde_json's syntax messages in words a person knows.
fn syntax_words(msg: &str) -> String {
    match msg {
        "expected ident" => {
            "a word that is not true, false or null (text needs double quotes)".into()
        }
        "expected value" => "a JSON value was expected here".into(),
        "trailing characters" => "more text after the end of the JSON value".into(),
        "key must be a string" => "an object key must be in double quotes".into(),
        "trailing comma" => "a comma before a closing bracket".into(),
        other => other.to_string(),
    }
}

/// Reads `v` as a `T`, naming the field at fault by its path
/// (`sequence_length`, `deck[3]`) and the types in words (see [`describe`]).
///
/// # Errors
/// E.g. `sequence_length must be a whole number from 0 to 255, got the
/// string "5"`.
pub fn from_value_named<T: DeserializeOwned>(v: &Value) -> Result<T, String> {
    from_value_hinted(v, NO_HINTS)
}

/// [`from_value_named`] with `hints` saying what some fields must be (a
/// game's rule options: [`crate::TableFacts::option_hints`]).
///
/// # Errors
/// E.g. `win_sequences must be 1, 2, 3 or 4, or null for the official
/// rule (C9), got the string "two"`.
pub fn from_value_hinted<T: DeserializeOwned, K: AsRef<str>, H: AsRef<str>>(
    v: &Value,
    hints: &[(K, H)],
) -> Result<T, String> {
    serde_path_to_error::deserialize(v.clone()).map_err(|e| describe(&e, hints))
}

/// What a field must be, by its path (`bots[].seat` for any element of
/// `bots`), for error messages: `("players", "a number from 2 to 12")`.
pub type Hints = &'static [(&'static str, &'static str)];

/// No hints: every field said from its type.
pub const NO_HINTS: Hints = &[];

/// Longest piece of outside input quoted back in a message, in characters.
pub const MAX_ECHO: usize = 40;

/// `s` cut to [`MAX_ECHO`] characters (with "…" when cut), for quoting
/// outside input back in an error message.
pub fn echo(s: &str) -> String {
    let mut out: String = s.chars().take(MAX_ECHO).collect();
    if s.chars().nth(MAX_ECHO).is_some() {
        out.push('…');
    }
    out
}

/// "a list", "a string", … for messages.
pub fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "true or false",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// The message for a field error of a JSON object read with
/// `serde_path_to_error`: which field (its path), what it must be (from
/// `hints`, else serde's expectation in words), what it was. E.g.
/// "players must be a number from 2 to 12, got the string \"2\"",
/// "field `name` is missing", "unknown field `x` (the fields are …)".
pub fn describe<K: AsRef<str>, H: AsRef<str>>(
    e: &serde_path_to_error::Error<serde_json::Error>,
    hints: &[(K, H)],
) -> String {
    let mut shown = String::new();
    let mut key = String::new();
    for seg in e.path().iter() {
        match seg {
            serde_path_to_error::Segment::Seq { index } => {
                shown.push_str(&format!("[{index}]"));
                key.push_str("[]");
            }
            serde_path_to_error::Segment::Map { key: k }
            | serde_path_to_error::Segment::Enum { variant: k } => {
                if !shown.is_empty() {
                    shown.push('.');
                    key.push('.');
                }
                shown.push_str(k);
                key.push_str(k);
            }
            serde_path_to_error::Segment::Unknown => {}
        }
    }
    let msg = e.inner().to_string();
    let within = |s: &str| {
        if shown.is_empty() {
            s.to_string()
        } else {
            format!("{shown}.{s}")
        }
    };
    if let Some(rest) = msg.strip_prefix("missing field `") {
        let field = rest.split('`').next().unwrap_or(rest);
        let full = within(field);
        let hint_key = if key.is_empty() {
            field.to_string()
        } else {
            format!("{key}.{field}")
        };
        return match hint(hints, &hint_key) {
            Some(h) => format!("field `{full}` is missing: it must be {h}"),
            None => format!("field `{full}` is missing"),
        };
    }
    if let Some(rest) = msg.strip_prefix("unknown field `") {
        let raw_field = rest.split('`').next().unwrap_or(rest);
        let field = echo(raw_field);
        let allowed = rest
            .split_once("expected ")
            .map(|(_, l)| l.trim_start_matches("one of "))
            .unwrap_or("none");
        // the path may end with the unknown key itself
        let parent = shown
            .strip_suffix(raw_field)
            .map_or(shown.as_str(), |p| p.trim_end_matches('.'));
        let place = if parent.is_empty() {
            String::new()
        } else {
            format!(" in `{parent}`")
        };
        return format!("unknown field `{field}`{place} (the fields are {allowed})");
    }
    let expected = hint(hints, &key)
        .map(str::to_string)
        .unwrap_or_else(|| plain_expected(&msg));
    let name = if shown.is_empty() {
        "the value".to_string()
    } else {
        shown
    };
    match got(&msg) {
        Some(g) => format!("{name} must be {expected}, got {g}"),
        None => format!("{name} must be {expected}"),
    }
}

fn hint<'h, K: AsRef<str>, H: AsRef<str>>(hints: &'h [(K, H)], key: &str) -> Option<&'h str> {
    hints
        .iter()
        .find(|(k, _)| k.as_ref() == key)
        .map(|(_, h)| h.as_ref())
}

/// serde's "expected u32" and the like, in words.
pub fn plain_expected(msg: &str) -> String {
    let exp = msg.rsplit_once(", expected ").map_or("", |(_, e)| e);
    match exp {
        "u8" => "a whole number from 0 to 255".into(),
        "u16" | "u32" | "u64" | "usize" => "a whole number ≥ 0".into(),
        "i8" | "i16" | "i32" | "i64" | "isize" => "a whole number".into(),
        "f32" | "f64" => "a number".into(),
        "a boolean" => "true or false".into(),
        "a sequence" => "a list".into(),
        "" => "something else".into(),
        e if e.starts_with("struct ") || e.starts_with("a map") => "a JSON object {…}".into(),
        e => e.replace('`', "\""),
    }
}

/// What the value was, from serde's "invalid type: string \"2\", expected
/// …" / "invalid value: integer `-1`, …" / "unknown variant `x`, …".
fn got(msg: &str) -> Option<String> {
    let what = ["invalid type: ", "invalid value: ", "invalid length "]
        .iter()
        .find_map(|p| msg.strip_prefix(p))
        .and_then(|r| r.rsplit_once(", expected ").map(|(w, _)| w));
    if let Some(w) = what {
        let plain = |p: &str| {
            w.strip_prefix(p)
                .map(|v| echo(v.trim_matches('`')).to_string())
        };
        return Some(if let Some(s) = w.strip_prefix("string ") {
            format!("the string {}", echo(s))
        } else if let Some(v) = plain("integer ")
            .or_else(|| plain("floating point "))
            .or_else(|| plain("boolean "))
        {
            v
        } else {
            match w {
                "map" => "an object".into(),
                "sequence" => "a list".into(),
                "null" | "unit value" => "null".into(),
                w if w.chars().all(|c| c.is_ascii_digit()) => format!("{w} elements"),
                w => echo(w),
            }
        });
    }
    let v = msg.strip_prefix("unknown variant `")?;
    Some(format!("\"{}\"", echo(v.split('`').next().unwrap_or(v))))
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
        // well-formed but deeper than serde_json reads (a reviewer's
        // 5,000 brackets were called "not valid JSON")
        let deep = format!("{}{}", "[".repeat(5000), "]".repeat(5000));
        let e = parse_strict(&deep).unwrap_err();
        assert_eq!(
            e,
            "JSON nested too deeply at line 1 column 128: at most 128 arrays and objects inside each other"
        );
    }

    #[test]
    fn common_syntax_errors_are_in_words() {
        let e = parse_strict("notjson").unwrap_err();
        assert!(e.contains("not true, false or null"), "{e}");
        let e = parse_strict("{} x").unwrap_err();
        assert!(
            e.ends_with("more text after the end of the JSON value"),
            "{e}"
        );
        let e = parse_strict("{a:1}").unwrap_err();
        assert!(e.ends_with("an object key must be in double quotes"), "{e}");
        let e = parse_strict("[1,]").unwrap_err();
        assert!(e.ends_with("a comma before a closing bracket"), "{e}");
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
            "sequence_length must be a whole number from 0 to 255, got the string \"5\""
        );
        let e = from_value_named::<O>(&serde_json::json!({"no_reshuffle": 1})).unwrap_err();
        assert_eq!(e, "no_reshuffle must be true or false, got 1");
        let e = from_value_named::<O>(&serde_json::json!({"sequence_length": 300})).unwrap_err();
        assert!(e.starts_with("sequence_length must be"), "{e}");
        let e = from_value_named::<O>(&serde_json::json!({"x": 1})).unwrap_err();
        assert!(e.starts_with("unknown field `x` (the fields are"), "{e}");
        let e = from_value_named::<O>(&serde_json::json!([])).unwrap_err();
        assert!(!e.contains("struct O"), "{e}");
        let e = from_value_named::<O>(&serde_json::json!("x".repeat(500))).unwrap_err();
        assert!(e.len() < 120, "outside input is quoted cut: {e}");
    }

    #[test]
    fn echo_cuts_long_values() {
        assert_eq!(echo("abc"), "abc");
        assert_eq!(echo(&"x".repeat(MAX_ECHO)), "x".repeat(MAX_ECHO));
        assert_eq!(
            echo(&"x".repeat(5000)),
            format!("{}…", "x".repeat(MAX_ECHO))
        );
    }
}
