//! ISMCTS throughput: iterations per second on one core (one tree) from a
//! fixed 2-player midgame, classic (playouts to the end, and cut off after
//! 10 tactical moves and scored) and Stacks. Per wall-clock second and per
//! CPU second of the searching thread (the latter does not depend on other
//! load on the machine).
//!
//! `cargo run --release -p sequence-lab --example ismcts_speed [SECONDS] [WHICH]`
//!
//! `WHICH`: `all` (the default), `classic` (the three classic figures),
//! `default` (the classic tree and the classic default flat search), `stacks`, or
//! `iterations:N` (exactly N iterations of the classic default search, for
//! instruction counts).

use sequence_bots::bench::{
    classic_flat_throughput, classic_flat_throughput_with, classic_iterations, classic_throughput,
    stacks_throughput, Throughput,
};

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
    let which = std::env::args().nth(2).unwrap_or_else(|| "all".into());
    let default = sequence_bots::classic::DEFAULT_CUTOFF;
    if let Some(n) = which
        .strip_prefix("iterations:")
        .and_then(|n| n.parse().ok())
    {
        show(
            &format!("classic 2p midgame, tree (cut at {default})"),
            classic_iterations(n, default),
        );
        return;
    }
    let classic = matches!(which.as_str(), "all" | "classic");
    if classic {
        show(
            "classic 2p midgame, playouts to the end",
            classic_throughput(secs, 0),
        );
        show(
            "classic 2p midgame, playouts cut at 10",
            classic_throughput(secs, 10),
        );
    }
    if classic || which == "default" {
        show(
            &format!("classic 2p midgame, tree (cut at {default})"),
            classic_throughput(secs, default),
        );
        show(
            "classic 2p midgame, default (flat, learned value)",
            classic_flat_throughput(secs),
        );
        show(
            "classic 2p midgame, flat guided by the learned policy",
            classic_flat_throughput_with(secs, true),
        );
    }
    if matches!(which.as_str(), "all" | "stacks") {
        show(
            "stacks 2p midgame, default (root Monte Carlo)",
            stacks_throughput(secs, false),
        );
        show(
            "stacks 2p midgame, ISMCTS tree",
            stacks_throughput(secs, true),
        );
    }
}
