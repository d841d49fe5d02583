//! Random play for playouts and research: a uniformly random legal move
//! without building a list ([`Game::random_move`]) and whole random games
//! ([`Game::playout`]). No allocation.

use crate::bitboard::Space;
use crate::card::Card;
use crate::game::{Game, MAX_HAND};
use crate::moves::Move;
use crate::options::NoPlay;
use rand::Rng;
use sequence_common::RngReshuffler;

impl Game {
    /// A uniformly random legal move, chosen without building a list: the
    /// moves are counted by popcounts and the n-th is found directly. The
    /// distribution is the same as picking from [`Game::legal_moves`].
    /// `None` once the game is over.
    #[inline]
    pub fn random_move<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Move> {
        if self.is_over() {
            return None;
        }
        let team = self.team_of(self.turn);
        let hand = &self.hands[self.turn.index()];
        let cards = hand.cards();
        // Per distinct card, the number of its moves: a non-jack's two
        // spaces are tested bit by bit; jacks (rare) count whole masks.
        let occ = self.occupied.0;
        let mut counts = [0u32; MAX_HAND];
        let mut dead = [false; MAX_HAND];
        let mut total = 0u32;
        let mut seen = 0u64;
        let mut jack_two = u32::MAX;
        let mut jack_one = u32::MAX;
        for (i, &c) in cards.iter().enumerate() {
            let ci = c.index();
            let fresh = (seen >> ci & 1) ^ 1;
            seen |= 1 << ci;
            let n = if c.is_jack() {
                if c.is_two_eyed_jack() {
                    if jack_two == u32::MAX {
                        jack_two = self.targets_for(c, team).count();
                    }
                    jack_two
                } else {
                    if jack_one == u32::MAX {
                        jack_one = self.targets_for(c, team).count();
                    }
                    jack_one
                }
            } else {
                let n = self.free[ci & 63] as u32;
                let d = n == 0 && fresh == 1 && !self.dead_done;
                dead[i] = d;
                total += d as u32;
                n
            } * fresh as u32;
            counts[i] = n;
            total += n;
        }
        if total == 0 {
            return Some(match self.rules.no_play {
                NoPlay::Discard if !cards.is_empty() => {
                    // Uniform over distinct cards.
                    let mut distinct = [Card::JS; MAX_HAND];
                    let mut k = 0;
                    let mut seen = 0u64;
                    for &c in cards {
                        if seen >> c.index() & 1 == 0 {
                            seen |= 1 << c.index();
                            distinct[k] = c;
                            k += 1;
                        }
                    }
                    Move::Discard {
                        card: distinct[rng.random_range(0..k)],
                    }
                }
                _ => Move::Pass,
            });
        }
        // Multiply-shift range reduction (Lemire); its bias is below 2^-24.
        let mut n = ((rng.next_u32() as u64 * total as u64) >> 32) as u32;
        for (i, &c) in cards.iter().enumerate() {
            if dead[i] {
                if n == 0 {
                    return Some(Move::Dead { card: c });
                }
                n -= 1;
                continue;
            }
            if n < counts[i] {
                if c.is_jack() {
                    let Some(at) = self.targets_for(c, team).nth(n) else {
                        break;
                    };
                    return Some(if c.is_one_eyed_jack() {
                        Move::Remove { card: c, at }
                    } else {
                        Move::place(c, at)
                    });
                }
                let [a, b] = self.rules.card_spaces[c.index()];
                // The n-th empty one of the two spaces, in reading order.
                let a_empty = (occ >> a) & 1 == 0;
                let bit = if n == 0 && a_empty { a } else { b };
                match Space::from_bit(bit) {
                    Some(at) => return Some(Move::place(c, at)),
                    None => break,
                }
            }
            n -= counts[i];
        }
        Some(Move::Pass)
    }

    /// Plays uniformly random legal moves (reshuffling with `rng`, C7)
    /// until the game ends or `max_moves` were played; returns how many
    /// were. No allocation.
    pub fn playout<R: Rng + ?Sized>(&mut self, rng: &mut R, max_moves: u32) -> u32 {
        let mut n = 0;
        while n < max_moves {
            let Some(mv) = self.random_move(rng) else {
                break;
            };
            let seat = self.turn();
            if self.apply(seat, mv, &mut RngReshuffler(&mut *rng)).is_err() {
                break;
            }
            n += 1;
        }
        n
    }
}
