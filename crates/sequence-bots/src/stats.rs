//! The statistics of bot results, in one place: the Wilson interval of a
//! win rate, Bradley–Terry (Elo) ratings from pairwise points, the Elo a
//! score stands for, and the interval of a mean score over duplicate
//! deals. The arena ([`crate::arena`]) tallies games with these, the lab's
//! duplicate runs and the Python package's `arena` (through
//! `sequence_game._core`) too.

/// 1.96: the two-sided 95 % point of the normal distribution.
pub const Z95: f64 = 1.959_964;

/// The Wilson score interval (95 %) of `k` successes in `n` trials;
/// `(0, 1)` for no trials.
pub fn wilson(k: f64, n: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let z = Z95;
    let p = k / n;
    let d = 1.0 + z * z / n;
    let c = (p + z * z / (2.0 * n)) / d;
    let h = z * ((p * (1.0 - p) + z * z / (4.0 * n)) / n).sqrt() / d;
    ((c - h).max(0.0), (c + h).min(1.0))
}

/// Bradley–Terry (Elo) ratings by minorization–maximization from pairwise
/// points (`score[a][b]`: points of `a` against `b`) and game counts; one
/// virtual draw per pair keeps ratings finite. Mean rating 1500.
pub fn elo(score: &[Vec<f64>], count: &[Vec<f64>]) -> Vec<f64> {
    let n = score.len();
    let mut gamma = vec![1.0f64; n];
    for _ in 0..500 {
        let mut next = gamma.clone();
        for i in 0..n {
            let mut w = 0.0;
            let mut d = 0.0;
            for j in 0..n {
                if i == j || count[i][j] == 0.0 {
                    continue;
                }
                w += score[i][j] + 0.5;
                d += (count[i][j] + 1.0) / (gamma[i] + gamma[j]);
            }
            if d > 0.0 {
                next[i] = w / d;
            }
        }
        // Normalise the geometric mean to 1.
        let lg: f64 = next.iter().map(|g| g.ln()).sum::<f64>() / n as f64;
        for g in next.iter_mut() {
            *g = (g.ln() - lg).exp();
        }
        let delta: f64 = next.iter().zip(&gamma).map(|(a, b)| (a - b).abs()).sum();
        gamma = next;
        if delta < 1e-10 {
            break;
        }
    }
    gamma.iter().map(|g| 1500.0 + 400.0 * g.log10()).collect()
}

/// The Elo difference a score `p` (0–1) against one opponent stands
/// for: `400 · log10(p / (1 − p))`, with `p` clamped to
/// [0.0001, 0.9999] so that a clean sweep gives a finite difference
/// (±1600). The bots' ladder (docs/bots.md "Levels") and the Python
/// package's `arena` rate by it.
pub fn elo_difference(p: f64) -> f64 {
    let p = p.clamp(1e-4, 1.0 - 1e-4);
    400.0 * (p / (1.0 - p)).log10()
}

/// The Elo against the field of a mean score `p` (clamped to
/// [0.001, 0.999]): 1500 plus half the difference a score `p` means
/// between two players ([`elo_difference`]), `200 · log10(p / (1 − p))`.
pub fn elo_of_score(p: f64) -> f64 {
    // halving is exact in binary floating point: the same bits as
    // `200 · log10(…)`
    1500.0 + elo_difference(p.clamp(0.001, 0.999)) / 2.0
}

/// Mean and half-width of the 95 % interval of `xs` (normal
/// approximation, [`Z95`] standard errors; 0 half-width for fewer than
/// two values).
pub fn mean_ci(xs: &[f64]) -> (f64, f64) {
    let (mean, se) = mean_se(xs);
    (mean, Z95 * se)
}

/// Mean and standard error of the mean of `xs` (the sample standard
/// deviation over √n; 0 for fewer than two values, 0 mean for none).
pub fn mean_se(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    if xs.is_empty() {
        return (0.0, 0.0);
    }
    let mean = xs.iter().sum::<f64>() / n;
    if xs.len() < 2 {
        return (mean, 0.0);
    }
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, (var / n).sqrt())
}

/// The 95 % interval of the mean of scores in [0, 1] over deals: the
/// normal interval of the scores with two pseudo-deals added, one scored 0
/// and one 1 (as the Agresti–Coull interval adds pseudo-games), so that a
/// few deals that all score alike (every deal won, or every deal split)
/// never give an interval of zero width.
pub fn deal_interval(xs: &[f64]) -> (f64, f64) {
    let mut padded = Vec::with_capacity(xs.len() + 2);
    padded.extend_from_slice(xs);
    padded.extend([0.0, 1.0]);
    score_interval(&padded)
}

/// The 95 % interval of the mean of scores in [0, 1] (the normal
/// interval of [`mean_ci`]), clipped to [0, 1]; with fewer than two
/// scores their spread is unknown and the interval is the mean ± ½. The
/// Python package's `arena` gives it over duplicate pairs;
/// [`deal_interval`] pads the scores first.
pub fn score_interval(xs: &[f64]) -> (f64, f64) {
    let (m, h) = mean_ci(xs);
    let h = if xs.len() < 2 { 0.5 } else { h };
    ((m - h).max(0.0), (m + h).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Known values: 5 of 10 gives 23.7–76.3 %; no trials says nothing.
    #[test]
    fn wilson_interval_of_known_counts() {
        let (lo, hi) = wilson(5.0, 10.0);
        assert!((lo - 0.2366).abs() < 1e-3 && (hi - 0.7634).abs() < 1e-3);
        assert_eq!(wilson(0.0, 0.0), (0.0, 1.0));
    }

    /// Two players who split their games rate alike; a 3:1 score puts the
    /// winner about 191 points above at the 75 % mark (less the virtual
    /// draw's pull).
    #[test]
    fn elo_of_even_and_uneven_scores() {
        let even = elo(
            &[vec![0.0, 5.0], vec![5.0, 0.0]],
            &[vec![0.0, 10.0], vec![10.0, 0.0]],
        );
        assert!((even[0] - 1500.0).abs() < 1e-6 && (even[1] - 1500.0).abs() < 1e-6);
        let r = elo(
            &[vec![0.0, 75.0], vec![25.0, 0.0]],
            &[vec![0.0, 100.0], vec![100.0, 0.0]],
        );
        let gap = r[0] - r[1];
        assert!(gap > 180.0 && gap < 191.0, "{r:?}");
        assert!(elo_of_score(0.5) == 1500.0 && elo_of_score(0.75) > 1500.0);
    }

    /// A 3:1 score is 191 Elo; against the field half of it; sweeps stay
    /// finite; few scores give a wide interval.
    #[test]
    fn elo_difference_and_score_interval_of_known_scores() {
        assert!((elo_difference(0.75) - 190.85).abs() < 0.01);
        assert_eq!(elo_difference(0.5), 0.0);
        assert!((elo_difference(1.0) - 1600.0).abs() < 0.1 && elo_difference(0.0) < -1599.9);
        for p in [0.01f64, 0.3, 0.5, 0.75, 0.99] {
            let by_hand = 1500.0 + 200.0 * (p / (1.0 - p)).log10();
            assert_eq!(elo_of_score(p), by_hand, "{p}");
        }
        assert_eq!(score_interval(&[0.5]), (0.0, 1.0));
        assert_eq!(score_interval(&[1.0, 1.0, 1.0]), (1.0, 1.0));
        let (lo, hi) = score_interval(&[0.0, 0.5, 1.0, 0.5]);
        assert!(
            (lo - 0.0999).abs() < 1e-3 && (hi - 0.9001).abs() < 1e-3,
            "{lo} {hi}"
        );
        assert_eq!(deal_interval(&[1.0]), score_interval(&[1.0, 0.0, 1.0]));
    }
}
