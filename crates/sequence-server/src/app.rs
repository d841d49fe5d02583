//! The shared server state [`App`] and the paths every change goes
//! through, for HTTP and the WebSocket alike: opening a table (load, lock,
//! catch up: [`App::open`]), committing events ([`commit`]), playing a
//! move ([`play_move`]), the bots' task, the turn timers, the chat, and
//! applying what other server instances changed ([`App::apply_note`]).
//! Refusals are the table core's [`TableError`]s; the HTTP layer gives
//! them a status.
//!
//! By concern: [`load`] (tables into memory, new tables), [`sync`] (up to
//! date with other instances), [`change`] (the change path: commit, play a
//! move), [`bots`] (the bots' task), [`timers`] (turn timers), [`chat`].
//!
//! Every change is checked against the table as this instance knows it
//! and appended at the table's next event number; the database takes
//! exactly one of two appends of the same number (two instances on one
//! PostgreSQL), so a change is accepted only if it was checked against
//! the latest stored state. The loser catches up and is checked again:
//! a move whose `move_number` is then stale is refused (409 with the
//! table's `move_number`).

mod bots;
mod change;
mod chat;
mod load;
mod sync;
mod timers;

pub use bots::STAND_IN_LEVEL;
pub use change::{commit, kick_bots, play_move, seat_of_token, MoveRequest, SeatMove};
pub use chat::{chat, post_chat, Posted};
pub use load::core_of;
pub use timers::{check_timers, run_out};

use crate::cluster::{Cluster, Note, Tables};
use crate::config::{ClusterConfig, ServerConfig};
use crate::db::Db;
use crate::limits::AddressLimiter;
use crate::tables::{Event, SeatKind, Table, TableError};
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
    /// Whether this request caught up with the database already (a
    /// change then does not again, unless it loses a race).
    synced: bool,
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
        req: MoveRequest,
    ) -> Result<crate::tables::ViewMessage, TableError> {
        let synced = self.synced;
        play_move(app, &self.tref, &mut self.table, synced, seat, req).await
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
        let table = &mut self.table;
        change::seat_of_token_syncing(app, &self.tref, table, token, &mut self.synced).await
    }
}

impl App {
    /// A server state over `db` with the default cluster settings.
    pub fn new(db: Db, cfg: ServerConfig) -> App {
        App::with_cluster(db, cfg, ClusterConfig::default())
    }

    /// A server state over `db`.
    pub fn with_cluster(db: Db, cfg: ServerConfig, ccfg: ClusterConfig) -> App {
        let l = &cfg.limits;
        let limiter =
            AddressLimiter::with_upgrades(cfg.rate_limit, cfg.rate_burst, l.ws_rate, l.ws_burst);
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
