//! `sequence replay FILE`: the position after every move of a record of
//! either game, and the move in words.

use crate::games::outcome_line;
use sequence_bots::{with_game, BotGame, ForGame};
use sequence_common::record::{detect_kind, replay, ReplayError};
use std::io::Write;

/// `sequence replay`.
#[derive(Debug, clap::Args)]
pub struct ReplayArgs {
    /// The record file (`-` for standard input).
    pub file: std::path::PathBuf,
    /// No colours (chips still read as letters).
    #[arg(long)]
    pub no_color: bool,
    /// Show only the final position.
    #[arg(long)]
    pub last: bool,
}

/// Runs `sequence replay` for a record of either game. Exit codes as
/// `sequence verify`: 1 at an illegal move, 2 for a malformed file.
pub fn run(a: ReplayArgs) -> std::process::ExitCode {
    use std::io::IsTerminal;
    use std::process::ExitCode;
    let text = match crate::verify::read_input(&a.file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let (kind, value) = match detect_kind(&text) {
        Ok(k) => k,
        Err(e) => return crate::verify::report_error(&a.file, &ReplayError::from(e)),
    };
    let color =
        !a.no_color && std::env::var_os("NO_COLOR").is_none() && std::io::stdout().is_terminal();
    let mut out = std::io::stdout().lock();
    let res = with_game(
        kind,
        Show {
            value: &value,
            last: a.last,
            color,
            out: &mut out,
        },
    );
    match res {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = out.flush();
            crate::verify::report_error(&a.file, &e)
        }
    }
}

/// Replays `value` (a record of the game it is shown for), writing each
/// move in words ([`TableFacts::move_words`]) and the position after it
/// ([`TableFacts::position_text`]; only the final position with `last`),
/// then the outcome. Its result is the replay error (exit 1 at an illegal
/// move, 2 for a malformed file).
struct Show<'a, W: Write> {
    value: &'a serde_json::Value,
    last: bool,
    color: bool,
    out: &'a mut W,
}

impl<W: Write> ForGame for Show<'_, W> {
    type Out = Result<(), ReplayError>;

    fn call<G: BotGame>(self) -> Self::Out {
        let Show {
            value,
            last,
            color,
            out,
        } = self;
        let (_, game) = replay::<G>(value, |i, seat, m, g| {
            if !last {
                let _ = writeln!(out, "move {i}: {}", g.move_words(seat, m));
                let _ = writeln!(out, "{}", g.position_text(color, Some(m)));
            }
        })?;
        if last {
            let _ = write!(out, "{}", game.position_text(color, None));
        }
        let _ = writeln!(out, "{}", outcome_line(&game));
        Ok(())
    }
}
