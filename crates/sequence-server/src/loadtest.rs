//! `sequence loadtest`: real clients over loopback. Creates `--tables`
//! two-seat classic tables, connects one WebSocket per seat (2 per table),
//! and has every seat play random legal moves by `POST …/moves` after a
//! think time. Measures, per move, the time from just before the POST is
//! sent to the moment the *other* seat's WebSocket receives the new view
//! (move→push); counts errors and 409s; reads the servers' resident memory
//! (VmRSS) after start, after the tables and after the sockets, and their
//! CPU time.
//!
//! Several instances of one cluster (one PostgreSQL) are driven at once
//! with `--server URL` repeated: table `i` is created on instance `i`,
//! joined on instance `i + 1`, and its seats connect to those two, so that
//! every move is made on one instance and pushed by another.
//!
//! Without `--server` it starts `--instances` `sequence serve` processes
//! itself (children of the same binary, no per-address rate limit, no bot
//! delay) on `--db` (default: SQLite in a temporary folder, one instance)
//! so that the servers' memory and CPU are measured alone.

use clap::Args;
use futures_util::{SinkExt, StreamExt};
use indicatif::{ProgressBar, ProgressStyle};
use rand::seq::IndexedRandom;
use rand::Rng;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;

/// `sequence loadtest`: drives real WebSocket clients against servers.
#[derive(Debug, Args, Clone)]
pub struct LoadtestArgs {
    /// Number of concurrent two-seat tables (two WebSocket clients each).
    #[arg(long, default_value_t = 100)]
    pub tables: u32,
    /// A server to drive (e.g. `http://127.0.0.1:8080`; run it with
    /// `--rate-limit 0`). Repeat it to drive several instances of one
    /// PostgreSQL database at once: each table's seats then connect to two
    /// different instances. Default: start servers (`--instances`).
    #[arg(long = "server", alias = "url", value_name = "URL")]
    pub servers: Vec<String>,
    /// Without `--server`: how many `sequence serve` processes to start
    /// (more than one needs `--db postgres://…`).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub instances: u32,
    /// The database of the servers started (default: SQLite in a temporary
    /// folder). A `postgres://` URL is also read, with or without
    /// `--server`, to count the database's transactions per second.
    #[arg(long)]
    pub db: Option<String>,
    /// WebSockets per table: 2 (both seats play) or 0 (tables only, to
    /// measure their memory).
    #[arg(long, default_value_t = 2)]
    pub sockets: u8,
    /// Nobody moves while measuring: the sockets stay open (the idle cost:
    /// memory, CPU, database queries).
    #[arg(long)]
    pub idle: bool,
    /// Moves each table plays over HTTP before the sockets connect, so that
    /// the games measured are under way.
    #[arg(long, default_value_t = 0)]
    pub warm_moves: u32,
    /// Seconds to measure once every client is connected.
    #[arg(long, default_value_t = 30)]
    pub seconds: u64,
    /// Mean think time of a seat before each move, in milliseconds.
    #[arg(long, default_value_t = 2000)]
    pub think_ms: u64,
    /// Write the results as JSON to this file.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Seed for the clients' move choices and think times.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

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

#[derive(Default)]
struct Stats {
    latencies_us: Mutex<Vec<u64>>,
    errors: AtomicU64,
    conflicts: AtomicU64,
    moves: AtomicU64,
    games: AtomicU64,
    error_kinds: Mutex<HashMap<String, u64>>,
}

impl Stats {
    fn error(&self, what: String) {
        self.errors.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut m) = self.error_kinds.lock() {
            *m.entry(what.chars().take(120).collect()).or_insert(0) += 1;
        }
    }
}

/// When each move was posted, by move number after it.
type Posted = Arc<Mutex<HashMap<u32, Instant>>>;

/// Runs `sequence loadtest`.
///
/// # Errors
/// The servers cannot be started or reached, or a table cannot be created.
pub fn run_loadtest(args: LoadtestArgs) -> anyhow::Result<()> {
    let fds = raise_fd_limit();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    rt.block_on(run(args, fds))
}

/// Servers started by the tool (killed and their folder removed at the
/// end).
struct Children {
    children: Vec<std::process::Child>,
    dir: Option<PathBuf>,
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

/// Starts `n` servers on `db` (SQLite in a temporary folder when `None`);
/// their URLs and process ids.
fn spawn_servers(n: u32, db: Option<&str>) -> anyhow::Result<(Vec<String>, Children, Vec<String>)> {
    let exe = std::env::current_exe()?;
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
/// without rate limit or bot delay, on `db` (an SQLite file or a
/// PostgreSQL URL) with `extra` arguments, its log to `stderr`; the
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
    let mut child = std::process::Command::new(exe)
        .args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--rate-limit",
            "0",
            "--bot-delay-ms",
            "0",
            "--db",
            db,
        ])
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
fn total_rss(pids: &[String]) -> u64 {
    pids.iter().filter_map(|p| rss_kib(p)).sum()
}

/// The sum of the servers' CPU seconds.
fn total_cpu(pids: &[String]) -> f64 {
    pids.iter().filter_map(|p| cpu_seconds(p)).sum()
}

/// Transactions committed or rolled back in the PostgreSQL database of
/// `url` so far (`pg_stat_database`), to count queries per second.
async fn pg_transactions(url: &str) -> Option<i64> {
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

fn bar_of(len: u64, msg: &'static str, template: &str) -> ProgressBar {
    let bar = ProgressBar::new(len);
    bar.set_style(
        ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_message(msg);
    bar
}

const BAR: &str = "{msg:12} {bar:40} {pos}/{len} {elapsed}";

async fn run(args: LoadtestArgs, fds: u64) -> anyhow::Result<()> {
    if args.sockets == 1 || args.sockets > 2 {
        anyhow::bail!(
            "--sockets {}: give 2 (both seats play) or 0 (tables only)",
            args.sockets
        );
    }
    let (urls, _kids, pids) = if args.servers.is_empty() {
        spawn_servers(args.instances, args.db.as_deref())?
    } else {
        (
            args.servers
                .iter()
                .map(|u| u.trim_end_matches('/').to_string())
                .collect(),
            Children {
                children: vec![],
                dir: None,
            },
            vec![],
        )
    };
    let pg_url = args
        .db
        .clone()
        .filter(|d| d.starts_with("postgres://") || d.starts_with("postgresql://"));
    let n = urls.len();
    eprintln!(
        "loadtest: {} server(s) {}, {} tables, open-file limit {fds}",
        n,
        urls.join(" "),
        args.tables
    );
    tokio::time::sleep(Duration::from_millis(300)).await;
    let rss_start = total_rss(&pids);
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(4096)
        .timeout(Duration::from_secs(30))
        .build()?;
    let stats = Arc::new(Stats::default());
    // 1. tables: table i made on instance i, joined on instance i + 1
    let bar = bar_of(args.tables as u64, "tables", BAR);
    let sem = Arc::new(Semaphore::new(64));
    let mut handles = vec![];
    for i in 0..args.tables {
        let http = http.clone();
        let (a, b) = (
            urls[i as usize % n].clone(),
            urls[(i as usize + 1) % n].clone(),
        );
        let sem = sem.clone();
        let bar = bar.clone();
        let warm = args.warm_moves;
        let seed = args.seed ^ ((i as u64) << 16);
        handles.push(tokio::spawn(async move {
            let _p = sem.acquire().await;
            let r = create(&http, &a, &b, i).await;
            if let Ok((id, tokens)) = &r {
                if warm > 0 {
                    warm_up(&http, &a, id, tokens, warm, seed).await;
                }
            }
            bar.inc(1);
            r
        }));
    }
    let mut tables = vec![];
    for h in handles {
        tables.push(h.await??);
    }
    bar.finish();
    tokio::time::sleep(Duration::from_millis(500)).await;
    let rss_tables = total_rss(&pids);
    // 2. clients: seat s of table i on instance i + s
    let n_sockets = if args.sockets == 2 {
        2 * args.tables
    } else {
        0
    };
    let bar = bar_of(n_sockets as u64, "websockets", BAR);
    let stop = Arc::new(tokio::sync::Notify::new());
    let measuring = Arc::new(AtomicBool::new(false));
    let connected = Arc::new(AtomicU64::new(0));
    let mut clients = vec![];
    if n_sockets > 0 {
        for (i, (id, tokens)) in tables.iter().enumerate() {
            let posted: Posted = Arc::new(Mutex::new(HashMap::new()));
            for (seat, token) in tokens.iter().enumerate() {
                let url = urls[(i + seat) % n].clone();
                let c = Client {
                    http: http.clone(),
                    ws: format!("{}/api/tables/{id}/ws", url.replacen("http://", "ws://", 1)),
                    url,
                    id: id.clone(),
                    seat: seat as u8,
                    token: token.clone(),
                    posted: posted.clone(),
                    stats: stats.clone(),
                    think_ms: args.think_ms,
                    seed: args.seed ^ ((i as u64) << 8) ^ seat as u64,
                    measuring: measuring.clone(),
                    idle: args.idle,
                };
                let sem = sem.clone();
                let bar = bar.clone();
                let stop = stop.clone();
                let connected = connected.clone();
                clients.push(tokio::spawn(async move {
                    c.run(sem, bar, stop, connected).await
                }));
            }
        }
        while connected.load(Ordering::Relaxed) < n_sockets as u64 {
            if clients.iter().all(|c| c.is_finished()) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    bar.finish();
    let n_connected = connected.load(Ordering::Relaxed);
    tokio::time::sleep(Duration::from_millis(500)).await;
    let rss_sockets = total_rss(&pids);
    // 3. measure
    let tx_start = match &pg_url {
        Some(u) => pg_transactions(u).await,
        None => None,
    };
    let cpu_start = total_cpu(&pids);
    measuring.store(true, Ordering::Relaxed);
    let bar = bar_of(
        args.seconds,
        "measuring",
        "{msg:12} {bar:40} {pos}/{len}s moves {prefix}",
    );
    let started = Instant::now();
    let mut peak_rss = 0u64;
    for _ in 0..args.seconds {
        tokio::time::sleep(Duration::from_secs(1)).await;
        bar.inc(1);
        bar.set_prefix(stats.moves.load(Ordering::Relaxed).to_string());
        peak_rss = peak_rss.max(total_rss(&pids));
    }
    measuring.store(false, Ordering::Relaxed);
    let elapsed = started.elapsed().as_secs_f64();
    let cpu = total_cpu(&pids) - cpu_start;
    let tx_end = match &pg_url {
        Some(u) => pg_transactions(u).await,
        None => None,
    };
    bar.finish();
    let still = connected.load(Ordering::Relaxed);
    stop.notify_waiters();
    let rss = total_rss(&pids);
    let mut lat = stats
        .latencies_us
        .lock()
        .map(|l| l.clone())
        .unwrap_or_default();
    lat.sort_unstable();
    let pct = |p: f64| -> f64 {
        if lat.is_empty() {
            return f64::NAN;
        }
        let i = ((lat.len() as f64 - 1.0) * p).round() as usize;
        lat[i] as f64 / 1000.0
    };
    let moves = stats.moves.load(Ordering::Relaxed);
    let conflicts = stats.conflicts.load(Ordering::Relaxed);
    let errors = stats.errors.load(Ordering::Relaxed) + (n_connected - still.min(n_connected));
    let per_table_kib = if args.tables > 0 && !pids.is_empty() {
        (rss_tables as f64 - rss_start as f64) / args.tables as f64
    } else {
        f64::NAN
    };
    let per_socket_kib = if n_connected > 0 && !pids.is_empty() {
        (rss_sockets as f64 - rss_tables as f64) / n_connected as f64
    } else {
        f64::NAN
    };
    let tx_per_s = match (tx_start, tx_end) {
        (Some(a), Some(b)) => Some((b - a - 1) as f64 / elapsed),
        _ => None,
    };
    let result = json!({
        "instances": n,
        "tables": args.tables,
        "warm_moves": args.warm_moves,
        "idle": args.idle,
        "websocket_clients_connected": n_connected,
        "websocket_clients_at_end": still,
        "seconds": elapsed,
        "moves": moves,
        "moves_per_second": moves as f64 / elapsed,
        "games_finished": stats.games.load(Ordering::Relaxed),
        "move_to_push_ms": {"samples": lat.len(), "p50": pct(0.5), "p90": pct(0.9), "p99": pct(0.99), "max": pct(1.0)},
        "errors": errors,
        "conflicts_409": conflicts,
        "error_kinds": stats.error_kinds.lock().map(|m| json!(*m)).unwrap_or(json!({})),
        "server_rss_mib": {
            "start": rss_start as f64 / 1024.0,
            "with_tables": rss_tables as f64 / 1024.0,
            "with_sockets": rss_sockets as f64 / 1024.0,
            "end": rss as f64 / 1024.0,
            "peak": peak_rss as f64 / 1024.0,
        },
        "kib_per_table": per_table_kib,
        "kib_per_socket": per_socket_kib,
        "server_cpu_percent": if pids.is_empty() { f64::NAN } else { 100.0 * cpu / elapsed },
        "database_transactions_per_second": tx_per_s,
        "rss_of": if pids.is_empty() { "not measured (the servers run elsewhere)" } else { "the server processes started" },
        "open_file_limit": fds,
    });
    println!("| figure | value |\n| --- | --- |");
    println!("| instances | {n} |");
    println!("| tables | {} |", args.tables);
    println!("| WebSocket clients connected (at end) | {n_connected} ({still}) |");
    println!(
        "| moves in {:.0} s | {moves} ({:.0}/s) |",
        elapsed,
        moves as f64 / elapsed
    );
    println!(
        "| move POST → other seat's push{}, p50 / p90 / p99 / max | {:.1} / {:.1} / {:.1} / {:.1} ms |",
        if n > 1 { " (another instance)" } else { "" },
        pct(0.5),
        pct(0.9),
        pct(0.99),
        pct(1.0)
    );
    println!("| errors | {errors} |");
    println!("| 409 answers | {conflicts} |");
    if !pids.is_empty() {
        println!(
            "| server resident memory: start / tables / sockets / end (peak) | {:.0} / {:.0} / {:.0} / {:.0} ({:.0}) MiB |",
            rss_start as f64 / 1024.0,
            rss_tables as f64 / 1024.0,
            rss_sockets as f64 / 1024.0,
            rss as f64 / 1024.0,
            peak_rss as f64 / 1024.0
        );
        println!(
            "| memory per table / per socket | {per_table_kib:.1} / {per_socket_kib:.1} KiB |"
        );
        println!(
            "| server CPU | {:.0} % of one core |",
            100.0 * cpu / elapsed
        );
    }
    if let Some(t) = tx_per_s {
        println!("| database transactions per second | {t:.1} |");
    }
    if errors > 0 {
        println!("error kinds: {}", result["error_kinds"]);
    }
    if let Some(p) = &args.out {
        std::fs::write(p, serde_json::to_string_pretty(&result)?)?;
        println!("results written to {}", p.display());
    }
    for c in clients {
        c.abort();
    }
    Ok(())
}

/// Creates table `i` on `a` and joins it on `b`: its id and the two
/// seats' tokens.
async fn create(
    http: &reqwest::Client,
    a: &str,
    b: &str,
    i: u32,
) -> anyhow::Result<(String, Vec<String>)> {
    let r: Value = http
        .post(format!("{a}/api/tables"))
        .json(&json!({"game": "classic", "players": 2, "name": format!("load {i}a")}))
        .send()
        .await?
        .error_for_status()?
        .json()
        .await?;
    let id = r["table"]
        .as_str()
        .ok_or_else(|| anyhow::anyhow!("no table id in {r}"))?
        .to_string();
    let t0 = r["token"].as_str().unwrap_or_default().to_string();
    let j: Value = http
        .post(format!("{b}/api/tables/{id}/join"))
        .json(&json!({"name": format!("load {i}b")}))
        .send()
        .await?
        .error_for_status()?
        .json()
        .await?;
    let t1 = j["token"].as_str().unwrap_or_default().to_string();
    Ok((id, vec![t0, t1]))
}

/// Plays `moves` random moves at a table over HTTP (fewer if the game
/// ends).
async fn warm_up(
    http: &reqwest::Client,
    url: &str,
    id: &str,
    tokens: &[String],
    moves: u32,
    seed: u64,
) {
    let mut rng = sequence_common::rng::game_rng(seed);
    let mut made = 0;
    let mut tries = 0;
    while made < moves && tries < 4 * moves + 8 {
        tries += 1;
        for t in tokens {
            let Ok(r) = http
                .get(format!("{url}/api/tables/{id}/view"))
                .bearer_auth(t)
                .send()
                .await
            else {
                return;
            };
            let Ok(v) = r.json::<Value>().await else {
                return;
            };
            if v["status"] != "playing" {
                return;
            }
            let Some(mv) = v["legal_moves"]
                .as_array()
                .and_then(|l| l.choose(&mut rng))
                .cloned()
            else {
                continue;
            };
            let ok = http
                .post(format!("{url}/api/tables/{id}/moves"))
                .bearer_auth(t)
                .json(&json!({"move_number": v["move_number"], "move": mv}))
                .send()
                .await
                .is_ok_and(|r| r.status().is_success());
            if ok {
                made += 1;
            }
        }
    }
}

/// What the clients read of a server message: its type and, for a view,
/// the few fields they act on (the rest is skipped, not built).
#[derive(Deserialize)]
struct Msg {
    #[serde(rename = "type")]
    ty: String,
    #[serde(default)]
    view: Option<ViewLite>,
    #[serde(default)]
    error: Option<Value>,
}

#[derive(Deserialize)]
struct ViewLite {
    #[serde(default)]
    move_number: u32,
    #[serde(default)]
    status: Value,
    #[serde(default)]
    legal_moves: Vec<Value>,
    #[serde(default)]
    last_move: Option<LastMove>,
    table: TableLite,
}

#[derive(Deserialize)]
struct LastMove {
    #[serde(default)]
    seat: Option<u64>,
}

#[derive(Deserialize)]
struct TableLite {
    status: String,
    game_no: u64,
}

struct Client {
    http: reqwest::Client,
    url: String,
    ws: String,
    id: String,
    seat: u8,
    token: String,
    posted: Posted,
    stats: Arc<Stats>,
    think_ms: u64,
    seed: u64,
    measuring: Arc<AtomicBool>,
    idle: bool,
}

impl Client {
    async fn run(
        self,
        sem: Arc<Semaphore>,
        bar: ProgressBar,
        stop: Arc<tokio::sync::Notify>,
        connected: Arc<AtomicU64>,
    ) {
        let permit = sem.acquire().await;
        let config = WebSocketConfig::default()
            .read_buffer_size(8 * 1024)
            .write_buffer_size(0);
        let ws = match tokio_tungstenite::connect_async_with_config(&self.ws, Some(config), true)
            .await
        {
            Ok((ws, _)) => ws,
            Err(e) => {
                self.stats.error(format!("connect: {e}"));
                return;
            }
        };
        drop(permit);
        let (mut sink, mut stream) = ws.split();
        if sink
            .send(Message::Text(
                json!({"type": "hello", "token": self.token})
                    .to_string()
                    .into(),
            ))
            .await
            .is_err()
        {
            self.stats.error("hello failed".into());
            return;
        }
        connected.fetch_add(1, Ordering::Relaxed);
        bar.inc(1);
        let mut rng = sequence_common::rng::game_rng(self.seed);
        let mut acted_on: Option<(u64, u64)> = None;
        let me = Arc::new(self);
        loop {
            let msg = tokio::select! {
                m = stream.next() => m,
                _ = stop.notified() => break,
            };
            let Some(Ok(msg)) = msg else {
                if me.measuring.load(Ordering::Relaxed) {
                    me.stats.error("websocket closed".into());
                }
                break;
            };
            let Message::Text(text) = msg else { continue };
            let Ok(m) = serde_json::from_str::<Msg>(&text) else {
                me.stats.error("unparsable message".into());
                continue;
            };
            match m.ty.as_str() {
                "error" => me
                    .stats
                    .error(format!("ws error {}", m.error.unwrap_or(Value::Null))),
                "view" => {
                    let Some(view) = m.view else { continue };
                    let n = view.move_number;
                    let game_no = view.table.game_no;
                    // the other seat made move n-1 → n
                    let last_seat = view.last_move.as_ref().and_then(|l| l.seat);
                    if last_seat.is_some() && last_seat != Some(me.seat as u64) {
                        let sent = me.posted.lock().ok().and_then(|mut p| p.remove(&n));
                        if let Some(sent) = sent {
                            if me.measuring.load(Ordering::Relaxed) {
                                if let Ok(mut l) = me.stats.latencies_us.lock() {
                                    l.push(sent.elapsed().as_micros() as u64);
                                }
                            }
                        }
                    }
                    if view.status != "playing" {
                        if view.table.status == "over"
                            && me.seat == 0
                            && !me.idle
                            && acted_on != Some((game_no, u64::MAX))
                        {
                            acted_on = Some((game_no, u64::MAX));
                            me.stats.games.fetch_add(1, Ordering::Relaxed);
                            let me2 = me.clone();
                            tokio::spawn(async move { me2.rematch().await });
                        }
                        continue;
                    }
                    if me.idle
                        || view.legal_moves.is_empty()
                        || acted_on == Some((game_no, n as u64))
                    {
                        continue;
                    }
                    acted_on = Some((game_no, n as u64));
                    let Some(mv) = view.legal_moves.choose(&mut rng).cloned() else {
                        continue;
                    };
                    let think = rng.random_range(me.think_ms / 2..=me.think_ms * 3 / 2 + 1);
                    let me2 = me.clone();
                    tokio::spawn(async move { me2.play(n, mv, think).await });
                }
                _ => {}
            }
        }
        connected.fetch_sub(1, Ordering::Relaxed);
    }

    async fn play(self: Arc<Self>, n: u32, mv: Value, think_ms: u64) {
        tokio::time::sleep(Duration::from_millis(think_ms)).await;
        if let Ok(mut p) = self.posted.lock() {
            p.insert(n + 1, Instant::now());
        }
        let r = self
            .http
            .post(format!("{}/api/tables/{}/moves", self.url, self.id))
            .bearer_auth(&self.token)
            .json(&json!({"move_number": n, "move": mv}))
            .send()
            .await;
        match r {
            Ok(r) if r.status().is_success() => {
                self.stats.moves.fetch_add(1, Ordering::Relaxed);
                let _ = r.bytes().await;
            }
            Ok(r) if r.status().as_u16() == 409 => {
                self.stats.conflicts.fetch_add(1, Ordering::Relaxed);
                let _ = r.bytes().await;
            }
            Ok(r) => {
                let s = r.status();
                let b = r.text().await.unwrap_or_default();
                self.stats.error(format!("POST move {s}: {b}"));
            }
            Err(e) => self.stats.error(format!("POST move: {e}")),
        }
    }

    async fn rematch(self: Arc<Self>) {
        let r = self
            .http
            .post(format!("{}/api/tables/{}/rematch", self.url, self.id))
            .bearer_auth(&self.token)
            .send()
            .await;
        match r {
            Ok(r) if r.status().is_success() => {}
            Ok(r) => self.stats.error(format!("rematch {}", r.status())),
            Err(e) => self.stats.error(format!("rematch: {e}")),
        }
    }
}
