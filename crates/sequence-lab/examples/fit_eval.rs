//! Fits the weights of the classic evaluation (`classic::eval::WEIGHTS`)
//! by softmax regression: positions from tactical self-play (2 players),
//! each labelled by who wins a tactical playout from it. Prints the weights
//! and the log loss on held-out positions of the fitted weights, the
//! current weights and the older line-count evaluation, for 2 and 3
//! players.
//!
//! `cargo run --release -p sequence-lab --example fit_eval [GAMES]`

use rand::Rng;
use sequence_bots::classic::eval::{self, FEATURES, FEATURE_NAMES, WEIGHTS};
use sequence_bots::classic::playout::{tactical_move, Threats};
use sequence_bots::ismcts::Rewards;
use sequence_classic::{Config, Game, Options, RngReshuffler, Status};
use sequence_common::rng::playout_rng;

/// One position: per team its features, and its reward from the playout.
struct Sample {
    f: Vec<[f32; FEATURES]>,
    y: Vec<f32>,
    old: Rewards,
}

fn play_on(game: &mut Game, rng: &mut sequence_common::rng::PlayoutRng, plies: u32) {
    let mut n = 0;
    while !game.is_over() && n < plies {
        let mv = tactical_move(game, rng);
        if game
            .apply(game.turn(), mv, &mut RngReshuffler(rng))
            .is_err()
        {
            break;
        }
        n += 1;
    }
}

fn samples(players: u8, games: u64, seed: u64) -> Vec<Sample> {
    let cfg = Config::new(players, None, Options::default()).expect("config");
    let mut out = Vec::new();
    for g in 0..games {
        let mut rng = playout_rng(seed ^ (g * 0x9E37_79B9));
        let (mut game, _) = Game::deal(cfg.clone(), &mut rng);
        let ply = rng.random_range(4..90);
        play_on(&mut game, &mut rng, ply);
        if game.is_over() {
            continue;
        }
        let teams = game.teams() as usize;
        let th = Threats::of(&game);
        let f: Vec<_> = (0..teams).map(|t| eval::features(&game, &th, t)).collect();
        let old = sequence_lab::line_eval::line_evaluate(&game);
        let mut end = game.clone();
        play_on(&mut end, &mut rng, 10_000);
        let y = match end.status() {
            Status::Won(t) => (0..teams)
                .map(|i| if i == t.index() { 1.0 } else { 0.0 })
                .collect(),
            _ => vec![1.0 / teams as f32; teams],
        };
        out.push(Sample { f, y, old });
    }
    out
}

fn probs(s: &Sample, w: &[f32; FEATURES]) -> Vec<f32> {
    let sc: Vec<f32> =
        s.f.iter()
            .map(|f| f.iter().zip(w).map(|(a, b)| a * b).sum())
            .collect();
    let max = sc.iter().copied().fold(f32::MIN, f32::max);
    let e: Vec<f32> = sc.iter().map(|x| (x - max).exp()).collect();
    let sum: f32 = e.iter().sum();
    e.iter().map(|x| x / sum).collect()
}

fn log_loss(data: &[Sample], p: impl Fn(&Sample) -> Vec<f32>) -> f64 {
    let mut l = 0.0;
    for s in data {
        let p = p(s);
        for (y, q) in s.y.iter().zip(&p) {
            l -= *y as f64 * (q.max(1e-6) as f64).ln();
        }
    }
    l / data.len() as f64
}

fn fit(train: &[Sample]) -> [f32; FEATURES] {
    let mut w = [0f32; FEATURES];
    let (mut m, mut v) = ([0f64; FEATURES], [0f64; FEATURES]);
    let (b1, b2, lr) = (0.9, 0.999, 0.02);
    for step in 1..=1500 {
        let mut g = [0f64; FEATURES];
        for s in train {
            let p = probs(s, &w);
            for (t, f) in s.f.iter().enumerate() {
                let d = (p[t] - s.y[t]) as f64;
                for k in 0..FEATURES {
                    g[k] += d * f[k] as f64;
                }
            }
        }
        for k in 0..FEATURES {
            let gk = g[k] / train.len() as f64 + 1e-4 * w[k] as f64;
            m[k] = b1 * m[k] + (1.0 - b1) * gk;
            v[k] = b2 * v[k] + (1.0 - b2) * gk * gk;
            let mh = m[k] / (1.0 - b1f(b1, step));
            let vh = v[k] / (1.0 - b1f(b2, step));
            w[k] -= (lr * mh / (vh.sqrt() + 1e-8)) as f32;
        }
    }
    w
}

fn b1f(b: f64, step: i32) -> f64 {
    b.powi(step)
}

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(40_000);
    let train = samples(2, games, 1);
    let test2 = samples(2, games / 4, 2);
    let test3 = samples(3, games / 4, 3);
    eprintln!(
        "{} training positions, {} + {} held out",
        train.len(),
        test2.len(),
        test3.len()
    );
    let w = fit(&train);
    for (name, x) in FEATURE_NAMES.iter().zip(&w) {
        println!("{name:<40} {x:>8.4}");
    }
    println!(
        "pub const WEIGHTS: [f32; FEATURES] = [{}];",
        w.iter()
            .map(|x| format!("{x:.4}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    for (name, data) in [("2 players", &test2), ("3 players", &test3)] {
        let uniform = log_loss(data, |s| vec![1.0 / s.y.len() as f32; s.y.len()]);
        let fitted = log_loss(data, |s| probs(s, &w));
        let current = log_loss(data, |s| probs(s, &WEIGHTS));
        let old = log_loss(data, |s| s.old[..s.y.len()].to_vec());
        println!(
            "{name}: log loss uniform {uniform:.4}, fitted {fitted:.4}, current {current:.4}, line-count evaluation {old:.4}"
        );
    }
}
