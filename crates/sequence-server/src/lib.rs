#![warn(missing_docs)]
//! The game server (`sequence serve`) and its web UI (the load tool of
//! `sequence loadtest` is the `sequence-loadtest` crate). The API is
//! documented in docs/api.md.
//!
//! * the table core: [`tables`] (table state rebuilt from events, the live
//!   game written once for both games, views for seats and spectators,
//!   [`tables::TableError`]); [`app`] (the shared state, opening a table,
//!   the commit path, moves, bots, timers); [`db`] (the event log in
//!   SQLite or PostgreSQL); [`cluster`] (several instances on one
//!   PostgreSQL: notifications, table ownership, takeover); [`bots`] (bot
//!   glue); [`auth`] (tokens);
//! * the HTTP layer: [`routes`] (one file per resource), [`ws`] (the table
//!   WebSocket), [`input`] (reading bodies, paths, queries and the seat
//!   token, with errors in words), [`error`] (error answers: the one place
//!   a table refusal gets its HTTP status), [`limits`] (rate limits and
//!   text caps), [`assets`] (the embedded web UI);
//! * [`analysis`]: the search worker (analyses of finished games, hints)
//!   off the async runtime;
//! * accounts and what lasts beyond a table: [`accounts`] (names,
//!   passwords, sessions, sign-in delays, passkeys), [`results`] (what a
//!   game's end stores), [`ratings`] (Glicko-2 and Weng-Lin), [`learn`]
//!   (puzzle and tutorial progress);
//! * the settings: [`settings`] (`serve`'s flags, environment, file),
//!   [`config`] (what the library takes); [`listener`]: accepting and serving
//!   connections under the limits against slow and hostile clients;
//! * [`telemetry`]: the metrics (`GET /metrics` on a private listener,
//!   [`routes::health`]).

pub mod accounts;
pub mod analysis;
pub mod app;
pub mod assets;
pub mod auth;
pub mod backup;
pub mod bots;
pub mod cluster;
pub mod config;
pub mod db;
pub mod error;
pub mod input;
pub mod learn;
pub mod limits;
pub mod listener;
pub mod notes;
pub mod ratings;
pub mod results;
pub mod routes;
pub mod settings;
pub mod tables;
pub mod telemetry;
pub mod ws;

use app::App;
pub use config::{ClusterConfig, ServerConfig};
pub use routes::{router, CONTENT_SECURITY_POLICY};
pub use settings::{LogFormat, ServeFlags, ServeSettings};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

/// A server running in the background (for tests and the load tool).
pub struct Running {
    /// The address it listens on.
    pub addr: SocketAddr,
    /// The shared state.
    pub app: Arc<App>,
    /// Where `/metrics` is served, if it is.
    pub metrics_addr: Option<SocketAddr>,
    task: tokio::task::JoinHandle<()>,
    metrics_task: Option<tokio::task::JoinHandle<()>>,
}

impl Running {
    /// Stops serving at once, as if the process died: no new connection is
    /// taken, bots, timers and notifications stop, the heartbeat stops (with
    /// PostgreSQL the other instances take its tables over once its lease
    /// runs out) and an SQLite file is let go.
    pub fn abort(&self) {
        self.app.cluster.shut();
        self.task.abort();
        if let Some(t) = &self.metrics_task {
            t.abort();
        }
        self.app.db.unlock();
    }

    /// Stops serving and hands the tables over at once: as
    /// [`Running::abort`], and with PostgreSQL the lease is given up so
    /// that other instances take the tables over at their next heartbeat.
    pub async fn shutdown(&self) {
        self.abort();
        if self.app.db.shared() {
            if let Err(e) = self.app.db.release(&self.app.cluster.me).await {
                tracing::warn!("cannot hand the tables over: {e}");
            }
        }
    }
}

/// Opens the database, resumes unfinished games (bots move again) and
/// serves on `listen` (port 0 picks a free port) until the runtime stops.
///
/// # Errors
/// The database cannot be opened or the address bound.
pub async fn start(cfg: ServerConfig, listen: &str) -> anyhow::Result<Running> {
    start_with(cfg, ClusterConfig::default(), listen).await
}

/// [`start`] with cluster settings: on PostgreSQL the instance registers,
/// listens for other instances' changes, renews its lease and takes over
/// the tables of instances that stopped renewing theirs; on SQLite it
/// resumes every unfinished game.
///
/// # Errors
/// The database cannot be opened or the address bound.
pub async fn start_with(
    cfg: ServerConfig,
    ccfg: ClusterConfig,
    listen: &str,
) -> anyhow::Result<Running> {
    check_listen(listen)?;
    if let Some(m) = &cfg.metrics_listen {
        check_listen(m)?;
    }
    telemetry::install();
    let opts = db::DbOptions {
        pool_size: ccfg.pool_size,
        acquire_timeout: ccfg.db_wait,
    };
    let db = db::Db::open_with(&cfg.db, &opts).await?;
    let app = Arc::new(App::with_cluster(db, cfg, ccfg));
    let listener = match tokio::net::TcpListener::bind(listen).await {
        Ok(l) => l,
        Err(e) => {
            app.db.unlock();
            return Err(listen_error(listen, &e));
        }
    };
    let addr = listener.local_addr()?;
    let (metrics_addr, metrics_task) = match &app.cfg.metrics_listen {
        Some(m) => {
            let (a, t) = serve_metrics(app.clone(), m).await?;
            (Some(a), Some(t))
        }
        None => (None, None),
    };
    if app.db.shared() {
        let me = app.cluster.me.clone();
        app.db.register(&me, &cluster::host_name()).await?;
        app.cluster.renewed();
        tokio::spawn(cluster::listen(app.clone()));
        tokio::spawn(cluster::leases(app.clone()));
        tokio::spawn(cluster::presence_writer(app.clone()));
        let lease = app.cluster.cfg.lease.as_millis() as i64;
        if let Err(e) = cluster::take_over_dead(&app, lease).await {
            tracing::warn!("takeover at start: {e}");
        }
        tracing::info!(instance = %me, "instance registered");
    } else {
        for id in app.db.tables_with_status("playing", 100_000).await? {
            if let Err(e) = app.table(&id).await {
                tracing::error!(table = %id, "cannot resume: {e}");
            }
        }
    }
    let timers = app.clone();
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_millis(200));
        let mut sweeps = 0u64;
        while !timers.cluster.stopped() {
            tick.tick().await;
            app::check_timers(&timers).await;
            sweeps += 1;
            if sweeps.is_multiple_of(150) {
                let n = timers.unload_idle();
                if n > 0 {
                    tracing::debug!(tables = n, "unloaded idle tables");
                }
            }
        }
    });
    let router = router(app.clone());
    let task = tokio::spawn(listener::serve(listener, router, app.cfg.limits.clone()));
    tracing::info!(%addr, "serving");
    Ok(Running {
        addr,
        app,
        metrics_addr,
        task,
        metrics_task,
    })
}

/// Serves [`routes::metrics_router`] on `listen` (a private address).
///
/// # Errors
/// The address cannot be bound.
async fn serve_metrics(
    app: Arc<App>,
    listen: &str,
) -> anyhow::Result<(SocketAddr, tokio::task::JoinHandle<()>)> {
    let l = match tokio::net::TcpListener::bind(listen).await {
        Ok(l) => l,
        Err(e) => {
            app.db.unlock();
            return Err(listen_error(listen, &e).context("--metrics-listen"));
        }
    };
    let addr = l.local_addr()?;
    let r = routes::metrics_router(app);
    let task = tokio::spawn(async move {
        if let Err(e) = axum::serve(l, r).await {
            tracing::error!("metrics listener: {e}");
        }
    });
    tracing::info!(%addr, "metrics served");
    Ok((addr, task))
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

/// Runs `sequence serve` with `settings` ([`ServeFlags::load`]): prints the address and serves until killed, or
/// until SIGTERM or Ctrl-C, when it hands its tables over to the other
/// instances (PostgreSQL) and exits.
///
/// # Errors
/// The database cannot be opened or the address bound.
pub fn run_serve(settings: &ServeSettings) -> anyhow::Result<()> {
    listener::raise_fd_limit();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let args = settings;
    rt.block_on(async {
        let cfg = ServerConfig {
            db: args.db.clone(),
            rate_limit: args.rate_limit,
            rate_burst: args.rate_burst,
            bot_delay: Duration::from_millis(args.bot_delay_ms),
            analysis_iterations: args.analysis_iterations.max(1),
            limits: args.limits(),
            metrics_listen: args.metrics_listen.clone(),
            admin_token: args.admin_token.clone().filter(|t| !t.is_empty()),
            passkey_origin: args.passkey_origin.clone().filter(|t| !t.is_empty()),
            passkey_rp_id: args.passkey_rp_id.clone().filter(|t| !t.is_empty()),
            ..ServerConfig::default()
        };
        let lease = Duration::from_millis(args.lease_ms);
        let ccfg = ClusterConfig {
            pool_size: args.db_pool,
            lease,
            heartbeat: lease / 3,
            ..ClusterConfig::default()
        };
        let running = start_with(cfg, ccfg, &args.listen).await?;
        println!(
            "sequence serve: listening on http://{} (database {})",
            running.addr,
            db::describe_target(&args.db)
        );
        if let Some(m) = running.metrics_addr {
            println!("sequence serve: metrics on http://{m}/metrics");
        }
        let mut running = running;
        let signalled = tokio::select! {
            _ = stop_signal() => true,
            r = &mut running.task => {
                if let Err(e) = r {
                    tracing::error!("server task: {e}");
                }
                false
            }
        };
        if signalled {
            tracing::info!("stopping: handing the tables over");
            running.shutdown().await;
        }
        Ok(())
    })
}

/// SIGTERM or Ctrl-C.
async fn stop_signal() {
    #[cfg(unix)]
    {
        if let Ok(mut term) =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        {
            tokio::select! {
                _ = term.recv() => {}
                _ = tokio::signal::ctrl_c() => {}
            }
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}
