//! Command-line entry points: `sequence arena` and `sequence hint`.

use clap::Args;

/// `sequence arena`: bots play each other; results as a table, CSV and SVG.
#[derive(Debug, Args)]
pub struct ArenaArgs {
    /// Game: `classic` or `stacks`.
    #[arg(long, default_value = "classic")]
    pub game: String,
    /// Comma-separated bot names, e.g. `random,greedy,ismcts:200ms`.
    #[arg(long)]
    pub bots: String,
    /// Number of games.
    #[arg(long, default_value_t = 100)]
    pub games: u32,
    /// Seed of the named generator.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Players per game (defaults to the number of bots).
    #[arg(long)]
    pub players: Option<u8>,
    /// Output format: `table` or `json`.
    #[arg(long, default_value = "table")]
    pub format: String,
}

/// `sequence hint`: best moves for a seat of an unfinished game.
#[derive(Debug, Args)]
pub struct HintArgs {
    /// Record of an unfinished game.
    pub file: std::path::PathBuf,
    /// The seat to advise.
    #[arg(long)]
    pub seat: u8,
}

/// Runs `sequence arena`.
///
/// # Errors
/// Not built yet (issue #3).
pub fn run_arena(_args: ArenaArgs) -> anyhow::Result<()> {
    anyhow::bail!("`sequence arena` is not built yet")
}

/// Runs `sequence hint`.
///
/// # Errors
/// Not built yet (issue #3).
pub fn run_hint(_args: HintArgs) -> anyhow::Result<()> {
    anyhow::bail!("`sequence hint` is not built yet")
}
