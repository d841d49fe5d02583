//! ISMCTS throughput: iterations per second on one core (one tree) from a
//! fixed 2-player midgame, classic (playouts to the end, and cut off after
//! 10 tactical moves and scored) and Stacks. Per wall-clock second and per
//! CPU second of the searching thread (the latter does not depend on other
//! load on the machine).
//!
//! `cargo run --release -p sequence-bots --example ismcts_speed [SECONDS]`

use sequence_bots::bench::{classic_throughput, stacks_throughput, Throughput};

fn show(name: &str, t: Throughput) {
    let cpu = t
        .per_cpu_second()
        .map_or("n/a".to_string(), |x| format!("{x:.0}"));
    println!(
        "{name:<44} {:>9} iterations  {:>9.0} it/s wall  {:>9} it/s per CPU second",
        t.iterations,
        t.per_wall_second(),
        cpu
    );
}

fn main() {
    let secs: f64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(3.0);
    show(
        "classic 2p midgame, playouts to the end",
        classic_throughput(secs, 0),
    );
    show(
        "classic 2p midgame, playouts cut at 10",
        classic_throughput(secs, 10),
    );
    show(
        &format!(
            "classic 2p midgame, default (cut at {})",
            sequence_bots::classic::DEFAULT_CUTOFF
        ),
        classic_throughput(secs, sequence_bots::classic::DEFAULT_CUTOFF),
    );
    show(
        "stacks 2p midgame, default (root Monte Carlo)",
        stacks_throughput(secs, false),
    );
    show(
        "stacks 2p midgame, ISMCTS tree",
        stacks_throughput(secs, true),
    );
}
