//! Cost of one evaluation: the learned value (`classic::value::evaluate`)
//! against the older evaluation (`classic::eval::evaluate`), on positions
//! of tactical self-play, and the search's iterations per CPU second with
//! each (`vmcts` with and without `old`).
//!
//! `cargo run --release -p sequence-lab --example value_speed [PLAYERS]`

use sequence_bots::classic::{eval, playout::tactical_move, value};
use sequence_bots::Budget;
use sequence_classic::{Config, Game, Options, RngReshuffler};
use sequence_common::rng::playout_rng;
use sequence_lab::vsearch;
use std::hint::black_box;
use std::time::Instant;

fn main() -> anyhow::Result<()> {
    let players: u8 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(2);
    let cfg = Config::new(players, None, Options::default())?;
    let mut rng = playout_rng(7);
    let mut positions = Vec::new();
    while positions.len() < 20_000 {
        let (mut g, _) = Game::deal(cfg.clone(), &mut rng);
        while !g.is_over() {
            positions.push(g.clone());
            let mv = tactical_move(&g, &mut rng);
            if g.apply(g.turn(), mv, &mut RngReshuffler(&mut rng)).is_err() {
                break;
            }
        }
    }
    for (name, f) in [
        (
            "learned value",
            value::evaluate as fn(&Game) -> sequence_bots::ismcts::Rewards,
        ),
        (
            "older evaluation",
            eval::evaluate as fn(&Game) -> sequence_bots::ismcts::Rewards,
        ),
    ] {
        let t = Instant::now();
        let mut s = 0.0f32;
        for _ in 0..5 {
            for g in &positions {
                s += black_box(f(g))[0];
            }
        }
        let ns = t.elapsed().as_nanos() as f64 / (5 * positions.len()) as f64;
        println!("{name:<18} {ns:>7.0} ns per evaluation (checksum {s:.1})");
    }
    pieces(&positions);
    // Search speed from a midgame position of the first game.
    let mid = &positions[30];
    let view = mid.view(mid.turn());
    for spec in ["vmcts:1t", "vmcts:1t:old"] {
        let (_, _, opts) = vsearch::parse(spec).map_err(anyhow::Error::msg)?;
        let opts = std::sync::Arc::new(opts);
        let t = Instant::now();
        let r = vsearch::search(
            &view,
            &opts,
            Budget::Iterations(20_000),
            Some(1),
            1,
            &Default::default(),
        );
        let s = t.elapsed().as_secs_f64();
        println!(
            "{spec:<18} {:>7.0} iterations per second",
            r.iterations as f64 / s
        );
    }
    Ok(())
}

#[allow(dead_code)]
fn pieces(positions: &[Game]) {
    use sequence_bots::classic::features;
    let t = Instant::now();
    let mut s = 0.0f32;
    for g in positions {
        s += black_box(features::all_features(g)).0[0][0];
    }
    println!(
        "features {:.0} ns ({s})",
        t.elapsed().as_nanos() as f64 / positions.len() as f64
    );
    let t = Instant::now();
    for g in positions {
        s += black_box(sequence_bots::classic::playout::Threats::of(g)).windows[0][0] as f32;
    }
    println!(
        "threats {:.0} ns ({s})",
        t.elapsed().as_nanos() as f64 / positions.len() as f64
    );
}
