//! Inference from every other seat's last move, for tables of 3 or more
//! seats (the [`sequence_bots::classic::inference`] module reads only the seat before
//! ours).
//!
//! Between two turns of ours every other seat moved once. The bot keeps
//! the board as it left it (after its own move) and each seat's discard
//! pile length; at its next turn it finds each seat's move, in order of
//! play, from the card on top of that seat's discard pile (C6) and the
//! chips that appeared or went, and scores it as [`sequence_bots::classic::inference`]
//! does: with the heuristic, on the board as it was before that move,
//! against the best move each card could have made. A deal's weight is the
//! product over the seats of `exp(-d / T)` averaged over which card each
//! seat drew since ([`SeatEvidence::weight`]); deals are drawn whole and
//! kept with that probability (rejection sampling, at most [`MAX_TRIES`]
//! tries). The partner's moves count as well: a partner playing like the
//! heuristic would have made a four it could make. A seat whose move
//! cannot be told apart (a reshuffle, a new sequence, two removals or two
//! two-eyed jacks of one team, a chip placed and removed in between) gives
//! no evidence.

use rand::RngCore;
use sequence_bots::classic::heuristic::{
    Heuristic, ONE_EYED_COST, RACE_ONE_EYED_COST, RACE_TWO_EYED_COST, TWO_EYED_COST,
};
use sequence_bots::classic::inference;
use sequence_classic::{Bitboard, Card, Game, Move, Seat, SeatView, Space, BOARD, CORNERS};

/// Acceptance temperature in heuristic points (as [`sequence_bots::classic::inference`]).
pub const TEMPERATURE: f64 = 20.0;

/// Deals tried before one is kept whatever its weight.
pub const MAX_TRIES: u32 = 60;

/// What one seat's move tells about its hand.
#[derive(Clone, Debug)]
pub struct SeatEvidence {
    /// The move read.
    pub mv: Move,
    seat: u8,
    played: Card,
    value: f64,
    best: [f64; 52],
    /// Cards drawn since the move (1, 2 after a dead-card exchange).
    drawn: usize,
}

impl SeatEvidence {
    /// Scores `mv` (by `seat`) on the board `h` before it.
    fn read(
        h: &Heuristic,
        layout: &sequence_classic::Layout,
        seat: Seat,
        team: usize,
        mv: Move,
        drawn: usize,
    ) -> Option<SeatEvidence> {
        let me = sequence_classic::Team(team as u8);
        // With 3 teams greedy races: jacks cost more (see race_adjustment).
        let race = h.teams >= 3;
        let two_cost = TWO_EYED_COST + if race { RACE_TWO_EYED_COST } else { 0.0 };
        let one_cost = |at: Space| {
            ONE_EYED_COST
                + if race && !h.breaks_four(me, at) {
                    RACE_ONE_EYED_COST
                } else {
                    0.0
                }
        };
        let (played, value) = match mv {
            Move::Place { card, at, .. } => (
                card,
                h.place_value(me, at) - if card.is_jack() { two_cost } else { 0.0 },
            ),
            Move::Remove { card, at } => (card, h.remove_value(me, at) - one_cost(at)),
            _ => return None,
        };
        let empty = BOARD.0 & !h.occupied & !CORNERS.0;
        let mut two = f64::NEG_INFINITY;
        for sq in Bitboard(empty) {
            two = two.max(h.place_value(me, sq) - two_cost);
        }
        let locked = h.locked[0] | h.locked[1] | h.locked[2];
        let opp = h.occupied & !h.chips[team % 3] & !locked & !CORNERS.0;
        let mut one = f64::NEG_INFINITY;
        for sq in Bitboard(opp) {
            one = one.max(h.remove_value(me, sq) - one_cost(sq));
        }
        let best = inference::best_per_card(h, me, layout, empty, [one, two]);
        Some(SeatEvidence {
            mv,
            seat: seat.0,
            played,
            value,
            best,
            drawn,
        })
    }

    /// The chance of keeping a deal where the seat holds `hand` now: the
    /// mean, over which `drawn` cards of `hand` it drew since, of
    /// `exp(-d / T)` for the best card it held at its move (`d` the points
    /// it left).
    pub fn weight(&self, hand: &[Card]) -> f64 {
        let n = hand.len();
        if n == 0 || self.drawn >= n {
            return 1.0;
        }
        let played = self.best[self.played.index()];
        let w = |b: f64| (-(b.max(played) - self.value).max(0.0) / TEMPERATURE).exp();
        if self.drawn == 1 {
            // Drop each card in turn (it may be the one drawn since).
            let mut v: Vec<f64> = hand.iter().map(|c| self.best[c.index()]).collect();
            v.sort_by(|a, b| b.total_cmp(a));
            // The best card held then is v[0] unless v[0] was drawn (1 / n).
            let nf = n as f64;
            return ((nf - 1.0) * w(v[0]) + w(v.get(1).copied().unwrap_or(f64::NEG_INFINITY))) / nf;
        }
        // Two or more drawn: average over dropping every subset is costly;
        // drop the best `drawn` cards with their chances approximately.
        let mut v: Vec<f64> = hand.iter().map(|c| self.best[c.index()]).collect();
        v.sort_by(|a, b| b.total_cmp(a));
        let k = self.drawn.min(n - 1);
        let p_kept = (n - k) as f64 / n as f64;
        p_kept * w(v[0]) + (1.0 - p_kept) * w(v[k.min(v.len() - 1)])
    }
}

/// What the bot remembers between its turns.
#[derive(Clone, Debug, Default)]
pub struct Belief {
    /// The board after our last move, as the heuristic reads it.
    after_ours: Option<Heuristic>,
    /// Each seat's discard pile length then, and the sequences on the board.
    piles: Vec<usize>,
    sequences: usize,
    /// Our seat and the move number after our move.
    seat: u8,
    ply: u32,
    /// The evidence for the current turn.
    pub evidence: Vec<SeatEvidence>,
}

impl Belief {
    /// Reads the moves since our last turn (call at the start of a turn;
    /// a second call in the same turn, after our own dead-card exchange,
    /// keeps what was read).
    pub fn observe(&mut self, view: &SeatView) {
        if view
            .last_move()
            .is_some_and(|(s, _)| Some(s) == view.seat())
        {
            return;
        }
        self.evidence.clear();
        let Some(before) = self.after_ours.clone() else {
            return;
        };
        let players = view.config().players();
        if view.move_number() < self.ply || view.seat().map(|s| s.0) != Some(self.seat) {
            self.after_ours = None;
            return;
        }
        if view.sequences().len() != self.sequences {
            return;
        }
        let piles: Vec<Vec<Card>> = (0..players).map(|s| view.discard_pile(Seat(s))).collect();
        if piles.iter().zip(&self.piles).any(|(p, &n)| p.len() < n) {
            // A reshuffle (C7): the piles were gathered.
            return;
        }
        let layout = view.config().layout();
        let teams = view.config().teams() as usize;
        let mut h = before;
        let last = view.last_move();
        // Chips that appeared and went since our move, per team.
        let now: Vec<u128> = (0..teams.min(3))
            .map(|t| view.chips(sequence_classic::Team(t as u8)).0)
            .collect();
        // The last seat's placement is known: no earlier seat made it.
        let mut claimed = [0u128; 3];
        if let Some((ls, Move::Place { at, .. })) = last {
            claimed[view.team_of(ls).index() % 3] |= at.bb().0;
        }
        for k in 1..players {
            let s = Seat((self.seat + k) % players);
            let team = view.team_of(s).index() % 3;
            let new_cards = piles[s.index()].len() - self.piles[s.index()];
            if new_cards == 0 {
                continue;
            }
            let Some(&card) = piles[s.index()].last() else {
                continue;
            };
            let mv = match last {
                Some((ls, m)) if ls == s => Some(m),
                _ => identify(&h, &now, &claimed, &layout, team, card, teams),
            };
            let Some(mv) = mv else {
                // Unknown: later seats' boards would be wrong too.
                return;
            };
            if let Some(e) = SeatEvidence::read(&h, &layout, s, team, mv, new_cards) {
                self.evidence.push(e);
            }
            // Apply it to the board for the next seat.
            match mv {
                Move::Place { at, .. } => {
                    h.chips[team] |= at.bb().0;
                    h.occupied |= at.bb().0;
                    claimed[team] |= at.bb().0;
                }
                Move::Remove { at, .. } => {
                    for c in h.chips.iter_mut() {
                        *c &= !at.bb().0;
                    }
                    h.occupied &= !at.bb().0;
                }
                _ => {}
            }
        }
    }

    /// Remembers the board after our move `mv` (call when returning a move
    /// that ends our turn).
    pub fn record(&mut self, view: &SeatView, mv: Move) {
        let mut h = Heuristic::from_view(view);
        let team = view.team().map_or(0, |t| t.index()) % 3;
        match mv {
            Move::Place { at, .. } => {
                h.chips[team] |= at.bb().0;
                h.occupied |= at.bb().0;
            }
            Move::Remove { at, .. } => {
                for c in h.chips.iter_mut() {
                    *c &= !at.bb().0;
                }
                h.occupied &= !at.bb().0;
            }
            _ => {}
        }
        let players = view.config().players();
        self.piles = (0..players)
            .map(|s| {
                view.discard_pile(Seat(s)).len()
                    + usize::from(Some(s) == view.seat().map(|v| v.0) && mv.card().is_some())
            })
            .collect();
        // A move of ours that completes a sequence changes the count: the
        // next observation then finds a different count and reads nothing.
        self.sequences = view.sequences().len();
        self.seat = view.seat().map_or(0, |s| s.0);
        self.ply = view.move_number() + 1;
        self.after_ours = Some(h);
    }

    /// The weight of a deal.
    pub fn weight(&self, game: &Game) -> f64 {
        self.evidence
            .iter()
            .map(|e| e.weight(game.hand(Seat(e.seat))))
            .product()
    }

    /// A determinization of `view` weighted by the evidence.
    pub fn determinize<R: RngCore>(&self, view: &SeatView, rng: &mut R) -> Game {
        let mut g = view.determinize(rng);
        if self.evidence.is_empty() {
            return g;
        }
        for _ in 1..MAX_TRIES {
            let u = (rng.next_u32() as f64) / 4_294_967_296.0;
            if u < self.weight(&g) {
                return g;
            }
            g = view.determinize(rng);
        }
        g
    }
}

/// The move of a seat of `team` that played `card`, from the chips now
/// (`now`) and the board before it (`h`); `None` when it cannot be told.
fn identify(
    h: &Heuristic,
    now: &[u128],
    claimed: &[u128; 3],
    layout: &sequence_classic::Layout,
    team: usize,
    card: Card,
    teams: usize,
) -> Option<Move> {
    let own_now = *now.get(team)?;
    // Chips of the team placed since, not yet explained by another seat
    // (an earlier seat's move, or the last seat's, which is known).
    let appeared = own_now & !h.chips[team] & !claimed[team];
    if card.is_one_eyed_jack() {
        // A chip of another team that is gone now (and was there before).
        let mut gone = 0u128;
        for t in (0..teams.min(3)).filter(|&t| t != team) {
            gone |= h.chips[t] & !now.get(t).copied().unwrap_or(0);
        }
        return (gone.count_ones() == 1).then(|| Move::Remove {
            card,
            at: single(gone),
        });
    }
    let targets = if card.is_two_eyed_jack() {
        appeared
    } else {
        appeared & layout.spaces_of(card).0
    };
    (targets.count_ones() == 1).then(|| Move::place(card, single(targets)))
}

fn single(b: u128) -> Space {
    Bitboard(b)
        .iter()
        .next()
        .unwrap_or_else(|| unreachable!("one bit set"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use sequence_bots::classic::greedy_choice;
    use sequence_classic::{Config, Options, RngReshuffler};
    use sequence_common::rng::{game_rng, playout_rng};

    /// In greedy games of 3 and 4 seats, seat 0 reads the moves of (nearly)
    /// every other seat at each of its turns, and the hands they really
    /// hold weigh clearly more than random deals.
    #[test]
    fn every_other_seat_is_read_and_true_hands_weigh_more() {
        for players in [3u8, 4] {
            let cfg = Config::new(players, None, Options::default()).expect("config");
            let (mut truth, mut dealt, mut turns, mut read) = (0.0, 0.0, 0, 0);
            let mut wrong = 0;
            for seed in 0..6 {
                let mut rng = game_rng(seed);
                let (mut game, _) = Game::deal(cfg.clone(), &mut rng);
                let mut belief = Belief::default();
                let mut plies = 0;
                let mut played: Vec<Move> = Vec::new();
                while !game.is_over() && plies < 120 {
                    let seat = game.turn();
                    let view = game.view(seat);
                    let moves = view.legal_moves();
                    let mv = greedy_choice(&game, &moves, &mut rng);
                    let again = view.last_move().is_some_and(|(s, _)| s == seat);
                    if seat == Seat(0) && !again {
                        belief.observe(&view);
                        for e in &belief.evidence {
                            let strip = |m: Move| match m {
                                Move::Place { card, at, .. } => Move::place(card, at),
                                m => m,
                            };
                            if !played.iter().any(|&p| strip(p) == strip(e.mv)) {
                                eprintln!("misread {:?}, played {:?}", e.mv, played);
                                wrong += 1;
                            }
                        }
                        played.clear();
                    }
                    if seat == Seat(0) {
                        if plies >= players as u32 && !again {
                            turns += 1;
                            read += belief.evidence.len();
                            truth += belief.weight(&game);
                            let mut r = playout_rng(plies as u64);
                            for _ in 0..40 {
                                dealt += belief.weight(&view.determinize(&mut r)) / 40.0;
                            }
                        }
                        if !matches!(mv, Move::Dead { .. }) {
                            belief.record(&view, mv);
                        }
                    }
                    if seat != Seat(0) {
                        played.push(mv);
                    }
                    game.apply(game.turn(), mv, &mut RngReshuffler(&mut rng))
                        .expect("legal");
                    plies += 1;
                }
            }
            assert_eq!(wrong, 0, "{players} players: moves misread");
            let per_turn = read as f64 / turns as f64;
            assert!(
                per_turn > 0.8 * (players - 1) as f64,
                "{players} players: {per_turn:.2} seats read per turn"
            );
            eprintln!("{players} players: true hands {truth:.2}, random deals {dealt:.2}");
            assert!(
                truth > 1.3 * dealt,
                "{players} players: true hands {truth:.2}, random deals {dealt:.2}"
            );
        }
    }
}
