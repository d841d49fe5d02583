//! [`AnyEntry`]: one decision of a seat as its game's engine read it from
//! a `moves` entry (RECORD.md, RECORD-STACKS.md) — a move of play, or a
//! table-talk penalty discard (C10) — so that it is read once and played
//! as a typed value ([`super::AnyGame::read_entry`],
//! [`super::AnyGame::play_entry`]).

use super::AnyMove;
use crate::game::{GameKind, Rules};
use crate::notation::NotationError;
use crate::seat::Seat;
use serde_json::{json, Value};
use std::any::Any;
use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

/// A table-talk penalty discard (C10) of the card written `code` in words,
/// as move logs and hints say it: `penalty KD`.
pub fn penalty_text(code: &str) -> String {
    format!("penalty {code}")
}

/// The entry `mv` as `seat`'s: as it is when it names `seat` (or is not
/// an object, which its reader refuses), with `seat` when it leaves it
/// out ([`super::AnyGame::read_entry`]).
///
/// # Errors
/// [`NotationError::Field`] for an entry that names another seat.
pub(super) fn seated(seat: Seat, mv: &Value) -> Result<Cow<'_, Value>, NotationError> {
    let Some(o) = mv.as_object() else {
        return Ok(Cow::Borrowed(mv));
    };
    match o.get("seat") {
        Some(s) if s.as_u64() == Some(u64::from(seat.0)) => Ok(Cow::Borrowed(mv)),
        Some(s) if s.as_u64().is_some() => Err(NotationError::field(
            "seat",
            format!("the entry is seat {s}'s, read as seat {}'s", seat.0),
        )),
        // not a seat number: its reader says so
        Some(_) => Ok(Cow::Borrowed(mv)),
        None => {
            let mut o = o.clone();
            o.insert("seat".into(), json!(seat.0));
            Ok(Cow::Owned(Value::Object(o)))
        }
    }
}

/// A decision of `seat` read by its game's engine: a move of play
/// ([`AnyMove`]) or a table-talk penalty discard (C10) of one card.
#[derive(Clone)]
pub struct AnyEntry {
    seat: Seat,
    what: What,
}

/// What an [`AnyEntry`] decides.
#[derive(Clone)]
enum What {
    /// A move of play.
    Move(AnyMove),
    /// A table-talk penalty discard (C10): the game's card, and its code.
    Penalty {
        kind: GameKind,
        card: Arc<dyn Any + Send + Sync>,
        code: String,
    },
}

impl AnyEntry {
    /// `seat`'s move of play `mv`.
    pub fn of_move(seat: Seat, mv: AnyMove) -> AnyEntry {
        AnyEntry {
            seat,
            what: What::Move(mv),
        }
    }

    /// `seat`'s discard of `card` (written `code`) for the table-talk
    /// penalty (C10) in the game `G`.
    pub fn of_penalty<G: Rules>(seat: Seat, card: G::Card, code: String) -> AnyEntry {
        AnyEntry {
            seat,
            what: What::Penalty {
                kind: G::KIND,
                card: Arc::new(card),
                code,
            },
        }
    }

    /// The seat that makes it.
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// The game it was read for.
    pub fn kind(&self) -> GameKind {
        match &self.what {
            What::Move(m) => m.kind(),
            What::Penalty { kind, .. } => *kind,
        }
    }

    /// The move of play, unless it is a penalty discard.
    pub fn as_move(&self) -> Option<&AnyMove> {
        match &self.what {
            What::Move(m) => Some(m),
            What::Penalty { .. } => None,
        }
    }

    /// The decision in words: the move's text ([`AnyMove::text`]), or
    /// [`penalty_text`] for a penalty discard.
    pub fn text(&self) -> String {
        match &self.what {
            What::Move(m) => m.text(),
            What::Penalty { code, .. } => penalty_text(code),
        }
    }

    /// The decision as a `moves` entry with its `seat` (a move of play as
    /// [`AnyMove::entry`] writes it, `None` for one made at no known
    /// table; a penalty discard as `{"seat", "penalty": CARD}`, C10).
    pub fn to_json(&self) -> Option<Value> {
        match &self.what {
            What::Move(m) => m.entry(self.seat),
            What::Penalty { code, .. } => Some(crate::record::penalty_code_entry(self.seat, code)),
        }
    }

    /// Whether it is a table-talk penalty discard (C10).
    pub fn is_penalty(&self) -> bool {
        matches!(self.what, What::Penalty { .. })
    }

    /// The card of a penalty discard (C10) in the game `G`, with its code
    /// (`None` for a move of play or another game's entry).
    pub fn penalty_card<G: Rules>(&self) -> Option<(G::Card, &str)> {
        match &self.what {
            What::Penalty { card, code, .. } => {
                Some((*card.downcast_ref::<G::Card>()?, code.as_str()))
            }
            What::Move(_) => None,
        }
    }
}

impl fmt::Debug for AnyEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.what {
            What::Move(m) => write!(f, "seat {} {}", self.seat.0, m.text()),
            What::Penalty { code, .. } => write!(f, "seat {} penalty {code}", self.seat.0),
        }
    }
}
