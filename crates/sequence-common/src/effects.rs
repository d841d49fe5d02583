//! What a move did, as the engine that made it reports it: each game's
//! typed effects ([`crate::Rules::Effects`], returned by
//! [`crate::Rules::apply`] and [`crate::Rules::play`]) — chips placed or
//! removed, sequences made and broken, piles completed, Block windows, the
//! reshuffle, the cards drawn, the game's end. A small fixed value, no
//! allocation: the hot path returns it and playouts drop it.
//!
//! The cards a seat drew are that seat's secret: [`MoveEffects::seen_by`]
//! gives what another seat (or a spectator) may be told of the same move,
//! with those cards hidden and only their number left.

use crate::game::Outcome;
use crate::seat::Seat;
use std::fmt;

/// One game's effects of a move (`sequence_classic::Effects`,
/// `sequence_stacks::Effects`).
pub trait MoveEffects: Copy + fmt::Debug + Default + PartialEq + Send + Sync + 'static {
    /// What `viewer` (a seat, or `None` for a spectator) may be told: the
    /// same effects with the cards drawn by any other seat hidden (their
    /// number stays public).
    #[must_use]
    fn seen_by(&self, viewer: Option<Seat>) -> Self;

    /// [`Outcome::Playing`] unless the move ended the game: then how it
    /// ended.
    fn end(&self) -> Outcome;

    /// Whether the move ended the game.
    fn ended(&self) -> bool {
        self.end().is_over()
    }
}

/// Implements [`MoveEffects`] for an engine's effects struct `$t`: its
/// field `drawn` (a [`Drawn`]) is all that a seat other than the drawer
/// may not see, its field `end` the [`Outcome`] after the move.
#[macro_export]
macro_rules! move_effects {
    ($t:ty) => {
        impl $crate::MoveEffects for $t {
            fn seen_by(&self, viewer: Option<$crate::Seat>) -> Self {
                Self {
                    drawn: self.drawn.seen_by(viewer),
                    ..*self
                }
            }

            fn end(&self) -> $crate::Outcome {
                self.end
            }
        }
    };
}

/// The cards one seat drew in one move (at most `N`), seen by that seat
/// only: [`Drawn::cards`] is empty once [`Drawn::hide`] ran (as
/// [`MoveEffects::seen_by`] does for everyone else), [`Drawn::count`]
/// stays.
#[derive(Copy, Clone, PartialEq, Eq)]
pub struct Drawn<C, const N: usize> {
    /// The seat that drew.
    pub seat: Seat,
    count: u8,
    hidden: bool,
    cards: [Option<C>; N],
}

impl<C: Copy, const N: usize> Default for Drawn<C, N> {
    fn default() -> Self {
        Drawn {
            seat: Seat(0),
            count: 0,
            hidden: false,
            cards: [None; N],
        }
    }
}

impl<C: Copy, const N: usize> Drawn<C, N> {
    /// Nothing drawn yet by `seat`.
    #[inline]
    pub fn new(seat: Seat) -> Self {
        Drawn {
            seat,
            ..Drawn::default()
        }
    }

    /// Adds a card drawn (dropped past `N`, which the rules never reach).
    #[inline]
    pub fn push(&mut self, card: C) {
        if let Some(slot) = self.cards.get_mut(self.count as usize) {
            *slot = Some(card);
            self.count += 1;
        }
    }

    /// How many cards were drawn (public).
    pub fn count(&self) -> u8 {
        self.count
    }

    /// Whether no card was drawn.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Whether the cards are hidden (these are another seat's effects).
    pub fn is_hidden(&self) -> bool {
        self.hidden
    }

    /// The cards drawn, in order; none when hidden.
    pub fn cards(&self) -> impl Iterator<Item = C> + '_ {
        self.cards.iter().flatten().copied()
    }

    /// Forgets the cards, keeping their number (what others may know).
    pub fn hide(&mut self) {
        self.cards = [None; N];
        self.hidden = true;
    }

    /// [`Drawn::hide`] unless `viewer` is the seat that drew.
    #[must_use]
    pub fn seen_by(mut self, viewer: Option<Seat>) -> Self {
        if viewer != Some(self.seat) {
            self.hide();
        }
        self
    }
}

impl<C: fmt::Debug + Copy, const N: usize> fmt::Debug for Drawn<C, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("Drawn");
        d.field("seat", &self.seat.0).field("count", &self.count);
        if self.hidden {
            d.field("cards", &"hidden");
        } else {
            d.field("cards", &self.cards().collect::<Vec<_>>());
        }
        d.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drawn_cards_are_seen_by_their_seat_only() {
        let mut d: Drawn<u8, 2> = Drawn::new(Seat(1));
        d.push(7);
        d.push(9);
        d.push(11); // past the capacity: dropped
        assert_eq!(d.count(), 2);
        assert_eq!(d.seen_by(Some(Seat(1))).cards().collect::<Vec<_>>(), [7, 9]);
        for other in [Some(Seat(0)), None] {
            let s = d.seen_by(other);
            assert!(s.is_hidden());
            assert_eq!(s.cards().count(), 0);
            assert_eq!(s.count(), 2);
            assert!(!format!("{s:?}").contains('7'));
        }
    }
}
