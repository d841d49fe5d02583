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
//! itself (children of the running binary, which must be `sequence`; no
//! per-address rate limit or cap, WebSocket upgrades included, no bot
//! delay) on `--db` (default: SQLite in a
//! temporary folder, one instance) so that the servers' memory and CPU are
//! measured alone.
//!
//! The settings are a plain [`LoadtestConfig`]; the `sequence` binary
//! reads them from its command line, and draws the progress reported
//! through [`Progress`].

mod client;
mod procs;
mod progress;
mod report;

pub use procs::{cpu_seconds, raise_fd_limit, rss_kib, spawn_server};
pub use progress::{NoProgress, Phase, Progress};

use client::{create, warm_up, Client, Posted, Stats};
use procs::{pg_transactions, spawn_servers, total_cpu, total_rss, Children};
use report::{Figures, Memory};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;

/// A load test's settings (`sequence loadtest`'s arguments).
#[derive(Debug, Clone)]
pub struct LoadtestConfig {
    /// Number of concurrent two-seat tables (two WebSocket clients each).
    pub tables: u32,
    /// A server to drive (e.g. `http://127.0.0.1:8080`; run it with
    /// `--rate-limit 0`). Repeat it to drive several instances of one
    /// PostgreSQL database at once: each table's seats then connect to two
    /// different instances. Default: start servers (`--instances`).
    pub servers: Vec<String>,
    /// Without `--server`: how many `sequence serve` processes to start
    /// (more than one needs `--db postgres://…`).
    pub instances: u32,
    /// The database of the servers started (default: SQLite in a temporary
    /// folder). A `postgres://` URL is also read, with or without
    /// `--server`, to count the database's transactions per second.
    pub db: Option<String>,
    /// WebSockets per table: 2 (both seats play) or 0 (tables only, to
    /// measure their memory).
    pub sockets: u8,
    /// Nobody moves while measuring: the sockets stay open (the idle cost:
    /// memory, CPU, database queries).
    pub idle: bool,
    /// Moves each table plays over HTTP before the sockets connect, so that
    /// the games measured are under way.
    pub warm_moves: u32,
    /// Seconds to measure once every client is connected.
    pub seconds: u64,
    /// Seconds the WebSocket clients have to connect: a refused upgrade
    /// (429/503) is asked again after its `Retry-After` until then; the
    /// run then goes on with those connected and counts the others as
    /// errors (with the server's answer).
    pub connect_seconds: u64,
    /// Mean think time of a seat before each move, in milliseconds.
    pub think_ms: u64,
    /// Write the results as JSON to this file.
    pub out: Option<PathBuf>,
    /// Seed for the clients' move choices and think times.
    pub seed: u64,
    /// Without `--server`: the `sequence` binary whose `serve` is started
    /// (default: the running one), to compare builds under one load
    /// generator.
    pub server_exe: Option<PathBuf>,
}

/// Runs `sequence loadtest`, reporting each phase's progress to
/// `progress`; prints the results (and writes them to `args.out`).
///
/// # Errors
/// The servers cannot be started or reached, or a table cannot be created.
pub fn run_loadtest(args: LoadtestConfig, progress: Arc<dyn Progress>) -> anyhow::Result<()> {
    let fds = raise_fd_limit();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    rt.block_on(run(args, fds, progress))
}

/// The servers driven: their URLs and, for servers this tool started,
/// their process ids (memory and CPU are read for those) and the handle
/// that stops them.
struct Servers {
    urls: Vec<String>,
    pids: Vec<String>,
    _kids: Children,
}

impl Servers {
    fn of(args: &LoadtestConfig) -> anyhow::Result<Servers> {
        let (urls, kids, pids) = if args.servers.is_empty() {
            spawn_servers(
                args.instances,
                args.db.as_deref(),
                args.server_exe.as_deref(),
            )?
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
        Ok(Servers {
            urls,
            pids,
            _kids: kids,
        })
    }
}

async fn run(args: LoadtestConfig, fds: u64, progress: Arc<dyn Progress>) -> anyhow::Result<()> {
    if args.sockets == 1 || args.sockets > 2 {
        anyhow::bail!(
            "--sockets {}: give 2 (both seats play) or 0 (tables only)",
            args.sockets
        );
    }
    let servers = Servers::of(&args)?;
    let (urls, pids) = (&servers.urls, &servers.pids);
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
    let mut memory = Memory {
        start: total_rss(pids),
        ..Memory::default()
    };
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(4096)
        .timeout(Duration::from_secs(30))
        .build()?;
    let stats = Arc::new(Stats::default());
    let sem = Arc::new(Semaphore::new(64));
    let tables = create_tables(&args, &http, urls, &sem, &progress).await?;
    tokio::time::sleep(Duration::from_millis(500)).await;
    memory.tables = total_rss(pids);
    let clients = connect_clients(&args, &http, urls, &tables, &sem, &stats, &progress).await;
    let n_connected = clients.connected.load(Ordering::Relaxed);
    let n_failed = clients.failed.load(Ordering::Relaxed);
    if n_failed > 0 {
        eprintln!(
            "loadtest: {n_failed} WebSocket client(s) could not connect (see the error kinds)"
        );
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    memory.sockets = total_rss(pids);
    let measured = measure(
        &args,
        pids,
        pg_url.as_deref(),
        &stats,
        &clients.measuring,
        &*progress,
    )
    .await;
    memory.peak = measured.peak_rss;
    let still = clients.connected.load(Ordering::Relaxed);
    clients.stop.notify_waiters();
    memory.end = total_rss(pids);
    let figures = Figures {
        instances: n,
        servers_measured: !pids.is_empty(),
        connected: n_connected,
        still,
        elapsed: measured.elapsed,
        cpu: measured.cpu,
        tx: measured.tx,
        memory,
        fds,
    };
    let result = report::results(&args, &figures, &stats);
    report::print_table(&args, &figures, &result);
    if let Some(p) = &args.out {
        std::fs::write(p, serde_json::to_string_pretty(&result)?)?;
        println!("results written to {}", p.display());
    }
    for c in clients.handles {
        c.abort();
    }
    Ok(())
}

/// Phase 1, the tables: table `i` made on instance `i`, joined on
/// instance `i + 1`, and warmed up by `--warm-moves` moves; each one's id
/// and seat tokens.
async fn create_tables(
    args: &LoadtestConfig,
    http: &reqwest::Client,
    urls: &[String],
    sem: &Arc<Semaphore>,
    progress: &Arc<dyn Progress>,
) -> anyhow::Result<Vec<(String, Vec<String>)>> {
    let n = urls.len();
    progress.start(Phase::Tables, args.tables as u64);
    let mut handles = vec![];
    for i in 0..args.tables {
        let http = http.clone();
        let (a, b) = (
            urls[i as usize % n].clone(),
            urls[(i as usize + 1) % n].clone(),
        );
        let sem = sem.clone();
        let progress = progress.clone();
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
            progress.step();
            r
        }));
    }
    let mut tables = vec![];
    for h in handles {
        tables.push(h.await??);
    }
    progress.finish();
    Ok(tables)
}

/// The WebSocket clients of phase 2, and what the run tells them.
struct Clients {
    handles: Vec<tokio::task::JoinHandle<()>>,
    /// Clients connected now.
    connected: Arc<AtomicU64>,
    /// Clients that could not connect (refused, or not by the deadline).
    failed: Arc<AtomicU64>,
    /// Whether the measuring window is open.
    measuring: Arc<AtomicBool>,
    /// Tells every client to stop.
    stop: Arc<tokio::sync::Notify>,
}

/// Phase 2, the clients: seat `s` of table `i` on instance `i + s`
/// (none with `--sockets 0`); returns once each one is connected or has
/// failed to (by `--connect-seconds`).
async fn connect_clients(
    args: &LoadtestConfig,
    http: &reqwest::Client,
    urls: &[String],
    tables: &[(String, Vec<String>)],
    sem: &Arc<Semaphore>,
    stats: &Arc<Stats>,
    progress: &Arc<dyn Progress>,
) -> Clients {
    let n = urls.len();
    let n_sockets = if args.sockets == 2 {
        2 * args.tables
    } else {
        0
    };
    progress.start(Phase::Websockets, n_sockets as u64);
    let clients = Clients {
        handles: vec![],
        connected: Arc::new(AtomicU64::new(0)),
        failed: Arc::new(AtomicU64::new(0)),
        measuring: Arc::new(AtomicBool::new(false)),
        stop: Arc::new(tokio::sync::Notify::new()),
    };
    let mut clients = clients;
    let deadline = Instant::now() + Duration::from_secs(args.connect_seconds);
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
                    measuring: clients.measuring.clone(),
                    idle: args.idle,
                };
                let sem = sem.clone();
                let progress = progress.clone();
                let stop = clients.stop.clone();
                let connected = clients.connected.clone();
                let failed = clients.failed.clone();
                clients.handles.push(tokio::spawn(async move {
                    c.run(sem, progress, stop, connected, failed, deadline)
                        .await
                }));
            }
        }
        // a client that connected and closed again counts in neither
        // `connected` nor `failed`: the deadline ends the wait then
        while clients.connected.load(Ordering::Relaxed) + clients.failed.load(Ordering::Relaxed)
            < n_sockets as u64
            && Instant::now() < deadline + Duration::from_secs(1)
        {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    progress.finish();
    clients
}

/// What phase 3 measured.
struct Measured {
    /// Seconds of the window.
    elapsed: f64,
    /// The servers' CPU seconds in it.
    cpu: f64,
    /// PostgreSQL transactions before and after (with `--db postgres://…`).
    tx: (Option<i64>, Option<i64>),
    /// The servers' highest resident memory in KiB.
    peak_rss: u64,
}

/// Phase 3: `--seconds` of play with the window open.
async fn measure(
    args: &LoadtestConfig,
    pids: &[String],
    pg_url: Option<&str>,
    stats: &Stats,
    measuring: &AtomicBool,
    progress: &dyn Progress,
) -> Measured {
    let tx_start = match pg_url {
        Some(u) => pg_transactions(u).await,
        None => None,
    };
    let cpu_start = total_cpu(pids);
    measuring.store(true, Ordering::Relaxed);
    progress.start(Phase::Measuring, args.seconds);
    let started = Instant::now();
    let mut peak_rss = 0u64;
    for _ in 0..args.seconds {
        tokio::time::sleep(Duration::from_secs(1)).await;
        progress.step();
        progress.moves(stats.moves.load(Ordering::Relaxed));
        peak_rss = peak_rss.max(total_rss(pids));
    }
    measuring.store(false, Ordering::Relaxed);
    let elapsed = started.elapsed().as_secs_f64();
    let cpu = total_cpu(pids) - cpu_start;
    let tx_end = match pg_url {
        Some(u) => pg_transactions(u).await,
        None => None,
    };
    progress.finish();
    Measured {
        elapsed,
        cpu,
        tx: (tx_start, tx_end),
        peak_rss,
    }
}
