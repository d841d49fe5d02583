//! Statistics of uniformly random games (to check that a faster engine
//! plays the same game): mean decisions, wins per seat counted from the
//! first player (S2, S7), draws (S6a) and reshuffles (S6) per game.
//!
//! `cargo run --release -p sequence-stacks --example stacks_stats -- [players] [games] [seed]`

use sequence_stacks::{Config, Game, Options, Status};

fn main() {
    let mut args = std::env::args().skip(1);
    let players: u8 = args.next().and_then(|s| s.parse().ok()).unwrap_or(4);
    let games: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let seed: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let config = Config::new(players, Options::default()).expect("2 to 6 players (S1)");
    let mut rng = sequence_common::rng::playout_rng(seed);
    let (mut moves, mut reshuffles, mut draws) = (0u64, 0u64, 0u64);
    let mut moves_sq = 0f64;
    let mut wins = [0u64; 6];
    for _ in 0..games {
        let (mut g, _) = Game::deal(config, &mut rng);
        let first = g.turn().0;
        let n = g.playout(&mut rng, u32::MAX) as u64;
        moves += n;
        moves_sq += (n * n) as f64;
        reshuffles += u64::from(g.reshuffle_count());
        match g.status() {
            Status::Won(s) => wins[((s.0 + players - first) % players) as usize] += 1,
            Status::Draw => draws += 1,
            Status::Playing => unreachable!("played to the end"),
        }
    }
    let n = games as f64;
    let mean = moves as f64 / n;
    let sd = (moves_sq / n - mean * mean).sqrt();
    println!("stacks {players}p, {games} random games (seed {seed})");
    println!(
        "mean decisions/game  {mean:.3} (sd {sd:.2}, s.e. {:.3})",
        sd / n.sqrt()
    );
    for (k, w) in wins.iter().enumerate().take(players as usize) {
        let p = *w as f64 / n;
        println!(
            "wins of player {}     {p:.5} (s.e. {:.5})",
            k + 1,
            (p * (1.0 - p) / n).sqrt()
        );
    }
    let p = draws as f64 / n;
    println!(
        "draws                {p:.5} (s.e. {:.5})",
        (p * (1.0 - p) / n).sqrt()
    );
    println!("reshuffles/game      {:.4}", reshuffles as f64 / n);
}
