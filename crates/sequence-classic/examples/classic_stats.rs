//! Statistics of uniformly random games (to check that a faster engine
//! plays the same game): mean moves, wins per colour (C9), draws (C6a),
//! dead-card exchanges (C6) and reshuffles (C7) per game.
//!
//! `cargo run --release -p sequence-classic --example classic_stats -- [players] [games] [seed]`

use sequence_classic::{Config, Game, Move, Options, RngReshuffler, Status};

fn main() {
    let mut args = std::env::args().skip(1);
    let players: u8 = args.next().and_then(|s| s.parse().ok()).unwrap_or(2);
    let games: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let seed: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let config = Config::new(players, None, Options::default()).expect("a valid table (C3)");
    let teams = config.teams() as usize;
    let mut rng = sequence_common::rng::playout_rng(seed);
    let (mut moves, mut dead, mut reshuffles, mut draws) = (0u64, 0u64, 0u64, 0u64);
    let mut moves_sq = 0f64;
    let mut wins = [0u64; 3];
    for _ in 0..games {
        let (mut g, _) = Game::deal(config.clone(), &mut rng);
        let mut n = 0u64;
        while let Some(mv) = g.random_move(&mut rng) {
            let seat = g.turn();
            let played = g
                .apply(seat, mv, &mut RngReshuffler(&mut rng))
                .expect("a random move is legal and reshuffles");
            n += 1;
            dead += u64::from(matches!(mv, Move::Dead { .. }));
            reshuffles += u64::from(played.reshuffled);
        }
        moves += n;
        moves_sq += (n * n) as f64;
        match g.status() {
            Status::Won(t) => wins[t.index()] += 1,
            Status::Draw => draws += 1,
            Status::Playing => unreachable!("played to the end"),
        }
    }
    let n = games as f64;
    let mean = moves as f64 / n;
    let sd = (moves_sq / n - mean * mean).sqrt();
    println!("classic {players}p, {games} random games (seed {seed})");
    println!(
        "mean moves/game      {mean:.3} (sd {sd:.2}, s.e. {:.3})",
        sd / n.sqrt()
    );
    for (t, w) in wins.iter().enumerate().take(teams) {
        let p = *w as f64 / n;
        println!(
            "wins {:<6}          {p:.5} (s.e. {:.5})",
            ["blue", "green", "red"][t],
            (p * (1.0 - p) / n).sqrt()
        );
    }
    let p = draws as f64 / n;
    println!(
        "draws                {p:.5} (s.e. {:.5})",
        (p * (1.0 - p) / n).sqrt()
    );
    println!("dead exchanges/game  {:.4}", dead as f64 / n);
    println!("reshuffles/game      {:.4}", reshuffles as f64 / n);
}
