//! The game server (`sequence serve`), its web UI and the load tool
//! (`sequence loadtest`). The API is documented in docs/api.md.
//!
//! * [`config`]: settings; [`db`]: the event log in SQLite or PostgreSQL;
//! * [`tables`]: table state rebuilt from events, views for seats and
//!   spectators; [`api`]: HTTP handlers and the commit path;
//! * [`ws`]: the table WebSocket; [`auth`]: tokens; [`limits`]: rate limits
//!   and text caps; [`input`]: reading bodies, paths and queries, with
//!   errors in words; [`bots`]: bot glue; [`assets`]: the embedded web UI;
//! * [`loadtest`]: the load tool.

pub mod api;
pub mod assets;
pub mod auth;
pub mod bots;
pub mod config;
pub mod db;
pub mod input;
pub mod limits;
pub mod loadtest;
pub mod tables;
pub mod ws;

use api::App;
use axum::extract::DefaultBodyLimit;
use axum::http::{header, HeaderName, HeaderValue};
use axum::routing::{get, post};
use axum::Router;
use clap::Args;
pub use config::ServerConfig;
pub use loadtest::{run_loadtest, LoadtestArgs};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tower_http::set_header::SetResponseHeaderLayer;

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
}

/// The HTTP router over a server state.
pub fn router(app: Arc<App>) -> Router {
    let api = Router::new()
        .route("/api/tables", post(api::create_table).get(api::list_tables))
        .route("/api/tables/{id}", get(api::get_table))
        .route("/api/tables/{id}/join", post(api::join))
        .route("/api/tables/{id}/leave", post(api::leave))
        .route("/api/tables/{id}/view", get(api::view))
        .route("/api/tables/{id}/moves", post(api::post_move))
        .route("/api/tables/{id}/record", get(api::record))
        .route("/api/tables/{id}/seats/{seat}/bot", post(api::seat_bot))
        .route("/api/tables/{id}/rematch", post(api::rematch))
        .route("/api/tables/{id}/ws", get(ws::handler))
        .layer(axum::middleware::from_fn_with_state(
            app.clone(),
            api::rate_limit,
        ));
    let app_router = Router::new()
        .route("/healthz", get(api::healthz))
        .merge(api)
        .fallback(assets::serve)
        .method_not_allowed_fallback(|| async {
            (
                axum::http::StatusCode::METHOD_NOT_ALLOWED,
                axum::Json(serde_json::json!({"error": "method not allowed for this path"})),
            )
        })
        .layer(axum::middleware::map_response(input::json_errors));
    with_security_headers(app_router)
        .layer(DefaultBodyLimit::max(limits::MAX_BODY))
        .layer(tower_http::trace::TraceLayer::new_for_http())
        .with_state(app)
}

/// The Content-Security-Policy of every answer: the web UI loads its
/// scripts, styles, translations and WebSocket from this origin only (no
/// inline script or style), its icon is a `data:` image, and no other site
/// may frame it.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
    style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; \
    object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Security headers on every answer (set where a handler has not):
/// [`CONTENT_SECURITY_POLICY`], `X-Content-Type-Options: nosniff`,
/// `X-Frame-Options: DENY`, `Referrer-Policy: no-referrer`.
fn with_security_headers<S: Clone + Send + Sync + 'static>(r: Router<S>) -> Router<S> {
    let set = |name: HeaderName, value: &'static str| {
        SetResponseHeaderLayer::if_not_present(name, HeaderValue::from_static(value))
    };
    r.layer(set(
        header::CONTENT_SECURITY_POLICY,
        CONTENT_SECURITY_POLICY,
    ))
    .layer(set(header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
    .layer(set(header::X_FRAME_OPTIONS, "DENY"))
    .layer(set(header::REFERRER_POLICY, "no-referrer"))
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
            tracing::error!(table = %id, "cannot resume: {}", e.message);
        }
    }
    check_listen(listen)?;
    let listener = tokio::net::TcpListener::bind(listen)
        .await
        .map_err(|e| listen_error(listen, &e))?;
    let addr = listener.local_addr()?;
    let timers = app.clone();
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_millis(500));
        loop {
            tick.tick().await;
            api::check_timers(&timers).await;
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
                            tracing::warn!(table = %t.core.id, "sync: {}", e.message);
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
