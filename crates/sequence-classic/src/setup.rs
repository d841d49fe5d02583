//! Setting up a game of classic Sequence: the errors of a table or deal
//! that breaks the rules ([`SetupError`]), the deck check (C1) and the cut
//! for the dealer (C5).

use crate::card::Card;
use crate::game::DECK_SIZE;
use rand::Rng;
use sequence_common::Seat;

/// A setup that breaks the table rules (C3, options), C1 or the record's
/// deck rule.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The table breaks C3 or an option is out of range.
    #[error(transparent)]
    Config(#[from] crate::options::ConfigError),
    /// The deck is not two standard decks.
    #[error("deck: {0}")]
    Deck(String),
    /// The dealer is not a seat.
    #[error("dealer: seat {0} does not exist")]
    Dealer(u8),
}

impl sequence_common::RuleError for SetupError {
    /// The table's (`C3.players`, `C3.teams`, `C11.option`, `C2.board`),
    /// `C1.deck` or `C5.dealer`.
    fn code(&self) -> &'static str {
        use crate::options::ConfigError;
        match self {
            SetupError::Config(ConfigError::Players(_)) => "C3.players",
            SetupError::Config(ConfigError::Teams { .. }) => "C3.teams",
            SetupError::Config(ConfigError::Option(..)) => "C11.option",
            SetupError::Config(ConfigError::Layout(_)) => "C2.board",
            SetupError::Deck(_) => "C1.deck",
            SetupError::Dealer(_) => "C5.dealer",
        }
    }
}

/// Checks that `deck` is exactly two standard decks (C1, RECORD.md).
///
/// # Errors
/// Names the count or the card that is wrong.
pub fn check_deck(deck: &[Card]) -> Result<(), SetupError> {
    if deck.len() != DECK_SIZE {
        return Err(SetupError::Deck(format!(
            "has {} cards, expected 104 (two standard decks)",
            deck.len()
        )));
    }
    let mut counts = [0u8; 52];
    for c in deck {
        counts[c.index()] += 1;
    }
    for c in Card::all() {
        let n = counts[c.index()];
        if n != 2 {
            return Err(SetupError::Deck(format!(
                "{c} appears {n} times, expected 2 (two standard decks)"
            )));
        }
    }
    Ok(())
}

/// The cut for the dealer (C5): every seat cuts a card of a freshly
/// shuffled double deck; the lowest card deals, aces high; seats tied for
/// lowest cut again.
pub fn cut_for_dealer<R: Rng + ?Sized>(players: u8, rng: &mut R) -> Seat {
    let mut tied: Vec<u8> = (0..players).collect();
    loop {
        let mut deck = Card::double_deck();
        sequence_common::rng::shuffle(&mut deck, rng);
        let values: Vec<u8> = tied
            .iter()
            .enumerate()
            .map(|(i, _)| deck[i].rank().cut_value())
            .collect();
        let low = values.iter().copied().min().unwrap_or(0);
        let next: Vec<u8> = tied
            .iter()
            .zip(&values)
            .filter(|(_, &v)| v == low)
            .map(|(&s, _)| s)
            .collect();
        if next.len() == 1 {
            return Seat(next[0]);
        }
        tied = next;
    }
}
