//! Bits to bytes: the masks and observations of the environments are
//! byte arrays (one `0`/`1`/`2` per entry, what numpy and the learning
//! libraries read) made from the engines' bitsets. These two functions are
//! the hot path of every step of the vectorized stepping.
//!
//! On x86-64 CPUs with AVX2 (checked once at run time) 32 bytes are made
//! per group of five vector instructions: the 32 bits broadcast, each byte
//! picking the byte that holds its bit (`vpshufb`), keeping that bit and
//! becoming 0/1. Elsewhere a table of the eight bytes of every byte value
//! writes eight at a time. Both give the same bytes (the tests compare
//! them).

/// Eight bits as eight bytes 0/1, for every byte value: lane `i` (byte
/// `i` in memory order) of entry `v` is bit `i` of `v`.
static BYTES8: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut v = 0;
    while v < 256 {
        let mut i = 0;
        while i < 8 {
            t[v] |= ((v as u64 >> i) & 1) << (8 * i);
            i += 1;
        }
        v += 1;
    }
    t
};

/// Writes bit `i` of `bits` (bit `i % 64` of word `i / 64`) as byte `i`
/// of `out`, 0 or 1, for every byte of `out`. `N` is the length the
/// caller expects (at most 512): the fast path is made for it, and any
/// other length takes the table path.
#[inline]
pub fn bits_to_bytes<const N: usize>(bits: &[u64; 8], out: &mut [u8]) {
    #[cfg(target_arch = "x86_64")]
    if out.len() == N && N <= 512 && avx2() {
        if let Some(out) = out.first_chunk_mut::<N>() {
            // SAFETY: the CPU has AVX2 (checked just above).
            unsafe { x86::bits_to_bytes(bits, out) };
            return;
        }
    }
    portable::bits_to_bytes(bits, out);
}

/// Writes the copies of each card as bytes (0, 1 or 2) into `out` (at most
/// 64 bytes are written): bit `i` of `once` says card `i` is there at
/// least once, of `twice` that it is there twice (`twice` ⊆ `once`). `N`
/// is the length the caller expects, as in [`bits_to_bytes`].
#[inline]
pub fn counts_to_bytes<const N: usize>(once: u64, twice: u64, out: &mut [u8]) {
    #[cfg(target_arch = "x86_64")]
    if out.len() == N && N <= 64 && avx2() {
        if let Some(out) = out.first_chunk_mut::<N>() {
            // SAFETY: the CPU has AVX2 (checked just above).
            unsafe { x86::counts_to_bytes(once, twice, out) };
            return;
        }
    }
    portable::counts_to_bytes(once, twice, out);
}

/// Writes each board of `boards` as 100 bytes 0/1 in reading order
/// (`a1`, `b1`, … `j10`) into `out` (`100 × K` bytes; any other length
/// takes the table path for what fits). A board is the classic engine's
/// bitboard layout (`sequence_classic::Bitboard`): row `r` at bits
/// `11 r .. 11 r + 10`, column `a` lowest.
#[inline]
pub fn boards_to_bytes<const K: usize>(boards: &[u128; K], out: &mut [u8]) {
    #[cfg(target_arch = "x86_64")]
    if out.len() == 100 * K && avx2() {
        // SAFETY: the CPU has AVX2 (checked just above).
        unsafe { x86::boards_to_bytes(boards, out) };
        return;
    }
    for (b, plane) in boards.iter().zip(out.chunks_mut(100)) {
        portable::board_to_bytes(*b, plane);
    }
}

/// The bit of the board layout ([`boards_to_bytes`]) of the space of
/// reading index `i` (0–99).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] // the AVX2 tables' and the tests'
const fn board_bit(i: usize) -> usize {
    11 * (i / 10) + i % 10
}

/// Whether this CPU has AVX2 (the standard library checks once and keeps
/// the answer).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn avx2() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
}

/// The table version: eight bytes per lookup.
pub(crate) mod portable {
    use super::BYTES8;

    /// The 64 bits of `once` as 64 bytes 0/1 (byte `i` = bit `i`), plus
    /// the bits of `twice` likewise.
    #[inline(always)]
    fn word(once: u64, twice: u64) -> [u8; 64] {
        let mut out = [0u8; 64];
        if once | twice != 0 {
            for k in 0..8 {
                let byte = |w: u64| (w >> (8 * k)) as usize & 0xFF;
                let v = BYTES8[byte(once)] + BYTES8[byte(twice)];
                out[8 * k..8 * k + 8].copy_from_slice(&v.to_le_bytes());
            }
        }
        out
    }

    /// See [`super::bits_to_bytes`].
    pub fn bits_to_bytes(bits: &[u64], out: &mut [u8]) {
        let mut blocks = out.chunks_exact_mut(64);
        let mut words = bits.iter().copied();
        for block in &mut blocks {
            block.copy_from_slice(&word(words.next().unwrap_or(0), 0));
        }
        let rest = blocks.into_remainder();
        let n = rest.len();
        rest.copy_from_slice(&word(words.next().unwrap_or(0), 0)[..n]);
    }

    /// The ten columns of a board row's bits as bytes 0/1, for every row
    /// value: a row becomes ten bytes in one copy.
    static ROW_BYTES: [[u8; 10]; 1024] = {
        let mut t = [[0u8; 10]; 1024];
        let mut v = 0;
        while v < 1024 {
            let mut c = 0;
            while c < 10 {
                t[v][c] = ((v >> c) & 1) as u8;
                c += 1;
            }
            v += 1;
        }
        t
    };

    /// One board as (at most) 100 bytes, a row at a time.
    pub fn board_to_bytes(board: u128, out: &mut [u8]) {
        for (r, row) in out.chunks_mut(10).take(10).enumerate() {
            let n = row.len();
            row.copy_from_slice(&ROW_BYTES[((board >> (r * 11)) & 0x3FF) as usize][..n]);
        }
    }

    /// See [`super::counts_to_bytes`].
    pub fn counts_to_bytes(once: u64, twice: u64, out: &mut [u8]) {
        let n = out.len().min(64);
        out[..n].copy_from_slice(&word(once, twice)[..n]);
    }
}

/// The AVX2 version: 32 bytes per five instructions, the lengths known
/// when compiled (no loop, no length checks).
#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::{
        __m256i, _mm256_add_epi8, _mm256_and_si256, _mm256_broadcastsi128_si256, _mm256_cmpeq_epi8,
        _mm256_load_si256, _mm256_set1_epi32, _mm256_set1_epi64x, _mm256_set1_epi8,
        _mm256_setr_epi8, _mm256_shuffle_epi8, _mm256_storeu_si256, _mm_set_epi64x,
    };

    /// 32 bits as 32 bytes 0/1 (byte `i` = bit `i`).
    #[inline]
    #[target_feature(enable = "avx2")]
    fn spread32(x: u32) -> __m256i {
        // Byte i picks byte i / 8 of x (vpshufb works within each 128-bit
        // half; the broadcast puts x in both), keeps bit i % 8 of it and
        // becomes 0xFF where that bit is set, then 1.
        let pick = _mm256_setr_epi8(
            0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3,
            3, 3, 3,
        );
        let bit = _mm256_set1_epi64x(0x8040_2010_0804_0201_u64 as i64);
        let v = _mm256_and_si256(_mm256_shuffle_epi8(_mm256_set1_epi32(x as i32), pick), bit);
        _mm256_and_si256(_mm256_cmpeq_epi8(v, bit), _mm256_set1_epi8(1))
    }

    /// Bits `at .. at + 32` of `bits` (zero past its end).
    #[inline(always)]
    fn window(bits: &[u64], at: usize) -> u32 {
        let (w, sh) = (at / 64, at % 64);
        let lo = bits.get(w).map_or(0, |x| x >> sh);
        let hi = match bits.get(w + 1) {
            Some(x) if sh > 32 => x << (64 - sh),
            _ => 0,
        };
        (lo | hi) as u32
    }

    /// Stores `v` at `out[at..at + 32]`.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn store<const N: usize>(out: &mut [u8; N], at: usize, v: __m256i) {
        let dst = &mut out[at..at + 32];
        // SAFETY: `dst` has 32 bytes; the store is unaligned.
        unsafe { _mm256_storeu_si256(dst.as_mut_ptr().cast::<__m256i>(), v) };
    }

    /// Writes `N` bytes, 32 at a time; the last group overlaps the one
    /// before it when `N` is not a multiple of 32 (it writes the same
    /// bytes there), so every store is whole.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn groups<const N: usize>(out: &mut [u8; N], group: impl Fn(usize) -> __m256i) {
        if N < 32 {
            let mut tmp = [0u8; 32];
            store(&mut tmp, 0, group(0));
            out.copy_from_slice(&tmp[..N]);
            return;
        }
        let mut at = 0;
        while at + 32 <= N {
            store(out, at, group(at));
            at += 32;
        }
        if at < N {
            store(out, N - 32, group(N - 32));
        }
    }

    /// See [`super::bits_to_bytes`].
    #[target_feature(enable = "avx2")]
    pub(super) fn bits_to_bytes<const N: usize>(bits: &[u64; 8], out: &mut [u8; N]) {
        groups(out, |at| spread32(window(bits, at)));
    }

    /// Where the 32-byte groups of a board's 100 bytes start (the last
    /// overlaps the third).
    const BOARD_GROUPS: [usize; 4] = [0, 32, 64, 68];

    /// 32-byte rows on 32-byte boundaries: each loads in one instruction.
    #[repr(align(32))]
    struct Aligned([[[u8; 32]; 4]; 2]);

    /// Per group of a board, the byte of the board each output byte
    /// picks, and the bit it tests there.
    static BOARD_PICK: Aligned = Aligned({
        let mut t = [[[0u8; 32]; 4]; 2];
        let mut g = 0;
        while g < 4 {
            let mut i = 0;
            while i < 32 {
                let bit = super::board_bit(BOARD_GROUPS[g] + i);
                t[0][g][i] = (bit / 8) as u8;
                t[1][g][i] = 1 << (bit % 8);
                i += 1;
            }
            g += 1;
        }
        t
    });

    /// See [`super::boards_to_bytes`]; `out` has `100 × K` bytes.
    #[target_feature(enable = "avx2")]
    pub(super) fn boards_to_bytes<const K: usize>(boards: &[u128; K], out: &mut [u8]) {
        let table = |t: &[u8; 32]| {
            // SAFETY: `t` has 32 bytes on a 32-byte boundary (a row of
            // `Aligned`).
            unsafe { _mm256_load_si256(t.as_ptr().cast::<__m256i>()) }
        };
        let one = _mm256_set1_epi8(1);
        for (board, plane) in boards.iter().zip(out.chunks_exact_mut(100)) {
            // The board's 16 bytes in both 128-bit halves: every output
            // byte can pick any of them.
            // (From the two words in registers: a 16-byte load of a board
            // just written as two words would wait for the stores.)
            let v = _mm256_broadcastsi128_si256(_mm_set_epi64x(
                (board >> 64) as u64 as i64,
                *board as u64 as i64,
            ));
            let [picks, bits] = &BOARD_PICK.0;
            for ((pick, bit), &at) in picks.iter().zip(bits).zip(&BOARD_GROUPS) {
                let bit = table(bit);
                let x = _mm256_and_si256(_mm256_shuffle_epi8(v, table(pick)), bit);
                let dst: &mut [u8; 32] = (&mut plane[at..at + 32]).try_into().expect("32 bytes");
                let y = _mm256_and_si256(_mm256_cmpeq_epi8(x, bit), one);
                // SAFETY: `dst` has 32 bytes; the store is unaligned.
                unsafe { _mm256_storeu_si256(dst.as_mut_ptr().cast::<__m256i>(), y) };
            }
        }
    }

    /// See [`super::counts_to_bytes`].
    #[target_feature(enable = "avx2")]
    pub(super) fn counts_to_bytes<const N: usize>(once: u64, twice: u64, out: &mut [u8; N]) {
        groups(out, |at| {
            _mm256_add_epi8(
                spread32(window(&[once], at)),
                spread32(window(&[twice], at)),
            )
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// Byte `i` from bit `i`, one at a time: what both versions must give.
    fn naive(bits: &[u64], n: usize) -> Vec<u8> {
        (0..n)
            .map(|i| (bits.get(i / 64).map_or(0, |w| w >> (i % 64)) & 1) as u8)
            .collect()
    }

    /// Random words: sparse, dense and all ones.
    fn words(r: &mut impl Rng) -> [u64; 8] {
        std::array::from_fn(|k| match k % 3 {
            0 => r.random::<u64>() & r.random::<u64>(),
            1 => r.random(),
            _ => u64::MAX,
        })
    }

    /// Checks both versions for one length `N` (and the table path for
    /// other lengths).
    fn check_bits<const N: usize>(r: &mut impl Rng) {
        for _ in 0..20 {
            let bits = words(r);
            let want = naive(&bits, N);
            let mut out = vec![9u8; N + 3];
            bits_to_bytes::<N>(&bits, &mut out[..N]);
            assert_eq!(&out[..N], &want[..], "N = {N}");
            assert_eq!(&out[N..], &[9, 9, 9], "wrote past the slice, N = {N}");
            let mut port = vec![9u8; N];
            portable::bits_to_bytes(&bits, &mut port);
            assert_eq!(port, want, "table, N = {N}");
            // A slice of another length than N: the table path.
            let mut other = vec![9u8; N + 1];
            bits_to_bytes::<N>(&bits, &mut other);
            assert_eq!(other, naive(&bits, N + 1), "length N + 1, N = {N}");
        }
    }

    #[test]
    fn every_pattern_gives_the_bit_per_byte() {
        let mut r = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        // The lengths the encodings use, and edges around 32 and 64.
        check_bits::<0>(&mut r);
        check_bits::<1>(&mut r);
        check_bits::<5>(&mut r);
        check_bits::<31>(&mut r);
        check_bits::<32>(&mut r);
        check_bits::<33>(&mut r);
        check_bits::<63>(&mut r);
        check_bits::<64>(&mut r);
        check_bits::<65>(&mut r);
        check_bits::<100>(&mut r);
        check_bits::<400>(&mut r);
        check_bits::<405>(&mut r);
        check_bits::<511>(&mut r);
        check_bits::<512>(&mut r);
    }

    #[test]
    fn boards_give_the_spaces_in_reading_order() {
        let mut r = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        for _ in 0..200 {
            // Random bits in the 121-bit layout, gap bits (column 11 of
            // each row) included: they must not show.
            let boards: [u128; 4] = std::array::from_fn(|_| r.random::<u128>() >> 7);
            let want: Vec<u8> = boards
                .iter()
                .flat_map(|b| (0..100).map(move |i| ((b >> board_bit(i)) & 1) as u8))
                .collect();
            let mut out = vec![9u8; 402];
            boards_to_bytes(&boards, &mut out[..400]);
            assert_eq!(&out[..400], &want[..]);
            assert_eq!(&out[400..], &[9, 9], "wrote past the slice");
            let mut port = vec![9u8; 100];
            portable::board_to_bytes(boards[1], &mut port);
            assert_eq!(port, want[100..200], "table");
        }
        // Spot checks of the layout: a1 is bit 0, j1 bit 9, a2 bit 11,
        // j10 bit 108.
        let mut out = [0u8; 100];
        boards_to_bytes(&[1u128 | 1 << 9 | 1 << 11 | 1 << 108], &mut out);
        let ones: Vec<usize> = (0..100).filter(|&i| out[i] == 1).collect();
        assert_eq!(ones, vec![0, 9, 10, 99]);
    }

    fn check_counts<const N: usize>(r: &mut impl Rng) {
        for _ in 0..50 {
            let once: u64 = r.random();
            let twice = once & r.random::<u64>();
            let want: Vec<u8> = (0..N.min(64))
                .map(|i| ((once >> i) & 1) as u8 + ((twice >> i) & 1) as u8)
                .collect();
            let mut out = vec![9u8; N + 2];
            counts_to_bytes::<N>(once, twice, &mut out[..N]);
            assert_eq!(&out[..N.min(64)], &want[..], "N = {N}");
            assert_eq!(&out[N..], &[9, 9], "wrote past the slice, N = {N}");
            let mut port = vec![9u8; N];
            portable::counts_to_bytes(once, twice, &mut port);
            assert_eq!(&port[..N.min(64)], &want[..], "table, N = {N}");
        }
    }

    #[test]
    fn counts_are_once_plus_twice() {
        let mut r = rand_chacha::ChaCha8Rng::seed_from_u64(4);
        check_counts::<0>(&mut r);
        check_counts::<7>(&mut r);
        check_counts::<32>(&mut r);
        check_counts::<52>(&mut r);
        check_counts::<64>(&mut r);
    }
}
