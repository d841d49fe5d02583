//! Full-screen terminal play (`sequence play`) for both games.

use clap::Args;

/// `sequence play`: a terminal game, hot seat and bots.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// Game: `classic` or `stacks`.
    #[arg(long, default_value = "classic")]
    pub game: String,
    /// Number of players.
    #[arg(long)]
    pub players: Option<u8>,
    /// Number of teams (classic).
    #[arg(long)]
    pub teams: Option<u8>,
    /// Bot levels for the seats after the humans, e.g. `3,3`.
    #[arg(long)]
    pub bots: Option<String>,
    /// Seed of the named generator.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Rule options as JSON, e.g. `{"sequence_length":4}`.
    #[arg(long)]
    pub options: Option<String>,
    /// Resume a saved unfinished game.
    #[arg(long)]
    pub load: Option<std::path::PathBuf>,
}

/// Runs `sequence play`.
///
/// # Errors
/// Not built yet (issue #4).
pub fn run(_args: PlayArgs) -> anyhow::Result<()> {
    anyhow::bail!("`sequence play` is not built yet")
}
