//! Moves (C6, C6a, C8a), the fixed-size move list and the errors of an
//! illegal move.

use crate::bitboard::Space;
use crate::card::Card;
use crate::sequences::Window;
use sequence_common::Seat;
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

/// Where [`crate::Game::legal_moves`] writes moves: a [`MoveList`] (no
/// allocation) or a `Vec<Move>` the caller reuses.
pub trait MoveSink {
    /// Removes every move.
    fn clear(&mut self);
    /// Adds a move.
    fn push(&mut self, m: Move);
}

impl MoveSink for MoveList {
    #[inline]
    fn clear(&mut self) {
        MoveList::clear(self);
    }
    #[inline]
    fn push(&mut self, m: Move) {
        MoveList::push(self, m);
    }
}

impl MoveSink for Vec<Move> {
    #[inline]
    fn clear(&mut self) {
        Vec::clear(self);
    }
    #[inline]
    fn push(&mut self, m: Move) {
        Vec::push(self, m);
    }
}

/// A fixed-capacity list of moves (no allocation).
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList {
            moves: [Move::Pass; MAX_MOVES],
            len: 0,
        }
    }
}

impl MoveList {
    /// An empty list.
    pub fn new() -> MoveList {
        MoveList::default()
    }

    /// Adds a move (ignored past [`MAX_MOVES`], which legal play cannot reach).
    #[inline]
    pub fn push(&mut self, m: Move) {
        if self.len < MAX_MOVES {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }

    /// Removes every move.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The moves as a slice.
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// Number of moves.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Iterator over the moves.
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// Why a move was refused. The `Display` text names the rule id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    /// The game has ended (C9, C6a).
    #[error("the game is over")]
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
    /// A stuck discard without the `no_play: "discard"` option, or a pass
    /// with it (C6a).
    #[error("{0} (C6a)")]
    NoPlayRule(&'static str),
    /// A bad declaration (C8, C8a).
    #[error("{0}")]
    Declaration(String),
    /// The reshuffle order was refused (C7).
    #[error("reshuffle: {0} (C7)")]
    Reshuffle(String),
}
