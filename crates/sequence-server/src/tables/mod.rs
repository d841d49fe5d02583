//! The table core: the durable state of a table rebuilt from its event
//! log ([`Core`]), the live state around it ([`Table`]: connections, chat,
//! turn timer), and the views sent to seats and spectators. Written once
//! for both games: the game itself is a [`LiveGame`] ([`live`]), picked
//! from the table's [`GameKind`] when a game starts. Refusals are
//! [`TableError`]s; this module knows nothing of HTTP.
//!
//! Every change is an [`Event`]. A change is applied to a copy of the
//! core first (the engine checks every move), then appended to the
//! database, and only once that has committed is the copy kept and the
//! change acknowledged. Rebuilding a table = replaying its events.

mod admin;
pub mod error;
pub mod game;
pub mod live;
pub mod replay;
pub mod spec;
pub mod tutorial;

use crate::auth::SeatToken;
use sequence_common::Seat;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::collections::VecDeque;
use std::time::Instant;
use tokio::sync::mpsc;

pub use error::TableError;
pub use live::{game_of, BotMove, Hint, LiveGame, Logged, TableGame};
pub use sequence_common::GameKind;
pub use spec::Spec;

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
    /// An accepted move in record format (with `seat`), made by the seat's
    /// holder (a person or a bot).
    Move {
        /// The move.
        mv: Value,
    },
    /// A move the server made for a seat whose holder did not (its time
    /// ran out, or it is away), in record format (with `seat`).
    Auto {
        /// The move.
        mv: Value,
        /// Why the server made it.
        auto: Auto,
    },
    /// The person of a seat marked away is back (their next action).
    Back {
        /// The seat.
        seat: u8,
    },
    /// The host gives team `team` the table-talk penalty (C10): each of
    /// its members who holds a card must discard one of their choice
    /// (`{"seat", "penalty": CARD}` moves, in seat order) before play goes
    /// on; they play on one card short.
    Penalty {
        /// The team (its number; views name it by colour).
        team: u8,
    },
    /// The analysis of a finished game, stored so that a second visit
    /// needs no search (docs/api.md "Analysis").
    Analysis {
        /// The game's number at the table.
        game: u32,
        /// The analysis.
        result: Value,
    },
    /// The host starts a new game at the same table.
    Rematch,
    /// The operators closed the table (`sequence admin close`): nothing
    /// more happens at it; `reason` is shown to its players.
    Close {
        /// Why, in the operators' words.
        reason: String,
    },
    /// The operators renamed the person at `seat` (an abusive name).
    Rename {
        /// The seat.
        seat: u8,
        /// The new name (cleaned as a joining name is).
        name: String,
    },
}

/// Who made a move for a seat when its holder did not (see
/// [`Event::Move`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Auto {
    /// The seat's time ran out: a level-2 bot played this one move.
    Timeout,
    /// The seat is away (three timeouts in a row): a bot plays for it.
    Away,
    /// A window asked out of turn (the Stacks Block window) closed by
    /// itself when its time ran out: the default answer (no Block).
    Window,
}

impl Auto {
    /// `timeout`, `away` or `window`, as logs write it.
    pub fn name(self) -> &'static str {
        match self {
            Auto::Timeout => "timeout",
            Auto::Away => "away",
            Auto::Window => "window",
        }
    }
}

/// Timeouts in a row after which a seat is marked away and a bot plays
/// for it until its person acts again.
pub const AWAY_AFTER: u8 = 3;

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
    /// SHA-256 of the token of the person who left this seat (their token
    /// no longer works; their finished game is still theirs).
    pub left_token: Option<[u8; 32]>,
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
    /// The operators closed the table ([`Event::Close`]).
    Closed,
}

impl Status {
    /// `waiting`, `playing`, `over` or `closed`.
    pub fn name(self) -> &'static str {
        match self {
            Status::Waiting => "waiting",
            Status::Playing => "playing",
            Status::Over => "over",
            Status::Closed => "closed",
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
    pub live: Option<Box<dyn LiveGame>>,
    /// Moves accepted in the current game.
    pub moves: u32,
    /// Where the table stands.
    pub status: Status,
    /// Next event sequence number.
    pub next_seq: i64,
    /// Records of earlier games (after rematches), oldest first.
    pub finished: Vec<Value>,
    /// The move log of the current game (docs/api.md "Move log").
    pub log: Vec<Value>,
    /// Move logs of earlier games, oldest first.
    pub finished_logs: Vec<Vec<Value>>,
    /// When each game started and ended (Unix ms, when known), game 1
    /// first.
    pub times: Vec<(Option<i64>, Option<i64>)>,
    /// Per seat: timeouts in a row (the seat's own move or return clears
    /// them).
    pub timeouts: Vec<u8>,
    /// Per seat: marked away (a bot plays for it until its person acts).
    pub away: Vec<bool>,
    /// Stored analyses of finished games, by game number.
    pub analyses: std::collections::BTreeMap<u32, Value>,
    /// Whether changes happen now (times are kept: log entries' `at`,
    /// games' start and end), not replayed from the stored log.
    pub live_clock: bool,
    /// Seats that still owe a table-talk penalty discard (C10), in the
    /// order they make it, and the team penalised.
    pub penalty: Vec<u8>,
    /// The team of the pending penalty.
    pub penalty_team: Option<u8>,
    /// Why the operators closed the table ([`Event::Close`]), if they did.
    pub closed: Option<String>,
}

fn conflict(msg: impl Into<String>) -> TableError {
    TableError::conflict(msg)
}

impl Core {
    /// An empty table of `spec`.
    pub fn new(id: String, spec: Spec) -> Core {
        let n = spec.players as usize;
        let seats = (0..spec.players)
            .map(|_| SeatCore {
                kind: SeatKind::Free,
                name: None,
                token: None,
                level: None,
                left_token: None,
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
            log: vec![],
            finished_logs: vec![],
            times: vec![],
            timeouts: vec![0; n],
            away: vec![false; n],
            analyses: Default::default(),
            live_clock: false,
            penalty: vec![],
            penalty_team: None,
            closed: None,
        }
    }

    fn seat_mut(&mut self, seat: u8) -> Result<&mut SeatCore, TableError> {
        let n = self.seats.len();
        self.seats
            .get_mut(seat as usize)
            .ok_or_else(|| TableError::NotFound(format!("seat {seat} does not exist ({n} seats)")))
    }

    /// The name of a bot of `level` taking `seat`: `Bot 3` after its level,
    /// and `Bot 3 (b)`, `Bot 3 (c)` … when another seat has that name
    /// already, so that every seat's name tells it apart.
    fn bot_name(&self, seat: u8, level: &str) -> String {
        let base = format!("Bot {}", level.trim_start_matches("level:"));
        let taken = |name: &str| {
            self.seats
                .iter()
                .enumerate()
                .any(|(i, s)| i != seat as usize && s.name.as_deref() == Some(name))
        };
        if !taken(&base) {
            return base;
        }
        ('b'..='z')
            .map(|c| format!("{base} ({c})"))
            .find(|n| !taken(n))
            .unwrap_or_else(|| format!("{base} (seat {seat})"))
    }

    /// Applies one event (live or from the log).
    ///
    /// # Errors
    /// [`TableError::Conflict`] for a change the table's state does not
    /// allow ([`TableError::Stale`] for a move: the game not on, not the
    /// seat's turn, a penalty discard owed first), [`TableError::NotFound`]
    /// for a seat it does not have,
    /// [`TableError::Malformed`] or [`TableError::Illegal`] (with the
    /// engine's code) for a move the engine cannot read or refuses.
    pub fn apply(&mut self, ev: &Event) -> Result<(), TableError> {
        if let Some(reason) = &self.closed {
            if !matches!(ev, Event::Analysis { .. } | Event::Rename { .. }) {
                return Err(conflict(format!(
                    "the table was closed by the operators: {reason}"
                )));
            }
        }
        match ev {
            Event::Close { reason } => self.close(reason),
            Event::Rename { seat, name } => self.rename(*seat, name)?,
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
                    left_token: None,
                };
            }
            Event::Bot { seat, level } => {
                let name = self.bot_name(*seat, level);
                let playing = self.status == Status::Playing;
                let s = self.seat_mut(*seat)?;
                // a bot standing in during a game for a person who left or
                // is away: the game stays theirs (an abandoned game)
                let stood_in = if playing {
                    s.token.or(s.left_token)
                } else {
                    None
                };
                *s = SeatCore {
                    kind: SeatKind::Bot,
                    name: Some(name),
                    token: None,
                    level: Some(level.clone()),
                    left_token: stood_in,
                };
                self.clear_timeouts(*seat);
            }
            Event::Leave { seat } => {
                let s = self.seat_mut(*seat)?;
                if s.kind != SeatKind::Human {
                    return Err(conflict(format!("seat {seat} has no person to leave")));
                }
                s.kind = SeatKind::Left;
                s.left_token = s.token.take();
            }
            Event::Start { seed } => {
                if self.status != Status::Waiting || !self.all_filled() {
                    return Err(conflict("the table cannot start: seats are free"));
                }
                self.live = Some(
                    game_of(self.spec.game)
                        .start(&self.spec, *seed)
                        .map_err(conflict)?,
                );
                self.game_no += 1;
                self.moves = 0;
                self.status = Status::Playing;
                for s in &mut self.seats {
                    s.left_token = None;
                }
                self.log.clear();
                self.times.push((self.now(), None));
                for s in 0..self.seats.len() {
                    self.clear_timeouts(s as u8);
                }
            }
            Event::Move { mv } => self.play(mv, None)?,
            Event::Auto { mv, auto } => self.play(mv, Some(*auto))?,
            Event::Back { seat } => {
                let s = self.seat_mut(*seat)?;
                if s.kind != SeatKind::Human {
                    return Err(conflict(format!("seat {seat} has no person")));
                }
                self.clear_timeouts(*seat);
            }
            Event::Penalty { team } => {
                if self.status != Status::Playing {
                    return Err(conflict(
                        "the table-talk penalty is given during a game (C10)",
                    ));
                }
                if !self.penalty.is_empty() {
                    return Err(conflict(
                        "a table-talk penalty is still being paid: wait until every card is discarded (C10)",
                    ));
                }
                let live = self.live.as_ref().ok_or_else(|| conflict("no game"))?;
                let Some(members) = live.penalty_members(*team) else {
                    return Err(conflict(format!(
                        "{} has no table-talk penalty (C10 is classic Sequence's)",
                        self.spec.game.title()
                    )));
                };
                let size = (0..self.seats.len())
                    .filter(|&s| {
                        self.spec
                            .team_count()
                            .is_some_and(|t| (s as u8) % t == *team)
                    })
                    .count();
                if size < 2 {
                    return Err(conflict(
                        "the table-talk penalty is for a team of two or more players (C10)",
                    ));
                }
                self.penalty = members.iter().map(|s| s.0).collect();
                self.penalty_team = Some(*team);
            }
            Event::Analysis { game, result } => {
                if *game == 0 || *game > self.game_no {
                    return Err(TableError::NotFound(format!(
                        "no game {game} at this table"
                    )));
                }
                self.analyses.insert(*game, result.clone());
            }
            Event::Rematch => {
                if self.status != Status::Over {
                    return Err(conflict("a rematch can only start once the game is over"));
                }
                if let Some(r) = self.record() {
                    self.finished.push(r);
                }
                self.finished_logs.push(std::mem::take(&mut self.log));
                self.live = None;
                self.moves = 0;
                self.status = Status::Waiting;
            }
        }
        self.next_seq += 1;
        Ok(())
    }

    /// Plays a move of the seat to act (`auto`: made by the server for
    /// it), logs it and keeps count of the seat's timeouts.
    fn play(&mut self, mv: &Value, auto: Option<Auto>) -> Result<(), TableError> {
        self.check_playing()?;
        let seat = mv.get("seat").and_then(Value::as_u64).unwrap_or(u64::MAX);
        let to_act = self.to_act();
        if to_act.map(|s| s.0 as u64) != Some(seat) {
            return Err(self.stale(format!(
                "it is not seat {seat}'s turn (seat {} is to move)",
                to_act.map_or("none".to_string(), |s| s.0.to_string())
            )));
        }
        let paying = mv.get("penalty").is_some();
        if paying == self.penalty.is_empty() {
            return Err(if paying {
                TableError::Illegal {
                    code: "C10.no_penalty",
                    message: "illegal move: no table-talk penalty is waiting for this seat (C10)"
                        .into(),
                }
            } else {
                self.stale(format!(
                    "seat {seat} must first discard a card for the table-talk penalty (C10)"
                ))
            });
        }
        let live = self.live.as_mut().ok_or_else(|| conflict("no game"))?;
        let mut logged = live.play_logged(mv)?;
        if paying {
            self.penalty.remove(0);
            if let (Some(e), Some(t)) = (logged.entry.as_mut(), self.penalty_team) {
                e.insert("penalty".into(), game_of(self.spec.game).team_name(t));
            }
            if self.penalty.is_empty() {
                self.penalty_team = None;
            }
        }
        let over = live.outcome().is_over();
        self.moves += 1;
        let at = self.now();
        self.add_to_log(logged, auto, at);
        let s = seat as usize;
        match auto {
            None => self.clear_timeouts(seat as u8),
            Some(Auto::Timeout) => {
                if let Some(n) = self.timeouts.get_mut(s) {
                    *n = n.saturating_add(1);
                    if *n >= AWAY_AFTER {
                        if let Some(a) = self.away.get_mut(s) {
                            *a = true;
                        }
                    }
                }
            }
            Some(Auto::Away | Auto::Window) => {}
        }
        if over {
            self.status = Status::Over;
            let now = self.now();
            if let Some(t) = self.times.last_mut() {
                t.1 = now;
            }
        }
        Ok(())
    }

    /// Refuses a move unless the game is being played.
    ///
    /// # Errors
    /// [`TableError::Stale`] (with the table's `move_number`) when it is
    /// not.
    pub fn check_playing(&self) -> Result<(), TableError> {
        if self.status == Status::Playing {
            return Ok(());
        }
        if let Some(reason) = &self.closed {
            return Err(self.stale(format!("the table was closed by the operators: {reason}")));
        }
        Err(self.stale(format!(
            "the game is not being played (table is {})",
            self.status.name()
        )))
    }

    /// A [`TableError::Stale`] refusal of a move: not now, the table is at
    /// its `move_number`.
    pub fn stale(&self, message: impl Into<String>) -> TableError {
        TableError::Stale {
            message: message.into(),
            move_number: self.moves,
        }
    }

    /// Unix ms now when this core is live (`None` while a stored log is
    /// replayed: its times are not known).
    fn now(&self) -> Option<i64> {
        self.live_clock.then(now_ms)
    }

    fn clear_timeouts(&mut self, seat: u8) {
        if let Some(n) = self.timeouts.get_mut(seat as usize) {
            *n = 0;
        }
        if let Some(a) = self.away.get_mut(seat as usize) {
            *a = false;
        }
    }

    /// Adds a move to the log: its entry with `i` (its index in the log),
    /// `n` (the table's move number after it), `auto` and `at`, and the
    /// fields it gives the entry before it (a Stacks Block window closing).
    fn add_to_log(&mut self, logged: Logged, auto: Option<Auto>, at: Option<i64>) {
        if !logged.previous.is_empty() {
            if let Some(Value::Object(last)) = self.log.last_mut() {
                last.extend(logged.previous);
            }
        }
        if let Some(mut e) = logged.entry {
            e.insert("i".into(), json!(self.log.len()));
            e.insert("n".into(), json!(self.moves));
            if let Some(a) = auto {
                e.insert("auto".into(), json!(a.name()));
            }
            if let Some(at) = at {
                e.insert("at".into(), json!(at));
            }
            self.log.push(Value::Object(e));
        }
    }

    /// The log of game `game` (1 = first; the current game's too).
    pub fn log_of(&self, game: u32) -> Option<&[Value]> {
        if game == self.game_no && self.live.is_some() {
            Some(&self.log)
        } else {
            self.finished_logs
                .get((game as usize).checked_sub(1)?)
                .map(Vec::as_slice)
        }
    }

    /// Whether a bot plays `seat` now: a bot's seat, or a person's marked
    /// away.
    pub fn bot_plays(&self, seat: Seat) -> bool {
        self.seats
            .get(seat.index())
            .is_some_and(|s| s.kind == SeatKind::Bot)
            || self.away.get(seat.index()).copied().unwrap_or(false)
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
        if let Some(&s) = self.penalty.first() {
            return Some(Seat(s));
        }
        self.live.as_ref()?.to_act()
    }

    /// The seat of a request's token.
    ///
    /// # Errors
    /// [`TableError::Unauthorized`] for a missing or malformed token (the
    /// message says what to send) or one of no seat of this table.
    pub fn seat_of_token(&self, token: &SeatToken) -> Result<u8, TableError> {
        let tok = token.token().map_err(TableError::Unauthorized)?;
        self.seat_of(&crate::auth::hash(tok))
            .ok_or_else(|| TableError::Unauthorized("wrong token for this table".into()))
    }

    /// The seat whose token hashes to `hash`.
    pub fn seat_of(&self, hash: &[u8; 32]) -> Option<u8> {
        self.seats
            .iter()
            .position(|s| s.token.as_ref().is_some_and(|t| crate::auth::same(t, hash)))
            .map(|i| i as u8)
    }

    /// The winner of every game played to its end at this table, oldest
    /// first, as records write it (a team colour, a seat; `null` for a
    /// draw): the running score across rematches.
    pub fn results(&self) -> Vec<Value> {
        let mut out: Vec<Value> = self
            .finished
            .iter()
            .map(|r| r["result"]["winner"].clone())
            .collect();
        if self.status == Status::Over {
            if let Some(live) = self.live.as_ref() {
                out.push(live.winner_json());
            }
        }
        out
    }

    /// The current game's record once it is over (`None` otherwise).
    pub fn record(&self) -> Option<Value> {
        if self.status != Status::Over {
            return None;
        }
        Some(self.live.as_ref()?.record_json())
    }
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
    /// Each seat's chat allowance (one for all its connections).
    pub chat_limit: crate::limits::ChatLimit,
    /// Each seat's allowance of quick reactions (the chat's rate, an
    /// allowance of its own).
    pub reaction_limit: crate::limits::ChatLimit,
    /// Held while a chat line is stored and shown, so that lines are shown
    /// in the order they were stored without holding the table (a move
    /// never waits for a chat line's write).
    pub chat_order: std::sync::Arc<tokio::sync::Mutex<()>>,
    /// Open connections per seat.
    pub connected: Vec<u32>,
    /// Turn deadline: when, in Unix ms, and for which move number.
    pub deadline: Option<(Instant, i64, u32)>,
    /// Whether a bot task is running for this table.
    pub bot_running: bool,
    /// Its part in a cluster of instances (ownership, other instances'
    /// WebSockets, chat position): see [`crate::cluster`].
    pub cluster: crate::cluster::TableCluster,
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
    pub fn new(mut core: Core) -> Table {
        let n = core.seats.len();
        core.live_clock = true;
        Table {
            core,
            subs: vec![],
            chat: VecDeque::new(),
            chat_limit: Default::default(),
            reaction_limit: Default::default(),
            chat_order: Default::default(),
            connected: vec![0; n],
            deadline: None,
            bot_running: false,
            cluster: Default::default(),
        }
    }

    /// Whether a WebSocket holds `seat`, here or at another instance.
    pub fn seat_connected(&self, seat: usize) -> bool {
        self.connected.get(seat).is_some_and(|&c| c > 0) || self.cluster.remote_connected(seat)
    }

    /// Public table info (see docs/api.md "Table info").
    pub fn info(&self) -> Value {
        let c = &self.core;
        let game = game_of(c.spec.game);
        let teams = game.check(&c.spec).ok().flatten();
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
                    "connected": s.kind == SeatKind::Bot || self.seat_connected(i),
                    "team": teams.map(|t| game.team_name((i as u8) % t)),
                    "timed_out": c.timeouts.get(i).is_some_and(|&n| n > 0),
                    "timeouts": c.timeouts.get(i).copied().unwrap_or(0),
                    "away": c.away.get(i).copied().unwrap_or(false),
                })
            })
            .collect();
        let mut info = json!({
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
            "deadline_seat": self.deadline.and_then(|_| c.to_act()).map(|s| s.0),
            "private": c.spec.private,
            "rated": c.spec.rated != Some(false)
                && !c.seats.iter().any(|s| s.kind == SeatKind::Bot && s.left_token.is_none()),
            "started_ms": c.times.last().and_then(|t| t.0),
            "ended_ms": c.times.last().and_then(|t| t.1),
            "now_ms": now_ms(),
            "host": 0,
            "seats": seats,
            "results": c.results(),
        });
        if let (Some(reason), Some(o)) = (&c.closed, info.as_object_mut()) {
            o.insert("closed".into(), json!(reason));
        }
        // a tutorial's table says which (issue 25); other tables as before
        if let (Some(t), Some(o)) = (&c.spec.tutorial, info.as_object_mut()) {
            o.insert("tutorial".into(), json!(t));
        }
        info
    }

    /// The view of `seat` (`None`: spectator), with the table info: the
    /// engine's view of the seat or of a spectator (the engine decides what
    /// each may see), `move_number` the moves this table accepted.
    pub fn view(&self, seat: Option<u8>) -> Value {
        let c = &self.core;
        let mut v = match c.live.as_ref() {
            None => {
                json!({"game": c.spec.game, "seat": seat, "status": "waiting", "move_number": 0})
            }
            Some(live) => live.view_json(seat.map(Seat)),
        };
        if let Some(live) = c.live.as_ref() {
            live.decorate_view(&mut v);
        }
        if let Some(o) = v.as_object_mut() {
            if c.live.is_some() {
                o.insert("move_number".into(), json!(c.moves));
                let from = c.log.len().saturating_sub(LOG_TAIL);
                o.insert("log".into(), json!(&c.log[from..]));
                o.insert("log_size".into(), json!(c.log.len()));
                if c.live.as_ref().is_some_and(|l| l.in_window()) {
                    if let Some(Value::Object(w)) = o.get_mut("block_window") {
                        w.insert("deadline_ms".into(), json!(self.deadline.map(|d| d.1)));
                    }
                }
                if c.status == Status::Over {
                    if let Some(live) = c.live.as_ref() {
                        o.insert("final_sides".into(), live.final_sides());
                    }
                }
                if let (Some(&first), Some(team)) = (c.penalty.first(), c.penalty_team) {
                    // the table-talk penalty (C10): the seat that owes a
                    // discard chooses one of its cards; nobody else moves
                    let game = game_of(c.spec.game);
                    o.insert(
                        "penalty".into(),
                        json!({"team": game.team_name(team), "pending": c.penalty}),
                    );
                    let choices: Vec<Value> = if seat == Some(first) {
                        let mut cards: Vec<&str> = vec![];
                        for c in o
                            .get("hand")
                            .and_then(Value::as_array)
                            .into_iter()
                            .flatten()
                            .filter_map(Value::as_str)
                        {
                            if !cards.contains(&c) {
                                cards.push(c);
                            }
                        }
                        cards
                            .iter()
                            .map(|c| json!({"seat": first, "penalty": c}))
                            .collect()
                    } else {
                        vec![]
                    };
                    o.insert("legal_moves".into(), json!(choices));
                }
            }
            o.insert("table".into(), self.info());
        }
        v
    }

    /// Sends every subscriber its view; drops subscribers whose queue is
    /// full or closed.
    pub fn broadcast_views(&mut self) {
        self.push_views(None);
    }

    /// [`Table::broadcast_views`], answering the view of `seat` as pushed:
    /// each view is computed once, for the pushes and the answer alike.
    pub fn broadcast_views_answering(&mut self, seat: u8) -> Value {
        match self.push_views(Some(seat)) {
            Some(v) => v,
            None => self.view(Some(seat)),
        }
    }

    /// Pushes the views; the view of `keep` if one of its connections got
    /// it.
    fn push_views(&mut self, keep: Option<u8>) -> Option<Value> {
        if self.subs.is_empty() {
            return None;
        }
        let n = self.core.seats.len();
        let mut cache: Vec<Option<std::sync::Arc<str>>> = vec![None; n + 1];
        let mut kept = None;
        let mut dead = vec![];
        for i in 0..self.subs.len() {
            let seat = self.subs[i].seat;
            let k = seat.map_or(n, |s| s as usize);
            if cache[k].is_none() {
                let view = self.view(seat);
                // as `json!({"type": "view", "view": view})` writes it
                let text = format!(r#"{{"type":"view","view":{view}}}"#);
                cache[k] = Some(text.into());
                if seat.is_some() && seat == keep {
                    kept = Some(view);
                }
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
        kept
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

    /// Resets the clock after a change: the seat to act gets
    /// `turn_seconds` (none without a timer), or when it is asked out of
    /// turn (the Stacks Block window) [`WINDOW_SECONDS`] (or the turn
    /// timer if shorter). Seats a bot plays (bots, seats away) get none.
    pub fn reset_deadline(&mut self) {
        self.reset_deadline_from(now_ms());
    }

    /// Resets the turn timer as of `clock_ms` (Unix ms: when the change
    /// that restarted it was committed, here or at another instance).
    pub fn reset_deadline_from(&mut self, clock_ms: i64) {
        self.deadline = None;
        let Some(seat) = self.core.to_act() else {
            return;
        };
        if self.core.bot_plays(seat) {
            return;
        }
        let window = self.core.live.as_ref().is_some_and(|l| l.in_window());
        let turn = self.core.spec.turn_seconds;
        let secs = if window {
            turn.map_or(WINDOW_SECONDS, |t| t.min(WINDOW_SECONDS))
        } else {
            match turn {
                Some(t) => t,
                None => return,
            }
        };
        let d = std::time::Duration::from_secs(secs as u64);
        let at_ms = clock_ms + d.as_millis() as i64;
        let left = std::time::Duration::from_millis(at_ms.saturating_sub(now_ms()).max(0) as u64);
        self.deadline = Some((Instant::now() + left, at_ms, self.core.moves));
    }
}

/// Entries of the move log a view carries (the newest); a page that
/// misses older ones reads them from `GET …/log`.
pub const LOG_TAIL: usize = 16;

/// Seconds a seat asked out of turn (the Stacks Block window, S5b) has to
/// answer before the server answers for it (no Block).
pub const WINDOW_SECONDS: u32 = 15;

#[cfg(test)]
mod tests {
    use super::*;

    fn core(game: GameKind, players: u8) -> Core {
        Core::new("00000000000000ab".into(), Spec::plain(game, players, "t"))
    }

    fn names(c: &Core) -> Vec<Option<&str>> {
        c.seats.iter().map(|s| s.name.as_deref()).collect()
    }

    fn bot(seat: u8, level: &str) -> Event {
        Event::Bot {
            seat,
            level: level.into(),
        }
    }

    /// Regression: two bots of one level at a table were both "Bot 2".
    #[test]
    fn bots_of_one_level_get_distinct_names() {
        let mut c = core(GameKind::Classic, 4);
        for (seat, level) in [(1, "level:2"), (2, "level:2"), (3, "level:2")] {
            c.apply(&bot(seat, level)).expect("a bot sits");
        }
        assert_eq!(
            names(&c),
            [None, Some("Bot 2"), Some("Bot 2 (b)"), Some("Bot 2 (c)")]
        );
        // a seat given to a bot again keeps a name no other seat has
        c.apply(&bot(2, "level:2")).expect("a bot again");
        assert_eq!(c.seats[2].name.as_deref(), Some("Bot 2 (b)"));
        c.apply(&bot(1, "level:3")).expect("another level");
        c.apply(&bot(3, "level:2")).expect("a bot again");
        assert_eq!(
            names(&c),
            [None, Some("Bot 3"), Some("Bot 2 (b)"), Some("Bot 2")]
        );
        // a person named like a bot is told apart too
        let mut c = core(GameKind::Stacks, 3);
        c.apply(&Event::Seat {
            seat: 0,
            name: "Bot random".into(),
            token: "00".repeat(32),
        })
        .expect("a person sits");
        c.apply(&bot(1, "random")).expect("a bot sits");
        assert_eq!(c.seats[1].name.as_deref(), Some("Bot random (b)"));
    }

    #[test]
    fn a_table_starts_its_kind_of_game_and_refuses_moves_cleanly() {
        for kind in GameKind::ALL {
            let mut c = core(kind, 2);
            c.apply(&bot(0, "random")).expect("a bot sits");
            c.apply(&bot(1, "random")).expect("a bot sits");
            c.apply(&Event::Start { seed: 9 }).expect("starts");
            let live = c.live.as_ref().expect("a game");
            assert_eq!(live.kind(), kind);
            let seat = c.to_act().expect("someone acts").0;
            let e = c
                .apply(&Event::Move {
                    mv: json!({"seat": seat, "pass": true, "nonsense": 1}),
                })
                .unwrap_err();
            assert_eq!(e.code(), Some("notation.unknown_key"), "{e}");
            let e = c
                .apply(&Event::Move {
                    mv: json!({"seat": 1 - seat, "pass": true}),
                })
                .unwrap_err();
            assert!(matches!(e, TableError::Stale { move_number: 0, .. }), "{e}");
            assert_eq!(c.moves, 0);
            let view = Table::new(c.clone()).view(None);
            assert_eq!(view["seat"], Value::Null);
            assert!(view.get("hand").is_none(), "{view}");
            assert_eq!(view["legal_moves"], json!([]));
            assert_eq!(view["table"]["game"], json!(kind.name()));
        }
    }
}
