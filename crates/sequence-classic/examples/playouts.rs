//! Plays N random 2-player games from a fixed seed (for instruction-count
//! profiling: `valgrind --tool=cachegrind target/release/examples/playouts 20000`).

use sequence_classic::{Card, Config, Game, Options, Seat};

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000);
    let config = Config::new(2, None, Options::default()).expect("2 players is a valid table");
    let mut rng = sequence_common::rng::playout_rng(1);
    let (proto, _) = Game::deal(config, &mut rng);
    let mut deck = Card::double_deck();
    let mut moves = 0u64;
    for i in 0..n {
        sequence_common::rng::shuffle_fast(&mut deck, &mut rng);
        let mut g = proto
            .redeal(Seat((i % 2) as u8), &deck)
            .expect("a shuffled double deck");
        moves += g.playout(&mut rng, u32::MAX) as u64;
    }
    println!("{n} games, {moves} moves");
}
