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

/// Fisher–Yates shuffle for playouts, research and fresh deals, with four
/// indices from each 64-bit draw (the batched ranged integers of
/// Brackett-Rozinsky and Lemire, "Batched ranged random integer
/// generation", 2024, without their rejection step): the index for a range
/// of `n` is the high word of `r · n` and the low word is the `r` of the
/// next. The bias is below `n1·n2·n3·n4 / 2^64` per draw (about 2^-36 for
/// 104 cards). Not for records.
#[inline]
pub fn shuffle_batched<T, R: rand::RngCore + ?Sized>(items: &mut [T], rng: &mut R) {
    let mut i = items.len();
    while i > 1 {
        let mut r = rng.next_u64();
        for _ in 0..4 {
            if i <= 1 {
                break;
            }
            let m = u128::from(r) * i as u128;
            items.swap(i - 1, (m >> 64) as usize);
            r = m as u64;
            i -= 1;
        }
    }
}

/// A generator that hands out both halves of each 64-bit draw of `R` as
/// two 32-bit numbers: half the draws for code that asks for 32 bits at a
/// time (a playout's uniform choices). The halves of a uniform 64-bit
/// number are uniform and independent, so nothing else changes.
pub struct Halves<'a, R: ?Sized> {
    rng: &'a mut R,
    spare: u64,
    have: bool,
}

impl<'a, R: rand::RngCore + ?Sized> Halves<'a, R> {
    /// Wraps `rng`.
    #[inline]
    pub fn new(rng: &'a mut R) -> Self {
        Halves {
            rng,
            spare: 0,
            have: false,
        }
    }
}

impl<R: rand::RngCore + ?Sized> rand::RngCore for Halves<'_, R> {
    #[inline]
    fn next_u32(&mut self) -> u32 {
        if self.have {
            self.have = false;
            self.spare as u32
        } else {
            let x = self.rng.next_u64();
            self.spare = x >> 32;
            self.have = true;
            x as u32
        }
    }
    #[inline]
    fn next_u64(&mut self) -> u64 {
        self.rng.next_u64()
    }
    #[inline]
    fn fill_bytes(&mut self, dst: &mut [u8]) {
        self.rng.fill_bytes(dst)
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
    fn batched_shuffles_are_permutations_and_spread_evenly() {
        // Every item reaches every place about equally often: 3 items,
        // 60,000 shuffles, chi-square over the 9 (item, place) counts.
        let mut r = playout_rng(8);
        let mut counts = [[0u32; 3]; 3];
        for _ in 0..60_000 {
            let mut v = [0usize, 1, 2];
            shuffle_batched(&mut v, &mut r);
            for (place, &item) in v.iter().enumerate() {
                counts[item][place] += 1;
            }
        }
        let chi2: f64 = counts
            .iter()
            .flatten()
            .map(|&c| (c as f64 - 20_000.0).powi(2) / 20_000.0)
            .sum();
        // 4 degrees of freedom: 18.5 is the 0.1% critical value.
        assert!(chi2 < 18.5, "chi-square {chi2} for {counts:?}");
        let mut big: Vec<u32> = (0..104).collect();
        shuffle_batched(&mut big, &mut r);
        let mut sorted = big.clone();
        sorted.sort();
        assert_eq!(sorted, (0..104).collect::<Vec<_>>());
        assert_ne!(big, sorted);
    }

    #[test]
    fn halves_hand_out_both_halves_of_each_draw() {
        use rand::RngCore;
        let mut a = playout_rng(3);
        let mut b = playout_rng(3);
        let mut h = Halves::new(&mut b);
        for _ in 0..10 {
            let x = a.next_u64();
            assert_eq!(h.next_u32(), x as u32);
            assert_eq!(h.next_u32(), (x >> 32) as u32);
        }
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
