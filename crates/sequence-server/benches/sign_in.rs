//! The CPU of one sign-in attempt at the server's Argon2id cost
//! (`sequence_server::accounts::password`): `cargo bench -p
//! sequence-server --bench sign_in [-- ATTEMPTS]`. Prints the thread CPU
//! time (what the attempt costs the server, whatever else the machine
//! runs) and the wall time of verifying a password, min / median / p99,
//! over ATTEMPTS attempts (default 60), right and wrong passwords
//! alternating, and of the no-such-user decoy.

use sequence_server::accounts::password;
use std::time::Instant;

/// This thread's CPU time in ms.
fn thread_cpu_ms() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes into the timespec it is given.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 * 1e3 + t.tv_nsec as f64 / 1e6
}

/// min, median, p99 of `v` (sorted here).
fn summary(v: &mut [f64]) -> (f64, f64, f64) {
    v.sort_by(f64::total_cmp);
    let at = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
    (v[0], at(0.5), at(0.99))
}

fn main() {
    let attempts: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(60);
    let p = password::params();
    println!(
        "Argon2id m={} KiB t={} p={}, {attempts} attempts",
        p.m_cost(),
        p.t_cost(),
        p.p_cost()
    );
    let stored = password::hash("correct horse battery").expect("hash");
    let _ = password::decoy();
    let (mut cpu, mut wall) = (vec![], vec![]);
    for i in 0..attempts {
        let guess = if i % 2 == 0 {
            "correct horse battery"
        } else {
            "wrong horse battery"
        };
        let (c0, w0) = (thread_cpu_ms(), Instant::now());
        let ok = if i % 4 == 3 {
            password::verify(guess, password::decoy())
        } else {
            password::verify(guess, &stored)
        };
        cpu.push(thread_cpu_ms() - c0);
        wall.push(w0.elapsed().as_secs_f64() * 1e3);
        assert_eq!(ok, i % 4 == 0 || i % 4 == 2);
    }
    let (a, b, c) = summary(&mut cpu);
    println!("sign-in CPU per attempt: min {a:.1} ms, median {b:.1} ms, p99 {c:.1} ms");
    let (a, b, c) = summary(&mut wall);
    println!("sign-in wall per attempt: min {a:.1} ms, median {b:.1} ms, p99 {c:.1} ms");
}
