//! How a game without a record came to be, so that it can be rebuilt
//! exactly (the Python package pickles such games): a [`Trail`] is its
//! [`Origin`] (an entry of a replayed record, or a view's
//! determinization) and every move made on it since, with the draw piles
//! its reshuffles dealt (C7, S6).

use crate::game::Rules;
use crate::notation::Notation;
use crate::seat::Seat;
use serde_json::{json, Value};
use std::sync::Arc;

/// Where a game without a record started.
#[derive(Clone, Debug)]
pub enum Origin {
    /// The game after entry `index` of `record` (a replay's step); the
    /// record's last entry is the game as the record ends it.
    Replay {
        /// The whole record (shared by every step of one replay).
        record: Arc<Value>,
        /// The entry's index in the record's `moves`.
        index: usize,
    },
    /// The determinization of a seat's view (its JSON) from `seed`.
    View {
        /// The view's JSON (`view.to_json()`).
        view: Value,
        /// The determinization's seed.
        seed: u64,
    },
}

/// A game's origin and the moves made on it since.
pub struct Trail<G: Rules> {
    /// Where the game started.
    pub origin: Origin,
    /// Every move made since, with its seat (unrecorded ones included).
    pub moves: Vec<(Seat, G::Move)>,
    /// The draw piles of the reshuffles since, top first, in order.
    pub reshuffles: Vec<Vec<G::Card>>,
}

impl<G: Rules> Clone for Trail<G> {
    fn clone(&self) -> Self {
        Trail {
            origin: self.origin.clone(),
            moves: self.moves.clone(),
            reshuffles: self.reshuffles.clone(),
        }
    }
}

impl<G: Rules> Trail<G> {
    /// A trail from `origin` with no move yet.
    pub fn new(origin: Origin) -> Trail<G> {
        Trail {
            origin,
            moves: vec![],
            reshuffles: vec![],
        }
    }
}

impl<G: Notation> Trail<G> {
    /// The trail as JSON: `{"origin": {"record", "index"} | {"view",
    /// "seed"}, "moves": [entries], "reshuffles": [[card codes]]}`.
    pub fn to_json(&self, config: &G::Config) -> Value {
        let origin = match &self.origin {
            Origin::Replay { record, index } => json!({"record": **record, "index": index}),
            Origin::View { view, seed } => json!({"view": view, "seed": seed.to_string()}),
        };
        let moves: Vec<Value> = self
            .moves
            .iter()
            .map(|(s, m)| G::move_to_json(*s, m, config))
            .collect();
        let reshuffles: Vec<Vec<String>> = self
            .reshuffles
            .iter()
            .map(|l| l.iter().map(|c| G::card_code(*c)).collect())
            .collect();
        json!({"origin": origin, "moves": moves, "reshuffles": reshuffles})
    }
}
