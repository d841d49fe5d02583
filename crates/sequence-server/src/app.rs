//! The shared server state [`App`] and the paths every change goes
//! through, for HTTP and the WebSocket alike: opening a table (load, lock,
//! catch up: [`App::open`]), committing events ([`commit`]), playing a
//! move ([`play_move`]), the bots' task, the turn timers, the chat, and
//! applying what other server instances changed ([`App::apply_note`]).
//! Refusals are the table core's [`TableError`]s; the HTTP layer gives
//! them a status.
//!
//! Every change is checked against the table as this instance knows it
//! and appended at the table's next event number; the database takes
//! exactly one of two appends of the same number (two instances on one
//! PostgreSQL), so a change is accepted only if it was checked against
//! the latest stored state. The loser catches up and is checked again:
//! a move whose `move_number` is then stale is refused (409 with the
//! table's `move_number`).

use crate::cluster::{Cluster, Note, Tables};
use crate::config::{ClusterConfig, ServerConfig};
use crate::db::{Append, Db, DbError};
use crate::limits::{echo, AddressLimiter};
use crate::tables::{now_ms, Auto, Core, Event, SeatKind, Spec, Status, Table, TableError};
use sequence_common::Seat;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
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
    /// This instance among others on one database (ownership of tables,
    /// notifications).
    pub cluster: Cluster,
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

    /// The seat of a request's token; a token this instance does not know
    /// (a seat just taken at another instance) is looked for again after
    /// catching up, before it is refused.
    ///
    /// # Errors
    /// As [`crate::tables::Core::seat_of_token`].
    pub async fn seat_of_token(
        &mut self,
        app: &Arc<App>,
        token: &crate::auth::SeatToken,
    ) -> Result<u8, TableError> {
        seat_of_token(app, &self.tref, &mut self.table, token).await
    }
}

/// The seat of `token` at `t`, catching up once before refusing a token
/// this instance does not know.
///
/// # Errors
/// As [`crate::tables::Core::seat_of_token`].
pub async fn seat_of_token(
    app: &Arc<App>,
    tref: &TableRef,
    t: &mut Table,
    token: &crate::auth::SeatToken,
) -> Result<u8, TableError> {
    match t.core.seat_of_token(token) {
        Err(TableError::Unauthorized(_)) if token.token().is_ok() && app.db.shared() => {
            app.sync(tref, t).await?;
            t.core.seat_of_token(token)
        }
        r => r,
    }
}

impl App {
    /// A server state over `db` with the default cluster settings.
    pub fn new(db: Db, cfg: ServerConfig) -> App {
        App::with_cluster(db, cfg, ClusterConfig::default())
    }

    /// A server state over `db`.
    pub fn with_cluster(db: Db, cfg: ServerConfig, ccfg: ClusterConfig) -> App {
        let limiter = AddressLimiter::new(cfg.rate_limit, cfg.rate_burst);
        App {
            db,
            tables: std::sync::Mutex::new(HashMap::new()),
            cfg,
            cluster: Cluster::new(ccfg),
            limiter,
            worker: crate::analysis::Worker::new(),
            next_conn: AtomicU64::new(1),
        }
    }

    /// A fresh connection id.
    pub fn conn_id(&self) -> u64 {
        self.next_conn.fetch_add(1, Ordering::Relaxed)
    }

    /// The table `id` if it is in memory.
    pub fn cached(&self, id: &str) -> Option<TableRef> {
        self.tables.lock().ok()?.get(id).cloned()
    }

    /// Every table in memory.
    pub fn all_tables(&self) -> Vec<TableRef> {
        self.tables
            .lock()
            .map(|m| m.values().cloned().collect())
            .unwrap_or_default()
    }

    /// Ids of the tables in memory.
    pub fn table_ids(&self) -> Vec<String> {
        self.tables
            .lock()
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default()
    }

    /// The table `id`, loaded from the database if needed (its bots move
    /// again if this instance runs them).
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
        let owned = self.decide_owner(id, stored.owner.as_deref()).await?;
        let mut table = Table::new(core);
        table.cluster.owned = owned;
        set_clock(&mut table, stored.clock_ms);
        table.cluster.last_used = Some(Instant::now());
        let ours = Arc::new(Mutex::new(table));
        let mut guard = ours.clone().lock_owned().await;
        let tref = {
            let mut map = self
                .tables
                .lock()
                .map_err(|_| TableError::Internal("lock".into()))?;
            map.entry(id.to_string()).or_insert(ours.clone()).clone()
        };
        if !Arc::ptr_eq(&tref, &ours) {
            return Ok(tref); // another request loaded it first
        }
        if let Err(e) = self.after_load(&tref, &mut guard).await {
            drop(guard);
            if let Ok(mut m) = self.tables.lock() {
                m.remove(id);
            }
            return Err(e);
        }
        kick_bots(self, &tref, &mut guard);
        Ok(tref)
    }

    /// What a freshly loaded table reads besides its events, once it is in
    /// memory (notes arriving now wait for its lock): the chat, and with
    /// PostgreSQL the events committed since it was read (their notes came
    /// before it was in memory) and the WebSockets of other instances.
    async fn after_load(
        self: &Arc<Self>,
        tref: &TableRef,
        t: &mut Table,
    ) -> Result<(), TableError> {
        let lines = self.db.chat_since(&t.core.id, 0).await?;
        t.cluster.chat_next = lines.last().map_or(1, |(seq, _)| seq + 1);
        for (_, line) in lines {
            if let Ok(v) = serde_json::from_str::<Value>(&line) {
                t.chat.push_back(v);
            }
        }
        while t.chat.len() > 50 {
            t.chat.pop_front();
        }
        if self.db.shared() {
            self.sync(tref, t).await?;
            for (instance, seat, conns) in self.db.presence(&t.core.id, &self.cluster.me).await? {
                t.cluster.set_remote(&instance, seat, conns, 0);
            }
        }
        Ok(())
    }

    /// Whether this instance runs the bots and clock of table `id`, whose
    /// stored owner is `owner`: always with SQLite; with PostgreSQL when it
    /// owns it, or claims it because it has no owner or its owner is dead.
    async fn decide_owner(&self, id: &str, owner: Option<&str>) -> Result<bool, TableError> {
        if !self.db.shared() || self.cluster.owns(id) {
            return Ok(true);
        }
        let me = &self.cluster.me;
        if owner == Some(me.as_str()) {
            self.cluster.add_owned(id);
            return Ok(true);
        }
        let lease = self.cluster.cfg.lease.as_millis() as i64;
        if self.db.claim(id, me, lease).await? {
            tracing::info!(table = %id, "claimed a table whose owner is gone");
            self.cluster.add_owned(id);
            return Ok(true);
        }
        Ok(false)
    }

    /// The table `id` found ([`App::table`]), locked, and up to date with
    /// what other server instances wrote ([`App::sync`]).
    ///
    /// # Errors
    /// As [`App::table`] and [`App::sync`].
    pub async fn open(self: &Arc<Self>, id: &str) -> Result<OpenTable, TableError> {
        let tref = self.table(id).await?;
        let mut table = tref.clone().lock_owned().await;
        table.cluster.last_used = Some(Instant::now());
        self.sync(&tref, &mut table).await?;
        Ok(OpenTable { tref, table })
    }

    /// The table `id` found and locked for a change (a move): as this
    /// instance knows it, read again only when it may lag (notifications
    /// not arriving, a commit of unknown outcome). The commit checks that
    /// nothing was stored meanwhile.
    ///
    /// # Errors
    /// As [`App::open`].
    pub async fn open_for_change(self: &Arc<Self>, id: &str) -> Result<OpenTable, TableError> {
        let tref = self.table(id).await?;
        let mut table = tref.clone().lock_owned().await;
        table.cluster.last_used = Some(Instant::now());
        if self.may_lag(&table) {
            self.sync(&tref, &mut table).await?;
        }
        Ok(OpenTable { tref, table })
    }

    /// Whether table `t` may lag the database: a commit of unknown outcome,
    /// or (PostgreSQL) notifications not arriving.
    fn may_lag(&self, t: &Table) -> bool {
        t.cluster.stale || (self.db.shared() && !self.cluster.listening.load(Ordering::Relaxed))
    }

    /// Reads the events appended since this instance last did (other
    /// instances on a shared PostgreSQL; on SQLite only after a commit of
    /// unknown outcome) and applies them; whether any came.
    ///
    /// # Errors
    /// Database errors; a stored event that does not replay.
    pub async fn sync(
        self: &Arc<Self>,
        tref: &TableRef,
        t: &mut Table,
    ) -> Result<bool, TableError> {
        if !self.db.shared() && !t.cluster.stale {
            return Ok(false);
        }
        let c = self.db.catch_up(&t.core.id, t.core.next_seq).await?;
        t.cluster.stale = false;
        if c.events.is_empty() {
            return Ok(false);
        }
        for (seq, data) in &c.events {
            if let Err(e) = apply_stored(&mut t.core, *seq, data) {
                t.cluster.stale = true;
                return Err(e);
            }
        }
        self.after_change_elsewhere(tref, t, c.clock_ms);
        Ok(true)
    }

    /// After events committed elsewhere were applied: the shared turn
    /// clock, everyone's views, the bots.
    fn after_change_elsewhere(
        self: &Arc<Self>,
        tref: &TableRef,
        t: &mut Table,
        clock_ms: Option<i64>,
    ) {
        if clock_ms.is_some_and(|c| c != t.cluster.clock_ms) || t.deadline.is_none() {
            set_clock(t, clock_ms);
        }
        t.broadcast_views();
        kick_bots(self, tref, t);
    }

    /// Brings every table in memory up to date (after the notification
    /// listener reconnected: notes sent meanwhile were lost): one query per
    /// 500 tables finds those that changed; they, and the chat of the
    /// tables someone watches, are read again.
    pub async fn catch_up_all(self: &Arc<Self>) {
        let ids = self.table_ids();
        if ids.is_empty() {
            return;
        }
        let stored = match self.db.next_seqs(&ids).await {
            Ok(s) => s,
            Err(e) => {
                tracing::warn!("cannot catch up after reconnecting: {e}");
                for tref in self.all_tables() {
                    tref.lock().await.cluster.stale = true;
                }
                return;
            }
        };
        let mut behind = 0usize;
        for (id, next, _) in stored {
            let Some(tref) = self.cached(&id) else {
                continue;
            };
            let mut t = tref.lock().await;
            if next > t.core.next_seq {
                behind += 1;
                if let Err(e) = self.sync(&tref, &mut t).await {
                    tracing::warn!(table = %id, "cannot catch up: {e}");
                    t.cluster.stale = true;
                }
            }
            if !t.subs.is_empty() {
                self.catch_up_chat(&mut t).await;
            }
        }
        if behind > 0 {
            tracing::info!(tables = behind, "caught up tables changed elsewhere");
        }
    }

    /// Reads and shows the chat lines of `t` this instance has not shown.
    async fn catch_up_chat(&self, t: &mut Table) {
        match self.db.chat_since(&t.core.id, t.cluster.chat_next).await {
            Ok(lines) => {
                for (seq, line) in lines {
                    if seq >= t.cluster.chat_next {
                        t.cluster.chat_next = seq + 1;
                        if let Ok(v) = serde_json::from_str::<Value>(&line) {
                            deliver_chat(t, v);
                        }
                    }
                }
            }
            Err(e) => tracing::warn!(table = %t.core.id, "cannot read the chat: {e}"),
        }
    }

    /// Applies a notification of another instance (or of this one, which
    /// it already applied) to the table in memory; a table not in memory
    /// is left alone, unless this instance owns it and it changed (its
    /// bots may have to move).
    pub async fn apply_note(self: &Arc<Self>, note: Note) {
        let id = match note.table() {
            Some(id) => id.to_string(),
            None => {
                if let Note::Gone { instance } = &note {
                    for tref in self.all_tables() {
                        let mut t = tref.lock().await;
                        if t.cluster.drop_instance(instance) {
                            t.broadcast_views();
                        }
                    }
                }
                return;
            }
        };
        let Some(tref) = self.cached(&id) else {
            if matches!(note, Note::Events { .. }) && self.cluster.owns(&id) {
                if let Err(e) = self.table(&id).await {
                    tracing::warn!(table = %id, "cannot load an owned table that changed: {e}");
                }
            } else {
                self.cluster.notes.not_here.fetch_add(1, Ordering::Relaxed);
                tracing::debug!(table = %id, "notification about a table not in memory here: ignored");
            }
            return;
        };
        let mut t = tref.lock().await;
        match note {
            Note::Events {
                first,
                last,
                at_ms,
                data,
                ..
            } => {
                if t.core.next_seq > last {
                    return; // applied already (this instance's own change, or read)
                }
                if t.core.next_seq == first && !data.is_empty() {
                    for (i, d) in data.iter().enumerate() {
                        if let Err(e) = apply_stored(&mut t.core, first + i as i64, d) {
                            tracing::warn!(table = %id, "notified event does not apply: {e}");
                            t.cluster.stale = true;
                            break;
                        }
                    }
                    if !t.cluster.stale {
                        self.after_change_elsewhere(&tref, &mut t, Some(at_ms));
                        return;
                    }
                }
                // notes were lost, or the events did not fit: read them
                if let Err(e) = self.sync(&tref, &mut t).await {
                    tracing::warn!(table = %id, "cannot catch up: {e}");
                    t.cluster.stale = true;
                }
            }
            Note::Chat { seq, line, .. } => {
                if seq < t.cluster.chat_next {
                    return;
                }
                match line.and_then(|l| serde_json::from_str::<Value>(&l).ok()) {
                    Some(v) if seq == t.cluster.chat_next => {
                        t.cluster.chat_next = seq + 1;
                        deliver_chat(&mut t, v);
                    }
                    _ => self.catch_up_chat(&mut t).await,
                }
            }
            Note::Presence {
                instance,
                seat,
                conns,
                version,
                ..
            } => {
                if instance != self.cluster.me
                    && t.cluster.set_remote(&instance, seat, conns, version)
                {
                    t.broadcast_views();
                }
            }
            Note::Gone { .. } => {}
        }
    }

    /// After another instance took this one for dead (and its tables
    /// over): this instance runs the bots and clocks of no table but
    /// those the database says it owns.
    pub async fn lost_ownership(self: &Arc<Self>) {
        let owned = match self.db.owned_by(&self.cluster.me).await {
            Ok(o) => o,
            Err(e) => {
                tracing::warn!("cannot read which tables this instance owns: {e}");
                vec![]
            }
        };
        self.cluster.set_owned(owned);
        for tref in self.all_tables() {
            let mut t = tref.lock().await;
            t.cluster.owned = self.cluster.owns(&t.core.id);
        }
    }

    /// A table in memory that this instance has just taken over: its bots
    /// go on (its clock runs from the shared start of the turn).
    pub async fn resume_owned(self: &Arc<Self>, tref: &TableRef, t: &mut Table) {
        if let Err(e) = self.sync(tref, t).await {
            tracing::warn!(table = %t.core.id, "cannot catch up a table taken over: {e}");
            t.cluster.stale = true;
        }
        kick_bots(self, tref, t);
    }

    /// Creates a table of `spec` from its first `events` (the host's seat
    /// and any bots), starting its game at once when every seat is filled;
    /// returns its id once it is stored. This instance owns it.
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
        let shared = self.db.shared();
        self.db
            .create_table(
                &id,
                &spec_text,
                core.status.name(),
                spec.created_ms,
                &event_texts(&events)?,
                shared.then_some(self.cluster.me.as_str()),
            )
            .await?;
        if shared {
            self.cluster.add_owned(&id);
        }
        let mut table = Table::new(core);
        table.cluster.owned = true;
        table.cluster.chat_next = 1;
        table.cluster.last_used = Some(Instant::now());
        set_clock(&mut table, Some(spec.created_ms));
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

    /// Lets tables that nobody watches leave memory (no WebSocket, no
    /// request holding them, no bot to move, no turn clock running,
    /// unused for [`ClusterConfig::idle_unload`]); they are read again when
    /// needed. Returns how many left.
    pub fn unload_idle(&self) -> usize {
        let idle = self.cluster.cfg.idle_unload;
        let Ok(mut map) = self.tables.lock() else {
            return 0;
        };
        let before = map.len();
        map.retain(|_, tref| {
            if Arc::strong_count(tref) > 1 {
                return true; // a request, a connection or a task holds it
            }
            let Ok(t) = tref.try_lock() else {
                return true;
            };
            let bot_to_move = t
                .core
                .to_act()
                .and_then(|s| t.core.seats.get(s.index()))
                .is_some_and(|s| s.kind == SeatKind::Bot);
            !t.subs.is_empty()
                || t.bot_running
                || bot_to_move
                || t.deadline.is_some()
                || t.cluster.stale
                || t.cluster.last_used.is_none_or(|u| u.elapsed() < idle)
        });
        before - map.len()
    }
}

impl Tables for App {
    fn cluster(&self) -> &Cluster {
        &self.cluster
    }

    fn db(&self) -> &Db {
        &self.db
    }

    fn apply_note(self: &Arc<Self>, note: Note) -> impl std::future::Future<Output = ()> + Send {
        App::apply_note(self, note)
    }

    fn catch_up_all(self: &Arc<Self>) -> impl std::future::Future<Output = ()> + Send {
        App::catch_up_all(self)
    }

    async fn connections(&self, id: &str, seat: u8) -> Option<u32> {
        let tref = self.cached(id)?;
        let t = tref.lock().await;
        Some(t.connected.get(seat as usize).copied().unwrap_or(0))
    }

    fn lost_ownership(self: &Arc<Self>) -> impl std::future::Future<Output = ()> + Send {
        App::lost_ownership(self)
    }

    /// A table in memory goes on here (its bots, its clock); an unfinished
    /// one not in memory is loaded, which starts them.
    async fn taken_over(self: &Arc<Self>, id: String, unfinished: bool) {
        if let Some(tref) = self.cached(&id) {
            let mut t = tref.lock().await;
            t.cluster.owned = true;
            self.resume_owned(&tref, &mut t).await;
        } else if unfinished {
            let app = self.clone();
            tokio::spawn(async move {
                if let Err(e) = app.table(&id).await {
                    tracing::warn!(table = %id, "cannot load a table taken over: {e}");
                }
            });
        }
    }

    async fn sockets_gone(&self, id: &str, gone: &str) {
        if let Some(tref) = self.cached(id) {
            let mut t = tref.lock().await;
            if t.cluster.drop_instance(gone) {
                t.broadcast_views();
            }
        }
    }
}

/// Sets the turn clock of `t` from the shared start of the turn
/// (`clock_ms`, when the change that restarted it was committed, here or
/// at another instance; now when unknown).
fn set_clock(t: &mut Table, clock_ms: Option<i64>) {
    let clock = clock_ms.unwrap_or_else(now_ms);
    t.cluster.clock_ms = clock;
    t.reset_deadline_from(clock);
}

/// The events as stored (JSON text).
///
/// # Errors
/// An event that cannot be written (never for events the core built).
fn event_texts(events: &[Event]) -> Result<Vec<String>, TableError> {
    events
        .iter()
        .map(|e| {
            serde_json::to_string(e)
                .map_err(|err| TableError::Internal(format!("an event cannot be stored: {err}")))
        })
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
/// every seat is filled) and appends them to the database at the table's
/// next event number; only once that has committed keeps the new state,
/// broadcasts the views and wakes the bots. Nothing changes on error.
///
/// # Errors
/// The first event's refusal, or a database error:
/// [`TableError::Conflict`] when another writer (a server instance)
/// stored a change first — the table is then brought up to date, so a
/// caller may check again and retry; [`TableError::Unavailable`] when the
/// database cannot be reached (the table is read again before its next
/// change, since the commit may or may not have happened).
pub async fn commit(
    app: &Arc<App>,
    tref: &TableRef,
    t: &mut Table,
    mut events: Vec<Event>,
) -> Result<(), TableError> {
    if app.may_lag(t) {
        app.sync(tref, t).await?;
    }
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
    let moved = (core.game_no, core.moves) != moves_before;
    let restart_clock = moved || t.deadline.is_none();
    let clock_ms = if restart_clock {
        now_ms()
    } else {
        t.cluster.clock_ms
    };
    let texts = event_texts(&events)?;
    let append = Append {
        id: &core.id,
        first_seq: first,
        events: &texts,
        status: core.status.name(),
        clock_ms,
        timed_out: 0,
    };
    // the append is written even if this request stops waiting for it
    // (a client that went away): until the answer comes the table may lag
    t.cluster.stale = true;
    match app.db.append(&append).await {
        Ok(()) => t.cluster.stale = false,
        Err(DbError::Conflict) => {
            app.sync(tref, t).await?;
            return Err(DbError::Conflict.into());
        }
        Err(e) => return Err(e.into()),
    }
    t.core = core;
    t.cluster.clock_ms = clock_ms;
    if restart_clock {
        t.reset_deadline_from(clock_ms);
    }
    t.broadcast_views();
    kick_bots(app, tref, t);
    Ok(())
}

/// How many times a move is checked again after losing a race to a change
/// that was not a move (a seat taken, a bot, …).
const MOVE_RETRIES: usize = 4;

/// Checks and plays a move for `seat` (shared by HTTP and WebSocket): the
/// game must be on, `move_number` the table's, the move an object for
/// this seat (its `seat` may be left out). The checks are made against
/// the latest stored state: when another change was stored first the
/// table catches up and the move is checked again.
///
/// # Errors
/// [`TableError::Stale`] (409, with the table's `move_number`) for a stale
/// or early `move_number` — also after losing a race to another move —,
/// a game not being played (over, or not started) or not this seat's
/// turn; [`TableError::Conflict`] for a move for another seat; [`TableError::Malformed`] for a move
/// that cannot be read; [`TableError::Illegal`] for one the rules refuse
/// (both with the engine's code).
pub async fn play_move(
    app: &Arc<App>,
    tref: &TableRef,
    t: &mut Table,
    seat: u8,
    move_number: u32,
    mut mv: Value,
) -> Result<(), TableError> {
    // a move for a position this instance has not seen yet (made at
    // another instance, its notification still on the way) is checked
    // after catching up
    if app.may_lag(t) || check_move_number(t, move_number).is_err() {
        app.sync(tref, t).await?;
    }
    check_move_number(t, move_number)?;
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
    for _ in 0..MOVE_RETRIES {
        check_move_number(t, move_number)?;
        let before = t.core.next_seq;
        match commit(app, tref, t, vec![Event::Move { mv: mv.clone() }]).await {
            Ok(()) => return Ok(()),
            // another change was stored first; the table caught up: check again
            Err(e) if e.is_conflict() && t.core.next_seq != before => continue,
            // refused by the rules or not this seat's turn: when another
            // instance may have changed the table meanwhile, the refusal
            // stands only if the table is still where it was
            Err(e @ (TableError::Conflict(_) | TableError::Illegal { .. }))
                if app.db.shared() && app.sync(tref, t).await? =>
            {
                tracing::debug!("a move refused on a table that changed elsewhere: {e}");
                continue;
            }
            // not this seat's turn (the engine's core refused it)
            Err(TableError::Conflict(m)) => return Err(stale(t, &m)),
            Err(e) => return Err(e),
        }
    }
    check_move_number(t, move_number)?;
    Err(stale(
        t,
        "the table kept changing while the move was being stored; retry",
    ))
}

/// A [`TableError::Stale`] with the table's `move_number`.
fn stale(t: &Table, message: &str) -> TableError {
    TableError::Stale {
        message: message.to_string(),
        move_number: t.core.moves,
    }
}

/// Refuses a move when the game is not on, `move_number` is not the
/// table's, or it is not the seat's turn.
fn check_move_number(t: &Table, move_number: u32) -> Result<(), TableError> {
    if t.core.status != Status::Playing {
        return Err(stale(
            t,
            &format!(
                "the game is not being played (table is {})",
                t.core.status.name()
            ),
        ));
    }
    if move_number > t.core.moves {
        return Err(stale(
            t,
            &format!(
                "move_number {move_number} is ahead of the game (at move_number {})",
                t.core.moves
            ),
        ));
    }
    if move_number < t.core.moves {
        return Err(stale(
            t,
            &format!(
                "stale move_number {move_number}: the game is at move_number {}",
                t.core.moves
            ),
        ));
    }
    Ok(())
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
/// seat, or a person's marked away) and this instance runs the table's
/// bots; else marks the bot task stopped.
fn next_bot_job(t: &mut Table) -> Option<BotJob> {
    let job = (|| {
        if !t.cluster.owned {
            return None;
        }
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

/// Starts the bot task of a table if a bot is to move, this instance runs
/// the table's bots (it owns the table) and no task runs.
pub fn kick_bots(app: &Arc<App>, tref: &TableRef, t: &mut Table) {
    if t.bot_running || !t.cluster.owned || app.cluster.stopped() {
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
/// It ends when the table has no bot to move, this instance no longer
/// owns the table, or the server stops; a database that cannot be reached
/// is waited for.
async fn run_bots(app: Arc<App>, tref: TableRef) {
    let mut backoff = Duration::from_millis(250);
    loop {
        if !app.cfg.bot_delay.is_zero() {
            tokio::time::sleep(app.cfg.bot_delay).await;
        }
        if app.cluster.stopped() {
            tref.lock().await.bot_running = false;
            return;
        }
        let Some(job) = next_bot_job(&mut *tref.lock().await) else {
            return;
        };
        let chosen = tokio::task::spawn_blocking(job.choose).await.ok().flatten();
        let mut t = tref.lock().await;
        if app.cluster.stopped() || !t.cluster.owned {
            t.bot_running = false;
            return;
        }
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
        t.bot_running = false; // commit may restart us; we loop only on a conflict or an outage
        let event = match job.auto {
            None => Event::Move { mv },
            Some(auto) => Event::Auto { mv, auto },
        };
        match commit(&app, &tref, &mut t, vec![event]).await {
            Ok(()) => return,
            Err(e) if e.is_conflict() => {
                tracing::debug!("bot move at table {} lost a race: {e}", t.core.id);
                t.bot_running = true;
                continue;
            }
            Err(TableError::Unavailable(_)) => {
                tracing::warn!(
                    "bot move at table {}: the database cannot be reached; retrying",
                    t.core.id
                );
                t.bot_running = true;
                drop(t);
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(Duration::from_secs(2));
                continue;
            }
            Err(e) => {
                tracing::warn!("bot move at table {} refused: {e}", t.core.id);
                return;
            }
        }
    }
}

/// Plays for seats whose time ran out (called five times a second) at the
/// tables whose clock this instance runs (it owns them): see [`run_out`].
/// The move is stored like any other, so every instance shows it and it
/// is stored once.
pub async fn check_timers(app: &Arc<App>) {
    let now = std::time::Instant::now();
    for tref in app.all_tables() {
        let Ok(mut t) = tref.try_lock() else { continue };
        if !t.cluster.owned {
            continue;
        }
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
    let line = chat_line(t, seat, text);
    deliver_chat(t, line);
}

/// The chat message of `seat` saying `text`.
fn chat_line(t: &Table, seat: u8, text: String) -> Value {
    let name = t.core.seats.get(seat as usize).and_then(|s| s.name.clone());
    json!({"type": "chat", "seat": seat, "name": name, "text": text, "at": now_ms()})
}

/// Shows a chat line: kept for newcomers (the last 50) and sent to every
/// connection.
fn deliver_chat(t: &mut Table, line: Value) {
    t.chat.push_back(line.clone());
    while t.chat.len() > 50 {
        t.chat.pop_front();
    }
    t.broadcast(&line);
}

/// Posts a chat line of `seat` (already cleaned): stored (the last 50 of
/// a table are kept), then shown. With PostgreSQL every instance shows it
/// when the notification comes, so that all show the lines of a table in
/// one order.
///
/// # Errors
/// A database error.
pub async fn post_chat(
    app: &Arc<App>,
    tref: &TableRef,
    seat: u8,
    text: String,
) -> Result<(), TableError> {
    let mut t = tref.lock().await;
    let line = chat_line(&t, seat, text);
    let seq = app.db.add_chat(&t.core.id, &line.to_string()).await?;
    let listening = app.cluster.listening.load(Ordering::Relaxed);
    if !app.db.shared() || (!listening && seq == t.cluster.chat_next) {
        t.cluster.chat_next = seq + 1;
        deliver_chat(&mut t, line);
    }
    Ok(())
}
