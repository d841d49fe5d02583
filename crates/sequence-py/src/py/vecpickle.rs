//! Pickling a `VecEnv` (docs/python.md "Pickling and copies"): the vector
//! is its constructor's arguments, the seed of its last `reset` and every
//! call since that changed it (each step's actions, `random_actions`,
//! `records`), replayed on load. Every game of the vector is determined
//! by these (its deals, reshuffles and bots draw from generators seeded
//! from the vector's seed), so the copy is the same vector — the same
//! games, bots, generators, arrays and results — and goes on exactly as
//! the original. The log grows by 2 bytes per game per step; past
//! [`MAX_LOG`] bytes it is dropped and pickling refuses until the next
//! `reset`.

use super::errors::usage;
use super::vecenv::PyVecEnv;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyTuple};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The largest log kept by default (bytes): 64 MiB, e.g. 500,000 steps
/// of 64 games.
pub(crate) const MAX_LOG: usize = 64 << 20;

/// The largest log kept now ([`MAX_LOG`] unless a test lowered it with
/// `_vecenv_log_limit`).
static LIMIT: AtomicUsize = AtomicUsize::new(MAX_LOG);

/// Sets the largest log a `VecEnv` keeps, in bytes (for tests); returns
/// the previous limit.
#[pyfunction]
pub(crate) fn _vecenv_log_limit(bytes: usize) -> usize {
    LIMIT.swap(bytes, Ordering::Relaxed)
}

const STEP: u8 = 1;
const STEP_NO_OBS: u8 = 2;
const RANDOM: u8 = 3;
const RECORDS: u8 = 4;

/// The calls since the last reset that changed the vector.
#[derive(Clone, Debug, Default)]
pub(crate) struct VecLog {
    /// The seed of the last `reset` (`None`: the constructor's deal).
    pub base: Option<u64>,
    /// The calls, encoded: a tag byte, and for a step each game's action
    /// as 2 bytes (little-endian).
    pub ops: Vec<u8>,
    /// Whether the log outgrew [`MAX_LOG`] (then `ops` is empty).
    pub overflow: bool,
}

impl VecLog {
    /// Starts again from a reset with `seed`.
    pub fn reset(&mut self, seed: u64) {
        *self = VecLog {
            base: Some(seed),
            ..VecLog::default()
        };
    }

    fn room(&mut self, n: usize) -> bool {
        if self.overflow || self.ops.len() + n > LIMIT.load(Ordering::Relaxed) {
            self.overflow = true;
            self.ops = Vec::new();
            return false;
        }
        true
    }

    /// A step that was made with `actions` (every one in its mask, so in
    /// `0..num_actions`).
    pub fn step(&mut self, actions: &[i64], observe: bool) {
        if self.room(1 + 2 * actions.len()) {
            self.ops.push(if observe { STEP } else { STEP_NO_OBS });
            for &a in actions {
                self.ops.extend_from_slice(&(a as u16).to_le_bytes());
            }
        }
    }

    /// A call to `random_actions` (it draws from the games' generators).
    pub fn random(&mut self) {
        if self.room(1) {
            self.ops.push(RANDOM);
        }
    }

    /// A call to `records` (it takes the finished games' records).
    pub fn records(&mut self) {
        if self.room(1) {
            self.ops.push(RECORDS);
        }
    }
}

/// `__reduce__` of a `VecEnv`: `_vecenv_from_state(kwargs, base, next_seed,
/// ops)`.
///
/// # Errors
/// `UsageError` `pickle.vecenv_log` when the log outgrew [`MAX_LOG`].
pub(crate) fn reduce<'py>(
    py: Python<'py>,
    kwargs: &Py<PyDict>,
    log: &VecLog,
    next_seed: u64,
) -> PyResult<Bound<'py, PyTuple>> {
    if log.overflow {
        return Err(usage(
            "pickle.vecenv_log",
            format!(
                "this VecEnv has stepped more than {} bytes of actions since its last reset() \
                 (2 bytes per game per step), which a copy would replay: call reset() and \
                 pickle or copy it then",
                LIMIT.load(Ordering::Relaxed)
            ),
        ));
    }
    let args = (
        kwargs.bind(py).copy()?,
        log.base,
        next_seed,
        PyBytes::new(py, &log.ops),
    );
    super::pickle::reduce(py, "_vecenv_from_state", args.into_pyobject(py)?)
}

/// Rebuilds a pickled `VecEnv`: built from its arguments, reset with the
/// seed of its last reset, then every logged call replayed.
#[pyfunction]
pub(crate) fn _vecenv_from_state<'py>(
    py: Python<'py>,
    kwargs: &Bound<'py, PyDict>,
    base: Option<u64>,
    next_seed: u64,
    ops: &[u8],
) -> PyResult<Bound<'py, PyVecEnv>> {
    let cls = py.import("sequence_game._core")?.getattr("VecEnv")?;
    let env = cls.call((), Some(kwargs))?.cast_into::<PyVecEnv>()?;
    {
        let mut v = env.borrow_mut();
        if let Some(seed) = base {
            v.replay_reset(py, seed)?;
        }
        let n = v.num_envs();
        let bad = || usage("pickle.state", "not a pickled VecEnv's log");
        let mut i = 0;
        let mut actions = vec![0i64; n];
        while i < ops.len() {
            let tag = ops[i];
            i += 1;
            match tag {
                STEP | STEP_NO_OBS => {
                    let bytes = ops.get(i..i + 2 * n).ok_or_else(bad)?;
                    for (a, b) in actions.iter_mut().zip(bytes.chunks_exact(2)) {
                        *a = i64::from(u16::from_le_bytes([b[0], b[1]]));
                    }
                    i += 2 * n;
                    v.replay_step(py, &actions, tag == STEP)?;
                }
                RANDOM => v.replay_random()?,
                RECORDS => v.replay_records()?,
                _ => return Err(bad()),
            }
        }
        v.set_next_seed(next_seed);
    }
    Ok(env)
}
