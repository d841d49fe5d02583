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
