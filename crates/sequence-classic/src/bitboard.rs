//! Spaces of the 10×10 board and the [`Bitboard`] over them.
//!
//! A space is a bit index `row * 11 + col` in a `u128` (ENGINE-NOTES.md):
//! with a row stride of 11, column 10 is a gap that is never set, so the
//! shifts 1 (→), 11 (↓), 12 (↘) and 10 (↙) never wrap into the next row.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};
use std::str::FromStr;

/// Row stride of the bit layout.
pub const STRIDE: u8 = 11;

/// A space of the board: column `a`–`j`, row `1`–`10` (row 1 on top,
/// RULES.md C2). Stored as the bit index `row * 11 + col` (0-based).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Space(u8);

impl Space {
    /// The space at 0-based `row` and `col` (`0 … 9`); `None` off the board.
    #[inline]
    pub const fn new(row: u8, col: u8) -> Option<Space> {
        if row < 10 && col < 10 {
            Some(Space(row * STRIDE + col))
        } else {
            None
        }
    }

    /// The space with this bit index; `None` for a gap bit or past the board.
    #[inline]
    pub const fn from_bit(bit: u8) -> Option<Space> {
        if bit < 110 && bit % STRIDE != 10 {
            Some(Space(bit))
        } else {
            None
        }
    }

    /// The space of a bit index known to be a space (from a layout or a
    /// mask of spaces); not checked.
    #[inline]
    pub(crate) const fn from_bit_unchecked(bit: u8) -> Space {
        Space(bit)
    }

    /// The bit index `row * 11 + col`.
    #[inline]
    pub const fn bit(self) -> u8 {
        self.0
    }

    /// 0-based row (0 = row `1`, the top).
    #[inline]
    pub const fn row(self) -> u8 {
        self.0 / STRIDE
    }

    /// 0-based column (0 = column `a`).
    #[inline]
    pub const fn col(self) -> u8 {
        self.0 % STRIDE
    }

    /// Reading-order index `row * 10 + col` (`0 … 99`).
    #[inline]
    pub const fn reading_index(self) -> usize {
        (self.row() as usize) * 10 + self.col() as usize
    }

    /// The 100 spaces in reading order (row by row, left to right).
    pub fn all() -> impl Iterator<Item = Space> {
        (0..10u8).flat_map(|r| (0..10u8).map(move |c| Space(r * STRIDE + c)))
    }

    /// Whether this is one of the four free corners (C1).
    #[inline]
    pub fn is_corner(self) -> bool {
        CORNERS.contains(self)
    }

    /// This space as a one-bit board.
    #[inline]
    pub const fn bb(self) -> Bitboard {
        Bitboard(1u128 << self.0)
    }
}

impl fmt::Display for Space {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.col()) as char, self.row() + 1)
    }
}

impl fmt::Debug for Space {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A space name that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a space (expected column a-j and row 1-10, e.g. \"e5\")")]
pub struct ParseSpaceError(pub String);

impl FromStr for Space {
    type Err = ParseSpaceError;

    fn from_str(s: &str) -> Result<Space, ParseSpaceError> {
        let err = || ParseSpaceError(sequence_common::json::echo(s));
        let bytes = s.as_bytes();
        if bytes.len() < 2 || bytes.len() > 3 {
            return Err(err());
        }
        let col = bytes[0].to_ascii_lowercase();
        if !(b'a'..=b'j').contains(&col) {
            return Err(err());
        }
        let row: u8 = s[1..].parse().map_err(|_| err())?;
        if !(1..=10).contains(&row) || s[1..].starts_with('0') {
            return Err(err());
        }
        Space::new(row - 1, col - b'a').ok_or_else(err)
    }
}

sequence_common::serde_as_text!(Space);

/// A set of spaces as bits of a `u128` (bit `row * 11 + col`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u128);

/// Every space of the board (100 bits).
pub const BOARD: Bitboard = {
    let mut b = 0u128;
    let mut r = 0;
    while r < 10 {
        b |= 0x3FFu128 << (r * 11);
        r += 1;
    }
    Bitboard(b)
};

/// `SPACE_BITS[i]` = `1 << i`: a space's bit from a table, for updates
/// the compiler must make on the whole `u128` (see `Game::place`).
pub(crate) static SPACE_BITS: [u128; 128] = {
    let mut t = [0u128; 128];
    let mut i = 0;
    while i < 128 {
        t[i] = 1u128 << i;
        i += 1;
    }
    t
};

/// The four free corners `a1 j1 a10 j10` (C1).
pub const CORNERS: Bitboard =
    Bitboard((1u128 << 0) | (1u128 << 9) | (1u128 << 99) | (1u128 << 108));

impl Bitboard {
    /// No spaces.
    pub const EMPTY: Bitboard = Bitboard(0);

    /// Whether `sq` is in the set.
    #[inline]
    pub const fn contains(self, sq: Space) -> bool {
        self.0 >> sq.0 & 1 != 0
    }

    /// Number of spaces in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The lowest space (first in reading order); `None` when empty.
    #[inline]
    pub fn first(self) -> Option<Space> {
        if self.0 == 0 {
            None
        } else {
            Some(Space(self.0.trailing_zeros() as u8))
        }
    }

    /// The `n`-th space (0-based) in reading order; `None` past the count.
    #[inline]
    pub fn nth(self, n: u32) -> Option<Space> {
        if n >= self.count() {
            return None;
        }
        Some(self.nth_unchecked(n))
    }

    /// The `n`-th space (0-based) in reading order, `n` below the count
    /// (else some bit index, not necessarily a space): branch-free
    /// narrowing by halves (conditional moves) and a byte table.
    #[inline]
    pub(crate) fn nth_unchecked(self, n: u32) -> Space {
        let lo = self.0 as u64;
        let lc = lo.count_ones();
        let high = n >= lc;
        let mut w = if high { (self.0 >> 64) as u64 } else { lo };
        let mut n = if high { n - lc } else { n };
        let mut off = if high { 64 } else { 0 };
        let c = (w as u32).count_ones();
        let up = n >= c;
        w = if up { w >> 32 } else { w };
        n = if up { n - c } else { n };
        off += if up { 32 } else { 0 };
        let c = (w as u16).count_ones();
        let up = n >= c;
        w = if up { w >> 16 } else { w };
        n = if up { n - c } else { n };
        off += if up { 16 } else { 0 };
        let c = (w as u8).count_ones();
        let up = n >= c;
        w = if up { w >> 8 } else { w };
        n = if up { n - c } else { n };
        off += if up { 8 } else { 0 };
        Space((off + NTH_IN_BYTE[(w & 0xFF) as usize][n as usize & 7] as u32) as u8)
    }

    /// Iterates over the spaces in reading order.
    #[inline]
    pub fn iter(self) -> BitIter {
        BitIter(self.0)
    }

    /// The set with `sq` added.
    #[inline]
    pub const fn with(self, sq: Space) -> Bitboard {
        Bitboard(self.0 | 1u128 << sq.0)
    }

    /// The set with `sq` removed.
    #[inline]
    pub const fn without(self, sq: Space) -> Bitboard {
        Bitboard(self.0 & !(1u128 << sq.0))
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// `NTH_IN_BYTE[b][k]`: position of the `k`-th set bit of byte `b`.
const NTH_IN_BYTE: [[u8; 8]; 256] = {
    let mut t = [[0u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut k = 0;
        let mut i = 0;
        while i < 8 {
            if b >> i & 1 == 1 {
                t[b][k] = i as u8;
                k += 1;
            }
            i += 1;
        }
        b += 1;
    }
    t
};

/// Iterator over the spaces of a [`Bitboard`], in reading order.
pub struct BitIter(u128);

impl Iterator for BitIter {
    type Item = Space;

    #[inline]
    fn next(&mut self) -> Option<Space> {
        if self.0 == 0 {
            return None;
        }
        let b = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Space(b))
    }
}

impl IntoIterator for Bitboard {
    type Item = Space;
    type IntoIter = BitIter;
    fn into_iter(self) -> BitIter {
        self.iter()
    }
}

impl BitAnd for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitand(self, o: Bitboard) -> Bitboard {
        Bitboard(self.0 & o.0)
    }
}

impl BitOr for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitor(self, o: Bitboard) -> Bitboard {
        Bitboard(self.0 | o.0)
    }
}

impl BitAndAssign for Bitboard {
    #[inline]
    fn bitand_assign(&mut self, o: Bitboard) {
        self.0 &= o.0
    }
}

impl BitOrAssign for Bitboard {
    #[inline]
    fn bitor_assign(&mut self, o: Bitboard) {
        self.0 |= o.0
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    /// The complement **within the board** (gap bits stay clear).
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & BOARD.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn space_names_round_trip() {
        for s in Space::all() {
            assert_eq!(s.to_string().parse::<Space>().unwrap(), s);
        }
        assert_eq!("e5".parse::<Space>().unwrap(), Space::new(4, 4).unwrap());
        assert_eq!("J10".parse::<Space>().unwrap(), Space::new(9, 9).unwrap());
        for bad in ["k11", "a0", "a11", "e", "", "5e", "a01", "é5"] {
            assert!(bad.parse::<Space>().is_err(), "{bad}");
        }
    }

    #[test]
    fn board_and_corners() {
        assert_eq!(BOARD.count(), 100);
        assert_eq!(CORNERS.count(), 4);
        let names: Vec<String> = CORNERS.iter().map(|s| s.to_string()).collect();
        assert_eq!(names, ["a1", "j1", "a10", "j10"]);
    }

    #[test]
    fn nth_matches_iteration() {
        let b = Bitboard(0x0123_4567_89AB_CDEF_FEDC_BA98_7654_3210) & BOARD;
        for (i, s) in b.iter().enumerate() {
            assert_eq!(b.nth(i as u32), Some(s));
        }
        assert_eq!(b.nth(b.count()), None);
    }
}
