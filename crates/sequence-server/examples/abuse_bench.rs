//! A normal player's move latency while hostile clients attack the
//! server, against a quiet baseline (docs/deploy.md, "Limits against slow
//! and hostile clients"):
//!
//! ```sh
//! cargo run --release -p sequence-server --example abuse_bench -- [--moves 150] [--out DIR] [--only WORDS]
//! ```
//!
//! `--only chat` runs only the scenarios whose name contains `chat` (and
//! the quiet baselines).
//!
//! The server runs in this process on a runtime of its own (2 threads,
//! the default limits but `--idle-timeout 10`, an SQLite file); the
//! attacking clients on another, the player on a third (one thread). The player (127.0.0.2) plays both seats of a
//! classic table for two by `POST …/moves`, a move every 100 ms (under
//! the default rate limit); the
//! latency is from sending a move to its whole answer. The attacks, each
//! alone: 600 slowloris sockets from 127.0.0.1 (opened at once, so they
//! also time out together; and opened over the header timeout), 200
//! WebSocket spectators of the player's table that never read, a chat
//! flood (20 WebSockets of one seat at another table sending as fast as
//! they can), and 2,000 idle WebSockets (spectators of another table,
//! from 4 addresses). Writes `abuse-bench.csv` into `--out` (default
//! `target`).

#[path = "../tests/common/abuse.rs"]
mod abuse;

use abuse::{Attack, Player};
use sequence_server::config::Limits;
use sequence_server::ServerConfig;
use std::io::Write as _;
use std::net::IpAddr;
use std::time::Duration;

/// One scenario's figures.
struct Row {
    name: String,
    p50: Duration,
    p99: Duration,
    max: Duration,
    note: String,
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let arg = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let moves: usize = arg("--moves").map_or(Ok(150), |v| v.parse())?;
    let out = std::path::PathBuf::from(arg("--out").unwrap_or_else(|| "target".into()));
    let only = arg("--only");
    sequence_server::listener::raise_fd_limit();
    let dir = tempfile::tempdir()?;
    let db = dir.path().join("bench.db").to_string_lossy().to_string();
    let server_rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    let cfg = ServerConfig {
        db,
        bot_delay: Duration::ZERO,
        limits: Limits {
            idle_timeout: Duration::from_secs(10),
            ..Limits::default()
        },
        ..ServerConfig::default()
    };
    let running = server_rt.block_on(sequence_server::start(cfg, "127.0.0.1:0"))?;
    let addr = running.addr;
    let clients = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    let rows = clients.block_on(scenarios(addr, moves, only.as_deref()))?;
    println!("| abuse | move p50 | move p99 | max | what the attack saw |");
    println!("| --- | --- | --- | --- | --- |");
    let ms = |d: Duration| format!("{:.1} ms", d.as_secs_f64() * 1000.0);
    std::fs::create_dir_all(&out)?;
    let mut csv = std::fs::File::create(out.join("abuse-bench.csv"))?;
    writeln!(csv, "abuse,p50_ms,p99_ms,max_ms,note")?;
    for r in &rows {
        println!(
            "| {} | {} | {} | {} | {} |",
            r.name,
            ms(r.p50),
            ms(r.p99),
            ms(r.max),
            r.note
        );
        writeln!(
            csv,
            "{},{:.2},{:.2},{:.2},\"{}\"",
            r.name,
            r.p50.as_secs_f64() * 1e3,
            r.p99.as_secs_f64() * 1e3,
            r.max.as_secs_f64() * 1e3,
            r.note
        )?;
    }
    running.abort();
    Ok(())
}

/// Plays `moves` moves on a runtime of the player's own (its own thread),
/// so that the attack's clients, busy on theirs, do not delay it.
fn play_apart(mut player: Player, moves: usize) -> anyhow::Result<(Player, Vec<Duration>)> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    player.reconnect()?;
    // a few moves to open the connections, then the measured ones
    rt.block_on(player.play(3, Duration::from_millis(100)))?;
    let lat = rt.block_on(player.play(moves, Duration::from_millis(100)))?;
    Ok((player, lat))
}

async fn scenarios(
    addr: std::net::SocketAddr,
    moves: usize,
    only: Option<&str>,
) -> anyhow::Result<Vec<Row>> {
    let base = format!("http://{addr}");
    let ip = |s: &str| s.parse::<IpAddr>().ok();
    let mut player = Player::new(&base, ip("127.0.0.2"), 1).await?;
    player.play(20, Duration::from_millis(20)).await?;
    let http = reqwest::Client::new();
    let mut rows = vec![];
    let header_timeout = Limits::default().header_timeout;
    for name in [
        "quiet",
        "slowloris, 600 at once",
        "slowloris, 600 over 10 s",
        "200 never-reading WebSockets",
        "chat flood",
        "2,000 idle WebSockets",
        "quiet again",
    ] {
        if only.is_some_and(|o| !name.contains(o) && !name.starts_with("quiet")) {
            continue;
        }
        let attack: Option<Attack> = match name {
            "slowloris, 600 at once" => Some(abuse::slowloris(
                addr,
                ip("127.0.0.1"),
                600,
                Duration::from_millis(500),
                Duration::ZERO,
            )),
            "slowloris, 600 over 10 s" => Some(abuse::slowloris(
                addr,
                ip("127.0.0.1"),
                600,
                Duration::from_millis(500),
                header_timeout,
            )),
            "200 never-reading WebSockets" => Some(abuse::never_reading(
                addr,
                ip("127.0.0.1"),
                player.table(),
                200,
            )),
            "chat flood" => Some(abuse::chat_flood(&http, addr, ip("127.0.0.1"), 20).await?),
            "2,000 idle WebSockets" => {
                let other = Player::new(&base, ip("127.0.0.7"), 2).await?;
                let from: Vec<IpAddr> =
                    (3..7).filter_map(|i| ip(&format!("127.0.0.{i}"))).collect();
                Some(abuse::idle_websockets(addr, &from, other.table(), 2000))
            }
            _ => None,
        };
        // let the attack get going
        if attack.is_some() {
            tokio::time::sleep(Duration::from_secs(2)).await;
        }
        let (p, lat) = tokio::task::spawn_blocking(move || play_apart(player, moves)).await??;
        player = p;
        let instance: serde_json::Value = http
            .get(format!("{base}/api/instance"))
            .send()
            .await?
            .json()
            .await?;
        let held = format!("server holds {} WebSockets", instance["websockets"]);
        let note = match attack {
            None => held,
            Some(a) => {
                let sent = a.sent.load(std::sync::atomic::Ordering::Relaxed);
                let closes = a.stop().await;
                let longest = closes.closed.iter().max().copied().unwrap_or_default();
                format!(
                    "{held}; {sent} {}; {} closed by the server (longest open {:.1} s), {} open at the end",
                    if name == "chat flood" { "lines sent" } else { "opened" },
                    closes.closed.len(),
                    longest.as_secs_f64(),
                    closes.open.len()
                )
            }
        };
        let row = Row {
            name: name.to_string(),
            p50: abuse::quantile(&lat, 0.5),
            p99: abuse::quantile(&lat, 0.99),
            max: abuse::quantile(&lat, 1.0),
            note,
        };
        eprintln!(
            "{}: p50 {:?}, p99 {:?} {}",
            row.name, row.p50, row.p99, row.note
        );
        rows.push(row);
        // connections closing after an attack settle before the next
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    Ok(rows)
}
