//! The random bot, for every game: a uniformly random legal move.

use crate::bot::Bot;
use rand::Rng;
use sequence_common::rng::{game_rng, GameRng};
use sequence_common::{Rules, SeatView};

/// Plays a uniformly random legal move (ChaCha8 seeded per bot).
pub struct RandomBot {
    name: String,
    rng: GameRng,
}

impl RandomBot {
    /// A random bot named `name`, seeded with `seed` (ChaCha8).
    pub fn new(name: String, seed: u64) -> RandomBot {
        RandomBot {
            name,
            rng: game_rng(seed),
        }
    }
}

impl<G: Rules> Bot<G> for RandomBot {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, view: &G::View) -> G::Move {
        let moves = view.legal_moves();
        if moves.is_empty() {
            return G::Move::default();
        }
        moves[self.rng.random_range(0..moves.len())]
    }
}
