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
use sqlx::{AnyConnection, AnyPool, Connection, Executor, Row};
use std::time::Duration;

/// How long opening the database may take before `serve` gives up.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// A storage failure.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// Another writer appended to this table first (`seq` already taken).
    #[error("the table was changed by another server; retry")]
    Conflict,
    /// The database could not be opened: `target` names the file or the
    /// PostgreSQL host (never the password), `cause` what went wrong.
    #[error("cannot open the database {target}: {cause}")]
    Open {
        /// The SQLite file or `PostgreSQL at host:port`.
        target: String,
        /// What went wrong, in words.
        cause: String,
    },
    /// The database spec names nothing (`--db ''`, `sqlite:`): SQLite
    /// would open a nameless temporary database and lose every table.
    #[error(
        "no database named: give an SQLite file (such as sequence.db) or a postgres:// URL, \
         not an empty name"
    )]
    NoName,
    /// Anything else the database reported.
    #[error("database error: {0}")]
    Other(sqlx::Error),
}

impl From<sqlx::Error> for DbError {
    fn from(e: sqlx::Error) -> DbError {
        DbError::Other(e)
    }
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

/// Whether `spec` is a PostgreSQL URL.
fn is_postgres(spec: &str) -> bool {
    spec.starts_with("postgres://") || spec.starts_with("postgresql://")
}

/// The file an SQLite spec (a path or a `sqlite:` URL) names.
fn sqlite_path(spec: &str) -> &str {
    let p = spec
        .strip_prefix("sqlite://")
        .or_else(|| spec.strip_prefix("sqlite:"))
        .unwrap_or(spec);
    if spec.starts_with("sqlite:") {
        p.split('?').next().unwrap_or(p)
    } else {
        p
    }
}

/// What a database spec points at, for messages: the SQLite file, or
/// `PostgreSQL at host:port` without user or password.
pub fn describe_target(spec: &str) -> String {
    if is_postgres(spec) {
        let rest = spec.split_once("://").map_or(spec, |(_, r)| r);
        let authority = rest.split(['/', '?']).next().unwrap_or("");
        let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
        let host = if host.is_empty() { "localhost" } else { host };
        format!("PostgreSQL at {host}")
    } else {
        format!("file {}", sqlite_path(spec))
    }
}

/// `host:port` of a PostgreSQL URL (port 5432 when not given), without
/// user or password.
fn pg_address(spec: &str) -> String {
    let rest = spec.split_once("://").map_or(spec, |(_, r)| r);
    let authority = rest.split(['/', '?']).next().unwrap_or("");
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = if host.is_empty() { "localhost" } else { host };
    // a port follows the last `:` outside an IPv6 literal's brackets
    let has_port = host
        .rsplit_once(':')
        .is_some_and(|(_, p)| !p.contains(']') && !p.is_empty());
    if has_port {
        host.to_string()
    } else {
        format!("{}:5432", host.trim_end_matches(':'))
    }
}

/// The cause of a failed connection in words (the SQLite result code or
/// the network error), for [`DbError::Open`] of `spec`.
fn cause_of(e: &sqlx::Error, spec: &str) -> String {
    let not_postgres = || {
        format!(
            "the server at {} does not answer as PostgreSQL (is this the database's port?)",
            pg_address(spec)
        )
    };
    match e {
        sqlx::Error::Io(io) => match io.kind() {
            std::io::ErrorKind::ConnectionRefused => {
                "connection refused (is the server running and on this port?)".to_string()
            }
            // a reply that is not PostgreSQL's protocol: sqlx reads its
            // first bytes as a message length and runs out
            std::io::ErrorKind::UnexpectedEof if is_postgres(spec) => not_postgres(),
            _ => io.to_string(),
        },
        sqlx::Error::Protocol(_) if is_postgres(spec) => not_postgres(),
        sqlx::Error::Database(d) => {
            let code = d.code().map(|c| c.to_string()).unwrap_or_default();
            let msg = d.message();
            if code == "26" || msg.contains("not a database") {
                "the file is not an SQLite database".to_string()
            } else if code == "14" || msg.contains("unable to open") {
                "the file cannot be opened or created (does its directory exist, and may this \
                 user write there?)"
                    .to_string()
            } else {
                msg.to_string()
            }
        }
        sqlx::Error::Configuration(c) => format!("bad database URL: {c}"),
        sqlx::Error::Tls(t) => format!("TLS: {t}"),
        other => other.to_string(),
    }
}

/// SQLite settings of every connection: wait up to 10 s for a lock, WAL
/// mode, `synchronous=NORMAL`.
async fn sqlite_setup(conn: &mut AnyConnection) -> Result<(), sqlx::Error> {
    conn.execute("PRAGMA busy_timeout=10000").await?;
    conn.execute("PRAGMA journal_mode=WAL").await?;
    conn.execute("PRAGMA synchronous=NORMAL").await?;
    Ok(())
}

impl Db {
    /// Opens (creating if needed) the database: a `postgres://` or
    /// `postgresql://` URL, a `sqlite:` URL, or else a path to an SQLite
    /// file, which is put in WAL mode (`synchronous=NORMAL`: a committed
    /// move survives the process being killed).
    ///
    /// One connection is made first, so that a wrong path or host fails
    /// within [`CONNECT_TIMEOUT`] with its cause instead of the pool
    /// retrying until its acquire timeout.
    ///
    /// # Errors
    /// [`DbError::Open`] naming the file or host and the cause (not a
    /// database, a directory, connection refused, no answer), or the
    /// database error of creating the schema.
    pub async fn open(spec: &str) -> Result<Db, DbError> {
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
        let opts = AnyPoolOptions::new()
            .max_connections(if pg { 16 } else { 1 }) // SQLite: one writer, queued in the pool rather than in SQLite's busy handler
            .acquire_timeout(Duration::from_secs(30));
        let opts = if pg {
            opts
        } else {
            opts.after_connect(|conn, _| Box::pin(sqlite_setup(conn)))
        };
        let pool = opts
            .connect(&url)
            .await
            .map_err(|e| fail(cause_of(&e, spec)))?;
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

#[cfg(test)]
mod tests {
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
    fn postgres_addresses_have_a_port() {
        assert_eq!(pg_address("postgres://u:pw@127.0.0.1:9/db"), "127.0.0.1:9");
        assert_eq!(pg_address("postgres://db.example/x"), "db.example:5432");
        assert_eq!(pg_address("postgresql://[::1]/x"), "[::1]:5432");
        assert_eq!(pg_address("postgresql://[::1]:6000"), "[::1]:6000");
        assert_eq!(pg_address("postgres://"), "localhost:5432");
    }
}
