//! The Python `Bot`: a built-in bot of either game behind a lock (searching
//! bots think without the GIL).

use super::args;
use super::errors::{fail, usage};
use super::{kind_of, pickle, PyGame, PyMove, PyView};
use crate::dynamic;
use pyo3::prelude::*;
use sequence_bots::AnyBot;
use sequence_common::GameKind;
use std::sync::Mutex;

/// A built-in bot: `random`, `greedy`, `greedy:40%`, `search:500it`,
/// `search:200ms`, `level:1` … `level:5` (docs/bots.md), seeded.
#[pyclass(module = "sequence_game", name = "Bot")]
pub struct PyBot {
    inner: Mutex<Box<dyn AnyBot>>,
    kind: GameKind,
    name: String,
    /// The spec and seed it was built with (pickling rebuilds it).
    spec: String,
    seed: u64,
}

impl PyBot {
    /// The bot `spec` for `game` seeded with `seed`.
    pub(crate) fn build(spec: &str, game: &str, seed: u64) -> PyResult<PyBot> {
        let kind = kind_of(game)?;
        let b = dynamic::new_bot(kind, spec, seed).map_err(fail)?;
        let name = b.name();
        Ok(PyBot {
            inner: Mutex::new(b),
            kind,
            name,
            spec: spec.to_string(),
            seed,
        })
    }
}

#[pymethods]
impl PyBot {
    /// A bot for `game` (`"classic"` or `"stacks"`) built from `spec`,
    /// with its own generator seeded by `seed`. Raises `BotError` for an
    /// unknown name or a bad option.
    #[new]
    #[pyo3(signature = (spec = "greedy", game = "classic", seed = 0))]
    fn py_new(spec: &str, game: &str, seed: i128) -> PyResult<PyBot> {
        let seed = args::game_seed(seed)?;
        PyBot::build(spec, game, seed)
    }

    /// Pickles (and deep-copies) as its name, game and seed: the copy is
    /// the bot built again, its generator from the start.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
        let args = (self.spec.as_str(), self.kind.name(), self.seed).into_pyobject(py)?;
        pickle::reduce(py, "_bot_from_state", args)
    }

    /// The seed the bot was built with.
    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    /// The bot's name (its spec).
    #[getter]
    fn name(&self) -> String {
        self.name.clone()
    }

    /// `classic` or `stacks`.
    #[getter]
    fn game(&self) -> &'static str {
        self.kind.name()
    }

    /// One of the view's legal moves; the view's seat must be the seat to
    /// act. Searching bots run without holding the GIL.
    fn choose(&self, py: Python<'_>, view: &PyView) -> PyResult<PyMove> {
        let v = &view.inner;
        let r = py.detach(|| match self.inner.lock() {
            Ok(mut b) => dynamic::choose(b.as_mut(), v),
            Err(p) => dynamic::choose(p.into_inner().as_mut(), v),
        });
        r.map(PyMove::new).map_err(fail)
    }

    /// Chooses for the seat to act in `game` (from its view only) and
    /// plays the move; returns it.
    fn play(&self, py: Python<'_>, game: &mut PyGame) -> PyResult<PyMove> {
        let Some(seat) = game.inner.to_act() else {
            return Err(usage("game.over", "the game is over"));
        };
        let view = game.inner.view(Some(seat)).map_err(fail)?;
        let v = &view;
        let mv = py
            .detach(|| match self.inner.lock() {
                Ok(mut b) => dynamic::choose(b.as_mut(), v),
                Err(p) => dynamic::choose(p.into_inner().as_mut(), v),
            })
            .map_err(fail)?;
        game.inner.play(Some(seat), &mv).map_err(fail)?;
        Ok(PyMove::new(mv))
    }

    fn __repr__(&self) -> String {
        format!("<Bot {} for {}>", self.name, self.kind)
    }
}
