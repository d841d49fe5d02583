//! What a move of classic Sequence did ([`Effects`]), as [`Game::apply`]
//! and [`Game::play`] report it: the chip placed or removed (C6), the
//! sequences made (C8, C8a) or broken (C11), the reshuffle (C7), the card
//! drawn and who may see it, and the game's end (C6a, C9). A fixed value
//! of a few dozen bytes; a playout that drops it pays nothing.
//!
//! [`Game::apply`]: crate::Game::apply
//! [`Game::play`]: crate::Game::play

use crate::bitboard::Space;
use crate::card::Card;
use crate::game::Team;
use crate::moves::Declaration;
use sequence_common::{Drawn, Outcome, Seat};

/// A chip placed or taken off the board (C6).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Chip {
    /// A natural card or a two-eyed jack placed a chip of `team` on `at`.
    Placed {
        /// The space.
        at: Space,
        /// The chip's team (the mover's).
        team: Team,
    },
    /// A one-eyed jack took the chip of `team` off `at`.
    Removed {
        /// The space.
        at: Space,
        /// The team whose chip it was.
        team: Team,
    },
}

/// What one move did (see the module). Public facts but
/// [`Effects::drawn`], which only the seat that drew may see
/// ([`sequence_common::MoveEffects::seen_by`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct Effects {
    /// The seat that moved.
    pub seat: Seat,
    /// The chip placed or removed; `None` for a dead-card exchange, a
    /// pass or a stuck discard (C6, C6a).
    pub chip: Option<Chip>,
    /// The sequences a placement made (C8), in the order they were counted
    /// (as the record's `declare` writes them, C8a); the mover's team's.
    pub sequences: Declaration,
    /// How many sequences it made (the windows of [`Effects::sequences`]).
    pub new_sequences: u8,
    /// The sequences a removal broke (`removable_sequences`, C11), in the
    /// order they were made; the removed chip's team's.
    pub broken: Declaration,
    /// Whether the draw pile was rebuilt from the discard piles (C7).
    pub reshuffled: bool,
    /// The card drawn after the move (C6, C7): none after a pass, a
    /// winning placement or with the draw pile empty (`no_reshuffle`).
    pub drawn: Drawn<Card, 1>,
    /// [`Outcome::Playing`] unless the move ended the game: a team's win
    /// (C9) or a draw after a round of passes (C6a).
    pub end: Outcome,
}

sequence_common::move_effects!(Effects);

impl Effects {
    /// Nothing done yet by `seat`.
    #[inline(always)]
    pub(crate) fn new(seat: Seat) -> Effects {
        Effects {
            seat,
            drawn: Drawn::new(seat),
            ..Effects::default()
        }
    }
}
