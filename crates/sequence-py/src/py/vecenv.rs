//! The Python `VecEnv`: [`crate::vector`]'s games behind numpy arrays the
//! vector owns and overwrites.

use super::args;
use super::convert::py_to_json;
use super::errors::{fail, usage};
use super::kind_of;
use super::vecpickle::{self, VecLog};
use crate::vector::{self, DynVec, Out};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::Mutex;

/// `N` games stepped together in Rust (docs/python.md "Vectorized"):
/// stacked `uint8` observations `[N, observation_size]`, masks
/// `[N, num_actions]`, seats to act `[N]`, rewards and done flags. A game
/// that ends is dealt again in the same step.
#[pyclass(module = "sequence_game", name = "VecEnv")]
pub struct PyVecEnv {
    inner: Mutex<Box<dyn DynVec>>,
    obs: Py<PyArray2<u8>>,
    mask: Py<PyArray2<i8>>,
    to_act: Py<PyArray1<i64>>,
    rewards: Py<PyArray2<f32>>,
    done: Py<PyArray1<bool>>,
    players: u8,
    /// The seed the next `reset()` without one deals from.
    seed: u64,
    actions_buf: Vec<i64>,
    /// Whether the games keep their records.
    keeps_records: bool,
    /// The constructor's arguments (for pickling).
    kwargs: Py<PyDict>,
    /// The calls since the last reset (for pickling: [`VecLog`]).
    log: VecLog,
}

#[pymethods]
impl PyVecEnv {
    /// `num_envs` games of one table. With `opponents` (a bot name, e.g.
    /// `"greedy"`), the caller plays `seat` in every game and the bots
    /// play the other seats inside `step` (rewards `[N, 1]`); without,
    /// the caller plays every seat (rewards `[N, players]`). `threads`:
    /// step the games on that many threads (results do not depend on it).
    /// `records`: every game keeps its record (`records()`; dealt as
    /// `Game` deals, slower than the fast shuffle). `roles` (self-play
    /// only): one entry per seat, a bot name (the vector's bot plays that
    /// role inside `step`) or `None` (the caller's); with `alternate`, the
    /// roles move one seat on with every game (`roles_to_act()`,
    /// `rotations()`).
    #[new]
    #[pyo3(signature = (game = "classic", num_envs = 64, players = 2, teams = None, options = None, seed = 0, opponents = None, seat = None, threads = 1, records = false, roles = None, alternate = false))]
    #[allow(clippy::too_many_arguments)]
    fn py_new(
        py: Python<'_>,
        game: &str,
        num_envs: i128,
        players: u8,
        teams: Option<u8>,
        options: Option<&Bound<'_, PyAny>>,
        seed: i128,
        opponents: Option<&str>,
        seat: Option<i128>,
        threads: i128,
        records: bool,
        roles: Option<Vec<Option<String>>>,
        alternate: bool,
    ) -> PyResult<PyVecEnv> {
        let num_envs = args::in_range("env.num_envs", "num_envs", num_envs, 1, 1 << 20)? as usize;
        let seed = args::env_seed(seed)?;
        let threads = args::in_range("env.threads", "threads", threads, 1, 256)? as usize;
        let seat = match (seat, opponents) {
            (Some(s), Some(_)) => args::in_range("seat.no_such_seat", "seat", s, 0, 255)? as u8,
            (None, _) => 0,
            (Some(_), None) => {
                return Err(usage(
                    "env.seat",
                    "seat is the caller's seat against bots: give it with opponents=... \
                     (without opponents the caller plays every seat)",
                ))
            }
        };
        let kwargs = PyDict::new(py);
        kwargs.set_item("game", game)?;
        kwargs.set_item("num_envs", num_envs)?;
        kwargs.set_item("players", players)?;
        kwargs.set_item("teams", teams)?;
        kwargs.set_item("options", options)?;
        kwargs.set_item("seed", seed)?;
        kwargs.set_item("opponents", opponents)?;
        kwargs.set_item("seat", opponents.map(|_| seat))?;
        kwargs.set_item("threads", threads)?;
        kwargs.set_item("records", records)?;
        kwargs.set_item("roles", roles.clone())?;
        kwargs.set_item("alternate", alternate)?;
        let kind = kind_of(game)?;
        let opts = options.map(py_to_json).transpose()?;
        let spec = vector::VecSpec {
            players,
            teams,
            options: opts.as_ref(),
            n: num_envs,
            seed,
            opponents: opponents.map(|o| (seat, o)),
            records,
        };
        let mut inner = vector::new_vec(kind, spec).map_err(fail)?;
        inner.set_threads(threads);
        if roles.is_some() || alternate {
            let specs = roles.unwrap_or_else(|| vec![None; usize::from(players)]);
            inner.set_roles(specs, alternate, seed).map_err(fail)?;
        }
        let (n, d, a, w) = (
            num_envs,
            inner.obs_len(),
            inner.actions(),
            inner.reward_width(),
        );
        let mut env = PyVecEnv {
            obs: PyArray2::zeros(py, [n, d], false).unbind(),
            mask: PyArray2::zeros(py, [n, a], false).unbind(),
            to_act: PyArray1::zeros(py, [n], false).unbind(),
            rewards: PyArray2::zeros(py, [n, w], false).unbind(),
            done: PyArray1::zeros(py, [n], false).unbind(),
            inner: Mutex::new(inner),
            players,
            seed,
            actions_buf: vec![0; n],
            keeps_records: records,
            kwargs: kwargs.unbind(),
            log: VecLog::default(),
        };
        env.reset_arrays(py, seed)?;
        Ok(env)
    }

    /// Number of games.
    #[getter]
    pub(crate) fn num_envs(&self) -> usize {
        self.actions_buf.len()
    }

    /// Seats per game.
    #[getter]
    fn players(&self) -> u8 {
        self.players
    }

    /// Actions per game.
    #[getter]
    fn num_actions(&self) -> PyResult<usize> {
        Ok(self.lock()?.actions())
    }

    /// Length of one observation.
    #[getter]
    fn observation_size(&self) -> PyResult<usize> {
        Ok(self.lock()?.obs_len())
    }

    /// Deals every game again and returns `(obs, mask, to_act)`. With
    /// `seed`, from that seed (as a new vector built with it); without,
    /// from the next seed of the vector's own sequence: the first
    /// `reset()` deals the constructor's games again, each later one new
    /// games. The arrays are the vector's own and are overwritten by the
    /// next call: copy what you keep.
    #[pyo3(signature = (seed = None))]
    #[allow(clippy::type_complexity)]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seed: Option<i128>,
    ) -> PyResult<(
        Bound<'py, PyArray2<u8>>,
        Bound<'py, PyArray2<i8>>,
        Bound<'py, PyArray1<i64>>,
    )> {
        let seed = match seed {
            Some(s) => args::env_seed(s)?,
            None => self.seed,
        };
        self.reset_arrays(py, seed)?;
        self.log.reset(seed);
        self.seed = vector::next_seed(seed);
        Ok((
            self.obs.bind(py).clone(),
            self.mask.bind(py).clone(),
            self.to_act.bind(py).clone(),
        ))
    }

    /// Makes one action per game (an integer array of length `num_envs`)
    /// and returns `(obs, mask, to_act, rewards, done)`. Raises
    /// `ActionError` naming the first game whose action is outside its
    /// mask; no game moves then. `observe=False` leaves `obs` as it was
    /// (faster, for agents that read only the masks).
    #[pyo3(signature = (actions, observe = true))]
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
        observe: bool,
    ) -> PyResult<(
        Bound<'py, PyArray2<u8>>,
        Bound<'py, PyArray2<i8>>,
        Bound<'py, PyArray1<i64>>,
        Bound<'py, PyArray2<f32>>,
        Bound<'py, PyArray1<bool>>,
    )> {
        if let Ok(arr) = actions.extract::<PyReadonlyArray1<'py, i64>>() {
            match arr.as_slice() {
                Ok(s) if s.len() == self.actions_buf.len() => self.actions_buf.copy_from_slice(s),
                Ok(s) => self.actions_buf = s.to_vec(),
                // A strided view (`a[::2]`, a column): element by element.
                Err(_) => self.actions_buf = arr.as_array().iter().copied().collect(),
            }
        } else {
            self.actions_buf = actions.extract::<Vec<i64>>().map_err(|_| {
                usage(
                    "env.actions",
                    "actions must be a sequence or 1-d array of integers, one per game",
                )
            })?;
        }
        self.step_arrays(py, observe)?;
        self.log.step(&self.actions_buf, observe);
        Ok((
            self.obs.bind(py).clone(),
            self.mask.bind(py).clone(),
            self.to_act.bind(py).clone(),
            self.rewards.bind(py).clone(),
            self.done.bind(py).clone(),
        ))
    }

    /// A uniformly random legal action per game, drawn in Rust from the
    /// games' own generators.
    fn random_actions<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let v = self.draw_random_actions()?;
        self.log.random();
        Ok(PyArray1::from_vec(py, v))
    }

    /// How the games that ended in the last step ended: `(winner,
    /// length)`, two `int64` arrays `[N]` — the winning side (−1 for a
    /// draw) and the moves the game took (bots' included); meaningful
    /// where that step's `done` is True.
    /// The third array is each ended game's rotation of roles (see
    /// `rotations()`; 0 without `alternate`).
    #[allow(clippy::type_complexity)]
    fn results<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(
        Bound<'py, PyArray1<i64>>,
        Bound<'py, PyArray1<i64>>,
        Bound<'py, PyArray1<i64>>,
    )> {
        let ended = self.lock()?.ended();
        Ok((
            PyArray1::from_iter(py, ended.iter().map(|e| e.winner)),
            PyArray1::from_iter(py, ended.iter().map(|e| e.length)),
            PyArray1::from_iter(py, ended.iter().map(|e| e.rotation)),
        ))
    }

    /// The role that must decide in each game (`int64` `[N]`, −1 for
    /// none): the seat to act moved by the game's rotation, `(seat +
    /// rotation) % players`; the seat itself without `alternate`.
    fn roles_to_act<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        Ok(PyArray1::from_vec(py, self.lock()?.roles_to_act()))
    }

    /// Each game's rotation of roles (`int64` `[N]`): the role of seat `s`
    /// is `(s + rotation) % players`.
    fn rotations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        Ok(PyArray1::from_vec(py, self.lock()?.rotations()))
    }

    /// The records of the games finished since the last call (or reset),
    /// as `(index, record)` pairs (a record is a dict in the format of
    /// RECORD.md / RECORD-STACKS.md, with `result`; `sg.verify` accepts
    /// it). Needs `VecEnv(records=True)`: `UsageError` (`env.records`)
    /// otherwise.
    fn records<'py>(&mut self, py: Python<'py>) -> PyResult<Vec<(usize, Bound<'py, PyAny>)>> {
        if !self.keeps_records {
            return Err(usage(
                "env.records",
                "this vector keeps no records: build it with VecEnv(..., records=True)",
            ));
        }
        let recs = self.lock()?.take_records();
        self.log.records();
        recs.into_iter()
            .map(|(i, v)| Ok((i, super::convert::json_to_py(py, &v)?)))
            .collect()
    }

    /// Results since the last reset: `games`, `wins` by side, `draws`,
    /// `moves`.
    fn tally<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let t = self.lock()?.tally();
        let d = PyDict::new(py);
        d.set_item("games", t.games)?;
        d.set_item("wins", t.wins)?;
        d.set_item("draws", t.draws)?;
        d.set_item("moves", t.moves)?;
        Ok(d)
    }

    /// The vector as its arguments and the calls since its last reset,
    /// replayed on load (docs/python.md "Pickling and copies").
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
        vecpickle::reduce(py, &self.kwargs, &self.log, self.seed)
    }

    fn __repr__(&self) -> String {
        format!(
            "<VecEnv num_envs={} players={}>",
            self.actions_buf.len(),
            self.players
        )
    }
}

impl PyVecEnv {
    /// Replays a reset with `seed` (unpickling).
    pub(crate) fn replay_reset(&mut self, py: Python<'_>, seed: u64) -> PyResult<()> {
        self.reset_arrays(py, seed)?;
        self.log.reset(seed);
        Ok(())
    }

    /// Replays a step (unpickling).
    pub(crate) fn replay_step(
        &mut self,
        py: Python<'_>,
        actions: &[i64],
        observe: bool,
    ) -> PyResult<()> {
        self.actions_buf.copy_from_slice(actions);
        self.step_arrays(py, observe)?;
        self.log.step(actions, observe);
        Ok(())
    }

    /// Replays a `random_actions` call (unpickling).
    pub(crate) fn replay_random(&mut self) -> PyResult<()> {
        self.draw_random_actions()?;
        self.log.random();
        Ok(())
    }

    /// Replays a `records` call (unpickling).
    pub(crate) fn replay_records(&mut self) -> PyResult<()> {
        self.lock()?.take_records();
        self.log.records();
        Ok(())
    }

    /// Sets the seed the next `reset()` without one deals from.
    pub(crate) fn set_next_seed(&mut self, seed: u64) {
        self.seed = seed;
    }

    fn draw_random_actions(&self) -> PyResult<Vec<i64>> {
        let mut v = vec![0i64; self.actions_buf.len()];
        self.lock()?.random_actions(&mut v);
        Ok(v)
    }

    /// Steps every game with `actions_buf` into the output arrays.
    fn step_arrays(&mut self, py: Python<'_>, observe: bool) -> PyResult<()> {
        self.renew_arrays(py);
        let actions = &self.actions_buf;
        let inner = &self.inner;
        self.fill_arrays(py, |out| {
            py.detach(|| {
                let mut core = match inner.lock() {
                    Ok(c) => c,
                    Err(p) => p.into_inner(),
                };
                core.step(actions, out, observe)
            })
            .map_err(fail)
        })
    }

    fn lock(&self) -> PyResult<std::sync::MutexGuard<'_, Box<dyn DynVec>>> {
        Ok(match self.inner.lock() {
            Ok(g) => g,
            Err(p) => p.into_inner(),
        })
    }

    fn reset_arrays(&mut self, py: Python<'_>, seed: u64) -> PyResult<()> {
        self.renew_arrays(py);
        let inner = &self.inner;
        self.fill_arrays(py, |out| {
            let mut core = match inner.lock() {
                Ok(c) => c,
                Err(p) => p.into_inner(),
            };
            core.reset(seed, out);
            Ok(())
        })
    }

    /// Makes new output arrays for those the caller made unusable (set
    /// read-only, resized or reshaped): the vector writes into its own
    /// arrays, and one it can no longer write is replaced, not an error.
    fn renew_arrays(&mut self, py: Python<'_>) {
        let n = self.actions_buf.len();
        let (d, a, w) = match self.inner.lock() {
            Ok(c) => (c.obs_len(), c.actions(), c.reward_width()),
            Err(p) => {
                let c = p.into_inner();
                (c.obs_len(), c.actions(), c.reward_width())
            }
        };
        fn usable<T: numpy::Element, D: numpy::ndarray::Dimension>(
            a: &Bound<'_, numpy::PyArray<T, D>>,
            shape: &[usize],
        ) -> bool {
            use numpy::PyUntypedArrayMethods;
            a.shape() == shape && a.is_contiguous() && a.try_readwrite().is_ok()
        }
        if !usable(self.obs.bind(py), &[n, d]) {
            self.obs = PyArray2::zeros(py, [n, d], false).unbind();
        }
        if !usable(self.mask.bind(py), &[n, a]) {
            self.mask = PyArray2::zeros(py, [n, a], false).unbind();
        }
        if !usable(self.to_act.bind(py), &[n]) {
            self.to_act = PyArray1::zeros(py, [n], false).unbind();
        }
        if !usable(self.rewards.bind(py), &[n, w]) {
            self.rewards = PyArray2::zeros(py, [n, w], false).unbind();
        }
        if !usable(self.done.bind(py), &[n]) {
            self.done = PyArray1::zeros(py, [n], false).unbind();
        }
    }

    /// Runs `f` on the output arrays (`obs`, `mask`, `to_act`, `rewards` as
    /// writable slices, `done` as bytes, all zero), then copies `done` into
    /// its boolean array.
    fn fill_arrays(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut Out<'_>) -> PyResult<()>,
    ) -> PyResult<()> {
        let buffer = |e: numpy::AsSliceError| usage("env.buffer", e.to_string());
        let (obs, mask) = (self.obs.bind(py), self.mask.bind(py));
        let (to_act, rewards) = (self.to_act.bind(py), self.rewards.bind(py));
        let borrow = |e: numpy::BorrowError| usage("env.buffer", e.to_string());
        let (mut o, mut m) = (
            obs.try_readwrite().map_err(borrow)?,
            mask.try_readwrite().map_err(borrow)?,
        );
        let (mut t, mut r) = (
            to_act.try_readwrite().map_err(borrow)?,
            rewards.try_readwrite().map_err(borrow)?,
        );
        let mut done_u8 = vec![0u8; self.actions_buf.len()];
        f(&mut Out {
            obs: o.as_slice_mut().map_err(buffer)?,
            mask: bytes_of(m.as_slice_mut().map_err(buffer)?),
            to_act: t.as_slice_mut().map_err(buffer)?,
            rewards: r.as_slice_mut().map_err(buffer)?,
            done: &mut done_u8,
        })?;
        let done = self.done.bind(py);
        let mut d = done.try_readwrite().map_err(borrow)?;
        for (x, &y) in d.as_slice_mut().map_err(buffer)?.iter_mut().zip(&done_u8) {
            *x = y != 0;
        }
        Ok(())
    }
}

/// The mask's `int8` numpy buffer as the bytes the vector writes (0 or 1).
fn bytes_of(s: &mut [i8]) -> &mut [u8] {
    // SAFETY: `i8` and `u8` have the same size, alignment and validity
    // (every bit pattern is a value of both), and the returned slice
    // borrows `s` exclusively for its whole life.
    unsafe { &mut *(s as *mut [i8] as *mut [u8]) }
}
