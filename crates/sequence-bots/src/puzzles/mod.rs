//! Puzzles (issue 25): positions from seeded self-play where one move is
//! clearly best, found and checked by a short search over the engines.
//! [`classic`]: win now, block a four, the only move that keeps a win, the
//! window to declare, the dead-card exchange; [`stacks`]: the Block that
//! saves the game and the only first play of a winning turn.
//!
//! The data files the browser shows (`web/puzzles/<game>.json` of the
//! server) are written by `sequence puzzles` and re-checked, puzzle by
//! puzzle, with the same search ([`classic::solve`], [`stacks::solve`]).

use serde_json::{json, Value};

pub mod classic;
pub mod stacks;

/// A solved position of either game: what every puzzle has (its kind, its
/// grade, the only best move `M`, how many moves were weighed) and `why`,
/// what explains it in that game ([`classic::Why`], [`stacks::Why`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Solved<M, W> {
    /// The kind of puzzle, as the data file and the page name it (each
    /// game's `Why` lists its kinds).
    pub kind: &'static str,
    /// 1 (easy), 2 or 3 (hard); each game's `Why` says what makes a grade.
    pub grade: u8,
    /// The only best move.
    pub solution: M,
    /// How many moves were weighed.
    pub moves: usize,
    /// What explains the solution.
    pub why: W,
}

impl<M, W> Solved<M, W> {
    /// The fields every puzzle of a data file starts with, in this order:
    /// `id`, `grade`, `kind`, and `from` (the self-play game's `seed` and
    /// `move` number the position was found at). Each game's `to_json`
    /// adds the position and the explanation after them.
    pub fn head(&self, id: &str, seed: u64, at: u32) -> Value {
        json!({
            "id": id,
            "grade": self.grade,
            "kind": self.kind,
            "from": {"seed": seed, "move": at},
        })
    }
}
