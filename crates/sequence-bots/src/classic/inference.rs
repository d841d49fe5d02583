//! Inference about the hand of the seat that moved last, for the search's
//! determinizations.
//!
//! A seat that leaves a four of ours unblocked most likely holds no card
//! that blocks it. Deals of the unseen cards are weighted accordingly: the
//! last move of the seat before ours is scored on the board as it was with
//! the heuristic ([`Heuristic::place_value`] / [`Heuristic::remove_value`],
//! jacks at their cost), and so is the best move each card could have made
//! there. A determinization whose hand for that seat (the cards now dealt
//! to it, less one at random — the card it drew afterwards — plus the card
//! it played) could have made a move better by `d` points is kept with
//! probability `exp(-d / T)` ([`TEMPERATURE`]). This is a soft model:
//! players who do not play like the heuristic only make the weighting
//! milder, never impossible (after [`MAX_TRIES`] rejections a deal is kept
//! anyway).

use super::{Heuristic, ONE_EYED_COST, TWO_EYED_COST};
use rand::RngCore;
use sequence_classic::{Bitboard, Card, Game, Move, SeatView, BOARD, CORNERS};

/// Scale of the points a seat may leave on the table, for the acceptance
/// probability `exp(-d / T)`.
pub const TEMPERATURE: f64 = 20.0;

fn temperature() -> f64 {
    static T: std::sync::OnceLock<f64> = std::sync::OnceLock::new();
    *T.get_or_init(|| crate::env_or("SEQUENCE_INFER_TEMPERATURE", TEMPERATURE))
}

/// Deals tried before one is kept whatever its weight.
pub const MAX_TRIES: u32 = 40;

/// What the last opponent move tells about its seat's hand.
#[derive(Clone, Debug)]
pub struct LastMove {
    /// The seat that made it.
    seat: usize,
    /// The card it played.
    played: Card,
    /// The heuristic value of the move it made.
    value: f64,
    /// Per card index, the best value that card could have made instead.
    best: [f64; 52],
}

impl LastMove {
    /// Reads the view's last move; `None` when it tells nothing usable (no
    /// move yet, a move of our own team, a pass, or a removal with more
    /// than two teams, where whose chip went back is not known).
    pub fn read(view: &SeatView) -> Option<LastMove> {
        let (seat, mv) = view.last_move()?;
        let cfg = view.config();
        let mover = view.team_of(seat);
        if mover == view.team() {
            return None;
        }
        let mut h = Heuristic::from_view(view);
        let len = view.config().sequence_length();
        if let Move::Place { at, .. } = mv {
            // Sequences this placement made were not there before it.
            let t = mover.index() % 3;
            h.locked[t] = 0;
            h.seq_count[t] = 0;
            for (team, w) in view.sequences() {
                if team == mover && !w.mask(len).contains(at) {
                    h.locked[t] |= w.mask(len).0 & !CORNERS.0;
                    h.seq_count[t] += 1;
                }
            }
        }
        let (played, at) = match mv {
            Move::Place { card, at, .. } => {
                // The board before: that chip not yet there.
                h.chips[mover.index() % 3] &= !at.bb().0;
                h.occupied &= !at.bb().0;
                (card, at)
            }
            Move::Remove { card, at } => {
                if cfg.teams() != 2 {
                    return None;
                }
                let victim = 1 - mover.index();
                h.chips[victim] |= at.bb().0;
                h.occupied |= at.bb().0;
                (card, at)
            }
            _ => return None,
        };
        let layout = view.config().layout();
        let empty = BOARD.0 & !h.occupied & !CORNERS.0;
        let value = match mv {
            Move::Remove { .. } => h.remove_value(mover, at) - ONE_EYED_COST,
            _ if played.is_jack() => h.place_value(mover, at) - TWO_EYED_COST,
            _ => h.place_value(mover, at),
        };
        let mut best = [f64::NEG_INFINITY; 52];
        let mut two = f64::NEG_INFINITY;
        for sq in Bitboard(empty) {
            two = two.max(h.place_value(mover, sq) - TWO_EYED_COST);
        }
        let opp_chips = h.occupied & !h.chips[mover.index() % 3];
        let mut one = f64::NEG_INFINITY;
        for sq in Bitboard(opp_chips & !(h.locked[0] | h.locked[1] | h.locked[2]) & !CORNERS.0) {
            one = one.max(h.remove_value(mover, sq) - ONE_EYED_COST);
        }
        for c in Card::all() {
            best[c.index()] = if c.is_two_eyed_jack() {
                two
            } else if c.is_one_eyed_jack() {
                one
            } else {
                Bitboard(layout.spaces_of(c).0 & empty)
                    .iter()
                    .map(|sq| h.place_value(mover, sq))
                    .fold(f64::NEG_INFINITY, f64::max)
            };
        }
        Some(LastMove {
            seat: seat.index(),
            played,
            value,
            best,
        })
    }

    /// Probability of keeping the determinization `game` (see the module
    /// docs): the mean over which of the seat's cards it drew after the
    /// move.
    pub fn weight(&self, game: &Game) -> f64 {
        self.weight_of_hand(game.hand(sequence_classic::Seat(self.seat as u8)))
    }

    /// [`LastMove::weight`] of the seat holding `hand` now.
    pub fn weight_of_hand(&self, hand: &[Card]) -> f64 {
        let played = self.best[self.played.index()];
        // The two best cards of the hand (by what they could have made).
        let (mut b1, mut b2) = (f64::NEG_INFINITY, f64::NEG_INFINITY);
        for c in hand {
            let v = self.best[c.index()];
            if v > b1 {
                b2 = b1;
                b1 = v;
            } else if v > b2 {
                b2 = v;
            }
        }
        if hand.is_empty() {
            return 1.0;
        }
        let temp = temperature();
        let w = |best: f64| (-(best.max(played) - self.value).max(0.0) / temp).exp();
        // Drawing the best card leaves the second best; any other card
        // leaves the best.
        let top = hand
            .iter()
            .filter(|c| self.best[c.index()] == b1)
            .count()
            .max(1);
        let n = hand.len() as f64;
        if top == 1 {
            (w(b2) + (n - 1.0) * w(b1)) / n
        } else {
            w(b1)
        }
    }
}

/// A determinization of `view` weighted by `last` (see the module docs).
pub fn determinize<R: RngCore>(view: &SeatView, last: Option<&LastMove>, rng: &mut R) -> Game {
    let Some(last) = last else {
        return view.determinize(rng);
    };
    view.determinize_weighted(
        rng,
        sequence_classic::Seat(last.seat as u8),
        MAX_TRIES,
        |hand, rng| {
            let u = (rng.next_u32() as f64) / 4_294_967_296.0;
            u < last.weight_of_hand(hand)
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classic::greedy_choice;
    use sequence_classic::{Config, Options, RngReshuffler};
    use sequence_common::rng::{game_rng, playout_rng};

    /// Against a heuristic player, the hand it really holds must weigh
    /// clearly more than a random deal of the unseen cards: the weighting
    /// moves the search's deals toward the truth.
    #[test]
    fn the_true_hand_outweighs_random_deals() {
        let cfg = Config::new(2, None, Options::default()).expect("config");
        let (mut truth, mut dealt, mut n) = (0.0, 0.0, 0);
        for seed in 0..6 {
            let mut rng = game_rng(seed);
            let (mut game, _) = Game::deal(cfg.clone(), &mut rng);
            let mut ply = 0;
            while !game.is_over() && ply < 70 {
                let view = game.view(game.turn());
                if ply == 0 {
                    assert!(LastMove::read(&view).is_none(), "no move yet");
                }
                if let Some(last) = LastMove::read(&view) {
                    truth += last.weight(&game);
                    let mut r = playout_rng(ply);
                    for _ in 0..50 {
                        dealt += last.weight(&view.determinize(&mut r)) / 50.0;
                    }
                    n += 1;
                }
                let mv = greedy_choice(&game, &view.legal_moves(), &mut rng);
                game.apply(mv, &mut RngReshuffler(&mut rng)).expect("legal");
                ply += 1;
            }
        }
        let (truth, dealt) = (truth / n as f64, dealt / n as f64);
        assert!(
            truth > 1.5 * dealt,
            "true hands weigh {truth:.3} on average, random deals {dealt:.3}"
        );
    }
}
