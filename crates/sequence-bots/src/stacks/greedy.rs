//! The Stacks greedy bot: the one-ply heuristic of [`super::heuristic`].

use super::heuristic::score;
use crate::shell::jittered_best;
use rand::Rng;
use sequence_stacks::{Decision, Game, SeatView};

/// One-ply heuristic bot (see [`score`]); `blunder` is the chance of a
/// random decision instead (level 1).
pub type GreedyBot = crate::shell::GreedyBot<Game>;

/// The greedy choice for `view` (ties broken by `rng`).
pub fn greedy_choice(view: &SeatView, rng: &mut impl Rng) -> Decision {
    let scored = view.legal.iter().map(|&d| (d, score(view, d)));
    jittered_best(scored, rng).unwrap_or(Decision::Pass)
}
