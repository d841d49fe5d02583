//! Notifications between server instances on one PostgreSQL database
//! ([`Note`]): what a commit tells the others on [`crate::db::CHANNEL`], as
//! JSON with a `kind` tag. They are only hints: every one may be lost (a
//! listener reconnecting) and is then made up by reading the database.

use serde::{Deserialize, Serialize};

/// The longest notification payload sent with the events or the chat line
/// in it; a longer one is sent without them (they are read from the
/// database). (PostgreSQL takes at most 8000 bytes.)
pub const MAX_PAYLOAD: usize = 7000;

/// Most events one [`Note::Events`] may announce.
const MAX_EVENTS: i64 = 10_000;

/// A notification between instances, sent as JSON with its `kind`:
///
/// | `kind` | meaning |
/// | --- | --- |
/// | `events` | table `id` has events `first..=last` (their JSON in `data`, or none when too long: read them), committed at `at_ms` (Unix ms), timed-out seats `timed_out` |
/// | `chat` | chat line `seq` of table `id` (`line`, JSON text; read it when absent) |
/// | `presence` | `instance` holds `conns` WebSockets of `seat` at table `id` (`version` orders one instance's updates) |
/// | `gone` | `instance` is gone (its WebSockets with it) |
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Note {
    /// New events of a table.
    Events {
        /// The table.
        id: String,
        /// The first event's number.
        first: i64,
        /// The last event's number.
        last: i64,
        /// Commit time, Unix ms.
        at_ms: i64,
        /// Timed-out seats after the change, one bit each.
        timed_out: u64,
        /// The events' JSON, or empty: read them from the database.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        data: Vec<String>,
    },
    /// A chat line.
    Chat {
        /// The table.
        id: String,
        /// Its number at the table.
        seq: i64,
        /// The line (JSON text), or `None`: read it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        line: Option<String>,
    },
    /// WebSockets of a seat at an instance.
    Presence {
        /// The table.
        id: String,
        /// The instance holding them.
        instance: String,
        /// The seat.
        seat: u8,
        /// How many.
        conns: u32,
        /// The instance's counter, to keep the latest of two.
        version: u64,
    },
    /// An instance is gone.
    Gone {
        /// Its id.
        instance: String,
    },
}

/// Whether `s` may be an instance id (1–64 letters, digits, `-`, `_`, `.`).
pub fn instance_id_ok(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 64
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

impl Note {
    /// The table the note is about (`None` for [`Note::Gone`]).
    pub fn table(&self) -> Option<&str> {
        match self {
            Note::Events { id, .. } | Note::Chat { id, .. } | Note::Presence { id, .. } => Some(id),
            Note::Gone { .. } => None,
        }
    }

    /// How many events an [`Note::Events`] numbers (`last - first + 1`; 0
    /// for other notes).
    fn event_count(&self) -> i64 {
        match self {
            Note::Events { first, last, .. } => last - first + 1,
            _ => 0,
        }
    }

    /// The note of events `first..` of table `id` (JSON each), committed
    /// at `at_ms` with `timed_out` seats: with the events when the payload
    /// stays within [`MAX_PAYLOAD`], else their numbers only.
    pub fn events(id: &str, first: i64, events: &[String], at_ms: i64, timed_out: u64) -> Note {
        let mut note = Note::Events {
            id: id.to_string(),
            first,
            last: first + events.len() as i64 - 1,
            at_ms,
            timed_out,
            data: events.to_vec(),
        };
        if note.payload().len() > MAX_PAYLOAD {
            if let Note::Events { data, .. } = &mut note {
                data.clear();
            }
        }
        note
    }

    /// The note of chat line `seq` of table `id`: with the line when the
    /// payload stays within [`MAX_PAYLOAD`], else its number only.
    pub fn chat(id: &str, seq: i64, line: &str) -> Note {
        let note = Note::Chat {
            id: id.to_string(),
            seq,
            line: Some(line.to_string()),
        };
        if note.payload().len() > MAX_PAYLOAD {
            return Note::Chat {
                id: id.to_string(),
                seq,
                line: None,
            };
        }
        note
    }

    /// The payload sent: the note as JSON.
    pub fn payload(&self) -> String {
        // a note has only strings and numbers: it always serializes
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads a payload.
    ///
    /// # Errors
    /// What is wrong with it, in words (the payload is capped in the
    /// message): not JSON, an unknown `kind`, a missing or unknown field, a
    /// table id that is not 16 hex characters, an instance id out of
    /// [`instance_id_ok`], negative or disordered event numbers, events
    /// that do not match their numbers.
    pub fn parse(payload: &str) -> Result<Note, String> {
        let bad = |why: &str| {
            let shown: String = payload.chars().take(80).collect();
            format!("notification {shown:?}: {why}")
        };
        let note: Note = serde_json::from_str(payload).map_err(|e| {
            let mut why = e.to_string();
            why.truncate(160);
            bad(&why)
        })?;
        if let Some(id) = note.table() {
            if !crate::auth::table_id_ok(id) {
                return Err(bad("not a table id (16 hex characters)"));
            }
        }
        match &note {
            Note::Events { first, at_ms, .. } if *first < 0 || *at_ms < 0 => {
                return Err(bad("a number is negative"))
            }
            Note::Events { first, last, .. } if last < first || last - first >= MAX_EVENTS => {
                return Err(bad("the event numbers are out of order"))
            }
            Note::Events { data, .. }
                if !data.is_empty() && data.len() as i64 != note.event_count() =>
            {
                return Err(bad("the number of events does not match"))
            }
            Note::Events { .. } => {}
            Note::Chat { seq, .. } if *seq < 0 => return Err(bad("a number is negative")),
            Note::Presence { instance, .. } | Note::Gone { instance } => {
                if !instance_id_ok(instance) {
                    return Err(bad("not an instance id"));
                }
            }
            Note::Chat { .. } => {}
        }
        Ok(note)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ID: &str = "00000000000000ab";

    #[test]
    fn notes_travel_as_tagged_json() {
        let notes = [
            Note::events(ID, 3, &["{\"a\":1}".into(), "{\"b\":2}".into()], 1700, 2),
            Note::Events {
                id: ID.into(),
                first: 3,
                last: 4,
                at_ms: 1700,
                timed_out: 0,
                data: vec![],
            },
            Note::Presence {
                id: ID.into(),
                instance: "abc-1".into(),
                seat: 2,
                conns: 3,
                version: 7,
            },
            Note::chat(ID, 5, "{\"type\":\"chat\"}"),
            Note::Chat {
                id: ID.into(),
                seq: 5,
                line: None,
            },
            Note::Gone {
                instance: "abc".into(),
            },
        ];
        for n in notes {
            assert_eq!(Note::parse(&n.payload()), Ok(n.clone()), "{}", n.payload());
        }
        assert_eq!(
            Note::events(ID, 3, &["{}".into()], 9, 1).payload(),
            format!(
                r#"{{"kind":"events","id":"{ID}","first":3,"last":3,"at_ms":9,"timed_out":1,"data":["{{}}"]}}"#
            )
        );
        assert_eq!(
            Note::parse(r#"{"kind":"gone","instance":"x"}"#),
            Ok(Note::Gone {
                instance: "x".into()
            })
        );
    }

    #[test]
    fn long_notes_leave_their_contents_to_the_database() {
        let big = format!("\"{}\"", "x".repeat(MAX_PAYLOAD));
        assert!(matches!(
            Note::events(ID, 0, std::slice::from_ref(&big), 1, 0),
            Note::Events { data, last: 0, .. } if data.is_empty()
        ));
        assert!(matches!(
            Note::chat(ID, 1, &big),
            Note::Chat { line: None, .. }
        ));
        // a line break inside an event is escaped, not a separator
        let n = Note::events(ID, 0, &["\"a\nb\"".into()], 1, 0);
        assert_eq!(Note::parse(&n.payload()), Ok(n));
    }

    #[test]
    fn malformed_notes_say_why() {
        for (p, why) in [
            ("".to_string(), "EOF"),
            ("garbage".to_string(), "expected value"),
            (r#"{"kind":"x"}"#.to_string(), "unknown variant"),
            (
                r#"{"kind":"events","id":"nothex","first":1,"last":2,"at_ms":3,"timed_out":0}"#
                    .to_string(),
                "table id",
            ),
            (
                format!(r#"{{"kind":"events","id":"{ID}","first":1,"last":2,"at_ms":3}}"#),
                "missing field `timed_out`",
            ),
            (
                format!(
                    r#"{{"kind":"events","id":"{ID}","first":5,"last":2,"at_ms":3,"timed_out":0}}"#
                ),
                "out of order",
            ),
            (
                format!(
                    r#"{{"kind":"events","id":"{ID}","first":-1,"last":2,"at_ms":3,"timed_out":0}}"#
                ),
                "negative",
            ),
            (
                format!(
                    r#"{{"kind":"events","id":"{ID}","first":1,"last":2,"at_ms":3,"timed_out":0,"data":["{{}}"]}}"#
                ),
                "does not match",
            ),
            (
                format!(r#"{{"kind":"chat","id":"{ID}","seq":1,"extra":0}}"#),
                "unknown field",
            ),
            (
                format!(
                    r#"{{"kind":"presence","id":"{ID}","instance":"bad/inst","seat":1,"conns":1,"version":1}}"#
                ),
                "instance",
            ),
            (
                format!(
                    r#"{{"kind":"presence","id":"{ID}","instance":"a","seat":300,"conns":1,"version":1}}"#
                ),
                "u8",
            ),
            (r#"{"kind":"gone"}"#.to_string(), "missing field `instance`"),
        ] {
            let e = Note::parse(&p).unwrap_err();
            assert!(e.contains(why), "{p:?}: {e}");
        }
        let long = format!("{{\"kind\":\"{}\"}}", "9".repeat(10_000));
        assert!(Note::parse(&long).unwrap_err().len() < 300);
    }
}
