//! Storage: an append-only event log per table in SQLite (WAL mode, the
//! default `sequence.db`) or PostgreSQL (`postgres://…`), through sqlx's
//! `Any` driver with runtime queries.
//!
//! Tables:
//! * `game_tables(id, spec, status, created_ms, next_seq, owner,
//!   clock_ms, timed_out, chat_seq)`: one row per table; `spec` is the
//!   JSON the table was created with (no secrets), `status` is `waiting`,
//!   `playing` or `over` (for listing open tables), `next_seq` the next
//!   event's number, `owner` the server instance that runs the table's bots
//!   and turn clock, `clock_ms` when the turn clock last restarted,
//!   `timed_out` the seats whose turn timer ran out (one bit each).
//! * `events(table_id, seq, data)`: every accepted change (seat taken, bot,
//!   leave, game start with its seed, move, rematch), `seq` 0, 1, 2, … per
//!   table. The primary key `(table_id, seq)` decides every race: an
//!   append names the `seq` it was checked against, and of two appends of
//!   the same `seq` (two server instances, one PostgreSQL database) exactly
//!   one commits; the other gets [`DbError::Conflict`].
//! * `instances(id, pid, host, started_ms, heartbeat_ms)`: the running
//!   server instances and their last heartbeat (table ownership).
//! * `chat(table_id, seq, line)`: the last chat lines of each table
//!   (PostgreSQL: shared by every instance, in one order).
//! * `presence(table_id, instance, seat, conns)`: WebSockets per seat held
//!   by each instance (PostgreSQL), so every instance shows who is
//!   connected.
//! * `puzzles_solved(user_id, game, puzzle_id, solved_ms)` and
//!   `tutorial_progress(user_id, game, step, done, updated_ms)`: an
//!   account's learning progress (migration 0003, [`crate::learn`]).
//! * `passkeys(id, user_id, handle, name, passkey, created_ms, used_ms)`
//!   and `passkey_ceremonies(id, kind, user_id, state, expires_ms)`: an
//!   account's passkeys and the WebAuthn ceremonies under way (migration
//!   0004, [`crate::accounts::passkeys`]).
//!
//! The schema is versioned: the migrations of `migrations/` (one set,
//! written in SQLite's SQL and read by PostgreSQL with two type spellings
//! changed, embedded in the binary by `db/migrations.rs`)
//! are applied in order at start-up, each once ([`migrate`]); how to add
//! one: docs/deploy.md, "Schema changes".
//!
//! A change is acknowledged only after its transaction has committed. On
//! PostgreSQL each commit also sends a notification on [`CHANNEL`] (a
//! [`Note`]) so that other instances push it
//! without polling. An SQLite file serves one instance: a second one is
//! refused at start.

/// A row read into a struct, column by column in `SELECT` order:
/// `row!(r => T { a, b })` is `T { a: r.try_get(0)?, b: r.try_get(1)? }`
/// (`?` passes a column's `sqlx::Error` on).
macro_rules! row {
    ($r:expr => $t:ident { $($field:ident),+ $(,)? }) => {{
        let r = $r;
        let mut column = 0usize..;
        $t {
            $($field: r.try_get(column.next().unwrap_or_default())?),+
        }
    }};
}

mod accounts;
mod error;
mod games;
mod learn;
mod migrations;
mod passkeys;
mod profiles;
mod shared;
pub use shared::InstanceRow;
pub(crate) mod target;
mod writer;

pub use accounts::{Failures, SessionRow, UserRow};
pub use error::{is_unavailable, DbError};
pub use learn::TutorialRow;
pub use passkeys::{CeremonyRow, PasskeyRow};
pub use profiles::{BoardRow, GameFilter, GameSeat, PublicUser, ResultRow, SeatGame};

pub use target::{create_database, describe_target, drop_database, with_database};

use crate::notes::Note;
use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::{AnyConnection, AnyPool, Connection, Executor, Row};
use std::sync::atomic::Ordering;
use target::{cause_of, migrate};
pub(crate) use target::{is_postgres, lock_file, sqlite_path};
use writer::{write_appends, GroupCounts, Pending};

/// A query with its values bound, on any database.
pub(super) type AnyQuery<'q> = sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>>;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};

/// How long opening the database may take before `serve` gives up.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// The PostgreSQL notification channel of table changes.
pub const CHANNEL: &str = "sequence_changes";

/// Chat lines kept per table.
pub const CHAT_KEPT: i64 = 50;

/// Settings of the connection pool.
#[derive(Debug, Clone)]
pub struct DbOptions {
    /// Connections to PostgreSQL (SQLite always uses one writer).
    pub pool_size: u32,
    /// How long a request waits for a connection before it is answered 503.
    pub acquire_timeout: Duration,
}

impl Default for DbOptions {
    fn default() -> Self {
        DbOptions {
            pool_size: 16,
            acquire_timeout: Duration::from_secs(5),
        }
    }
}

/// Handle to the database (cheap to clone).
#[derive(Clone)]
pub struct Db {
    pool: AnyPool,
    pg: bool,
    /// The queue of the one writer task that stores every append
    /// ([`Db::append`]): group commit.
    writer: mpsc::UnboundedSender<Pending>,
    /// Transactions and appends the writer has committed (figures).
    written: Arc<GroupCounts>,
    /// The URL, for the notification listener (holds the password: never
    /// shown).
    url: Arc<str>,
    /// SQLite: the lock that keeps a second instance off the file.
    lock: Arc<std::sync::Mutex<Option<std::fs::File>>>,
}

impl std::fmt::Debug for Db {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Db")
            .field("postgres", &self.pg)
            .finish_non_exhaustive()
    }
}

/// One stored table: its spec JSON, its events in order and its shared
/// state.
#[derive(Debug, Clone)]
pub struct StoredTable {
    /// The creation spec (JSON text).
    pub spec: String,
    /// `(seq, event JSON)` in `seq` order.
    pub events: Vec<(i64, String)>,
    /// The instance that runs its bots and clock, if any.
    pub owner: Option<String>,
    /// When its turn clock last restarted (Unix ms), if known.
    pub clock_ms: Option<i64>,
    /// Seats whose turn timer ran out, one bit each.
    pub timed_out: u64,
}

/// An append of events to a table ([`Db::append`]).
#[derive(Debug, Clone)]
pub struct Append<'a> {
    /// The table.
    pub id: &'a str,
    /// The `seq` of the first event: the table's next one as the change
    /// was checked against it.
    pub first_seq: i64,
    /// The events (JSON), in order.
    pub events: &'a [String],
    /// The table's status after them.
    pub status: &'a str,
    /// When the turn clock was last restarted (Unix ms): the commit time
    /// of this change or an earlier one, for every instance's turn clock.
    pub clock_ms: i64,
    /// Seats whose turn timer has run out after the change.
    pub timed_out: u64,
    /// The game these events end, if they end one: its history and
    /// rating changes are written in the same transaction (exactly once).
    pub finish: Option<&'a crate::results::GameEnd>,
}

/// A table's number of events and timed-out seats as stored (for
/// catching up in bulk).
pub type NextSeq = (String, i64, u64);

/// A seat's WebSockets at one instance, for [`Db::set_presence`]:
/// `(table, seat, conns, version)`.
pub type PresenceRow = (String, u8, u32, u64);

/// What [`Db::catch_up`] read: new events and the table's shared state.
#[derive(Debug, Clone, Default)]
pub struct CatchUp {
    /// `(seq, event JSON)` in order.
    pub events: Vec<(i64, String)>,
    /// When the turn clock last restarted (Unix ms), if known.
    pub clock_ms: Option<i64>,
    /// Seats whose turn timer ran out, one bit each.
    pub timed_out: u64,
}

/// SQLite settings of every connection: wait up to 10 s for a lock, WAL
/// mode, `synchronous=NORMAL`.
async fn sqlite_setup(conn: &mut AnyConnection) -> Result<(), sqlx::Error> {
    conn.execute("PRAGMA busy_timeout=10000").await?;
    conn.execute("PRAGMA journal_mode=WAL").await?;
    conn.execute("PRAGMA synchronous=NORMAL").await?;
    Ok(())
}

/// `($1, $2, $3), ($1, $4, $5), …`: the values of a multi-row insert of
/// `n` events of one table (`$1` the table id).
pub(super) fn event_rows(n: usize) -> String {
    (0..n)
        .map(|i| format!("($1, ${}, ${})", 2 + 2 * i, 3 + 2 * i))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The notification of an append ([`Note::Events`]).
pub fn events_payload(a: &Append<'_>) -> String {
    Note::events(a.id, a.first_seq, a.events, a.clock_ms, a.timed_out).payload()
}

impl Db {
    /// Opens (creating if needed) the database with the default pool
    /// ([`Db::open_with`]).
    ///
    /// # Errors
    /// As [`Db::open_with`].
    pub async fn open(spec: &str) -> Result<Db, DbError> {
        Db::open_with(spec, &DbOptions::default()).await
    }

    /// Opens (creating if needed) the database: a `postgres://` or
    /// `postgresql://` URL, a `sqlite:` URL, or else a path to an SQLite
    /// file, which is put in WAL mode (`synchronous=NORMAL`: a committed
    /// move survives the process being killed) and locked for this process
    /// (SQLite serves one instance).
    ///
    /// One connection is made first, so that a wrong path or host fails
    /// within [`CONNECT_TIMEOUT`] with its cause instead of the pool
    /// retrying until its acquire timeout.
    ///
    /// # Errors
    /// [`DbError::Open`] naming the file or host and the cause (not a
    /// database, a directory, connection refused, no answer, an SQLite file
    /// another instance serves), or the database error of creating the
    /// schema.
    pub async fn open_with(spec: &str, opts: &DbOptions) -> Result<Db, DbError> {
        sqlx::any::install_default_drivers();
        let pg = is_postgres(spec);
        if spec.trim().is_empty() || (!pg && sqlite_path(spec).trim().is_empty()) {
            return Err(DbError::NoName);
        }
        let url = if pg || spec.starts_with("sqlite:") {
            spec.to_string()
        } else {
            format!("sqlite://{spec}?mode=rwc")
        };
        let fail = |cause: String| DbError::Open {
            target: describe_target(spec),
            cause,
        };
        if !pg && std::fs::metadata(sqlite_path(spec)).is_ok_and(|m| m.is_dir()) {
            return Err(fail("it is a directory, not a file".to_string()));
        }
        let first = tokio::time::timeout(CONNECT_TIMEOUT, async {
            let mut conn = AnyConnection::connect(&url).await?;
            if !pg {
                sqlite_setup(&mut conn).await?;
            }
            conn.close().await
        })
        .await;
        match first {
            Err(_) => {
                return Err(fail(format!(
                    "no answer within {} s (is the host reachable, or the file locked?)",
                    CONNECT_TIMEOUT.as_secs()
                )))
            }
            Ok(Err(e)) => return Err(fail(cause_of(&e, spec))),
            Ok(Ok(())) => {}
        }
        let lock = if pg {
            None
        } else {
            Some(lock_file(sqlite_path(spec)).map_err(fail)?)
        };
        let opts_pool = AnyPoolOptions::new()
            .max_connections(if pg { opts.pool_size.max(2) } else { 1 }) // SQLite: one writer, queued in the pool rather than in SQLite's busy handler
            .acquire_timeout(opts.acquire_timeout);
        let opts_pool = if pg {
            opts_pool
        } else {
            opts_pool.after_connect(|conn, _| Box::pin(sqlite_setup(conn)))
        };
        let pool = opts_pool
            .connect(&url)
            .await
            .map_err(|e| fail(cause_of(&e, spec)))?;
        let (writer, queue) = mpsc::unbounded_channel();
        let written = Arc::new(GroupCounts::default());
        tokio::spawn(write_appends(pool.clone(), pg, queue, written.clone()));
        let db = Db {
            pool,
            pg,
            writer,
            written,
            url: url.into(),
            lock: Arc::new(std::sync::Mutex::new(lock)),
        };
        migrate(&db.pool, pg).await.map_err(|e| match e {
            sqlx::migrate::MigrateError::Execute(e) if is_unavailable(&e) => DbError::from(e),
            e => fail(format!("cannot bring its tables up to date: {e}")),
        })?;
        Ok(db)
    }

    /// Connections of the pool: `(open, idle)` (`/metrics`).
    pub fn pool_state(&self) -> (u32, usize) {
        (self.pool.size(), self.pool.num_idle())
    }

    /// Whether other server instances may write to this database too
    /// (PostgreSQL): changes then travel between instances by
    /// notification, and tables are re-read before answering.
    pub fn shared(&self) -> bool {
        self.pg
    }

    /// The URL (with its password: for the listener's connection only).
    pub(crate) fn url(&self) -> &str {
        &self.url
    }

    /// The connection pool, for benchmarks that fill a database in bulk
    /// (benches/accounts.rs); the server itself never hands it out.
    #[doc(hidden)]
    pub fn pool_for_benches(&self) -> &AnyPool {
        &self.pool
    }

    /// Lets go of the SQLite file's lock (a server stopped in-process, so
    /// that another may open the file).
    pub fn unlock(&self) {
        if let Ok(mut l) = self.lock.lock() {
            l.take();
        }
    }

    /// Closes every connection.
    pub async fn close(&self) {
        self.pool.close().await;
    }

    /// Creates a table row and its first events in one transaction; `owner`
    /// runs its bots and clock.
    ///
    /// # Errors
    /// [`DbError::Conflict`] if the id exists, else the database error.
    pub async fn create_table(
        &self,
        id: &str,
        spec: &str,
        status: &str,
        created_ms: i64,
        events: &[String],
        owner: Option<&str>,
    ) -> Result<(), DbError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO game_tables (id, spec, status, created_ms, next_seq, owner, clock_ms, \
             timed_out, chat_seq) VALUES ($1, $2, $3, $4, $5, $6, $4, 0, 0)",
        )
        .bind(id)
        .bind(spec)
        .bind(status)
        .bind(created_ms)
        .bind(events.len() as i64)
        .bind(owner)
        .execute(&mut *tx)
        .await
        .map_err(conflict)?;
        if !events.is_empty() {
            let sql = format!(
                "INSERT INTO events (table_id, seq, data) VALUES {}",
                event_rows(events.len())
            );
            let mut q = sqlx::query(&sql).bind(id);
            for (i, e) in events.iter().enumerate() {
                q = q.bind(i as i64).bind(e.as_str());
            }
            q.execute(&mut *tx).await.map_err(conflict)?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Appends events to a table at `first_seq` and sets its status, commit
    /// time and timed-out seats; returns once the transaction holding it
    /// has committed. On PostgreSQL the transaction also notifies the other
    /// instances ([`events_payload`]). Exactly one of two appends of the
    /// same `seq` commits: the table's `next_seq` must still be
    /// `first_seq` (the row lock orders racing writers, also between
    /// instances) and the `(table, seq)` primary key backs it up.
    ///
    /// Appends are queued to one writer task per database that writes all
    /// those waiting in one transaction (group commit), so a busy server
    /// commits once for many moves; each caller is answered after that
    /// commit. A caller that stops waiting does not cancel its append.
    ///
    /// # Errors
    /// [`DbError::Conflict`] when the table's next event is no longer
    /// `first_seq`: nothing was written. [`DbError::Unavailable`] when the
    /// database cannot be reached; the change may then have been committed
    /// or not (read the table again to know).
    pub async fn append(&self, a: &Append<'_>) -> Result<(), DbError> {
        if a.events.is_empty() {
            return Ok(());
        }
        let (reply, answer) = oneshot::channel();
        let pending = Pending {
            id: a.id.to_string(),
            first_seq: a.first_seq,
            events: a.events.to_vec(),
            status: a.status.to_string(),
            clock_ms: a.clock_ms,
            timed_out: a.timed_out as i64,
            finish: a.finish.cloned(),
            payload: if self.pg {
                events_payload(a)
            } else {
                String::new()
            },
            reply,
        };
        let stopped = || DbError::Unavailable("the database writer has stopped".to_string());
        self.writer.send(pending).map_err(|_| stopped())?;
        answer.await.unwrap_or_else(|_| Err(stopped()))
    }

    /// Transactions the append writer has committed, and the appends in
    /// them (their ratio is the mean group size).
    pub fn group_commits(&self) -> (u64, u64) {
        (
            self.written.commits.load(Ordering::Relaxed),
            self.written.appends.load(Ordering::Relaxed),
        )
    }

    /// Loads a table, `None` if there is none with this id.
    ///
    /// # Errors
    /// The database error.
    pub async fn load(&self, id: &str) -> Result<Option<StoredTable>, DbError> {
        let row: Option<AnyRow> =
            sqlx::query("SELECT spec, owner, clock_ms, timed_out FROM game_tables WHERE id = $1")
                .bind(id)
                .fetch_optional(&self.pool)
                .await?;
        let Some(row) = row else { return Ok(None) };
        let spec: String = row.try_get(0)?;
        let owner: Option<String> = row.try_get(1)?;
        let clock_ms: Option<i64> = row.try_get(2)?;
        let timed_out: i64 = row.try_get(3)?;
        let events = self.events_since(id, 0).await?;
        Ok(Some(StoredTable {
            spec,
            events,
            owner,
            clock_ms,
            timed_out: timed_out as u64,
        }))
    }

    /// Events of table `id` with `seq >= from`, in order.
    ///
    /// # Errors
    /// The database error.
    pub async fn events_since(&self, id: &str, from: i64) -> Result<Vec<(i64, String)>, DbError> {
        self.numbered_since(
            "SELECT seq, data FROM events WHERE table_id = $1 AND seq >= $2 ORDER BY seq",
            id,
            from,
        )
        .await
    }

    /// The rows of query `q` on the pool.
    async fn fetch(&self, q: AnyQuery<'_>) -> Result<Vec<AnyRow>, DbError> {
        Ok(q.fetch_all(&self.pool).await?)
    }

    /// The `(seq, text)` rows of `sql`, a query of table `$1` from number
    /// `$2` on.
    async fn numbered_since(
        &self,
        sql: &str,
        id: &str,
        from: i64,
    ) -> Result<Vec<(i64, String)>, DbError> {
        let rows = self.fetch(sqlx::query(sql).bind(id).bind(from)).await?;
        read_rows(&rows, numbered)
    }

    /// Events of table `id` with `seq >= from`, in order, with the table's
    /// shared state after them (commit time of the last one, timed-out
    /// seats; `None` when there are no such events), in one query.
    ///
    /// # Errors
    /// The database error.
    pub async fn catch_up(&self, id: &str, from: i64) -> Result<CatchUp, DbError> {
        let rows = self
            .fetch(
                sqlx::query(
                    "SELECT e.seq, e.data, g.clock_ms, g.timed_out FROM events e \
             JOIN game_tables g ON g.id = e.table_id \
             WHERE e.table_id = $1 AND e.seq >= $2 ORDER BY e.seq",
                )
                .bind(id)
                .bind(from),
            )
            .await?;
        let mut out = CatchUp::default();
        for r in &rows {
            out.events
                .push((r.try_get::<i64, _>(0)?, r.try_get::<String, _>(1)?));
            out.clock_ms = r.try_get::<Option<i64>, _>(2)?;
            out.timed_out = r.try_get::<i64, _>(3)? as u64;
        }
        Ok(out)
    }

    /// The stored `next_seq` and timed-out seats of each of `ids` (in
    /// chunks of 500 ids a query), to find the tables that changed while
    /// notifications were lost.
    ///
    /// # Errors
    /// The database error.
    pub async fn next_seqs(&self, ids: &[String]) -> Result<Vec<NextSeq>, DbError> {
        let mut out = Vec::with_capacity(ids.len());
        for chunk in ids.chunks(500) {
            let marks: Vec<String> = (1..=chunk.len()).map(|i| format!("${i}")).collect();
            let sql = format!(
                "SELECT id, next_seq, timed_out FROM game_tables WHERE id IN ({})",
                marks.join(", ")
            );
            let mut q = sqlx::query(&sql);
            for id in chunk {
                q = q.bind(id.as_str());
            }
            for r in q.fetch_all(&self.pool).await? {
                let id: String = r.try_get(0)?;
                let n: Option<i64> = r.try_get(1)?;
                let mask: i64 = r.try_get(2)?;
                out.push((id, n.unwrap_or(0), mask as u64));
            }
        }
        Ok(out)
    }

    /// Ids of tables with `status`, newest first, at most `limit`.
    ///
    /// # Errors
    /// The database error.
    pub async fn tables_with_status(
        &self,
        status: &str,
        limit: i64,
    ) -> Result<Vec<String>, DbError> {
        let rows = self.fetch(sqlx::query(
            "SELECT id FROM game_tables WHERE status = $1 ORDER BY created_ms DESC LIMIT $2",
        ).bind(status).bind(limit)).await?;
        read_rows(&rows, text0)
    }
}

/// Each of `rows` read by `read`.
pub(super) fn read_rows<T>(
    rows: &[AnyRow],
    read: impl Fn(&AnyRow) -> Result<T, sqlx::Error>,
) -> Result<Vec<T>, DbError> {
    Ok(rows.iter().map(read).collect::<Result<_, _>>()?)
}

/// A row's first column as text.
pub(super) fn text0(r: &AnyRow) -> Result<String, sqlx::Error> {
    r.try_get(0)
}

/// A row's `(number, text)`: an event or a chat line.
fn numbered(r: &AnyRow) -> Result<(i64, String), sqlx::Error> {
    Ok((r.try_get(0)?, r.try_get(1)?))
}

/// `pg_notify` inside a transaction: sent when it commits.
pub(super) async fn notify_in(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    payload: &str,
) -> Result<(), DbError> {
    sqlx::query("SELECT 1 FROM (SELECT pg_notify($1, $2)) AS n")
        .bind(CHANNEL)
        .bind(payload)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

pub(super) fn conflict(e: sqlx::Error) -> DbError {
    match &e {
        sqlx::Error::Database(d) if d.is_unique_violation() => DbError::Conflict,
        _ => DbError::from(e),
    }
}

#[cfg(test)]
mod tests {
    use super::target::pg_address;
    use super::*;

    #[test]
    fn targets_name_the_file_or_host_without_the_password() {
        assert_eq!(describe_target("notdb.bin"), "file notdb.bin");
        assert_eq!(describe_target("sqlite://x/y.db?mode=rwc"), "file x/y.db");
        assert_eq!(
            describe_target("postgres://u:secret@127.0.0.1:1/db"),
            "PostgreSQL at 127.0.0.1:1"
        );
        assert_eq!(
            describe_target("postgresql://db.example:5433"),
            "PostgreSQL at db.example:5433"
        );
    }

    #[test]
    fn database_urls_swap_the_name() {
        assert_eq!(
            with_database("postgres://u:p@h:5/db?sslmode=disable", "x_1"),
            "postgres://u:p@h:5/x_1?sslmode=disable"
        );
        assert_eq!(with_database("postgresql://h", "y"), "postgresql://h/y");
    }

    #[test]
    fn postgres_addresses_have_a_port() {
        assert_eq!(pg_address("postgres://u:pw@127.0.0.1:9/db"), "127.0.0.1:9");
        assert_eq!(pg_address("postgres://db.example/x"), "db.example:5432");
        assert_eq!(pg_address("postgresql://[::1]/x"), "[::1]:5432");
        assert_eq!(pg_address("postgresql://[::1]:6000"), "[::1]:6000");
        assert_eq!(pg_address("postgres://"), "localhost:5432");
    }

    /// Group commit keeps exactly-once: 40 appends sent at once, two at
    /// the same event number for each of 20 tables (so that both of a
    /// table may wait in one group): one of each pair is written and the
    /// other refused with a conflict, every table holds its winner's events
    /// in order, and the appends went in fewer transactions than appends.
    async fn racing_appends_in_groups(db: &Db) {
        let start = vec!["\"start\"".to_string()];
        for t in 0..20 {
            db.create_table(&format!("g{t}"), "{}", "playing", 1, &start, None)
                .await
                .expect("create");
        }
        let mut set = tokio::task::JoinSet::new();
        for k in 0..40 {
            let db = db.clone();
            set.spawn(async move {
                let id = format!("g{}", k % 20);
                let events = vec![format!("\"move {k}\""), format!("\"after {k}\"")];
                let a = Append {
                    id: &id,
                    first_seq: 1,
                    events: &events,
                    status: "playing",
                    clock_ms: 7,
                    timed_out: 0,
                    finish: None,
                };
                (k, db.append(&a).await)
            });
        }
        let mut winners = std::collections::BTreeMap::new();
        while let Some(r) = set.join_next().await {
            let (k, r) = r.expect("task");
            match r {
                Ok(()) => assert!(winners.insert(k % 20, k).is_none(), "two winners"),
                Err(DbError::Conflict) => {}
                Err(e) => panic!("append {k}: {e}"),
            }
        }
        assert_eq!(winners.len(), 20, "one winner per table");
        for (t, k) in winners {
            let events = db.events_since(&format!("g{t}"), 0).await.expect("read");
            let want = vec![
                (0, "\"start\"".to_string()),
                (1, format!("\"move {k}\"")),
                (2, format!("\"after {k}\"")),
            ];
            assert_eq!(events, want);
        }
        let (commits, appends) = db.group_commits();
        assert_eq!(appends, 40);
        assert!(commits < appends, "{commits} commits for {appends} appends");
    }

    #[tokio::test]
    async fn group_commit_keeps_exactly_once_on_sqlite() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("g.db");
        let db = Db::open(path.to_str().expect("path")).await.expect("open");
        racing_appends_in_groups(&db).await;
    }

    #[tokio::test]
    async fn group_commit_keeps_exactly_once_on_postgres() {
        let Ok(url) = std::env::var("SEQUENCE_TEST_POSTGRES_URL") else {
            assert!(
                std::env::var_os("SEQUENCE_TEST_QUICK").is_some(),
                "SEQUENCE_TEST_POSTGRES_URL is not set: scripts/test.sh starts a PostgreSQL of its own and sets it (scripts/test.sh --quick leaves this test out)"
            );
            eprintln!("quick mode: PostgreSQL group commit test left out");
            return;
        };
        let url = create_database(&url, "seq_group_commit")
            .await
            .expect("create");
        let db = Db::open(&url).await.expect("open");
        racing_appends_in_groups(&db).await;
        db.close().await;
        drop_database(
            &std::env::var("SEQUENCE_TEST_POSTGRES_URL").unwrap_or_default(),
            "seq_group_commit",
        )
        .await
        .expect("drop");
    }
}
