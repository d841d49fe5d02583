//! The decisions of Sequence Stacks (S3–S5), the fixed-size list they are
//! listed into, and why a decision is refused ([`PlayError`], each with a
//! stable code).

use crate::card::{Card, Colour, Place};
use sequence_common::{MoveList, ReshuffleError, RuleError, Seat};
use serde::{Deserialize, Serialize};

/// Capacity of a [`Decisions`] list; no position has more legal decisions.
pub const MAX_DECISIONS: usize = 64;

/// Where a played card comes from (S4 step 2).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// The seat's hand.
    Hand,
    /// The top of the seat's own discard pile (`"from": "discard"`).
    Discard,
}

/// One decision of a seat. A turn is a series of these (S4): plays onto
/// piles (S3), action cards (S5), and a closing [`Decision::Discard`] or
/// [`Decision::End`]; after a completion each opponent offered the Block
/// window (S5b) answers [`Decision::Block`] or [`Decision::Pass`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Decision {
    /// A number or wild card onto the pile at `place` (S3).
    Pile {
        /// The card played.
        card: Card,
        /// Hand or top of own discard pile.
        from: Source,
        /// The pile's place.
        place: Place,
    },
    /// Skip: the next player loses their turn (S5).
    Skip {
        /// Hand or top of own discard pile.
        from: Source,
    },
    /// Reverse: the direction of play changes at once (S5).
    Reverse {
        /// Hand or top of own discard pile.
        from: Source,
    },
    /// Steal-a-Card: the top card of `target`'s discard pile into the hand
    /// (S5).
    StealCard {
        /// Hand or top of own discard pile.
        from: Source,
        /// The opponent robbed.
        target: Seat,
    },
    /// Steal-a-Chip: one chip of `colour` from `target` (S5, S5a).
    StealChip {
        /// Hand or top of own discard pile.
        from: Source,
        /// The opponent robbed.
        target: Seat,
        /// The chip's colour.
        colour: Colour,
    },
    /// Block the completion just made (from the hand, out of turn, S5b).
    Block,
    /// Decline to Block (S5b). Not written in records.
    Pass,
    /// Discard `card` from the hand onto the own discard pile: ends the turn
    /// (S4 step 4).
    Discard {
        /// The card discarded.
        card: Card,
    },
    /// End the turn with an empty hand (S4 step 4).
    End,
}

impl Decision {
    /// The card this decision plays or discards (`None` for Pass and End).
    pub fn card(self) -> Option<Card> {
        match self {
            Decision::Pile { card, .. } | Decision::Discard { card } => Some(card),
            Decision::Skip { .. } => Some(Card::Skip),
            Decision::Reverse { .. } => Some(Card::Reverse),
            Decision::StealCard { .. } => Some(Card::StealCard),
            Decision::StealChip { .. } => Some(Card::StealChip),
            Decision::Block => Some(Card::Block),
            Decision::Pass | Decision::End => None,
        }
    }
}

/// A fixed-capacity list of decisions (no allocation). Derefs to a slice.
pub type Decisions = MoveList<Decision, MAX_DECISIONS>;

impl Default for Decision {
    /// [`Decision::Pass`] (the filler of a [`Decisions`] list).
    fn default() -> Decision {
        Decision::Pass
    }
}

/// Why a decision was refused; each message names the rule.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The game has ended.
    #[error("the game is over (won, S7, or drawn, S6a)")]
    GameOver,
    /// A seat number not at the table.
    #[error("seat {0} does not exist")]
    NoSuchSeat(u8),
    /// Not this seat's turn.
    #[error("not seat {0}'s turn (S4)")]
    NotYourTurn(u8),
    /// A Block window is open; the offered seat answers first.
    #[error("seat {offered} must first say whether to Block (S5b)")]
    WindowOpen {
        /// The seat asked now.
        offered: u8,
    },
    /// A seat answered the Block window out of order.
    #[error("seat {0} is not the seat offered to Block now (S5b)")]
    NotOffered(u8),
    /// Pass with no Block window open.
    #[error("no Block window is open (S5b)")]
    NoWindow,
    /// Block with no completion to cancel.
    #[error("a Block may only be played right after an opponent completes a pile (S5)")]
    NoCompletion,
    /// The completer tried to Block.
    #[error("cannot block one's own completion (S5)")]
    OwnBlock,
    /// The card is not in the seat's hand.
    #[error("{0} not in hand")]
    NotInHand(Card),
    /// The card is not the top of the seat's discard pile.
    #[error("{0} is not on top of the seat's discard pile (S4)")]
    NotOnDiscardTop(Card),
    /// An action card played onto a pile.
    #[error("{0} is an action card and cannot go onto a pile (S3)")]
    NotAPileCard(Card),
    /// A place beyond the `piles_per_colour` option.
    #[error("there is no place {0} with {1} piles per colour (S3a)")]
    NoSuchPlace(Place, u8),
    /// Wrong colour or number for the pile.
    #[error("{0} does not fit on {1} (S3)")]
    DoesNotFit(Card, Place),
    /// Steal from oneself.
    #[error("cannot steal from oneself (S5)")]
    StealFromSelf,
    /// Steal-a-Card from an empty discard pile.
    #[error("seat {0}'s discard pile is empty: no card to steal (S5)")]
    NothingToSteal(u8),
    /// Steal-a-Chip of a colour the target does not hold.
    #[error("no such chip to steal (S5)")]
    NoSuchChip,
    /// Steal-a-Chip that would win (S5a).
    #[error("Steal-a-Chip cannot be used to win (S5a)")]
    StealChipWins,
    /// End with cards in hand.
    #[error("the hand is not empty: the turn ends with a discard (S4)")]
    HandNotEmpty,
    /// The reshuffler refused (a record without the needed order).
    #[error("reshuffle: {0} (S6)")]
    Reshuffle(#[from] ReshuffleError),
}

impl RuleError for PlayError {
    /// `S7.game_over`, `S1.no_such_seat`, `S4.not_your_turn`,
    /// `S5b.window_open`, `S5b.not_offered`, `S5b.no_window`,
    /// `S5.no_completion`, `S5.own_block`, `S4.not_in_hand`,
    /// `S4.not_on_discard_top`, `S3.not_a_pile_card`, `S3a.no_such_place`,
    /// `S3.does_not_fit`, `S5.steal_from_self`, `S5.nothing_to_steal`,
    /// `S5.no_such_chip`, `S5a.steal_chip_wins`, `S4.hand_not_empty`,
    /// `S6.reshuffle`.
    fn code(&self) -> &'static str {
        match self {
            PlayError::GameOver => "S7.game_over",
            PlayError::NoSuchSeat(_) => "S1.no_such_seat",
            PlayError::NotYourTurn(_) => "S4.not_your_turn",
            PlayError::WindowOpen { .. } => "S5b.window_open",
            PlayError::NotOffered(_) => "S5b.not_offered",
            PlayError::NoWindow => "S5b.no_window",
            PlayError::NoCompletion => "S5.no_completion",
            PlayError::OwnBlock => "S5.own_block",
            PlayError::NotInHand(_) => "S4.not_in_hand",
            PlayError::NotOnDiscardTop(_) => "S4.not_on_discard_top",
            PlayError::NotAPileCard(_) => "S3.not_a_pile_card",
            PlayError::NoSuchPlace(..) => "S3a.no_such_place",
            PlayError::DoesNotFit(..) => "S3.does_not_fit",
            PlayError::StealFromSelf => "S5.steal_from_self",
            PlayError::NothingToSteal(_) => "S5.nothing_to_steal",
            PlayError::NoSuchChip => "S5.no_such_chip",
            PlayError::StealChipWins => "S5a.steal_chip_wins",
            PlayError::HandNotEmpty => "S4.hand_not_empty",
            PlayError::Reshuffle(_) => "S6.reshuffle",
        }
    }
}
