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
}

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

    /// Its `len` spaces as a mask (those on the board): one shift when
    /// the window fits on the board.
    #[inline]
    pub fn mask(self, len: u8) -> Bitboard {
        let (dr, dc) = self.dir.delta();
        let n = len as i16 - 1;
        let r = self.start.row() as i16 + dr as i16 * n;
        let c = self.start.col() as i16 + dc as i16 * n;
        if (1..=5).contains(&len) && (0..10).contains(&r) && (0..10).contains(&c) {
            self.mask_on_board(len)
        } else {
            (0..len)
                .filter_map(|i| self.at(i))
                .fold(Bitboard::EMPTY, |b, s| b.with(s))
        }
    }

    /// [`Window::mask`] of a window known to fit on the board (a completed
    /// sequence, a run of chips), `len` at most 5: the direction's
    /// `len` steps shifted to the start.
    #[inline]
    pub(crate) fn mask_on_board(self, len: u8) -> Bitboard {
        let s = self.dir.step() as u32;
        let mut base = 0u128;
        let mut i = 0;
        while i < len as u32 && i < 5 {
            base |= 1u128 << (i * s);
            i += 1;
        }
        Bitboard(base << (self.start.bit() as u32 & 127))
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

// ----- line boards ------------------------------------------------------------
//
// Besides its chips in the board's own layout, each team keeps four *line
// boards*, one per direction of [`Dir::ALL`]: the same chips (and the
// corners, which count for every team, C8) laid out so that every line of
// that direction (the rows, the columns, the diagonals ↘ and ↙ of at least
// 4 spaces; shorter ones never hold a sequence) is a run of consecutive
// bits of one `u64`, one clear bit between lines, at least 4 clear bits
// before the first line and after the last. A line board is two `u64`
// words (rows 1–5 and 6–10; columns a–e and f–j; diagonals up to and from
// the longest one). The 9 spaces of a line centred on a space are then 9
// consecutive bits of one word, read with one shift, and a table gives the
// run through the centre ([`RUNS`]): whether a placement made a sequence,
// and how long its lines are, costs four shifts and four lookups.

/// Clear bits before the first line of a word.
const LINE_PAD: u8 = 4;

/// Where a space on no line board goes (a space of a diagonal too short
/// for a sequence): a bit of the second word whose 9-bit window is always
/// clear.
const LINE_NOWHERE: u8 = 64 + 60;

/// `LINE_AT[bit][d]`: where the space with bit index `bit` is in the line
/// board of direction `d` (index of [`Dir::ALL`]): `64 × word + bit`, the
/// bit at least 4 and at most 59. Gap bits and bits past the board:
/// [`LINE_NOWHERE`].
pub(crate) static LINE_AT: [[u8; 4]; 128] = {
    let mut t = [[LINE_NOWHERE; 4]; 128];
    let mut r = 0;
    while r < 10 {
        let mut c = 0;
        while c < 10 {
            let b = r * 11 + c;
            // → rows and ↓ columns: five lines of 10 spaces and a gap per
            // word.
            t[b][0] = ((r / 5) * 64 + LINE_PAD as usize + (r % 5) * 11 + c) as u8;
            t[b][1] = ((c / 5) * 64 + LINE_PAD as usize + (c % 5) * 11 + r) as u8;
            // ↘ diagonal k = r - c + 9 and ↙ diagonal k = r + c, each of
            // 10 - |k - 9| spaces, along which the row grows; k = 3 … 9 in
            // the first word, 10 … 15 in the second.
            let ks = [r + 9 - c, r + c];
            let pos = [if r < c { r } else { c }, (r + c).saturating_sub(9)];
            let mut i = 0;
            while i < 2 {
                let k = ks[i];
                if k >= 3 && k <= 15 {
                    let (word, first) = if k <= 9 { (0, 3) } else { (1, 10) };
                    let mut off = LINE_PAD as usize;
                    let mut j = first;
                    while j < k {
                        let l = if j <= 9 { j + 1 } else { 19 - j };
                        off += l + 1;
                        j += 1;
                    }
                    let along = if i == 0 { pos[0] } else { r - pos[1] };
                    t[b][2 + i] = (word * 64 + off + along) as u8;
                }
                i += 1;
            }
            c += 1;
        }
        r += 1;
    }
    t
};

/// `LINE_MASK[bit][d]`: the bit of [`LINE_AT`] in its word (0 for a space
/// on no line board): a value from a table, so that updates are made on
/// the whole word (see `Game::place`).
pub(crate) static LINE_MASK: [[u64; 4]; 128] = {
    let mut t = [[0u64; 4]; 128];
    let mut b = 0;
    while b < 128 {
        let mut d = 0;
        while d < 4 {
            if LINE_AT[b][d] != LINE_NOWHERE {
                t[b][d] = 1u64 << (LINE_AT[b][d] % 64);
            }
            d += 1;
        }
        b += 1;
    }
    t
};

/// One team's four line boards (index of [`Dir::ALL`]), two words each.
pub(crate) type Lines = [[u64; 2]; 4];

/// The four corners in each line board: every team's line boards start
/// from these (a corner counts as a chip of every colour, C8).
pub(crate) const LINE_CORNERS: Lines = {
    let mut t = [[0u64; 2]; 4];
    let corners = [0usize, 9, 99, 108];
    let mut i = 0;
    while i < 4 {
        let mut d = 0;
        while d < 4 {
            let at = LINE_AT[corners[i]][d];
            t[d][(at / 64) as usize] |= LINE_MASK[corners[i]][d];
            d += 1;
        }
        i += 1;
    }
    t
};

/// `RUNS[len - 4][pattern]` for 9 spaces of a line centred on a chip (bit
/// 4 of `pattern`): bits 0–2 the chips just before the centre, bits 3–5
/// just after it (each counted up to `len - 1`), bit 7 set when the run
/// through the centre holds `len` chips (a sequence, C8).
pub(crate) static RUNS: [[u8; 512]; 2] = {
    let mut t = [[0u8; 512]; 2];
    let mut l = 0;
    while l < 2 {
        let len = l + 4;
        let mut p = 0;
        while p < 512 {
            let mut nb = 0;
            while nb < len - 1 && (p >> (3 - nb)) & 1 == 1 {
                nb += 1;
            }
            let mut nf = 0;
            while nf < len - 1 && (p >> (5 + nf)) & 1 == 1 {
                nf += 1;
            }
            let full = if p >> 4 & 1 == 1 && nb + nf + 1 >= len {
                0x80
            } else {
                0
            };
            t[l][p] = (nb | nf << 3 | full) as u8;
            p += 1;
        }
        l += 1;
    }
    t
};

/// Adds a chip on `at` to a team's line boards and returns the [`RUNS`]
/// entries of `at` in each direction of [`Dir::ALL`] (a sequence through
/// `at` when bit 7 is set, [`any_sequence`]). `len` is 4 or 5.
#[inline(always)]
pub(crate) fn add_to_lines(lines: &mut Lines, at: Space, len: u8) -> [u8; 4] {
    let b = at.bit() as usize & 127;
    let runs = &RUNS[(len == 5) as usize];
    let mut out = [0u8; 4];
    for d in 0..4 {
        let pos = LINE_AT[b][d];
        let word = &mut lines[d][(pos >> 6) as usize & 1];
        let w = *word | LINE_MASK[b][d];
        *word = w;
        out[d] = runs[(w >> ((pos & 63) - LINE_PAD)) as usize & 0x1FF];
    }
    out
}

/// The [`RUNS`] entries of `at` (holding a chip) in a team's line boards.
#[inline]
pub(crate) fn line_runs(lines: &Lines, at: Space, len: u8) -> [u8; 4] {
    let b = at.bit() as usize & 127;
    let runs = &RUNS[(len == 5) as usize];
    let mut out = [0u8; 4];
    for d in 0..4 {
        let pos = LINE_AT[b][d];
        let w = lines[d][(pos >> 6) as usize & 1];
        out[d] = runs[(w >> ((pos & 63) - LINE_PAD)) as usize & 0x1FF];
    }
    out
}

/// Takes the chip on `at` off a team's line boards.
#[inline]
pub(crate) fn remove_from_lines(lines: &mut Lines, at: Space) {
    let b = at.bit() as usize & 127;
    for d in 0..4 {
        lines[d][(LINE_AT[b][d] >> 6) as usize & 1] &= !LINE_MASK[b][d];
    }
}

/// Whether a run of `len` chips passes through `at` in any direction (C8):
/// `runs` from [`add_to_lines`] or [`line_runs`].
#[inline(always)]
pub(crate) fn any_sequence(runs: [u8; 4]) -> bool {
    u32::from_le_bytes(runs) & 0x8080_8080 != 0
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

    /// The line boards read the same runs as walking the board (C8): every
    /// space, direction and sequence length over random chip sets.
    #[test]
    fn line_boards_read_the_runs_of_the_board() {
        use rand::Rng;
        let mut rng = sequence_common::rng::playout_rng(3);
        for _ in 0..300 {
            let mut own = CORNERS.0;
            let mut lines = LINE_CORNERS;
            for sq in Space::all() {
                if rng.random_bool(0.55) && !sq.is_corner() {
                    own |= sq.bb().0;
                    add_to_lines(&mut lines, sq, 5);
                }
            }
            for len in [4u8, 5] {
                for at in Space::all() {
                    let here = own | at.bb().0;
                    let mut ls = lines;
                    let runs = add_to_lines(&mut ls, at, len);
                    assert_eq!(runs, line_runs(&ls, at, len));
                    if own & at.bb().0 == 0 {
                        remove_from_lines(&mut ls, at);
                        assert_eq!(ls, lines, "{at}");
                    }
                    for (d, dir) in Dir::ALL.into_iter().enumerate() {
                        let s = dir.step();
                        let (mut nb, mut q) = (0u8, at.bit());
                        while nb < len - 1 && q >= s && here >> (q - s) & 1 != 0 {
                            q -= s;
                            nb += 1;
                        }
                        let (mut nf, mut q) = (0u8, at.bit());
                        while nf < len - 1 && q + s < 110 && here >> (q + s) & 1 != 0 {
                            q += s;
                            nf += 1;
                        }
                        let full = nb + nf + 1 >= len;
                        assert_eq!(runs[d] & 0x80 != 0, full, "{at} {dir:?}");
                        if full {
                            assert_eq!(runs[d] & 7, nb, "{at} {dir:?}");
                            assert_eq!(runs[d] >> 3 & 7, nf, "{at} {dir:?}");
                        }
                    }
                }
            }
        }
    }

    /// A window's mask holds its spaces on the board, by one shift when
    /// it fits (C8).
    #[test]
    fn window_masks_hold_the_spaces_on_the_board() {
        for len in [4u8, 5] {
            for start in Space::all() {
                for dir in Dir::ALL {
                    let w = Window { start, dir };
                    let want = (0..len)
                        .filter_map(|i| w.at(i))
                        .fold(Bitboard::EMPTY, |b, s| b.with(s));
                    assert_eq!(w.mask(len), want, "{w:?}");
                    if Window::new(start, dir, len).is_some() {
                        assert_eq!(w.mask_on_board(len), want, "{w:?}");
                        assert_eq!(want.count(), len as u32);
                    }
                }
            }
        }
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
