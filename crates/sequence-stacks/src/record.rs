//! Sequence Stacks game records (RECORD-STACKS.md): the generic records of
//! [`sequence_common::record`] for [`Game`] — read, write, replay, verify,
//! and [`Match`], a live game dealt from a seed that records itself. The
//! Stacks notation itself is in [`crate::notation`].

use crate::game::Game;
use sequence_common::record::ReplayError;
use serde_json::Value;

/// A Sequence Stacks game record (RECORD-STACKS.md), typed.
pub type Record = sequence_common::record::Record<Game>;

/// A live Stacks game that keeps its own record.
pub type Match = sequence_common::record::Match<Game>;

pub use crate::notation::{decision_json, input_from_json, move_from_json};

/// Replays a record given as JSON (see [`sequence_common::record::replay`]).
///
/// # Errors
/// As [`sequence_common::record::replay`].
pub fn replay(v: &Value) -> Result<(Record, Game), ReplayError> {
    sequence_common::record::replay(v, |_, _, _, _| {})
}

/// Verifies a record and returns its summary: what `sequence verify`
/// prints for a `"sequence-stacks-record/1"` file.
///
/// # Errors
/// As [`replay`].
pub fn verify(v: &Value) -> Result<Value, ReplayError> {
    sequence_common::record::verify::<Game>(v)
}
