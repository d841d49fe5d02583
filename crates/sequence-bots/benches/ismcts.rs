//! ISMCTS iterations per second from a fixed 2-player midgame position
//! (one tree, one core), for each game the search as `sequence hint` runs
//! it ([`BotGame::analyse`]). Run: `cargo bench -p sequence-bots`.

use criterion::measurement::WallTime;
use criterion::{criterion_group, criterion_main, BenchmarkGroup, Criterion, Throughput};
use sequence_bots::bench::{classic_midgame, stacks_midgame};
use sequence_bots::{BotGame, Budget, SearchSpec};

/// 2,000 iterations on one tree from `view`.
fn search<G: BotGame>(g: &mut BenchmarkGroup<'_, WallTime>, name: &str, view: &G::View) {
    let search = SearchSpec::new(Budget::Iterations(2000), Some(1));
    g.bench_function(name, |b| b.iter(|| G::analyse(view, 1, &search)));
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("ismcts");
    g.throughput(Throughput::Elements(2000));
    g.sample_size(20);
    search::<sequence_classic::Game>(
        &mut g,
        "classic 2p midgame, 2000 iterations, 1 tree",
        &classic_midgame(7),
    );
    search::<sequence_stacks::Game>(
        &mut g,
        "stacks 2p midgame, 2000 iterations, 1 tree",
        &stacks_midgame(7),
    );
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
