//! The shared server state [`App`] and the paths every change goes
//! through, for HTTP and the WebSocket alike: opening a table (load, lock,
//! sync: [`App::open`]), committing events ([`commit`]), playing a move
//! ([`play_move`]), the bots' task and the turn timers. Refusals are the
//! table core's [`TableError`]s; the HTTP layer gives them a status.

use crate::config::ServerConfig;
use crate::db::{Db, DbError};
use crate::limits::{echo, AddressLimiter};
use crate::tables::{now_ms, Auto, Core, Event, SeatKind, Spec, Status, Table, TableError};
use sequence_common::Seat;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use tokio::sync::{Mutex, OwnedMutexGuard};

/// A table shared between requests.
pub type TableRef = Arc<Mutex<Table>>;

/// The server state shared by every request and connection.
pub struct App {
    /// Storage.
    pub db: Db,
    /// Tables in memory, by id.
    pub tables: std::sync::Mutex<HashMap<String, TableRef>>,
    /// Settings.
    pub cfg: ServerConfig,
    /// Per-address HTTP limiter.
    pub limiter: AddressLimiter,
    /// The search worker: analyses of finished games, hints.
    pub worker: crate::analysis::Worker,
    next_conn: AtomicU64,
}

/// A table found, locked and brought up to date ([`App::open`]): it
/// derefs to the [`Table`].
pub struct OpenTable {
    /// The table, to hand to tasks.
    pub tref: TableRef,
    table: OwnedMutexGuard<Table>,
}

impl Deref for OpenTable {
    type Target = Table;

    fn deref(&self) -> &Table {
        &self.table
    }
}

impl DerefMut for OpenTable {
    fn deref_mut(&mut self) -> &mut Table {
        &mut self.table
    }
}

impl OpenTable {
    /// [`commit`]s `events` to this table.
    ///
    /// # Errors
    /// As [`commit`].
    pub async fn commit(&mut self, app: &Arc<App>, events: Vec<Event>) -> Result<(), TableError> {
        commit(app, &self.tref, &mut self.table, events).await
    }

    /// [`play_move`] on this table.
    ///
    /// # Errors
    /// As [`play_move`].
    pub async fn play_move(
        &mut self,
        app: &Arc<App>,
        seat: u8,
        move_number: u32,
        mv: Value,
    ) -> Result<(), TableError> {
        play_move(app, &self.tref, &mut self.table, seat, move_number, mv).await
    }
}

impl App {
    /// A server state over `db`.
    pub fn new(db: Db, cfg: ServerConfig) -> App {
        let limiter = AddressLimiter::new(cfg.rate_limit, cfg.rate_burst);
        App {
            db,
            tables: std::sync::Mutex::new(HashMap::new()),
            cfg,
            limiter,
            worker: crate::analysis::Worker::new(),
            next_conn: AtomicU64::new(1),
        }
    }

    /// A fresh connection id.
    pub fn conn_id(&self) -> u64 {
        self.next_conn.fetch_add(1, Ordering::Relaxed)
    }

    fn cached(&self, id: &str) -> Option<TableRef> {
        self.tables.lock().ok()?.get(id).cloned()
    }

    /// Every table in memory.
    pub fn all_tables(&self) -> Vec<TableRef> {
        self.tables
            .lock()
            .map(|m| m.values().cloned().collect())
            .unwrap_or_default()
    }

    /// The table `id`, loaded from the database if needed (its bots move
    /// again).
    ///
    /// # Errors
    /// [`TableError::NotFound`] when there is no such table; a stored table
    /// that does not replay is [`TableError::Internal`].
    pub async fn table(self: &Arc<Self>, id: &str) -> Result<TableRef, TableError> {
        if !crate::auth::table_id_ok(id) {
            return Err(TableError::NotFound(format!(
                "no table `{}` (ids are 16 hex characters)",
                echo(id)
            )));
        }
        if let Some(t) = self.cached(id) {
            return Ok(t);
        }
        let stored = self
            .db
            .load(id)
            .await?
            .ok_or_else(|| TableError::NotFound(format!("no table {id}")))?;
        let mut spec: Spec = serde_json::from_str(&stored.spec)
            .map_err(|e| TableError::Internal(format!("stored table {id}: {e}")))?;
        if spec.options.as_array().is_some_and(Vec::is_empty) {
            // stored before `options` had to be an object: `[]` meant the
            // defaults then
            spec.options = Value::Null;
        }
        let mut core = Core::new(id.to_string(), spec);
        for (seq, data) in &stored.events {
            apply_stored(&mut core, *seq, data)?;
        }
        let mut table = Table::new(core);
        table.reset_deadline();
        let tref = {
            let mut map = self
                .tables
                .lock()
                .map_err(|_| TableError::Internal("lock".into()))?;
            map.entry(id.to_string())
                .or_insert_with(|| Arc::new(Mutex::new(table)))
                .clone()
        };
        {
            let mut t = tref.lock().await;
            kick_bots(self, &tref, &mut t);
        }
        Ok(tref)
    }

    /// The table `id` found ([`App::table`]), locked, and up to date with
    /// what other server instances wrote ([`App::sync`]).
    ///
    /// # Errors
    /// As [`App::table`] and [`App::sync`].
    pub async fn open(self: &Arc<Self>, id: &str) -> Result<OpenTable, TableError> {
        let tref = self.table(id).await?;
        let mut table = tref.clone().lock_owned().await;
        self.sync(&mut table).await?;
        Ok(OpenTable { tref, table })
    }

    /// Reads events other server instances appended (shared PostgreSQL).
    ///
    /// # Errors
    /// Database errors.
    pub async fn sync(&self, t: &mut Table) -> Result<bool, TableError> {
        if !self.db.shared() {
            return Ok(false);
        }
        let evs = self.db.events_since(&t.core.id, t.core.next_seq).await?;
        let changed = !evs.is_empty();
        for (seq, data) in &evs {
            apply_stored(&mut t.core, *seq, data)?;
        }
        if changed {
            t.reset_deadline();
            t.broadcast_views();
        }
        Ok(changed)
    }

    /// Creates a table of `spec` from its first `events` (the host's seat
    /// and any bots), starting its game at once when every seat is filled;
    /// returns its id once it is stored.
    ///
    /// # Errors
    /// The first event's refusal, or a database error.
    pub async fn create_table(
        self: &Arc<Self>,
        spec: Spec,
        mut events: Vec<Event>,
    ) -> Result<String, TableError> {
        let id = crate::auth::new_table_id();
        let mut core = Core::new(id.clone(), spec.clone());
        for e in &events {
            core.apply(e)?;
        }
        if core.all_filled() {
            let e = Event::Start {
                seed: rand::random(),
            };
            core.apply(&e)?;
            events.push(e);
        }
        let spec_text =
            serde_json::to_string(&spec).map_err(|e| TableError::Invalid(e.to_string()))?;
        self.db
            .create_table(
                &id,
                &spec_text,
                core.status.name(),
                spec.created_ms,
                &event_texts(&events),
            )
            .await?;
        let mut table = Table::new(core);
        table.reset_deadline();
        let tref = Arc::new(Mutex::new(table));
        if let Ok(mut m) = self.tables.lock() {
            m.insert(id.clone(), tref.clone());
        }
        {
            let mut t = tref.lock().await;
            kick_bots(self, &tref, &mut t);
        }
        tracing::info!(table = %id, "table created");
        Ok(id)
    }
}

fn event_texts(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .map(|e| serde_json::to_string(e).unwrap_or_default())
        .collect()
}

fn apply_stored(core: &mut Core, seq: i64, data: &str) -> Result<(), TableError> {
    let ev: Event = serde_json::from_str(data).map_err(|e| {
        TableError::Internal(format!("table {} event {seq} unreadable: {e}", core.id))
    })?;
    if seq != core.next_seq {
        return Err(TableError::Internal(format!(
            "table {} event {seq} out of order",
            core.id
        )));
    }
    core.apply(&ev).map_err(|e| {
        TableError::Internal(format!("table {} event {seq} replays wrong: {e}", core.id))
    })
}

/// Applies `events` to a copy of the table's core (starting the game when
/// every seat is filled), appends them to the database, and only once that
/// has committed keeps the new state, broadcasts the views and wakes the
/// bots. Nothing changes on error.
///
/// # Errors
/// The first event's refusal, or a database error
/// ([`TableError::Conflict`] when another server wrote first).
pub async fn commit(
    app: &Arc<App>,
    tref: &TableRef,
    t: &mut Table,
    mut events: Vec<Event>,
) -> Result<(), TableError> {
    app.sync(t).await?;
    let mut core = t.core.clone();
    let first = core.next_seq;
    let moves_before = (core.game_no, core.moves);
    for e in &events {
        core.apply(e)?;
    }
    if core.status == Status::Waiting && core.all_filled() {
        let seed: u64 = rand::random();
        let e = Event::Start { seed };
        core.apply(&e)?;
        events.push(e);
    }
    match app
        .db
        .append(&core.id, first, &event_texts(&events), core.status.name())
        .await
    {
        Ok(()) => {}
        Err(DbError::Conflict) => {
            app.sync(t).await?;
            return Err(DbError::Conflict.into());
        }
        Err(e) => return Err(e.into()),
    }
    t.core = core;
    if (t.core.game_no, t.core.moves) != moves_before || t.deadline.is_none() {
        t.reset_deadline();
    }
    t.broadcast_views();
    kick_bots(app, tref, t);
    Ok(())
}

/// Checks and plays a move for `seat` (shared by HTTP and WebSocket): the
/// game must be on, `move_number` the table's, the move an object for
/// this seat (its `seat` may be left out).
///
/// # Errors
/// [`TableError::Conflict`] for a stale or early `move_number`, a move for
/// another seat or not this seat's turn; [`TableError::Malformed`] for a
/// move that cannot be read; [`TableError::Illegal`] for one the rules
/// refuse (both with the engine's code).
pub async fn play_move(
    app: &Arc<App>,
    tref: &TableRef,
    t: &mut Table,
    seat: u8,
    move_number: u32,
    mut mv: Value,
) -> Result<(), TableError> {
    app.sync(t).await?;
    if t.core.status != Status::Playing {
        return Err(TableError::conflict(format!(
            "the game is not being played (table is {})",
            t.core.status.name()
        )));
    }
    if move_number > t.core.moves {
        return Err(TableError::conflict(format!(
            "move_number {move_number} is ahead of the game (at move_number {})",
            t.core.moves
        )));
    }
    if move_number < t.core.moves {
        return Err(TableError::conflict(format!(
            "stale move_number {move_number}: the game is at move_number {}",
            t.core.moves
        )));
    }
    let kind = sequence_common::json::kind_of(&mv);
    let o = mv.as_object_mut().ok_or_else(|| TableError::Malformed {
        code: sequence_common::NotationError::NotAnObject.code(),
        message: format!("move must be a JSON object {{…}}, not {kind}"),
    })?;
    match o.get("seat") {
        None => {
            o.insert("seat".into(), json!(seat));
        }
        Some(s) if s.as_u64() == Some(seat as u64) => {}
        Some(s) if s.as_u64().is_some() => {
            return Err(TableError::conflict(format!(
                "the move is for seat {s} but the token is seat {seat}"
            )))
        }
        Some(s) => {
            return Err(TableError::Malformed {
                code: sequence_common::NotationError::field("seat", "").code(),
                message: format!(
                    "move.seat must be a number (your seat, {seat}, or left out), got {}",
                    shown_value(s)
                ),
            })
        }
    }
    commit(app, tref, t, vec![Event::Move { mv }]).await
}

/// A JSON value of a request for a message: `the string "0"`, `-1`,
/// `[1]` (capped by [`echo`]).
fn shown_value(v: &Value) -> String {
    match v {
        Value::String(s) => format!("the string \"{}\"", echo(s)),
        other => echo(&other.to_string()),
    }
}

/// A bot's move to compute: for which seat, at which move of which game,
/// and whether it plays for a person (a seat away, a timeout).
struct BotJob {
    seat: Seat,
    choose: crate::tables::BotMove,
    game_no: u32,
    moves: u32,
    auto: Option<Auto>,
}

/// The level of the bot that plays for a person: a timeout's one move,
/// and every move of a seat away (docs/api.md "Turn timer").
pub const STAND_IN_LEVEL: &str = "level:2";

/// The job of the bot that plays `seat`'s move now: the seat's own bot,
/// or for a person the stand-in bot (`auto` says why).
fn bot_job(c: &crate::tables::Core, seat: Seat, auto: Option<Auto>) -> Option<BotJob> {
    let s = c.seats.get(seat.index())?;
    let level = match auto {
        None => s.level.as_deref().unwrap_or("random"),
        Some(_) => STAND_IN_LEVEL,
    };
    let seed =
        u64::from_str_radix(&c.id, 16).unwrap_or(0) ^ ((c.game_no as u64) << 32) ^ c.moves as u64;
    let live = c.live.as_ref()?;
    let choose = if c.penalty.first() == Some(&seat.0) {
        // the table-talk penalty (C10): a card to discard
        let mv = live.penalty_move(seat, seed);
        Box::new(move || mv) as crate::tables::BotMove
    } else {
        live.bot_move(seat, level, seed)
    };
    Some(BotJob {
        seat,
        choose,
        game_no: c.game_no,
        moves: c.moves,
        auto,
    })
}

/// The move a bot must make at `t` now, if a bot is to move (a bot's
/// seat, or a person's marked away); else marks the bot task stopped.
fn next_bot_job(t: &mut Table) -> Option<BotJob> {
    let job = (|| {
        let c = &t.core;
        let seat = c.to_act()?;
        if !c.bot_plays(seat) {
            return None;
        }
        let is_bot = c.seats.get(seat.index())?.kind == SeatKind::Bot;
        bot_job(c, seat, (!is_bot).then_some(Auto::Away))
    })();
    if job.is_none() {
        t.bot_running = false;
    }
    job
}

/// Starts the bot task of a table if a bot is to move and none runs.
pub fn kick_bots(app: &Arc<App>, tref: &TableRef, t: &mut Table) {
    if t.bot_running {
        return;
    }
    let Some(seat) = t.core.to_act() else { return };
    if !t.core.bot_plays(seat) {
        return;
    }
    t.bot_running = true;
    tokio::spawn(run_bots(app.clone(), tref.clone()));
}

/// The bot task: while a bot is to move, waits the bot delay, computes its
/// move on a blocking thread (without the table's lock) and commits it.
async fn run_bots(app: Arc<App>, tref: TableRef) {
    loop {
        if !app.cfg.bot_delay.is_zero() {
            tokio::time::sleep(app.cfg.bot_delay).await;
        }
        let Some(job) = next_bot_job(&mut *tref.lock().await) else {
            return;
        };
        let chosen = tokio::task::spawn_blocking(job.choose).await.ok().flatten();
        let mut t = tref.lock().await;
        if (t.core.game_no, t.core.moves) != (job.game_no, job.moves) {
            continue;
        }
        let Some(mv) = chosen else {
            tracing::error!(
                "bot at table {} seat {} found no move",
                t.core.id,
                job.seat.0
            );
            t.bot_running = false;
            return;
        };
        t.bot_running = false; // commit may restart us; we loop only on a conflict
        let event = match job.auto {
            None => Event::Move { mv },
            Some(auto) => Event::Auto { mv, auto },
        };
        match commit(&app, &tref, &mut t, vec![event]).await {
            Ok(()) => return,
            Err(e) => {
                tracing::warn!("bot move at table {} refused: {e}", t.core.id);
                if matches!(e, TableError::Conflict(_)) {
                    t.bot_running = true;
                    continue;
                }
                return;
            }
        }
    }
}

/// Plays for seats whose time ran out (called five times a second): see
/// [`run_out`].
pub async fn check_timers(app: &Arc<App>) {
    let now = std::time::Instant::now();
    for tref in app.all_tables() {
        let Ok(mut t) = tref.try_lock() else { continue };
        if let Some((at, _, moves)) = t.deadline {
            if at <= now && moves == t.core.moves {
                t.deadline = None;
                run_out(app, &tref, &mut t);
            }
        }
    }
}

/// The seat to act at `t` ran out of time: the server answers for it.
/// In a window asked out of turn (the Stacks Block window) it gives the
/// default answer (no Block); on a turn a level-2 bot plays this one move
/// for the seat (the seat stays its person's; the log says so), and after
/// [`crate::tables::AWAY_AFTER`] timeouts in a row the seat is away: a bot
/// plays it until its person acts again.
pub fn run_out(app: &Arc<App>, tref: &TableRef, t: &mut Table) {
    let Some(seat) = t.core.to_act() else { return };
    tracing::info!(table = %t.core.id, seat = seat.0, "turn timer ran out");
    let at = (t.core.game_no, t.core.moves);
    let window = t.core.live.as_ref().is_some_and(|l| l.in_window());
    // the default answer of a window, or a bot to choose the move
    let answer: Result<Value, BotJob> = if window {
        match t.core.live.as_ref().and_then(|l| l.window_default(seat)) {
            Some(mv) => Ok(mv),
            None => return,
        }
    } else {
        match bot_job(&t.core, seat, Some(Auto::Timeout)) {
            Some(job) => Err(job),
            None => return,
        }
    };
    let (app, tref) = (app.clone(), tref.clone());
    tokio::spawn(async move {
        let event = match answer {
            Ok(mv) => Event::Auto {
                mv,
                auto: Auto::Window,
            },
            Err(job) => {
                let Some(mv) = tokio::task::spawn_blocking(job.choose).await.ok().flatten() else {
                    return;
                };
                Event::Auto {
                    mv,
                    auto: Auto::Timeout,
                }
            }
        };
        let mut t = tref.lock().await;
        if (t.core.game_no, t.core.moves) != at {
            return; // the seat moved after all
        }
        if let Err(e) = commit(&app, &tref, &mut t, vec![event]).await {
            tracing::warn!(
                "move for a seat out of time at table {} refused: {e}",
                t.core.id
            );
            t.reset_deadline();
        }
    });
}

/// Adds a chat line of `seat` (already cleaned) to the table and sends it
/// to everyone; the last 50 lines are kept for newcomers.
pub fn chat(t: &mut Table, seat: u8, text: String) {
    let name = t.core.seats.get(seat as usize).and_then(|s| s.name.clone());
    let line = json!({"type": "chat", "seat": seat, "name": name, "text": text, "at": now_ms()});
    t.chat.push_back(line.clone());
    while t.chat.len() > 50 {
        t.chat.pop_front();
    }
    t.broadcast(&line);
}
