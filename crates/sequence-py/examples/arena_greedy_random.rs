//! The native arena's figure that `examples/python/vs_greedy.py --agent
//! greedy --opponent random` is compared with: `greedy` against `random`,
//! classic, 2 players (as `sequence arena --bots greedy,random`).
//! `cargo run --release -p sequence-py --example arena_greedy_random [GAMES [SEED]]`.
use sequence_bots::arena::{self, ArenaConfig};
use sequence_common::GameKind;
use std::time::Duration;

fn main() {
    let games = std::env::args()
        .nth(1)
        .and_then(|g| g.parse().ok())
        .unwrap_or(200);
    let cfg = ArenaConfig {
        game: GameKind::Classic,
        bots: vec!["greedy".into(), "random".into()],
        games,
        seed: std::env::args()
            .nth(2)
            .and_then(|s| s.parse().ok())
            .unwrap_or(1),
        players: 2,
        teams: None,
        move_time: Duration::from_secs(10),
        jobs: 1,
        duplicate: false,
    };
    match arena::run(&cfg) {
        Ok(r) => {
            for b in &r.bots {
                let (lo, hi) = b.win_ci();
                println!(
                    "{}: won {} of {} ({:.1} %, 95 % interval {:.1}–{:.1} %), {} draws",
                    b.name,
                    b.wins,
                    b.games,
                    100.0 * b.win_rate(),
                    100.0 * lo,
                    100.0 * hi,
                    b.draws
                );
            }
        }
        Err(e) => eprintln!("arena: {e}"),
    }
}
