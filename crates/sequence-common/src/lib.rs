//! Pieces shared by both games' engines: seats and the direction of play,
//! seeded reproducible randomness, and strict JSON record helpers.
//!
//! Nothing here does I/O or keeps global state.

pub mod json;
pub mod record;
pub mod rng;
pub mod seat;

pub use rng::{GameRng, PlayoutRng};
pub use seat::{Direction, Seat};
