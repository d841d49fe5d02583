//! The Stacks greedy bot: the one-ply heuristic of [`super::heuristic`].

use super::heuristic::score;
use crate::Bot;
use rand::Rng;
use sequence_common::rng::{game_rng, GameRng};
use sequence_stacks::{Decision, Game, SeatView};

/// One-ply heuristic bot (see [`score`]); `blunder` is the chance of a
/// random decision instead (level 1).
pub struct GreedyBot {
    name: String,
    rng: GameRng,
    blunder: f64,
}

impl GreedyBot {
    /// A greedy bot; `blunder` is the chance (0–1) of a random decision.
    pub fn new(name: String, seed: u64, blunder: f64) -> GreedyBot {
        GreedyBot {
            name,
            rng: game_rng(seed),
            blunder,
        }
    }
}

/// The greedy choice for `view` (ties broken by `rng`).
pub fn greedy_choice(view: &SeatView, rng: &mut impl Rng) -> Decision {
    let mut best = Decision::Pass;
    let mut best_v = f64::NEG_INFINITY;
    for &d in &view.legal {
        let v = score(view, d) + rng.random::<f64>() * 0.5;
        if v > best_v {
            best_v = v;
            best = d;
        }
    }
    best
}

impl Bot<Game> for GreedyBot {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, view: &SeatView) -> Decision {
        if view.legal.is_empty() {
            return Decision::Pass;
        }
        if self.blunder > 0.0 && self.rng.random::<f64>() < self.blunder {
            return view.legal[self.rng.random_range(0..view.legal.len())];
        }
        greedy_choice(view, &mut self.rng)
    }
}
