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

use super::heuristic::{Heuristic, ONE_EYED_COST, TWO_EYED_COST};
use crate::config::ClassicSearch;
use rand::RngCore;
use sequence_classic::{Bitboard, Card, Game, Layout, Move, SeatView, Team, BOARD, CORNERS};

pub use crate::config::{DEPTH, TEMPERATURE};

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
    /// Scale of the acceptance probability `exp(-d / T)`.
    temperature: f64,
}

impl LastMove {
    /// Reads the view's last move; `None` when it tells nothing usable (no
    /// move yet, a move of our own team, a pass, or a removal with more
    /// than two teams, where whose chip went back is not known).
    /// `temperature` scales the acceptance probability ([`TEMPERATURE`]).
    pub fn read(view: &SeatView, temperature: f64) -> Option<LastMove> {
        let (seat, mv) = view.last_move()?;
        let cfg = view.config();
        let mover = view.team_of(seat);
        if Some(mover) == view.team() {
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
        let mut two = f64::NEG_INFINITY;
        for sq in Bitboard(empty) {
            two = two.max(h.place_value(mover, sq) - TWO_EYED_COST);
        }
        let opp_chips = h.occupied & !h.chips[mover.index() % 3];
        let mut one = f64::NEG_INFINITY;
        for sq in Bitboard(opp_chips & !(h.locked[0] | h.locked[1] | h.locked[2]) & !CORNERS.0) {
            one = one.max(h.remove_value(mover, sq) - ONE_EYED_COST);
        }
        Some(LastMove {
            seat: seat.index(),
            played,
            value,
            best: best_per_card(&h, mover, &layout, empty, [one, two]),
            temperature,
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
        self.weight_after_draws(hand, 1)
    }

    /// The weight of `hand` held now when the seat has drawn `drawn` cards
    /// since this move (1 for its last move, 2 for the one before, …): the
    /// mean over which cards of `hand` were drawn since, of the acceptance
    /// of the best card it still held then. With `drawn` at least the hand
    /// size nothing is known (1).
    pub fn weight_after_draws(&self, hand: &[Card], drawn: usize) -> f64 {
        let n = hand.len();
        if n == 0 || drawn >= n {
            return 1.0;
        }
        // Only the drawn + 1 best values matter: keep them, best first, by
        // insertion (a top-2 scan for the last move, on the search's hot
        // path: every determinization try weighs a hand).
        let top = drawn + 1;
        let mut v = [f64::NEG_INFINITY; 16];
        for c in hand {
            let x = self.best[c.index()];
            let mut i = top.min(v.len());
            while i > 0 && v[i - 1] < x {
                if i < top {
                    v[i] = v[i - 1];
                }
                i -= 1;
            }
            if i < top {
                v[i] = x;
            }
        }
        let played = self.best[self.played.index()];
        let temp = self.temperature;
        let w = |best: f64| (-(best.max(played) - self.value).max(0.0) / temp).exp();
        // The best card still held then is the k-th best (k = 1 …
        // drawn + 1) when the k − 1 better ones were all drawn since and
        // the k-th was not: C(n − k, drawn − k + 1) / C(n, drawn).
        let total = binomial(n, drawn);
        (1..=drawn + 1)
            .map(|k| {
                let best = v.get(k - 1).copied().unwrap_or(f64::NEG_INFINITY);
                binomial(n - k, drawn + 1 - k) / total * w(best)
            })
            .sum()
    }
}

/// `C(n, k)` as a float.
/// Per card (by [`Card::index`]), the value for `team` of the best play
/// the card offers on the board of `h` (the [`Heuristic`] values): a
/// natural card on its best `empty` space (minus infinity when none is
/// empty), a one-eyed jack `jacks[0]` and a two-eyed jack `jacks[1]`
/// (the best such plays, their costs paid).
pub fn best_per_card(
    h: &Heuristic,
    team: Team,
    layout: &Layout,
    empty: u128,
    jacks: [f64; 2],
) -> [f64; 52] {
    let mut best = [f64::NEG_INFINITY; 52];
    for c in Card::all() {
        best[c.index()] = if c.is_two_eyed_jack() {
            jacks[1]
        } else if c.is_one_eyed_jack() {
            jacks[0]
        } else {
            Bitboard(layout.spaces_of(c).0 & empty)
                .iter()
                .map(|sq| h.place_value(team, sq))
                .fold(f64::NEG_INFINITY, f64::max)
        };
    }
    best
}

fn binomial(n: usize, k: usize) -> f64 {
    if k > n {
        return 0.0;
    }
    (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
}

/// The recent moves of the seat before ours, newest first (its last move,
/// then the one before, …), kept by the bot between its turns: a deal's
/// weight is the product of what each tells ([`LastMove::weight_after_draws`]).
#[derive(Clone, Debug)]
pub struct Evidence {
    moves: Vec<LastMove>,
    /// `move_number` of the view the newest was read from.
    ply: u32,
    /// Scale of the acceptance probability ([`TEMPERATURE`]).
    temperature: f64,
    /// Moves kept ([`DEPTH`]).
    depth: usize,
}

impl Default for Evidence {
    fn default() -> Self {
        Evidence::new(&ClassicSearch::default())
    }
}

impl Evidence {
    /// No evidence yet, read with the search's settings
    /// ([`ClassicSearch::infer_temperature`], [`ClassicSearch::infer_depth`]).
    pub fn new(cfg: &ClassicSearch) -> Evidence {
        Evidence {
            moves: Vec::new(),
            ply: 0,
            temperature: cfg.infer_temperature,
            depth: cfg.infer_depth,
        }
    }

    /// Evidence from the view's last move only.
    pub fn of_view(view: &SeatView, cfg: &ClassicSearch) -> Evidence {
        let mut e = Evidence::new(cfg);
        e.moves = LastMove::read(view, cfg.infer_temperature)
            .into_iter()
            .collect();
        e.ply = view.move_number();
        e
    }

    /// Adds the view's last move (a later turn of the same game): kept with
    /// the earlier ones when it is the same seat's next move, else the
    /// evidence starts again from it.
    pub fn update(&mut self, view: &SeatView) {
        // Our own dead-card exchange (C6) tells nothing new.
        if view
            .last_move()
            .is_some_and(|(s, _)| Some(s) == view.seat())
        {
            return;
        }
        let ply = view.move_number();
        let next = LastMove::read(view, self.temperature);
        match next {
            Some(m) if ply > self.ply && self.moves.first().is_some_and(|p| p.seat == m.seat) => {
                self.moves.insert(0, m);
                self.moves.truncate(self.depth.max(1));
            }
            other => self.moves = other.into_iter().collect(),
        }
        self.ply = ply;
    }

    /// The newest move, if any.
    pub fn last(&self) -> Option<&LastMove> {
        self.moves.first()
    }

    /// Weight of the hand `hand` of the evidence's seat (1 without
    /// evidence).
    pub fn weight_of_hand(&self, hand: &[Card]) -> f64 {
        self.moves
            .iter()
            .enumerate()
            .map(|(i, m)| m.weight_after_draws(hand, i + 1))
            .product()
    }
}

/// A determinization of `view` weighted by `evidence` (see the module
/// docs).
pub fn determinize<R: RngCore>(view: &SeatView, evidence: &Evidence, rng: &mut R) -> Game {
    let Some(last) = evidence.last() else {
        return view.determinize(rng);
    };
    view.determinize_weighted(
        rng,
        sequence_classic::Seat(last.seat as u8),
        MAX_TRIES,
        |hand, rng| {
            let u = (rng.next_u32() as f64) / 4_294_967_296.0;
            u < evidence.weight_of_hand(hand)
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classic::greedy::greedy_choice;
    use sequence_classic::{Config, Options, RngReshuffler};
    use sequence_common::rng::{game_rng, playout_rng};

    /// The weight of a hand for an older move: the mean over which cards
    /// were drawn since. With one draw and a unique best card it is
    /// `((n − 1)·w(best) + w(second)) / n`; more draws since only make a
    /// damning card likelier to be new (the weight never falls), and a
    /// whole hand drawn since tells nothing.
    #[test]
    fn older_moves_weigh_less_and_one_draw_averages_over_the_drawn_card() {
        let cfg = Config::new(2, None, Options::default()).expect("config");
        let mut checked = 0;
        for seed in 0..8 {
            let mut rng = game_rng(seed);
            let (mut game, _) = Game::deal(cfg.clone(), &mut rng);
            for ply in 0..40 {
                if game.is_over() {
                    break;
                }
                let view = game.view(game.turn());
                if let Some(last) = LastMove::read(&view, TEMPERATURE) {
                    let hand = game.hand(sequence_classic::Seat(last.seat as u8)).to_vec();
                    let mut prev = 0.0;
                    for drawn in 1..=hand.len() {
                        let w = last.weight_after_draws(&hand, drawn);
                        assert!((0.0..=1.0 + 1e-12).contains(&w), "weight {w}");
                        assert!(w + 1e-12 >= prev, "ply {ply}: {w} after {prev}");
                        prev = w;
                    }
                    assert_eq!(last.weight_after_draws(&hand, hand.len()), 1.0);
                    let mut v: Vec<f64> = hand.iter().map(|c| last.best[c.index()]).collect();
                    v.sort_by(|a, b| b.total_cmp(a));
                    let played = last.best[last.played.index()];
                    let w = |b: f64| (-(b.max(played) - last.value).max(0.0) / TEMPERATURE).exp();
                    let n = hand.len() as f64;
                    let want = ((n - 1.0) * w(v[0]) + w(v[1])) / n;
                    let got = last.weight_of_hand(&hand);
                    assert!((got - want).abs() < 1e-9, "{got} vs {want}");
                    checked += 1;
                }
                let mv = greedy_choice(&game, &view.legal_moves(), &mut rng);
                game.apply(game.turn(), mv, &mut RngReshuffler(&mut rng))
                    .expect("legal");
            }
        }
        assert!(checked > 100, "only {checked} positions checked");
    }

    /// The bot's evidence keeps the same seat's successive moves, newest
    /// first, and starts again in a new game; our own dead-card exchange
    /// does not reset it.
    #[test]
    fn evidence_follows_the_seat_before_ours() {
        let cfg = Config::new(2, None, Options::default()).expect("config");
        let mut rng = game_rng(3);
        let (mut game, _) = Game::deal(cfg.clone(), &mut rng);
        let mut ev = Evidence::default();
        let mut seen = 0;
        for _ in 0..20 {
            let view = game.view(game.turn());
            if game.turn() == sequence_classic::Seat(0) {
                ev.update(&view);
                if let Some(last) = LastMove::read(&view, TEMPERATURE) {
                    seen += 1;
                    let newest = ev.last().expect("evidence");
                    assert_eq!(newest.played, last.played);
                    assert_eq!(ev.moves.len(), seen.min(DEPTH));
                }
            }
            let mv = greedy_choice(&game, &view.legal_moves(), &mut rng);
            game.apply(game.turn(), mv, &mut RngReshuffler(&mut rng))
                .expect("legal");
        }
        assert!(seen >= 5);
        // A new game (move number back to 0): the evidence starts again.
        let (fresh, _) = Game::deal(cfg, &mut rng);
        ev.update(&fresh.view(fresh.turn()));
        assert!(ev.moves.is_empty());
    }

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
                    assert!(LastMove::read(&view, TEMPERATURE).is_none(), "no move yet");
                }
                if let Some(last) = LastMove::read(&view, TEMPERATURE) {
                    truth += last.weight(&game);
                    let mut r = playout_rng(ply);
                    for _ in 0..50 {
                        dealt += last.weight(&view.determinize(&mut r)) / 50.0;
                    }
                    n += 1;
                }
                let mv = greedy_choice(&game, &view.legal_moves(), &mut rng);
                game.apply(game.turn(), mv, &mut RngReshuffler(&mut rng))
                    .expect("legal");
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
