//! What a database spec names (an SQLite file or a PostgreSQL server),
//! why it cannot be opened in words, the SQLite file's lock, databases of
//! their own for tests, and the schema's migrations.

use super::DbError;
use sqlx::{AnyPool, Connection, Executor};

/// Whether `spec` is a PostgreSQL URL.
pub(crate) fn is_postgres(spec: &str) -> bool {
    spec.starts_with("postgres://") || spec.starts_with("postgresql://")
}

/// The file an SQLite spec (a path or a `sqlite:` URL) names.
pub(crate) fn sqlite_path(spec: &str) -> &str {
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
pub(super) fn pg_address(spec: &str) -> String {
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
pub(super) fn cause_of(e: &sqlx::Error, spec: &str) -> String {
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

/// Locks an SQLite file for this process (`flock`, released when the
/// process ends, even by SIGKILL): a second `sequence serve` on the same
/// file is refused instead of both running the same tables' bots.
///
/// # Errors
/// The cause in words.
pub(crate) fn lock_file(path: &str) -> Result<std::fs::File, String> {
    let f = std::fs::OpenOptions::new()
        .read(true)
        .open(path)
        .map_err(|e| format!("cannot open it to lock it: {e}"))?;
    #[cfg(unix)]
    {
        use std::os::unix::io::AsRawFd;
        // SAFETY: flock on a file descriptor this function owns.
        let r = unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
        if r != 0 {
            let e = std::io::Error::last_os_error();
            return Err(if e.kind() == std::io::ErrorKind::WouldBlock {
                "another `sequence serve` is using this file (an SQLite database serves one \
                 instance; to run several, give them one PostgreSQL database with \
                 --db postgres://…)"
                    .to_string()
            } else {
                format!("cannot lock it: {e}")
            });
        }
    }
    Ok(f)
}

/// The URL of database `name` on the PostgreSQL server of `url` (same
/// user, password, host and parameters).
pub fn with_database(url: &str, name: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap_or(("postgres", url));
    let (before_query, query) = match rest.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (rest, None),
    };
    let authority = before_query.split('/').next().unwrap_or("");
    let mut out = format!("{scheme}://{authority}/{name}");
    if let Some(q) = query {
        out.push('?');
        out.push_str(q);
    }
    out
}

/// Creates the empty database `name` (letters, digits and `_`) on the
/// PostgreSQL server of `url`, dropping one of that name first; returns its
/// URL. For tests and benchmarks that need a database of their own (the
/// user must be allowed to create databases).
///
/// # Errors
/// A bad name, or the database error.
pub async fn create_database(url: &str, name: &str) -> Result<String, DbError> {
    use sqlx::postgres::PgConnection;
    if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return Err(DbError::Open {
            target: describe_target(url),
            cause: format!("bad database name {name:?}"),
        });
    }
    let mut c = PgConnection::connect(url).await?;
    c.execute(format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)").as_str())
        .await?;
    c.execute(format!("CREATE DATABASE \"{name}\"").as_str())
        .await?;
    c.close().await?;
    Ok(with_database(url, name))
}

/// Drops the database `name` of [`create_database`] (closing its
/// connections).
///
/// # Errors
/// The database error.
pub async fn drop_database(url: &str, name: &str) -> Result<(), DbError> {
    use sqlx::postgres::PgConnection;
    if !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return Ok(());
    }
    let mut c = PgConnection::connect(url).await?;
    c.execute(format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)").as_str())
        .await?;
    c.close().await?;
    Ok(())
}

/// Brings the schema up to date: applies, in order, each migration (in the
/// database's dialect, [`super::migrations`]) that it has not applied yet, each
/// in a transaction, and records it in `_sqlx_migrations` (version,
/// checksum). On PostgreSQL an advisory lock makes instances starting
/// together apply them one at a time. A database written before
/// migrations existed has the tables of migration 1 already (its
/// statements are `IF NOT EXISTS`) and is taken as version 1.
///
/// # Errors
/// A migration that fails; a database that applied a migration this
/// build does not have (written by a newer server) or whose applied
/// migration was edited since (checksum).
pub(super) async fn migrate(pool: &AnyPool, pg: bool) -> Result<(), sqlx::migrate::MigrateError> {
    let set = if pg {
        super::migrations::Dialect::Postgres
    } else {
        super::migrations::Dialect::Sqlite
    };
    set.migrator().await?.run(pool).await
}
