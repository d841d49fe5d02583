//! Random play for playouts and research: a uniformly random legal move
//! in constant time, without building a list ([`Game::random_move`]), and
//! whole random games ([`Game::playout`]). No allocation.
//!
//! The moves are counted by popcounts over bitsets the game keeps up to
//! date as it is played: the distinct cards of each hand and the spaces
//! they show ([`crate::game::Hand`]), and the cards with one or two empty
//! spaces (`free`: per card whether its first, its second space is empty;
//! a non-jack with neither is dead, C6). The seat
//! to move has
//! - one placement per empty space its natural cards show (C6 step 2; a
//!   space shows one card, two copies of a card give one set of moves),
//! - per two-eyed jack, one per empty space; per one-eyed jack, one per
//!   removable opponent chip (C6, C8),
//! - one exchange per dead card unless it already made one this turn (C6
//!   step 1),
//! - and only when it has no play at all, a pass or (option `no_play:
//!   "discard"`) one discard per distinct card (C6a),
//!
//! exactly the moves [`Game::legal_moves`] lists ([`MoveCounts`]). A
//! uniform index below that count (exact, by rejection:
//! [`sequence_common::rng::below`]) is mapped to its move by selecting the
//! n-th set bit of the right bitset ([`Game::nth_move`]); every index
//! gives a different legal move, so the choice is exactly uniform.

use crate::bitboard::{Bitboard, Space, BOARD, CORNERS};
use crate::card::Card;
use crate::game::{Game, ONE_EYED, TWO_EYED};
use crate::moves::Move;
use crate::options::NoPlay;
use rand::Rng;
use sequence_common::rng::{below, Halves};
use sequence_common::FastReshuffler;

/// The card of the `n`-th set bit (0-based, `n` below the popcount) of
/// `m`, a set of card indices.
#[inline]
fn nth_card(mut m: u64, n: u32) -> Card {
    for _ in 0..n {
        m &= m.wrapping_sub(1);
    }
    Card::from_code_byte(m.trailing_zeros() as u8 & 63)
}

/// The legal moves of the seat to move, counted by kind (see the module
/// docs). Index order: placements of natural cards by space in reading
/// order, dead-card exchanges, two-eyed jacks, one-eyed jacks; when there
/// is no play, the dead-card exchanges and then the stuck moves.
#[derive(Copy, Clone, Debug)]
pub(crate) struct MoveCounts {
    /// The empty spaces of the hand's natural cards: one placement each
    /// (a space shows one card).
    natural: u128,
    /// Dead cards of the hand that may be exchanged now (C6).
    dead: u64,
    /// Whether the hand holds a jack (the slower count).
    jacks: bool,
    /// Moves in all.
    total: u32,
}

impl Game {
    /// The legal moves of the seat to move, counted (the game must not be
    /// over).
    #[inline(always)]
    pub(crate) fn move_counts(&self) -> MoveCounts {
        let hand = &self.hands[self.turn.index()];
        let kinds = hand.kinds();
        let natural = hand.spaces & !self.occupied.0;
        // No dead card may be exchanged twice in a turn (C6).
        let allowed = (self.dead_done as u64).wrapping_sub(1);
        let dead = kinds & self.dead_cards() & allowed;
        let jacks = kinds & (TWO_EYED | ONE_EYED) != 0;
        let mut plays = natural.count_ones();
        if jacks {
            plays += self.jack_moves(kinds);
        }
        let total = dead.count_ones()
            + if plays == 0 {
                self.stuck_moves()
            } else {
                plays
            };
        MoveCounts {
            natural,
            dead,
            jacks,
            total,
        }
    }

    /// Plays of the jacks in `kinds` (C6).
    #[inline]
    fn jack_moves(&self, kinds: u64) -> u32 {
        (kinds & TWO_EYED).count_ones() * self.empty_count()
            + (kinds & ONE_EYED).count_ones() * self.removable(self.team_of(self.turn)).count()
    }

    /// Moves of a seat with no play (C6a): the pass, or with the option
    /// `no_play: "discard"` a discard per distinct card.
    #[cold]
    fn stuck_moves(&self) -> u32 {
        let kinds = self.hands[self.turn.index()].kinds();
        if self.rules.no_play == NoPlay::Discard && kinds != 0 {
            kinds.count_ones()
        } else {
            1
        }
    }

    /// The placement of a natural card of index `r` (below the popcount of
    /// `c.natural`): the `r`-th empty space of the hand's cards and the
    /// card it shows.
    #[inline(always)]
    fn nth_natural(&self, c: &MoveCounts, r: u32) -> (Card, Space) {
        let at = Bitboard(c.natural).nth_unchecked(r);
        (self.rules.space_card[at.bit() as usize & 127], at)
    }

    /// The legal move of index `r` (below `c.total`) in the order of
    /// [`MoveCounts`]: every index a different legal move.
    #[inline]
    pub(crate) fn nth_move(&self, c: &MoveCounts, r: u32) -> Move {
        let n = c.natural.count_ones();
        if r < n {
            let (card, at) = self.nth_natural(c, r);
            return Move::place(card, at);
        }
        let r = r - n;
        let nd = c.dead.count_ones();
        if r < nd {
            return Move::Dead {
                card: nth_card(c.dead, r),
            };
        }
        self.nth_rare_move(c, r - nd)
    }

    /// [`Game::nth_move`] past the natural cards and dead-card exchanges:
    /// the jacks' plays, else the stuck moves.
    #[inline(never)]
    fn nth_rare_move(&self, c: &MoveCounts, mut r: u32) -> Move {
        let kinds = self.hands[self.turn.index()].kinds();
        if c.jacks {
            // Each jack of a kind has the same targets: index r picks the
            // jack (r / targets, at most 1: two copies of a card, C1) and
            // its target (r % targets), without a division.
            let empty = Bitboard(BOARD.0 & !self.occupied.0 & !CORNERS.0);
            let twos = kinds & TWO_EYED;
            let ne = empty.count();
            let nj2 = twos.count_ones() * ne;
            if r < nj2 {
                let second = r >= ne;
                let r = if second { r - ne } else { r };
                return Move::place(nth_card(twos, second as u32), empty.nth_unchecked(r));
            }
            r -= nj2;
            let removable = self.removable(self.team_of(self.turn));
            let ones = kinds & ONE_EYED;
            let nr = removable.count();
            let nj1 = ones.count_ones() * nr;
            if r < nj1 {
                let second = r >= nr;
                let r = if second { r - nr } else { r };
                return Move::Remove {
                    card: nth_card(ones, second as u32),
                    at: removable.nth_unchecked(r),
                };
            }
            r -= nj1;
            if c.natural != 0 || nj2 != 0 || nj1 != 0 {
                // Past the last play (an index out of range).
                return Move::Pass;
            }
        }
        if self.rules.no_play == NoPlay::Discard && kinds != 0 {
            Move::Discard {
                card: nth_card(kinds, r),
            }
        } else {
            Move::Pass
        }
    }

    /// A uniformly random legal move of the seat to move: exactly the
    /// distribution of picking uniformly from [`Game::legal_moves`], found
    /// in constant time without building a list (see the module docs).
    /// `None` once the game is over.
    #[inline]
    pub fn random_move<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Move> {
        if self.is_over() {
            return None;
        }
        let c = self.move_counts();
        Some(self.nth_move(&c, below(rng, c.total)))
    }

    /// Plays uniformly random legal moves (reshuffling with `rng` by the
    /// fast shuffle, C7) until the game ends or `max_moves` were played;
    /// returns how many were. No allocation. A placement of a natural card
    /// (most moves) goes straight from its index to [`Game::place`]
    /// without a [`Move`] in between.
    pub fn playout<R: Rng + ?Sized>(&mut self, rng: &mut R, max_moves: u32) -> u32 {
        // Two choices per 64-bit draw.
        let rng = &mut Halves::new(rng);
        let mut n = 0;
        while n < max_moves && !self.is_over() {
            let c = self.move_counts();
            let r = below(rng, c.total);
            if r < c.natural.count_ones() && self.draw_len > 0 {
                let (card, at) = self.nth_natural(&c, r);
                self.place(card, at, None);
            } else {
                let mv = self.nth_move(&c, r);
                let seat = self.turn;
                if self
                    .apply(seat, mv, &mut FastReshuffler(&mut *rng))
                    .is_err()
                {
                    break;
                }
            }
            n += 1;
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use crate::moves::MoveList;
    use crate::options::{NoPlay, Options};
    use crate::{Config, Game, Move, RngReshuffler};
    use std::collections::HashSet;

    /// Every index below the count gives a different legal move and every
    /// legal move has an index: with [`sequence_common::rng::below`]
    /// exactly uniform, [`Game::random_move`] is exactly uniform over
    /// [`Game::legal_moves`] (C6, C6a). Checked in every position of random
    /// games of several tables and options (jacks, dead cards, stuck
    /// seats, removable sequences).
    #[test]
    fn move_indices_are_a_bijection_onto_the_legal_moves() {
        let tables: [(u8, Options); 5] = [
            (2, Options::default()),
            (3, Options::default()),
            (4, Options::default()),
            (
                2,
                Options {
                    no_play: NoPlay::Discard,
                    removable_sequences: true,
                    ..Options::default()
                },
            ),
            (
                3,
                Options {
                    no_play: NoPlay::Discard,
                    sequence_length: Some(4),
                    ..Options::default()
                },
            ),
        ];
        let mut rng = sequence_common::rng::playout_rng(11);
        let mut list = MoveList::new();
        let (mut positions, mut stuck, mut jacks, mut dead) = (0, 0, 0, 0);
        for (players, options) in tables {
            let config = Config::new(players, None, options).expect("a valid table");
            for _ in 0..60 {
                let (mut g, _) = Game::deal(config.clone(), &mut rng);
                for _ in 0..400 {
                    let Some(mv) = g.random_move(&mut rng) else {
                        break;
                    };
                    g.legal_moves(&mut list);
                    let c = g.move_counts();
                    assert_eq!(c.total as usize, list.len(), "{g:?}");
                    let got: HashSet<Move> = (0..c.total).map(|r| g.nth_move(&c, r)).collect();
                    let want: HashSet<Move> = list.iter().copied().collect();
                    assert_eq!(got.len(), list.len(), "an index repeats a move");
                    assert_eq!(got, want);
                    positions += 1;
                    stuck += usize::from(!g.has_play());
                    jacks += usize::from(c.jacks);
                    dead += usize::from(c.dead != 0);
                    g.apply(g.turn(), mv, &mut RngReshuffler(&mut rng))
                        .expect("legal");
                }
            }
        }
        assert!(
            positions > 20_000 && stuck > 1_000 && jacks > 3_000 && dead > 3_000,
            "{positions} positions, {stuck} stuck, {jacks} with jacks, {dead} with dead cards"
        );
    }
}
