//! How much room the evaluation has: for positions of tactical self-play
//! (as the seat to move sees them), the chance to win estimated by many
//! tactical playouts from determinizations of the seat's view, against
//! the learned value and the older evaluation averaged over the same
//! determinizations. Prints the mean binary entropy of the playout
//! estimate (the log loss a perfect evaluation of the view would reach
//! under tactical play) and each evaluation's cross-entropy against it.
//!
//! `cargo run --release -p sequence-lab --example value_ceiling [POSITIONS] [PLAYOUTS] [PLAYERS]`

use rand::Rng;
use sequence_bots::classic::{eval, outcome, playout::tactical_move, value};
use sequence_bots::ismcts::Rewards;
use sequence_classic::{Config, Game, Options, RngReshuffler};
use sequence_common::rng::playout_rng;

/// An evaluation of a full position: each team's chance to win.
type Evaluation = fn(&Game) -> Rewards;

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let positions: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(1000);
    let playouts: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(64);
    let players: u8 = args.next().and_then(|s| s.parse().ok()).unwrap_or(2);
    let cfg = Config::new(players, None, Options::default())?;
    let mut rng = playout_rng(11);
    let evals: [(&str, Evaluation); 2] = [
        ("learned value", value::evaluate),
        ("older evaluation", eval::evaluate),
    ];
    let mut entropy = 0.0;
    let mut ce = [0.0f64; 2];
    let mut ce_outcome = [0.0f64; 2];
    let mut n = 0;
    while n < positions {
        let (mut game, _) = Game::deal(cfg.clone(), &mut rng);
        let stop = rng.random_range(4..70);
        for _ in 0..stop {
            if game.is_over() {
                break;
            }
            let mv = tactical_move(&game, &mut rng);
            if game
                .apply(game.turn(), mv, &mut RngReshuffler(&mut rng))
                .is_err()
            {
                break;
            }
        }
        if game.is_over() {
            continue;
        }
        let view = game.view(game.turn());
        let me = view.team().map_or(0, |t| t.index());
        let mut wins = 0.0;
        let mut q = [0.0f64; 2];
        for _ in 0..playouts {
            let det = view.determinize(&mut rng);
            for (k, (_, f)) in evals.iter().enumerate() {
                q[k] += f(&det)[me] as f64 / playouts as f64;
            }
            let mut g = det;
            while !g.is_over() {
                let mv = tactical_move(&g, &mut rng);
                if g.apply(g.turn(), mv, &mut RngReshuffler(&mut rng)).is_err() {
                    break;
                }
            }
            wins += outcome(&g)[me] as f64;
        }
        let p = (wins / playouts as f64).clamp(1e-3, 1.0 - 1e-3);
        entropy -= p * p.ln() + (1.0 - p) * (1.0 - p).ln();
        // The real continuation of this game, for the plain outcome loss.
        let mut g = game.clone();
        while !g.is_over() {
            let mv = tactical_move(&g, &mut rng);
            if g.apply(g.turn(), mv, &mut RngReshuffler(&mut rng)).is_err() {
                break;
            }
        }
        let y = outcome(&g)[me] as f64;
        for k in 0..2 {
            let qk = q[k].clamp(1e-3, 1.0 - 1e-3);
            ce[k] -= p * qk.ln() + (1.0 - p) * (1.0 - qk).ln();
            ce_outcome[k] -= y * qk.ln() + (1.0 - y) * (1.0 - qk).ln();
        }
        n += 1;
    }
    let n = n as f64;
    println!(
        "{positions} positions, {playouts} playouts each, {players} players: entropy of the playout estimate {:.4} (a perfect evaluation of the view)",
        entropy / n
    );
    for (k, (name, _)) in evals.iter().enumerate() {
        println!(
            "{name:<18} cross-entropy against the playout estimate {:.4} (gap {:.4}); log loss against one continuation {:.4}",
            ce[k] / n,
            (ce[k] - entropy) / n,
            ce_outcome[k] / n
        );
    }
    Ok(())
}
