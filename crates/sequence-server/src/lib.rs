#![warn(missing_docs)]
//! The game server (`sequence serve`), its web UI and the load tool
//! (`sequence loadtest`). The API is documented in docs/api.md.
//!
//! * the table core: [`tables`] (table state rebuilt from events, the live
//!   game written once for both games, views for seats and spectators,
//!   [`tables::TableError`]); [`app`] (the shared state, opening a table,
//!   the commit path, moves, bots, timers); [`db`] (the event log in
//!   SQLite or PostgreSQL); [`bots`] (bot glue); [`auth`] (tokens);
//! * the HTTP layer: [`routes`] (one file per resource), [`ws`] (the table
//!   WebSocket), [`input`] (reading bodies, paths, queries and the seat
//!   token, with errors in words), [`error`] (error answers: the one place
//!   a table refusal gets its HTTP status), [`limits`] (rate limits and
//!   text caps), [`assets`] (the embedded web UI);
//! * [`analysis`]: the search worker (analyses of finished games, hints)
//!   off the async runtime;
//! * [`config`]: settings; [`loadtest`]: the load tool.

pub mod analysis;
pub mod app;
pub mod assets;
pub mod auth;
pub mod bots;
pub mod config;
pub mod db;
pub mod error;
pub mod input;
pub mod limits;
pub mod loadtest;
pub mod routes;
pub mod tables;
pub mod ws;

use app::App;
use clap::Args;
pub use config::ServerConfig;
pub use loadtest::{run_loadtest, LoadtestArgs};
pub use routes::{router, CONTENT_SECURITY_POLICY};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

/// `sequence serve`: HTTP + WebSocket server.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub listen: String,
    /// Database: an SQLite file path (WAL mode) or a `postgres://` URL.
    #[arg(long, default_value = "sequence.db")]
    pub db: String,
    /// HTTP requests per second allowed per client address (0: no limit).
    #[arg(long, default_value_t = 20)]
    pub rate_limit: u32,
    /// Burst size of the per-address rate limit.
    #[arg(long, default_value_t = 60)]
    pub rate_burst: u32,
    /// Pause before each bot move, in milliseconds.
    #[arg(long, default_value_t = 500)]
    pub bot_delay_ms: u64,
    /// Search iterations per position of a finished game's analysis (the
    /// most a request may ask for; each position's search runs on one
    /// low-priority thread).
    #[arg(long, default_value_t = analysis::ITERATIONS.1)]
    pub analysis_iterations: u64,
}

/// A server running in the background (for tests and the load tool).
pub struct Running {
    /// The address it listens on.
    pub addr: SocketAddr,
    /// The shared state.
    pub app: Arc<App>,
    task: tokio::task::JoinHandle<()>,
}

impl Running {
    /// Stops serving.
    pub fn abort(&self) {
        self.task.abort();
    }
}

/// Opens the database, resumes unfinished games (bots move again) and
/// serves on `listen` (port 0 picks a free port) until the runtime stops.
///
/// # Errors
/// The database cannot be opened or the address bound.
pub async fn start(cfg: ServerConfig, listen: &str) -> anyhow::Result<Running> {
    let db = db::Db::open(&cfg.db).await?;
    let app = Arc::new(App::new(db, cfg));
    for id in app.db.tables_with_status("playing", 100_000).await? {
        if let Err(e) = app.table(&id).await {
            tracing::error!(table = %id, "cannot resume: {e}");
        }
    }
    check_listen(listen)?;
    let listener = tokio::net::TcpListener::bind(listen)
        .await
        .map_err(|e| listen_error(listen, &e))?;
    let addr = listener.local_addr()?;
    let timers = app.clone();
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_millis(200));
        loop {
            tick.tick().await;
            app::check_timers(&timers).await;
        }
    });
    if app.db.shared() {
        // other instances may change tables this one pushes views for
        let poll = app.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(Duration::from_millis(300));
            loop {
                tick.tick().await;
                for tref in poll.all_tables() {
                    let mut t = tref.lock().await;
                    if !t.subs.is_empty() {
                        if let Err(e) = poll.sync(&mut t).await {
                            tracing::warn!(table = %t.core.id, "sync: {e}");
                        }
                    }
                }
            }
        });
    }
    let router = router(app.clone());
    let task = tokio::spawn(async move {
        let svc = router.into_make_service_with_connect_info::<SocketAddr>();
        if let Err(e) = axum::serve(listener, svc).await {
            tracing::error!("server stopped: {e}");
        }
    });
    tracing::info!(%addr, "serving");
    Ok(Running { addr, app, task })
}

/// Refuses a `--listen` value that is not `HOST:PORT` (an IP address or a
/// host name, and a port number) before any name lookup, so that `:8080`
/// or `127.0.0.1` get the same words as other malformed values.
fn check_listen(listen: &str) -> anyhow::Result<()> {
    if listen.parse::<SocketAddr>().is_ok() {
        return Ok(());
    }
    let ok = listen.rsplit_once(':').is_some_and(|(host, port)| {
        !host.trim().is_empty() && !host.contains(':') && port.parse::<u16>().is_ok()
    });
    if ok {
        Ok(())
    } else {
        let shown: String = listen.chars().take(100).collect();
        Err(anyhow::anyhow!(
            "cannot listen on {shown:?}: not an address like 127.0.0.1:8080 or [::1]:8080 \
             (a host and a port)"
        ))
    }
}

/// Why `serve` cannot listen on `listen`, naming the address.
fn listen_error(listen: &str, e: &std::io::Error) -> anyhow::Error {
    let shown: String = listen.chars().take(100).collect();
    match e.kind() {
        std::io::ErrorKind::AddrInUse => {
            anyhow::anyhow!(
                "cannot listen on {shown}: the address is already in use (another server there?)"
            )
        }
        std::io::ErrorKind::AddrNotAvailable => {
            anyhow::anyhow!("cannot listen on {shown}: the address is not one of this machine's")
        }
        std::io::ErrorKind::PermissionDenied => {
            anyhow::anyhow!(
                "cannot listen on {shown}: permission denied (ports below 1024 need privileges)"
            )
        }
        std::io::ErrorKind::InvalidInput => anyhow::anyhow!(
            "cannot listen on {shown:?}: not an address like 127.0.0.1:8080 or [::1]:8080 ({e})"
        ),
        _ if listen.parse::<SocketAddr>().is_err() => {
            anyhow::anyhow!("cannot listen on {shown}: the host name is not known here ({e})")
        }
        _ => anyhow::anyhow!("cannot listen on {shown}: {e}"),
    }
}

/// Runs `sequence serve`: prints the address and serves until killed.
///
/// # Errors
/// The database cannot be opened or the address bound.
pub fn run_serve(args: ServeArgs) -> anyhow::Result<()> {
    loadtest::raise_fd_limit();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    rt.block_on(async {
        let cfg = ServerConfig {
            db: args.db.clone(),
            rate_limit: args.rate_limit,
            rate_burst: args.rate_burst,
            bot_delay: Duration::from_millis(args.bot_delay_ms),
            analysis_iterations: args.analysis_iterations.max(1),
        };
        let running = start(cfg, &args.listen).await?;
        println!(
            "sequence serve: listening on http://{} (database {})",
            running.addr, args.db
        );
        let _ = running.task.await;
        Ok(())
    })
}
