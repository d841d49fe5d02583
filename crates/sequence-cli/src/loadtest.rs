//! `sequence loadtest`: its arguments, read into the load generator's
//! settings ([`sequence_loadtest::LoadtestConfig`]), and its progress bars
//! ([`Bars`]).

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use sequence_loadtest::{Phase, Progress};
use std::path::PathBuf;

/// `--server`: an `http://HOST:PORT` URL (`notaurl` is refused as an
/// argument, exit 2).
fn server_url(s: &str) -> Result<String, String> {
    let rest = s
        .strip_prefix("http://")
        .or_else(|| s.strip_prefix("https://"))
        .unwrap_or_default();
    if rest.trim_end_matches('/').is_empty() {
        return Err(format!(
            "{s:?} is not a server URL such as http://127.0.0.1:8080"
        ));
    }
    Ok(s.to_string())
}

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
    #[arg(long = "server", alias = "url", value_name = "URL", value_parser = server_url)]
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
    /// Seconds the WebSocket clients have to connect: a refused upgrade
    /// (429/503) is asked again after its `Retry-After` until then; the
    /// run goes on with those connected and counts the others as errors.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub connect_seconds: u64,
    /// Mean think time of a seat before each move, in milliseconds.
    #[arg(long, default_value_t = 2000)]
    pub think_ms: u64,
    /// Write the results as JSON to this file.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Seed for the clients' move choices and think times.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Without `--server`: the `sequence` binary whose `serve` is started
    /// (default: this one), e.g. an older build to compare with.
    #[arg(long, value_name = "PATH")]
    pub server_exe: Option<PathBuf>,
}

impl LoadtestArgs {
    /// The load generator's settings.
    pub fn config(self) -> sequence_loadtest::LoadtestConfig {
        sequence_loadtest::LoadtestConfig {
            tables: self.tables,
            servers: self.servers,
            instances: self.instances,
            db: self.db,
            sockets: self.sockets,
            idle: self.idle,
            warm_moves: self.warm_moves,
            seconds: self.seconds,
            connect_seconds: self.connect_seconds,
            think_ms: self.think_ms,
            out: self.out,
            seed: self.seed,
            server_exe: self.server_exe,
        }
    }
}

/// The load test's progress as bars on stderr, one a phase (hidden when
/// stderr is not a terminal).
#[derive(Default)]
pub struct Bars {
    /// The bar of the phase under way.
    bar: std::sync::Mutex<Option<ProgressBar>>,
}

/// Each phase's bar: `tables`, `websockets` count their steps, `measuring`
/// its seconds and the moves played.
fn style_of(phase: Phase) -> (&'static str, &'static str) {
    const BAR: &str = "{msg:12} {bar:40} {pos}/{len} {elapsed}";
    match phase {
        Phase::Tables => ("tables", BAR),
        Phase::Websockets => ("websockets", BAR),
        Phase::Measuring => ("measuring", "{msg:12} {bar:40} {pos}/{len}s moves {prefix}"),
    }
}

impl Bars {
    /// The bar under way, if any (a poisoned lock still holds it).
    fn current(&self) -> Option<ProgressBar> {
        self.bar
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }
}

impl Progress for Bars {
    fn start(&self, phase: Phase, len: u64) {
        let (msg, template) = style_of(phase);
        let bar = ProgressBar::new(len);
        bar.set_style(
            ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar.set_message(msg);
        *self
            .bar
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(bar);
    }

    fn step(&self) {
        if let Some(bar) = self.current() {
            bar.inc(1);
        }
    }

    fn moves(&self, moves: u64) {
        if let Some(bar) = self.current() {
            bar.set_prefix(moves.to_string());
        }
    }

    fn finish(&self) {
        if let Some(bar) = self.current() {
            bar.finish();
        }
    }
}
