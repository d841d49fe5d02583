//! `sequence_game._core.elo_difference` and `score_interval`: the bots'
//! statistics ([`sequence_bots::stats`]) for the package's `arena`, so
//! that Python rates a policy as the Rust arena and the ladder do.

use pyo3::prelude::*;

/// The Elo difference a score `p` (0–1) against one opponent stands for,
/// `400 · log10(p / (1 − p))`, `p` clamped to [0.0001, 0.9999]
/// ([`sequence_bots::stats::elo_difference`]).
#[pyfunction]
pub(super) fn elo_difference(p: f64) -> f64 {
    sequence_bots::stats::elo_difference(p)
}

/// The 95 % interval `(low, high)` of the mean of `scores` (each in
/// 0–1), clipped to 0–1; the mean ± ½ for fewer than two scores
/// ([`sequence_bots::stats::score_interval`]).
#[pyfunction]
pub(super) fn score_interval(scores: Vec<f64>) -> (f64, f64) {
    sequence_bots::stats::score_interval(&scores)
}
