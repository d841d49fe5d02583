//! The processes measured: servers this tool starts (the `sequence`
//! binary's `serve`), their memory and CPU from /proc, the open-file
//! limit, and the PostgreSQL transaction count.

use std::path::PathBuf;

/// Raises the open-file limit to its hard maximum (each WebSocket is a
/// file descriptor on both ends). Returns the new soft limit.
pub fn raise_fd_limit() -> u64 {
    // SAFETY: getrlimit/setrlimit with a valid pointer to a local struct.
    unsafe {
        let mut r = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut r) != 0 {
            return 0;
        }
        r.rlim_cur = r.rlim_max;
        libc::setrlimit(libc::RLIMIT_NOFILE, &r);
        libc::getrlimit(libc::RLIMIT_NOFILE, &mut r);
        #[allow(clippy::unnecessary_cast)]
        let n = r.rlim_cur as u64;
        n
    }
}

/// Resident memory of process `pid` (`self` for this one) in KiB, from
/// /proc/PID/status VmRSS.
pub fn rss_kib(pid: &str) -> Option<u64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    s.lines()
        .find(|l| l.starts_with("VmRSS:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// CPU time (user + system) of process `pid` in seconds, from
/// /proc/PID/stat.
pub fn cpu_seconds(pid: &str) -> Option<f64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = s.rsplit_once(')')?.1;
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    // SAFETY: sysconf has no preconditions.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    Some(ticks / if hz > 0 { hz as f64 } else { 100.0 })
}

/// Servers started by the tool (killed and their folder removed at the
/// end).
pub(crate) struct Children {
    pub(crate) children: Vec<std::process::Child>,
    pub(crate) dir: Option<PathBuf>,
}

impl Drop for Children {
    fn drop(&mut self) {
        for c in &mut self.children {
            let _ = c.kill();
            let _ = c.wait();
        }
        if let Some(d) = &self.dir {
            let _ = std::fs::remove_dir_all(d);
        }
    }
}

/// Starts `n` servers (`exe serve`, the running binary when `None`) on
/// `db` (SQLite in a temporary folder when `None`); their URLs and process
/// ids.
pub(crate) fn spawn_servers(
    n: u32,
    db: Option<&str>,
    exe: Option<&std::path::Path>,
) -> anyhow::Result<(Vec<String>, Children, Vec<String>)> {
    let exe = match exe {
        Some(e) => e.to_path_buf(),
        None => std::env::current_exe()?,
    };
    let mut kids = Children {
        children: vec![],
        dir: None,
    };
    let db = match db {
        Some(d) => d.to_string(),
        None => {
            if n > 1 {
                anyhow::bail!(
                    "--instances {n}: several servers share a PostgreSQL database: give \
                     --db postgres://… (an SQLite file serves one)"
                );
            }
            let dir =
                std::env::temp_dir().join(format!("sequence-loadtest-{}", std::process::id()));
            std::fs::create_dir_all(&dir)?;
            kids.dir = Some(dir.clone());
            dir.join("loadtest.db").to_string_lossy().to_string()
        }
    };
    let mut urls = vec![];
    let mut pids = vec![];
    for _ in 0..n {
        let (child, url) = spawn_server(&exe, &db, &[], std::process::Stdio::inherit())?;
        pids.push(child.id().to_string());
        kids.children.push(child);
        urls.push(url);
    }
    Ok((urls, kids, pids))
}

/// Starts `exe serve` (the `sequence` binary) on a free port of 127.0.0.1
/// without rate limits (API requests and WebSocket upgrades), a per-address
/// cap on open connections or bot delay, on `db` (an SQLite file or a
/// PostgreSQL URL) with `extra` arguments (a flag among them replaces
/// that default), its log to `stderr`; the
/// child and the URL it listens at (`http://…`, from its first line).
///
/// # Errors
/// The program does not start or does not say where it listens (it is
/// killed then).
pub fn spawn_server(
    exe: &std::path::Path,
    db: &str,
    extra: &[&str],
    stderr: std::process::Stdio,
) -> anyhow::Result<(std::process::Child, String)> {
    use std::io::BufRead;
    let defaults = [
        ("--listen", "127.0.0.1:0"),
        ("--rate-limit", "0"),
        ("--ws-rate", "0"),
        ("--max-connections-per-address", "0"),
        ("--bot-delay-ms", "0"),
    ];
    let mut child = std::process::Command::new(exe);
    child.arg("serve");
    for (flag, value) in defaults {
        if !extra
            .iter()
            .any(|e| e == &flag || e.starts_with(&format!("{flag}=")))
        {
            child.args([flag, value]);
        }
    }
    let mut child = child
        .args(["--db", db])
        .args(extra)
        .stdout(std::process::Stdio::piped())
        .stderr(stderr)
        .spawn()?;
    let mut line = String::new();
    let read = match child.stdout.take() {
        Some(out) => std::io::BufReader::new(out).read_line(&mut line).is_ok(),
        None => false,
    };
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .filter(|_| read);
    match url {
        Some(url) => Ok((child, url.to_string())),
        None => {
            let _ = child.kill();
            let _ = child.wait();
            anyhow::bail!("the server did not say where it listens: {line:?}")
        }
    }
}

/// The sum of the servers' resident memory in KiB (0 when they run
/// elsewhere).
pub(crate) fn total_rss(pids: &[String]) -> u64 {
    pids.iter().filter_map(|p| rss_kib(p)).sum()
}

/// The sum of the servers' CPU seconds.
pub(crate) fn total_cpu(pids: &[String]) -> f64 {
    pids.iter().filter_map(|p| cpu_seconds(p)).sum()
}

/// Transactions committed or rolled back in the PostgreSQL database of
/// `url` so far (`pg_stat_database`), to count queries per second.
pub(crate) async fn pg_transactions(url: &str) -> Option<i64> {
    use sqlx::{Connection, Row};
    let mut c = sqlx::postgres::PgConnection::connect(url).await.ok()?;
    let row = sqlx::query(
        "SELECT (xact_commit + xact_rollback)::BIGINT FROM pg_stat_database \
         WHERE datname = current_database()",
    )
    .fetch_one(&mut c)
    .await
    .ok()?;
    let n: i64 = row.try_get(0).ok()?;
    let _ = c.close().await;
    // this query's own transaction is not the servers'
    Some(n - 1)
}
