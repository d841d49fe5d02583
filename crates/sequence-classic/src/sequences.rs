//! Sequences (C8): five (or, house rule, four) spaces in a line holding a
//! team's chips, corners counting for every team; the one-shared-space
//! rule; lines longer than a sequence and declarations (C8a).
//!
//! Only lines through the chip just placed can hold a new sequence, so the
//! search walks the four directions from that space over the team's chips
//! plus the corners (`own`), and lists per direction the windows that
//! contain the new chip.

use crate::bitboard::{Bitboard, Space, STRIDE};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A line direction, named by its step in bit indices (ENGINE-NOTES.md).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Dir {
    /// → along a row (step 1).
    East,
    /// ↓ along a column (step 11).
    South,
    /// ↘ diagonal (step 12).
    SouthEast,
    /// ↙ anti-diagonal (step 10).
    SouthWest,
}

impl Dir {
    /// The four directions.
    pub const ALL: [Dir; 4] = [Dir::East, Dir::South, Dir::SouthEast, Dir::SouthWest];

    /// Step between neighbouring spaces, in bit indices.
    #[inline]
    pub const fn step(self) -> u8 {
        match self {
            Dir::East => 1,
            Dir::South => STRIDE,
            Dir::SouthEast => STRIDE + 1,
            Dir::SouthWest => STRIDE - 1,
        }
    }

    /// (row, column) change of one step.
    pub const fn delta(self) -> (i8, i8) {
        match self {
            Dir::East => (0, 1),
            Dir::South => (1, 0),
            Dir::SouthEast => (1, 1),
            Dir::SouthWest => (1, -1),
        }
    }

    #[inline]
    pub(crate) const fn index(self) -> usize {
        self as usize
    }

    /// The direction of index `i` (of [`Dir::ALL`]), `i` below 4.
    #[inline]
    pub(crate) const fn from_index(i: usize) -> Dir {
        match i & 3 {
            0 => Dir::East,
            1 => Dir::South,
            2 => Dir::SouthEast,
            _ => Dir::SouthWest,
        }
    }
}

/// `WINDOW_MASKS[len - 4][dir][start]`: the spaces on the board of the
/// window of `len` spaces (C8: 5, or 4 by the house rule of C11) from the
/// space with bit index `start` in direction `dir` (index of [`Dir::ALL`]).
/// Computed at compile time.
static WINDOW_MASKS: [[[u128; 110]; 4]; 2] = {
    let mut t = [[[0u128; 110]; 4]; 2];
    let mut l = 0;
    while l < 2 {
        let len = l as i32 + 4;
        let mut d = 0;
        while d < 4 {
            let (dr, dc) = Dir::from_index(d).delta();
            let mut start = 0;
            while start < 110 {
                let (r0, c0) = ((start / 11) as i32, (start % 11) as i32);
                let mut m = 0u128;
                if c0 < 10 {
                    let mut i = 0;
                    while i < len {
                        let (r, c) = (r0 + dr as i32 * i, c0 + dc as i32 * i);
                        if r >= 0 && r < 10 && c >= 0 && c < 10 {
                            m |= 1u128 << (r * 11 + c);
                        }
                        i += 1;
                    }
                }
                t[l][d][start] = m;
                start += 1;
            }
            d += 1;
        }
        l += 1;
    }
    t
};

/// A run of `len` spaces starting at `start` (its space first in reading
/// order) and going in `dir`. `len` is the table's sequence length.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Window {
    /// First space in reading order.
    pub start: Space,
    /// Direction from `start`.
    pub dir: Dir,
}

impl Window {
    /// The `i`-th space from `start`, if on the board.
    fn at(self, i: u8) -> Option<Space> {
        let (dr, dc) = self.dir.delta();
        let r = self.start.row() as i16 + dr as i16 * i as i16;
        let c = self.start.col() as i16 + dc as i16 * i as i16;
        if (0..10).contains(&r) && (0..10).contains(&c) {
            Space::new(r as u8, c as u8)
        } else {
            None
        }
    }

    /// A window of `len` spaces, if it fits on the board.
    pub fn new(start: Space, dir: Dir, len: u8) -> Option<Window> {
        let w = Window { start, dir };
        w.at(len - 1).map(|_| w)
    }

    /// Its `len` spaces as a mask (those on the board). A table lookup
    /// for the lengths of C8 and C11 (5 and 4).
    #[inline]
    pub fn mask(self, len: u8) -> Bitboard {
        match len {
            4 | 5 => Bitboard(
                WINDOW_MASKS[(len - 4) as usize][self.dir.index()][self.start.bit() as usize],
            ),
            _ => (0..len)
                .filter_map(|i| self.at(i))
                .fold(Bitboard::EMPTY, |b, s| b.with(s)),
        }
    }

    /// Its last space.
    pub fn last(self, len: u8) -> Space {
        self.at(len - 1).unwrap_or(self.start)
    }

    /// The window from two end spaces in either order, of length `len`.
    ///
    /// # Errors
    /// [`NotALine`] when the two spaces are not the ends of a straight run
    /// of `len` spaces.
    pub fn from_ends(a: Space, b: Space, len: u8) -> Result<Window, NotALine> {
        let (a, b) = if a.bit() <= b.bit() { (a, b) } else { (b, a) };
        let dr = b.row() as i16 - a.row() as i16;
        let dc = b.col() as i16 - a.col() as i16;
        let n = len as i16 - 1;
        let dir = match (dr, dc) {
            (0, d) if d == n => Dir::East,
            (d, 0) if d == n => Dir::South,
            (d, e) if d == n && e == n => Dir::SouthEast,
            (d, e) if d == n && e == -n => Dir::SouthWest,
            _ => return Err(NotALine { a, b, len }),
        };
        Ok(Window { start: a, dir })
    }
}

/// Two spaces that are not the ends of a straight line of a sequence's
/// length (C8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{a} and {b} are not the ends of a line of {len} spaces")]
pub struct NotALine {
    /// One end named.
    pub a: Space,
    /// The other end named.
    pub b: Space,
    /// The table's sequence length.
    pub len: u8,
}

/// Why a placement's declaration of sequences (C8a) is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum DeclarationError {
    /// A declared window is not a new sequence through the placed chip that
    /// may count (C8).
    #[error("declared sequence {first}-{last} is not a new sequence through the placed chip that may count (C8)")]
    NotNew {
        /// Its first space.
        first: Space,
        /// Its last space.
        last: Space,
    },
    /// Two declared windows share more than one space (C8).
    #[error("declared sequences {}-{} and {}-{} share more than one space (C8)", .a.0, .a.1, .b.0, .b.1)]
    Overlap {
        /// The first window's ends.
        a: (Space, Space),
        /// The second window's ends.
        b: (Space, Space),
    },
    /// The declaration names fewer or more sequences than the most the move
    /// makes (C8a).
    #[error("declaration names {named} sequence(s), the move makes {most} (C8a)")]
    Count {
        /// Sequences named.
        named: usize,
        /// The most the move makes.
        most: u8,
    },
}

impl DeclarationError {
    /// The stable code: `C8.not_new`, `C8.overlap`, `C8a.count`.
    pub fn code(&self) -> &'static str {
        match self {
            DeclarationError::NotNew { .. } => "C8.not_new",
            DeclarationError::Overlap { .. } => "C8.overlap",
            DeclarationError::Count { .. } => "C8a.count",
        }
    }
}

impl fmt::Debug for Window {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{:?}", self.start, self.dir)
    }
}

/// A completed sequence: its window and its mask.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Sequence {
    /// The window.
    pub window: Window,
    /// Its spaces.
    pub mask: Bitboard,
}

/// The windows through one placed chip, per direction: which are complete,
/// and the most that may count together (C8).
#[derive(Copy, Clone, Debug, Default)]
pub struct Completions {
    /// Per direction: complete windows through the chip that share at most
    /// one space with each of the team's sequences, in reading order of
    /// their first space (at most 5 each).
    cands: [[Option<Window>; 5]; 4],
    /// Per direction: the most windows that may count together (0, 1, 2).
    best: [u8; 4],
    /// Per direction: whether the two-window pair is the best choice.
    pair: [Option<(Window, Window)>; 4],
}

impl Completions {
    /// Finds the complete windows through `p` in `own` (the team's chips
    /// with `p` placed, plus the corners), given the team's existing
    /// sequences `existing`.
    #[inline]
    pub fn find(own: Bitboard, p: Space, len: u8, existing: &[Sequence]) -> Completions {
        Completions::find_with(own, p, len, |m| {
            existing.iter().all(|e| (e.mask.0 & m).count_ones() <= 1)
        })
    }

    /// As [`Completions::find`], with `ok(mask)` saying whether a window of
    /// that mask shares at most one space with each of the team's
    /// sequences (C8). No allocation.
    #[inline]
    pub(crate) fn find_with(
        own: Bitboard,
        p: Space,
        len: u8,
        ok: impl Fn(u128) -> bool,
    ) -> Completions {
        let mut out = Completions::default();
        for dir in Dir::ALL {
            let s = dir.step();
            // Walk back and forward over `own`: gap bits stop the walk.
            let mut nb = 0u8;
            let mut q = p.bit();
            while nb < len - 1 && q >= s && own.0 >> (q - s) & 1 != 0 {
                q -= s;
                nb += 1;
            }
            let mut nf = 0u8;
            let mut q = p.bit();
            while nf < len - 1 && q + s < 110 && own.0 >> (q + s) & 1 != 0 {
                q += s;
                nf += 1;
            }
            if nb + nf + 1 < len {
                continue;
            }
            out.fill_dir(dir, p, len, nb, nf, &ok);
        }
        out
    }

    fn fill_dir(
        &mut self,
        dir: Dir,
        p: Space,
        len: u8,
        nb: u8,
        nf: u8,
        ok_mask: &impl Fn(u128) -> bool,
    ) {
        let s = dir.step();
        let d = dir.index();
        let ok = |w: Window| ok_mask(w.mask(len).0);
        // Starts at p - k*s for k from nb down to 0, kept when the window
        // still reaches len spaces within the run.
        let mut i = 0;
        for k in (0..=nb).rev() {
            if k > len - 1 || (len - 1 - k) > nf {
                continue;
            }
            let Some(start) = Space::from_bit(p.bit() - k * s) else {
                continue;
            };
            let w = Window { start, dir };
            if ok(w) {
                self.cands[d][i] = Some(w);
                i += 1;
            }
        }
        if i > 0 {
            self.best[d] = 1;
        }
        // The pair: ends at p and starts at p.
        if nb >= len - 1 && nf >= len - 1 {
            let a = Space::from_bit(p.bit() - (len - 1) * s).map(|start| Window { start, dir });
            let b = Window { start: p, dir };
            if let Some(a) = a {
                if ok(a) && ok(b) {
                    self.best[d] = 2;
                    self.pair[d] = Some((a, b));
                }
            }
        }
    }

    /// The most sequences the move can make (C8a).
    pub fn most(&self) -> u8 {
        self.best.iter().sum()
    }

    /// Whether any sequence is made.
    #[inline]
    pub fn any(&self) -> bool {
        self.best != [0; 4]
    }

    /// The windows taken when the move names none (C8a): per direction the
    /// most, choosing the first (or last) window in reading order.
    pub fn default_choice(&self, last: bool) -> impl Iterator<Item = Window> {
        let (ws, n) = self.default_windows(last);
        ws.into_iter().take(n)
    }

    /// [`Completions::default_choice`] as a fixed array and its length (no
    /// allocation, no iterator chain: the playout path).
    #[inline]
    pub(crate) fn default_windows(&self, last: bool) -> ([Window; 8], usize) {
        let mut out = [Window {
            start: Space::from_bit(0).unwrap_or_else(|| unreachable!("a1 is a space")),
            dir: Dir::East,
        }; 8];
        let mut n = 0;
        for d in 0..4 {
            match self.best[d] {
                2 => {
                    if let Some((a, b)) = self.pair[d] {
                        out[n] = a;
                        out[n + 1] = b;
                        n += 2;
                    }
                }
                1 => {
                    let c = self.cands[d].iter().flatten();
                    let w = if last {
                        c.last().copied()
                    } else {
                        c.copied().next()
                    };
                    if let Some(w) = w {
                        out[n] = w;
                        n += 1;
                    }
                }
                _ => {}
            }
        }
        (out, n)
    }

    /// Every choice of windows that makes the most sequences (for bots and
    /// UIs offering the choice of C8a). Each choice lists its windows.
    pub fn all_choices(&self) -> Vec<Vec<Window>> {
        let mut out: Vec<Vec<Window>> = vec![vec![]];
        for d in 0..4 {
            let opts: Vec<Vec<Window>> = match self.best[d] {
                2 => self.pair[d]
                    .map(|(a, b)| vec![vec![a, b]])
                    .unwrap_or_default(),
                1 => self.cands[d].iter().flatten().map(|w| vec![*w]).collect(),
                _ => continue,
            };
            out = out
                .iter()
                .flat_map(|pre| {
                    opts.iter().map(move |o| {
                        let mut v = pre.clone();
                        v.extend(o);
                        v
                    })
                })
                .collect();
        }
        out
    }

    /// Checks a declared set of windows (C8, C8a): each complete through
    /// the chip, sharing at most one space with the team's sequences and
    /// with each other, and as many as the most the move can make.
    ///
    /// # Errors
    /// [`DeclarationError`] naming the rule.
    pub fn check_declared(&self, declared: &[Window], len: u8) -> Result<(), DeclarationError> {
        for (i, w) in declared.iter().enumerate() {
            let d = w.dir.index();
            let is_cand = self.cands[d].iter().flatten().any(|c| c == w)
                || self.pair[d].is_some_and(|(a, b)| a == *w || b == *w);
            if !is_cand {
                return Err(DeclarationError::NotNew {
                    first: w.start,
                    last: w.last(len),
                });
            }
            for o in &declared[..i] {
                if (o.mask(len) & w.mask(len)).count() > 1 {
                    return Err(DeclarationError::Overlap {
                        a: (o.start, o.last(len)),
                        b: (w.start, w.last(len)),
                    });
                }
            }
        }
        let most = self.most();
        if declared.len() != most as usize {
            return Err(DeclarationError::Count {
                named: declared.len(),
                most,
            });
        }
        Ok(())
    }
}

/// Whether a run of `len` chips of `own` (team chips plus corners) passes
/// through `at`, in any direction. `star` holds the spaces within `len-1`
/// steps of `at` along the four lines: with fewer than `len-1` own chips
/// there, no run is possible (the usual case, one popcount). Otherwise
/// branch-free shifts find runs (ENGINE-NOTES.md).
#[inline]
pub(crate) fn is_sequence_possible(own: Bitboard, at: Space, len: u8, star: &[u128; 4]) -> bool {
    let need = len as u32 - 1;
    let x = own.0;
    let bit = 1u128 << at.bit();
    // Constant shifts per direction: 1 (→), 11 (↓), 12 (↘), 10 (↙).
    macro_rules! dir {
        ($k:expr, $s:expr) => {{
            if (x & star[$k]).count_ones() >= need {
                let covered = if len == 5 {
                    runs_cover::<5, $s>(x)
                } else {
                    runs_cover::<4, $s>(x)
                };
                if covered & bit != 0 {
                    return true;
                }
            }
        }};
    }
    dir!(0, 1);
    dir!(1, 11);
    dir!(2, 12);
    dir!(3, 10);
    false
}

/// The spaces covered by runs of `L` set bits of `x` in steps of `S`.
#[inline]
fn runs_cover<const L: u32, const S: u32>(x: u128) -> u128 {
    let mut run = x;
    let mut i = 1;
    while i < L {
        run &= x >> (i * S);
        i += 1;
    }
    let mut cover = run;
    let mut i = 1;
    while i < L {
        cover |= run << (i * S);
        i += 1;
    }
    cover
}

/// Per space and direction, the spaces within `len - 1` steps of it along
/// that line (a run through the space needs `len - 1` own chips there).
pub(crate) fn star_masks(len: u8) -> [[u128; 4]; 110] {
    let mut out = [[0u128; 4]; 110];
    for sq in Space::all() {
        for (k, d) in crate::sequences::Dir::ALL.iter().enumerate() {
            let (dr, dc) = d.delta();
            let mut m = 0u128;
            for step in 1..len as i16 {
                for sign in [-1i16, 1] {
                    let r = sq.row() as i16 + sign * step * dr as i16;
                    let c = sq.col() as i16 + sign * step * dc as i16;
                    if (0..10).contains(&r) && (0..10).contains(&c) {
                        if let Some(t) = Space::new(r as u8, c as u8) {
                            m |= 1u128 << t.bit();
                        }
                    }
                }
            }
            out[sq.bit() as usize][k] = m;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::CORNERS;

    fn sq(s: &str) -> Space {
        s.parse().unwrap()
    }

    fn row_chips(row: u8, cols: std::ops::Range<u8>) -> Bitboard {
        cols.filter_map(|c| Space::new(row, c))
            .fold(Bitboard::EMPTY, |b, s| b.with(s))
    }

    #[test]
    fn c8_window_from_ends_any_order() {
        let w = Window::from_ends(sq("e2"), sq("a6"), 5).unwrap();
        assert_eq!(w.start, sq("e2"));
        assert_eq!(w.dir, Dir::SouthWest);
        assert_eq!(Window::from_ends(sq("a6"), sq("e2"), 5).unwrap(), w);
        assert!(Window::from_ends(sq("a1"), sq("e6"), 5).is_err());
        assert_eq!(w.mask(5).count(), 5);
    }

    #[test]
    fn c8_pair_needs_four_each_side() {
        let own = row_chips(4, 0..9) | CORNERS;
        let c = Completions::find(own, sq("e5"), 5, &[]);
        assert_eq!(c.most(), 2);
        let c = Completions::find(own, sq("a5"), 5, &[]);
        assert_eq!(c.most(), 1);
    }
}
