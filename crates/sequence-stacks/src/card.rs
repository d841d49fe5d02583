//! Cards, colours and pile places of Sequence Stacks (S1, S3).

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// Number of distinct card kinds: 5 numbers and a wild per colour, 5 action
/// cards.
pub const KINDS: usize = 17;

/// Most cards a game can hold (S1: 120; 112 with 2 players, S2).
pub const MAX_CARDS: usize = 120;

/// A chip or card colour (S1).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Colour {
    /// Blue (index 0).
    Blue = 0,
    /// Red (index 1).
    Red = 1,
}

impl Colour {
    /// Both colours, blue first.
    pub const ALL: [Colour; 2] = [Colour::Blue, Colour::Red];

    /// 0 for blue, 1 for red.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// `"blue"` or `"red"`.
    pub fn name(self) -> &'static str {
        match self {
            Colour::Blue => "blue",
            Colour::Red => "red",
        }
    }

    /// Parses `"blue"` or `"red"` (any case).
    pub fn from_name(s: &str) -> Option<Colour> {
        match s.to_ascii_lowercase().as_str() {
            "blue" => Some(Colour::Blue),
            "red" => Some(Colour::Red),
            _ => None,
        }
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A card kind (S1). Written in records as `B1`–`B5`, `BW` (blue wild),
/// `R1`–`R5`, `RW`, `SKIP`, `REVERSE`, `STEAL-CARD`, `STEAL-CHIP`, `BLOCK`.
///
/// The discriminant (`0 … 16`) indexes per-kind counts: blue 1–5 and wild
/// are `0 … 5`, red `6 … 11`, the action cards `12 … 16`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum Card {
    B1 = 0,
    B2,
    B3,
    B4,
    B5,
    /// Blue wild.
    BW,
    R1,
    R2,
    R3,
    R4,
    R5,
    /// Red wild.
    RW,
    /// Skip (S5).
    Skip,
    /// Reverse (S5).
    Reverse,
    /// Steal-a-Card (S5).
    StealCard,
    /// Steal-a-Chip (S5).
    StealChip,
    /// Block (S5).
    Block,
}

impl Card {
    /// Every kind, in index order.
    pub const ALL: [Card; KINDS] = [
        Card::B1,
        Card::B2,
        Card::B3,
        Card::B4,
        Card::B5,
        Card::BW,
        Card::R1,
        Card::R2,
        Card::R3,
        Card::R4,
        Card::R5,
        Card::RW,
        Card::Skip,
        Card::Reverse,
        Card::StealCard,
        Card::StealChip,
        Card::Block,
    ];

    /// The kind's index `0 … 16`.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The kind with index `i` (`i < 17`).
    #[inline]
    pub fn from_index(i: usize) -> Card {
        Card::ALL[i]
    }

    /// The number or wild card of `colour` standing for `n` (1–5), or the
    /// wild when `n` is 0 (S1).
    #[inline]
    pub fn numbered(colour: Colour, n: u8) -> Card {
        let base = colour.index() * 6;
        if n == 0 {
            Card::ALL[base + 5]
        } else {
            Card::ALL[base + n as usize - 1]
        }
    }

    /// The wild of `colour`.
    #[inline]
    pub fn wild(colour: Colour) -> Card {
        Card::numbered(colour, 0)
    }

    /// The colour of a number or wild card; `None` for action cards.
    #[inline]
    pub fn colour(self) -> Option<Colour> {
        match self as u8 {
            0..=5 => Some(Colour::Blue),
            6..=11 => Some(Colour::Red),
            _ => None,
        }
    }

    /// The number (1–5) of a number card; `None` for wilds and action cards.
    #[inline]
    pub fn number(self) -> Option<u8> {
        let i = self as u8;
        match i {
            0..=4 => Some(i + 1),
            6..=10 => Some(i - 5),
            _ => None,
        }
    }

    /// A wild (`BW`, `RW`).
    #[inline]
    pub fn is_wild(self) -> bool {
        matches!(self, Card::BW | Card::RW)
    }

    /// An action card (S5).
    #[inline]
    pub fn is_action(self) -> bool {
        (self as u8) >= 12
    }

    /// The record code, e.g. `"B1"`, `"STEAL-CHIP"`.
    pub fn code(self) -> &'static str {
        const CODES: [&str; KINDS] = [
            "B1",
            "B2",
            "B3",
            "B4",
            "B5",
            "BW",
            "R1",
            "R2",
            "R3",
            "R4",
            "R5",
            "RW",
            "SKIP",
            "REVERSE",
            "STEAL-CARD",
            "STEAL-CHIP",
            "BLOCK",
        ];
        CODES[self.index()]
    }

    /// How many cards of this kind the game uses with `players` players
    /// (S1; S2 removes 8 action cards with 2 players).
    pub fn copies(self, players: u8) -> u8 {
        // (with 3 or more players, with 2)
        let (more, two) = match self {
            Card::BW | Card::RW => (7, 7),
            Card::Skip => (3, 2),
            Card::Reverse => (3, 0),
            Card::StealCard => (3, 2),
            Card::StealChip => (4, 2),
            Card::Block => (3, 2),
            _ => (9, 9),
        };
        if players == 2 {
            two
        } else {
            more
        }
    }
}

/// Per-kind counts of the whole deck for `players` players (S1, S2).
pub fn deck_counts(players: u8) -> [u8; KINDS] {
    let mut c = [0u8; KINDS];
    for k in Card::ALL {
        c[k.index()] = k.copies(players);
    }
    c
}

/// Number of cards in the deck: 120, or 112 with 2 players (S2).
pub fn deck_size(players: u8) -> usize {
    deck_counts(players).iter().map(|&n| n as usize).sum()
}

/// The deck for `players` players in kind order (`B1`×9, `B2`×9, …).
pub fn sorted_deck(players: u8) -> Vec<Card> {
    let mut v = Vec::with_capacity(MAX_CARDS);
    for k in Card::ALL {
        for _ in 0..k.copies(players) {
            v.push(k);
        }
    }
    v
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A card code that is not one of RECORD-STACKS.md's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{0:?} is not a card code (B1-B5, BW, R1-R5, RW, SKIP, REVERSE, STEAL-CARD, STEAL-CHIP, BLOCK)"
)]
pub struct BadCard(pub String);

impl FromStr for Card {
    type Err = BadCard;
    fn from_str(s: &str) -> Result<Card, BadCard> {
        let up = s.to_ascii_uppercase();
        Card::ALL
            .iter()
            .copied()
            .find(|c| c.code() == up)
            .ok_or_else(|| BadCard(sequence_common::json::echo(s)))
    }
}

sequence_common::serde_as_text!(Card);

/// Most pile places per colour any option allows (S3a).
pub const MAX_PLACES_PER_COLOUR: usize = 4;
/// Number of place slots (both colours).
pub const MAX_PLACES: usize = 2 * MAX_PLACES_PER_COLOUR;

/// A place in the middle of the table where a pile is built (S3):
/// `blue-a`, `blue-b`, `red-a`, `red-b` under the official rules (more
/// letters, up to `-d`, when the `piles_per_colour` option allows).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Place(pub(crate) u8);

impl Place {
    /// The place of `colour` with letter index `slot` (0 = `a`), taken
    /// modulo [`MAX_PLACES_PER_COLOUR`] (4).
    #[inline]
    pub fn new(colour: Colour, slot: u8) -> Place {
        Place(colour as u8 * MAX_PLACES_PER_COLOUR as u8 + slot % MAX_PLACES_PER_COLOUR as u8)
    }

    /// Index `0 … 7` into per-place arrays.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The place's colour.
    #[inline]
    pub fn colour(self) -> Colour {
        if (self.0 as usize) < MAX_PLACES_PER_COLOUR {
            Colour::Blue
        } else {
            Colour::Red
        }
    }

    /// The letter index (0 for `-a`).
    #[inline]
    pub fn slot(self) -> u8 {
        self.0 % MAX_PLACES_PER_COLOUR as u8
    }

    /// The place's name, e.g. `"blue-a"`.
    pub fn name(self) -> &'static str {
        const NAMES: [&str; MAX_PLACES] = [
            "blue-a", "blue-b", "blue-c", "blue-d", "red-a", "red-b", "red-c", "red-d",
        ];
        NAMES[self.index()]
    }

    /// Parses a name such as `"red-b"` (any case).
    pub fn from_name(s: &str) -> Option<Place> {
        let low = s.to_ascii_lowercase();
        (0..MAX_PLACES as u8).map(Place).find(|p| p.name() == low)
    }

    /// The places of a table with `per_colour` places per colour, blue
    /// first.
    pub fn all(per_colour: u8) -> impl Iterator<Item = Place> {
        Colour::ALL
            .into_iter()
            .flat_map(move |c| (0..per_colour).map(move |s| Place::new(c, s)))
    }
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for Place {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Place {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Place, D::Error> {
        let s = String::deserialize(d)?;
        Place::from_name(&s).ok_or_else(|| {
            serde::de::Error::custom(format!("{s:?} is not a place (blue-a … red-d)"))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn s1_deck_has_120_cards() {
        assert_eq!(deck_size(3), 120);
        assert_eq!(deck_size(6), 120);
        let c = deck_counts(4);
        let colour: u32 = c[0..12].iter().map(|&n| n as u32).sum();
        assert_eq!(colour, 104);
        assert_eq!(c[Card::StealChip.index()], 4);
    }

    #[test]
    fn s2_two_player_deck_has_112_cards() {
        assert_eq!(deck_size(2), 112);
        let c = deck_counts(2);
        assert_eq!(c[Card::Reverse.index()], 0);
        assert_eq!(c[Card::Block.index()], 2);
        assert_eq!(c[Card::StealChip.index()], 2);
        assert_eq!(c[Card::StealCard.index()], 2);
        assert_eq!(c[Card::Skip.index()], 2);
    }

    #[test]
    fn codes_round_trip() {
        for k in Card::ALL {
            assert_eq!(k.code().parse::<Card>().unwrap(), k);
        }
        assert_eq!("steal-chip".parse::<Card>().unwrap(), Card::StealChip);
        assert!("B6".parse::<Card>().is_err());
        assert_eq!(Card::numbered(Colour::Red, 3), Card::R3);
        assert_eq!(Card::wild(Colour::Blue), Card::BW);
        assert_eq!(Card::R5.number(), Some(5));
        assert_eq!(Card::RW.colour(), Some(Colour::Red));
        for p in Place::all(4) {
            assert_eq!(Place::from_name(p.name()), Some(p));
        }
        assert_eq!(Place::from_name("red-b").unwrap().colour(), Colour::Red);
    }
}
