//! The Stacks heuristic: one scoring function over a [`Position`] serves the
//! greedy bot (from a seat's view) and the search's playouts (from a whole
//! game, no allocation), so that both judge alike.

use sequence_common::Seat;
use sequence_stacks::{meets_win, Card, Colour, Decision, Game, Place, SeatView, Source};

/// Value for a seat holding `chips` (`[blue, red]`) of one more chip of
/// `colour` (S7: 5 chips, at least 2 of each colour).
pub(crate) fn chip_value(chips: [u8; 2], colour: Colour) -> f64 {
    let mut after = chips;
    after[colour.index()] += 1;
    if meets_win(after) {
        1000.0
    } else if chips[colour.index()] < 2 {
        100.0
    } else if chips[0] + chips[1] < 5 {
        50.0
    } else {
        10.0
    }
}

/// What the heuristic reads of a position: a seat's [`SeatView`] (greedy) or
/// a full [`Game`] (playouts, no allocation). One scoring function serves
/// both, so the bots and their playouts judge alike.
pub trait Position {
    /// The seat deciding (`None`: nobody, the game is over).
    fn deciding(&self) -> Option<Seat>;
    /// Number of seats.
    fn players(&self) -> u8;
    /// The seat after `seat` in the current direction of play (S5).
    fn next(&self, seat: Seat) -> Seat;
    /// `seat`'s chips, `[blue, red]`.
    fn chips(&self, seat: Seat) -> [u8; 2];
    /// Chips left in the supply, `[blue, red]`.
    fn supply(&self) -> [u8; 2];
    /// Piles per colour (S3).
    fn piles_per_colour(&self) -> u8;
    /// Cards on the pile at `place` (0: free).
    fn pile_height(&self, place: Place) -> usize;
    /// Whether the deciding seat's hand, without `played` when it comes
    /// from the hand, holds either card of `wanted`.
    fn holds_besides(&self, wanted: [Card; 2], played: Card, from: Source) -> bool;
    /// The top card of `seat`'s discard pile.
    fn discard_top(&self, seat: Seat) -> Option<Card>;
    /// The open Block window: the completer and the chip's colour (S5).
    fn block_offer(&self) -> Option<(Seat, Colour)>;
}

impl Position for SeatView {
    fn deciding(&self) -> Option<Seat> {
        self.seat
    }
    fn players(&self) -> u8 {
        self.players
    }
    fn next(&self, seat: Seat) -> Seat {
        seat.next(self.players, self.direction)
    }
    fn chips(&self, seat: Seat) -> [u8; 2] {
        self.chips
            .get(seat.index())
            .map_or([0, 0], |c| [c.blue, c.red])
    }
    fn supply(&self) -> [u8; 2] {
        [self.supply.blue, self.supply.red]
    }
    fn piles_per_colour(&self) -> u8 {
        self.options.piles_per_colour
    }
    fn pile_height(&self, place: Place) -> usize {
        self.piles
            .iter()
            .find(|p| p.place == place)
            .map_or(0, |p| p.cards.len())
    }
    fn holds_besides(&self, wanted: [Card; 2], played: Card, from: Source) -> bool {
        let mut skip = from == Source::Hand;
        self.hand.iter().any(|&c| {
            if skip && c == played {
                skip = false;
                return false;
            }
            wanted.contains(&c)
        })
    }
    fn discard_top(&self, seat: Seat) -> Option<Card> {
        self.discard_piles
            .get(seat.index())
            .and_then(|p| p.last())
            .copied()
    }
    fn block_offer(&self) -> Option<(Seat, Colour)> {
        self.block_window.map(|w| (w.completer, w.colour))
    }
}

impl Position for Game {
    fn deciding(&self) -> Option<Seat> {
        self.to_act()
    }
    fn players(&self) -> u8 {
        Game::players(self)
    }
    fn next(&self, seat: Seat) -> Seat {
        seat.next(Game::players(self), self.direction())
    }
    fn chips(&self, seat: Seat) -> [u8; 2] {
        Game::chips(self, seat)
    }
    fn supply(&self) -> [u8; 2] {
        Game::supply(self)
    }
    fn piles_per_colour(&self) -> u8 {
        self.options().piles_per_colour
    }
    fn pile_height(&self, place: Place) -> usize {
        self.pile_top(place).unwrap_or(0) as usize
    }
    fn holds_besides(&self, wanted: [Card; 2], played: Card, from: Source) -> bool {
        let Some(seat) = self.to_act() else {
            return false;
        };
        let mut hand = self.hand_counts(seat);
        if from == Source::Hand {
            hand[played.index()] = hand[played.index()].saturating_sub(1);
        }
        wanted.iter().any(|c| hand[c.index()] > 0)
    }
    fn discard_top(&self, seat: Seat) -> Option<Card> {
        Game::discard_top(self, seat)
    }
    fn block_offer(&self) -> Option<(Seat, Colour)> {
        Game::block_offer(self).map(|w| (w.completer, w.colour))
    }
}

/// How much a seat wants to keep `card` in hand (used to pick discards):
/// wilds and the strong action cards most, a numbered card by how soon a
/// pile of its colour could take it.
fn keep_value(pos: &impl Position, card: Card) -> f64 {
    if card.is_wild() {
        return 30.0;
    }
    match card {
        Card::Block | Card::StealChip => 25.0,
        Card::Skip | Card::StealCard | Card::Reverse => 15.0,
        _ => {
            let (Some(colour), Some(n)) = (card.colour(), card.number()) else {
                return 0.0;
            };
            let n = n as usize;
            // Cards still needed below it on the nearest pile that could take it.
            let best = (0..pos.piles_per_colour())
                .map(|slot| pos.pile_height(Place::new(colour, slot)))
                .filter(|&h| h < n)
                .map(|h| n - 1 - h)
                .min();
            match best {
                Some(d) => 10.0 - 2.0 * d as f64,
                None => 1.0,
            }
        }
    }
}

/// Scores a decision of `view`'s seat; higher is better. Plays onto piles
/// that complete them are worth the chip (more for a colour still needed);
/// leaving a pile at 4 for the next seat to complete is avoided; Blocks
/// stop a completion that would win or bring the completer close; a Steal-
/// a-Chip takes a needed colour from the leader; discards throw the card
/// least worth keeping.
pub fn score(view: &SeatView, d: Decision) -> f64 {
    score_at(view, d)
}

/// [`score`] read from a full game for the seat that must decide in `g`
/// (no [`SeatView`] is built: cheap enough for every playout move); 0 when
/// the game is over.
pub fn game_score(g: &Game, d: Decision) -> f64 {
    score_at(g, d)
}

#[inline]
fn score_at(pos: &impl Position, d: Decision) -> f64 {
    let Some(seat) = pos.deciding() else {
        return 0.0;
    };
    let mine = pos.chips(seat);
    let supply = pos.supply();
    match d {
        Decision::Pile { card, from, place } => {
            let h = pos.pile_height(place) + 1;
            let colour = place.colour();
            let mut v = if h == 5 {
                if supply[colour.index()] > 0 {
                    chip_value(mine, colour) + 20.0
                } else {
                    5.0
                }
            } else if h == 4 {
                // Can we finish it ourselves this turn?
                let finishers = [Card::numbered(colour, 5), Card::wild(colour)];
                if pos.holds_besides(finishers, card, from) {
                    12.0
                } else {
                    -40.0
                }
            } else {
                6.0 + h as f64
            };
            if card.is_wild() && h != 5 {
                v -= 5.0;
            }
            if from == Source::Discard {
                v += 2.0;
            }
            v
        }
        Decision::Skip { .. } => {
            let c = pos.chips(pos.next(seat));
            if c[0] + c[1] >= 3 {
                8.0
            } else {
                2.0
            }
        }
        Decision::Reverse { .. } => 1.0,
        Decision::StealCard { target, .. } => match pos.discard_top(target) {
            Some(c) if c.is_wild() => 14.0,
            Some(c) if c.is_action() => 8.0,
            Some(c) => keep_value(pos, c).max(2.0),
            None => 0.0,
        },
        Decision::StealChip { target, colour, .. } => {
            let t = pos.chips(target);
            let lead = (0..pos.players())
                .map(Seat)
                .filter(|&s| s != seat)
                .map(|s| pos.chips(s).iter().sum::<u8>())
                .max()
                .unwrap_or(0);
            let mut v = chip_value(mine, colour) * 0.6;
            // Taking it from a seat that needs it.
            if t[colour.index()] <= 2 {
                v += 10.0;
            }
            if t[0] + t[1] == lead {
                v += 10.0;
            }
            v
        }
        Decision::Block => {
            let Some((completer, colour)) = pos.block_offer() else {
                return 0.0;
            };
            let c = pos.chips(completer);
            let mut after = c;
            after[colour.index()] += 1;
            if supply[colour.index()] == 0 {
                0.0
            } else if meets_win(after) {
                1000.0
            } else if c[0] + c[1] >= 3 {
                30.0
            } else {
                5.0
            }
        }
        Decision::Pass => 10.0,
        Decision::Discard { card } => -20.0 - keep_value(pos, card),
        Decision::End => 0.0,
    }
}
