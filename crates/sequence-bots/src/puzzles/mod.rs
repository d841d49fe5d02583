//! Puzzles (issue 25): positions from seeded self-play where one move is
//! clearly best, found and checked by a short search over the engines.
//! [`classic`]: win now, block a four, the only move that keeps a win, the
//! window to declare, the dead-card exchange; [`stacks`]: the Block that
//! saves the game and the only first play of a winning turn.
//!
//! The data files the browser shows (`web/puzzles/<game>.json` of the
//! server) are written by `sequence puzzles` and re-checked, puzzle by
//! puzzle, with the same search ([`classic::solve`], [`stacks::solve`]).

pub mod classic;
pub mod stacks;
