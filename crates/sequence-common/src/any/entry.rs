//! [`AnyEntry`]: one decision of a seat as its game's engine read it from
//! a `moves` entry (RECORD.md, RECORD-STACKS.md) — a move of play, or a
//! table-talk penalty discard (C10) — so that it is read once and played
//! as a typed value ([`super::AnyGame::read_entry`],
//! [`super::AnyGame::play_entry`]).

use super::AnyMove;
use crate::game::{GameKind, Rules};
use crate::seat::Seat;
use std::any::Any;
use std::fmt;
use std::sync::Arc;

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
