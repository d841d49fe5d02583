//! The greedy bot: the one-ply heuristic of [`super::heuristic`].

use super::heuristic::{board_game, greedy_scores, with_declaration};
use crate::Bot;
use rand::Rng;
use sequence_classic::{Game, Move, SeatView};
use sequence_common::rng::{game_rng, GameRng};

/// One-ply heuristic: completes sequences (and wins), blocks opponents'
/// fours and open threes, values spaces by the live lines through them,
/// keeps jacks for when they matter, exchanges dead cards, and declares
/// sequences keeping the most potential (C8a); with 3 teams or more it
/// races ([`greedy_scores`]). With `blunder` > 0 it plays a random move
/// that often (level 1).
pub struct GreedyBot {
    name: String,
    rng: GameRng,
    blunder: f64,
}

impl GreedyBot {
    /// A greedy bot; `blunder` is the chance (0–1) of a random move.
    pub fn new(name: String, seed: u64, blunder: f64) -> GreedyBot {
        GreedyBot {
            name,
            rng: game_rng(seed),
            blunder,
        }
    }
}

/// The greedy choice among `moves` in `game` (ties broken by `rng`).
pub fn greedy_choice(game: &Game, moves: &[Move], rng: &mut impl Rng) -> Move {
    let scores = greedy_scores(game, moves);
    let mut best = 0;
    let mut best_v = f64::NEG_INFINITY;
    for (i, &v) in scores.iter().enumerate() {
        let v = v + rng.random::<f64>() * 0.5;
        if v > best_v {
            best_v = v;
            best = i;
        }
    }
    with_declaration(game, moves[best])
}

impl Bot<Game> for GreedyBot {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, view: &SeatView) -> Move {
        let moves = view.legal_moves();
        if moves.is_empty() {
            return Move::Pass;
        }
        if self.blunder > 0.0 && self.rng.random::<f64>() < self.blunder {
            return moves[self.rng.random_range(0..moves.len())];
        }
        let game = board_game(view, &mut self.rng);
        greedy_choice(&game, &moves, &mut self.rng)
    }
}
