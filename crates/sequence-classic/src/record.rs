//! Classic game records (RECORD.md): the generic records of
//! [`sequence_common::record`] for [`Game`] — read, write, replay, verify,
//! and [`Match`], a live game dealt from a seed that records itself. The
//! classic notation itself is in [`crate::notation`].

use crate::game::Game;

/// A classic game record (RECORD.md), typed.
pub type Record = sequence_common::record::Record<Game>;

/// A live classic game that keeps its own record.
pub type Match = sequence_common::record::Match<Game>;

pub use crate::notation::{move_from_json, move_to_json};

/// Replays a classic record given as JSON, calling `on_move(index, seat,
/// move, game_after)` after each move (see
/// [`sequence_common::record::replay`]).
///
/// # Errors
/// As [`sequence_common::record::replay`].
pub fn replay(
    v: &serde_json::Value,
    on_move: impl FnMut(usize, sequence_common::Seat, &crate::Move, &Game),
) -> Result<(Record, Game), sequence_common::record::ReplayError> {
    sequence_common::record::replay(v, on_move)
}
