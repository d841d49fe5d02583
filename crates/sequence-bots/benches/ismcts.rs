//! ISMCTS iterations per second from a fixed 2-player midgame position
//! (one tree, one core). Run: `cargo bench -p sequence-bots`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use sequence_bots::bench::{classic_midgame, stacks_midgame};
use sequence_bots::{classic, stacks, Budget, SearchConfig};

fn bench(c: &mut Criterion) {
    let view = classic_midgame(7);
    let mut g = c.benchmark_group("ismcts");
    g.throughput(Throughput::Elements(2000));
    g.sample_size(20);
    g.bench_function("classic 2p midgame, 2000 iterations, 1 tree", |b| {
        b.iter(|| {
            classic::analyse(
                &view,
                Budget::Iterations(2000),
                Some(1),
                1,
                &SearchConfig::default(),
            )
        })
    });
    let sview = stacks_midgame(7);
    g.bench_function("stacks 2p midgame, 2000 iterations, 1 tree", |b| {
        b.iter(|| {
            stacks::analyse(
                &sview,
                Budget::Iterations(2000),
                Some(1),
                1,
                &SearchConfig::default(),
            )
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
