//! What the command line needs of a game beyond the game interface: how
//! `sequence replay` shows a position and a move, and the midgame position
//! `sequence bench` times legal-move generation on. Everything else
//! (verify, replay, selfplay, bench) is written once over
//! [`sequence_common::Rules`] and [`sequence_common::Notation`].

use sequence_bots::BotGame;
use sequence_common::{Notation, Seat};
use serde_json::Value;

/// A game the `sequence` command plays.
pub trait CliGame: BotGame {
    /// Random moves from the deal to the midgame position of
    /// `sequence bench`.
    const MIDGAME_PLIES: u32;
    /// Players of `sequence bench` by default.
    const BENCH_PLAYERS: u8;

    /// The move by `seat` in words for `sequence replay`, e.g. `green plays
    /// 7H on d6`.
    fn describe(_game: &Self, seat: Seat, mv: &Self::Move) -> String {
        format!("seat {} {}", seat.0, Self::move_text(mv))
    }

    /// The position after a move, as text (`color`: ANSI colours);
    /// `last` is the move just made.
    fn render(game: &Self, color: bool, last: Option<&Self::Move>) -> String;
}

/// A side's name in words: a colour (`blue`) or `seat N`.
pub fn side_name<G: Notation>(side: u8) -> String {
    match G::side_to_json(side) {
        Value::String(s) => s,
        v => format!("seat {v}"),
    }
}

/// The outcome line of `sequence replay`: `green wins`, `seat 0 wins`,
/// `draw`, `game unfinished`.
pub fn outcome_line<G: Notation>(game: &G) -> String {
    match game.outcome() {
        sequence_common::Outcome::Won(s) => format!("{} wins", side_name::<G>(s)),
        sequence_common::Outcome::Draw => "draw".into(),
        sequence_common::Outcome::Playing => "game unfinished".into(),
    }
}

/// Reads `--options` JSON as the game's rule options.
///
/// # Errors
/// Text that is not JSON, not an object, or names a bad option.
pub fn parse_options<G: Notation>(s: Option<&str>) -> anyhow::Result<G::Options> {
    match s {
        None => Ok(G::Options::default()),
        Some(text) => {
            let v: Value = serde_json::from_str(text)
                .map_err(|e| anyhow::anyhow!("--options {text:?}: not JSON: {e}"))?;
            if !v.is_object() {
                anyhow::bail!(
                    "--options {text:?}: expected a JSON object such as {{\"sequence_length\":4}}"
                );
            }
            G::options_from_json(Some(&v)).map_err(|e| anyhow::anyhow!("--options {text:?}: {e}"))
        }
    }
}
