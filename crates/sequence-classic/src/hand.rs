//! A seat's hand of classic Sequence (C4): its cards in order, and the
//! bitsets that make counting moves a few popcounts.

use crate::card::Card;
use crate::game::MAX_HAND;

/// A hand of at most [`MAX_HAND`] cards, in the order a person sees it: a
/// played card leaves a gap that the later cards close up (they keep their
/// order), and a drawn card goes last. Besides the ordered cards it keeps
/// which cards it holds as bitsets (bit = card index) and the spaces its
/// cards show, so that counting moves takes a few popcounts
/// ([`Game::random_move`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Hand {
    pub(crate) cards: [Card; MAX_HAND],
    pub(crate) len: u8,
    /// Cards held at least once.
    pub(crate) kinds: u64,
    /// Cards held twice (both copies of C1).
    pub(crate) twice: u64,
    /// The spaces of the non-jack cards held (C1: two per card), empty or
    /// not: the empty ones are the hand's placements of natural cards (C6).
    pub(crate) spaces: u128,
}

impl Default for Hand {
    fn default() -> Self {
        Hand {
            cards: [Card::JS; MAX_HAND],
            len: 0,
            kinds: 0,
            twice: 0,
            spaces: 0,
        }
    }
}

/// `0x0101…01`: one in every byte lane of a `u64`.
const LANES: u64 = 0x0101_0101_0101_0101;

impl Hand {
    /// The cards.
    #[inline]
    pub fn cards(&self) -> &[Card] {
        &self.cards[..self.len as usize]
    }

    /// Number of cards.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the hand is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether the hand holds `c`.
    #[inline]
    pub fn contains(&self, c: Card) -> bool {
        self.kinds >> c.index() & 1 != 0
    }

    /// The distinct cards held, one bit per card index.
    #[inline]
    pub(crate) fn kinds(&self) -> u64 {
        self.kinds
    }

    /// Adds `c` last; `spaces` are its spaces on the board (none for a
    /// jack).
    #[inline]
    pub(crate) fn push(&mut self, c: Card, spaces: u128) {
        if (self.len as usize) < MAX_HAND {
            self.cards[self.len as usize] = c;
            self.len += 1;
            let bit = 1u64 << (c.index() & 63);
            self.twice |= self.kinds & bit;
            self.kinds |= bit;
            self.spaces |= spaces;
        }
    }

    /// The cards as the 8 byte lanes of a `u64` (lane `i` = `cards[i]`).
    #[inline]
    fn lanes(&self) -> u64 {
        u64::from_le_bytes(self.cards.map(Card::code_byte))
    }

    /// Removes the first copy of `c` (whose spaces on the board are
    /// `spaces`); the later cards move up one place and keep their order.
    /// Branch-free lane arithmetic on a `u64`, no memmove. Returns whether
    /// `c` was held.
    #[inline]
    pub(crate) fn remove(&mut self, c: Card, spaces: u128) -> bool {
        let bit = 1u64 << (c.index() & 63);
        if self.kinds & bit == 0 {
            return false;
        }
        let x = self.lanes();
        // Lanes equal to `c` become zero; the lowest zero lane of `v` is
        // flagged exactly (a borrow only flags lanes above a zero lane).
        let v = x ^ (LANES * c.code_byte() as u64);
        let zero = v.wrapping_sub(LANES) & !v & (LANES << 7);
        let i = zero.trailing_zeros() & !7; // bit offset of the lane
        if i as usize >= 8 * self.len as usize {
            return false;
        }
        let low = x & ((1u64 << i) - 1);
        // `i` is at most 56, so `i + 8` at most 64: shift in two steps.
        let high = (x >> i >> 8) << i;
        self.cards = (low | high).to_le_bytes().map(Card::from_code_byte);
        self.len -= 1;
        let two = self.twice & bit;
        self.twice ^= two;
        self.kinds ^= bit ^ two;
        // The last copy takes its spaces with it.
        let last = ((two == 0) as u128).wrapping_neg();
        self.spaces &= !(spaces & last);
        true
    }
}
