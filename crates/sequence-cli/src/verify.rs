//! `sequence verify FILE`: replays a record of either game and prints its
//! summary (RECORD.md and RECORD-STACKS.md, "Verifying").
//!
//! Exit 0 with JSON on stdout; exit 1 with `move N {json}: why` on stderr
//! at the first illegal or malformed move; exit 2 when the file is not a
//! valid record.

use sequence_bots::verify_record;
use sequence_common::record::{detect_kind, ReplayError};
use std::process::ExitCode;

/// `sequence verify`.
#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    /// The record file (`-` for standard input).
    pub file: std::path::PathBuf,
}

/// Reads `path` (or stdin for `-`).
pub fn read_input(path: &std::path::Path) -> Result<String, String> {
    if path.as_os_str() == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s)
            .map_err(|e| format!("standard input: {e}"))?;
        Ok(s)
    } else {
        std::fs::read_to_string(path).map_err(|e| sequence_common::record::unreadable(path, &e))
    }
}

/// Runs `sequence verify`.
pub fn run(a: VerifyArgs) -> ExitCode {
    let text = match read_input(&a.file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let verified = detect_kind(&text)
        .map_err(ReplayError::from)
        .and_then(|(kind, value)| verify_record(kind, &value));
    match verified {
        Ok(summary) => {
            println!(
                "{}",
                serde_json::to_string_pretty(&summary).unwrap_or_default()
            );
            ExitCode::SUCCESS
        }
        Err(e) => report_error(&a.file, &e),
    }
}

/// Reports a replay error of the record file `file` on stderr the way
/// `sequence verify` and `sequence replay` share: a move error keeps
/// RECORD.md's form (`move 17 {…}: why`); a file that is not a record is
/// named (`error: FILE: why`), as a file that cannot be read is. Returns
/// the exit code (1 at an illegal move, 2 for a malformed file).
pub fn report_error(file: &std::path::Path, e: &ReplayError) -> ExitCode {
    match e {
        ReplayError::Malformed(_) => eprintln!("error: {}: {e}", file.display()),
        _ => eprintln!("{e}"),
    }
    ExitCode::from(e.exit_code() as u8)
}
