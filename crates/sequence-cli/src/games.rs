//! Words and options the commands share, written once over
//! [`sequence_common::Notation`]. A command reaches the game a record or
//! `--game` names through [`sequence_bots::with_game`] (verify, replay,
//! selfplay, bench): nothing here is written per game.

use sequence_common::{Notation, RuleError};
use serde_json::Value;

/// The engine's refusal of a table ([`sequence_common::Rules::table`]) as
/// the command line says it: a team count refused (C3; S1: Sequence Stacks
/// has no teams) names `--teams` (`--teams 2: Sequence Stacks has no teams
/// (S1); every player plays alone`); the rest is the engine's message.
pub fn table_refusal<E: RuleError>(e: &E, teams: Option<u8>) -> String {
    match teams {
        Some(t) if e.code().ends_with(".teams") => format!("--teams {t}: {e}"),
        _ => e.to_string(),
    }
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
