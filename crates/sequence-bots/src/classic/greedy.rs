//! The greedy bot: the one-ply heuristic of [`super::heuristic`].

use super::heuristic::{greedy_scores, with_declaration};
use crate::shell::jittered_best;
use rand::Rng;
use sequence_classic::{Game, Move};

/// One-ply heuristic: completes sequences (and wins), blocks opponents'
/// fours and open threes, values spaces by the live lines through them,
/// keeps jacks for when they matter, exchanges dead cards, and declares
/// sequences keeping the most potential (C8a); with 3 teams or more it
/// races ([`greedy_scores`]). With `blunder` > 0 it plays a random move
/// that often (level 1).
pub type GreedyBot = crate::shell::GreedyBot<Game>;

/// The greedy choice among `moves` in `game` (ties broken by `rng`).
pub fn greedy_choice(game: &Game, moves: &[Move], rng: &mut impl Rng) -> Move {
    let scores = greedy_scores(game, moves);
    let best = jittered_best(moves.iter().copied().zip(scores), rng).unwrap_or(moves[0]);
    with_declaration(game, best)
}
