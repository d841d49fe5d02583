//! Who orders a new draw pile when the draw pile runs out (C7, S6): a
//! [`Reshuffler`]. A random generator for live games and playouts
//! ([`RngReshuffler`]), a record's `reshuffles` for replays
//! ([`RecordedReshuffles`]), a generator that writes what it did into a
//! record ([`Recording`]), or none at all ([`NoReshuffler`]).

use crate::rng::GameRng;
use rand::RngCore;

/// Why no order could be given for a reshuffle.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReshuffleError {
    /// The reshuffler gives no orders at all ([`NoReshuffler`]).
    #[error("a reshuffle is needed but no order was given")]
    NotAllowed,
    /// The draw pile ran out a `happened`-th time but the record lists only
    /// `listed` reshuffles.
    #[error("{}", missing_text(*happened, *listed))]
    NotRecorded {
        /// Which reshuffle this is, 1 for the first.
        happened: usize,
        /// How many the record's `reshuffles` lists.
        listed: usize,
    },
    /// The record's order is not a permutation of the cards shuffled in.
    #[error("`reshuffles`[{index}] is not a permutation of the {cards} cards shuffled in")]
    NotAPermutation {
        /// Index into `reshuffles`.
        index: usize,
        /// Cards really shuffled in.
        cards: usize,
    },
}

impl ReshuffleError {
    /// A stable code for clients: `reshuffle.not_allowed`,
    /// `reshuffle.not_recorded`, `reshuffle.not_a_permutation`.
    pub fn code(&self) -> &'static str {
        match self {
            ReshuffleError::NotAllowed => "reshuffle.not_allowed",
            ReshuffleError::NotRecorded { .. } => "reshuffle.not_recorded",
            ReshuffleError::NotAPermutation { .. } => "reshuffle.not_a_permutation",
        }
    }
}

fn missing_text(happened: usize, listed: usize) -> String {
    if listed == 0 {
        "the draw pile ran out but the record's `reshuffles` lists none".to_string()
    } else {
        format!(
            "the draw pile ran out a {} time but the record's `reshuffles` lists {listed}",
            ordinal(happened)
        )
    }
}

/// `1st`, `2nd`, `3rd`, `4th`, … for messages.
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// Orders the cards of a reshuffle into a new draw pile.
pub trait Reshuffler<C> {
    /// `cards` holds the cards shuffled in, in the engine's documented
    /// order; put them in the order of the new draw pile, top first.
    ///
    /// # Errors
    /// [`ReshuffleError`] when no order can be given.
    fn reshuffle(&mut self, cards: &mut [C]) -> Result<(), ReshuffleError>;
}

/// Reshuffles with a random generator: the Fisher–Yates shuffle of
/// [`crate::rng::shuffle`].
pub struct RngReshuffler<'a, R: ?Sized>(pub &'a mut R);

impl<C, R: RngCore + ?Sized> Reshuffler<C> for RngReshuffler<'_, R> {
    #[inline]
    fn reshuffle(&mut self, cards: &mut [C]) -> Result<(), ReshuffleError> {
        crate::rng::shuffle(cards, self.0);
        Ok(())
    }
}

/// Reshuffles with a random generator by the fast shuffle of
/// [`crate::rng::shuffle_batched`]: for playouts and searches, never for a
/// record (whose orders come from [`RngReshuffler`] or [`Recording`]).
pub struct FastReshuffler<'a, R: ?Sized>(pub &'a mut R);

impl<C, R: RngCore + ?Sized> Reshuffler<C> for FastReshuffler<'_, R> {
    #[inline]
    fn reshuffle(&mut self, cards: &mut [C]) -> Result<(), ReshuffleError> {
        crate::rng::shuffle_batched(cards, self.0);
        Ok(())
    }
}

/// Refuses every reshuffle: for tests and positions that cannot need one.
#[derive(Copy, Clone, Debug, Default)]
pub struct NoReshuffler;

impl<C> Reshuffler<C> for NoReshuffler {
    fn reshuffle(&mut self, _: &mut [C]) -> Result<(), ReshuffleError> {
        Err(ReshuffleError::NotAllowed)
    }
}

/// The orders of a record's `reshuffles`, handed out in turn and checked
/// against the cards really shuffled in (C7, S6).
#[derive(Debug)]
pub struct RecordedReshuffles<'a, C> {
    lists: &'a [Vec<C>],
    used: usize,
}

impl<'a, C> RecordedReshuffles<'a, C> {
    /// Orders from a record's `reshuffles`.
    pub fn new(lists: &'a [Vec<C>]) -> Self {
        RecordedReshuffles { lists, used: 0 }
    }

    /// How many orders were handed out.
    pub fn used(&self) -> usize {
        self.used
    }
}

impl<C: Ord + Clone> Reshuffler<C> for RecordedReshuffles<'_, C> {
    fn reshuffle(&mut self, cards: &mut [C]) -> Result<(), ReshuffleError> {
        let i = self.used;
        let Some(order) = self.lists.get(i) else {
            return Err(ReshuffleError::NotRecorded {
                happened: i + 1,
                listed: self.lists.len(),
            });
        };
        let mut want = cards.to_vec();
        let mut got = order.clone();
        want.sort();
        got.sort();
        if want != got {
            return Err(ReshuffleError::NotAPermutation {
                index: i,
                cards: cards.len(),
            });
        }
        cards.clone_from_slice(order);
        self.used += 1;
        Ok(())
    }
}

/// Reshuffles with the named generator and writes every new draw pile into
/// `log` (a record's `reshuffles`).
pub struct Recording<'a, C> {
    /// The game's generator (ChaCha8).
    pub rng: &'a mut GameRng,
    /// The record's `reshuffles`.
    pub log: &'a mut Vec<Vec<C>>,
}

impl<C: Clone> Reshuffler<C> for Recording<'_, C> {
    fn reshuffle(&mut self, cards: &mut [C]) -> Result<(), ReshuffleError> {
        crate::rng::shuffle(cards, self.rng);
        self.log.push(cards.to_vec());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recorded_orders_are_checked_and_counted() {
        let lists = vec![vec![3, 1, 2]];
        let mut r = RecordedReshuffles::new(&lists);
        let mut cards = [1, 2, 3];
        r.reshuffle(&mut cards).unwrap();
        assert_eq!(cards, [3, 1, 2]);
        assert_eq!(r.used(), 1);
        let e = r.reshuffle(&mut cards).unwrap_err();
        assert_eq!(
            e,
            ReshuffleError::NotRecorded {
                happened: 2,
                listed: 1
            }
        );
        assert_eq!(
            e.to_string(),
            "the draw pile ran out a 2nd time but the record's `reshuffles` lists 1"
        );
        let none: Vec<Vec<u8>> = vec![];
        let e = RecordedReshuffles::new(&none)
            .reshuffle(&mut [1u8])
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "the draw pile ran out but the record's `reshuffles` lists none"
        );
        let bad = vec![vec![1, 1, 2]];
        let e = RecordedReshuffles::new(&bad)
            .reshuffle(&mut [1, 2, 3])
            .unwrap_err();
        assert!(matches!(
            e,
            ReshuffleError::NotAPermutation { index: 0, cards: 3 }
        ));
        assert_eq!(ordinal(11), "11th");
        assert_eq!(ordinal(23), "23rd");
    }
}
