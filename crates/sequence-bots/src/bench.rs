//! Fixed positions for benchmarks and the search throughput
//! measurements ([`classic_throughput`], [`stacks_throughput`]).

use crate::config::SearchConfig;
use crate::search::{Budget, SearchReport};
use sequence_classic::{Config, Game, Options, RngReshuffler};
use sequence_common::rng::game_rng;
use std::time::Duration;

/// A 2-player classic midgame: a game dealt from `seed` after 30 random
/// moves (about a third of the board covered), seen by the seat to move.
/// Each move is picked uniformly from the legal moves sorted by key, so
/// the position does not depend on how the engine lists or samples moves.
pub fn classic_midgame(seed: u64) -> sequence_classic::SeatView {
    let config = Config::new(2, None, Options::default())
        .unwrap_or_else(|_| unreachable!("2 players is a legal table"));
    let mut rng = game_rng(seed);
    let (mut game, _) = Game::deal(config, &mut rng);
    let mut plies = 0;
    let mut moves: Vec<sequence_classic::Move> = Vec::new();
    while plies < 30 && !game.is_over() {
        game.legal_moves(&mut moves);
        moves.sort_by_key(Game::move_key);
        if moves.is_empty() {
            break;
        }
        let mv = moves[rand::Rng::random_range(&mut rng, 0..moves.len())];
        let seat = game.turn();
        if game.apply(seat, mv, &mut RngReshuffler(&mut rng)).is_err() {
            break;
        }
        plies += 1;
    }
    game.view(game.turn())
}

/// A 2-player Sequence Stacks midgame: dealt from `seed`, 40 random
/// decisions in (each picked uniformly from the legal decisions in the
/// order listed, which does not depend on how random play samples), seen
/// by the seat that must decide.
pub fn stacks_midgame(seed: u64) -> sequence_stacks::SeatView {
    let mut rng = game_rng(seed);
    let config = sequence_stacks::Config::new(2, sequence_stacks::Options::default())
        .unwrap_or_else(|_| unreachable!("2 players is a legal table"));
    let (mut game, _) = sequence_stacks::Game::deal(config, &mut rng);
    let mut list: Vec<sequence_stacks::Decision> = Vec::new();
    for _ in 0..40 {
        let Some(seat) = game.to_act() else { break };
        game.legal_moves(&mut list);
        if list.is_empty() {
            break;
        }
        let d = list[rand::Rng::random_range(&mut rng, 0..list.len())];
        if game.apply(seat, d, &mut RngReshuffler(&mut rng)).is_err() {
            break;
        }
    }
    let seat = game.to_act().unwrap_or(game.turn());
    game.view(seat)
}

/// CPU time of the calling thread in nanoseconds (Linux:
/// `/proc/thread-self/schedstat`); `None` elsewhere.
pub fn thread_cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

/// `sequence bench`'s timing of one call of `f` (e.g. legal-move
/// generation), in nanoseconds: the median of 200 samples of 1,000 calls
/// each.
pub fn median_ns_per_call(mut f: impl FnMut()) -> f64 {
    let mut samples: Vec<f64> = (0..200)
        .map(|_| {
            let t = std::time::Instant::now();
            for _ in 0..1000 {
                f();
            }
            t.elapsed().as_nanos() as f64 / 1000.0
        })
        .collect();
    samples.sort_by(|x, y| x.total_cmp(y));
    samples[samples.len() / 2]
}

/// One throughput figure.
#[derive(Debug, Clone, Copy)]
pub struct Throughput {
    /// Iterations run.
    pub iterations: u64,
    /// Wall-clock seconds.
    pub wall: f64,
    /// CPU seconds of the searching thread (equals `wall` on an idle core;
    /// less when the machine is shared).
    pub cpu: Option<f64>,
}

impl Throughput {
    /// Iterations per wall-clock second.
    pub fn per_wall_second(&self) -> f64 {
        self.iterations as f64 / self.wall
    }
    /// Iterations per CPU second (per core, whatever else runs).
    pub fn per_cpu_second(&self) -> Option<f64> {
        self.cpu.map(|c| self.iterations as f64 / c)
    }
}

/// ISMCTS iterations on one core (one tree, this thread) for about
/// `seconds`, from the classic 2-player midgame ([`classic_midgame`]) with
/// playout cutoff `cutoff` (0: playouts to the end).
pub fn classic_throughput(seconds: f64, cutoff: u32) -> Throughput {
    let view = classic_midgame(7);
    let budget = Budget::Time(Duration::from_secs_f64(seconds));
    measure(seconds, || {
        Some(crate::classic::tree::tree_search(
            &view,
            budget,
            Some(1),
            1,
            cutoff,
        ))
    })
}

/// As [`classic_throughput`] for the classic default search, the flat
/// root Monte Carlo of [`crate::classic::flat`] (one playout per
/// iteration: a candidate move, its policy moves, the learned value).
pub fn classic_flat_throughput(seconds: f64) -> Throughput {
    classic_flat_throughput_with(seconds, false)
}

/// As [`classic_flat_throughput`] for the flat search guided by the
/// learned policy (`learned`, [`crate::classic::policy`]) or not.
pub fn classic_flat_throughput_with(seconds: f64, learned: bool) -> Throughput {
    let view = classic_midgame(7);
    measure(seconds, || {
        let opts = crate::classic::flat::FlatOptions {
            policy: learned.then(crate::classic::policy::shipped),
            ..Default::default()
        };
        let evidence =
            crate::classic::inference::Evidence::of_view(&view, &SearchConfig::default().classic);
        let budget = Budget::Time(Duration::from_secs_f64(seconds));
        Some(crate::classic::flat::search(
            &view, &opts, budget, 1, &evidence,
        ))
    })
}

/// As [`classic_throughput`] with a budget of `iterations` (one tree): a
/// fixed amount of work, for instruction counts.
pub fn classic_iterations(iterations: u64, cutoff: u32) -> Throughput {
    let view = classic_midgame(7);
    let budget = Budget::Iterations(iterations);
    measure(0.0, || {
        Some(crate::classic::tree::tree_search(
            &view,
            budget,
            Some(1),
            1,
            cutoff,
        ))
    })
}

/// As [`classic_throughput`] for the Sequence Stacks 2-player midgame:
/// the bot's default search (root Monte Carlo, one playout per iteration)
/// or, with `tree`, the SO-ISMCTS tree.
pub fn stacks_throughput(seconds: f64, tree: bool) -> Throughput {
    let view = stacks_midgame(7);
    let budget = Budget::Time(Duration::from_secs_f64(seconds));
    let config = SearchConfig::default();
    measure(seconds, || {
        if tree {
            crate::stacks::tree_search(&view, budget, Some(1), 1, &config)
        } else {
            crate::stacks::parallel_rollout_search(&view, budget, Some(1), 1, &config.stacks)
        }
    })
}

/// Runs `search` on this thread and measures it: its iterations, its wall
/// time and this thread's CPU time; a search that could not run counts 0
/// iterations in `seconds`.
fn measure<M>(seconds: f64, search: impl FnOnce() -> Option<SearchReport<M>>) -> Throughput {
    let c0 = thread_cpu_ns();
    let r = search();
    let cpu = c0.zip(thread_cpu_ns()).map(|(a, b)| (b - a) as f64 / 1e9);
    let (iterations, wall) = r.map_or((0, seconds), |r| (r.iterations, r.elapsed.as_secs_f64()));
    Throughput {
        iterations,
        wall,
        cpu,
    }
}
