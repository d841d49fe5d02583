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
