//! Criterion benchmarks of the classic engine: a full random 2-player
//! playout (deal included) and legal-move generation in a midgame position.

use criterion::{criterion_group, criterion_main, Criterion};
use sequence_classic::{Card, Config, Game, MoveList, Options, RngReshuffler, Seat};

fn midgame() -> Game {
    let config = Config::new(2, None, Options::default()).expect("valid table");
    let mut rng = sequence_common::rng::game_rng(42);
    let (mut g, _) = Game::deal(config, &mut rng);
    for _ in 0..30 {
        let mv = g.random_move(&mut rng).expect("the game goes on");
        g.apply(g.turn(), mv, &mut RngReshuffler(&mut rng))
            .expect("legal");
    }
    g
}

fn benches(c: &mut Criterion) {
    let config = Config::new(2, None, Options::default()).expect("valid table");
    let mut rng = sequence_common::rng::playout_rng(7);
    let (proto, _) = Game::deal(config, &mut rng);
    let mut deck = Card::double_deck();
    c.bench_function("playout_2p_full_game", |b| {
        b.iter(|| {
            sequence_common::rng::shuffle_fast(&mut deck, &mut rng);
            let mut g = proto.redeal(Seat(0), &deck).expect("valid deck");
            g.playout(&mut rng, u32::MAX)
        })
    });
    let pos = midgame();
    let mut list = MoveList::new();
    c.bench_function("legal_moves_midgame", |b| {
        b.iter(|| {
            pos.legal_moves(&mut list);
            list.len()
        })
    });
    let mut r2 = sequence_common::rng::playout_rng(3);
    c.bench_function("random_move_midgame", |b| {
        b.iter(|| pos.random_move(&mut r2))
    });
}

criterion_group!(classic, benches);
criterion_main!(classic);
