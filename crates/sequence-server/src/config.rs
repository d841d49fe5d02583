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
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            db: "sequence.db".into(),
            rate_limit: 20,
            rate_burst: 60,
            bot_delay: Duration::from_millis(500),
            analysis_iterations: crate::analysis::ITERATIONS.1,
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
