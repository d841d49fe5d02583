//! What a decision of Sequence Stacks did ([`Effects`]), as
//! [`Game::apply`] and [`Game::play`] report it: the pile completed and
//! the Block window it opened (S3, S5b), the window's close (blocked, or the
//! chip taken from the supply), the card taken from a discard pile and the
//! chip stolen (S5), reshuffles (S6, S6a), the cards drawn and who may see
//! them (S4, S4a), and the game's end (S6a, S7). A fixed value of a few
//! dozen bytes, no allocation.
//!
//! [`Game::apply`]: crate::Game::apply
//! [`Game::play`]: crate::Game::play

use crate::card::{Card, Colour, Place};
use crate::game::BlockOffer;
use sequence_common::{Drawn, Outcome, Seat};

/// How a Block window closed (S5b).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct WindowClosed {
    /// The seat that completed the pile.
    pub completer: Seat,
    /// The colour of the completed pile (the chip at stake).
    pub colour: Colour,
    /// The seat that played Block, `None` when every seat asked declined.
    pub blocked_by: Option<Seat>,
    /// The chip the completer took from the supply (`None` when blocked or
    /// when the supply had none of that colour).
    pub chip: Option<Colour>,
}

/// What one decision did (see the module). Public facts but
/// [`Effects::drawn`], which only the seat that drew may see
/// ([`sequence_common::MoveEffects::seen_by`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct Effects {
    /// The seat that decided.
    pub seat: Seat,
    /// The place whose pile this decision completed (S3).
    pub completed: Option<Place>,
    /// The Block window that completion opened (S5b), as it opened.
    pub opened: Option<BlockOffer>,
    /// The Block window this decision closed: a Block, or the last seat
    /// asked declining (S5b).
    pub closed: Option<WindowClosed>,
    /// Steal-a-Card (S5): the seat robbed and the card taken from the top
    /// of its discard pile (public: the top was face up).
    pub took: Option<(Seat, Card)>,
    /// Steal-a-Chip (S5): the seat robbed and the colour of the chip.
    pub stole_chip: Option<(Seat, Colour)>,
    /// Draw piles rebuilt during the decision (S6, S6a).
    pub reshuffles: u8,
    /// The cards drawn (S4 step 3, S4a) and the seat that drew them.
    pub drawn: Drawn<Card, 5>,
    /// [`Outcome::Playing`] unless the decision ended the game: a seat's
    /// win (S7) or a draw (S6a, S7).
    pub end: Outcome,
}

sequence_common::move_effects!(Effects);

impl Effects {
    /// Nothing done yet by `seat`.
    #[inline]
    pub(crate) fn new(seat: Seat) -> Effects {
        Effects {
            seat,
            drawn: Drawn::new(seat),
            ..Effects::default()
        }
    }
}

/// Where a decision's effects are written while it is applied: into
/// [`Effects`] (what [`crate::Game::apply`] reports), or nowhere
/// ([`Unreported`]: [`crate::Game::apply_unreported`], the playouts' path,
/// which then does no work for them).
pub(crate) trait Report {
    /// A pile completed at `place`, opening the Block window `offer`.
    fn completed(&mut self, place: Place, offer: BlockOffer);
    /// Steal-a-Card took `card` from `target`'s discard pile.
    fn took(&mut self, target: Seat, card: Card);
    /// Steal-a-Chip took a chip of `colour` from `target`.
    fn stole_chip(&mut self, target: Seat, colour: Colour);
    /// The Block window closed.
    fn closed(&mut self, closed: WindowClosed);
    /// The completer of the window just closed took a chip of `colour`.
    fn chip_taken(&mut self, colour: Colour);
    /// `seat` draws.
    fn drawer(&mut self, seat: Seat);
    /// A card drawn.
    fn drew(&mut self, card: Card);
    /// A draw pile was rebuilt.
    fn reshuffled(&mut self);
}

impl Report for Effects {
    #[inline]
    fn completed(&mut self, place: Place, offer: BlockOffer) {
        self.completed = Some(place);
        self.opened = Some(offer);
    }

    #[inline]
    fn took(&mut self, target: Seat, card: Card) {
        self.took = Some((target, card));
    }

    #[inline]
    fn stole_chip(&mut self, target: Seat, colour: Colour) {
        self.stole_chip = Some((target, colour));
    }

    #[inline]
    fn closed(&mut self, closed: WindowClosed) {
        self.closed = Some(closed);
    }

    #[inline]
    fn chip_taken(&mut self, colour: Colour) {
        if let Some(c) = self.closed.as_mut() {
            c.chip = Some(colour);
        }
    }

    #[inline]
    fn drawer(&mut self, seat: Seat) {
        self.drawn.seat = seat;
    }

    #[inline]
    fn drew(&mut self, card: Card) {
        self.drawn.push(card);
    }

    #[inline]
    fn reshuffled(&mut self) {
        self.reshuffles = self.reshuffles.saturating_add(1);
    }
}

/// Effects not written anywhere ([`Report`]).
pub(crate) struct Unreported;

impl Report for Unreported {
    #[inline(always)]
    fn completed(&mut self, _: Place, _: BlockOffer) {}
    #[inline(always)]
    fn took(&mut self, _: Seat, _: Card) {}
    #[inline(always)]
    fn stole_chip(&mut self, _: Seat, _: Colour) {}
    #[inline(always)]
    fn closed(&mut self, _: WindowClosed) {}
    #[inline(always)]
    fn chip_taken(&mut self, _: Colour) {}
    #[inline(always)]
    fn drawer(&mut self, _: Seat) {}
    #[inline(always)]
    fn drew(&mut self, _: Card) {}
    #[inline(always)]
    fn reshuffled(&mut self) {}
}
