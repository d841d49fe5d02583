//! Helpers shared by both games' record formats (RECORD.md,
//! RECORD-STACKS.md): the `format` field that tells them apart, and the
//! error of a replay that stops at an illegal or malformed move.

use serde_json::Value;
use std::fmt;

/// Which game a record belongs to, read from its `format` field.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RecordKind {
    /// `"sequence-record/1"` (classic Sequence, RECORD.md).
    Classic,
    /// `"sequence-stacks-record/1"` (Sequence Stacks, RECORD-STACKS.md).
    Stacks,
}

/// The `format` value of a classic record.
pub const CLASSIC_FORMAT: &str = "sequence-record/1";
/// The `format` value of a Sequence Stacks record.
pub const STACKS_FORMAT: &str = "sequence-stacks-record/1";

/// A file that is not a valid record of either game (exit code 2 in
/// `sequence verify`). The message names the field or JSON position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct MalformedRecord(pub String);

/// Parses `text` as JSON and tells which game's record it is.
///
/// # Errors
/// [`MalformedRecord`] when the text is empty or not JSON (with line and
/// column; a key repeated in one object counts as not JSON, see
/// [`crate::json::parse_strict`]), not an object, or has a missing or
/// unknown `format`.
pub fn detect_kind(text: &str) -> Result<(RecordKind, Value), MalformedRecord> {
    let value = crate::json::parse_strict(text).map_err(MalformedRecord)?;
    let Some(obj) = value.as_object() else {
        return Err(MalformedRecord("a record must be a JSON object".into()));
    };
    match obj.get("format").and_then(Value::as_str) {
        Some(CLASSIC_FORMAT) => Ok((RecordKind::Classic, value)),
        Some(STACKS_FORMAT) => Ok((RecordKind::Stacks, value)),
        Some(other) => Err(MalformedRecord(format!(
            "field `format`: unknown format {other:?} (expected {CLASSIC_FORMAT:?} or {STACKS_FORMAT:?})"
        ))),
        None => Err(MalformedRecord(
            "field `format`: missing or not a string".into(),
        )),
    }
}

/// A replay stopped at move `index` (0-based): the move's JSON and why it
/// is illegal or malformed, naming the rule id where one applies.
/// `sequence verify` prints it as `move 17 {...}: why` and exits 1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveError {
    /// Index of the offending entry in `moves`.
    pub index: usize,
    /// The entry as compact JSON.
    pub json: String,
    /// Why it was refused, e.g. `space e5 is taken (C6)`.
    pub why: String,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "move {} {}: {}", self.index, self.json, self.why)
    }
}

impl std::error::Error for MoveError {}

/// Longest move entry quoted in a [`MoveError`], in characters.
pub const MAX_ENTRY: usize = 200;

/// A move entry as compact JSON for a [`MoveError`], cut to [`MAX_ENTRY`]
/// characters ("…" marks a cut): a record from outside may hold a huge
/// entry, and the message is passed on (the server sends it to clients).
pub fn entry_text(entry: &Value) -> String {
    let full = entry.to_string();
    let mut out: String = full.chars().take(MAX_ENTRY).collect();
    if full.chars().nth(MAX_ENTRY).is_some() {
        out.push('…');
    }
    out
}

/// Why a record could not be replayed: malformed (exit 2) or an illegal
/// move (exit 1).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// The file is not a valid record.
    #[error(transparent)]
    Malformed(#[from] MalformedRecord),
    /// A move is illegal or malformed.
    #[error(transparent)]
    Move(#[from] MoveError),
    /// The replay is legal but the record disagrees with it (its `result`,
    /// or reshuffles it lists that the replay never reached).
    #[error("the record does not match its replay: {0}")]
    ResultMismatch(String),
}

impl ReplayError {
    /// The exit code `sequence verify` uses for this error (RECORD.md).
    pub fn exit_code(&self) -> i32 {
        match self {
            ReplayError::Malformed(_) => 2,
            ReplayError::Move(_) | ReplayError::ResultMismatch(_) => 1,
        }
    }
}

/// Reads a required unsigned integer field of a JSON object, naming it in
/// the error.
///
/// # Errors
/// When the field is missing, not an integer, or above `max`.
pub fn req_uint(
    obj: &serde_json::Map<String, Value>,
    field: &str,
    max: u64,
) -> Result<u64, String> {
    match obj.get(field) {
        None => Err(format!("field `{field}` is missing")),
        Some(v) => match v.as_u64() {
            Some(n) if n <= max => Ok(n),
            Some(n) => Err(format!(
                "field `{field}`: {n} is out of range (at most {max})"
            )),
            None => Err(format!(
                "field `{field}`: expected a non-negative integer, found {}",
                crate::json::echo(&v.to_string())
            )),
        },
    }
}

/// Checks that a move entry chosen by its key `kind` (`remove`, `play`, …)
/// holds no key outside `allowed`; a key that other moves use (one of
/// `move_keys`) is named as a combination that does not go together.
///
/// # Errors
/// `` `at` does not go with `remove` (this move takes `seat`, `card`,
/// `remove`)`` or ``unknown key `x` `` (the caller's [`MoveError`] says
/// which move).
pub fn deny_unknown_move(
    obj: &serde_json::Map<String, Value>,
    allowed: &[&str],
    kind: &str,
    move_keys: &[&str],
) -> Result<(), String> {
    for k in obj.keys() {
        if allowed.contains(&k.as_str()) {
            continue;
        }
        if move_keys.contains(&k.as_str()) {
            let takes: Vec<String> = allowed.iter().map(|a| format!("`{a}`")).collect();
            return Err(format!(
                "`{k}` does not go with `{kind}` (this move takes {})",
                takes.join(", ")
            ));
        }
        return Err(format!("unknown key `{}`", crate::json::echo(k)));
    }
    Ok(())
}

/// Checks that `obj` holds no key outside `allowed`.
///
/// # Errors
/// Names the first unknown key and `what` holds it.
pub fn deny_unknown(
    obj: &serde_json::Map<String, Value>,
    allowed: &[&str],
    what: &str,
) -> Result<(), String> {
    for k in obj.keys() {
        if !allowed.contains(&k.as_str()) {
            return Err(format!("{what}: unknown key `{}`", crate::json::echo(k)));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_both_formats_and_refuses_others() {
        assert_eq!(
            detect_kind(r#"{"format":"sequence-record/1"}"#).unwrap().0,
            RecordKind::Classic
        );
        assert_eq!(
            detect_kind(r#"{"format":"sequence-stacks-record/1"}"#)
                .unwrap()
                .0,
            RecordKind::Stacks
        );
        assert!(detect_kind(r#"{"format":"chess"}"#)
            .unwrap_err()
            .0
            .contains("unknown format"));
        assert!(detect_kind(r#"{"format": "#)
            .unwrap_err()
            .0
            .contains("line 1"));
        assert!(detect_kind("[1]").is_err());
    }
}

/// The draw-pile orders of a record's `reshuffles`, handed out in turn and
/// checked against the cards really shuffled in (C7, S6). Both engines'
/// reshufflers for replays delegate to it.
#[derive(Debug)]
pub struct RecordedOrders<'a, T> {
    lists: &'a [Vec<T>],
    used: usize,
}

impl<'a, T: Ord + Clone> RecordedOrders<'a, T> {
    /// Orders from a record's `reshuffles`. The engine's error cites the
    /// rule (C7, S6).
    pub fn new(lists: &'a [Vec<T>]) -> Self {
        RecordedOrders { lists, used: 0 }
    }

    /// How many orders were handed out.
    pub fn used(&self) -> usize {
        self.used
    }

    /// Puts the next recorded order into `cards` (the cards shuffled in).
    ///
    /// # Errors
    /// When the record has no further order, or the order is not a
    /// permutation of `cards`.
    pub fn next_into(&mut self, cards: &mut [T]) -> Result<(), String> {
        let i = self.used;
        let Some(order) = self.lists.get(i) else {
            return Err(match self.lists.len() {
                0 => "the draw pile ran out but the record's `reshuffles` lists none".to_string(),
                n => format!(
                    "the draw pile ran out a {} time but the record's `reshuffles` lists {n}",
                    ordinal(i + 1),
                ),
            });
        };
        let mut want = cards.to_vec();
        let mut got = order.clone();
        want.sort();
        got.sort();
        if want != got {
            return Err(format!(
                "`reshuffles`[{i}] is not a permutation of the {} cards shuffled in",
                cards.len(),
            ));
        }
        cards.clone_from_slice(order);
        self.used += 1;
        Ok(())
    }
}

/// `1st`, `2nd`, `3rd`, `4th`, … for messages.
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// Opens a record of one game: `v` must be a JSON object whose keys are all
/// in `allowed` and whose `format` is `format` (RECORD.md,
/// RECORD-STACKS.md).
///
/// # Errors
/// [`MalformedRecord`] naming the unknown key or the wrong `format`.
pub fn open_record<'a>(
    v: &'a Value,
    format: &str,
    allowed: &[&str],
) -> Result<&'a serde_json::Map<String, Value>, MalformedRecord> {
    let o = v
        .as_object()
        .ok_or_else(|| MalformedRecord("a record must be a JSON object".into()))?;
    deny_unknown(o, allowed, "record").map_err(MalformedRecord)?;
    match o.get("format").and_then(Value::as_str) {
        Some(f) if f == format => Ok(o),
        other => Err(MalformedRecord(format!(
            "field `format`: expected {format:?}, found {other:?}"
        ))),
    }
}
