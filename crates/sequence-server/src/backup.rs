//! Backups of an SQLite database (`sequence backup`, `sequence restore`;
//! docs/deploy.md "Backup and restore"): [`backup_sqlite`] copies a
//! database while a server writes to it, consistently (SQLite's
//! `VACUUM INTO`: one read transaction, so the copy holds exactly the
//! transactions committed before it began, and a server's writes go on
//! meanwhile in WAL mode); [`check_database`] reads a copy back, every
//! table rebuilt from its events and every game's record (finished or
//! not) verified by the rules engine; [`restore_sqlite`] checks a backup
//! and puts it in place of a database no server is using. A PostgreSQL
//! database is backed up with its own tools (`pg_dump`, point-in-time
//! recovery).

use crate::db::{is_postgres, lock_file, sqlite_path};
use crate::settings::DEFAULT_DB;
use sequence_common::record::detect_kind;

use serde::Serialize;
use sqlx::sqlite::{SqliteConnectOptions, SqliteConnection};
use sqlx::{Connection, Row};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// What a backup wrote.
#[derive(Debug, Clone, Serialize)]
pub struct BackupReport {
    /// The copy.
    pub out: PathBuf,
    /// Its size in bytes.
    pub bytes: u64,
    /// How long the copy took (`took_ms` in JSON).
    #[serde(rename = "took_ms", serialize_with = "millis")]
    pub took: Duration,
}

/// What a check of a database found: every table rebuilt, every record
/// verified.
#[derive(Debug, Clone, Default, Serialize)]
pub struct CheckReport {
    /// Tables read.
    pub tables: usize,
    /// Events replayed.
    pub events: usize,
    /// Game records verified by the rules engine (finished games and the
    /// current game of every table that started one).
    pub records: usize,
    /// Moves in the verified records.
    pub moves: usize,
    /// Per table: `(id, game number, moves of its current game)`.
    #[serde(skip)]
    pub positions: Vec<(String, u32, u32)>,
}

fn millis<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u64(d.as_millis() as u64)
}

/// Opens SQLite file `path` (a server may be using it: WAL mode, waits
/// for locks up to 10 s). `create`: a new file is made if missing.
async fn open(path: &Path, create: bool) -> anyhow::Result<SqliteConnection> {
    let opts = SqliteConnectOptions::new()
        .filename(path)
        .create_if_missing(create)
        .busy_timeout(Duration::from_secs(10));
    SqliteConnection::connect_with(&opts)
        .await
        .map_err(|e| anyhow::anyhow!("cannot open {}: {e}", path.display()))
}

/// The SQLite file of database spec `db`, or the error for PostgreSQL.
fn sqlite_file(db: &str) -> anyhow::Result<PathBuf> {
    if is_postgres(db) {
        anyhow::bail!(
            "{} is PostgreSQL: back it up with pg_dump or point-in-time recovery \
             (docs/deploy.md \"Backup and restore\")",
            crate::db::describe_target(db)
        );
    }
    let p = sqlite_path(db);
    if p.is_empty() {
        anyhow::bail!("no database named: give the SQLite file (such as sequence.db)");
    }
    Ok(PathBuf::from(p))
}

/// Copies the SQLite database `db` to the new file `out` while a server
/// may be writing to it: the copy holds every change committed before
/// the copy began, and each table whole. `out` must not exist.
///
/// # Errors
/// `db` is PostgreSQL, missing or not a database of this server; `out`
/// exists or cannot be written.
pub async fn backup_sqlite(db: &str, out: &Path) -> anyhow::Result<BackupReport> {
    let src = sqlite_file(db)?;
    if !src.is_file() {
        anyhow::bail!("cannot back up {}: no such file", src.display());
    }
    if out.exists() {
        anyhow::bail!(
            "{} exists already: a backup is written to a new file",
            out.display()
        );
    }
    let out_text = out
        .to_str()
        .ok_or_else(|| anyhow::anyhow!("{}: not a UTF-8 path", out.display()))?;
    let start = Instant::now();
    let mut conn = open(&src, false).await?;
    let tables: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'events'",
    )
    .fetch_one(&mut conn)
    .await
    .map_err(|e| anyhow::anyhow!("{} is not an SQLite database: {e}", src.display()))?;
    if tables == 0 {
        anyhow::bail!("{} holds no tables of this server", src.display());
    }
    sqlx::query("VACUUM INTO ?")
        .bind(out_text)
        .execute(&mut conn)
        .await
        .map_err(|e| anyhow::anyhow!("cannot write the backup {}: {e}", out.display()))?;
    conn.close().await?;
    let bytes = std::fs::metadata(out)?.len();
    Ok(BackupReport {
        out: out.to_path_buf(),
        bytes,
        took: start.elapsed(),
    })
}

/// Reads the SQLite database `path` back: SQLite's integrity check, then
/// every table rebuilt from its events and every game's record (earlier
/// games and the current one, finished or not) replayed by the rules
/// engine.
///
/// # Errors
/// The integrity check's complaint, or the first table or record that
/// does not replay, named.
pub async fn check_database(path: &Path) -> anyhow::Result<CheckReport> {
    if !path.is_file() {
        anyhow::bail!("{}: no such file", path.display());
    }
    let mut conn = open(path, false).await?;
    let ok: String = sqlx::query_scalar("PRAGMA integrity_check")
        .fetch_one(&mut conn)
        .await?;
    if ok != "ok" {
        anyhow::bail!("{}: SQLite's integrity check: {ok}", path.display());
    }
    let tables = sqlx::query("SELECT id, spec FROM game_tables ORDER BY id")
        .fetch_all(&mut conn)
        .await?;
    let mut report = CheckReport::default();
    for row in tables {
        let id: String = row.try_get(0)?;
        let spec: String = row.try_get(1)?;
        let events: Vec<(i64, String)> =
            sqlx::query_as("SELECT seq, data FROM events WHERE table_id = ? ORDER BY seq")
                .bind(&id)
                .fetch_all(&mut conn)
                .await?;
        let core = crate::app::core_of(&id, &spec, &events)
            .map_err(|e| anyhow::anyhow!("table {id} does not replay: {e}"))?;
        let mut records: Vec<serde_json::Value> = core.finished.to_vec();
        if let Some(live) = core.live.as_ref() {
            records.extend(live.record_json());
        }
        for (i, r) in records.iter().enumerate() {
            report.moves +=
                verify_record(r).map_err(|e| anyhow::anyhow!("table {id}, game {}: {e}", i + 1))?;
            report.records += 1;
        }
        report.tables += 1;
        report.events += events.len();
        report.positions.push((id, core.game_no, core.moves));
    }
    conn.close().await?;
    Ok(report)
}

/// Verifies one record with the rules engine: its number of moves.
fn verify_record(r: &serde_json::Value) -> anyhow::Result<usize> {
    let text = r.to_string();
    let (kind, value) = detect_kind(&text).map_err(|e| anyhow::anyhow!("{e}"))?;
    sequence_bots::verify_record(kind, &value)
        .map_err(|e| anyhow::anyhow!("the record does not verify: {e}"))?;
    Ok(value["moves"].as_array().map_or(0, Vec::len))
}

/// Checks the backup `from` ([`check_database`]) and puts a copy of it in
/// place of the SQLite database `db`, which no server may be using
/// (its `-wal` and `-shm` files, which belong to the database replaced,
/// are removed). An existing `db` is replaced only with `force`.
///
/// # Errors
/// The backup does not check; `db` exists (without `force`), is in use
/// by a server or cannot be written.
pub async fn restore_sqlite(from: &Path, db: &str, force: bool) -> anyhow::Result<CheckReport> {
    let to = sqlite_file(db)?;
    let report = check_database(from)
        .await
        .map_err(|e| e.context(format!("the backup {} is not sound", from.display())))?;
    let _lock = if to.exists() {
        if !force {
            anyhow::bail!(
                "{} exists: give --force to replace it (no server may be using it)",
                to.display()
            );
        }
        Some(
            lock_file(&to.to_string_lossy())
                .map_err(|e| anyhow::anyhow!("cannot replace {}: {e}", to.display()))?,
        )
    } else {
        None
    };
    let mut tmp = to.clone().into_os_string();
    tmp.push(".restoring");
    let tmp = PathBuf::from(tmp);
    std::fs::copy(from, &tmp)
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", tmp.display()))?;
    for suffix in ["-wal", "-shm"] {
        let mut side = to.clone().into_os_string();
        side.push(suffix);
        match std::fs::remove_file(&side) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => anyhow::bail!("cannot remove {}: {e}", Path::new(&side).display()),
        }
    }
    std::fs::rename(&tmp, &to)
        .map_err(|e| anyhow::anyhow!("cannot put the backup in place of {}: {e}", to.display()))?;
    Ok(report)
}

/// `sequence backup`: a consistent copy of a live SQLite database
/// ([`run_backup`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BackupConfig {
    /// The SQLite database (a server may be serving it).
    pub db: String,
    /// The new file to write the copy to.
    pub out: PathBuf,
    /// Read the copy back (every table and record checked).
    pub check: bool,
}

impl BackupConfig {
    /// A checked copy of [`DEFAULT_DB`] into `out`.
    pub fn new(out: impl Into<PathBuf>) -> Self {
        BackupConfig {
            db: DEFAULT_DB.into(),
            out: out.into(),
            check: true,
        }
    }
}

/// `sequence restore`: a checked backup in place of a database
/// ([`run_restore`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RestoreConfig {
    /// The backup (a file `sequence backup` wrote).
    pub from: PathBuf,
    /// The SQLite database to restore into (no server may be using it).
    pub db: String,
    /// Replace an existing database.
    pub force: bool,
}

impl RestoreConfig {
    /// `from` restored into [`DEFAULT_DB`], which must not exist yet.
    pub fn new(from: impl Into<PathBuf>) -> Self {
        RestoreConfig {
            from: from.into(),
            db: DEFAULT_DB.into(),
            force: false,
        }
    }
}

/// Runs `sequence backup`: prints what it wrote (and checked) as JSON.
///
/// # Errors
/// As [`backup_sqlite`] and [`check_database`].
pub fn run_backup(a: BackupConfig) -> anyhow::Result<()> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    rt.block_on(async {
        let written = backup_sqlite(&a.db, &a.out).await?;
        let mut out = serde_json::to_value(&written)?;
        if a.check {
            let checked = check_database(&a.out)
                .await
                .map_err(|e| e.context(format!("the backup {} does not check", a.out.display())))?;
            out["checked"] = serde_json::to_value(&checked)?;
        }
        println!("{out}");
        Ok(())
    })
}

/// Runs `sequence restore`: prints what it checked as JSON.
///
/// # Errors
/// As [`restore_sqlite`].
pub fn run_restore(a: RestoreConfig) -> anyhow::Result<()> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    rt.block_on(async {
        let checked = restore_sqlite(&a.from, &a.db, a.force).await?;
        println!(
            "{}",
            serde_json::json!({"restored": sqlite_path(&a.db), "checked": checked})
        );
        Ok(())
    })
}
