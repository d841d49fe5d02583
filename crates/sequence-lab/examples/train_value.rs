//! Fits the learned value of classic Sequence
//! (`sequence_bots::classic::value`) and writes its weights file.
//!
//! ```sh
//! cargo run --release -p sequence-lab --example train_value -- --seed 1 --games 100000
//! ```
//!
//! For each table kind (`2p`, `4p` = 2 teams of 2, `3p`) it plays `--games`
//! fast self-play games in which every seat follows, for the whole game,
//! either the greedy heuristic or the tactical playout policy (chosen at
//! random per seat and game, each with a few extra random moves), samples
//! positions from them, and labels each position by the game's result.
//! Then it fits, by softmax regression with Adam on minibatches, a linear
//! model and a one-hidden-layer network over each team's features and its
//! opponents' (`classic::features`), and reports the log loss on held-out
//! games (the last tenth) for even chances, the older evaluation
//! (`classic::eval`), the linear model and the network. The network is
//! written to `--out` (default `crates/sequence-bots/data/value.json`).
//!
//! Options: `--seed S`, `--games N` (per kind), `--kinds 2p,4p,3p`,
//! `--hidden H` (0 = linear only), `--epochs E`, `--sample P` (share of
//! positions kept), `--jobs J` (threads for the self-play), `--out FILE`,
//! `--td ROUNDS` (refine by TD(0) on self-play of the search's playout
//! policy after the fit; see `td_round`).

use rand::{Rng, RngCore};
use sequence_bots::classic::features::{self, FEATURES, NAMES};
use sequence_bots::classic::value::{Model, Weights, INPUTS};
use sequence_bots::classic::{eval, greedy_choice, playout::tactical_move};
use sequence_classic::{Config, Game, Move, Options, RngReshuffler, Status};
use sequence_common::rng::{game_rng, playout_rng, GameRng, PlayoutRng};
use std::time::Instant;

/// Positions of one kind: per position `teams × FEATURES` features, the
/// result per team, and the older evaluation's chances.
#[derive(Default)]
struct Data {
    teams: usize,
    f: Vec<f32>,
    y: Vec<f32>,
    old: Vec<f32>,
    /// Game index of each position (for the held-out split).
    game: Vec<u32>,
}

impl Data {
    fn len(&self) -> usize {
        self.game.len()
    }
    fn feats(&self, i: usize) -> [[f32; FEATURES]; 3] {
        let mut out = [[0f32; FEATURES]; 3];
        for (t, o) in out.iter_mut().enumerate().take(self.teams) {
            let at = (i * self.teams + t) * FEATURES;
            o.copy_from_slice(&self.f[at..at + FEATURES]);
        }
        out
    }
    fn append(&mut self, mut o: Data) {
        self.teams = o.teams;
        self.f.append(&mut o.f);
        self.y.append(&mut o.y);
        self.old.append(&mut o.old);
        self.game.append(&mut o.game);
    }
}

struct Args {
    seed: u64,
    games: u32,
    kinds: Vec<String>,
    hidden: usize,
    epochs: usize,
    sample: f64,
    jobs: usize,
    out: String,
    td: usize,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        seed: 1,
        games: 100_000,
        kinds: vec!["2p".into(), "4p".into(), "3p".into()],
        hidden: 32,
        epochs: 8,
        sample: 0.15,
        jobs: 2,
        out: "crates/sequence-bots/data/value.json".into(),
        td: 0,
    };
    let mut it = std::env::args().skip(1);
    while let Some(k) = it.next() {
        let v = it.next().ok_or(format!("{k} needs a value"))?;
        let bad = |_: std::num::ParseIntError| format!("{k}: {v:?} is not a number");
        match k.as_str() {
            "--seed" => a.seed = v.parse().map_err(bad)?,
            "--games" => a.games = v.parse().map_err(bad)?,
            "--kinds" => a.kinds = v.split(',').map(str::to_string).collect(),
            "--hidden" => a.hidden = v.parse().map_err(bad)?,
            "--epochs" => a.epochs = v.parse().map_err(bad)?,
            "--sample" => {
                a.sample = v
                    .parse()
                    .map_err(|_| format!("{k}: {v:?} is not a number"))?
            }
            "--jobs" => a.jobs = v.parse::<usize>().map_err(bad)?.max(1),
            "--out" => a.out = v,
            "--td" => a.td = v.parse().map_err(bad)?,
            _ => return Err(format!("unknown argument {k}")),
        }
    }
    for k in &a.kinds {
        if !["2p", "4p", "3p"].contains(&k.as_str()) {
            return Err(format!("kind {k:?}: 2p, 4p or 3p"));
        }
    }
    Ok(a)
}

fn config_of(kind: &str) -> Config {
    let (players, teams) = match kind {
        "4p" => (4, Some(2)),
        "3p" => (3, None),
        _ => (2, None),
    };
    match Config::new(players, teams, Options::default()) {
        Ok(c) => c,
        Err(e) => unreachable!("a standard table: {e}"),
    }
}

/// Extra random moves of the self-play seats.
const EXTRA_RANDOM: f64 = 0.03;

/// A self-play move: greedy or the tactical policy, with a few random ones.
fn self_play_move(game: &Game, greedy: bool, rng: &mut PlayoutRng, moves: &mut Vec<Move>) -> Move {
    if rng.random::<f64>() < EXTRA_RANDOM {
        return game.random_move(rng).unwrap_or_default();
    }
    if greedy {
        moves.clear();
        game.legal_moves(moves);
        if moves.is_empty() {
            return Move::Pass;
        }
        greedy_choice(game, moves, rng)
    } else {
        tactical_move(game, rng)
    }
}

/// Plays games `from..to` of a kind and samples their positions.
fn play_games(cfg: &Config, seed: u64, from: u32, to: u32, sample: f64) -> Data {
    let teams = cfg.teams() as usize;
    let mut d = Data {
        teams,
        ..Data::default()
    };
    let mut moves = Vec::with_capacity(128);
    for g in from..to {
        let mut rng = playout_rng(seed ^ (g as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let (mut game, _) = Game::deal(cfg.clone(), &mut rng);
        let greedy: Vec<bool> = (0..cfg.players()).map(|_| rng.random()).collect();
        let start = d.len();
        let mut plies = 0;
        while !game.is_over() && plies < 2000 {
            if rng.random::<f64>() < sample {
                let (f, n) = features::all_features(&game);
                for ft in f.iter().take(n) {
                    d.f.extend_from_slice(ft);
                }
                let old = eval::evaluate(&game);
                d.old.extend_from_slice(&old[..n]);
                d.game.push(g);
            }
            let mv = self_play_move(&game, greedy[game.turn().index()], &mut rng, &mut moves);
            if game
                .apply(game.turn(), mv, &mut RngReshuffler(&mut rng))
                .is_err()
            {
                break;
            }
            plies += 1;
        }
        let y: Vec<f32> = match game.status() {
            Status::Won(t) => (0..teams)
                .map(|u| if u == t.index() { 1.0 } else { 0.0 })
                .collect(),
            _ => vec![1.0 / teams as f32; teams],
        };
        for _ in start..d.len() {
            d.y.extend_from_slice(&y);
        }
    }
    d
}

fn generate(cfg: &Config, seed: u64, games: u32, sample: f64, jobs: usize) -> Data {
    let chunk = games.div_ceil(jobs as u32).max(1);
    let parts: Vec<Data> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..jobs as u32)
            .map(|j| {
                let from = (j * chunk).min(games);
                let to = ((j + 1) * chunk).min(games);
                s.spawn(move || play_games(cfg, seed, from, to, sample))
            })
            .collect();
        hs.into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    });
    let mut d = Data {
        teams: cfg.teams() as usize,
        ..Data::default()
    };
    for p in parts {
        d.append(p);
    }
    d
}

// ----- fitting -------------------------------------------------------------------

/// Sets the model's standardization from the training positions.
fn standardize(m: &mut Model, d: &Data, idx: &[usize]) {
    let mut sum = vec![0f64; INPUTS];
    let mut sq = vec![0f64; INPUTS];
    let mut n = 0f64;
    for &i in idx {
        let f = d.feats(i);
        for t in 0..d.teams {
            let c = features::context(&f, d.teams, t);
            for k in 0..FEATURES {
                sum[k] += f[t][k] as f64;
                sq[k] += (f[t][k] as f64).powi(2);
                sum[FEATURES + k] += c[k] as f64;
                sq[FEATURES + k] += (c[k] as f64).powi(2);
            }
            n += 1.0;
        }
    }
    for k in 0..INPUTS {
        let mean = sum[k] / n.max(1.0);
        let var = (sq[k] / n.max(1.0) - mean * mean).max(0.0);
        m.mean[k] = mean as f32;
        m.scale[k] = if var > 1e-9 {
            (1.0 / var.sqrt()) as f32
        } else {
            0.0
        };
    }
}

/// Per-position standardized inputs of every team, for fast epochs.
fn inputs_of(m: &Model, d: &Data, i: usize) -> ([[f32; INPUTS]; 3], usize) {
    let f = d.feats(i);
    let mut z = [[0f32; INPUTS]; 3];
    for (t, zt) in z.iter_mut().enumerate().take(d.teams) {
        let c = features::context(&f, d.teams, t);
        *zt = m.inputs(&f[t], &c);
    }
    (z, d.teams)
}

/// Parameters as one flat vector (for Adam): lin, w1, b1, w2.
fn params(m: &Model) -> Vec<f32> {
    let mut p = m.lin.clone();
    p.extend_from_slice(&m.w1);
    p.extend_from_slice(&m.b1);
    p.extend_from_slice(&m.w2);
    p
}

fn set_params(m: &mut Model, p: &[f32]) {
    let (a, rest) = p.split_at(INPUTS);
    let (b, rest) = rest.split_at(m.hidden * INPUTS);
    let (c, e) = rest.split_at(m.hidden);
    m.lin.copy_from_slice(a);
    m.w1.copy_from_slice(b);
    m.b1.copy_from_slice(c);
    m.w2.copy_from_slice(e);
}

/// Adds the gradient of `ds · score(z)` to `g` (layout of [`params`]).
fn backprop(m: &Model, z: &[f32; INPUTS], ds: f32, g: &mut [f32]) {
    let h = m.hidden;
    for k in 0..INPUTS {
        g[k] += ds * z[k];
    }
    let w1_at = INPUTS;
    let b1_at = w1_at + h * INPUTS;
    let w2_at = b1_at + h;
    for j in 0..h {
        let row = &m.w1[j * INPUTS..(j + 1) * INPUTS];
        let a: f32 = m.b1[j] + row.iter().zip(z).map(|(x, y)| x * y).sum::<f32>();
        if a > 0.0 {
            g[w2_at + j] += ds * a;
            let da = ds * m.w2[j];
            g[b1_at + j] += da;
            let gr = &mut g[w1_at + j * INPUTS..w1_at + (j + 1) * INPUTS];
            for (x, y) in gr.iter_mut().zip(z) {
                *x += da * y;
            }
        }
    }
}

fn softmax(s: &[f32], n: usize) -> [f32; 3] {
    let max = s[..n].iter().copied().fold(f32::MIN, f32::max);
    let mut p = [0f32; 3];
    let mut sum = 0.0;
    for t in 0..n {
        p[t] = (s[t] - max).exp();
        sum += p[t];
    }
    for x in p.iter_mut().take(n) {
        *x /= sum;
    }
    p
}

fn log_loss_of(m: &Model, d: &Data, idx: &[usize]) -> f64 {
    let mut l = 0.0;
    for &i in idx {
        let (z, n) = inputs_of(m, d, i);
        let s: Vec<f32> = (0..n).map(|t| m.score_z(&z[t])).collect();
        let p = softmax(&s, n);
        for (t, pt) in p.iter().enumerate().take(n) {
            l -= d.y[i * n + t] as f64 * (pt.max(1e-6) as f64).ln();
        }
    }
    l / idx.len().max(1) as f64
}

fn log_loss_table(d: &Data, idx: &[usize], p: impl Fn(usize, usize) -> f32) -> f64 {
    let n = d.teams;
    let mut l = 0.0;
    for &i in idx {
        for t in 0..n {
            l -= d.y[i * n + t] as f64 * (p(i, t).max(1e-6) as f64).ln();
        }
    }
    l / idx.len().max(1) as f64
}

/// Fits `m` (its standardization set) by Adam on minibatches.
fn fit(m: &mut Model, d: &Data, train: &[usize], epochs: usize, rng: &mut GameRng) {
    let mut p = params(m);
    // Small random start for the hidden layer.
    let h = m.hidden;
    for x in p[INPUTS..INPUTS + h * INPUTS].iter_mut() {
        *x = (rng.random::<f32>() - 0.5) * 2.0 * (1.0 / INPUTS as f32).sqrt();
    }
    for x in p[INPUTS + h * INPUTS + h..].iter_mut() {
        *x = (rng.random::<f32>() - 0.5) * 0.2;
    }
    set_params(m, &p);
    let np = p.len();
    let (mut mo, mut ve) = (vec![0f32; np], vec![0f32; np]);
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let batch = 256;
    let l2 = 1e-5f32;
    let mut order = train.to_vec();
    let mut step = 0i32;
    let steps_total = (epochs * order.len().div_ceil(batch)) as f32;
    let mut g = vec![0f32; np];
    for _ in 0..epochs {
        sequence_common::rng::shuffle(&mut order, rng);
        for chunk in order.chunks(batch) {
            batch_gradient(m, d, chunk, &mut g);
            step += 1;
            // Learning rate: 3e-3 falling linearly to 3e-4.
            let lr = 3e-3 * (1.0 - 0.9 * step as f32 / steps_total);
            let c1 = 1.0 - b1.powi(step);
            let c2 = 1.0 - b2.powi(step);
            for k in 0..np {
                let gk = g[k] + l2 * p[k];
                mo[k] = b1 * mo[k] + (1.0 - b1) * gk;
                ve[k] = b2 * ve[k] + (1.0 - b2) * gk * gk;
                p[k] -= lr * (mo[k] / c1) / ((ve[k] / c2).sqrt() + eps);
            }
            set_params(m, &p);
        }
    }
}

// ----- TD refinement ---------------------------------------------------------------

/// One round of TD(0) on self-play with the tactical policy: every
/// position's target is the model's value of the position two plies later
/// (or the result), and the model takes one Adam pass over them.
fn td_round(m: &mut Model, cfg: &Config, seed: u64, games: u32, rng: &mut GameRng) -> f64 {
    let teams = cfg.teams() as usize;
    let mut d = Data {
        teams,
        ..Data::default()
    };
    let mut targets: Vec<f32> = Vec::new();
    for g in 0..games {
        let mut prng = playout_rng(seed ^ (g as u64).wrapping_mul(0xD1B5_4A32_D192_ED03));
        let (mut game, _) = Game::deal(cfg.clone(), &mut prng);
        let mut hist: Vec<[[f32; FEATURES]; 3]> = Vec::new();
        while !game.is_over() && hist.len() < 2000 {
            hist.push(features::all_features(&game).0);
            let mv = tactical_move(&game, &mut prng);
            if game
                .apply(game.turn(), mv, &mut RngReshuffler(&mut prng))
                .is_err()
            {
                break;
            }
        }
        let result: Vec<f32> = match game.status() {
            Status::Won(t) => (0..teams)
                .map(|u| if u == t.index() { 1.0 } else { 0.0 })
                .collect(),
            _ => vec![1.0 / teams as f32; teams],
        };
        for k in 0..hist.len() {
            if !prng.next_u32().is_multiple_of(4) {
                continue;
            }
            let target: Vec<f32> = if k + 2 < hist.len() {
                let r = m.chances(&hist[k + 2], teams);
                r[..teams].to_vec()
            } else {
                result.clone()
            };
            for ft in hist[k].iter().take(teams) {
                d.f.extend_from_slice(ft);
            }
            targets.extend_from_slice(&target);
            d.game.push(g);
        }
    }
    d.y = targets;
    let idx: Vec<usize> = (0..d.len()).collect();
    let before = log_loss_of(m, &d, &idx);
    let mut refined = m.clone();
    fit_from(&mut refined, &d, &idx, 1, rng, 3e-4);
    *m = refined;
    before
}

/// The gradient `g` of the mean log loss over the positions `chunk`.
fn batch_gradient(m: &Model, d: &Data, chunk: &[usize], g: &mut [f32]) {
    g.iter_mut().for_each(|x| *x = 0.0);
    for &i in chunk {
        let (z, n) = inputs_of(m, d, i);
        let s: Vec<f32> = (0..n).map(|t| m.score_z(&z[t])).collect();
        let pr = softmax(&s, n);
        for t in 0..n {
            let ds = (pr[t] - d.y[i * n + t]) / chunk.len() as f32;
            backprop(m, &z[t], ds, g);
        }
    }
}

/// One Adam pass from the current weights at a fixed learning rate.
fn fit_from(m: &mut Model, d: &Data, train: &[usize], epochs: usize, rng: &mut GameRng, lr: f32) {
    let mut p = params(m);
    let np = p.len();
    let (mut mo, mut ve) = (vec![0f32; np], vec![0f32; np]);
    let mut order = train.to_vec();
    let mut step = 0i32;
    let mut g = vec![0f32; np];
    for _ in 0..epochs {
        sequence_common::rng::shuffle(&mut order, rng);
        for chunk in order.chunks(256) {
            batch_gradient(m, d, chunk, &mut g);
            step += 1;
            let c1 = 1.0 - 0.9f32.powi(step);
            let c2 = 1.0 - 0.999f32.powi(step);
            for k in 0..np {
                mo[k] = 0.9 * mo[k] + 0.1 * g[k];
                ve[k] = 0.999 * ve[k] + 0.001 * g[k] * g[k];
                p[k] -= lr * (mo[k] / c1) / ((ve[k] / c2).sqrt() + 1e-8);
            }
            set_params(m, &p);
        }
    }
}

fn main() {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let start = Instant::now();
    let mut models = Vec::new();
    let mut report = serde_json::Map::new();
    for (ki, kind) in args.kinds.iter().enumerate() {
        let t0 = Instant::now();
        let cfg = config_of(kind);
        let seed =
            sequence_common::rng::game_rng(args.seed ^ ((ki as u64 + 1) * 0x51ED)).next_u64();
        let data = generate(&cfg, seed, args.games, args.sample, args.jobs);
        let gen_s = t0.elapsed().as_secs_f64();
        let held_from = args.games - args.games / 10;
        let (train, test): (Vec<usize>, Vec<usize>) =
            (0..data.len()).partition(|&i| data.game[i] < held_from);
        eprintln!(
            "{kind}: {} games played in {gen_s:.1} s, {} positions ({} held out)",
            args.games,
            data.len(),
            test.len()
        );
        let mut rng = game_rng(args.seed ^ 0xF17 ^ ki as u64);
        let n = data.teams;
        let uniform = log_loss_table(&data, &test, |_, _| 1.0 / n as f32);
        let old = log_loss_table(&data, &test, |i, t| data.old[i * n + t]);
        let mut linear = Model::zeros(kind, 0);
        standardize(&mut linear, &data, &train);
        fit(&mut linear, &data, &train, args.epochs.min(4), &mut rng);
        let lin_loss = log_loss_of(&linear, &data, &test);
        let mut net = Model::zeros(kind, args.hidden);
        standardize(&mut net, &data, &train);
        let t1 = Instant::now();
        fit(&mut net, &data, &train, args.epochs, &mut rng);
        let net_loss = log_loss_of(&net, &data, &test);
        let train_loss = log_loss_of(&net, &data, &train[..train.len().min(200_000)]);
        eprintln!(
            "{kind}: held-out log loss: even chances {uniform:.4}, older evaluation {old:.4}, linear {lin_loss:.4}, network ({} hidden) {net_loss:.4} (train {train_loss:.4}); fit {:.1} s",
            args.hidden,
            t1.elapsed().as_secs_f64()
        );
        let mut td_losses = Vec::new();
        for r in 0..args.td {
            let before = td_round(
                &mut net,
                &cfg,
                seed ^ ((r as u64 + 1) * 0xABCD),
                args.games / 4,
                &mut rng,
            );
            let after = log_loss_of(&net, &data, &test);
            eprintln!("{kind}: TD round {r}: TD loss before {before:.4}; held-out outcome log loss now {after:.4}");
            td_losses.push(after);
        }
        report.insert(
            kind.clone(),
            serde_json::json!({
                "games": args.games,
                "positions": data.len(),
                "held_out_positions": test.len(),
                "log_loss_even": uniform,
                "log_loss_older_evaluation": old,
                "log_loss_linear": lin_loss,
                "log_loss_network": net_loss,
                "log_loss_after_td": td_losses,
                "seconds": t0.elapsed().as_secs_f64(),
            }),
        );
        models.push(if args.hidden == 0 { linear } else { net });
    }
    let secs = start.elapsed().as_secs_f64();
    let weights = Weights {
        version: 1,
        features: NAMES.iter().map(|s| s.to_string()).collect(),
        trained: serde_json::json!({
            "command": format!(
                "cargo run --release -p sequence-lab --example train_value -- --seed {} --games {} --kinds {} --hidden {} --epochs {} --sample {} --td {}",
                args.seed, args.games, args.kinds.join(","), args.hidden, args.epochs, args.sample, args.td
            ),
            "seconds": secs,
            "kinds": report,
        }),
        models,
    };
    let text = match serde_json::to_string(&weights) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    };
    if let Err(e) = std::fs::write(&args.out, text + "\n") {
        eprintln!("error: {}: {e}", args.out);
        std::process::exit(1);
    }
    println!(
        "trained {} in {secs:.1} s on this machine ({} jobs); weights written to {}",
        args.kinds.join(", "),
        args.jobs,
        args.out
    );
}
