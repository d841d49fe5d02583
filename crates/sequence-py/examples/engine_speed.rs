//! Raw engine speed, for comparison with the Python figures.
use sequence_common::{rng, Rules};
use std::time::Instant;

fn run<G: Rules>(g0: &G, name: &str) {
    let mut r = rng::playout_rng(1);
    let t = Instant::now();
    let mut games = 0u64;
    let mut moves = 0u64;
    while t.elapsed().as_secs_f64() < 2.0 {
        let mut g = g0.fresh_deal(&mut r);
        moves += g.playout(&mut r, 100_000) as u64;
        games += 1;
    }
    let s = t.elapsed().as_secs_f64();
    println!(
        "{name}: {:.0} games/s, {:.0} moves/game, {:.0} moves/s",
        games as f64 / s,
        moves as f64 / games as f64,
        moves as f64 / s
    );
}

fn main() {
    let c = sequence_classic::Game::table(2, None, Default::default()).unwrap();
    let (g, _) = <sequence_classic::Game as Rules>::deal(&c, &mut rng::game_rng(1));
    run(&g, "classic 2p");
    let c = sequence_classic::Game::table(4, None, Default::default()).unwrap();
    let (g, _) = <sequence_classic::Game as Rules>::deal(&c, &mut rng::game_rng(1));
    run(&g, "classic 4p");
    let c = sequence_stacks::Game::table(2, None, Default::default()).unwrap();
    let (g, _) = <sequence_stacks::Game as Rules>::deal(&c, &mut rng::game_rng(1));
    run(&g, "stacks 2p");
}
