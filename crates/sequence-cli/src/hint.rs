//! `sequence hint`: the best moves for a seat of an unfinished game, with
//! the search bot's chance to win ([`sequence_bots::hint`]).

use crate::BadInput;
use anyhow::Context;
use clap::Args;
use sequence_bots::hint::{hint, hint_table, NoSuchSeat};
use sequence_bots::parse_budget;
use std::path::PathBuf;

/// `sequence hint`: best moves for a seat of an unfinished game, with the
/// search bot's estimated chance to win.
#[derive(Debug, Args)]
pub struct HintArgs {
    /// Record of an unfinished game (classic or Stacks).
    pub file: PathBuf,
    /// The seat to advise (it must be its turn, or its decision).
    #[arg(long)]
    pub seat: u8,
    /// Search budget, e.g. `2s`, `500ms`, `20000it`.
    #[arg(long, default_value = "2s")]
    pub budget: String,
    /// How many moves to show.
    #[arg(long, default_value_t = 5)]
    pub top: usize,
    /// Seed of the search.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// The exit code of a `sequence hint` error, as `sequence verify` has it:
/// 2 for a bad argument or a file that cannot be read or is not a valid
/// record, 1 for an illegal move in the record, a finished game or a seat
/// that is not to move.
pub fn hint_exit_code(e: &anyhow::Error) -> u8 {
    if e.downcast_ref::<BadInput>().is_some()
        || e.downcast_ref::<NoSuchSeat>().is_some()
        || e.downcast_ref::<sequence_common::record::MalformedRecord>()
            .is_some()
    {
        return 2;
    }
    match e.downcast_ref::<sequence_common::record::ReplayError>() {
        Some(r) => u8::try_from(r.exit_code()).unwrap_or(1),
        None => 1,
    }
}

/// Runs `sequence hint`.
///
/// # Errors
/// An unreadable or malformed record, a bad argument (both
/// [`BadInput`]), an illegal move in the record, a finished game, or a
/// seat that is not to move; [`hint_exit_code`] tells the exit code.
pub fn run_hint(args: HintArgs) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(&args.file)
        .map_err(|e| BadInput(format!("cannot read {}: {e}", args.file.display())))?;
    let budget = parse_budget(&args.budget).map_err(|e| BadInput(format!("--budget: {e}")))?;
    if args.top == 0 {
        return Err(BadInput("--top: show at least one move".into()).into());
    }
    let out = hint(&text, args.seat, budget, args.top, args.seed)
        .with_context(|| args.file.display().to_string())?;
    if args.json {
        println!("{out}");
    } else {
        print!("{}", hint_table(&out));
    }
    Ok(())
}
