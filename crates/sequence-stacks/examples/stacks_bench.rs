//! Random full-rules games per CPU second on one core and the time to list
//! the legal decisions of a midgame position, as `sequence bench --game
//! stacks` measures them (a game per `Rules::fresh_deal` and
//! `Rules::playout`; the median of 200 batches of 1,000 `legal_moves` calls
//! into a reused `Vec`).
//!
//! `cargo run --release -p sequence-stacks --example stacks_bench -- [players] [seconds] [games]`
//!
//! With `games`, exactly that many games and nothing else (a fixed amount
//! of work, for instruction counts under valgrind).

use sequence_common::{Outcome, Rules};
use sequence_stacks::{Config, Decision, Game, Options};
use std::time::Instant;

/// CPU time of this thread in seconds (Linux `/proc/thread-self/schedstat`).
fn thread_cpu() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = s.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 / 1e9)
}

fn median_ns_per_call(mut f: impl FnMut()) -> f64 {
    let mut samples: Vec<f64> = (0..200)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..1000 {
                f();
            }
            t.elapsed().as_nanos() as f64 / 1000.0
        })
        .collect();
    samples.sort_by(|x, y| x.total_cmp(y));
    samples[samples.len() / 2]
}

fn main() {
    let mut args = std::env::args().skip(1);
    let players: u8 = args.next().and_then(|s| s.parse().ok()).unwrap_or(4);
    let seconds: f64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(2.0);
    let fixed: Option<u64> = args.next().and_then(|s| s.parse().ok());
    let config = Config::new(players, Options::default()).expect("2 to 6 players (S1)");
    let mut rng = sequence_common::rng::playout_rng(1);
    let (proto, _) = Game::deal(config, &mut rng);
    if let Some(n) = fixed {
        let mut moves = 0u64;
        for _ in 0..n {
            let mut g = Rules::fresh_deal(&proto, &mut rng);
            moves += Rules::playout(&mut g, &mut rng, 1_000_000) as u64;
        }
        println!("stacks {players}p: {n} games, {moves} decisions");
        return;
    }
    let start = Instant::now();
    let cpu0 = thread_cpu();
    let (mut games, mut moves, mut finished) = (0u64, 0u64, 0u64);
    while start.elapsed().as_secs_f64() < seconds {
        for _ in 0..256 {
            let mut g = Rules::fresh_deal(&proto, &mut rng);
            moves += Rules::playout(&mut g, &mut rng, 1_000_000) as u64;
            games += 1;
            finished += u64::from(Rules::outcome(&g) != Outcome::Playing);
        }
    }
    let wall = start.elapsed().as_secs_f64();
    let cpu = cpu0.zip(thread_cpu()).map(|(a, b)| b - a);
    // The midgame of `sequence bench`: seed 42 (ChaCha8), 40 random decisions.
    let mut r = sequence_common::rng::game_rng(42);
    let (mut pos, _) = <Game as Rules>::deal(&config, &mut r);
    Rules::playout(&mut pos, &mut r, 40);
    let mut list: Vec<Decision> = Vec::with_capacity(64);
    let legal_ns = median_ns_per_call(|| {
        Rules::legal_moves(&pos, &mut list);
        std::hint::black_box(&list);
    });
    println!(
        "stacks {players}p: {games} games ({finished} finished), {:.0} games/s wall, {} games per CPU second, {:.1} decisions/game, legal_moves {legal_ns:.1} ns ({} decisions)",
        games as f64 / wall,
        cpu.map_or("n/a".into(), |c| format!("{:.0}", games as f64 / c)),
        moves as f64 / games.max(1) as f64,
        list.len()
    );
}
