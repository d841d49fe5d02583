//! Where legal moves are written: a [`MoveSink`] — a fixed-capacity
//! [`MoveList`] (no allocation, for playouts and searches) or a `Vec` the
//! caller reuses.

use std::fmt;

/// Where [`crate::Rules::legal_moves`] writes moves.
pub trait MoveSink<M> {
    /// Removes every move.
    fn clear(&mut self);
    /// Adds a move.
    fn push(&mut self, m: M);
    /// Adds `m` only if `keep` (a fixed list does this without a branch).
    #[inline]
    fn push_if(&mut self, keep: bool, m: M) {
        if keep {
            self.push(m);
        }
    }
    /// Adds every move of `ms`, in order (a `Vec` or a fixed list copies
    /// them at once).
    #[inline]
    fn push_all(&mut self, ms: &[M])
    where
        M: Copy,
    {
        for &m in ms {
            self.push(m);
        }
    }
}

impl<M> MoveSink<M> for Vec<M> {
    #[inline]
    fn clear(&mut self) {
        Vec::clear(self);
    }
    #[inline]
    fn push(&mut self, m: M) {
        Vec::push(self, m);
    }
    #[inline]
    fn push_all(&mut self, ms: &[M])
    where
        M: Copy,
    {
        self.extend_from_slice(ms);
    }
}

/// A list of at most `N` moves in a fixed array (no allocation). A push
/// past `N` is dropped; each engine sizes `N` above the most legal moves
/// any position has. Derefs to a slice.
#[derive(Clone)]
pub struct MoveList<M, const N: usize> {
    items: [M; N],
    len: usize,
}

impl<M: Copy + Default, const N: usize> Default for MoveList<M, N> {
    fn default() -> Self {
        MoveList {
            items: [M::default(); N],
            len: 0,
        }
    }
}

impl<M: Copy + Default, const N: usize> MoveList<M, N> {
    /// An empty list.
    pub fn new() -> Self {
        Self::default()
    }
}

impl<M: Copy, const N: usize> MoveList<M, N> {
    /// The capacity, `N`.
    pub const CAPACITY: usize = N;

    /// Adds a move (dropped past the capacity, which legal play cannot
    /// reach).
    #[inline]
    pub fn push(&mut self, m: M) {
        if self.len < N {
            self.items[self.len] = m;
            self.len += 1;
        }
    }

    /// Writes `m` and keeps it only if `keep` (branch-free on the hot path).
    #[inline]
    pub fn push_if(&mut self, keep: bool, m: M) {
        if self.len < N {
            self.items[self.len] = m;
            self.len += keep as usize;
        }
    }

    /// Removes every move.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[M] {
        &self.items[..self.len]
    }
}

impl<M: Copy, const N: usize> std::ops::Deref for MoveList<M, N> {
    type Target = [M];
    #[inline]
    fn deref(&self) -> &[M] {
        self.as_slice()
    }
}

impl<M: Copy, const N: usize> MoveSink<M> for MoveList<M, N> {
    #[inline]
    fn clear(&mut self) {
        MoveList::clear(self);
    }
    #[inline]
    fn push_all(&mut self, ms: &[M]) {
        let k = ms.len().min(N - self.len);
        self.items[self.len..self.len + k].copy_from_slice(&ms[..k]);
        self.len += k;
    }
    #[inline]
    fn push(&mut self, m: M) {
        MoveList::push(self, m);
    }
    #[inline]
    fn push_if(&mut self, keep: bool, m: M) {
        MoveList::push_if(self, keep, m);
    }
}

impl<M: Copy + fmt::Debug, const N: usize> fmt::Debug for MoveList<M, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a, M: Copy, const N: usize> IntoIterator for &'a MoveList<M, N> {
    type Item = &'a M;
    type IntoIter = std::slice::Iter<'a, M>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_list_drops_and_push_if_keeps_only_when_asked() {
        let mut l: MoveList<u8, 3> = MoveList::new();
        l.push(1);
        l.push_if(false, 9);
        l.push_if(true, 2);
        l.push(3);
        l.push(4);
        assert_eq!(l.as_slice(), &[1, 2, 3]);
        MoveSink::clear(&mut l);
        MoveSink::push_all(&mut l, &[5, 6]);
        MoveSink::push_all(&mut l, &[7, 8]);
        assert_eq!(l.as_slice(), &[5, 6, 7]);
        let mut v: Vec<u8> = vec![1];
        MoveSink::push_all(&mut v, &[2, 3]);
        assert_eq!(v, [1, 2, 3]);
        MoveSink::clear(&mut l);
        assert!(l.is_empty());
    }
}
