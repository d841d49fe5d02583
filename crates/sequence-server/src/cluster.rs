//! Several server instances on one PostgreSQL database (docs/deploy.md).
//!
//! * **Changes** are decided by the database: an append names the event
//!   number it was checked against and the primary key lets exactly one of
//!   two racing appends commit ([`crate::db::Db::append`]).
//! * **Push**: every commit sends a notification on
//!   [`crate::db::CHANNEL`] ([`Note`]); each instance listens
//!   ([`listen`]) and brings up to date only the tables it has in memory
//!   that changed — with the events in the payload when they fit, without
//!   a query. After a lost connection to the database it reconnects and
//!   catches up every table it holds ([`crate::app::App::catch_up_all`]).
//!   Nothing polls per table.
//! * **Ownership**: one instance at a time runs a table's bots and turn
//!   clock: the one named in `game_tables.owner`. Each instance renews a
//!   heartbeat every [`ClusterConfig::heartbeat`]; one whose heartbeat is
//!   older than [`ClusterConfig::lease`] is dead, and the others take its
//!   tables over ([`leases`]), load them and go on with their bots and
//!   clocks.
//! * **Shared live state**: the seats' WebSocket counts (`presence`), the
//!   turn timers that ran out and the chat travel the same way, so every
//!   instance shows the same table.
//!
//! An SQLite database serves one instance, which owns every table.
//!
//! The cluster does not know the server's tables: it reads and writes the
//! database and tells the tables in memory what changed through
//! [`Tables`], which the app implements.

use crate::config::ClusterConfig;
use crate::db::{Db, CHANNEL};
pub use crate::notes::{instance_id_ok, Note};
use crate::telemetry;
use std::collections::HashSet;
use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// WebSockets another instance holds at a table, per seat.
#[derive(Debug, Clone)]
pub struct Remote {
    instance: Box<str>,
    version: u64,
    conns: Vec<u32>,
}

/// A table's part in the cluster: whether this instance runs its bots and
/// clock, the WebSockets other instances hold, the chat position, and
/// whether the table may lag the database.
#[derive(Debug, Clone, Default)]
pub struct TableCluster {
    /// This instance runs the table's bots and turn clock.
    pub owned: bool,
    /// WebSockets held by other instances (PostgreSQL).
    pub remote: Vec<Remote>,
    /// The next chat line's number (PostgreSQL).
    pub chat_next: i64,
    /// The table may lag the database (a commit whose outcome is unknown,
    /// a notification that could not be applied): read it before the next
    /// change.
    pub stale: bool,
    /// When the turn clock last restarted (Unix ms), as stored.
    pub clock_ms: i64,
    /// When a request last used the table (unloading idle tables).
    pub last_used: Option<std::time::Instant>,
}

impl TableCluster {
    /// Whether another instance holds a WebSocket of `seat`.
    pub fn remote_connected(&self, seat: usize) -> bool {
        self.remote
            .iter()
            .any(|r| r.conns.get(seat).is_some_and(|&c| c > 0))
    }

    /// Records `conns` WebSockets of `seat` at `instance` (unless an
    /// update of a later `version` came first); whether the seat's
    /// connected flag changed.
    pub fn set_remote(&mut self, instance: &str, seat: u8, conns: u32, version: u64) -> bool {
        let before = self.remote_connected(seat as usize);
        let i = match self.remote.iter().position(|r| &*r.instance == instance) {
            Some(i) => i,
            None => {
                self.remote.push(Remote {
                    instance: instance.into(),
                    version: 0,
                    conns: vec![],
                });
                self.remote.len() - 1
            }
        };
        let r = &mut self.remote[i];
        if version < r.version {
            return false;
        }
        r.version = version;
        let s = seat as usize;
        if r.conns.len() <= s {
            r.conns.resize(s + 1, 0);
        }
        r.conns[s] = conns;
        if r.conns.iter().all(|&c| c == 0) {
            self.remote.swap_remove(i);
        }
        before != self.remote_connected(seat as usize)
    }

    /// Forgets the WebSockets of `instance`; whether any seat's connected
    /// flag may have changed.
    pub fn drop_instance(&mut self, instance: &str) -> bool {
        let n = self.remote.len();
        self.remote.retain(|r| &*r.instance != instance);
        n != self.remote.len()
    }
}

/// This instance in the cluster.
pub struct Cluster {
    /// Its id (in `instances` and `game_tables.owner`).
    pub me: String,
    /// Its settings.
    pub cfg: ClusterConfig,
    /// Whether the notification listener is connected (changes made
    /// elsewhere arrive by themselves); while it is not, tables are read
    /// before each change.
    pub listening: AtomicBool,
    /// The server has been stopped: background tasks and bots end.
    pub stopped: AtomicBool,
    /// Wakes background tasks when the server stops.
    pub stop: tokio::sync::Notify,
    /// Tables this instance owns (PostgreSQL; on SQLite it owns them all).
    owned: Mutex<HashSet<String>>,
    /// Counter of presence updates.
    pub presence_version: AtomicU64,
    /// Open WebSockets.
    pub sockets: AtomicU64,
    /// Notifications received, applied and ignored (figures and tests).
    pub notes: NoteCounts,
    /// Tables whose WebSocket counts must be written (PostgreSQL).
    presence_dirty: Mutex<HashSet<(String, u8)>>,
    presence_wake: tokio::sync::Notify,
    /// When this instance last renewed its lease (or registered).
    renewed: Mutex<Instant>,
}

/// Counts of notifications received.
#[derive(Debug, Default)]
pub struct NoteCounts {
    /// Received.
    pub received: AtomicU64,
    /// Malformed (ignored with a warning).
    pub malformed: AtomicU64,
    /// About tables not in memory here (ignored).
    pub not_here: AtomicU64,
    /// Times the listener (re)connected.
    pub connects: AtomicU64,
}

impl Cluster {
    /// A new instance with a fresh random id.
    pub fn new(cfg: ClusterConfig) -> Cluster {
        let me = format!("{:016x}", rand::random::<u64>());
        Cluster {
            me,
            cfg,
            listening: AtomicBool::new(false),
            stopped: AtomicBool::new(false),
            stop: tokio::sync::Notify::new(),
            owned: Mutex::new(HashSet::new()),
            presence_version: AtomicU64::new(1),
            sockets: AtomicU64::new(0),
            notes: NoteCounts::default(),
            presence_dirty: Mutex::new(HashSet::new()),
            presence_wake: tokio::sync::Notify::new(),
            renewed: Mutex::new(Instant::now()),
        }
    }

    /// Notes that the lease was renewed now (a heartbeat or registering).
    pub fn renewed(&self) {
        if let Ok(mut r) = self.renewed.lock() {
            *r = Instant::now();
        }
    }

    /// Time since the lease was last renewed (PostgreSQL; `/readyz` fails
    /// once it is over [`ClusterConfig::lease`]).
    pub fn lease_age(&self) -> Duration {
        self.renewed
            .lock()
            .map(|r| r.elapsed())
            .unwrap_or(Duration::MAX)
    }

    /// Whether the server has been stopped.
    pub fn stopped(&self) -> bool {
        self.stopped.load(Ordering::Relaxed)
    }

    /// Stops the background tasks and bots.
    pub fn shut(&self) {
        self.stopped.store(true, Ordering::Relaxed);
        self.stop.notify_waiters();
        self.presence_wake.notify_waiters();
    }

    /// Whether this instance owns table `id` (bookkeeping of PostgreSQL).
    pub fn owns(&self, id: &str) -> bool {
        self.owned.lock().map(|o| o.contains(id)).unwrap_or(false)
    }

    /// Notes that this instance owns table `id`.
    pub fn add_owned(&self, id: &str) {
        if let Ok(mut o) = self.owned.lock() {
            o.insert(id.to_string());
        }
    }

    /// Replaces the set of owned tables.
    pub fn set_owned(&self, ids: impl IntoIterator<Item = String>) {
        if let Ok(mut o) = self.owned.lock() {
            o.clear();
            o.extend(ids);
        }
    }

    /// How many tables this instance owns (PostgreSQL).
    pub fn owned_count(&self) -> usize {
        self.owned.lock().map(|o| o.len()).unwrap_or(0)
    }

    /// Asks the presence writer to store this instance's WebSocket count
    /// of `seat` at table `id`.
    pub fn presence_changed(&self, id: &str, seat: u8) {
        if let Ok(mut d) = self.presence_dirty.lock() {
            d.insert((id.to_string(), seat));
        }
        self.presence_wake.notify_one();
    }

    fn take_presence(&self) -> Vec<(String, u8)> {
        self.presence_dirty
            .lock()
            .map(|mut d| d.drain().collect())
            .unwrap_or_default()
    }
}

/// What the cluster's tasks need of the tables this instance holds in
/// memory (implemented by [`crate::app::App`]).
pub trait Tables: Send + Sync + 'static {
    /// This instance in the cluster.
    fn cluster(&self) -> &Cluster;

    /// The database.
    fn db(&self) -> &Db;

    /// Applies a note of another instance (or of this one) to the table
    /// in memory it is about.
    fn apply_note(self: &Arc<Self>, note: Note) -> impl Future<Output = ()> + Send;

    /// Brings every table in memory up to date (notes were lost while the
    /// listener was not connected).
    fn catch_up_all(self: &Arc<Self>) -> impl Future<Output = ()> + Send;

    /// The WebSockets this instance holds for `seat` at table `id`
    /// (`None`: the table is not in memory).
    fn connections(&self, id: &str, seat: u8) -> impl Future<Output = Option<u32>> + Send;

    /// This instance was taken for dead (and its tables over): it runs the
    /// bots and clocks of no table but those the database says it owns.
    fn lost_ownership(self: &Arc<Self>) -> impl Future<Output = ()> + Send;

    /// This instance took table `id` over (`unfinished`: it has bots or a
    /// clock to run).
    fn taken_over(
        self: &Arc<Self>,
        id: String,
        unfinished: bool,
    ) -> impl Future<Output = ()> + Send;

    /// The WebSockets instance `gone` held at table `id` are gone.
    fn sockets_gone(&self, id: &str, gone: &str) -> impl Future<Output = ()> + Send;
}

/// Sleeps `d` unless the server stops first; whether it is still running.
async fn pause(cluster: &Cluster, d: Duration) -> bool {
    let stop = cluster.stop.notified();
    tokio::select! {
        _ = tokio::time::sleep(d) => {}
        _ = stop => {}
    }
    !cluster.stopped()
}

/// The notification listener (PostgreSQL): applies every note to the
/// tables in memory; after connecting (again) catches up every table
/// held, since notes sent meanwhile are lost. Runs until the server stops.
pub async fn listen<T: Tables>(app: Arc<T>) {
    use sqlx::postgres::PgListener;
    let mut backoff = Duration::from_millis(100);
    let mut first = true;
    while !app.cluster().stopped() {
        let connect = async {
            let mut l = PgListener::connect(app.db().url()).await?;
            l.listen(CHANNEL).await?;
            Ok::<_, sqlx::Error>(l)
        };
        let mut listener = match tokio::time::timeout(Duration::from_secs(10), connect).await {
            Ok(Ok(l)) => l,
            Ok(Err(e)) => {
                tracing::warn!("notification listener cannot connect: {e}; retrying");
                if !pause(app.cluster(), backoff).await {
                    return;
                }
                backoff = (backoff * 2).min(Duration::from_secs(2));
                continue;
            }
            Err(_) => {
                tracing::warn!("notification listener: no answer in 10 s; retrying");
                continue;
            }
        };
        backoff = Duration::from_millis(100);
        app.cluster().listening.store(true, Ordering::Relaxed);
        app.cluster().notes.connects.fetch_add(1, Ordering::Relaxed);
        if !first {
            tracing::info!("notification listener reconnected: catching up every table held");
        }
        // notes sent before LISTEN took effect are lost: read the tables
        let catch = app.clone();
        tokio::spawn(async move { catch.catch_up_all().await });
        first = false;
        loop {
            let idle = tokio::time::sleep(Duration::from_secs(15));
            let stop = app.cluster().stop.notified();
            tokio::select! {
                r = listener.try_recv() => match r {
                    Ok(Some(n)) => {
                        app.cluster().notes.received.fetch_add(1, Ordering::Relaxed);
                        metrics::counter!(telemetry::NOTIFICATIONS).increment(1);
                        on_payload(&app, n.payload());
                    }
                    Ok(None) => {
                        tracing::warn!("notification listener lost its connection; reconnecting");
                        break;
                    }
                    Err(e) => {
                        tracing::warn!("notification listener: {e}; reconnecting");
                        break;
                    }
                },
                _ = idle => {
                    // a quiet connection may be dead without saying so
                    let ping = sqlx::query("SELECT 1").execute(&mut listener);
                    match tokio::time::timeout(Duration::from_secs(5), ping).await {
                        Ok(Ok(_)) => {}
                        _ => {
                            tracing::warn!("notification listener does not answer; reconnecting");
                            break;
                        }
                    }
                }
                _ = stop => break,
            }
        }
        app.cluster().listening.store(false, Ordering::Relaxed);
    }
}

/// Applies one payload: malformed ones and notes about tables not in
/// memory here are ignored with a log line.
pub fn on_payload<T: Tables>(app: &Arc<T>, payload: &str) {
    match Note::parse(payload) {
        Ok(note) => {
            if let Note::Events { at_ms, .. } = &note {
                let lag = crate::tables::now_ms().saturating_sub(*at_ms).max(0);
                metrics::histogram!(telemetry::NOTIFY_LAG).record(lag as f64 / 1000.0);
            }
            let app = app.clone();
            tokio::spawn(async move { app.apply_note(note).await });
        }
        Err(e) => {
            app.cluster()
                .notes
                .malformed
                .fetch_add(1, Ordering::Relaxed);
            tracing::warn!("ignored a malformed {e}");
        }
    }
}

/// How long the presence writer gathers seat changes before writing them
/// in one transaction.
const PRESENCE_GATHER: Duration = Duration::from_millis(50);

/// Most seats written in one presence transaction.
const PRESENCE_GROUP: usize = 1000;

/// Writes this instance's WebSocket counts as they change (PostgreSQL),
/// the latest count of each seat, so that other instances show who is
/// connected: the changes of [`PRESENCE_GATHER`] go in one transaction
/// (a crowd connecting costs a few transactions, not one per socket).
pub async fn presence_writer<T: Tables>(app: Arc<T>) {
    loop {
        let wake = app.cluster().presence_wake.notified();
        let dirty = app.cluster().take_presence();
        if dirty.is_empty() {
            if app.cluster().stopped() {
                return;
            }
            wake.await;
            if !pause(app.cluster(), PRESENCE_GATHER).await {
                return;
            }
            continue;
        }
        for chunk in dirty.chunks(PRESENCE_GROUP) {
            let mut rows = Vec::with_capacity(chunk.len());
            for (id, seat) in chunk {
                let Some(conns) = app.connections(id, *seat).await else {
                    continue;
                };
                let version = app
                    .cluster()
                    .presence_version
                    .fetch_add(1, Ordering::Relaxed);
                rows.push((id.clone(), *seat, conns, version));
            }
            if let Err(e) = app.db().set_presence(&app.cluster().me, &rows).await {
                tracing::warn!(seats = rows.len(), "cannot store who is connected: {e}");
                for (id, seat, _, _) in &rows {
                    app.cluster().presence_changed(id, *seat);
                }
                if !pause(app.cluster(), Duration::from_millis(500)).await {
                    return;
                }
            }
        }
    }
}

/// Heartbeats and takeovers (PostgreSQL): renews this instance's lease
/// every [`ClusterConfig::heartbeat`]; takes over the tables of instances
/// whose lease ran out, loads the unfinished ones (their bots and clocks go
/// on here); notices when this instance itself was taken for dead.
pub async fn leases<T: Tables>(app: Arc<T>) {
    let lease_ms = app.cluster().cfg.lease.as_millis() as i64;
    let me = app.cluster().me.clone();
    loop {
        if !pause(app.cluster(), app.cluster().cfg.heartbeat).await {
            return;
        }
        let dead = match app.db().heartbeat(&me, lease_ms).await {
            Ok(Some(dead)) => {
                app.cluster().renewed();
                dead
            }
            Ok(None) => {
                metrics::counter!(telemetry::LEASE_LOST).increment(1);
                tracing::warn!(
                    instance = %me,
                    "this instance was taken for dead (no heartbeat within the lease): \
                     its tables were taken over; registering again"
                );
                app.lost_ownership().await;
                match app.db().register(&me, &host_name()).await {
                    Ok(()) => app.cluster().renewed(),
                    Err(e) => tracing::warn!("cannot register this instance: {e}"),
                }
                continue;
            }
            Err(e) => {
                metrics::counter!(telemetry::HEARTBEAT_FAILURES).increment(1);
                tracing::warn!("heartbeat failed: {e}");
                continue;
            }
        };
        if let Err(e) = take_over_from(&app, dead).await {
            tracing::warn!("takeover: {e}");
        }
    }
}

/// Takes over the tables of every instance whose lease ran out.
///
/// # Errors
/// The database error.
pub async fn take_over_dead<T: Tables>(
    app: &Arc<T>,
    lease_ms: i64,
) -> Result<(), crate::db::DbError> {
    let dead = app
        .db()
        .expired_instances(&app.cluster().me, lease_ms)
        .await?;
    take_over_from(app, dead).await
}

/// Takes over the tables of the instances `dead` (their leases ran out).
///
/// # Errors
/// The database error.
async fn take_over_from<T: Tables>(
    app: &Arc<T>,
    dead: Vec<String>,
) -> Result<(), crate::db::DbError> {
    let me = &app.cluster().me;
    for dead in dead {
        let mut taken = 0usize;
        loop {
            let batch = app.db().take_over(&dead, me, 500).await?;
            let n = batch.len();
            for (id, unfinished) in batch {
                app.cluster().add_owned(&id);
                metrics::counter!(telemetry::TAKEOVERS).increment(1);
                taken += 1;
                app.taken_over(id, unfinished).await;
            }
            if n == 0 {
                break;
            }
        }
        let tables = app.db().forget_instance(&dead).await?;
        tracing::warn!(
            instance = %dead,
            tables = taken,
            "instance stopped renewing its lease: took over its tables"
        );
        for id in tables {
            app.sockets_gone(&id, &dead).await;
        }
    }
    Ok(())
}

/// This machine's name, for the `instances` table.
pub fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().chars().take(64).collect())
        .filter(|h: &String| !h.is_empty())
        .unwrap_or_else(|| "unknown".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remote_presence_keeps_the_latest() {
        let mut c = TableCluster::default();
        assert!(c.set_remote("a", 1, 2, 5));
        assert!(c.remote_connected(1));
        assert!(!c.remote_connected(0));
        assert!(!c.set_remote("a", 1, 0, 4), "an older update is ignored");
        assert!(c.remote_connected(1));
        assert!(!c.set_remote("b", 1, 1, 1), "still connected");
        assert!(c.drop_instance("a"));
        assert!(c.remote_connected(1));
        assert!(c.set_remote("b", 1, 0, 2));
        assert!(c.remote.is_empty());
    }
}
