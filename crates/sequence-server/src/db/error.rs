//! A storage failure ([`DbError`]), which failures mean the database
//! cannot be reached now ([`is_unavailable`]), and what a failure is to
//! the table core (a [`TableError`]: a conflict, 503 or 500).

use crate::tables::TableError;

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
    /// The database cannot be reached now (restarting, connection lost,
    /// every connection busy): the request may be retried shortly.
    #[error("the database is unavailable: {0}")]
    Unavailable(String),
    /// Anything else the database reported.
    #[error("database error: {0}")]
    Other(sqlx::Error),
}

impl From<sqlx::Error> for DbError {
    fn from(e: sqlx::Error) -> DbError {
        if matches!(e, sqlx::Error::PoolTimedOut) {
            metrics::counter!(crate::telemetry::POOL_TIMEOUTS).increment(1);
        }
        if is_unavailable(&e) {
            DbError::Unavailable(e.to_string())
        } else {
            DbError::Other(e)
        }
    }
}

/// Whether `e` says the database cannot be reached now (rather than that a
/// query was wrong): network errors, a pool with no free connection in
/// time, PostgreSQL shutting down or starting up (SQLSTATE 57P01–57P03),
/// connection errors (class 08), too many connections (53300), SQLite busy
/// or locked.
pub fn is_unavailable(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::WorkerCrashed
        | sqlx::Error::Protocol(_) => true,
        sqlx::Error::Database(d) => {
            let code = d.code().map(|c| c.to_string()).unwrap_or_default();
            // 55000: the database does not accept connections now
            // (ALLOW_CONNECTIONS false, as while being maintained)
            code.starts_with("08")
                || code.starts_with("57P0")
                || code == "55000"
                || code == "53300"
                || code == "5"
                || code == "6"
                || code == "517"
        }
        _ => false,
    }
}

impl From<DbError> for TableError {
    fn from(e: DbError) -> TableError {
        match e {
            DbError::Conflict => TableError::Conflict(e.to_string()),
            DbError::Unavailable(cause) => {
                tracing::warn!("database unavailable: {cause}");
                TableError::Unavailable(
                    "the database cannot be reached right now: nothing was changed that was not \
                     stored; retry in a moment"
                        .into(),
                )
            }
            e => {
                tracing::error!("{e}");
                TableError::Internal("database error".into())
            }
        }
    }
}
