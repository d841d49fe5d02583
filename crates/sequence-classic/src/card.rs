//! Cards of the two standard decks (C1) and their record codes (RECORD.md).

use std::fmt;
use std::str::FromStr;

/// A suit: spades, hearts, diamonds, clubs (codes `S H D C`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Suit {
    /// ♠ `S`
    Spades = 0,
    /// ♥ `H`
    Hearts = 1,
    /// ♦ `D`
    Diamonds = 2,
    /// ♣ `C`
    Clubs = 3,
}

impl Suit {
    /// All four suits in code order `S H D C`.
    pub const ALL: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];

    /// The record code letter (`S`, `H`, `D`, `C`).
    pub fn code(self) -> char {
        ['S', 'H', 'D', 'C'][self as usize]
    }

    /// The suit symbol (`♠ ♥ ♦ ♣`).
    pub fn symbol(self) -> char {
        ['♠', '♥', '♦', '♣'][self as usize]
    }

    /// Whether the suit is red (hearts, diamonds).
    pub fn is_red(self) -> bool {
        matches!(self, Suit::Hearts | Suit::Diamonds)
    }
}

/// A rank: `A 2 3 4 5 6 7 8 9 T J Q K`, stored as `0 … 12` in that order.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(u8);

impl Rank {
    /// The jack.
    pub const JACK: Rank = Rank(10);
    /// The ace.
    pub const ACE: Rank = Rank(0);
    const CODES: [char; 13] = [
        'A', '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K',
    ];

    /// The rank from its index `0 … 12` (`A` … `K`); `None` past 12.
    pub fn from_index(i: u8) -> Option<Rank> {
        (i < 13).then_some(Rank(i))
    }

    /// The index `0 … 12` (ace first).
    pub fn index(self) -> u8 {
        self.0
    }

    /// The record code (`A`, `2` … `9`, `T`, `J`, `Q`, `K`).
    pub fn code(self) -> char {
        Self::CODES[self.0 as usize]
    }

    /// Order for the cut for the dealer (C5): `2` lowest, ace highest.
    pub fn cut_value(self) -> u8 {
        if self.0 == 0 {
            13
        } else {
            self.0
        }
    }
}

/// A playing card, stored as `suit * 13 + rank` (`0 … 51`).
///
/// Record code: rank then suit, e.g. `TD`, `JS` (RECORD.md); any case is
/// read, upper case is written.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u8);

impl Card {
    /// Number of distinct cards in one standard deck.
    pub const DISTINCT: usize = 52;
    /// J♦, a two-eyed jack.
    pub const JD: Card = Card::new(Rank::JACK, Suit::Diamonds);
    /// J♣, a two-eyed jack.
    pub const JC: Card = Card::new(Rank::JACK, Suit::Clubs);
    /// J♠, a one-eyed jack.
    pub const JS: Card = Card::new(Rank::JACK, Suit::Spades);
    /// J♥, a one-eyed jack.
    pub const JH: Card = Card::new(Rank::JACK, Suit::Hearts);

    /// The card of `rank` and `suit`.
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card(suit as u8 * 13 + rank.0)
    }

    /// The card with index `0 … 51`; `None` past 51.
    pub fn from_index(i: u8) -> Option<Card> {
        (i < 52).then_some(Card(i))
    }

    /// Index `0 … 51` (`suit * 13 + rank`).
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The index as a byte (for lane arithmetic on hands).
    #[inline]
    pub(crate) const fn code_byte(self) -> u8 {
        self.0
    }

    /// The card of a byte made by [`Card::code_byte`].
    #[inline]
    pub(crate) const fn from_code_byte(b: u8) -> Card {
        Card(b)
    }

    /// The rank.
    pub fn rank(self) -> Rank {
        Rank(self.0 % 13)
    }

    /// The suit.
    pub fn suit(self) -> Suit {
        Suit::ALL[(self.0 / 13) as usize]
    }

    /// Whether this is a jack (never on the board, never dead: C1, C6).
    #[inline]
    pub fn is_jack(self) -> bool {
        self.0 % 13 == 10
    }

    /// A two-eyed jack (J♦, J♣): places a chip on any empty space (C6).
    #[inline]
    pub fn is_two_eyed_jack(self) -> bool {
        self == Card::JD || self == Card::JC
    }

    /// A one-eyed jack (J♠, J♥): removes an opponent's chip (C6).
    #[inline]
    pub fn is_one_eyed_jack(self) -> bool {
        self == Card::JS || self == Card::JH
    }

    /// All 52 distinct cards in index order.
    pub fn all() -> impl Iterator<Item = Card> {
        (0..52u8).map(Card)
    }

    /// The two standard decks of C1 (104 cards, each card twice), in index
    /// order (unshuffled).
    #[inline]
    pub fn double_deck() -> [Card; 104] {
        DOUBLE_DECK
    }

    /// The label with a suit symbol, e.g. `7♥`, `10♦` is written `T♦`.
    pub fn pretty(self) -> String {
        format!("{}{}", self.rank().code(), self.suit().symbol())
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank().code(), self.suit().code())
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// [`Card::double_deck`], built at compile time.
const DOUBLE_DECK: [Card; 104] = {
    let mut d = [Card(0); 104];
    let mut i = 0;
    while i < 104 {
        d[i] = Card((i % 52) as u8);
        i += 1;
    }
    d
};

/// A card code that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a card (expected rank A23456789TJQK and suit SHDC, e.g. \"TD\")")]
pub struct ParseCardError(pub String);

impl FromStr for Card {
    type Err = ParseCardError;

    fn from_str(s: &str) -> Result<Card, ParseCardError> {
        let err = || ParseCardError(sequence_common::json::echo(s));
        let mut chars = s.chars();
        let (Some(r), Some(su), None) = (chars.next(), chars.next(), chars.next()) else {
            return Err(err());
        };
        let r = r.to_ascii_uppercase();
        let rank = Rank::CODES.iter().position(|&c| c == r).ok_or_else(err)? as u8;
        let suit = match su.to_ascii_uppercase() {
            'S' => Suit::Spades,
            'H' => Suit::Hearts,
            'D' => Suit::Diamonds,
            'C' => Suit::Clubs,
            _ => return Err(err()),
        };
        Ok(Card::new(Rank(rank), suit))
    }
}

sequence_common::serde_as_text!(Card);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_any_case() {
        for c in Card::all() {
            let s = c.to_string();
            assert_eq!(s.parse::<Card>().unwrap(), c);
            assert_eq!(s.to_lowercase().parse::<Card>().unwrap(), c);
        }
        assert_eq!("td".parse::<Card>().unwrap().to_string(), "TD");
        assert!("1X".parse::<Card>().is_err());
        assert!("10D".parse::<Card>().is_err());
        assert!("".parse::<Card>().is_err());
    }

    #[test]
    fn c6_jack_kinds() {
        assert!(Card::JD.is_two_eyed_jack() && Card::JC.is_two_eyed_jack());
        assert!(Card::JS.is_one_eyed_jack() && Card::JH.is_one_eyed_jack());
        assert!(!Card::JS.is_two_eyed_jack());
        assert_eq!(Card::all().filter(|c| c.is_jack()).count(), 4);
    }

    #[test]
    fn c5_aces_high_in_the_cut() {
        let two: Card = "2C".parse().unwrap();
        let ace: Card = "AS".parse().unwrap();
        let king: Card = "KH".parse().unwrap();
        assert!(two.rank().cut_value() < king.rank().cut_value());
        assert!(king.rank().cut_value() < ace.rank().cut_value());
    }
}
