//! The durable state of a table ([`Core`]): exactly what its events give,
//! rebuilt by replaying them. A change is applied to a copy first (the
//! engine checks every move).

use super::event::{Auto, Event, StoredMove, AWAY_AFTER};
use super::{now_ms, Logged, Spec, TableError};
use crate::auth::SeatToken;
use sequence_common::{AnyGame, PlayError, Seat};
use serde_json::{json, Value};
use std::sync::Arc;

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
    pub(super) fn name(self) -> &'static str {
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
    /// The account of the person who sat here signed in ([`Event::Seat`]),
    /// kept when they leave or a bot stands in for them during a game.
    pub account: Option<i64>,
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
    pub live: Option<Box<dyn AnyGame>>,
    /// Moves accepted in the current game.
    pub moves: u32,
    /// Where the table stands.
    pub status: Status,
    /// Next event sequence number.
    pub next_seq: i64,
    /// Records of earlier games (after rematches), oldest first. Shared
    /// with the copies a change is checked on (changed only by a rematch),
    /// so that a copy costs nothing for a table's history.
    pub finished: Arc<Vec<Value>>,
    /// The move log of the current game (docs/api.md "Move log"), each
    /// entry as its JSON text shared with the copies a change is checked
    /// on (a copy counts references instead of copying the game's log on
    /// every move).
    pub log: Vec<LogEntry>,
    /// Move logs of earlier games, oldest first (shared as `finished`).
    pub finished_logs: Arc<Vec<Vec<LogEntry>>>,
    /// When each game started and ended (Unix ms, when known), game 1
    /// first.
    pub times: Vec<(Option<i64>, Option<i64>)>,
    /// Per seat: timeouts in a row (the seat's own move or return clears
    /// them).
    pub timeouts: Vec<u8>,
    /// Per seat: marked away (a bot plays for it until its person acts).
    pub away: Vec<bool>,
    /// Stored analyses of finished games, by game number (shared as
    /// `finished`).
    pub analyses: Arc<std::collections::BTreeMap<u32, Value>>,
    /// Whether changes happen now (times are kept: log entries' `at`,
    /// games' start and end), not replayed from the stored log.
    pub live_clock: bool,
    /// Why the operators closed the table ([`Event::Close`]), if they did.
    pub closed: Option<String>,
}

/// One entry of a move log (docs/api.md "Move log") kept as its compact
/// JSON text: a few hundred bytes where the entry as a [`Value`] takes
/// kilobytes (a map, a string per key), and written into a view as it is.
/// Cloning it counts a reference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogEntry(Arc<str>);

impl LogEntry {
    /// The entry of the object `entry`.
    pub fn of(entry: &Value) -> LogEntry {
        LogEntry(entry.to_string().into())
    }

    /// The entry's JSON text (`Value::to_string` of the entry).
    pub fn text(&self) -> &str {
        &self.0
    }

    /// The entry as a JSON value (as it was made: its text is the value's
    /// own).
    pub fn value(&self) -> Value {
        serde_json::from_str(&self.0).unwrap_or(Value::Null)
    }
}

/// A log's entries as values.
pub fn log_values(log: &[LogEntry]) -> Vec<Value> {
    log.iter().map(LogEntry::value).collect()
}

pub(super) fn conflict(msg: impl Into<String>) -> TableError {
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
                account: None,
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
            finished: Default::default(),
            log: vec![],
            finished_logs: Default::default(),
            times: vec![],
            timeouts: vec![0; n],
            away: vec![false; n],
            analyses: Default::default(),
            live_clock: false,
            closed: None,
        }
    }

    pub(super) fn seat_mut(&mut self, seat: u8) -> Result<&mut SeatCore, TableError> {
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
    /// [`TableError::Refused`] (with the
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
            Event::Seat {
                seat,
                name,
                token,
                account,
            } => self.take_seat(*seat, name, token, *account)?,
            Event::Bot { seat, level } => self.seat_bot(*seat, level)?,
            Event::Leave { seat } => {
                let s = self.seat_mut(*seat)?;
                if s.kind != SeatKind::Human {
                    return Err(conflict(format!("seat {seat} has no person to leave")));
                }
                s.kind = SeatKind::Left;
                s.left_token = s.token.take();
            }
            Event::Start { seed } => self.start(*seed)?,
            Event::Move { mv } => self.play(mv, None)?,
            Event::Auto { mv, auto } => self.play(mv, Some(*auto))?,
            Event::Back { seat } => {
                let s = self.seat_mut(*seat)?;
                if s.kind != SeatKind::Human {
                    return Err(conflict(format!("seat {seat} has no person")));
                }
                self.clear_timeouts(*seat);
            }
            Event::Penalty { team } => self.give_penalty(*team)?,
            Event::Analysis { game, result } => {
                if *game == 0 || *game > self.game_no {
                    return Err(TableError::NotFound(format!(
                        "no game {game} at this table"
                    )));
                }
                Arc::make_mut(&mut self.analyses).insert(*game, result.clone());
            }
            Event::Rematch => self.rematch()?,
        }
        self.next_seq += 1;
        Ok(())
    }

    /// A person takes `seat` ([`Event::Seat`]).
    fn take_seat(
        &mut self,
        seat: u8,
        name: &str,
        token: &str,
        account: Option<i64>,
    ) -> Result<(), TableError> {
        let s = self.seat_mut(seat)?;
        if !matches!(s.kind, SeatKind::Free | SeatKind::Left) {
            return Err(TableError::SeatTaken(seat));
        }
        let mut h = [0u8; 32];
        hex::decode_to_slice(token, &mut h).map_err(|_| conflict("bad stored token"))?;
        *s = SeatCore {
            kind: SeatKind::Human,
            name: Some(name.to_string()),
            token: Some(h),
            level: None,
            left_token: None,
            account,
        };
        Ok(())
    }

    /// A bot of `level` takes `seat` ([`Event::Bot`]).
    fn seat_bot(&mut self, seat: u8, level: &str) -> Result<(), TableError> {
        let name = self.bot_name(seat, level);
        let playing = self.status == Status::Playing;
        let s = self.seat_mut(seat)?;
        // a bot standing in during a game for a person who left or
        // is away: the game stays theirs (an abandoned game)
        let (stood_in, account) = if playing {
            (s.token.or(s.left_token), s.account)
        } else {
            (None, None)
        };
        *s = SeatCore {
            kind: SeatKind::Bot,
            name: Some(name),
            token: None,
            level: Some(level.to_string()),
            left_token: stood_in,
            account,
        };
        self.clear_timeouts(seat);
        Ok(())
    }

    /// A game starts, dealt from `seed` ([`Event::Start`]).
    fn start(&mut self, seed: u64) -> Result<(), TableError> {
        if self.status != Status::Waiting || !self.all_filled() {
            return Err(conflict("the table cannot start: seats are free"));
        }
        self.live = Some(self.spec.deal(seed).map_err(conflict)?);
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
        Ok(())
    }

    /// The host gives `team` the table-talk penalty (C10, [`Event::Penalty`]):
    /// the engine keeps who owes a discard.
    fn give_penalty(&mut self, team: u8) -> Result<(), TableError> {
        if self.status != Status::Playing {
            return Err(conflict(
                "the table-talk penalty is given during a game (C10)",
            ));
        }
        let live = self.live.as_mut().ok_or_else(|| conflict("no game"))?;
        live.give_penalty(team).map_err(|e| conflict(e.to_string()))
    }

    /// A new game at the same table ([`Event::Rematch`]).
    fn rematch(&mut self) -> Result<(), TableError> {
        if self.status != Status::Over {
            return Err(conflict("a rematch can only start once the game is over"));
        }
        if let Some(r) = self.record() {
            Arc::make_mut(&mut self.finished).push(r);
        }
        Arc::make_mut(&mut self.finished_logs).push(std::mem::take(&mut self.log));
        self.live = None;
        self.moves = 0;
        self.status = Status::Waiting;
        Ok(())
    }

    /// Plays a move of the seat to act (`auto`: made by the server for
    /// it), logs it and keeps count of the seat's timeouts. Whether the
    /// game is on, which seat decides, and whether it owes a table-talk
    /// penalty discard first (C10), the engine says
    /// ([`sequence_common::AnyGame::may_decide`],
    /// [`sequence_common::AnyGame::play_entry`]).
    fn play(&mut self, mv: &StoredMove, auto: Option<Auto>) -> Result<(), TableError> {
        let (status, move_number) = (self.status, self.moves);
        let closed = self.closed.as_deref();
        let Some(live) = self.live.as_mut() else {
            return Err(self.not_playing());
        };
        let refused = |e: PlayError| not_now(e, status, closed, move_number);
        if let Some(seat) = mv.seat() {
            live.may_decide(seat).map_err(refused)?;
        }
        let entry = mv.entry(live.as_ref())?;
        let seat = entry.seat().0;
        let logged = live.play_entry(&entry).map_err(refused)?;
        let over = live.outcome().is_over();
        self.moves += 1;
        let at = self.now();
        self.add_to_log(logged, auto, at);
        let s = seat as usize;
        match auto {
            None => self.clear_timeouts(seat),
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
        Err(self.not_playing())
    }

    /// [`TableError::Stale`]: the game is not being played (the table is
    /// waiting, over or closed).
    fn not_playing(&self) -> TableError {
        self.stale(not_playing(self.status, self.closed.as_deref()))
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
    pub(super) fn now(&self) -> Option<i64> {
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
            if let Some(last) = self.log.last_mut() {
                if let Value::Object(mut entry) = last.value() {
                    entry.extend(logged.previous);
                    *last = LogEntry::of(&Value::Object(entry));
                }
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
            self.log.push(LogEntry::of(&Value::Object(e)));
        }
    }

    /// The log of game `game` (1 = first; the current game's too).
    pub fn log_of(&self, game: u32) -> Option<Vec<Value>> {
        let log = if game == self.game_no && self.live.is_some() {
            &self.log
        } else {
            self.finished_logs.get((game as usize).checked_sub(1)?)?
        };
        Some(log_values(log))
    }

    /// Whether a bot plays `seat` now: a bot's seat, or a person's marked
    /// away.
    pub fn bot_plays(&self, seat: Seat) -> bool {
        self.seats
            .get(seat.index())
            .is_some_and(|s| s.kind == SeatKind::Bot)
            || self.away.get(seat.index()).copied().unwrap_or(false)
    }

    /// Whether the game at this table is rated as it stands (docs/accounts.md
    /// "Rated or casual"): the host did not make it casual, no bot plays,
    /// and every held seat is an account's, each a different one. A free
    /// seat (or, before a game, one its person left) does not count: it
    /// may still be taken by an account. The table info says this, and the
    /// end of a game is stored rated only when it holds then.
    pub fn rated_now(&self) -> bool {
        if self.spec.rated == Some(false) {
            return false;
        }
        let mut accounts = vec![];
        for s in &self.seats {
            let held = match s.kind {
                SeatKind::Free => false,
                // a bot on its own makes the game casual; one standing in
                // for a person keeps the game theirs
                SeatKind::Bot if s.left_token.is_none() => return false,
                SeatKind::Left => self.status != Status::Waiting,
                SeatKind::Human | SeatKind::Bot => true,
            };
            if held {
                match s.account {
                    Some(a) if !accounts.contains(&a) => accounts.push(a),
                    // a guest, or one account at two seats
                    _ => return false,
                }
            }
        }
        true
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
        self.live.as_ref()?.record_json()
    }
}

/// Why a game is not being played, for a move sent to it: the table
/// `status`, or why the operators `closed` it.
fn not_playing(status: Status, closed: Option<&str>) -> String {
    match closed {
        Some(reason) => format!("the table was closed by the operators: {reason}"),
        None => format!("the game is not being played (table is {})", status.name()),
    }
}

/// A refusal of the engine as the table answers it: not now (the game
/// over, another seat to decide, a penalty discard owed first, C10) is
/// [`TableError::Stale`] at `move_number`, since the player has not seen
/// the table as it stands (once over, said as [`Core::check_playing`]
/// says it); the rest as the engine refused it.
fn not_now(e: PlayError, status: Status, closed: Option<&str>, move_number: u32) -> TableError {
    match e {
        PlayError::NotNow { code, .. } if code == sequence_common::any::GAME_OVER => {
            TableError::Stale {
                message: not_playing(status, closed),
                move_number,
            }
        }
        PlayError::NotNow { message, .. } => TableError::Stale {
            message,
            move_number,
        },
        e => e.into(),
    }
}
