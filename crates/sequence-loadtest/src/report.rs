//! The load test's results: a JSON object (`--out`) and a Markdown table
//! on stdout.

use crate::client::Stats;
use crate::LoadtestConfig;
use serde_json::{json, Value};
use std::sync::atomic::Ordering;

/// The servers' resident memory in KiB at each point of the run.
#[derive(Default)]
pub(crate) struct Memory {
    pub(crate) start: u64,
    pub(crate) tables: u64,
    pub(crate) sockets: u64,
    pub(crate) end: u64,
    pub(crate) peak: u64,
}

/// What the run measured, besides the clients' counts.
pub(crate) struct Figures {
    pub(crate) instances: usize,
    /// Whether the servers are this tool's children (memory and CPU read).
    pub(crate) servers_measured: bool,
    pub(crate) connected: u64,
    pub(crate) still: u64,
    pub(crate) elapsed: f64,
    pub(crate) cpu: f64,
    pub(crate) tx: (Option<i64>, Option<i64>),
    pub(crate) memory: Memory,
    pub(crate) fds: u64,
}

/// The `p`-quantile of sorted latencies in µs, in ms (NaN for none).
fn quantile(lat: &[u64], p: f64) -> f64 {
    if lat.is_empty() {
        return f64::NAN;
    }
    let i = ((lat.len() as f64 - 1.0) * p).round() as usize;
    lat[i] as f64 / 1000.0
}

/// The results as JSON.
pub(crate) fn results(args: &LoadtestConfig, f: &Figures, stats: &Stats) -> Value {
    let mut lat = stats
        .latencies_us
        .lock()
        .map(|l| l.clone())
        .unwrap_or_default();
    lat.sort_unstable();
    let pct = |p: f64| quantile(&lat, p);
    let mem = &f.memory;
    let elapsed = f.elapsed;
    let moves = stats.moves.load(Ordering::Relaxed);
    let conflicts = stats.conflicts.load(Ordering::Relaxed);
    let errors = stats.errors.load(Ordering::Relaxed) + (f.connected - f.still.min(f.connected));
    let per_table_kib = if args.tables > 0 && f.servers_measured {
        (mem.tables as f64 - mem.start as f64) / args.tables as f64
    } else {
        f64::NAN
    };
    let per_socket_kib = if f.connected > 0 && f.servers_measured {
        (mem.sockets as f64 - mem.tables as f64) / f.connected as f64
    } else {
        f64::NAN
    };
    // a busy socket: what the server grew by from the tables alone to its
    // peak while the sockets played (their games' growth included)
    let per_busy_socket_kib = if f.connected > 0 && f.servers_measured && !args.idle {
        (mem.peak.max(mem.sockets) as f64 - mem.tables as f64) / f.connected as f64
    } else {
        f64::NAN
    };
    let cpu_ms_per_move = if moves > 0 && f.servers_measured {
        1000.0 * f.cpu / moves as f64
    } else {
        f64::NAN
    };
    let tx_per_s = match f.tx {
        (Some(a), Some(b)) => Some((b - a - 1) as f64 / elapsed),
        _ => None,
    };
    json!({
        "instances": f.instances,
        "tables": args.tables,
        "warm_moves": args.warm_moves,
        "idle": args.idle,
        "websocket_clients_connected": f.connected,
        "websocket_clients_at_end": f.still,
        "seconds": elapsed,
        "moves": moves,
        "moves_per_second": moves as f64 / elapsed,
        "games_finished": stats.games.load(Ordering::Relaxed),
        "move_to_push_ms": {"samples": lat.len(), "p50": pct(0.5), "p90": pct(0.9), "p99": pct(0.99), "max": pct(1.0)},
        "errors": errors,
        "conflicts_409": conflicts,
        "throttled_429_503": stats.throttled.load(Ordering::Relaxed),
        "error_kinds": stats.error_kinds.lock().map(|m| json!(*m)).unwrap_or(json!({})),
        "server_rss_mib": {
            "start": mem.start as f64 / 1024.0,
            "with_tables": mem.tables as f64 / 1024.0,
            "with_sockets": mem.sockets as f64 / 1024.0,
            "end": mem.end as f64 / 1024.0,
            "peak": mem.peak as f64 / 1024.0,
        },
        "kib_per_table": per_table_kib,
        "kib_per_socket": per_socket_kib,
        "kib_per_busy_socket": per_busy_socket_kib,
        "server_cpu_percent": if f.servers_measured { 100.0 * f.cpu / elapsed } else { f64::NAN },
        "server_cpu_seconds": if f.servers_measured { f.cpu } else { f64::NAN },
        "server_cpu_ms_per_move": cpu_ms_per_move,
        "database_transactions_per_second": tx_per_s,
        "rss_of": if f.servers_measured { "the server processes started" } else { "not measured (the servers run elsewhere)" },
        "open_file_limit": f.fds,
    })
}

/// Prints the results (`r`, from [`results`]) as a Markdown table.
pub(crate) fn print_table(args: &LoadtestConfig, f: &Figures, r: &Value) {
    let num = |v: &Value| v.as_f64().unwrap_or(f64::NAN);
    let lat = &r["move_to_push_ms"];
    let (moves, errors) = (&r["moves"], &r["errors"]);
    let mem = &f.memory;
    println!("| figure | value |\n| --- | --- |");
    println!("| instances | {} |", f.instances);
    println!("| tables | {} |", args.tables);
    println!(
        "| WebSocket clients connected (at end) | {} ({}) |",
        f.connected, f.still
    );
    println!(
        "| moves in {:.0} s | {moves} ({:.0}/s) |",
        f.elapsed,
        num(&r["moves_per_second"])
    );
    println!(
        "| move POST → other seat's push{}, p50 / p90 / p99 / max | {:.1} / {:.1} / {:.1} / {:.1} ms |",
        if f.instances > 1 { " (another instance)" } else { "" },
        num(&lat["p50"]),
        num(&lat["p90"]),
        num(&lat["p99"]),
        num(&lat["max"])
    );
    println!("| errors | {errors} |");
    println!("| 409 answers | {} |", r["conflicts_409"]);
    println!(
        "| 429/503 answers (throttled; asked again after Retry-After) | {} |",
        r["throttled_429_503"]
    );
    if f.servers_measured {
        println!(
            "| server resident memory: start / tables / sockets / end (peak) | {:.0} / {:.0} / {:.0} / {:.0} ({:.0}) MiB |",
            mem.start as f64 / 1024.0,
            mem.tables as f64 / 1024.0,
            mem.sockets as f64 / 1024.0,
            mem.end as f64 / 1024.0,
            mem.peak as f64 / 1024.0
        );
        println!(
            "| memory per table / per socket (connected; playing, to the peak) | {:.1} / {:.1}; {:.1} KiB |",
            num(&r["kib_per_table"]),
            num(&r["kib_per_socket"]),
            num(&r["kib_per_busy_socket"])
        );
        println!(
            "| server CPU | {:.0} % of one core, {:.3} ms per accepted move |",
            100.0 * f.cpu / f.elapsed,
            num(&r["server_cpu_ms_per_move"])
        );
    }
    if let Some(t) = r["database_transactions_per_second"].as_f64() {
        println!("| database transactions per second | {t:.1} |");
    }
    if errors.as_u64().unwrap_or(0) > 0 {
        println!("error kinds: {}", r["error_kinds"]);
    }
}
