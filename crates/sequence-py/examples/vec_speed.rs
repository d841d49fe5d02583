//! The vectorized stepping's speed without Python: random classic 2-player
//! games through `VecCore` with and without observations, and the parts
//! of a step, in CPU time of this process (wall clock where the system
//! does not report it).
//! `cargo run --release -p sequence-py --example vec_speed [-- GAMES
//! [SECONDS [PARTS]]]` (GAMES: games in the vector, default 1024; SECONDS
//! per measure, default 3; PARTS: seconds per part, default SECONDS / 3,
//! 0 skips them; a fourth argument `observe` or `bare` runs only that
//! measure, e.g. for counting instructions).
use sequence_common::{rng, Rules};
use sequence_py::env::{action_mask, legal_move_of, EnvGame};
use sequence_py::vector::VecCore;
use std::time::Instant;

/// A clock of this process's CPU time (user + system, from
/// `/proc/self/stat` in clock ticks of 10 ms), or of the wall where that
/// cannot be read.
struct Clock {
    start: Instant,
    cpu0: Option<f64>,
}

impl Clock {
    fn cpu() -> Option<f64> {
        let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
        // Fields after the command name (which may hold spaces): state is
        // the 3rd field, utime the 14th, stime the 15th.
        let rest = &stat[stat.rfind(')')? + 2..];
        let f: Vec<&str> = rest.split_whitespace().collect();
        let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
        Some(ticks / 100.0)
    }

    fn start() -> Clock {
        Clock {
            start: Instant::now(),
            cpu0: Clock::cpu(),
        }
    }

    /// Seconds since the start.
    fn seconds(&self) -> f64 {
        match (self.cpu0, Clock::cpu()) {
            (Some(a), Some(b)) => b - a,
            _ => self.start.elapsed().as_secs_f64(),
        }
    }
}

fn main() {
    let arg = |i: usize| std::env::args().nth(i).and_then(|a| a.parse::<f64>().ok());
    let n = arg(1).map_or(1024, |x| x as usize).max(1);
    let seconds = arg(2).unwrap_or(3.0);
    let parts = arg(3).unwrap_or(seconds / 3.0);
    let c = sequence_classic::Game::table(2, None, Default::default()).expect("C3");
    let t = <sequence_classic::Game as Rules>::deal(&c, &mut rng::game_rng(1)).0;
    let only = std::env::args().nth(4);
    for observe in [true, false] {
        if only.as_deref().is_some_and(|o| (o == "observe") != observe) {
            continue;
        }
        let mut v = VecCore::new(t.clone(), n, 1);
        let mut bufs = v.buffers();
        let mut out = bufs.out();
        v.reset(1, &mut out);
        let mut a = vec![0i64; n];
        let clock = Clock::start();
        let mut steps = 0u64;
        // The clock is read every 16 steps (reading it costs a system call).
        while clock.seconds() < seconds {
            for _ in 0..16 {
                v.random_actions(&mut a);
                v.step_with(&a, &mut out, observe).expect("legal");
            }
            steps += 16 * n as u64;
        }
        let s = clock.seconds();
        println!(
            "x{n} observe={observe}: {:.0} games/s, {:.0} steps/s, {:.0} ns/step ({steps} steps)",
            v.tally().games as f64 / s,
            steps as f64 / s,
            s * 1e9 / steps as f64
        );
    }
    if parts <= 0.0 {
        return;
    }
    // Parts, on a mid-game position.
    let mut g = t.clone();
    let mut r = rng::playout_rng(5);
    g.playout(&mut r, 30);
    let seat = g.to_act().expect("playing");
    let mut obs = [0u8; 525];
    let mut mask = [0u8; 405];
    let time = |name: &str, f: &mut dyn FnMut()| {
        let clock = Clock::start();
        let mut k = 0u64;
        while clock.seconds() < parts {
            for _ in 0..1000 {
                f();
            }
            k += 1000;
        }
        println!("{name}: {:.1} ns", clock.seconds() * 1e9 / k as f64);
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
