//! The board layout: which card each space shows (C1, C2).
//!
//! [`Layout::official`] is the grid of RULES.md C2. A custom layout (the
//! "random board layout" house rule, C11) is given as 10 rows of 10 codes in
//! the same notation, with `XX` on the four corners.

use crate::bitboard::{Bitboard, Space, CORNERS};
use crate::card::Card;
use rand::Rng;

/// The official board of RULES.md C2, row 1 first.
pub const OFFICIAL_ROWS: [&str; 10] = [
    "XX 2S 3S 4S 5S 6S 7S 8S 9S XX",
    "6C 5C 4C 3C 2C AH KH QH TH TS",
    "7C AS 2D 3D 4D 5D 6D 7D 9H QS",
    "8C KS 6C 5C 4C 3C 2C 8D 8H KS",
    "9C QS 7C 6H 5H 4H AH 9D 7H AS",
    "TC TS 8C 7H 2H 3H KH TD 6H 2D",
    "QC 9S 9C 8H 9H TH QH QD 5H 3D",
    "KC 8S TC QC KC AC AD KD 4H 4D",
    "AC 7S 6S 5S 4S 3S 2S 2H 3H 5D",
    "XX AD KD QD TD 9D 8D 7D 6D XX",
];

const NONE: u8 = 0xFF;

/// Which card each space shows, and each card's two spaces as a mask.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Layout {
    /// Card index per bit index (`0xFF` for corners and gap bits).
    space_card: [u8; 110],
    /// The spaces of each card, indexed by card index (empty for jacks).
    masks: [Bitboard; 52],
}

/// A layout that breaks C1.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("board layout: {0}")]
pub struct LayoutError(pub String);

impl Layout {
    /// The official board of C2.
    pub fn official() -> Layout {
        match Layout::from_rows(&OFFICIAL_ROWS) {
            Ok(l) => l,
            Err(e) => unreachable!("the official board is valid: {e}"),
        }
    }

    /// A layout from 10 rows of 10 space-separated codes (`XX` corners).
    ///
    /// # Errors
    /// [`LayoutError`] naming the row and code when a row is not 10 codes,
    /// a corner is not `XX`, a jack appears, or a non-jack card does not
    /// appear exactly twice (C1).
    pub fn from_rows<S: AsRef<str>>(rows: &[S]) -> Result<Layout, LayoutError> {
        if rows.len() != 10 {
            return Err(LayoutError(format!(
                "expected 10 rows, found {}",
                rows.len()
            )));
        }
        let mut space_card = [NONE; 110];
        let mut masks = [Bitboard::EMPTY; 52];
        for (r, row) in rows.iter().enumerate() {
            let codes: Vec<&str> = row.as_ref().split_whitespace().collect();
            if codes.len() != 10 {
                return Err(LayoutError(format!(
                    "row {} has {} codes, expected 10",
                    r + 1,
                    codes.len()
                )));
            }
            for (c, code) in codes.iter().enumerate() {
                let Some(sq) = Space::new(r as u8, c as u8) else {
                    unreachable!("r, c < 10")
                };
                if sq.is_corner() {
                    if !code.eq_ignore_ascii_case("XX") {
                        return Err(LayoutError(format!("corner {sq} must be XX, found {code}")));
                    }
                    continue;
                }
                let card: Card = code
                    .parse()
                    .map_err(|e| LayoutError(format!("space {sq}: {e}")))?;
                if card.is_jack() {
                    return Err(LayoutError(format!(
                        "space {sq}: jacks are not on the board (C1)"
                    )));
                }
                space_card[sq.bit() as usize] = card.index() as u8;
                masks[card.index()] = masks[card.index()].with(sq);
            }
        }
        for card in Card::all().filter(|c| !c.is_jack()) {
            let n = masks[card.index()].count();
            if n != 2 {
                return Err(LayoutError(format!(
                    "{card} appears {n} times, expected exactly twice (C1)"
                )));
            }
        }
        Ok(Layout { space_card, masks })
    }

    /// A random layout (house rule C11): the 96 card spaces shuffled with
    /// `rng`, corners kept free.
    pub fn random<R: Rng + ?Sized>(rng: &mut R) -> Layout {
        let mut cards: Vec<Card> = Card::all()
            .filter(|c| !c.is_jack())
            .flat_map(|c| [c, c])
            .collect();
        sequence_common::rng::shuffle(&mut cards, rng);
        let mut it = cards.into_iter();
        let rows: Vec<String> = (0..10u8)
            .map(|r| {
                (0..10u8)
                    .map(|c| match Space::new(r, c) {
                        Some(sq) if !sq.is_corner() => {
                            it.next().map(|c| c.to_string()).unwrap_or_default()
                        }
                        _ => "XX".to_string(),
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        match Layout::from_rows(&rows) {
            Ok(l) => l,
            Err(e) => unreachable!("a shuffled full set is a valid layout: {e}"),
        }
    }

    /// The card shown on `sq`; `None` for a corner.
    #[inline]
    pub fn card_at(&self, sq: Space) -> Option<Card> {
        Card::from_index(self.space_card[sq.bit() as usize])
    }

    /// The two spaces of a non-jack `card` (empty for a jack).
    #[inline]
    pub fn spaces_of(&self, card: Card) -> Bitboard {
        self.masks[card.index()]
    }

    /// The layout as 10 rows of codes, as [`Layout::from_rows`] reads.
    pub fn to_rows(&self) -> Vec<String> {
        (0..10u8)
            .map(|r| {
                (0..10u8)
                    .filter_map(|c| Space::new(r, c))
                    .map(|sq| {
                        self.card_at(sq)
                            .map_or_else(|| "XX".to_string(), |c| c.to_string())
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    }

    /// Whether this is the official board.
    pub fn is_official(&self) -> bool {
        *self == Layout::official()
    }
}

/// The corner mask again, for readers coming from the layout.
pub const FREE_SPACES: Bitboard = CORNERS;

#[cfg(test)]
mod tests {
    use super::*;

    /// C1/C2: every non-jack card exactly twice, no jack, free corners.
    #[test]
    fn c2_official_board_has_each_card_twice_no_jacks_free_corners() {
        let l = Layout::official();
        let mut counts = [0u32; 52];
        let mut corners = 0;
        for sq in Space::all() {
            match l.card_at(sq) {
                Some(c) => {
                    assert!(!c.is_jack(), "{c} on {sq}");
                    counts[c.index()] += 1;
                }
                None => {
                    assert!(sq.is_corner(), "{sq} has no card");
                    corners += 1;
                }
            }
        }
        assert_eq!(corners, 4);
        for c in Card::all() {
            assert_eq!(counts[c.index()], if c.is_jack() { 0 } else { 2 }, "{c}");
        }
        assert_eq!(l.card_at("e6".parse().unwrap()).unwrap().to_string(), "2H");
        assert_eq!(l.to_rows(), OFFICIAL_ROWS);
    }

    #[test]
    fn c1_faulty_layouts_refused() {
        let mut rows: Vec<String> = OFFICIAL_ROWS.iter().map(|s| s.to_string()).collect();
        rows[1] = rows[1].replacen("6C", "6H", 1);
        let e = Layout::from_rows(&rows).unwrap_err();
        assert!(e.0.contains("exactly twice"), "{e}");
        rows[1] = rows[1].replacen("6H", "JD", 1);
        assert!(Layout::from_rows(&rows).unwrap_err().0.contains("jacks"));
    }

    #[test]
    fn c11_random_layout_is_valid_and_seeded() {
        let a = Layout::random(&mut sequence_common::rng::game_rng(3));
        let b = Layout::random(&mut sequence_common::rng::game_rng(3));
        assert_eq!(a, b);
        assert!(!a.is_official());
        assert_eq!(Layout::from_rows(&a.to_rows()).unwrap(), a);
    }
}
