//! Random play for playouts and research: a uniformly random legal
//! decision counted, not listed ([`Game::random_move`]), and whole random
//! games ([`Game::playout`]). No allocation.
//!
//! The decisions of the seat to act are counted by kind
//! ([`Game::decide`]): in a Block window the pass and, with a Block in
//! hand, the Block (S5b); otherwise the plays of hand cards onto piles (per
//! place, the card it needs and the wild, S3), of the top of the own
//! discard pile (S4), the action cards in hand and on that top with their
//! targets (S5, S5a), one discard per kind in hand and, with an empty hand,
//! the end of the turn (S4). That is exactly what [`Game::legal_moves`]
//! lists; a uniform index below the count (exact, by rejection:
//! [`sequence_common::rng::below`]) is mapped to its decision, every index
//! a different one.

use crate::card::{Card, Colour, Place, MAX_PLACES_PER_COLOUR};
use crate::game::{meets_win, Game, Status, MAX_SEATS};
use crate::moves::{Decision, Decisions, Source};
use rand::Rng;
use sequence_common::rng::Halves;
use sequence_common::{FastReshuffler, Seat};

/// A uniform integer in `0..n` (`n > 0`), exactly:
/// [`sequence_common::rng::below`] (Lemire's multiply-shift with
/// rejection).
#[inline]
pub(crate) fn below<R: Rng + ?Sized>(rng: &mut R, n: u32) -> u32 {
    sequence_common::rng::below(rng, n)
}

/// Decisions of action card `k` (Skip 12, Reverse 13, Steal-a-Card 14,
/// Steal-a-Chip 15) with `card_targets` seats to rob of a card and
/// `chip_targets` (seat, colour) chips to take.
#[inline]
fn action_count(k: usize, card_targets: u32, chip_targets: u32) -> u32 {
    match k {
        12 | 13 => 1,
        14 => card_targets.count_ones(),
        15 => chip_targets.count_ones(),
        _ => 0,
    }
}

/// The `n`-th set bit of `m` (`n` below its popcount).
#[inline]
fn nth_bit(mut m: u32, n: u32) -> u32 {
    for _ in 0..n {
        m &= m - 1;
    }
    m.trailing_zeros()
}

/// The decision of action card `k` played `from` with index `r` among its
/// [`action_count`] decisions; `chip_targets` has bit `t` for a blue chip
/// of seat `t` and bit `8 + t` for a red one.
#[inline]
fn nth_action(k: usize, from: Source, r: u32, card_targets: u32, chip_targets: u32) -> Decision {
    match k {
        12 => Decision::Skip { from },
        13 => Decision::Reverse { from },
        14 => Decision::StealCard {
            from,
            target: Seat(nth_bit(card_targets, r) as u8),
        },
        _ => {
            let b = nth_bit(chip_targets, r);
            Decision::StealChip {
                from,
                target: Seat((b % 8) as u8),
                colour: if b < 8 { Colour::Blue } else { Colour::Red },
            }
        }
    }
}

impl Game {
    /// Counts the decisions of the seat whose turn it is, outside a Block
    /// window (the game must be playing), asks `choose` for an index below
    /// that count, and returns the decision of that index: hand cards onto
    /// piles (per place, the number it needs, then the wild), the discards,
    /// the discard top onto piles, the hand's action cards, the discard
    /// top's action, the end of the turn. Every index a different decision.
    /// All in locals (no list, nothing stored).
    #[inline(always)]
    pub(crate) fn decide(&self, choose: impl FnOnce(u32) -> u32) -> Decision {
        let s = self.turn.index();
        let mask = self.hand_mask[s];
        let ppc = (self.config.options.piles_per_colour as usize).min(MAX_PLACES_PER_COLOUR);
        // Hand cards onto piles: bit 2·place the number the place needs
        // (its length + 1, S3), bit 2·place + 1 the wild of its colour.
        let mut hand_piles = 0u32;
        for colour in 0..2 {
            let nums = mask >> (colour * 6);
            let wild = nums >> 5 & 1;
            for slot in 0..ppc {
                let p = colour * MAX_PLACES_PER_COLOUR + slot;
                let n = self.pile_len[p] as u32;
                hand_piles |= ((nums >> n) & 1 | wild << 1) << (2 * p);
            }
        }
        // The top of the own discard pile (S4): onto piles, or its action.
        let top = self.discard_top(self.turn);
        let mut top_piles = 0u32;
        let mut top_action = 0usize;
        let mut actions = mask & (0b1111 << 12);
        let hand_actions = actions;
        if let Some(top) = top {
            let k = top.index();
            if k < 12 {
                // A number k (index k % 6 = k - 1) fits where the pile holds
                // k - 1 cards; a wild on any pile (S3).
                let first = (k / 6) * MAX_PLACES_PER_COLOUR;
                let wild = k % 6 == 5;
                for slot in 0..ppc {
                    let n = self.pile_len[first + slot] as usize;
                    top_piles |= u32::from(n < 5 && (wild || n == k % 6)) << (first + slot);
                }
            } else {
                top_action = k;
                actions |= 1 << k;
            }
        }
        let (mut card_targets, mut chip_targets) = (0u32, 0u32);
        if actions & (0b11 << 14) != 0 {
            (card_targets, chip_targets) = self.steal_targets(actions);
        }
        let mut total = hand_piles.count_ones() + top_piles.count_ones() + mask.count_ones();
        let mut m = hand_actions;
        while m != 0 {
            total += action_count(m.trailing_zeros() as usize, card_targets, chip_targets);
            m &= m - 1;
        }
        total += action_count(top_action, card_targets, chip_targets);
        total += u32::from(mask == 0);
        let mut r = choose(total);
        // The decision of index r.
        let n = hand_piles.count_ones();
        if r < n {
            let b = nth_bit(hand_piles, r) as usize;
            let place = Place((b / 2) as u8);
            let base = place.colour().index() * 6;
            let card = if b & 1 == 1 {
                Card::from_index(base + 5)
            } else {
                Card::from_index(base + self.pile_len[place.index()] as usize)
            };
            return Decision::Pile {
                card,
                from: Source::Hand,
                place,
            };
        }
        r -= n;
        let n = mask.count_ones();
        if r < n {
            return Decision::Discard {
                card: Card::from_index(nth_bit(mask, r) as usize),
            };
        }
        r -= n;
        let n = top_piles.count_ones();
        if r < n {
            return Decision::Pile {
                card: top.unwrap_or(Card::B1),
                from: Source::Discard,
                place: Place(nth_bit(top_piles, r) as u8),
            };
        }
        r -= n;
        let mut m = hand_actions;
        while m != 0 {
            let k = m.trailing_zeros() as usize;
            m &= m - 1;
            let n = action_count(k, card_targets, chip_targets);
            if r < n {
                return nth_action(k, Source::Hand, r, card_targets, chip_targets);
            }
            r -= n;
        }
        if r < action_count(top_action, card_targets, chip_targets) {
            return nth_action(top_action, Source::Discard, r, card_targets, chip_targets);
        }
        Decision::End
    }

    /// The seats Steal-a-Card may rob (a bit per seat) and the chips
    /// Steal-a-Chip may take (bit `t` blue, `8 + t` red of seat `t`), S5,
    /// S5a, when `actions` (hand and discard top) hold either.
    #[inline(never)]
    fn steal_targets(&self, actions: u32) -> (u32, u32) {
        let others = !(1u32 << self.turn.index());
        let players = (self.config.players as usize).min(MAX_SEATS);
        let (mut cards, mut blue, mut red) = (0u32, 0u32, 0u32);
        for t in 0..players {
            cards |= u32::from(self.discard_len[t] > 0) << t;
            blue |= u32::from(self.chips[t][0] > 0) << t;
            red |= u32::from(self.chips[t][1] > 0) << t;
        }
        let mut chips = 0;
        if actions & (1 << 15) != 0 {
            if self.steal_chip_allowed(self.turn, Colour::Blue) {
                chips |= blue & others;
            }
            if self.steal_chip_allowed(self.turn, Colour::Red) {
                chips |= (red & others) << 8;
            }
        }
        (cards & others, chips)
    }

    /// Whether Steal-a-Chip of `colour` is allowed for `seat` (S5a).
    #[inline]
    pub(crate) fn steal_chip_allowed(&self, seat: Seat, colour: Colour) -> bool {
        if self.config.options.steal_chip_can_win {
            return true;
        }
        let mut c = self.chips[seat.index()];
        c[colour.index()] += 1;
        !meets_win(c)
    }

    /// A uniformly random legal decision of the seat to act: exactly the
    /// distribution of picking uniformly from [`Game::legal_moves`], counted
    /// rather than listed (see the module docs). `None` once the game
    /// ended. No allocation.
    #[inline]
    pub fn random_move<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Decision> {
        if self.status != Status::Playing {
            return None;
        }
        if let Some(w) = self.window {
            // Pass, or Block with one in hand (S5b).
            let block = self.hands[w.offered.index()][Card::Block.index()] > 0;
            return Some(if below(rng, 1 + u32::from(block)) == 0 {
                Decision::Pass
            } else {
                Decision::Block
            });
        }
        Some(self.decide(|total| below(rng, total)))
    }

    /// As [`Game::random_move`] (`scratch` is not needed any more and is
    /// left as it was).
    #[inline]
    pub fn random_with<R: Rng + ?Sized>(
        &self,
        _scratch: &mut Decisions,
        rng: &mut R,
    ) -> Option<Decision> {
        self.random_move(rng)
    }

    /// Plays uniformly random legal decisions (reshuffling with `rng` by
    /// the fast shuffle, S6) until the game ends or `max_decisions` were
    /// played; returns how many were. No allocation.
    pub fn playout<R: Rng + ?Sized>(&mut self, rng: &mut R, max_decisions: u32) -> u32 {
        // Two choices per 64-bit draw.
        let rng = &mut Halves::new(rng);
        let mut n = 0;
        while n < max_decisions {
            let Some(seat) = self.to_act() else { break };
            let Some(d) = self.random_move(rng) else {
                break;
            };
            if self
                .apply_unreported(seat, d, &mut FastReshuffler(&mut *rng))
                .is_err()
            {
                debug_assert!(false, "legal decision {d} refused");
                break;
            }
            n += 1;
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use crate::game::Config;
    use crate::moves::{Decision, Decisions};
    use crate::options::{BlockWindow, Options, Refill, ReshuffleActions};
    use crate::Game;
    use sequence_common::RngReshuffler;
    use std::collections::HashSet;

    /// Every index below the count gives a different legal decision and
    /// every legal decision has an index: with
    /// [`sequence_common::rng::below`] exactly uniform,
    /// [`Game::random_move`] is exactly uniform over [`Game::legal_moves`]
    /// (S3–S5). Checked in every position of random games of every table
    /// size and several options.
    #[test]
    fn decision_indices_are_a_bijection_onto_the_legal_decisions() {
        let options = [
            Options::default(),
            Options {
                piles_per_colour: 1,
                steal_chip_can_win: true,
                ..Options::default()
            },
            Options {
                piles_per_colour: 4,
                refill: Refill::TurnEnd,
                block_window: BlockWindow::NextPlayer,
                reshuffle_actions: ReshuffleActions::Always,
                dead_game_draw: false,
                ..Options::default()
            },
        ];
        let mut rng = sequence_common::rng::playout_rng(17);
        let mut list = Decisions::new();
        let (mut positions, mut steals, mut tops) = (0, 0, 0);
        for players in 2..=6u8 {
            for opts in options {
                let config = Config::new(players, opts).expect("a valid table");
                for _ in 0..6 {
                    let (mut g, _) = Game::deal(config, &mut rng);
                    for _ in 0..600 {
                        let Some(seat) = g.to_act() else { break };
                        g.legal_moves(&mut list);
                        let want: HashSet<Decision> = list.iter().copied().collect();
                        assert_eq!(want.len(), list.len(), "a decision listed twice");
                        if g.window.is_none() {
                            let mut total = 0;
                            g.decide(|n| {
                                total = n;
                                0
                            });
                            assert_eq!(total as usize, list.len(), "{g:?}");
                            let got: HashSet<Decision> =
                                (0..total).map(|r| g.decide(|_| r)).collect();
                            assert_eq!(got, want, "{g:?}");
                            steals += usize::from(list.iter().any(|d| {
                                matches!(d, Decision::StealCard { .. } | Decision::StealChip { .. })
                            }));
                            tops += usize::from(list.iter().any(|d| {
                                matches!(
                                    d,
                                    Decision::Pile {
                                        from: crate::moves::Source::Discard,
                                        ..
                                    }
                                )
                            }));
                            positions += 1;
                        }
                        let d = g.random_move(&mut rng).expect("playing");
                        assert!(want.contains(&d), "{d:?} not in {want:?}");
                        g.apply(seat, d, &mut RngReshuffler(&mut rng))
                            .expect("legal");
                    }
                }
            }
        }
        assert!(
            positions > 15_000 && steals > 1_000 && tops > 1_000,
            "{positions} positions, {steals} with steals, {tops} with the discard top"
        );
    }

    /// The frequencies of random decisions match the list (chi-square over
    /// positions of 4-player games, Block windows included).
    #[test]
    fn random_decisions_are_uniform_over_the_legal_decisions() {
        let config = Config::new(4, Options::default()).expect("a valid table");
        let mut rng = sequence_common::rng::playout_rng(23);
        let mut list = Decisions::new();
        let (mut x, mut df) = (0.0f64, 0usize);
        for _ in 0..20 {
            let (mut g, _) = Game::deal(config, &mut rng);
            let mut ply = 0;
            while let Some(seat) = g.to_act() {
                if ply % 5 == 0 {
                    g.legal_moves(&mut list);
                    let n = list.len();
                    let mut counts = vec![0usize; n];
                    for _ in 0..40 * n {
                        let d = g.random_move(&mut rng).expect("playing");
                        let i = list.iter().position(|&e| e == d).expect("listed");
                        counts[i] += 1;
                    }
                    x += counts
                        .iter()
                        .map(|&k| (k as f64 - 40.0).powi(2) / 40.0)
                        .sum::<f64>();
                    df += n - 1;
                }
                let d = g.random_move(&mut rng).expect("playing");
                g.apply(seat, d, &mut RngReshuffler(&mut rng))
                    .expect("legal");
                ply += 1;
                if ply > 400 {
                    break;
                }
            }
        }
        let z = (x - df as f64) / (2.0 * df as f64).sqrt();
        assert!(df > 2_000, "df {df}");
        assert!(
            z.abs() < 4.0,
            "chi-square {x:.0} on {df} degrees of freedom (z = {z:.2})"
        );
    }
}
