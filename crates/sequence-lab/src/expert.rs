//! Expert iteration for the learned policy of classic Sequence
//! ([`sequence_bots::classic::policy`]): the flat search plays itself
//! ([`self_play`]), each searched decision becomes a training target (the
//! search's visit shares over its candidates, half of the weight on the
//! move it chose, and a few other legal moves as moves not to play), and
//! a softmax regression over the moves' features is fitted to them
//! ([`fit`]); the fitted policy then guides the next round's search
//! (candidates and playouts). `examples/expert_iteration.rs` runs the
//! rounds and measures each round's bot.

use rand::RngCore;
use sequence_bots::classic::flat::{self, FlatOptions};
use sequence_bots::classic::inference::Evidence;
use sequence_bots::classic::obvious::obvious_move;
use sequence_bots::classic::policy::{Context, Policy, FEATURES};
use sequence_bots::classic::with_declaration;
use sequence_bots::config::ClassicSearch;
use sequence_bots::seeds::mix;
use sequence_bots::Budget;
use sequence_classic::{Config, Game, Move, RngReshuffler};
use sequence_common::rng::game_rng;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// One searched decision: the features of some of its legal moves and
/// the target probability of each (summing to 1).
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    /// Per move kept: its features ([`Context::features`]).
    pub feats: Vec<[f32; FEATURES]>,
    /// Per move kept: its target probability.
    pub target: Vec<f32>,
}

/// Settings of the self-play.
#[derive(Debug, Clone)]
pub struct SelfPlay {
    /// The table.
    pub config: Config,
    /// Iterations (playouts) per searched decision.
    pub budget: u64,
    /// The policy guiding the search (`None`: the default search).
    pub policy: Option<Arc<Policy>>,
    /// Legal moves outside the candidates kept per decision (as moves the
    /// search did not want).
    pub others: usize,
}

impl SelfPlay {
    /// The search's settings.
    pub fn options(&self) -> FlatOptions {
        FlatOptions {
            policy: self.policy.clone(),
            ..FlatOptions::from(&ClassicSearch::default())
        }
    }
}

/// Most decisions of one self-play game.
const MAX_DECISIONS: u32 = 2_000;

/// Plays one self-play game from the deal seeded `seed`; every decision
/// the search made (not the obvious ones: a single legal move, a winning
/// placement, a dead-card exchange) as a [`Sample`].
pub fn play_game(sp: &SelfPlay, seed: u64) -> Vec<Sample> {
    let mut rng = game_rng(seed);
    let (mut game, _) = Game::deal(sp.config.clone(), &mut rng);
    let cfg = ClassicSearch::default();
    let mut evidence: Vec<Evidence> = (0..game.players()).map(|_| Evidence::new(&cfg)).collect();
    let opts = sp.options();
    let mut out = Vec::new();
    let mut n = 0;
    while !game.is_over() && n < MAX_DECISIONS {
        n += 1;
        let seat = game.turn();
        let view = game.view(seat);
        evidence[seat.index()].update(&view);
        let moves = view.legal_moves();
        let det = view.determinize(&mut game_rng(mix(seed ^ mix(u64::from(n)))));
        let mv = match obvious_move(&det, &moves) {
            Some(m) => m,
            None => {
                let s = mix(seed ^ mix(0x5EA2C4 + u64::from(n)));
                let report = flat::search(
                    &view,
                    &opts,
                    Budget::Iterations(sp.budget),
                    s,
                    &evidence[seat.index()],
                );
                let best = report.best().unwrap_or(moves[0]);
                out.push(sample(&det, &moves, &report.moves, sp.others, &mut rng));
                with_declaration(&det, best)
            }
        };
        if game.apply(seat, mv, &mut RngReshuffler(&mut rng)).is_err() {
            break;
        }
    }
    out
}

/// The sample of one decision: the searched candidates (`searched`: move,
/// visits, mean, best first) and up to `others` other legal moves.
fn sample(
    game: &Game,
    moves: &[Move],
    searched: &[(Move, u32, f64)],
    others: usize,
    rng: &mut impl RngCore,
) -> Sample {
    let ctx = Context::of(game);
    let total: f64 = searched
        .iter()
        .map(|m| f64::from(m.1))
        .sum::<f64>()
        .max(1.0);
    let mut feats = Vec::new();
    let mut target = Vec::new();
    for (i, m) in searched.iter().enumerate() {
        feats.push(ctx.features(m.0));
        let hard = if i == 0 { 0.5 } else { 0.0 };
        target.push((0.5 * f64::from(m.1) / total + hard) as f32);
    }
    let mut rest: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| !searched.iter().any(|s| s.0 == *m))
        .collect();
    for k in 0..others.min(rest.len()) {
        let j = k + (rng.next_u64() % (rest.len() - k) as u64) as usize;
        rest.swap(k, j);
        feats.push(ctx.features(rest[k]));
        target.push(0.0);
    }
    Sample { feats, target }
}

/// Plays `games` self-play games (game `g` from the deal seeded by `seed`
/// and `g`) on `threads` threads, calling `tick` after each; the samples
/// in game order.
pub fn self_play(
    sp: &SelfPlay,
    games: usize,
    seed: u64,
    threads: usize,
    tick: &(dyn Fn() + Sync),
) -> Vec<Sample> {
    let next = AtomicUsize::new(0);
    let slots: Mutex<Vec<Vec<Sample>>> = Mutex::new(vec![Vec::new(); games]);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1).min(games.max(1)) {
            scope.spawn(|| loop {
                let g = next.fetch_add(1, Ordering::Relaxed);
                if g >= games {
                    break;
                }
                let samples = play_game(sp, mix(seed ^ mix(0x6A3E + g as u64)));
                if let Ok(mut s) = slots.lock() {
                    s[g] = samples;
                }
                tick();
            });
        }
    });
    slots
        .into_inner()
        .unwrap_or_default()
        .into_iter()
        .flatten()
        .collect()
}

/// A fit's weights and how well they predict.
#[derive(Debug, Clone, PartialEq)]
pub struct Fit {
    /// The fitted weights.
    pub weights: Vec<f32>,
    /// Cross-entropy on the training samples.
    pub train_loss: f64,
    /// Cross-entropy on the held-out samples (the last tenth).
    pub holdout_loss: f64,
    /// The starting weights' cross-entropy on the held-out samples.
    pub holdout_loss_before: f64,
    /// Share of held-out decisions where the policy's best move is the
    /// target's.
    pub holdout_top1: f64,
}

/// Softmax probabilities of the moves of `s` under `w`.
fn probs(w: &[f64], s: &Sample) -> Vec<f64> {
    let scores: Vec<f64> = s
        .feats
        .iter()
        .map(|f| w.iter().zip(f).map(|(a, &b)| a * f64::from(b)).sum())
        .collect();
    let top = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let e: Vec<f64> = scores.iter().map(|x| (x - top).exp()).collect();
    let z: f64 = e.iter().sum();
    e.into_iter().map(|x| x / z).collect()
}

/// Mean cross-entropy of `w` on the samples, and (optionally) its
/// gradient added into `grad`.
fn loss(w: &[f64], samples: &[Sample], mut grad: Option<&mut [f64]>) -> f64 {
    let mut total = 0.0;
    for s in samples {
        let p = probs(w, s);
        for (i, (&pi, &ti)) in p.iter().zip(&s.target).enumerate() {
            let ti = f64::from(ti);
            if ti > 0.0 {
                total -= ti * pi.max(1e-12).ln();
            }
            if let Some(g) = grad.as_deref_mut() {
                for (gk, &x) in g.iter_mut().zip(&s.feats[i]) {
                    *gk += (pi - ti) * f64::from(x) / samples.len() as f64;
                }
            }
        }
    }
    total / samples.len().max(1) as f64
}

/// Fits the policy's weights to `samples` by full-batch Adam from `init`
/// (`steps` steps of size `lr`), holding out the last tenth of the
/// samples to measure.
pub fn fit(samples: &[Sample], init: &[f32], steps: usize, lr: f64) -> Fit {
    let held = samples.len() - samples.len() / 10;
    let (train, test) = samples.split_at(held);
    let mut w: Vec<f64> = init.iter().map(|&x| f64::from(x)).collect();
    let before = loss(&w, test, None);
    let (mut m, mut v) = (vec![0.0; w.len()], vec![0.0; w.len()]);
    let (b1, b2) = (0.9f64, 0.999f64);
    for t in 1..=steps {
        let mut g = vec![0.0; w.len()];
        loss(&w, train, Some(&mut g));
        for k in 0..w.len() {
            m[k] = b1 * m[k] + (1.0 - b1) * g[k];
            v[k] = b2 * v[k] + (1.0 - b2) * g[k] * g[k];
            let mh = m[k] / (1.0 - b1.powi(t as i32));
            let vh = v[k] / (1.0 - b2.powi(t as i32));
            w[k] -= lr * mh / (vh.sqrt() + 1e-8);
        }
    }
    let top1 = test
        .iter()
        .filter(|s| {
            let p = probs(&w, s);
            let arg = |x: &[f64]| (0..x.len()).max_by(|&a, &b| x[a].total_cmp(&x[b]));
            let t: Vec<f64> = s.target.iter().map(|&x| f64::from(x)).collect();
            arg(&p) == arg(&t)
        })
        .count() as f64
        / test.len().max(1) as f64;
    Fit {
        train_loss: loss(&w, train, None),
        holdout_loss: loss(&w, test, None),
        holdout_loss_before: before,
        holdout_top1: top1,
        weights: w.into_iter().map(|x| x as f32).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sequence_classic::Options;

    /// Samples whose targets come from a known weight vector: the fit
    /// from zeros lowers the held-out loss and ranks the moves as the
    /// known weights do.
    #[test]
    fn the_fit_recovers_a_known_policy() {
        let mut rng = game_rng(5);
        let truth: Vec<f64> = (0..FEATURES).map(|k| (k % 5) as f64 - 2.0).collect();
        let samples: Vec<Sample> = (0..400)
            .map(|_| {
                let feats: Vec<[f32; FEATURES]> = (0..6)
                    .map(|_| {
                        let mut f = [0f32; FEATURES];
                        for x in f.iter_mut() {
                            *x = (rng.next_u32() % 3) as f32;
                        }
                        f
                    })
                    .collect();
                let mut s = Sample {
                    feats,
                    target: vec![0.0; 6],
                };
                s.target = probs(&truth, &s).into_iter().map(|p| p as f32).collect();
                s
            })
            .collect();
        let f = fit(&samples, &[0.0; FEATURES], 400, 0.05);
        assert!(
            f.holdout_loss < f.holdout_loss_before - 0.3,
            "{} vs {}",
            f.holdout_loss,
            f.holdout_loss_before
        );
        // A random ranking picks the target's best of 6 moves 1 time in 6.
        assert!(f.holdout_top1 > 0.75, "top-1 {}", f.holdout_top1);
        let dot: f64 = truth
            .iter()
            .zip(&f.weights)
            .map(|(a, &b)| a * f64::from(b))
            .sum();
        let norm = |v: &mut dyn Iterator<Item = f64>| v.map(|x| x * x).sum::<f64>().sqrt();
        let cos = dot
            / (norm(&mut truth.iter().copied())
                * norm(&mut f.weights.iter().map(|&x| f64::from(x))));
        assert!(cos > 0.9, "cosine with the true weights {cos}");
    }

    /// A self-play game with a small budget gives samples whose targets
    /// sum to 1, with the searched move first.
    #[test]
    fn self_play_samples_are_distributions() {
        let sp = SelfPlay {
            config: Config::new(2, None, Options::default()).expect("config"),
            budget: 24,
            policy: None,
            others: 4,
        };
        let samples = play_game(&sp, 3);
        assert!(samples.len() > 10, "{} samples", samples.len());
        for s in &samples {
            let sum: f32 = s.target.iter().sum();
            assert!((sum - 1.0).abs() < 1e-4, "{sum}");
            assert_eq!(s.feats.len(), s.target.len());
            assert!(s.target[0] >= 0.5);
        }
        assert_eq!(samples, play_game(&sp, 3), "the same seed plays alike");
    }
}
