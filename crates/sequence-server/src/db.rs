//! Storage: an append-only event log per table in SQLite (WAL mode, the
//! default `sequence.db`) or PostgreSQL (`postgres://…`), through sqlx's
//! `Any` driver with runtime queries.
//!
//! Two tables:
//! * `game_tables(id, spec, status, created_ms)`: one row per table; `spec`
//!   is the JSON the table was created with (no secrets), `status` is
//!   `waiting`, `playing` or `over` (for listing open tables).
//! * `events(table_id, seq, data)`: every accepted change (seat taken, bot,
//!   leave, game start with its seed, move, rematch), `seq` 0, 1, 2, … per
//!   table. The primary key `(table_id, seq)` makes two server instances
//!   sharing one PostgreSQL database refuse each other's stale writes.
//!
//! A change is acknowledged only after its transaction has committed.

use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::{AnyPool, Executor, Row};
use std::time::Duration;

/// A storage failure.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// Another writer appended to this table first (`seq` already taken).
    #[error("the table was changed by another server; retry")]
    Conflict,
    /// Anything else the database reported.
    #[error("database error: {0}")]
    Other(#[from] sqlx::Error),
}

/// Handle to the database (cheap to clone).
#[derive(Clone, Debug)]
pub struct Db {
    pool: AnyPool,
    shared: bool,
}

/// One stored table: its spec JSON and its events in order.
#[derive(Debug, Clone)]
pub struct StoredTable {
    /// The creation spec (JSON text).
    pub spec: String,
    /// `(seq, event JSON)` in `seq` order.
    pub events: Vec<(i64, String)>,
}

impl Db {
    /// Opens (creating if needed) the database: a `postgres://` or
    /// `postgresql://` URL, a `sqlite:` URL, or else a path to an SQLite
    /// file, which is put in WAL mode (`synchronous=NORMAL`: a committed
    /// move survives the process being killed).
    ///
    /// # Errors
    /// The database cannot be reached or its schema not created.
    pub async fn open(spec: &str) -> Result<Db, DbError> {
        sqlx::any::install_default_drivers();
        let pg = spec.starts_with("postgres://") || spec.starts_with("postgresql://");
        let url = if pg || spec.starts_with("sqlite:") {
            spec.to_string()
        } else {
            format!("sqlite://{spec}?mode=rwc")
        };
        let opts = AnyPoolOptions::new()
            .max_connections(if pg { 16 } else { 1 }) // SQLite: one writer, queued in the pool rather than in SQLite's busy handler
            .acquire_timeout(Duration::from_secs(30));
        let opts = if pg {
            opts
        } else {
            opts.after_connect(|conn, _| {
                Box::pin(async move {
                    conn.execute("PRAGMA journal_mode=WAL").await?;
                    conn.execute("PRAGMA synchronous=NORMAL").await?;
                    conn.execute("PRAGMA busy_timeout=10000").await?;
                    Ok(())
                })
            })
        };
        let pool = opts.connect(&url).await?;
        let db = Db { pool, shared: pg };
        db.migrate().await?;
        Ok(db)
    }

    /// Whether other server instances may write to this database too
    /// (PostgreSQL): tables are then re-read before each change.
    pub fn shared(&self) -> bool {
        self.shared
    }

    async fn migrate(&self) -> Result<(), DbError> {
        self.pool
            .execute(
                "CREATE TABLE IF NOT EXISTS game_tables (id TEXT PRIMARY KEY, spec TEXT NOT NULL, \
                 status TEXT NOT NULL, created_ms BIGINT NOT NULL)",
            )
            .await?;
        self.pool
            .execute(
                "CREATE TABLE IF NOT EXISTS events (table_id TEXT NOT NULL, seq BIGINT NOT NULL, \
                 data TEXT NOT NULL, PRIMARY KEY (table_id, seq))",
            )
            .await?;
        self.pool
            .execute(
                "CREATE INDEX IF NOT EXISTS game_tables_status ON game_tables (status, created_ms)",
            )
            .await?;
        Ok(())
    }

    /// Creates a table row and its first events in one transaction.
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
    ) -> Result<(), DbError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO game_tables (id, spec, status, created_ms) VALUES ($1, $2, $3, $4)",
        )
        .bind(id)
        .bind(spec)
        .bind(status)
        .bind(created_ms)
        .execute(&mut *tx)
        .await
        .map_err(conflict)?;
        for (i, e) in events.iter().enumerate() {
            sqlx::query("INSERT INTO events (table_id, seq, data) VALUES ($1, $2, $3)")
                .bind(id)
                .bind(i as i64)
                .bind(e.as_str())
                .execute(&mut *tx)
                .await
                .map_err(conflict)?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Appends `events` to table `id` starting at `first_seq` and sets its
    /// status, in one transaction that has committed when this returns.
    ///
    /// # Errors
    /// [`DbError::Conflict`] when `first_seq` is already taken.
    pub async fn append(
        &self,
        id: &str,
        first_seq: i64,
        events: &[String],
        status: &str,
    ) -> Result<(), DbError> {
        let mut tx = self.pool.begin().await?;
        for (i, e) in events.iter().enumerate() {
            sqlx::query("INSERT INTO events (table_id, seq, data) VALUES ($1, $2, $3)")
                .bind(id)
                .bind(first_seq + i as i64)
                .bind(e.as_str())
                .execute(&mut *tx)
                .await
                .map_err(conflict)?;
        }
        sqlx::query("UPDATE game_tables SET status = $1 WHERE id = $2")
            .bind(status)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Loads a table, `None` if there is none with this id.
    ///
    /// # Errors
    /// The database error.
    pub async fn load(&self, id: &str) -> Result<Option<StoredTable>, DbError> {
        let row: Option<AnyRow> = sqlx::query("SELECT spec FROM game_tables WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        let Some(row) = row else { return Ok(None) };
        let spec: String = row.try_get(0)?;
        let events = self.events_since(id, 0).await?;
        Ok(Some(StoredTable { spec, events }))
    }

    /// Events of table `id` with `seq >= from`, in order.
    ///
    /// # Errors
    /// The database error.
    pub async fn events_since(&self, id: &str, from: i64) -> Result<Vec<(i64, String)>, DbError> {
        let rows = sqlx::query(
            "SELECT seq, data FROM events WHERE table_id = $1 AND seq >= $2 ORDER BY seq",
        )
        .bind(id)
        .bind(from)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get::<i64, _>(0)?, r.try_get::<String, _>(1)?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(DbError::Other)
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
        let rows = sqlx::query(
            "SELECT id FROM game_tables WHERE status = $1 ORDER BY created_ms DESC LIMIT $2",
        )
        .bind(status)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| r.try_get::<String, _>(0))
            .collect::<Result<_, _>>()
            .map_err(DbError::Other)
    }
}

fn conflict(e: sqlx::Error) -> DbError {
    match &e {
        sqlx::Error::Database(d) if d.is_unique_violation() => DbError::Conflict,
        _ => DbError::Other(e),
    }
}
