//! Pickling (`copy.deepcopy`, `multiprocessing`, Ray): each class reduces
//! to a module function of `sequence_game._core` and plain values.
//!
//! * A `Game` with a record is its record and its generator's state
//!   (ChaCha8 seed, stream and word position): unpickled, it replays the
//!   record and goes on exactly as the original would, reshuffles
//!   included.
//! * A `Game` without a record that can be rebuilt — a `replay` step, a
//!   Stacks determinization — is its trail ([`crate::trail`]: the record
//!   and the step, or the view and the seed, and the moves made since
//!   with their reshuffles) and its generator's state. A classic
//!   determinization cannot be pickled (`UsageError` `record.none`, saying
//!   why: its view's JSON does not carry everything the game holds).
//! * A `VecEnv` is its arguments and the calls since its last reset,
//!   replayed on load ([`super::vecpickle`]).
//! * A `Move` is its record entry and its table's sequence length.
//! * A `Bot` is its name, game and seed: unpickled it is built again (its
//!   generator starts over; searching bots keep no tree between moves).

use super::args;
use super::convert::{json_to_py, py_to_json};
use super::errors::{fail, usage};
use super::{kind_of, PyBot, PyGame, PyMove};
use crate::dynamic::{self, AnyMove};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};
use rand_chacha::rand_core::SeedableRng;
use sequence_common::rng::GameRng;
use sequence_common::Seat;

/// `(restore, args)` for `__reduce__`: the module function `name` of
/// `sequence_game._core` and its arguments.
pub(crate) fn reduce<'py>(
    py: Python<'py>,
    name: &str,
    args: Bound<'py, PyTuple>,
) -> PyResult<Bound<'py, PyTuple>> {
    let f = py.import("sequence_game._core")?.getattr(name)?;
    PyTuple::new(py, [f.into_any(), args.into_any()])
}

/// `__reduce__` of a `Game`: `_game_from_state(record, seed, stream,
/// word_pos, unwritten)` with a record (`unwritten`: the moves since its
/// last entry that records do not write, the declines of an open Stacks
/// Block window, S5b), `_trail_game_from_state(game, trail, seed,
/// stream, word_pos)` with a trail.
///
/// # Errors
/// `UsageError` `record.none` for a game that has neither.
pub(crate) fn reduce_game<'py>(py: Python<'py>, g: &PyGame) -> PyResult<Bound<'py, PyTuple>> {
    let rng = g.inner.rng();
    let seed = PyBytes::new(py, &rng.get_seed());
    let pos = rng.get_word_pos().to_le_bytes().to_vec();
    if let Ok(record) = g.inner.record() {
        let unwritten = json_to_py(py, &serde_json::Value::from(g.inner.unwritten()))?;
        let args = (
            json_to_py(py, &record)?,
            seed,
            rng.get_stream(),
            pos,
            unwritten,
        );
        return reduce(py, "_game_from_state", args.into_pyobject(py)?);
    }
    let Some(trail) = g.inner.trail_json() else {
        return Err(usage(
            "record.none",
            "a classic game from View.determinize cannot be pickled: it has no record, and \
             its view's JSON does not carry all it holds (stuck_turns, C6a, and whether a \
             dead card was exchanged this turn), so it could not be rebuilt exactly; pickle \
             the game it came from (or the view's JSON and the seed) and determinize again",
        ));
    };
    let args = (
        g.inner.kind().name(),
        json_to_py(py, &trail)?,
        seed,
        rng.get_stream(),
        pos,
    );
    reduce(py, "_trail_game_from_state", args.into_pyobject(py)?)
}

/// The generator of a pickled game.
fn rng_of(seed: [u8; 32], stream: u64, word_pos: Vec<u8>) -> PyResult<GameRng> {
    let pos: [u8; 16] = word_pos
        .try_into()
        .map_err(|_| usage("pickle.state", "a game's generator position is 16 bytes"))?;
    let mut rng = GameRng::from_seed(seed);
    rng.set_stream(stream);
    rng.set_word_pos(u128::from_le_bytes(pos));
    Ok(rng)
}

/// Rebuilds a pickled `Game` without a record from its trail.
#[pyfunction]
pub(crate) fn _trail_game_from_state(
    game: &str,
    trail: &Bound<'_, PyAny>,
    seed: [u8; 32],
    stream: u64,
    word_pos: Vec<u8>,
) -> PyResult<PyGame> {
    let v = py_to_json(trail)?;
    let mut g = crate::trail::restore(kind_of(game)?, &v).map_err(fail)?;
    g.set_rng(rng_of(seed, stream, word_pos)?);
    Ok(PyGame::wrap(g))
}

/// Rebuilds a pickled `Game`: its record as it stood after its last
/// entry, then its unwritten moves (a pickle without them, from before
/// they were kept, replays the record as `Game.from_record` does).
#[pyfunction]
#[pyo3(signature = (record, seed, stream, word_pos, unwritten=None))]
pub(crate) fn _game_from_state(
    record: &Bound<'_, PyAny>,
    seed: [u8; 32],
    stream: u64,
    word_pos: Vec<u8>,
    unwritten: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyGame> {
    let v = py_to_json(record)?;
    let rng = rng_of(seed, stream, word_pos)?;
    let g = match unwritten {
        Some(u) => {
            let u = py_to_json(u)?;
            let list = u
                .as_array()
                .ok_or_else(|| usage("pickle.state", "unwritten moves are a list"))?;
            dynamic::game_from_pickle(&v, list, rng).map_err(fail)?
        }
        None => {
            let mut g = dynamic::game_from_record(&v, 0).map_err(fail)?;
            g.set_rng(rng);
            g
        }
    };
    Ok(PyGame::wrap(g))
}

/// A `Move`'s pickled state: `(game, entry, sequence_length)`.
pub(crate) fn move_state<'py>(py: Python<'py>, m: &AnyMove) -> PyResult<Bound<'py, PyTuple>> {
    let len = dynamic::written_with(m);
    let entry = m.entry(Seat(0)).unwrap_or_default();
    (m.kind().name(), json_to_py(py, &entry)?, len).into_pyobject(py)
}

/// Rebuilds a pickled `Move`.
#[pyfunction]
pub(crate) fn _move_from_state(game: &str, entry: &Bound<'_, PyAny>, len: u8) -> PyResult<PyMove> {
    let v = py_to_json(entry)?;
    let bad = |e: String| usage("pickle.state", format!("not a pickled move: {e}"));
    let mv = dynamic::move_from_state(kind_of(game)?, &v, len).map_err(bad)?;
    Ok(PyMove::new(mv))
}

/// Rebuilds a pickled `Bot` from its name, game and seed.
#[pyfunction]
pub(crate) fn _bot_from_state(spec: &str, game: &str, seed: i128) -> PyResult<PyBot> {
    let seed = args::game_seed(seed)?;
    PyBot::build(spec, game, seed)
}
