//! What one seat may see ([`SeatView`]), and determinization: a full game
//! built from a view by dealing the unseen cards at random (for ISMCTS
//! bots).

use crate::card::{deck_counts, Card, Place, KINDS, MAX_CARDS, MAX_PLACES};
use crate::game::{BlockOffer, Game, Status, MAX_SEATS};
use crate::moves::Decision;
use crate::options::Options;
use rand::Rng;
use sequence_common::{Direction, Seat};
use serde::{Deserialize, Serialize};

/// Chips of one seat or of the supply.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChipCount {
    /// Blue chips.
    pub blue: u8,
    /// Red chips.
    pub red: u8,
}

impl From<[u8; 2]> for ChipCount {
    fn from(c: [u8; 2]) -> Self {
        ChipCount {
            blue: c[0],
            red: c[1],
        }
    }
}

/// A pile place and its cards.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PileView {
    /// The place (`blue-a`, …).
    pub place: Place,
    /// The cards, bottom first (empty when the place is free).
    pub cards: Vec<Card>,
    /// The number the top stands for, `None` when free (S3).
    pub top: Option<u8>,
}

/// Everything seat `seat` may see: its own hand, the piles, every discard
/// pile (whole piles are public), the completed piles and action-card
/// discard pile, chips, hand sizes, the draw pile's size (not its order),
/// whose turn, the direction, the open Block window, and the seat's legal
/// decisions when it must decide. It holds no other seat's hand and no
/// draw pile order, so it is safe to send to that seat; it reads back
/// (serde) on the other side, where [`SeatView::determinize`] works too.
/// A spectator's view ([`Game::spectator_view`]) has no seat and no hand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatView {
    /// The seat this view belongs to; `None` for a spectator.
    pub seat: Option<Seat>,
    /// Number of seats.
    pub players: u8,
    /// Rule options.
    pub options: Options,
    /// The dealer.
    pub dealer: Seat,
    /// The seat's own hand, in kind order.
    pub hand: Vec<Card>,
    /// Cards in each seat's hand, by seat.
    pub hand_sizes: Vec<u8>,
    /// Cards each seat is publicly known to hold (taken with Steal-a-Card
    /// and not seen to leave the hand since), by seat, in kind order.
    pub known_in_hands: Vec<Vec<Card>>,
    /// Each seat's discard pile, bottom first (the last card is the top).
    pub discard_piles: Vec<Vec<Card>>,
    /// The piles in progress, one per place.
    pub piles: Vec<PileView>,
    /// Cards of the completed piles set aside, in kind order.
    pub completed: Vec<Card>,
    /// The action-card discard pile, in kind order.
    pub action_discards: Vec<Card>,
    /// Chips held, by seat.
    pub chips: Vec<ChipCount>,
    /// Chips left in the supply.
    pub supply: ChipCount,
    /// Cards in the draw pile.
    pub draw_pile: u8,
    /// Whose turn it is.
    pub turn: Seat,
    /// Direction of play.
    pub direction: Direction,
    /// Skips played this turn (S5).
    pub pending_skips: u8,
    /// The open Block window (S5b), if any.
    pub block_window: Option<BlockOffer>,
    /// The seat that must decide now (`None` once the game ended).
    pub to_act: Option<Seat>,
    /// Playing, won or drawn.
    pub status: Status,
    /// Whether a card went onto a pile this turn (draw detection, S6a).
    pub pile_played_this_turn: bool,
    /// Consecutive turns without a pile play while nothing could be drawn.
    pub quiet_turns: u8,
    /// Reshuffles so far.
    pub reshuffles: u16,
    /// This seat's legal decisions when it must decide, else empty.
    pub legal: Vec<Decision>,
    /// Decisions made so far (every one counts, passes included).
    #[serde(default)]
    pub move_number: u32,
    /// The last decision and its seat.
    #[serde(default)]
    pub last_move: Option<(Seat, Decision)>,
}

/// A view inconsistent with the deck (cannot be determinized).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("inconsistent view: {0}")]
pub struct ViewError(pub String);

fn expand(counts: &[u8], first_kind: usize) -> Vec<Card> {
    let mut v = Vec::new();
    for (i, &n) in counts.iter().enumerate() {
        for _ in 0..n {
            v.push(Card::from_index(first_kind + i));
        }
    }
    v
}

impl Game {
    /// What `seat` may see now (see [`SeatView`]).
    pub fn view(&self, seat: Seat) -> SeatView {
        self.view_of(Some(seat))
    }

    /// What a spectator may see: the public state, no hand.
    pub fn spectator_view(&self) -> SeatView {
        self.view_of(None)
    }

    fn view_of(&self, seat: Option<Seat>) -> SeatView {
        let players = self.config.players as usize;
        SeatView {
            seat,
            players: self.config.players,
            options: self.config.options,
            dealer: self.dealer,
            hand: seat.map_or_else(Vec::new, |s| self.hand(s)),
            hand_sizes: self.hand_len[..players].to_vec(),
            known_in_hands: (0..players).map(|s| expand(&self.known[s], 0)).collect(),
            discard_piles: (0..self.config.players)
                .map(|s| self.discard_pile(Seat(s)).to_vec())
                .collect(),
            piles: self
                .places()
                .map(|p| PileView {
                    place: p,
                    cards: self.pile(p).to_vec(),
                    top: self.pile_top(p),
                })
                .collect(),
            completed: expand(&self.completed, 0),
            action_discards: expand(&self.actions, 12),
            chips: self.chips[..players].iter().map(|&c| c.into()).collect(),
            supply: self.supply.into(),
            draw_pile: self.draw_len,
            turn: self.turn,
            direction: self.direction,
            pending_skips: self.skips,
            block_window: self.window,
            to_act: self.to_act(),
            status: self.status,
            pile_played_this_turn: self.pile_played,
            quiet_turns: self.quiet_turns,
            reshuffles: self.reshuffles,
            legal: if seat.is_some() && self.to_act() == seat {
                let mut d = Vec::new();
                self.legal_moves(&mut d);
                d
            } else {
                Vec::new()
            },
            move_number: self.ply,
            last_move: self.last,
        }
    }
}

impl SeatView {
    /// The cards this seat cannot see (other hands and the draw pile), per
    /// kind: the whole deck minus its hand, every discard pile, the piles,
    /// the completed piles and the action-card discard pile.
    ///
    /// # Errors
    /// [`ViewError`] if the view shows more cards of a kind than exist.
    pub fn unseen_counts(&self) -> Result<[u8; KINDS], ViewError> {
        let mut c = deck_counts(self.players);
        let seen = self
            .hand
            .iter()
            .chain(self.discard_piles.iter().flatten())
            .chain(self.piles.iter().flat_map(|p| p.cards.iter()))
            .chain(self.completed.iter())
            .chain(self.action_discards.iter());
        for k in seen {
            let n = &mut c[k.index()];
            *n = n
                .checked_sub(1)
                .ok_or_else(|| ViewError(format!("too many {k}")))?;
        }
        Ok(c)
    }

    /// A full game consistent with this view: the cards other seats are
    /// known to hold go to them, the rest of the unseen cards are shuffled
    /// (with `rng`) and dealt into the other seats' hands (their sizes are
    /// public) and the draw pile. Used by ISMCTS bots, one per iteration.
    ///
    /// # Errors
    /// [`ViewError`] if the view does not add up to the deck.
    pub fn determinize<R: Rng + ?Sized>(&self, rng: &mut R) -> Result<Game, ViewError> {
        let players = self.players as usize;
        if !(2..=MAX_SEATS).contains(&players)
            || self.hand_sizes.len() != players
            || self.discard_piles.len() != players
            || self.chips.len() != players
            || self.known_in_hands.len() != players
        {
            return Err(ViewError("seat lists do not match the player count".into()));
        }
        let me = self.seat.map_or(usize::MAX, |s| s.index());
        let mut unseen = self.unseen_counts()?;
        for s in (0..players).filter(|&s| s != me) {
            if self.known_in_hands[s].len() > self.hand_sizes[s] as usize {
                return Err(ViewError(format!(
                    "seat {s} holds fewer cards than it is known to hold"
                )));
            }
            for k in &self.known_in_hands[s] {
                let n = &mut unseen[k.index()];
                *n = n
                    .checked_sub(1)
                    .ok_or_else(|| ViewError(format!("too many {k}")))?;
            }
        }
        let mut pool = [Card::B1; MAX_CARDS];
        let mut n = 0;
        for k in Card::ALL {
            for _ in 0..unseen[k.index()] {
                pool[n] = k;
                n += 1;
            }
        }
        let others: usize = (0..players)
            .filter(|&s| s != me)
            .map(|s| self.hand_sizes[s] as usize - self.known_in_hands[s].len())
            .sum();
        if others + self.draw_pile as usize != n {
            return Err(ViewError(format!(
                "{n} unseen cards but {others} in other hands and {} in the draw pile",
                self.draw_pile
            )));
        }
        sequence_common::rng::shuffle(&mut pool[..n], rng);
        let mut g = Game::deal_empty(self.players, self.options, self.dealer);
        let mut next = 0;
        for s in 0..players {
            if s == me {
                for &c in &self.hand {
                    g.give(Seat(s as u8), c);
                }
            } else {
                for &c in &self.known_in_hands[s] {
                    g.give(Seat(s as u8), c);
                }
                for _ in self.known_in_hands[s].len()..self.hand_sizes[s] as usize {
                    g.give(Seat(s as u8), pool[next]);
                    next += 1;
                }
            }
            for (i, &c) in self.discard_piles[s].iter().enumerate() {
                g.discards[s][i] = c;
            }
            g.discard_len[s] = self.discard_piles[s].len() as u8;
            g.chips[s] = [self.chips[s].blue, self.chips[s].red];
            for &c in &self.known_in_hands[s] {
                g.known[s][c.index()] += 1;
            }
        }
        for (i, &c) in pool[next..n].iter().enumerate() {
            g.draw[i] = c;
        }
        g.draw_len = (n - next) as u8;
        for p in &self.piles {
            if p.place.index() >= MAX_PLACES || p.cards.len() > 4 {
                return Err(ViewError(format!("bad pile at {}", p.place)));
            }
            for (i, &c) in p.cards.iter().enumerate() {
                g.piles[p.place.index()][i] = c;
            }
            g.pile_len[p.place.index()] = p.cards.len() as u8;
        }
        for &c in &self.completed {
            g.completed[c.index()] += 1;
            g.completed_len += 1;
        }
        for &c in &self.action_discards {
            g.actions[c.index() - 12] += 1;
            g.actions_len += 1;
        }
        g.supply = [self.supply.blue, self.supply.red];
        g.turn = self.turn;
        g.direction = self.direction;
        g.skips = self.pending_skips;
        g.window = self.block_window;
        g.pile_played = self.pile_played_this_turn;
        g.quiet_turns = self.quiet_turns;
        g.status = self.status;
        g.reshuffles = self.reshuffles;
        g.ply = self.move_number;
        g.last = self.last_move;
        Ok(g)
    }

    /// The view as JSON (what the server sends this seat, and the bot
    /// protocol a program): every field of [`SeatView`] but `legal`, plus
    /// `game` (`"stacks"`), `legal_moves` (record entries, a declined Block
    /// as `{"seat": S, "pass": true}`), `winner` (a seat or null) and
    /// `last_move` as a record entry. A spectator's view has `seat` null and
    /// no `hand`.
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::{json, Value};
        let mut o = match serde_json::to_value(self) {
            Ok(Value::Object(o)) => o,
            _ => serde_json::Map::new(),
        };
        o.remove("legal");
        if self.seat.is_none() {
            o.remove("hand");
        }
        let entry = |s: Seat, d: &Decision| crate::notation::decision_json(s, d);
        o.insert("game".into(), json!("stacks"));
        o.insert(
            "legal_moves".into(),
            Value::Array(match self.seat {
                Some(me) => self.legal.iter().map(|d| entry(me, d)).collect(),
                None => vec![],
            }),
        );
        o.insert(
            "winner".into(),
            json!(match self.status {
                Status::Won(s) => Some(s.0),
                _ => None,
            }),
        );
        o.insert(
            "last_move".into(),
            self.last_move.map_or(Value::Null, |(s, d)| entry(s, &d)),
        );
        Value::Object(o)
    }
}

impl sequence_common::SeatView for SeatView {
    type Game = Game;

    fn seat(&self) -> Option<Seat> {
        self.seat
    }

    fn to_act(&self) -> Option<Seat> {
        self.to_act
    }

    fn outcome(&self) -> sequence_common::Outcome {
        crate::rules::outcome(self.status)
    }

    fn ply(&self) -> u32 {
        self.move_number
    }

    fn legal_moves(&self) -> Vec<Decision> {
        self.legal.clone()
    }

    fn determinize<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Game> {
        SeatView::determinize(self, rng).ok()
    }

    fn to_json(&self) -> serde_json::Value {
        SeatView::to_json(self)
    }
}
