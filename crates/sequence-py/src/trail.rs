//! Rebuilding a pickled game without a record from its trail
//! ([`sequence_common::trail::Trail`]: where it started — an entry of a
//! replayed record, or a Stacks view's determinization — and every move
//! made on it since, with the draw piles its reshuffles dealt, C7, S6).
//!
//! A classic determinization has no trail: a classic view's JSON does not
//! carry `stuck_turns` (C6a) nor whether a dead card was already exchanged
//! this turn (docs/python.md "`View.from_json`"), and the engine's state
//! has no other written form, so it could not be rebuilt exactly.

use crate::dynamic::{Failure, FailureKind, Game};
use crate::env::any::AnyEnv;
use crate::env::EnvGame;
use sequence_bots::{with_game, ForGame};
use sequence_common::record::{replay, Match};
use sequence_common::reshuffle::RecordedReshuffles;
use sequence_common::rng::game_rng;
use sequence_common::trail::Origin;
use sequence_common::{GameKind, SeatView};
use serde_json::Value;
use std::sync::Arc;

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
    v.as_any()
        .downcast_ref::<G::View>()
        .ok_or_else(|| bad("a view of the other game"))?
        .determinize(&mut game_rng(seed))
        .ok_or_else(|| bad("the view does not add up to the game's cards"))
}

fn rebuild<G: EnvGame>(v: &Value) -> Result<Game, Failure> {
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
    let mut s = Match::with_origin(game, seed, origin);
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
    Ok(Game::from(Box::new(s) as Box<dyn AnyEnv>))
}

/// Rebuilds a game of `kind` from its trail's JSON
/// ([`sequence_common::trail::Trail::to_json`]),
/// replaying the moves with the reshuffles they dealt.
///
/// # Errors
/// `UsageError` `pickle.state` for a trail that does not rebuild.
pub fn restore(kind: GameKind, v: &Value) -> Result<Game, Failure> {
    struct Restore<'a>(&'a Value);
    impl ForGame for Restore<'_> {
        type Out = Result<Game, Failure>;
        fn call<G: EnvGame>(self) -> Self::Out {
            rebuild::<G>(self.0)
        }
    }
    with_game(kind, Restore(v))
}
