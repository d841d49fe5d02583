//! Moves the classic bots make without searching: the only legal move, a
//! placement that wins at once (C9), a dead-card exchange (free, C6).

use super::heuristic::with_declaration;
use sequence_classic::{Game, Move};

/// A legal placement in `moves` that completes enough sequences to win
/// (C9) in `game`, if any. Only the board and the seat's own hand matter,
/// so any determinization of a view answers alike.
pub fn winning_placement(game: &Game, moves: &[Move]) -> Option<Move> {
    let team = game.team_of(game.turn());
    let have = game.sequence_count(team);
    moves.iter().copied().find(|m| match *m {
        Move::Place { at, .. } => game
            .completions_at(at)
            .is_some_and(|c| c.any() && have + c.most() >= game.win_sequences()),
        _ => false,
    })
}

/// A move that needs no search, if any: the only legal one, a placement
/// that wins at once (C9) or a dead-card exchange (free, C6: the turn
/// goes on); placements declared as [`with_declaration`] says (C8a).
pub fn obvious_move(game: &Game, moves: &[Move]) -> Option<Move> {
    let m = if moves.len() == 1 {
        moves[0]
    } else if let Some(m) = winning_placement(game, moves) {
        m
    } else {
        *moves.iter().find(|m| matches!(m, Move::Dead { .. }))?
    };
    Some(with_declaration(game, m))
}
