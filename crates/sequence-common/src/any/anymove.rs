//! [`AnyMove`]: a move of some game, with the table it was made at when
//! known.

use crate::game::{GameKind, Rules};
use crate::notation::Notation;
use crate::seat::Seat;
use serde_json::Value;
use std::any::Any;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// A move of some game: the engine's own move value, with its game and,
/// when it came from a table, that table ([`Rules::Config`]), which its
/// record entry is written with (classic: the sequence length of a
/// placement's `declare`, C8a).
///
/// Two moves are equal when they are the same move of the same game
/// written the same way (a move without a table equals only moves without
/// one); a hash is the game's and the move's.
#[derive(Clone)]
pub struct AnyMove {
    mv: Arc<dyn MoveBox>,
}

/// What [`AnyMove`] holds: a move of `G` with its table, behind one type.
trait MoveBox: Send + Sync {
    fn kind(&self) -> GameKind;
    fn as_any(&self) -> &dyn Any;
    fn key(&self) -> usize;
    fn text(&self) -> String;
    fn entry(&self, seat: Seat) -> Option<Value>;
    fn same(&self, other: &dyn MoveBox) -> bool;
    fn hash_move(&self, state: &mut dyn Hasher);
}

/// A move of `G` and the table it was made at, if known.
struct Typed<G: Rules> {
    mv: G::Move,
    table: Option<Arc<G::Config>>,
}

impl<G: Notation> MoveBox for Typed<G> {
    fn kind(&self) -> GameKind {
        G::KIND
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn key(&self) -> usize {
        G::move_key(&self.mv)
    }

    fn text(&self) -> String {
        G::move_text(&self.mv)
    }

    fn entry(&self, seat: Seat) -> Option<Value> {
        let table = self.table.as_ref()?;
        Some(G::move_to_json(seat, &self.mv, table))
    }

    fn same(&self, other: &dyn MoveBox) -> bool {
        let Some(o) = other.as_any().downcast_ref::<Typed<G>>() else {
            return false;
        };
        if o.mv != self.mv {
            return false;
        }
        match (&self.table, &o.table) {
            (None, None) => true,
            (Some(a), Some(b)) => {
                Arc::ptr_eq(a, b)
                    || a == b
                    || G::move_to_json(Seat(0), &self.mv, a) == G::move_to_json(Seat(0), &o.mv, b)
            }
            _ => false,
        }
    }

    fn hash_move(&self, mut state: &mut dyn Hasher) {
        G::KIND.hash(&mut state);
        self.mv.hash(&mut state);
    }
}

impl AnyMove {
    /// Wraps a move of the game `G` made at no known table
    /// ([`AnyMove::entry`] is then `None`).
    pub fn of<G: Notation>(mv: G::Move) -> AnyMove {
        AnyMove {
            mv: Arc::new(Typed::<G> { mv, table: None }),
        }
    }

    /// Wraps a move of the game `G` made at the table `table` (shared by
    /// the moves of one list).
    pub fn at<G: Notation>(mv: G::Move, table: Arc<G::Config>) -> AnyMove {
        AnyMove {
            mv: Arc::new(Typed::<G> {
                mv,
                table: Some(table),
            }),
        }
    }

    /// The game it is a move of.
    pub fn kind(&self) -> GameKind {
        self.mv.kind()
    }

    /// The move, if it is a move of `G` (`None` for another game's).
    pub fn get<G: Rules>(&self) -> Option<G::Move> {
        self.typed::<G>().map(|t| t.mv)
    }

    /// The table the move was made at, if it is a move of `G` made at a
    /// known table.
    pub fn table<G: Rules>(&self) -> Option<&G::Config> {
        self.typed::<G>()?.table.as_deref()
    }

    fn typed<G: Rules>(&self) -> Option<&Typed<G>> {
        self.mv.as_any().downcast_ref::<Typed<G>>()
    }

    /// The engine's dense move key ([`Rules::move_key`]).
    pub fn key(&self) -> usize {
        self.mv.key()
    }

    /// The move in words ([`Notation::move_text`]).
    pub fn text(&self) -> String {
        self.mv.text()
    }

    /// The move by `seat` as a record entry ([`Notation::move_to_json`];
    /// a move records leave out, such as a declined Block, as its input
    /// entry); `None` for a move made at no known table.
    pub fn entry(&self, seat: Seat) -> Option<Value> {
        self.mv.entry(seat)
    }
}

impl PartialEq for AnyMove {
    fn eq(&self, other: &AnyMove) -> bool {
        Arc::ptr_eq(&self.mv, &other.mv) || self.mv.same(other.mv.as_ref())
    }
}

impl Eq for AnyMove {}

impl Hash for AnyMove {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.mv.hash_move(state);
    }
}

impl fmt::Debug for AnyMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "AnyMove({}: {})", self.kind(), self.text())
    }
}
