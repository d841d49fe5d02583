//! The module functions on records and actions — `verify`, `replay` (its
//! `Step`s) and `action_text` — of `sequence_game._core`.

use super::args;
use super::convert::{json_to_py, record_value};
use super::errors::fail;
use super::{kind_of, PyGame, PyMove};
use crate::dynamic;
use pyo3::prelude::*;

/// One move of a replayed record: its index, seat, move and the game
/// after it.
#[pyclass(module = "sequence_game", name = "Step", get_all)]
pub struct PyStep {
    /// Index in the record's `moves`.
    index: usize,
    /// The seat that moved.
    seat: u8,
    /// The move.
    #[pyo3(name = "move")]
    mv: PyMove,
    /// The game after the move.
    game: Py<PyGame>,
}

#[pymethods]
impl PyStep {
    fn __repr__(&self) -> String {
        format!(
            "<Step {} seat {}: {}>",
            self.index,
            self.seat,
            self.mv.mv.text()
        )
    }
}

/// Verifies a record (JSON text, a dict, or a path) as `sequence verify`
/// does and returns its summary; raises `RecordError` with the same
/// message (`exit_code` 2 malformed, 1 an illegal move or a mismatch).
#[pyfunction]
pub(super) fn verify<'py>(
    py: Python<'py>,
    record: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let v = record_value(record)?;
    json_to_py(py, &dynamic::verify(&v).map_err(fail)?)
}

/// Replays a record move by move: a list of `Step`s (index, seat, move,
/// the game after it). Raises `RecordError` as `verify` does.
#[pyfunction]
pub(super) fn replay(py: Python<'_>, record: &Bound<'_, PyAny>) -> PyResult<Vec<PyStep>> {
    let v = record_value(record)?;
    let steps = dynamic::replay(&v).map_err(fail)?;
    steps
        .into_iter()
        .map(|s| {
            Ok(PyStep {
                index: s.index,
                seat: s.seat,
                mv: PyMove::new(s.mv),
                game: Py::new(py, PyGame::wrap(s.game))?,
            })
        })
        .collect()
}

/// What an action index means in a game, in words.
#[pyfunction]
#[pyo3(signature = (action, game = "classic"))]
pub(super) fn action_text(action: i128, game: &str) -> PyResult<String> {
    let kind = kind_of(game)?;
    let (actions, _) = dynamic::action_text(kind, 0);
    let action = args::action(actions, action)?;
    Ok(dynamic::action_text(kind, action).1.unwrap_or_default())
}
