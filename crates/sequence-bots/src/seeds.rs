//! Seeds derived from seeds: every bot, game and search tree gets its own
//! from one run's seed, so that runs repeat exactly.

/// A 64-bit mix (SplitMix64 finaliser) for deriving seeds.
pub fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
