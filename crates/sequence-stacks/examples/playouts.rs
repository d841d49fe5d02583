//! Random complete games on one core: `cargo run --release -p
//! sequence-stacks --example playouts -- [players] [games]`. The command
//! `sequence bench --game stacks` is the reference measurement; this is
//! for profiling the engine alone.

use sequence_stacks::card::{Card, MAX_CARDS};
use sequence_stacks::{Config, Game, Options};
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let players: u8 = args.next().and_then(|s| s.parse().ok()).unwrap_or(4);
    let games: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(200_000);
    let mut rng = sequence_common::rng::playout_rng(1);
    let mut deck = [Card::B1; MAX_CARDS];
    let start = Instant::now();
    let mut decisions = 0u64;
    let Ok(config) = Config::new(players, Options::default()) else {
        eprintln!("players must be 2 to 6");
        return;
    };
    for _ in 0..games {
        let mut g = Game::deal_into(config, &mut rng, &mut deck);
        decisions += g.playout(&mut rng, 1_000_000) as u64;
    }
    let s = start.elapsed().as_secs_f64();
    println!(
        "{players} players: {games} games in {s:.2} s: {:.0} games/s, {:.0} decisions/s",
        games as f64 / s,
        decisions as f64 / s
    );
}
