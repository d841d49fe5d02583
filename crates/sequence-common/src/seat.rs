//! Seats round the table and the direction of play.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A seat at the table, numbered `0 … players-1` clockwise (RECORD.md).
#[derive(
    Copy, Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Seat(pub u8);

impl Seat {
    /// The seat's number as an index (`0 … players-1`).
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The next seat in `direction` at a table of `players` seats.
    #[inline]
    pub fn next(self, players: u8, direction: Direction) -> Seat {
        // Comparisons rather than `%`: this runs on every move of a playout.
        match direction {
            Direction::Clockwise => Seat(if self.0 + 1 >= players { 0 } else { self.0 + 1 }),
            Direction::Counterclockwise => Seat(if self.0 == 0 { players - 1 } else { self.0 - 1 }),
        }
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0)
    }
}

/// Direction of play. Classic Sequence is always clockwise (C5); a Stacks
/// Reverse card flips it (S5).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// Increasing seat numbers (to the left).
    #[default]
    Clockwise,
    /// Decreasing seat numbers.
    Counterclockwise,
}

impl Direction {
    /// The other direction.
    pub fn reversed(self) -> Direction {
        match self {
            Direction::Clockwise => Direction::Counterclockwise,
            Direction::Counterclockwise => Direction::Clockwise,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_seat_wraps_both_ways() {
        assert_eq!(Seat(3).next(4, Direction::Clockwise), Seat(0));
        assert_eq!(Seat(0).next(4, Direction::Counterclockwise), Seat(3));
        assert_eq!(Seat(1).next(2, Direction::Clockwise), Seat(0));
    }
}
