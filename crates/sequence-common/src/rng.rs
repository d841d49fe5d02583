//! Seeded, named random generators.
//!
//! * [`GameRng`] is **ChaCha8** (`rand_chacha::ChaCha8Rng`) seeded from a
//!   `u64` with `seed_from_u64`: it deals, cuts and shuffles for games whose
//!   records must be reproducible from their seed.
//! * [`PlayoutRng`] is **PCG64-MCG** (`rand_pcg::Pcg64Mcg`), a small fast
//!   generator for bot playouts, always seeded from a `GameRng` or a `u64`.

use rand::{Rng, SeedableRng};

/// The named generator for dealing and shuffling: ChaCha8.
pub type GameRng = rand_chacha::ChaCha8Rng;

/// The fast generator for playouts: PCG64 (MCG variant).
pub type PlayoutRng = rand_pcg::Pcg64Mcg;

/// A [`GameRng`] from a 64-bit seed (ChaCha8, `seed_from_u64`).
pub fn game_rng(seed: u64) -> GameRng {
    GameRng::seed_from_u64(seed)
}

/// A [`PlayoutRng`] from a 64-bit seed.
pub fn playout_rng(seed: u64) -> PlayoutRng {
    PlayoutRng::seed_from_u64(seed)
}

/// A uniform integer in `0..n` (`n > 0`), exactly: Lemire's multiply-shift
/// with rejection ("Fast random integer generation in an interval", 2019).
/// One 32-bit draw and no division but in about `n / 2^32` of the calls.
#[inline]
pub fn below<R: rand::RngCore + ?Sized>(rng: &mut R, n: u32) -> u32 {
    let mut m = u64::from(rng.next_u32()) * u64::from(n);
    if (m as u32) < n {
        let t = n.wrapping_neg() % n;
        while (m as u32) < t {
            m = u64::from(rng.next_u32()) * u64::from(n);
        }
    }
    (m >> 32) as u32
}

/// Fisher–Yates shuffle of `items` in place, drawing from `rng`.
///
/// Written out (rather than `SliceRandom::shuffle`) so that the exact
/// sequence of draws is documented: for `i` from `len-1` down to `1`, swap
/// `items[i]` with `items[rng.random_range(0..=i)]`.
pub fn shuffle<T, R: Rng + ?Sized>(items: &mut [T], rng: &mut R) {
    for i in (1..items.len()).rev() {
        let j = rng.random_range(0..=i);
        items.swap(i, j);
    }
}

/// Fisher–Yates shuffle for playouts and determinizations: like
/// [`shuffle`] but with multiply-shift range reduction (no rejection; bias
/// below 2^-24 for slices under 256 items). Not for records.
#[inline]
pub fn shuffle_fast<T, R: rand::RngCore + ?Sized>(items: &mut [T], rng: &mut R) {
    for i in (1..items.len()).rev() {
        let j = ((rng.next_u32() as u64 * (i as u64 + 1)) >> 32) as usize;
        items.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_stays_below_and_is_uniform() {
        let mut r = playout_rng(5);
        for n in [1u32, 3, 7, 100, 0x8000_0001, u32::MAX] {
            for _ in 0..1000 {
                assert!(below(&mut r, n) < n);
            }
        }
        // Chi-square over 6 outcomes, 600,000 draws: 5 degrees of freedom,
        // 20.5 is the 0.1% critical value.
        let mut counts = [0u64; 6];
        for _ in 0..600_000 {
            counts[below(&mut r, 6) as usize] += 1;
        }
        let chi2: f64 = counts
            .iter()
            .map(|&c| (c as f64 - 100_000.0).powi(2) / 100_000.0)
            .sum();
        assert!(chi2 < 20.5, "chi-square {chi2} for {counts:?}");
    }

    #[test]
    fn same_seed_same_shuffle() {
        let mut a: Vec<u32> = (0..104).collect();
        let mut b = a.clone();
        shuffle(&mut a, &mut game_rng(7));
        shuffle(&mut b, &mut game_rng(7));
        assert_eq!(a, b);
        let mut c: Vec<u32> = (0..104).collect();
        shuffle(&mut c, &mut game_rng(8));
        assert_ne!(a, c);
        let mut sorted = a.clone();
        sorted.sort();
        assert_eq!(sorted, (0..104).collect::<Vec<_>>());
    }
}
