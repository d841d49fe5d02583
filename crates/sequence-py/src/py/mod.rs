//! The PyO3 bindings: the extension module `sequence_game._core`. Every
//! class holds the object-safe core of [`crate::dynamic`] and
//! [`crate::vector`], so each is written once for both games.

mod args;
mod bot;
mod convert;
mod errors;
mod options;
mod pickle;
mod records;
mod stats;
mod vecenv;
mod vecpickle;

use crate::dynamic::{self, AnyMove, Game, View};
pub(crate) use bot::PyBot;
use convert::{json_to_py, py_to_json, record_value};
use errors::{fail, usage};
use numpy::PyArray1;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use records::{action_text, replay, verify, PyStep};
use sequence_common::{GameKind, Outcome};
use std::sync::Mutex;

/// Room for one observation or one mask on the stack (both games' are
/// shorter).
const MAX_BUF: usize = crate::dynamic::MAX_BUF;

pub(crate) fn kind_of(name: &str) -> PyResult<GameKind> {
    name.parse::<GameKind>()
        .map_err(|e| usage("game.unknown", e))
}

fn status(o: Outcome) -> &'static str {
    o.name()
}

/// The getters a game and a view share, written once for both classes
/// (`$class` holds `inner`, a [`Game`] or a [`View`]): which game,
/// who must decide, and how it stands.
macro_rules! position_getters {
    ($class:ty) => {
        #[pymethods]
        impl $class {
            /// `classic` or `stacks`.
            #[getter]
            fn game(&self) -> &'static str {
                self.inner.kind().name()
            }

            /// The seat that must decide now (in Stacks also a seat offered
            /// to Block, S5b); `None` once the game is over.
            #[getter]
            fn to_act(&self) -> Option<u8> {
                self.inner.to_act()
            }

            /// `playing`, `won` or `draw`.
            #[getter]
            fn status(&self) -> &'static str {
                status(self.inner.outcome())
            }

            /// The winning side (team or seat), `None` while playing or
            /// drawn.
            #[getter]
            fn winner(&self) -> Option<u8> {
                self.inner.outcome().winner()
            }

            /// Whether the game has ended (a win, C9 / S7, or a draw, C6a /
            /// S6a).
            #[getter]
            fn is_over(&self) -> bool {
                self.inner.outcome().is_over()
            }

            /// Moves made so far (every decision counts one).
            #[getter]
            fn ply(&self) -> u32 {
                self.inner.ply()
            }
        }
    };
}

position_getters!(PyGame);
position_getters!(PyView);

/// One move of either game (immutable, hashable, comparable). Moves come
/// from `Game.legal_moves()`, `View.legal_moves()`, `Game.parse_move()`
/// and the bots.
#[pyclass(frozen, eq, hash, module = "sequence_game", name = "Move")]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PyMove {
    pub(crate) mv: AnyMove,
}

impl PyMove {
    fn new(mv: AnyMove) -> PyMove {
        PyMove { mv }
    }
}

/// The read-only properties of a move, written once: each getter applies
/// its function to the move.
macro_rules! move_getters {
    ($($(#[doc = $doc:literal])* $name:ident: $ty:ty = $get:expr;)*) => {
        #[pymethods]
        impl PyMove {
            $(
                $(#[doc = $doc])*
                #[getter]
                fn $name(&self) -> $ty {
                    let get: fn(&AnyMove) -> $ty = $get;
                    get(&self.mv)
                }
            )*
        }
    };
}

move_getters! {
    /// The kind of move: classic `place`, `remove`, `dead`, `pass`,
    /// `discard`; Stacks `pile`, `skip`, `reverse`, `steal_card`,
    /// `steal_chip`, `block`, `pass`, `discard`, `end`.
    kind: &'static str = |m| dynamic::move_fields(m).kind;
    /// The card played or discarded (record code, e.g. `7H`, `B3`), if any.
    card: Option<String> = |m| dynamic::move_fields(m).card;
    /// Classic: the space a chip goes on or leaves (`e5`).
    at: Option<String> = |m| dynamic::move_fields(m).at;
    /// Stacks: the place of the pile (`blue-a`).
    place: Option<&'static str> = |m| dynamic::move_fields(m).place;
    /// Stacks: where the card comes from, `hand` or `discard`.
    source: Option<&'static str> = |m| dynamic::move_fields(m).source;
    /// Stacks: the seat a steal robs.
    target: Option<u8> = |m| dynamic::move_fields(m).target;
    /// Stacks: the colour of the chip a Steal-a-Chip takes.
    colour: Option<&'static str> = |m| dynamic::move_fields(m).colour;
    /// Classic: the sequences a placement declared (C8a), as
    /// `(first, last)` spaces; `None` for the engine's default choice.
    declare: Option<Vec<(String, String)>> = |m| dynamic::move_fields(m).declare;
    /// The engine's dense move key (the same move has the same key in any
    /// position).
    key: usize = |m| m.key();
    /// The move in words, e.g. `7♥ on d6`.
    text: String = |m| m.text();
}

#[pymethods]
impl PyMove {
    /// `classic` or `stacks`.
    #[getter]
    fn game(&self) -> &'static str {
        self.mv.kind().name()
    }

    /// The move by `seat` as a record entry (RECORD.md,
    /// RECORD-STACKS.md), e.g. `{"seat": 0, "card": "7H", "at": "d6"}`.
    fn to_json<'py>(&self, py: Python<'py>, seat: i128) -> PyResult<Bound<'py, PyAny>> {
        let seat = args::seat(u8::MAX, seat)?;
        json_to_py(
            py,
            &self
                .mv
                .entry(sequence_common::Seat(seat))
                .unwrap_or_default(),
        )
    }

    fn __str__(&self) -> String {
        self.mv.text()
    }

    /// Pickles as the move's record entry (see `src/py/pickle.rs`).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
        pickle::reduce(py, "_move_from_state", pickle::move_state(py, &self.mv)?)
    }

    fn __repr__(&self) -> String {
        format!("<Move {}: {}>", self.mv.kind(), self.mv.text())
    }
}

/// One shared `Move` object per distinct move: moves are immutable, and
/// handing out the same object makes `legal_moves()` several times faster
/// than building a new object per move per call. Per game, a slot per
/// move key ([`sequence_common::Rules::MOVE_KEYS`]); a slot holds the last
/// move of its key handed out (moves of one key that differ, such as
/// classic placements declaring different sequences, take turns).
static MOVE_CACHE: Mutex<Vec<(GameKind, MoveSlots)>> = Mutex::new(Vec::new());

/// A game's slots of [`MOVE_CACHE`], one per move key.
type MoveSlots = Vec<Option<Py<PyMove>>>;

fn moves_list<'py>(py: Python<'py>, moves: Vec<AnyMove>) -> PyResult<Bound<'py, PyList>> {
    // `try_lock`: a finalizer run while the cache is held (by this very
    // thread) must not deadlock; it builds fresh objects instead.
    let Ok(mut cache) = MOVE_CACHE.try_lock() else {
        return PyList::new(py, moves.into_iter().map(PyMove::new));
    };
    let mut objs: Vec<Bound<'py, PyAny>> = Vec::with_capacity(moves.len());
    for m in moves {
        let kind = m.kind();
        let at = match cache.iter().position(|(k, _)| *k == kind) {
            Some(at) => at,
            None => {
                let mut slots = Vec::new();
                slots.resize_with(dynamic::move_keys(kind), || None);
                cache.push((kind, slots));
                cache.len() - 1
            }
        };
        let cache = &mut cache[at].1;
        match Some(m.key()).filter(|&i| i < cache.len()) {
            Some(i) => {
                let obj = match &cache[i] {
                    Some(p) if p.get().mv == m => p.clone_ref(py),
                    _ => {
                        let p = Py::new(py, PyMove::new(m))?;
                        cache[i] = Some(p.clone_ref(py));
                        p
                    }
                };
                objs.push(obj.into_bound(py).into_any());
            }
            None => objs.push(Bound::new(py, PyMove::new(m))?.into_any()),
        }
    }
    drop(cache);
    PyList::new(py, objs)
}

/// A move given as a `Move` or a record entry (a dict; `seat` may be left
/// out for the seat to act); returns the seat it names, if any.
fn move_arg(game: &Game, m: &Bound<'_, PyAny>) -> PyResult<(Option<u8>, AnyMove)> {
    if let Ok(pm) = m.cast::<PyMove>() {
        return Ok((None, pm.get().mv.clone()));
    }
    if m.is_instance_of::<PyDict>() {
        let v = py_to_json(m)?;
        let named = v.get("seat").is_some();
        let (seat, mv) = game.parse_move(&v).map_err(fail)?;
        return Ok((named.then_some(seat), mv));
    }
    Err(usage(
        "move.type",
        format!(
            "a move is a Move or a record entry (dict), not {}",
            m.get_type().name()?
        ),
    ))
}

/// A game of classic Sequence or Sequence Stacks: the whole state, hidden
/// cards included (give a player only its `view`). Rules: RULES.md C1–C11
/// (classic) and S1–S7 (Stacks).
#[pyclass(module = "sequence_game", name = "Game")]
pub struct PyGame {
    inner: Game,
}

impl PyGame {
    fn wrap(inner: Game) -> PyGame {
        PyGame { inner }
    }

    /// A seat argument of this table.
    fn seat(&self, seat: i128) -> PyResult<u8> {
        args::seat(self.inner.players(), seat)
    }
}

#[pymethods]
impl PyGame {
    /// A new game dealt from `seed` (ChaCha8, as the rules say: the same
    /// deal as `sequence selfplay --seed`). `game` is `"classic"` or
    /// `"stacks"`; `teams` only for classic (C3; default by the player
    /// count); `options` a dict of rule options as records write them.
    #[new]
    #[pyo3(signature = (game = "classic", players = 2, teams = None, options = None, seed = 0))]
    fn py_new(
        game: &str,
        players: i128,
        teams: Option<i128>,
        options: Option<&Bound<'_, PyAny>>,
        seed: i128,
    ) -> PyResult<PyGame> {
        let seed = args::game_seed(seed)?;
        let kind = kind_of(game)?;
        let players = args::count(kind, false, players)?;
        let teams = teams.map(|t| args::count(kind, true, t)).transpose()?;
        let opts = options.map(py_to_json).transpose()?;
        dynamic::new_game(kind, players, teams, opts.as_ref(), seed)
            .map(PyGame::wrap)
            .map_err(fail)
    }

    /// Replays a record (JSON text, a dict, or a path) into a game that
    /// goes on; later reshuffles draw from `seed`. Raises `RecordError`
    /// with `sequence verify`'s message.
    #[staticmethod]
    #[pyo3(signature = (record, seed = 0))]
    fn from_record(record: &Bound<'_, PyAny>, seed: i128) -> PyResult<PyGame> {
        let seed = args::game_seed(seed)?;
        let v = record_value(record)?;
        dynamic::game_from_record(&v, seed)
            .map(PyGame::wrap)
            .map_err(fail)
    }

    /// Seats at the table, numbered 0 … players-1 clockwise.
    #[getter]
    fn players(&self) -> u8 {
        self.inner.players()
    }

    /// Teams (classic, C3); `None` in Stacks, where each seat plays alone.
    #[getter]
    fn teams(&self) -> Option<u8> {
        self.inner.teams()
    }

    /// Sides that can win: the teams (classic) or the seats (Stacks).
    #[getter]
    fn sides(&self) -> u8 {
        self.inner.sides()
    }

    /// The side of `seat`: its team (`seat % teams`, C3) or the seat.
    fn side_of(&self, seat: i128) -> PyResult<u8> {
        let seat = self.seat(seat)?;
        self.inner.side_of(seat).map_err(fail)
    }

    /// The dealer (C5, S2).
    #[getter]
    fn dealer(&self) -> u8 {
        self.inner.dealer()
    }

    /// The rule options that differ from the official rules (a record's
    /// `options`).
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &self.inner.options())
    }

    /// The last move and its seat, as a record writes it.
    #[getter]
    fn last_move(&self) -> Option<(u8, PyMove)> {
        self.inner.last_move().map(|(s, m)| (s, PyMove::new(m)))
    }

    /// The legal moves of the seat to act (empty once over), in the
    /// engine's order.
    fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        moves_list(py, self.inner.legal_moves())
    }

    /// Raises `IllegalMoveError` (with the rule's `code`, e.g.
    /// `C6.space_taken`) unless `seat` (default: the seat to act) may make
    /// `move` now. `move` is a `Move` or a record entry (dict).
    #[pyo3(signature = (move_, seat = None))]
    fn check(&self, move_: &Bound<'_, PyAny>, seat: Option<i128>) -> PyResult<()> {
        let seat = seat.map(|s| self.seat(s)).transpose()?;
        let (named, mv) = move_arg(&self.inner, move_)?;
        self.inner
            .check(seat.or(named), &mv)
            .map(|_| ())
            .map_err(fail)
    }

    /// Checks and makes `move` for `seat` (default: the seat to act; a
    /// record entry may name its seat), drawing and reshuffling as the
    /// rules say (C7, S6). Raises `IllegalMoveError` naming the rule; the
    /// game is then unchanged.
    #[pyo3(signature = (move_, seat = None))]
    fn play(&mut self, move_: &Bound<'_, PyAny>, seat: Option<i128>) -> PyResult<()> {
        let seat = seat.map(|s| self.seat(s)).transpose()?;
        let (named, mv) = move_arg(&self.inner, move_)?;
        self.inner.play(seat.or(named), &mv).map_err(fail)
    }

    /// The same as `play`.
    #[pyo3(signature = (move_, seat = None))]
    fn apply(&mut self, move_: &Bound<'_, PyAny>, seat: Option<i128>) -> PyResult<()> {
        self.play(move_, seat)
    }

    /// Reads a move entry (RECORD.md / RECORD-STACKS.md; a declined Block
    /// as `{"pass": true}`); raises `NotationError` naming the field.
    fn parse_move(&self, entry: &Bound<'_, PyAny>) -> PyResult<PyMove> {
        let v = py_to_json(entry)?;
        self.inner
            .parse_move(&v)
            .map(|(_, m)| PyMove::new(m))
            .map_err(fail)
    }

    /// Number of actions in the action space (classic 405, Stacks 252;
    /// docs/python.md).
    #[getter]
    fn num_actions(&self) -> usize {
        self.inner.actions()
    }

    /// Length of an observation vector.
    #[getter]
    fn observation_size(&self) -> usize {
        self.inner.obs_len()
    }

    /// The action mask of the seat to act: an `int8` array (the dtype
    /// Gymnasium's masked sampling takes), 1 for each legal action (all 0
    /// once over).
    fn action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        let mut v = [0u8; MAX_BUF];
        let v = &mut v[..self.inner.actions()];
        self.inner.action_mask(v);
        let mut signed = [0i8; MAX_BUF];
        for (s, &m) in signed.iter_mut().zip(v.iter()) {
            *s = m as i8;
        }
        PyArray1::from_slice(py, &signed[..v.len()])
    }

    /// The legal actions of the seat to act, ascending.
    fn legal_actions(&self) -> Vec<usize> {
        let mut v = vec![0u8; self.inner.actions()];
        self.inner.action_mask(&mut v);
        v.iter()
            .enumerate()
            .filter(|(_, &m)| m == 1)
            .map(|(i, _)| i)
            .collect()
    }

    /// The action index of a move of the seat to act.
    fn action_of(&self, move_: &Bound<'_, PyAny>) -> PyResult<usize> {
        let (_, mv) = move_arg(&self.inner, move_)?;
        self.inner.action_of(&mv).map_err(fail)
    }

    /// The legal move `action` stands for now; raises `ActionError`
    /// outside the mask.
    fn move_of_action(&self, action: i128) -> PyResult<PyMove> {
        let action = args::action(self.inner.actions(), action)?;
        self.inner
            .move_of_action(action as i64)
            .map(PyMove::new)
            .map_err(fail)
    }

    /// What an action index means, in words; `ActionError`
    /// (`env.out_of_range`) for an index outside the action space.
    fn action_text(&self, action: i128) -> PyResult<String> {
        let action = args::action(self.inner.actions(), action)?;
        Ok(self.inner.action_text(action))
    }

    /// Makes the legal move `action` stands for; raises `ActionError`
    /// outside the mask (the game is then unchanged).
    fn play_action(&mut self, action: i128) -> PyResult<()> {
        let action = args::action(self.inner.actions(), action)?;
        self.inner.play_action(action as i64).map_err(fail)
    }

    /// What `seat` may see as a `uint8` vector (docs/python.md): its own
    /// hand and the public state, never another hand or the draw pile.
    fn observe<'py>(&self, py: Python<'py>, seat: i128) -> PyResult<Bound<'py, PyArray1<u8>>> {
        let seat = self.seat(seat)?;
        let mut v = [0u8; MAX_BUF];
        let v = &mut v[..self.inner.obs_len()];
        self.inner.observe(seat, v).map_err(fail)?;
        Ok(PyArray1::from_slice(py, v))
    }

    /// `{"observation": observe(seat), "action_mask": mask}` with the mask
    /// as `int8` (all 0 unless `seat` is the seat to act): the
    /// environments' observation in one call.
    fn env_observation<'py>(&self, py: Python<'py>, seat: i128) -> PyResult<Bound<'py, PyDict>> {
        let seat = self.seat(seat)?;
        let mut obs = [0u8; MAX_BUF];
        let obs = &mut obs[..self.inner.obs_len()];
        self.inner.observe(seat, obs).map_err(fail)?;
        let mut mask = [0u8; MAX_BUF];
        let mask = &mut mask[..self.inner.actions()];
        if self.inner.to_act() == Some(seat) {
            self.inner.action_mask(mask);
        }
        let mut signed = [0i8; MAX_BUF];
        for (s, &m) in signed.iter_mut().zip(mask.iter()) {
            *s = m as i8;
        }
        let d = PyDict::new(py);
        d.set_item(intern!(py, "observation"), PyArray1::from_slice(py, obs))?;
        d.set_item(
            intern!(py, "action_mask"),
            PyArray1::from_slice(py, &signed[..mask.len()]),
        )?;
        Ok(d)
    }

    /// The observation's parts: a list of dicts with `name`, `offset`,
    /// `shape`, `high` (largest value) and `doc`.
    fn observation_layout<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        layout_list(py, &self.inner.obs_layout())
    }

    /// The largest value of each observation entry (the Box space's high).
    fn observation_high<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u8>> {
        PyArray1::from_vec(py, self.inner.obs_high())
    }

    /// What `seat` may see (`View`); raises `UsageError` for a seat not at
    /// the table.
    fn view(&self, seat: i128) -> PyResult<PyView> {
        let seat = self.seat(seat)?;
        self.inner
            .view(Some(seat))
            .map(|v| PyView { inner: v })
            .map_err(fail)
    }

    /// What a spectator may see: the public state, no hand.
    fn spectator_view(&self) -> PyResult<PyView> {
        self.inner
            .view(None)
            .map(|v| PyView { inner: v })
            .map_err(fail)
    }

    /// A uniformly random legal move of the seat to act, drawn from the
    /// game's own generator (so it follows the seed); `None` once over.
    fn random_move(&mut self) -> Option<PyMove> {
        self.inner.random_move().map(PyMove::new)
    }

    /// Plays random legal moves until the game ends or `max_moves` were
    /// made; returns how many were made.
    #[pyo3(signature = (max_moves = 100_000))]
    fn playout(&mut self, max_moves: u32) -> u32 {
        self.inner.playout(max_moves)
    }

    /// +1 if `seat`'s side won, −1 if another side won, 0 otherwise
    /// (shared by a team).
    fn reward(&self, seat: i128) -> PyResult<f32> {
        let seat = self.seat(seat)?;
        self.inner.reward(seat).map_err(fail)
    }

    /// The record so far (a dict in the format of RECORD.md or
    /// RECORD-STACKS.md), with `result`; raises `UsageError` for a game
    /// dealt from a view (it has none).
    fn record<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &self.inner.record().map_err(fail)?)
    }

    /// The record as one line of JSON text.
    fn record_json(&self) -> PyResult<String> {
        Ok(self.inner.record().map_err(fail)?.to_string())
    }

    /// The moves recorded so far, as `(seat, Move)`.
    fn history(&self) -> Vec<(u8, PyMove)> {
        self.inner
            .history()
            .into_iter()
            .map(|(s, m)| (s, PyMove::new(m)))
            .collect()
    }

    /// What `sequence verify` prints for this game.
    fn summary<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &self.inner.summary())
    }

    /// An independent copy (it reshuffles as this game would).
    fn copy(&self) -> PyGame {
        PyGame::wrap(self.inner.boxed_clone())
    }

    fn __copy__(&self) -> PyGame {
        self.copy()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyGame {
        self.copy()
    }

    /// Pickles as the record (or, without one, the trail: a `replay`
    /// step, a Stacks determinization) and the generator's state, so that
    /// the unpickled game goes on exactly as this one would; `UsageError`
    /// (`record.none`) for a classic determinization.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
        pickle::reduce_game(py, self)
    }

    fn __str__(&self) -> String {
        self.inner.render()
    }

    fn __repr__(&self) -> String {
        format!(
            "<Game {} players={} ply={} status={}>",
            self.inner.kind(),
            self.inner.players(),
            self.inner.ply(),
            status(self.inner.outcome())
        )
    }
}

fn layout_list<'py>(
    py: Python<'py>,
    parts: &[crate::env::ObsPart],
) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for p in parts {
        let d = PyDict::new(py);
        d.set_item("name", p.name)?;
        d.set_item("offset", p.offset)?;
        d.set_item("shape", p.shape.clone())?;
        d.set_item("high", p.high)?;
        d.set_item("doc", p.doc)?;
        list.append(d)?;
    }
    Ok(list)
}

/// What one seat (or a spectator) may see: its own hand and the public
/// state, never another hand or the draw pile's order.
#[pyclass(module = "sequence_game", name = "View")]
pub struct PyView {
    inner: View,
}

#[pymethods]
impl PyView {
    /// The view's seat; `None` for a spectator.
    #[getter]
    fn seat(&self) -> Option<u8> {
        self.inner.seat()
    }

    /// The view a seat's JSON describes (`view.to_json()`, the `view` of a
    /// bot-protocol message, docs/bot-protocol.md), so that a protocol bot
    /// gets the same `observation()`, `legal_moves()` and `determinize()`;
    /// `game` defaults to the JSON's own `game` field; a `str` is JSON
    /// text. Raises `NotationError` (`view.json`): not JSON, not an
    /// object, or naming what is missing or wrong.
    #[staticmethod]
    #[pyo3(signature = (view, game = None))]
    fn from_json(view: &Bound<'_, PyAny>, game: Option<&str>) -> PyResult<PyView> {
        let v = match view.extract::<String>() {
            Ok(text) => crate::view_json::parse_view(&text).map_err(fail)?,
            Err(_) => py_to_json(view)?,
        };
        let name = match game {
            Some(g) => g.to_string(),
            None => v
                .get("game")
                .and_then(serde_json::Value::as_str)
                .unwrap_or("classic")
                .to_string(),
        };
        crate::view_json::view_from_json(kind_of(&name)?, &v)
            .map(|inner| PyView { inner })
            .map_err(fail)
    }

    /// The seat's legal moves when it must decide, else empty.
    fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        moves_list(py, self.inner.legal_moves())
    }

    /// The view as a dict: what the server sends this seat and the bot
    /// protocol a program (docs/api.md, docs/bot-protocol.md): `hand`,
    /// `board` or `piles`, discard piles, hand sizes, `legal_moves` as
    /// record entries, …
    fn to_json<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &self.inner.to_json())
    }

    /// `view[key]` is `view.to_json()[key]`.
    fn __getitem__<'py>(&self, py: Python<'py>, key: &str) -> PyResult<Bound<'py, PyAny>> {
        match self.inner.to_json().get(key) {
            Some(v) => json_to_py(py, v),
            None => Err(pyo3::exceptions::PyKeyError::new_err(key.to_string())),
        }
    }

    /// A whole game consistent with this view: the unseen cards dealt at
    /// random from `seed` into the other hands and the draw pile (for
    /// searching agents, e.g. ISMCTS). It keeps no record.
    #[pyo3(signature = (seed = 0))]
    fn determinize(&self, seed: i128) -> PyResult<PyGame> {
        let seed = args::game_seed(seed)?;
        self.inner.determinize(seed).map(PyGame::wrap).map_err(fail)
    }

    /// The observation vector of this view's seat (as `Game.observe`).
    fn observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<u8>>> {
        let Some(seat) = self.inner.seat() else {
            return Err(usage(
                "view.spectator",
                "a spectator's view has no observation (observations are a seat's)",
            ));
        };
        // The observation reads only what the seat may see, so any game
        // consistent with the view gives the same one.
        let g = self.inner.determinize(0).map_err(fail)?;
        let mut v = vec![0u8; g.obs_len()];
        g.observe(seat, &mut v).map_err(fail)?;
        Ok(PyArray1::from_vec(py, v))
    }

    fn __repr__(&self) -> String {
        format!(
            "<View {} seat={} ply={} status={}>",
            self.inner.kind(),
            self.inner
                .seat()
                .map_or("spectator".to_string(), |s| s.to_string()),
            self.inner.ply(),
            status(self.inner.outcome())
        )
    }
}

/// The extension module `sequence_game._core` (re-exported by the package
/// `sequence_game`).
#[pymodule]
#[pyo3(name = "_core")]
fn core_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyGame>()?;
    m.add_class::<PyMove>()?;
    m.add_class::<PyView>()?;
    m.add_class::<bot::PyBot>()?;
    m.add_class::<PyStep>()?;
    m.add_class::<vecenv::PyVecEnv>()?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    m.add_function(wrap_pyfunction!(replay, m)?)?;
    m.add_function(wrap_pyfunction!(action_text, m)?)?;
    m.add_function(wrap_pyfunction!(options::rule_options, m)?)?;
    m.add_function(wrap_pyfunction!(pickle::_game_from_state, m)?)?;
    m.add_function(wrap_pyfunction!(pickle::_trail_game_from_state, m)?)?;
    m.add_function(wrap_pyfunction!(pickle::_move_from_state, m)?)?;
    m.add_function(wrap_pyfunction!(vecpickle::_vecenv_from_state, m)?)?;
    m.add_function(wrap_pyfunction!(vecpickle::_vecenv_log_limit, m)?)?;
    m.add_function(wrap_pyfunction!(pickle::_bot_from_state, m)?)?;
    m.add_function(wrap_pyfunction!(stats::elo_difference, m)?)?;
    m.add_function(wrap_pyfunction!(stats::score_interval, m)?)?;
    errors::register(m)?;
    // The bots' Elo ladder (docs/bots.md "Levels"): random is 1000.
    let ladder = PyDict::new(m.py());
    ladder.set_item("random", 1000)?;
    for (i, elo) in sequence_bots::LEVEL_ELO.iter().enumerate() {
        ladder.set_item(format!("level:{}", i + 1), elo)?;
    }
    m.add("LADDER", ladder)?;
    // Each game's action count: `CLASSIC_ACTIONS`, `STACKS_ACTIONS`, …
    for kind in GameKind::ALL {
        let name = format!("{}_ACTIONS", kind.name().to_uppercase());
        m.add(name, dynamic::action_text(kind, 0).0)?;
    }
    Ok(())
}
