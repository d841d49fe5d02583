//! `sequence loadtest`: real clients over loopback. Creates `--tables`
//! two-seat classic tables, connects one WebSocket per seat (2 per table),
//! and has every seat play random legal moves by `POST …/moves` after a
//! think time. Measures, per move, the time from just before the POST is
//! sent to the moment the *other* seat's WebSocket receives the new view;
//! counts errors; reads the server's resident memory (VmRSS).
//!
//! Without `--url` it starts `sequence serve` itself (a child process of
//! the same binary, SQLite in a temporary folder, no per-address rate
//! limit, no bot delay) so that the server's memory is measured alone.

use clap::Args;
use futures_util::{SinkExt, StreamExt};
use indicatif::{ProgressBar, ProgressStyle};
use rand::seq::IndexedRandom;
use rand::Rng;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;
use tokio_tungstenite::tungstenite::Message;

/// `sequence loadtest`: drives real WebSocket clients against a server.
#[derive(Debug, Args, Clone)]
pub struct LoadtestArgs {
    /// Number of concurrent two-seat tables (two WebSocket clients each).
    #[arg(long, default_value_t = 100)]
    pub tables: u32,
    /// Server to test (e.g. `http://127.0.0.1:8080`; run it with
    /// `--rate-limit 0`). Default: start `sequence serve` on a free port.
    #[arg(long)]
    pub url: Option<String>,
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

#[derive(Default)]
struct Stats {
    latencies_us: Mutex<Vec<u64>>,
    errors: AtomicU64,
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

/// When each move was posted, by (table index, move number after it).
type Posted = Arc<Mutex<HashMap<u32, Instant>>>;

/// Runs `sequence loadtest`.
///
/// # Errors
/// The server cannot be started or reached, or a table cannot be created.
pub fn run_loadtest(args: LoadtestArgs) -> anyhow::Result<()> {
    let fds = raise_fd_limit();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    rt.block_on(run(args, fds))
}

struct Child {
    child: Option<std::process::Child>,
    dir: Option<PathBuf>,
}

impl Drop for Child {
    fn drop(&mut self) {
        if let Some(c) = self.child.as_mut() {
            let _ = c.kill();
            let _ = c.wait();
        }
        if let Some(d) = &self.dir {
            let _ = std::fs::remove_dir_all(d);
        }
    }
}

fn spawn_server() -> anyhow::Result<(String, Child, Option<String>)> {
    use std::io::BufRead;
    let exe = std::env::current_exe()?;
    let dir = std::env::temp_dir().join(format!("sequence-loadtest-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
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
        ])
        .arg(dir.join("loadtest.db"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::inherit())
        .spawn()?;
    let pid = child.id().to_string();
    let out = child
        .stdout
        .take()
        .ok_or_else(|| anyhow::anyhow!("no stdout from the server"))?;
    let guard = Child {
        child: Some(child),
        dir: Some(dir),
    };
    let mut line = String::new();
    std::io::BufReader::new(out).read_line(&mut line)?;
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .ok_or_else(|| anyhow::anyhow!("the server did not say where it listens: {line:?}"))?
        .to_string();
    Ok((url, guard, Some(pid)))
}

async fn run(args: LoadtestArgs, fds: u64) -> anyhow::Result<()> {
    let (url, _guard, pid) = match &args.url {
        Some(u) => (
            u.trim_end_matches('/').to_string(),
            Child {
                child: None,
                dir: None,
            },
            None,
        ),
        None => spawn_server()?,
    };
    eprintln!(
        "loadtest: server {url}, {} tables, open-file limit {fds}",
        args.tables
    );
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(4096)
        .timeout(Duration::from_secs(30))
        .build()?;
    let stats = Arc::new(Stats::default());
    // 1. tables
    let bar = ProgressBar::new(args.tables as u64);
    bar.set_style(
        ProgressStyle::with_template("{msg:12} {bar:40} {pos}/{len} {elapsed}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_message("tables");
    let sem = Arc::new(Semaphore::new(64));
    let mut handles = vec![];
    for i in 0..args.tables {
        let http = http.clone();
        let url = url.clone();
        let sem = sem.clone();
        let bar = bar.clone();
        handles.push(tokio::spawn(async move {
            let _p = sem.acquire().await;
            let r = create(&http, &url, i).await;
            bar.inc(1);
            r
        }));
    }
    let mut tables = vec![];
    for h in handles {
        tables.push(h.await??);
    }
    bar.finish();
    // 2. clients
    let bar = ProgressBar::new(2 * args.tables as u64);
    bar.set_style(
        ProgressStyle::with_template("{msg:12} {bar:40} {pos}/{len} {elapsed}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_message("websockets");
    let ws_base = url.replacen("http://", "ws://", 1);
    let stop = Arc::new(tokio::sync::Notify::new());
    let measuring = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let connected = Arc::new(AtomicU64::new(0));
    let mut clients = vec![];
    for (i, (id, tokens)) in tables.iter().enumerate() {
        let posted: Posted = Arc::new(Mutex::new(HashMap::new()));
        for (seat, token) in tokens.iter().enumerate() {
            let c = Client {
                http: http.clone(),
                url: url.clone(),
                ws: format!("{ws_base}/api/tables/{id}/ws"),
                id: id.clone(),
                seat: seat as u8,
                token: token.clone(),
                posted: posted.clone(),
                stats: stats.clone(),
                think_ms: args.think_ms,
                seed: args.seed ^ ((i as u64) << 8) ^ seat as u64,
                measuring: measuring.clone(),
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
    while connected.load(Ordering::Relaxed) < 2 * args.tables as u64 {
        if clients.iter().all(|c| c.is_finished()) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    bar.finish();
    let n_connected = connected.load(Ordering::Relaxed);
    // 3. measure
    measuring.store(true, Ordering::Relaxed);
    let bar = ProgressBar::new(args.seconds);
    bar.set_style(
        ProgressStyle::with_template("{msg:12} {bar:40} {pos}/{len}s moves {prefix}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_message("measuring");
    let started = Instant::now();
    let mut peak_rss = 0u64;
    for _ in 0..args.seconds {
        tokio::time::sleep(Duration::from_secs(1)).await;
        bar.inc(1);
        bar.set_prefix(stats.moves.load(Ordering::Relaxed).to_string());
        if let Some(r) = rss_kib(pid.as_deref().unwrap_or("self")) {
            peak_rss = peak_rss.max(r);
        }
    }
    measuring.store(false, Ordering::Relaxed);
    let elapsed = started.elapsed().as_secs_f64();
    bar.finish();
    let still = connected.load(Ordering::Relaxed);
    stop.notify_waiters();
    let rss = rss_kib(pid.as_deref().unwrap_or("self")).unwrap_or(0);
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
    let errors = stats.errors.load(Ordering::Relaxed) + (n_connected - still.min(n_connected));
    let result = json!({
        "tables": args.tables,
        "websocket_clients_connected": n_connected,
        "websocket_clients_at_end": still,
        "seconds": elapsed,
        "moves": moves,
        "moves_per_second": moves as f64 / elapsed,
        "games_finished": stats.games.load(Ordering::Relaxed),
        "latency_ms": {"samples": lat.len(), "p50": pct(0.5), "p90": pct(0.9), "p99": pct(0.99), "max": pct(1.0)},
        "errors": errors,
        "error_kinds": stats.error_kinds.lock().map(|m| json!(*m)).unwrap_or(json!({})),
        "server_rss_mib": rss as f64 / 1024.0,
        "server_peak_rss_mib": peak_rss as f64 / 1024.0,
        "rss_of": if pid.is_some() { "server process" } else { "this process (the server is elsewhere)" },
        "open_file_limit": fds,
    });
    println!("| figure | value |\n| --- | --- |");
    println!("| tables | {} |", args.tables);
    println!("| WebSocket clients connected (at end) | {n_connected} ({still}) |");
    println!(
        "| moves in {:.0} s | {moves} ({:.0}/s) |",
        elapsed,
        moves as f64 / elapsed
    );
    println!("| move POST → other seat's view, p50 / p90 / p99 / max | {:.1} / {:.1} / {:.1} / {:.1} ms |", pct(0.5), pct(0.9), pct(0.99), pct(1.0));
    println!("| errors | {errors} |");
    println!(
        "| server resident memory (peak) | {:.0} MiB ({:.0} MiB) |",
        rss as f64 / 1024.0,
        peak_rss as f64 / 1024.0
    );
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

async fn create(
    http: &reqwest::Client,
    url: &str,
    i: u32,
) -> anyhow::Result<(String, Vec<String>)> {
    let r: Value = http
        .post(format!("{url}/api/tables"))
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
        .post(format!("{url}/api/tables/{id}/join"))
        .json(&json!({"name": format!("load {i}b")}))
        .send()
        .await?
        .error_for_status()?
        .json()
        .await?;
    let t1 = j["token"].as_str().unwrap_or_default().to_string();
    Ok((id, vec![t0, t1]))
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
    measuring: Arc<std::sync::atomic::AtomicBool>,
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
        let ws = match tokio_tungstenite::connect_async(&self.ws).await {
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
            let Ok(v) = serde_json::from_str::<Value>(&text) else {
                me.stats.error("unparsable message".into());
                continue;
            };
            match v["type"].as_str() {
                Some("error") => me.stats.error(format!("ws error {}", v["error"])),
                Some("view") => {
                    let view = &v["view"];
                    let n = view["move_number"].as_u64().unwrap_or(0) as u32;
                    let game_no = view["table"]["game_no"].as_u64().unwrap_or(0);
                    if let Some(sent) = me.posted.lock().ok().and_then(|mut p| {
                        // the other seat made move n-1 → n
                        let last_seat = view["last_move"]["seat"].as_u64();
                        if last_seat.is_some() && last_seat != Some(me.seat as u64) {
                            p.remove(&n)
                        } else {
                            None
                        }
                    }) {
                        if me.measuring.load(Ordering::Relaxed) {
                            if let Ok(mut l) = me.stats.latencies_us.lock() {
                                l.push(sent.elapsed().as_micros() as u64);
                            }
                        }
                    }
                    if view["status"] != "playing" {
                        if view["table"]["status"] == "over"
                            && me.seat == 0
                            && acted_on != Some((game_no, u64::MAX))
                        {
                            acted_on = Some((game_no, u64::MAX));
                            me.stats.games.fetch_add(1, Ordering::Relaxed);
                            let me2 = me.clone();
                            tokio::spawn(async move { me2.rematch().await });
                        }
                        continue;
                    }
                    let legal = view["legal_moves"].as_array().cloned().unwrap_or_default();
                    if legal.is_empty() || acted_on == Some((game_no, n as u64)) {
                        continue;
                    }
                    acted_on = Some((game_no, n as u64));
                    let Some(mv) = legal.choose(&mut rng).cloned() else {
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
