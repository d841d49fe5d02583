//! The vectorized stepping's speed without Python: random classic 2-player
//! games through `VecCore` with and without observations, and the parts
//! of a step. `cargo run --release -p sequence-py --example vec_speed`.
use sequence_common::{rng, Rules};
use sequence_py::env::{action_mask, legal_move_of, EnvGame};
use sequence_py::vector::{Out, VecCore};
use std::time::Instant;

fn main() {
    let c = sequence_classic::Game::table(2, None, Default::default()).expect("C3");
    let t = <sequence_classic::Game as Rules>::deal(&c, &mut rng::game_rng(1)).0;
    let n = 1024;
    for observe in [true, false] {
        let mut v = VecCore::new(t.clone(), n, 1);
        let (mut o, mut m, mut ta, mut r, mut d) = (
            vec![0u8; n * 525],
            vec![0u8; n * 405],
            vec![0i64; n],
            vec![0f32; n * 2],
            vec![0u8; n],
        );
        let mut out = Out {
            obs: &mut o,
            mask: &mut m,
            to_act: &mut ta,
            rewards: &mut r,
            done: &mut d,
        };
        v.reset(1, &mut out);
        let mut a = vec![0i64; n];
        let start = Instant::now();
        let mut steps = 0u64;
        while start.elapsed().as_secs_f64() < 2.0 {
            v.random_actions(&mut a);
            v.step_with(&a, &mut out, observe).expect("legal");
            steps += n as u64;
        }
        let s = start.elapsed().as_secs_f64();
        println!(
            "observe={observe}: {:.0} games/s, {:.0} steps/s, {:.0} ns/step",
            v.tally().games as f64 / s,
            steps as f64 / s,
            s * 1e9 / steps as f64
        );
    }
    // Parts, on a mid-game position.
    let mut g = t.clone();
    let mut r = rng::playout_rng(5);
    g.playout(&mut r, 30);
    let seat = g.to_act().expect("playing");
    let mut obs = [0u8; 525];
    let mut mask = [0u8; 405];
    let k = 2_000_000;
    let time = |name: &str, f: &mut dyn FnMut()| {
        let s = Instant::now();
        for _ in 0..k {
            f();
        }
        println!(
            "{name}: {:.1} ns",
            s.elapsed().as_secs_f64() * 1e9 / k as f64
        );
    };
    time("observe", &mut || {
        g.observe(seat, &mut obs);
        std::hint::black_box(&obs);
    });
    time("action_mask", &mut || {
        std::hint::black_box(action_mask(&g, &mut mask));
    });
    time("random_move", &mut || {
        std::hint::black_box(g.random_move(&mut r));
    });
    let a = g.action_of(seat, &g.random_move(&mut r).expect("move")) as i64;
    time("legal_move_of", &mut || {
        std::hint::black_box(legal_move_of(&g, a).is_ok());
    });
    time("clone+apply", &mut || {
        let mut h = g.clone();
        let m = h.random_move(&mut r).expect("move");
        let _ = h.apply(seat, m, &mut sequence_common::RngReshuffler(&mut r));
        std::hint::black_box(&h);
    });
}
