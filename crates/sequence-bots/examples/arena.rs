//! `sequence arena` without the rest of the `sequence` command (no server
//! or terminal UI to build): the same arguments, the same code
//! ([`sequence_bots::cli::run_arena`]). For bot experiments on a machine
//! where building the whole workspace in release mode takes long.
//!
//! ```sh
//! cargo run --release -p sequence-bots --example arena -- \
//!     --bots ismcts:3000it:1t,greedy --games 400 --duplicate
//! ```

use clap::Parser;

/// The arguments of `sequence arena`.
#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    arena: sequence_bots::cli::ArenaArgs,
}

fn main() -> anyhow::Result<()> {
    sequence_bots::cli::run_arena(Cli::parse().arena)
}
