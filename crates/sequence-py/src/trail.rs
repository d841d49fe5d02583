//! How a game without a record came to be, so that pickling can rebuild it
//! exactly: a [`Trail`] is its [`Origin`] (an entry of a replayed record,
//! or a Stacks view's determinization) and every move made on it since,
//! with the draw piles its reshuffles dealt (C7, S6).
//!
//! A classic determinization has no trail: a classic view's JSON does not
//! carry `stuck_turns` (C6a) nor whether a dead card was already exchanged
//! this turn (docs/python.md "`View.from_json`"), and the engine's state
//! has no other written form, so it could not be rebuilt exactly.

use crate::dynamic::{DynGame, Failure, FailureKind, ViewBox};
use crate::env::EnvGame;
use crate::session::Session;
use sequence_bots::{with_game, ForGame};
use sequence_common::record::replay;
use sequence_common::reshuffle::RecordedReshuffles;
use sequence_common::rng::game_rng;
use sequence_common::{GameKind, Notation, Rules, Seat, SeatView};
use serde_json::{json, Value};
use std::sync::Arc;

/// Where a game without a record started.
#[derive(Clone, Debug)]
pub enum Origin {
    /// The game after entry `index` of `record` (`replay`); the record's
    /// last entry is the game as the record ends it.
    Replay {
        /// The whole record (shared by every step of one replay).
        record: Arc<Value>,
        /// The entry's index in the record's `moves`.
        index: usize,
    },
    /// The determinization of a Stacks seat's view (its JSON) from `seed`.
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

fn bad(message: impl Into<String>) -> Failure {
    Failure::new(FailureKind::Usage, "pickle.state", message)
}

/// The game after entry `index` of `record`, as `replay` gives it.
fn replayed<G: EnvGame>(record: &Value, index: usize) -> Result<G, Failure> {
    let mut at = None;
    let mut last_index = None;
    let (_, last) = replay::<G>(record, |i, _, _, g| {
        last_index = Some(i);
        if i == index {
            at = Some(g.clone());
        }
    })
    .map_err(|e| Failure::from_replay(&e))?;
    if last_index == Some(index) {
        // as `replay`'s last step: after the record's silence (S5b)
        return Ok(last);
    }
    at.ok_or_else(|| bad(format!("the record has no move {index}")))
}

/// The determinization of view `view` (JSON; a game whose views read
/// back, [`EnvGame::VIEW_READS_BACK`]: Stacks) from `seed`.
fn determinized<G: EnvGame>(view: &Value, seed: u64) -> Result<G, Failure> {
    let v = crate::view_json::view_from_json(G::KIND, view)?;
    let vb = v
        .as_any()
        .downcast_ref::<ViewBox<G>>()
        .ok_or_else(|| bad("a view of the other game"))?;
    vb.view
        .determinize(&mut game_rng(seed))
        .ok_or_else(|| bad("the view does not add up to the game's cards"))
}

fn rebuild<G: EnvGame>(v: &Value) -> Result<Box<dyn DynGame>, Failure> {
    let origin = v.get("origin").ok_or_else(|| bad("no origin"))?;
    let (game, origin, seed) = if let Some(record) = origin.get("record") {
        let index = origin
            .get("index")
            .and_then(Value::as_u64)
            .ok_or_else(|| bad("no index"))? as usize;
        let g = replayed::<G>(record, index)?;
        let o = Origin::Replay {
            record: Arc::new(record.clone()),
            index,
        };
        (g, o, 0)
    } else {
        let view = origin.get("view").ok_or_else(|| bad("no view"))?;
        let seed = origin
            .get("seed")
            .and_then(Value::as_str)
            .and_then(|s| s.parse::<u64>().ok())
            .ok_or_else(|| bad("no seed"))?;
        let g = determinized::<G>(view, seed)?;
        let o = Origin::View {
            view: view.clone(),
            seed,
        };
        (g, o, seed)
    };
    let config = game.config().clone();
    let lists: Vec<Vec<G::Card>> = match v.get("reshuffles").and_then(Value::as_array) {
        Some(a) => a
            .iter()
            .map(|l| {
                l.as_array()
                    .ok_or_else(|| bad("a reshuffle is a list of cards"))?
                    .iter()
                    .map(|c| {
                        c.as_str()
                            .ok_or_else(|| bad("a card code"))
                            .and_then(|s| G::parse_card(s).map_err(bad))
                    })
                    .collect()
            })
            .collect::<Result<_, _>>()?,
        None => vec![],
    };
    let mut s = Session::with_origin(game, seed, origin);
    let mut resh = RecordedReshuffles::new(&lists);
    for e in v
        .get("moves")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let (seat, mv) = G::move_from_input(e, &config).map_err(|e| bad(e.to_string()))?;
        s.replay_move(seat, mv, &mut resh)
            .map_err(|e| bad(e.to_string()))?;
    }
    if resh.used() != lists.len() {
        return Err(bad("the reshuffles do not match the moves"));
    }
    s.set_trail_reshuffles(lists);
    Ok(Box::new(s))
}

/// Rebuilds a game of `kind` from its trail's JSON ([`Trail::to_json`]),
/// replaying the moves with the reshuffles they dealt.
///
/// # Errors
/// `UsageError` `pickle.state` for a trail that does not rebuild.
pub fn restore(kind: GameKind, v: &Value) -> Result<Box<dyn DynGame>, Failure> {
    struct Restore<'a>(&'a Value);
    impl ForGame for Restore<'_> {
        type Out = Result<Box<dyn DynGame>, Failure>;
        fn call<G: EnvGame>(self) -> Self::Out {
            rebuild::<G>(self.0)
        }
    }
    with_game(kind, Restore(v))
}
