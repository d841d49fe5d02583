//! Tables: the durable state rebuilt from the event log ([`Core`]), the
//! live state around it ([`Table`]: connections, chat, turn timer), and
//! the views sent to seats and spectators.
//!
//! Every change is an [`Event`]. A change is applied to a copy of the
//! core first (the engine checks every move), then appended to the
//! database, and only once that has committed is the copy kept and the
//! change acknowledged. Rebuilding a table = replaying its events.

use crate::api::ApiError;
use axum::http::StatusCode;
use sequence_common::json::{describe, kind_of, Hints};
use sequence_common::Seat;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};
use std::collections::VecDeque;
use std::time::Instant;
use tokio::sync::mpsc;

/// Which game a table plays.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameKind {
    /// Classic Sequence (RULES.md part 1).
    Classic,
    /// Sequence Stacks (RULES.md part 2).
    Stacks,
}

/// How a table was created (stored as JSON; holds no secret).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Spec {
    /// The game.
    pub game: GameKind,
    /// Seats: classic 2–12 (C3), Stacks 2–6.
    pub players: u8,
    /// Classic teams (C3), `None` for the default / Stacks.
    pub teams: Option<u8>,
    /// Rule options as in the record formats.
    pub options: Value,
    /// The table's name (escaped): its own, or `NAME's table` after the
    /// creator when it was given none (see `named_after`).
    pub name: String,
    /// The creator's name (escaped) when the table was given no name of its
    /// own, so that a client can say "NAME's table" in its language.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub named_after: Option<String>,
    /// Turn timer in seconds.
    pub turn_seconds: Option<u32>,
    /// Creation time, Unix ms.
    pub created_ms: i64,
}

impl Spec {
    /// Checks the configuration by building the engine's config.
    ///
    /// # Errors
    /// A message naming the bad field or rule (C3, S1, option names).
    pub fn check(&self) -> Result<(), String> {
        match self.game {
            GameKind::Classic => self.classic_config().map(|_| ()),
            GameKind::Stacks => {
                let o = self.stacks_options()?;
                if !(2..=6).contains(&self.players) {
                    return Err(format!("Stacks needs 2 to 6 players, not {}", self.players));
                }
                if self.teams.is_some() {
                    return Err("field `teams`: Stacks has no teams".into());
                }
                sequence_stacks::Match::new(self.players, o, 0)
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            }
        }
    }

    fn classic_config(&self) -> Result<sequence_classic::Config, String> {
        let options: sequence_classic::Options =
            read_options(&self.options, r#"{"sequence_length": 4}"#)?;
        sequence_classic::Config::new(self.players, self.teams, options).map_err(|e| e.to_string())
    }

    fn stacks_options(&self) -> Result<sequence_stacks::Options, String> {
        let o: sequence_stacks::Options =
            read_options(&self.options, r#"{"piles_per_colour": 3}"#)?;
        o.validate().map_err(|e| e.to_string())?;
        Ok(o)
    }

    /// Number of classic teams (C3 default applied), `None` for Stacks.
    pub fn team_count(&self) -> Option<u8> {
        match self.game {
            GameKind::Classic => self.classic_config().ok().map(|c| c.teams()),
            GameKind::Stacks => None,
        }
    }
}

/// What some rule options must be, for messages (the others are said from
/// their types: true or false, one of "…").
const OPTION_HINTS: Hints = &[
    (
        "options.win_sequences",
        "a number of sequences from 1 to 4, or null",
    ),
    ("options.sequence_length", "5 or 4, or null"),
    (
        "options.board",
        "a list of 10 rows of 10 codes (RECORD.md), or null",
    ),
    ("options.board[]", "a row of 10 codes (RECORD.md)"),
    ("options.piles_per_colour", "a number from 1 to 4"),
];

/// A table's rule options as `T`: null is the defaults; anything else must
/// be a JSON object, whose bad field is named by its path under `options`
/// (`options.sequence_length must be 5 or 4, or null, got the string
/// "4"`, ``unknown field `x` in `options` (the fields are …)``).
/// `example` shows an object in the refusal of a non-object.
fn read_options<T: serde::de::DeserializeOwned + Default>(
    v: &Value,
    example: &str,
) -> Result<T, String> {
    #[derive(Deserialize)]
    struct Wrapped<O> {
        options: O,
    }
    match v {
        Value::Null => Ok(T::default()),
        Value::Object(_) => {
            serde_path_to_error::deserialize::<_, Wrapped<T>>(json!({ "options": v }))
                .map(|w| w.options)
                .map_err(|e| describe(&e, OPTION_HINTS))
        }
        other => Err(format!(
            "options must be a JSON object like {example}, not {}",
            kind_of(other)
        )),
    }
}

/// The message of a move the record reader refused: `malformed move: …`
/// without the reader's own `move: ` prefix.
fn malformed(e: &str) -> ApiError {
    let e = e.strip_prefix("move: ").unwrap_or(e);
    ApiError::new(StatusCode::BAD_REQUEST, format!("malformed move: {e}"))
}

/// One change of a table, as stored in the event log.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum Event {
    /// A person takes a seat; `token` is the SHA-256 of its token (hex).
    Seat {
        /// The seat.
        seat: u8,
        /// The name (escaped).
        name: String,
        /// SHA-256 of the token, hex.
        token: String,
    },
    /// A bot takes a seat.
    Bot {
        /// The seat.
        seat: u8,
        /// The bot level.
        level: String,
    },
    /// The person at a seat left.
    Leave {
        /// The seat.
        seat: u8,
    },
    /// A game starts, dealt from `seed` (never sent to players).
    Start {
        /// The seed of ChaCha8 for dealing and reshuffles.
        seed: u64,
    },
    /// An accepted move in record format (with `seat`).
    Move {
        /// The move.
        mv: Value,
    },
    /// The host starts a new game at the same table.
    Rematch,
}

/// Who holds a seat.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SeatKind {
    /// Never taken.
    Free,
    /// A person.
    Human,
    /// A bot.
    Bot,
    /// Its person left.
    Left,
}

impl SeatKind {
    fn name(self) -> &'static str {
        match self {
            SeatKind::Free => "free",
            SeatKind::Human => "human",
            SeatKind::Bot => "bot",
            SeatKind::Left => "left",
        }
    }
}

/// A seat in the durable state.
#[derive(Clone, Debug)]
pub struct SeatCore {
    /// Who holds it.
    pub kind: SeatKind,
    /// Display name (escaped).
    pub name: Option<String>,
    /// SHA-256 of the token of the person holding it.
    pub token: Option<[u8; 32]>,
    /// Bot level.
    pub level: Option<String>,
}

/// The game being played, with its recorder.
#[derive(Clone)]
pub enum Live {
    /// Classic: the record-keeping match.
    Classic(Box<sequence_classic::record::Match>),
    /// Stacks: the match, and the last decision (passes included).
    Stacks(
        Box<sequence_stacks::Match>,
        Option<(Seat, sequence_stacks::Decision)>,
    ),
}

/// Table status.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Waiting for seats to fill.
    Waiting,
    /// A game is on.
    Playing,
    /// The game is over.
    Over,
}

impl Status {
    /// `waiting`, `playing` or `over`.
    pub fn name(self) -> &'static str {
        match self {
            Status::Waiting => "waiting",
            Status::Playing => "playing",
            Status::Over => "over",
        }
    }
}

/// The durable state of a table: exactly what its events give.
#[derive(Clone)]
pub struct Core {
    /// Table id.
    pub id: String,
    /// Creation spec.
    pub spec: Spec,
    /// Seats.
    pub seats: Vec<SeatCore>,
    /// Game number (1 for the first game, 0 before it starts).
    pub game_no: u32,
    /// The current game.
    pub live: Option<Live>,
    /// Moves accepted in the current game.
    pub moves: u32,
    /// Where the table stands.
    pub status: Status,
    /// Next event sequence number.
    pub next_seq: i64,
    /// Records of earlier games (after rematches), oldest first.
    pub finished: Vec<Value>,
}

fn conflict(msg: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::CONFLICT, msg)
}

impl Core {
    /// An empty table of `spec`.
    pub fn new(id: String, spec: Spec) -> Core {
        let seats = (0..spec.players)
            .map(|_| SeatCore {
                kind: SeatKind::Free,
                name: None,
                token: None,
                level: None,
            })
            .collect();
        Core {
            id,
            spec,
            seats,
            game_no: 0,
            live: None,
            moves: 0,
            status: Status::Waiting,
            next_seq: 0,
            finished: vec![],
        }
    }

    fn seat_mut(&mut self, seat: u8) -> Result<&mut SeatCore, ApiError> {
        let n = self.seats.len();
        self.seats.get_mut(seat as usize).ok_or_else(|| {
            ApiError::new(
                StatusCode::NOT_FOUND,
                format!("seat {seat} does not exist ({n} seats)"),
            )
        })
    }

    /// Applies one event (live or from the log).
    ///
    /// # Errors
    /// 409 for a change the table's state does not allow, 400 for a
    /// malformed move, 422 for a move the engine refuses.
    pub fn apply(&mut self, ev: &Event) -> Result<(), ApiError> {
        match ev {
            Event::Seat { seat, name, token } => {
                let s = self.seat_mut(*seat)?;
                if !matches!(s.kind, SeatKind::Free | SeatKind::Left) {
                    return Err(conflict(format!("seat {seat} is taken")));
                }
                let mut h = [0u8; 32];
                hex::decode_to_slice(token, &mut h).map_err(|_| conflict("bad stored token"))?;
                *s = SeatCore {
                    kind: SeatKind::Human,
                    name: Some(name.clone()),
                    token: Some(h),
                    level: None,
                };
            }
            Event::Bot { seat, level } => {
                let s = self.seat_mut(*seat)?;
                let name = format!("Bot {}", level.trim_start_matches("level:"));
                *s = SeatCore {
                    kind: SeatKind::Bot,
                    name: Some(name),
                    token: None,
                    level: Some(level.clone()),
                };
            }
            Event::Leave { seat } => {
                let s = self.seat_mut(*seat)?;
                if s.kind != SeatKind::Human {
                    return Err(conflict(format!("seat {seat} has no person to leave")));
                }
                s.kind = SeatKind::Left;
                s.token = None;
            }
            Event::Start { seed } => {
                if self.status != Status::Waiting || !self.all_filled() {
                    return Err(conflict("the table cannot start: seats are free"));
                }
                self.live = Some(match self.spec.game {
                    GameKind::Classic => {
                        let cfg = self.spec.classic_config().map_err(conflict)?;
                        Live::Classic(Box::new(sequence_classic::record::Match::new(cfg, *seed)))
                    }
                    GameKind::Stacks => {
                        let o = self.spec.stacks_options().map_err(conflict)?;
                        let m = sequence_stacks::Match::new(self.spec.players, o, *seed)
                            .map_err(|e| conflict(e.to_string()))?;
                        Live::Stacks(Box::new(m), None)
                    }
                });
                self.game_no += 1;
                self.moves = 0;
                self.status = Status::Playing;
            }
            Event::Move { mv } => {
                if self.status != Status::Playing {
                    return Err(conflict(format!(
                        "the game is not being played (table is {})",
                        self.status.name()
                    )));
                }
                let seat = mv.get("seat").and_then(Value::as_u64).unwrap_or(u64::MAX);
                let to_act = self.to_act();
                if to_act.map(|s| s.0 as u64) != Some(seat) {
                    return Err(conflict(format!(
                        "it is not seat {seat}'s turn (seat {} is to move)",
                        to_act.map_or("none".to_string(), |s| s.0.to_string())
                    )));
                }
                let over = match self.live.as_mut() {
                    Some(Live::Classic(m)) => {
                        let len = m.game().sequence_length();
                        let (seat, mv) = sequence_classic::record::move_from_json(mv, len)
                            .map_err(|e| malformed(&e))?;
                        m.play(seat, mv).map_err(|e| {
                            ApiError::new(
                                StatusCode::UNPROCESSABLE_ENTITY,
                                format!("illegal move: {e}"),
                            )
                        })?;
                        m.game().is_over()
                    }
                    Some(Live::Stacks(m, last)) => {
                        let (seat, d) = stacks_move(mv).map_err(|e| malformed(&e))?;
                        m.play(seat, d).map_err(|e| {
                            ApiError::new(
                                StatusCode::UNPROCESSABLE_ENTITY,
                                format!("illegal move: {e}"),
                            )
                        })?;
                        *last = Some((seat, d));
                        m.game().status() != sequence_stacks::Status::Playing
                    }
                    None => return Err(conflict("no game")),
                };
                self.moves += 1;
                if over {
                    self.status = Status::Over;
                }
            }
            Event::Rematch => {
                if self.status != Status::Over {
                    return Err(conflict("a rematch can only start once the game is over"));
                }
                if let Some(r) = self.record() {
                    self.finished.push(r);
                }
                self.live = None;
                self.moves = 0;
                self.status = Status::Waiting;
            }
        }
        self.next_seq += 1;
        Ok(())
    }

    /// Whether every seat is held by a person or a bot.
    pub fn all_filled(&self) -> bool {
        self.seats
            .iter()
            .all(|s| matches!(s.kind, SeatKind::Human | SeatKind::Bot))
    }

    /// The seat that must move now (`None` unless playing).
    pub fn to_act(&self) -> Option<Seat> {
        if self.status != Status::Playing {
            return None;
        }
        match self.live.as_ref()? {
            Live::Classic(m) => (!m.game().is_over()).then(|| m.game().turn()),
            Live::Stacks(m, _) => m.game().to_act(),
        }
    }

    /// The seat whose token hashes to `hash`.
    pub fn seat_of(&self, hash: &[u8; 32]) -> Option<u8> {
        self.seats
            .iter()
            .position(|s| s.token.as_ref().is_some_and(|t| crate::auth::same(t, hash)))
            .map(|i| i as u8)
    }

    /// The current game's record once it is over (`None` otherwise).
    pub fn record(&self) -> Option<Value> {
        if self.status != Status::Over {
            return None;
        }
        match self.live.as_ref()? {
            Live::Classic(m) => Some(m.record().to_json()),
            Live::Stacks(m, _) => Some(m.record().to_json()),
        }
    }
}

/// Reads a Stacks move: a RECORD-STACKS.md entry or `{"seat", "pass": true}`.
///
/// # Errors
/// A message naming the bad field.
pub fn stacks_move(v: &Value) -> Result<(Seat, sequence_stacks::Decision), String> {
    if let Some(o) = v.as_object() {
        if o.contains_key("pass") {
            if let Some(k) = o.keys().find(|k| *k != "seat" && *k != "pass") {
                return Err(format!("unknown field `{k}` in a pass"));
            }
            if o.get("pass") != Some(&Value::Bool(true)) {
                return Err("field `pass`: must be true".into());
            }
            let seat = o
                .get("seat")
                .and_then(Value::as_u64)
                .filter(|&s| s < 256)
                .ok_or("field `seat` is missing")?;
            return Ok((Seat(seat as u8), sequence_stacks::Decision::Pass));
        }
    }
    sequence_stacks::record::move_from_json(v)
}

/// A live WebSocket subscriber of a table.
pub struct Sub {
    /// Connection id.
    pub id: u64,
    /// The seat, `None` for a spectator.
    pub seat: Option<u8>,
    /// Where to send text frames.
    pub tx: mpsc::Sender<std::sync::Arc<str>>,
}

/// A table in memory: durable core plus live state.
pub struct Table {
    /// Durable state.
    pub core: Core,
    /// WebSocket subscribers.
    pub subs: Vec<Sub>,
    /// Recent chat lines (at most 50).
    pub chat: VecDeque<Value>,
    /// Open connections per seat.
    pub connected: Vec<u32>,
    /// Seats whose turn timer ran out (cleared when they move).
    pub timed_out: Vec<bool>,
    /// Turn deadline: when, in Unix ms, and for which move number.
    pub deadline: Option<(Instant, i64, u32)>,
    /// Whether a bot task is running for this table.
    pub bot_running: bool,
}

/// Current Unix time in ms.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

impl Table {
    /// Wraps a core.
    pub fn new(core: Core) -> Table {
        let n = core.seats.len();
        Table {
            core,
            subs: vec![],
            chat: VecDeque::new(),
            connected: vec![0; n],
            timed_out: vec![false; n],
            deadline: None,
            bot_running: false,
        }
    }

    /// Public table info (see docs/api.md "Table info").
    pub fn info(&self) -> Value {
        let c = &self.core;
        let teams = c.spec.team_count();
        let seats: Vec<Value> = c
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| {
                json!({
                    "seat": i,
                    "name": s.name,
                    "kind": s.kind.name(),
                    "level": s.level,
                    "connected": s.kind == SeatKind::Bot || self.connected[i] > 0,
                    "team": teams.map(|t| sequence_classic::Team((i as u8) % t).colour()),
                    "timed_out": self.timed_out[i],
                })
            })
            .collect();
        json!({
            "id": c.id,
            "name": c.spec.name,
            "named_after": c.spec.named_after,
            "game": c.spec.game,
            "players": c.spec.players,
            "teams": teams,
            "options": if c.spec.options.is_null() { json!({}) } else { c.spec.options.clone() },
            "status": c.status.name(),
            "game_no": c.game_no,
            "turn_seconds": c.spec.turn_seconds,
            "deadline_ms": self.deadline.map(|d| d.1),
            "host": 0,
            "seats": seats,
        })
    }

    /// The view of `seat` (`None`: spectator), with the table info. Built
    /// from the engine's per-seat view; the spectator view copies only
    /// public fields.
    pub fn view(&self, seat: Option<u8>) -> Value {
        let c = &self.core;
        let mut v = match c.live.as_ref() {
            None => {
                json!({"game": c.spec.game, "seat": seat, "status": "waiting", "move_number": 0})
            }
            Some(Live::Classic(m)) => {
                let g = m.game();
                let mut v = g.view(Seat(seat.unwrap_or(0))).to_json();
                v["move_number"] = json!(c.moves);
                match seat {
                    Some(_) => v,
                    None => {
                        let mut o = pick(
                            &v,
                            &[
                                "game",
                                "players",
                                "teams",
                                "options",
                                "turn",
                                "move_number",
                                "status",
                                "winner",
                                "dead_exchanged",
                                "hand_sizes",
                                "draw_pile",
                                "discard_piles",
                                "board",
                                "sequences",
                                "last_move",
                            ],
                        );
                        o.insert("seat".into(), Value::Null);
                        o.insert("legal_moves".into(), json!([]));
                        Value::Object(o)
                    }
                }
            }
            Some(Live::Stacks(m, last)) => {
                let g = m.game();
                let sv = g.view(Seat(seat.unwrap_or(0)));
                let legal: Vec<Value> = if seat.is_some() {
                    sv.legal
                        .iter()
                        .map(|d| {
                            d.to_record_json(sv.seat)
                                .unwrap_or_else(|| json!({"seat": sv.seat.0, "pass": true}))
                        })
                        .collect()
                } else {
                    vec![]
                };
                let mut full = serde_json::to_value(&sv).unwrap_or_else(|_| json!({}));
                let last_move = last.map(|(s, d)| {
                    d.to_record_json(s)
                        .unwrap_or_else(|| json!({"seat": s.0, "pass": true}))
                });
                let mut o = match seat {
                    Some(_) => {
                        let mut o = full.as_object_mut().map(std::mem::take).unwrap_or_default();
                        o.remove("legal");
                        o
                    }
                    None => {
                        let mut o = pick(
                            &full,
                            &[
                                "players",
                                "options",
                                "dealer",
                                "hand_sizes",
                                "known_in_hands",
                                "discard_piles",
                                "piles",
                                "completed",
                                "action_discards",
                                "chips",
                                "supply",
                                "draw_pile",
                                "turn",
                                "direction",
                                "pending_skips",
                                "block_window",
                                "to_act",
                                "status",
                                "pile_played_this_turn",
                                "quiet_turns",
                                "reshuffles",
                            ],
                        );
                        o.insert("seat".into(), Value::Null);
                        o
                    }
                };
                o.insert("game".into(), json!("stacks"));
                o.insert("legal_moves".into(), Value::Array(legal));
                o.insert("move_number".into(), json!(c.moves));
                o.insert("winner".into(), json!(g.winner().map(|s| s.0)));
                o.insert("last_move".into(), last_move.unwrap_or(Value::Null));
                Value::Object(o)
            }
        };
        v["table"] = self.info();
        v
    }

    /// Sends every subscriber its view; drops subscribers whose queue is
    /// full or closed.
    pub fn broadcast_views(&mut self) {
        if self.subs.is_empty() {
            return;
        }
        let n = self.core.seats.len();
        let mut cache: Vec<Option<std::sync::Arc<str>>> = vec![None; n + 1];
        let mut dead = vec![];
        for i in 0..self.subs.len() {
            let seat = self.subs[i].seat;
            let k = seat.map_or(n, |s| s as usize);
            if cache[k].is_none() {
                let text = json!({"type": "view", "view": self.view(seat)}).to_string();
                cache[k] = Some(text.into());
            }
            if let Some(t) = &cache[k] {
                if self.subs[i].tx.try_send(t.clone()).is_err() {
                    dead.push(self.subs[i].id);
                }
            }
        }
        if !dead.is_empty() {
            self.drop_subs(&dead);
        }
    }

    /// Sends one message to every subscriber.
    pub fn broadcast(&mut self, msg: &Value) {
        let text: std::sync::Arc<str> = msg.to_string().into();
        let dead: Vec<u64> = self
            .subs
            .iter()
            .filter(|s| s.tx.try_send(text.clone()).is_err())
            .map(|s| s.id)
            .collect();
        if !dead.is_empty() {
            self.drop_subs(&dead);
        }
    }

    /// Removes subscribers (their connections close).
    pub fn drop_subs(&mut self, ids: &[u64]) {
        let mut i = 0;
        while i < self.subs.len() {
            if ids.contains(&self.subs[i].id) {
                let s = self.subs.swap_remove(i);
                if let Some(seat) = s.seat {
                    self.connected[seat as usize] = self.connected[seat as usize].saturating_sub(1);
                }
            } else {
                i += 1;
            }
        }
    }

    /// Resets the turn timer after a change.
    pub fn reset_deadline(&mut self) {
        self.deadline = None;
        let Some(secs) = self.core.spec.turn_seconds else {
            return;
        };
        let Some(seat) = self.core.to_act() else {
            return;
        };
        if self.core.seats[seat.index()].kind == SeatKind::Bot {
            return;
        }
        let d = std::time::Duration::from_secs(secs as u64);
        self.deadline = Some((
            Instant::now() + d,
            now_ms() + d.as_millis() as i64,
            self.core.moves,
        ));
    }
}

fn pick(v: &Value, keys: &[&str]) -> Map<String, Value> {
    let mut o = Map::new();
    for k in keys {
        if let Some(x) = v.get(*k) {
            o.insert((*k).to_string(), x.clone());
        }
    }
    o
}
