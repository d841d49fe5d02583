//! Random play for playouts and research: a uniformly random legal
//! decision without listing the discards ([`Game::random_move`],
//! [`Game::random_with`]) and whole random games ([`Game::playout`]). No
//! allocation.

use crate::card::Card;
use crate::game::Game;
use crate::moves::{Decision, Decisions};
use rand::Rng;
use sequence_common::RngReshuffler;

/// A uniform integer in `0..n` (`n > 0`): Lemire's multiply-shift with
/// rejection, exact and almost never dividing.
#[inline]
pub(crate) fn below<R: Rng + ?Sized>(rng: &mut R, n: u32) -> u32 {
    let mut m = u64::from(rng.next_u32()) * u64::from(n);
    if (m as u32) < n {
        let t = n.wrapping_neg() % n;
        while (m as u32) < t {
            m = u64::from(rng.next_u32()) * u64::from(n);
        }
    }
    (m >> 32) as u32
}

impl Game {
    /// A uniformly random legal decision of the seat to act (the same
    /// distribution as picking from [`Game::legal_moves`]), or `None` once
    /// the game ended. No allocation.
    pub fn random_move<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Decision> {
        let mut d = Decisions::new();
        self.random_with(&mut d, rng)
    }

    /// As [`Game::random_move`], using `scratch` as working space. The
    /// discards are counted rather than listed: the choice is uniform over
    /// exactly the decisions [`Game::legal_moves`] lists.
    #[inline]
    pub fn random_with<R: Rng + ?Sized>(
        &self,
        scratch: &mut Decisions,
        rng: &mut R,
    ) -> Option<Decision> {
        let mask = self.list_decisions(scratch, false);
        let listed = scratch.len();
        let discards = mask.count_ones() as usize;
        let total = listed + discards;
        if total == 0 {
            return None;
        }
        let r = below(rng, total as u32) as usize;
        if r < listed {
            return Some(scratch[r]);
        }
        let mut m = mask;
        for _ in 0..(r - listed) {
            m &= m - 1;
        }
        Some(Decision::Discard {
            card: Card::from_index(m.trailing_zeros() as usize),
        })
    }

    /// Plays uniformly random legal decisions (reshuffling with `rng`) until
    /// the game ends or `max_decisions` were played; returns how many were.
    /// No allocation.
    pub fn playout<R: Rng + ?Sized>(&mut self, rng: &mut R, max_decisions: u32) -> u32 {
        let mut list = Decisions::new();
        let mut n = 0;
        while n < max_decisions {
            let Some(seat) = self.to_act() else { break };
            let Some(d) = self.random_with(&mut list, rng) else {
                break;
            };
            if self.apply(seat, d, &mut RngReshuffler(&mut *rng)).is_err() {
                debug_assert!(false, "legal decision {d} refused");
                break;
            }
            n += 1;
        }
        n
    }
}
