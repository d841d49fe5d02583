//! [`AnyMove`], a move of either game, and its parts by name
//! ([`MoveFields`]) for the Python `Move`.

use sequence_common::{GameKind, Notation, Rules, Seat};
use serde_json::Value;

/// A move of either game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum AnyMove {
    /// A classic move and the table's sequence length (for `declare`).
    Classic(sequence_classic::Move, u8),
    /// A Stacks decision.
    Stacks(sequence_stacks::Decision),
}

/// A move's parts by name, for the Python `Move` properties.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveFields {
    /// `place`, `remove`, `dead`, `pass`, `discard` (classic); `pile`,
    /// `skip`, `reverse`, `steal_card`, `steal_chip`, `block`, `pass`,
    /// `discard`, `end` (Stacks).
    pub kind: &'static str,
    /// The card played or discarded, as its record code.
    pub card: Option<String>,
    /// Classic: the space (`e5`) a chip goes on or leaves.
    pub at: Option<String>,
    /// Stacks: the pile's place (`blue-a`).
    pub place: Option<&'static str>,
    /// Stacks: `hand` or `discard`.
    pub source: Option<&'static str>,
    /// Stacks: the seat robbed.
    pub target: Option<u8>,
    /// Stacks: the chip's colour.
    pub colour: Option<&'static str>,
    /// Classic: the sequences declared, as `[first, last]` space pairs.
    pub declare: Option<Vec<(String, String)>>,
}

impl AnyMove {
    /// The game it is a move of.
    pub fn kind(&self) -> GameKind {
        match self {
            AnyMove::Classic(..) => GameKind::Classic,
            AnyMove::Stacks(_) => GameKind::Stacks,
        }
    }

    /// The engine's dense move key ([`Rules::move_key`]).
    pub fn key(&self) -> usize {
        match self {
            AnyMove::Classic(m, _) => <sequence_classic::Game as Rules>::move_key(m),
            AnyMove::Stacks(d) => <sequence_stacks::Game as Rules>::move_key(d),
        }
    }

    /// The move in words ([`Notation::move_text`]).
    pub fn text(&self) -> String {
        match self {
            AnyMove::Classic(m, _) => <sequence_classic::Game as Notation>::move_text(m),
            AnyMove::Stacks(d) => <sequence_stacks::Game as Notation>::move_text(d),
        }
    }

    /// The move by `seat` as a record entry (RECORD.md, RECORD-STACKS.md;
    /// a declined Block as `{"seat": S, "pass": true}`).
    pub fn to_json(&self, seat: u8) -> Value {
        match self {
            AnyMove::Classic(m, len) => sequence_classic::record::move_to_json(Seat(seat), m, *len),
            AnyMove::Stacks(d) => sequence_stacks::notation::decision_json(Seat(seat), d),
        }
    }

    /// The move's parts by name.
    pub fn fields(&self) -> MoveFields {
        use sequence_classic::Move as M;
        use sequence_stacks::{Decision as D, Source};
        match *self {
            AnyMove::Classic(m, len) => {
                let (kind, at, declare) = match m {
                    M::Place { at, declare, .. } => ("place", Some(at), declare),
                    M::Remove { at, .. } => ("remove", Some(at), None),
                    M::Dead { .. } => ("dead", None, None),
                    M::Pass => ("pass", None, None),
                    M::Discard { .. } => ("discard", None, None),
                };
                MoveFields {
                    kind,
                    card: m.card().map(|c| c.to_string()),
                    at: at.map(|a| a.to_string()),
                    declare: declare.map(|d| {
                        d.windows()
                            .map(|w| (w.start.to_string(), w.last(len).to_string()))
                            .collect()
                    }),
                    ..MoveFields::default()
                }
            }
            AnyMove::Stacks(d) => {
                let (kind, from, target) = match d {
                    D::Pile { from, .. } => ("pile", Some(from), None),
                    D::Skip { from } => ("skip", Some(from), None),
                    D::Reverse { from } => ("reverse", Some(from), None),
                    D::StealCard { from, target } => ("steal_card", Some(from), Some(target)),
                    D::StealChip { from, target, .. } => ("steal_chip", Some(from), Some(target)),
                    D::Block => ("block", None, None),
                    D::Pass => ("pass", None, None),
                    D::Discard { .. } => ("discard", None, None),
                    D::End => ("end", None, None),
                };
                MoveFields {
                    kind,
                    card: d.card().map(|c| c.code().to_string()),
                    place: match d {
                        D::Pile { place, .. } => Some(place.name()),
                        _ => None,
                    },
                    source: from.map(|s| match s {
                        Source::Hand => "hand",
                        Source::Discard => "discard",
                    }),
                    target: target.map(|t| t.0),
                    colour: match d {
                        D::StealChip { colour, .. } => Some(colour.name()),
                        _ => None,
                    },
                    ..MoveFields::default()
                }
            }
        }
    }
}
