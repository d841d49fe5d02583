//! The earlier hand-tuned evaluation of classic positions, kept for
//! comparison (`examples/fit_eval.rs`).

use sequence_bots::classic::lines;
use sequence_bots::ismcts::{Rewards, MAX_SIDES};
use sequence_classic::{Game, Team, CORNERS};

/// Value of a live window by spaces missing, for [`evaluate`].
const EVAL: [f32; 6] = [0.0, 12.0, 4.0, 1.5, 0.5, 0.0];
/// Value of a completed sequence, for [`evaluate`].
const EVAL_SEQUENCE: f32 = 80.0;
/// Scale of the evaluation's logistic.
const EVAL_SCALE: f32 = 25.0;

/// The earlier hand-tuned evaluation, kept for comparison
/// (`examples/fit_eval.rs`): each team's sequences and live lines (windows
/// with no opponent chip, by spaces missing), turned into shares that sum
/// to 1 (a softmax). On held-out positions its log loss is worse than
/// even chances; the search uses [`eval::evaluate`].
pub fn line_evaluate(game: &Game) -> Rewards {
    let teams = game.teams() as usize;
    let len = game.sequence_length();
    let ls = lines(len);
    let occ = game.occupied().0;
    let mut v = [0f32; 3];
    let mut chips = [0u128; 3];
    for (t, c) in chips.iter_mut().enumerate().take(teams) {
        *c = game.chips(Team(t as u8)).0;
    }
    for t in 0..teams {
        let own = chips[t] | CORNERS.0;
        let opp = occ & !chips[t];
        let mut s = EVAL_SEQUENCE * game.sequence_count(Team(t as u8)) as f32;
        for &w in &ls.windows {
            if w & opp == 0 {
                let missing = len as usize - (w & own).count_ones() as usize;
                s += EVAL[missing.min(5)];
            }
        }
        v[t] = s;
    }
    let max = v[..teams].iter().cloned().fold(f32::MIN, f32::max);
    let mut r = [0f32; MAX_SIDES];
    let mut sum = 0.0;
    for t in 0..teams {
        r[t] = ((v[t] - max) / EVAL_SCALE).exp();
        sum += r[t];
    }
    for x in r.iter_mut().take(teams) {
        *x /= sum;
    }
    r
}
