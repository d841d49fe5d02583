//! The `sequence` command: verify, replay and self-play game records,
//! benchmark the engines, run bot arenas, play in the terminal and serve
//! online play.

mod admin;
mod arena;
mod bench;
mod export;
mod games;
mod hint;
mod loadtest;
mod options;
mod play;
mod puzzles;
mod replay;
mod selfplay;
mod serve;
mod verify;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Sequence and Sequence Stacks.
#[derive(Debug, Parser)]
#[command(name = "sequence", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Replay a game record and check every move (RECORD.md "Verifying").
    Verify(verify::VerifyArgs),
    /// Show the board after each move of a record.
    Replay(replay::ReplayArgs),
    /// Play random legal games; print wins, draws and mean moves.
    Selfplay(SelfplayArgs),
    /// Random-playout throughput on one core.
    Bench(BenchArgs),
    /// Bots play each other; results as a table, CSV and SVG chart.
    Arena(arena::ArenaArgs),
    /// A game's rule options: name, rule, default and the values offered.
    Options(options::OptionsArgs),
    /// Best moves for a seat of an unfinished game.
    ///
    /// Exit 0 with the moves; 1 when the record holds an illegal move, the
    /// game is over or the seat is not to move; 2 for a bad argument or a
    /// file that cannot be read or is not a valid record (as `verify`).
    Hint(hint::HintArgs),
    /// Find puzzles in seeded self-play and write their data file.
    Puzzles(puzzles::PuzzlesArgs),
    /// Play in the terminal.
    ///
    /// Every argument (and the `--load` file) is checked before the screen
    /// opens: a refusal is printed on stderr with exit code 2.
    Play(play::PlayArgs),
    /// Run the game server with its web UI.
    Serve(Box<serve::ServeArgs>),
    /// Load-test a game server with real WebSocket clients.
    Loadtest(loadtest::LoadtestArgs),
    /// Copy a live SQLite database consistently while it serves, and check
    /// the copy (docs/deploy.md "Backup and restore").
    Backup(serve::BackupArgs),
    /// Check a backup and put it in place of an SQLite database no server
    /// is using.
    Restore(serve::RestoreArgs),
    /// Act on a running server with its admin token: list tables and
    /// sockets, close a table, rename a player, show the leases.
    Admin(admin::AdminArgs),
    /// Write the web UI with the WebAssembly engine to a folder any static
    /// file host serves (games against bots in the browser, offline).
    ExportStatic(export::ExportArgs),
}

/// An argument or input file a command refuses (exit code 2, as clap's
/// own errors).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct BadInput(pub String);

/// `sequence selfplay`.
#[derive(Debug, clap::Args)]
pub struct SelfplayArgs {
    /// Game: `classic` or `stacks`.
    #[arg(long, default_value = "classic")]
    pub game: sequence_common::GameKind,
    /// Number of players.
    #[arg(long)]
    pub players: u8,
    /// Number of teams (classic; defaults per C3).
    #[arg(long)]
    pub teams: Option<u8>,
    /// Number of games (at least 1).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..))]
    pub games: u32,
    /// Seed of the named generator (ChaCha8).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Rule options as JSON, e.g. `{"sequence_length":4}`.
    #[arg(long)]
    pub options: Option<String>,
    /// Write each game's record into this folder.
    #[arg(long)]
    pub out: Option<std::path::PathBuf>,
}

/// `sequence bench`.
#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    /// Game: `classic` or `stacks`.
    #[arg(long, default_value = "classic")]
    pub game: sequence_common::GameKind,
    /// Number of players (default 2 for classic, 4 for stacks).
    #[arg(long)]
    pub players: Option<u8>,
    /// Seconds to measure each figure (at least 0.1).
    #[arg(long, default_value_t = 3.0, value_parser = parse_bench_seconds)]
    pub seconds: f64,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Shortest `bench --seconds` that measures anything.
const MIN_BENCH_SECONDS: f64 = 0.1;

/// `bench --seconds`: a number of seconds, at least [`MIN_BENCH_SECONDS`]
/// (0 printed zeros; `inf` never ended).
fn parse_bench_seconds(text: &str) -> Result<f64, String> {
    let s: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("{text:?} is not a number of seconds"))?;
    if !s.is_finite() || s < MIN_BENCH_SECONDS {
        return Err(format!(
            "{text} seconds: give at least {MIN_BENCH_SECONDS} (and a finite number)"
        ));
    }
    Ok(s)
}

/// Reports a refused argument as clap does: on stderr, exit code 2.
fn usage_error(e: &anyhow::Error) -> ExitCode {
    eprintln!("error: {e:#}");
    ExitCode::from(2)
}

/// The log on stderr (`RUST_LOG` sets the level, `warn` by default): text,
/// or one JSON object a line (with its spans: the request id and table
/// id) for `serve --log-format json`.
fn init_logs(json: bool) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    let logs = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    if json {
        logs.json()
            .with_current_span(true)
            .with_span_list(false)
            .init();
    } else {
        logs.with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
            .init();
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // `serve`'s settings first: the log format is one of them.
    let serve = match &cli.command {
        Command::Serve(a) => match a.flags().load() {
            Ok(s) => Some(s),
            Err(e) => return usage_error(&e.into()),
        },
        _ => None,
    };
    init_logs(
        serve
            .as_ref()
            .is_some_and(|s| s.settings.log_format == sequence_server::LogFormat::Json),
    );
    // Output piped into a command that closes early (`| head`) ends the
    // program quietly, as other command-line tools do. Not for `arena`: it
    // talks to bot programs over pipes, and one that exits must lose its
    // game, not kill the arena.
    #[cfg(unix)]
    if !matches!(cli.command, Command::Arena(_)) {
        // SAFETY: restoring the default disposition of SIGPIPE before any
        // thread of ours exists has no other effect.
        unsafe {
            libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        }
    }
    let result = match cli.command {
        Command::Verify(a) => return verify::run(a),
        Command::Replay(a) => return replay::run(a),
        Command::Selfplay(a) => sequence_bots::with_game(a.game, a),
        Command::Bench(a) => sequence_bots::with_game(a.game, a),
        Command::Arena(a) => arena::run_arena(a),
        Command::Options(a) => options::run(&a),
        Command::Puzzles(a) => puzzles::run(a),
        Command::Hint(a) => {
            return match hint::run_hint(a) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {e:#}");
                    ExitCode::from(hint::hint_exit_code(&e))
                }
            }
        }
        Command::Play(a) => {
            // Arguments first: without a terminal, a bad argument is still
            // the thing to report.
            let config = sequence_tui::PlayConfig::from(a);
            let (app, seed) = match sequence_tui::app_from_config(&config) {
                Ok(x) => x,
                Err(e) => return usage_error(&e),
            };
            sequence_tui::run_app(app, seed, std::time::Duration::from_millis(config.pause))
        }
        Command::Serve(a) => {
            let Some(loaded) = serve else {
                unreachable!("serve's settings are loaded above")
            };
            if a.print_config {
                print!("{}", loaded.to_toml());
                return ExitCode::SUCCESS;
            }
            // Each WebSocket is a file descriptor.
            sequence_loadtest::raise_fd_limit();
            sequence_server::run_serve(&loaded.settings)
        }
        Command::Backup(a) => sequence_server::backup::run_backup(a.into()),
        Command::Admin(a) => admin::run(a),
        Command::ExportStatic(a) => export::run(a),
        Command::Restore(a) => sequence_server::backup::run_restore(a.into()),
        Command::Loadtest(a) => {
            if a.tables == 0 {
                return usage_error(&anyhow::anyhow!(
                    "--tables 0: give at least one table to measure"
                ));
            }
            if a.seconds == 0 {
                return usage_error(&anyhow::anyhow!(
                    "--seconds 0: give at least one second to measure"
                ));
            }
            sequence_loadtest::run_loadtest(
                a.config(),
                std::sync::Arc::new(loadtest::Bars::default()),
            )
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // A refused argument exits 2 in every command, as clap's own.
        Err(e) if e.downcast_ref::<BadInput>().is_some() => usage_error(&e),
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
