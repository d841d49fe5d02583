//! The game server (`sequence serve`), its web UI and the load tool.

use clap::Args;

/// `sequence serve`: HTTP + WebSocket server.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub listen: String,
    /// Database: an SQLite file path or a `postgres://` URL.
    #[arg(long, default_value = "sequence.db")]
    pub db: String,
}

/// `sequence loadtest`: drives real WebSocket clients against a server.
#[derive(Debug, Args)]
pub struct LoadtestArgs {
    /// Number of concurrent tables.
    #[arg(long, default_value_t = 100)]
    pub tables: u32,
}

/// Runs `sequence serve`.
///
/// # Errors
/// Not built yet (issue #5).
pub fn run_serve(_args: ServeArgs) -> anyhow::Result<()> {
    anyhow::bail!("`sequence serve` is not built yet")
}

/// Runs `sequence loadtest`.
///
/// # Errors
/// Not built yet (issue #5).
pub fn run_loadtest(_args: LoadtestArgs) -> anyhow::Result<()> {
    anyhow::bail!("`sequence loadtest` is not built yet")
}
