//! Server settings.

use std::time::Duration;

/// Settings of a running server.
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// Database: SQLite file path, `sqlite:` URL or `postgres://` URL.
    pub db: String,
    /// HTTP requests per second allowed per client address (0: no limit).
    pub rate_limit: u32,
    /// Burst of the per-address limit.
    pub rate_burst: u32,
    /// Pause before each bot move (so people can follow).
    pub bot_delay: Duration,
    /// Search iterations per position of a game's analysis: the most a
    /// request may ask for, and the default when below
    /// [`crate::analysis::ITERATIONS`]'s default; a hint's search too
    /// ([`crate::analysis::HINT_ITERATIONS`] at most).
    pub analysis_iterations: u64,
    /// Connections, timeouts and the WebSocket upgrade allowance
    /// (docs/deploy.md, "Limits against slow and hostile clients").
    pub limits: Limits,
    /// Where `GET /metrics` is served (with `/readyz` and `/healthz`): a
    /// second, private listener (`127.0.0.1:9464`, port 0 picks one), never
    /// the public one; `None`: no metrics page (docs/deploy.md "Metrics
    /// and readiness").
    pub metrics_listen: Option<String>,
    /// The token of the operators' API (`/api/admin/…`, `sequence
    /// admin`); `None`: that API is off (404).
    pub admin_token: Option<String>,
    /// Passkeys: the origin the pages are served from
    /// (`https://play.example.org`); `None`: each request's own (its
    /// `Host`, https when it came over it). docs/deploy.md "Passkeys".
    pub passkey_origin: Option<String>,
    /// Passkeys: the relying party id, the origin's host or a parent
    /// domain of it; `None`: the origin's host.
    pub passkey_rp_id: Option<String>,
    /// How long a passkey ceremony may take from its begin to its finish.
    pub passkey_ceremony: Duration,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            db: "sequence.db".into(),
            rate_limit: 20,
            rate_burst: 60,
            bot_delay: Duration::from_millis(500),
            analysis_iterations: crate::analysis::ITERATIONS.1,
            limits: Limits::default(),
            metrics_listen: None,
            admin_token: None,
            passkey_origin: None,
            passkey_rp_id: None,
            passkey_ceremony: Duration::from_secs(300),
        }
    }
}

/// Settings of running several instances on one PostgreSQL database
/// (docs/deploy.md), and of the memory a server keeps.
#[derive(Debug, Clone)]
pub struct ClusterConfig {
    /// How often an instance renews its lease (its heartbeat).
    pub heartbeat: Duration,
    /// How old a heartbeat may be before other instances take the
    /// instance for dead and take its tables over.
    pub lease: Duration,
    /// Connections to PostgreSQL per instance.
    pub pool_size: u32,
    /// How long a request waits for a database connection before it is
    /// answered 503.
    pub db_wait: Duration,
    /// A table nobody watches (no WebSocket, no bot to move, no turn
    /// clock running) leaves memory after this long unused; it is read
    /// again from the database when needed.
    pub idle_unload: Duration,
}

impl Default for ClusterConfig {
    fn default() -> Self {
        ClusterConfig {
            heartbeat: Duration::from_secs(1),
            lease: Duration::from_secs(3),
            pool_size: 16,
            db_wait: Duration::from_secs(5),
            idle_unload: Duration::from_secs(120),
        }
    }
}

/// What a client may hold and how long it may take (docs/deploy.md,
/// "Limits against slow and hostile clients"). A connection over a cap
/// is answered at once (`{"error": …}` with `Retry-After`) and closed.
#[derive(Debug, Clone, PartialEq)]
pub struct Limits {
    /// Open connections in all (WebSockets included); over it a new one
    /// is answered 503. 0: no cap (the file descriptor limit still
    /// applies: the cap is lowered to fit under it).
    pub max_connections: usize,
    /// Open connections from one client address (an IPv6 address counts
    /// by its /64); over it a new one is answered 429. 0: no cap (behind
    /// a reverse proxy, where every connection comes from the proxy).
    pub max_per_address: usize,
    /// Time for a request's line and headers to arrive, from the
    /// connection's start or the previous answer (so also how long an
    /// idle keep-alive connection stays open); then the connection is
    /// closed without an answer.
    pub header_timeout: Duration,
    /// Time for a request's whole body to arrive after its headers; then
    /// 408.
    pub body_timeout: Duration,
    /// Time for a WebSocket's first message (`hello`) after the upgrade;
    /// then the connection is closed.
    pub hello_timeout: Duration,
    /// A connection that takes nothing of what the server writes (its
    /// writes stay blocked) or sends nothing for this long is closed; a
    /// WebSocket is pinged every third of it, so a live client always
    /// has something to answer.
    pub idle_timeout: Duration,
    /// WebSocket upgrades per second from one client address, counted
    /// apart from API requests (0: no limit).
    pub ws_rate: u32,
    /// Burst of [`Limits::ws_rate`].
    pub ws_burst: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_connections: 10_000,
            max_per_address: 1_000,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            hello_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            ws_rate: 50,
            ws_burst: 500,
        }
    }
}
