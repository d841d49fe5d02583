//! Moves (C6, C6a, C8a), the fixed-size move list and the errors of an
//! illegal move, each with a stable code ([`RuleError`]).

use crate::bitboard::Space;
use crate::card::Card;
use crate::sequences::{DeclarationError, Window};
use sequence_common::{ReshuffleError, RuleError, Seat};
use std::fmt;

/// The sequences a placement declares (C8a): up to 8 windows.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Declaration {
    windows: [Option<Window>; 8],
}

impl Declaration {
    /// A declaration of these windows (at most 8 are kept).
    pub fn new(ws: &[Window]) -> Declaration {
        let mut windows = [None; 8];
        for (slot, w) in windows.iter_mut().zip(ws) {
            *slot = Some(*w);
        }
        Declaration { windows }
    }

    /// The declared windows as a fixed array and their number.
    #[inline]
    pub(crate) fn window_array(&self) -> ([Window; 8], usize) {
        let mut out = [Window {
            start: Space::from_bit_unchecked(0),
            dir: crate::sequences::Dir::East,
        }; 8];
        let mut n = 0;
        for w in self.windows.iter().flatten() {
            out[n] = *w;
            n += 1;
        }
        (out, n)
    }

    /// The declared windows.
    pub fn windows(&self) -> impl Iterator<Item = Window> + '_ {
        self.windows.iter().flatten().copied()
    }

    /// Number of declared windows.
    pub fn len(&self) -> usize {
        self.windows.iter().flatten().count()
    }

    /// Whether no window is declared.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Default for Declaration {
    /// No window.
    fn default() -> Declaration {
        Declaration { windows: [None; 8] }
    }
}

impl fmt::Debug for Declaration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.windows()).finish()
    }
}

/// One decision of the seat whose turn it is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Play a non-jack card or a two-eyed jack and place a chip on `at`
    /// (C6); `declare` names the sequences made (C8a), `None` = the engine's
    /// default choice.
    Place {
        /// The card played.
        card: Card,
        /// The space that takes the chip.
        at: Space,
        /// Declared sequences, if any.
        declare: Option<Declaration>,
    },
    /// Play a one-eyed jack and remove the opponent's chip on `at` (C6).
    Remove {
        /// The jack played (J♠ or J♥).
        card: Card,
        /// The space cleared.
        at: Space,
    },
    /// Exchange a dead card (C6 step 1): discard it and draw at once.
    Dead {
        /// The dead card.
        card: Card,
    },
    /// No legal play: pass and draw nothing (C6a).
    Pass,
    /// No legal play, `no_play: "discard"` option (C6a): discard a card and
    /// draw.
    Discard {
        /// The card discarded.
        card: Card,
    },
}

impl Move {
    /// The card this move takes from the hand, if any.
    pub fn card(&self) -> Option<Card> {
        match *self {
            Move::Place { card, .. }
            | Move::Remove { card, .. }
            | Move::Dead { card }
            | Move::Discard { card } => Some(card),
            Move::Pass => None,
        }
    }

    /// A placement without declaration.
    pub fn place(card: Card, at: Space) -> Move {
        Move::Place {
            card,
            at,
            declare: None,
        }
    }

    /// Whether this move ends the turn (everything but a dead-card
    /// exchange).
    pub fn ends_turn(&self) -> bool {
        !matches!(self, Move::Dead { .. })
    }
}

/// Capacity of [`MoveList`]: two two-eyed jacks × 96 spaces, one-eyed jacks,
/// dead cards and more, with room to spare.
pub const MAX_MOVES: usize = 256;

/// A fixed-capacity list of moves (no allocation), for
/// [`crate::Game::legal_moves`].
pub type MoveList = sequence_common::MoveList<Move, MAX_MOVES>;

impl Default for Move {
    /// [`Move::Pass`] (the filler of a [`MoveList`]).
    fn default() -> Move {
        Move::Pass
    }
}

/// Why a move was refused. The `Display` text names the rule id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    /// The game has ended (C9, C6a).
    #[error("the game is over (C9)")]
    GameOver,
    /// The move names a seat whose turn it is not (C5).
    #[error("not {0}'s turn (C5)")]
    WrongSeat(Seat),
    /// The card is not in the player's hand.
    #[error("{0} not in hand")]
    NotInHand(Card),
    /// Placement on a corner (C6).
    #[error("corner is a free space (C6)")]
    Corner,
    /// Placement on a covered space (C6).
    #[error("space {0} is taken (C6)")]
    SpaceTaken(Space),
    /// The card does not show on that space (C6).
    #[error("{card} is not on space {at} (C6)")]
    WrongSpace {
        /// Card played.
        card: Card,
        /// Space named.
        at: Space,
    },
    /// A one-eyed jack used to place, or another card to remove (C6).
    #[error("{0} cannot do that: one-eyed jacks remove, other cards place (C6)")]
    WrongUse(Card),
    /// Removal from an empty space (C6).
    #[error("no chip on {0} to remove (C6)")]
    NoChip(Space),
    /// Removal of the player's own or a teammate's chip (C6).
    #[error("own team's chip (C6)")]
    OwnChip,
    /// Removal of a chip of a completed sequence (C8).
    #[error("chip is part of a sequence (C8)")]
    Locked,
    /// A card exchanged as dead that is not (C6).
    #[error("{0} is not dead (C6)")]
    NotDead(Card),
    /// A second dead-card exchange in one turn (C6).
    #[error("only one dead card may be exchanged per turn (C6)")]
    SecondDead,
    /// A pass (or stuck discard) while a legal play exists (C6a).
    #[error("a legal play exists, so the seat may not pass (C6a)")]
    NotStuck,
    /// A pass with the `no_play: "discard"` option and cards in hand (C6a).
    #[error("with the no_play \"discard\" option a stuck seat discards a card (C6a)")]
    MustDiscard,
    /// A stuck discard without the `no_play: "discard"` option (C6a).
    #[error("a stuck seat passes; discarding needs the no_play \"discard\" option (C6a)")]
    MustPass,
    /// A bad declaration (C8, C8a).
    #[error(transparent)]
    Declaration(#[from] DeclarationError),
    /// The reshuffle order was refused (C7).
    #[error("reshuffle: {0} (C7)")]
    Reshuffle(#[from] ReshuffleError),
}

impl RuleError for IllegalMove {
    /// `C9.game_over`, `C5.not_your_turn`, `C6.not_in_hand`, `C6.corner`,
    /// `C6.space_taken`, `C6.wrong_space`, `C6.wrong_use`, `C6.no_chip`,
    /// `C6.own_chip`, `C8.locked`, `C6.not_dead`, `C6.dead_twice`,
    /// `C6a.not_stuck`, `C6a.must_discard`, `C6a.must_pass`, the
    /// declaration's (`C8.not_new`, `C8.overlap`, `C8a.count`), and
    /// `C7.reshuffle`.
    fn code(&self) -> &'static str {
        match self {
            IllegalMove::GameOver => "C9.game_over",
            IllegalMove::WrongSeat(_) => "C5.not_your_turn",
            IllegalMove::NotInHand(_) => "C6.not_in_hand",
            IllegalMove::Corner => "C6.corner",
            IllegalMove::SpaceTaken(_) => "C6.space_taken",
            IllegalMove::WrongSpace { .. } => "C6.wrong_space",
            IllegalMove::WrongUse(_) => "C6.wrong_use",
            IllegalMove::NoChip(_) => "C6.no_chip",
            IllegalMove::OwnChip => "C6.own_chip",
            IllegalMove::Locked => "C8.locked",
            IllegalMove::NotDead(_) => "C6.not_dead",
            IllegalMove::SecondDead => "C6.dead_twice",
            IllegalMove::NotStuck => "C6a.not_stuck",
            IllegalMove::MustDiscard => "C6a.must_discard",
            IllegalMove::MustPass => "C6a.must_pass",
            IllegalMove::Declaration(d) => d.code(),
            IllegalMove::Reshuffle(_) => "C7.reshuffle",
        }
    }
}
