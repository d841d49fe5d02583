//! Fixed positions for benchmarks and the `sequence arena --bench`-style
//! throughput measurement ([`iterations_per_second`]).

use crate::Budget;
use sequence_classic::{Config, Game, Options, RngReshuffler};
use sequence_common::rng::game_rng;
use std::time::Duration;

/// A 2-player classic midgame: a game dealt from `seed` after 30 random
/// moves (about a third of the board covered), seen by the seat to move.
pub fn classic_midgame(seed: u64) -> sequence_classic::SeatView {
    let config = Config::new(2, None, Options::default())
        .unwrap_or_else(|_| unreachable!("2 players is a legal table"));
    let mut rng = game_rng(seed);
    let (mut game, _) = Game::deal(config, &mut rng);
    let mut plies = 0;
    while plies < 30 && !game.is_over() {
        let mv = game.random_move(&mut rng);
        if game.apply(mv, &mut RngReshuffler(&mut rng)).is_err() {
            break;
        }
        plies += 1;
    }
    game.view(game.turn())
}

/// A 2-player Sequence Stacks midgame: dealt from `seed`, 40 random
/// decisions in, seen by the seat that must decide.
pub fn stacks_midgame(seed: u64) -> sequence_stacks::SeatView {
    let mut rng = game_rng(seed);
    let (mut game, _) =
        sequence_stacks::Game::random(2, sequence_stacks::Options::default(), &mut rng)
            .unwrap_or_else(|_| unreachable!("2 players is a legal table"));
    game.playout(&mut rng, 40);
    let seat = game.to_act().unwrap_or(game.turn());
    game.view(seat)
}

/// ISMCTS iterations per second on one core (one tree) from the classic
/// 2-player midgame, measured for about `seconds`.
pub fn iterations_per_second(seconds: f64) -> (f64, f64) {
    let view = classic_midgame(7);
    let r = crate::classic::analyse(
        &view,
        Budget::Time(Duration::from_secs_f64(seconds)),
        Some(1),
        1,
    );
    let classic = r.iterations as f64 / r.elapsed.as_secs_f64();
    let sview = stacks_midgame(7);
    let s = crate::stacks::analyse(
        &sview,
        Budget::Time(Duration::from_secs_f64(seconds)),
        Some(1),
        1,
    );
    let stacks = s.map_or(0.0, |s| s.iterations as f64 / s.elapsed.as_secs_f64());
    (classic, stacks)
}
