//! Trains the learned policy of classic Sequence by expert iteration and
//! writes its weights file, with a table and a chart of strength per round.
//!
//! ```sh
//! nice -n 10 cargo run --release -p sequence-lab --example expert_iteration -- \
//!     --seed 1 --rounds 3 --games 120 --budget 800 --deals 60 --threads 1
//! ```
//!
//! Round `r` (1…`--rounds`): the round `r − 1` bot (round 0: the default
//! flat search, as `level:5` but at `--budget` iterations) plays
//! `--games` self-play games; every searched decision becomes a target
//! ([`sequence_lab::expert`]); the policy is fitted, on the decisions of
//! every round so far, from round `r − 1`'s
//! weights (round 0: the hand-set start of
//! `crates/sequence-bots/data/policy.json` as found in the file given by
//! `--start`); the round `r` bot is the flat search guided by it
//! (candidates and playouts). Each round's bot then plays `--deals`
//! duplicate deals (each twice, seats swapped) against the round before
//! and against `greedy`, at `--budget` iterations per move.
//!
//! Writes into `--out` (default `target/expert`): `rounds.csv`,
//! `rounds.md` (the same as a table) and `rounds.svg` (score per round
//! against the previous round and against greedy, with 95 % intervals),
//! and `policy-rN.json` per round; the last round's weights also to
//! `--weights` (default: not written; give
//! `crates/sequence-bots/data/policy.json` to ship them). Options:
//! `--seed S`, `--rounds R`, `--games G` (self-play games per round),
//! `--budget N` (iterations per searched decision, self-play and
//! evaluation), `--deals D` (duplicate deals per measurement, 0: none),
//! `--threads T`, `--others K` (non-candidate moves kept per decision),
//! `--steps N` and `--lr X` (the fit), `--start FILE` and
//! `--start-scale X` (round 1 fits from the start weights times `X`).

use indicatif::{ProgressBar, ProgressStyle};
use sequence_bots::classic::flat::FlatOptions;
use sequence_bots::classic::policy::{Policy, PolicyModel};
use sequence_bots::classic::FlatBot;
use sequence_bots::config::ClassicSearch;
use sequence_bots::{Bot, Budget, ShellBot};
use sequence_classic::{Config, Game, Options};
use sequence_lab::deals::{self, DuplicateConfig, Estimate};
use sequence_lab::expert::{fit, self_play, SelfPlay};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

struct Args {
    seed: u64,
    rounds: usize,
    games: usize,
    budget: u64,
    deals: u32,
    threads: usize,
    others: usize,
    steps: usize,
    lr: f64,
    out: PathBuf,
    weights: Option<PathBuf>,
    start: PathBuf,
    scale: f32,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        seed: 1,
        rounds: 3,
        games: 120,
        budget: 800,
        deals: 60,
        threads: 1,
        others: 8,
        steps: 300,
        lr: 0.03,
        out: PathBuf::from("target/expert"),
        weights: None,
        start: PathBuf::from("crates/sequence-bots/data/policy.json"),
        scale: 1.0,
    };
    let mut it = std::env::args().skip(1);
    while let Some(k) = it.next() {
        let mut v = || it.next().ok_or(format!("{k} needs a value"));
        let num = |s: String| {
            s.parse::<f64>()
                .map_err(|_| format!("{k}: not a number: {s}"))
        };
        match k.as_str() {
            "--seed" => a.seed = num(v()?)? as u64,
            "--rounds" => a.rounds = num(v()?)? as usize,
            "--games" => a.games = num(v()?)? as usize,
            "--budget" => a.budget = num(v()?)? as u64,
            "--deals" => a.deals = num(v()?)? as u32,
            "--threads" => a.threads = num(v()?)? as usize,
            "--others" => a.others = num(v()?)? as usize,
            "--steps" => a.steps = num(v()?)? as usize,
            "--lr" => a.lr = num(v()?)?,
            "--out" => a.out = PathBuf::from(v()?),
            "--weights" => a.weights = Some(PathBuf::from(v()?)),
            "--start" => a.start = PathBuf::from(v()?),
            "--start-scale" => a.scale = num(v()?)? as f32,
            _ => return Err(format!("unknown option {k}")),
        }
    }
    if a.budget == 0 || a.games == 0 || a.threads == 0 {
        return Err("--budget, --games and --threads must be at least 1".into());
    }
    Ok(a)
}

/// The flat search at `budget` guided by `policy` (`None`: the default).
fn searcher(
    name: &str,
    budget: u64,
    policy: Option<Arc<Policy>>,
) -> impl Fn(u64) -> Box<dyn Bot<Game>> + Sync {
    let name = name.to_string();
    move |seed| {
        let opts = FlatOptions {
            policy: policy.clone(),
            ..FlatOptions::from(&ClassicSearch::default())
        };
        let bot = FlatBot::new(Budget::Iterations(budget), opts);
        Box::new(ShellBot::new(name.clone(), seed, bot))
    }
}

fn greedy(seed: u64) -> Box<dyn Bot<Game>> {
    sequence_bots::bot::<Game>("greedy", seed).expect("greedy is a bot")
}

/// One row of the table.
struct Row {
    round: usize,
    samples: usize,
    train: f64,
    held: f64,
    held_before: f64,
    top1: f64,
    vs_prev: Option<Estimate>,
    vs_greedy: Option<Estimate>,
    seconds: f64,
}

fn pct(e: Option<Estimate>) -> (String, String, String) {
    match e {
        Some(e) => {
            let (lo, hi) = e.ci();
            (
                format!("{:.1}", 100.0 * e.mean),
                format!("{:.1}", 100.0 * lo),
                format!("{:.1}", 100.0 * hi),
            )
        }
        None => (String::new(), String::new(), String::new()),
    }
}

fn write_outputs(a: &Args, rows: &[Row]) -> std::io::Result<()> {
    let mut csv = String::from(
        "round,decisions,train_loss,holdout_loss,holdout_loss_before,holdout_top1,\
         vs_previous,vs_previous_lo,vs_previous_hi,vs_greedy,vs_greedy_lo,vs_greedy_hi,seconds\n",
    );
    let mut md = format!(
        "Expert iteration: seed {}, {} self-play games per round, {} iterations per move, \
         {} duplicate deals per measurement, {} threads.\n\n\
         | round | decisions | held-out loss (before → after) | top-1 | vs previous round | vs greedy | seconds |\n\
         |---|---|---|---|---|---|---|\n",
        a.seed, a.games, a.budget, a.deals, a.threads
    );
    for r in rows {
        let (p, pl, ph) = pct(r.vs_prev);
        let (g, gl, gh) = pct(r.vs_greedy);
        let _ = writeln!(
            csv,
            "{},{},{:.4},{:.4},{:.4},{:.3},{p},{pl},{ph},{g},{gl},{gh},{:.0}",
            r.round, r.samples, r.train, r.held, r.held_before, r.top1, r.seconds
        );
        let cell = |m: &str, l: &str, h: &str| {
            if m.is_empty() {
                "—".to_string()
            } else {
                format!("{m} % ({l}–{h})")
            }
        };
        let _ = writeln!(
            md,
            "| {} | {} | {:.3} → {:.3} | {:.1} % | {} | {} | {:.0} |",
            r.round,
            r.samples,
            r.held_before,
            r.held,
            100.0 * r.top1,
            cell(&p, &pl, &ph),
            cell(&g, &gl, &gh),
            r.seconds
        );
    }
    std::fs::create_dir_all(&a.out)?;
    std::fs::write(a.out.join("rounds.csv"), csv)?;
    std::fs::write(a.out.join("rounds.md"), md)?;
    std::fs::write(a.out.join("rounds.svg"), chart(rows))
}

/// Score per round against the previous round and against greedy, with
/// 95 % intervals, as an SVG line chart (40–80 %).
fn chart(rows: &[Row]) -> String {
    let (w, h, left, top, bottom) = (640.0, 360.0, 60.0, 30.0, 50.0);
    let n = rows.iter().map(|r| r.round).max().unwrap_or(1).max(1) as f64;
    let x = |r: usize| left + (w - left - 30.0) * (r as f64 - 1.0).max(0.0) / (n - 1.0).max(1.0);
    let y = |p: f64| top + (h - top - bottom) * (0.8 - p.clamp(0.4, 0.8)) / 0.4;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{left}\" y=\"18\">Learned policy: score per round (duplicate deals, 95 % intervals)</text>\n"
    );
    for p in [0.4, 0.5, 0.6, 0.7, 0.8] {
        let _ = writeln!(
            s,
            "<line x1=\"{left}\" x2=\"{x2}\" y1=\"{yy}\" y2=\"{yy}\" stroke=\"#ddd\"/><text x=\"20\" y=\"{ty}\">{pc:.0} %</text>",
            x2 = w - 30.0,
            yy = y(p),
            ty = y(p) + 4.0,
            pc = 100.0 * p
        );
    }
    for r in rows.iter().filter(|r| r.round >= 1) {
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\">round {}</text>",
            x(r.round) - 18.0,
            h - 20.0,
            r.round
        );
    }
    for (colour, label, pick) in [
        ("#1f77b4", "vs previous round", 0usize),
        ("#d62728", "vs greedy", 1usize),
    ] {
        let pts: Vec<(usize, Estimate)> = rows
            .iter()
            .filter(|r| r.round >= 1)
            .filter_map(|r| if pick == 0 { r.vs_prev } else { r.vs_greedy }.map(|e| (r.round, e)))
            .collect();
        let line: Vec<String> = pts
            .iter()
            .map(|(r, e)| format!("{:.1},{:.1}", x(*r), y(e.mean)))
            .collect();
        let _ = writeln!(
            s,
            "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\" points=\"{}\"/>",
            line.join(" ")
        );
        for (r, e) in &pts {
            let (lo, hi) = e.ci();
            let _ = writeln!(
                s,
                "<line x1=\"{0:.1}\" x2=\"{0:.1}\" y1=\"{1:.1}\" y2=\"{2:.1}\" stroke=\"{colour}\"/><circle cx=\"{0:.1}\" cy=\"{3:.1}\" r=\"3\" fill=\"{colour}\"/>",
                x(*r),
                y(lo),
                y(hi),
                y(e.mean)
            );
        }
        let ly = 40.0 + 16.0 * pick as f64;
        let _ = writeln!(
            s,
            "<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"3\" fill=\"{colour}\"/><text x=\"{}\" y=\"{}\">{label}</text>",
            w - 170.0,
            ly - 4.0,
            w - 152.0,
            ly
        );
    }
    s.push_str("</svg>\n");
    s
}

/// The weights of the first round: the classic two-player model of
/// `--start`, times `--scale` (none when the file has no such model).
/// Exits 1 when the file cannot be read.
fn starting_weights(a: &Args) -> Vec<f32> {
    let start = std::fs::read_to_string(&a.start)
        .map_err(|e| e.to_string())
        .and_then(|t| Policy::from_json(&t));
    let start = match start {
        Ok(p) => p,
        Err(e) => {
            eprintln!("expert_iteration: {}: {e}", a.start.display());
            std::process::exit(1);
        }
    };
    start
        .model_for(2, 2)
        .map(|w| w.iter().map(|x| x * a.scale).collect())
        .unwrap_or_default()
}

/// Round `round`'s policy `new` on duplicate deals against the round
/// before's (`policy`; `vs_prev` deals) and against greedy (`vs_greedy`
/// deals), both searching `--budget` iterations: the two estimates, each
/// printed.
fn judge(
    a: &Args,
    round: usize,
    new: &Arc<Policy>,
    policy: &Option<Arc<Policy>>,
    vs_prev: &DuplicateConfig,
    vs_greedy: &DuplicateConfig,
) -> (Estimate, Estimate) {
    let hero = searcher("learned", a.budget, Some(new.clone()));
    let prev = searcher("previous", a.budget, policy.clone());
    let r = deals::run(vs_prev, &hero, &prev);
    eprintln!(
        "{}",
        r.summary(&format!("round {round}"), "the round before")
    );
    let against_prev = r.duplicate();
    let r = deals::run(vs_greedy, &hero, &greedy);
    eprintln!("{}", r.summary(&format!("round {round}"), "greedy"));
    (against_prev, r.duplicate())
}

/// Writes the last round's policy to `--weights` `path`, its `trained`
/// note saying how long all rounds took.
fn save_weights(path: &std::path::Path, policy: &Policy, started: Instant) {
    let mut p = policy.clone();
    p.trained = format!(
        "{}; all rounds {:.0} s wall on this machine",
        p.trained,
        started.elapsed().as_secs_f64()
    );
    std::fs::write(path, serde_json::to_string_pretty(&p).expect("json") + "\n")
        .expect("write weights");
}

fn main() {
    let a = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("expert_iteration: {e}");
            std::process::exit(2);
        }
    };
    let started = Instant::now();
    let config = Config::new(2, None, Options::default()).expect("2 players");
    let mut weights = starting_weights(&a);
    let mut policy: Option<Arc<Policy>> = None;
    let mut rows = Vec::new();
    let mut all = Vec::new();
    let deals_cfg = |seed: u64| DuplicateConfig {
        config: config.clone(),
        deals: a.deals,
        seed,
        jobs: a.threads,
        progress: false,
    };
    for round in 1..=a.rounds {
        let t0 = Instant::now();
        let bar = ProgressBar::new(a.games as u64);
        bar.set_style(
            ProgressStyle::with_template(&format!(
                "round {round}/{}: self-play {{bar:30}} {{pos}}/{{len}} games, {{elapsed}} (eta {{eta}})",
                a.rounds
            ))
            .expect("template"),
        );
        let sp = SelfPlay {
            config: config.clone(),
            budget: a.budget,
            policy: policy.clone(),
            others: a.others,
        };
        let samples = self_play(
            &sp,
            a.games,
            a.seed ^ (round as u64) << 32,
            a.threads,
            &|| bar.inc(1),
        );
        bar.finish_and_clear();
        // Every round's decisions so far (the newest last, so the held-out
        // tenth is of this round's games).
        all.extend(samples);
        let samples = &all;
        let f = fit(samples, &weights, a.steps, a.lr);
        eprintln!(
            "round {round}: {} decisions, held-out loss {:.3} -> {:.3}, top-1 {:.1} % ({:.0} s)",
            samples.len(),
            f.holdout_loss_before,
            f.holdout_loss,
            100.0 * f.holdout_top1,
            t0.elapsed().as_secs_f64()
        );
        weights = f.weights.clone();
        let trained = format!(
            "expert iteration round {round} of `cargo run --release -p sequence-lab --example expert_iteration -- \
             --seed {} --rounds {} --games {} --budget {} --deals {} --threads {} --others {} --steps {} --lr {}`; \
             {} decisions in all",
            a.seed, a.rounds, a.games, a.budget, a.deals, a.threads, a.others, a.steps, a.lr, samples.len()
        );
        let new = Arc::new(Policy::new(
            &trained,
            vec![PolicyModel {
                kind: "2p".into(),
                weights: weights.clone(),
            }],
        ));
        let mut row = Row {
            round,
            samples: samples.len(),
            train: f.train_loss,
            held: f.holdout_loss,
            held_before: f.holdout_loss_before,
            top1: f.holdout_top1,
            vs_prev: None,
            vs_greedy: None,
            seconds: 0.0,
        };
        if a.deals > 0 {
            let seed = a.seed ^ 0xE7A1 ^ (round as u64) << 40;
            let (vs_prev, vs_greedy) = judge(
                &a,
                round,
                &new,
                &policy,
                &deals_cfg(seed),
                &deals_cfg(seed ^ 0x6EED),
            );
            row.vs_prev = Some(vs_prev);
            row.vs_greedy = Some(vs_greedy);
        }
        row.seconds = t0.elapsed().as_secs_f64();
        rows.push(row);
        std::fs::create_dir_all(&a.out).expect("output folder");
        let json = serde_json::to_string_pretty(&*new).expect("json");
        std::fs::write(a.out.join(format!("policy-r{round}.json")), &json).expect("write");
        if let Err(e) = write_outputs(&a, &rows) {
            eprintln!("expert_iteration: {}: {e}", a.out.display());
        }
        policy = Some(new);
    }
    if let (Some(path), Some(p)) = (&a.weights, &policy) {
        save_weights(path, p, started);
    }
    eprintln!(
        "expert_iteration: {} rounds in {:.0} s; {}",
        a.rounds,
        started.elapsed().as_secs_f64(),
        a.out.join("rounds.md").display()
    );
}
