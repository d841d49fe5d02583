//! Integer arguments from Python, taken as any Python `int` and checked
//! here, so that a value out of range raises the documented
//! `SequenceError` with its code (never a bare `OverflowError`); a value
//! of another type raises Python's `TypeError` before this.

use super::errors::{fail, usage};
use crate::dynamic::{Failure, FailureKind};
use pyo3::prelude::*;

/// `value` as an integer argument `name` in `lo..=hi`.
///
/// # Errors
/// `UsageError` with `code` naming the argument and its range.
pub(crate) fn in_range(code: &str, name: &str, value: i128, lo: i128, hi: i128) -> PyResult<i128> {
    if (lo..=hi).contains(&value) {
        Ok(value)
    } else {
        Err(usage(
            code,
            format!("{name} must be {lo} to {hi}, not {value}"),
        ))
    }
}

/// A vector's seed argument: 0 to 2⁶⁴ − 1.
///
/// # Errors
/// `UsageError` (`env.seed`) outside that range.
pub(crate) fn env_seed(seed: i128) -> PyResult<u64> {
    in_range("env.seed", "seed", seed, 0, u64::MAX as i128).map(|s| s as u64)
}

/// A game's, a bot's or a determinization's seed: 0 to 2⁶⁴ − 1.
///
/// # Errors
/// `UsageError` (`game.seed`) outside that range.
pub(crate) fn game_seed(seed: i128) -> PyResult<u64> {
    in_range("game.seed", "seed", seed, 0, u64::MAX as i128).map(|s| s as u64)
}

/// A player or team count of a new game of `kind`: any Python int; one
/// that no table can have (negative, past 255) is refused as the rules
/// refuse a count out of range.
///
/// # Errors
/// `SetupError` (`C3.players`, `C3.teams`, `S1.players`, `S1.teams`)
/// outside 0–255.
pub(crate) fn count(kind: sequence_common::GameKind, teams: bool, n: i128) -> PyResult<u8> {
    u8::try_from(n).map_err(|_| {
        let code = crate::dynamic::setup_codes(kind)[usize::from(teams)];
        let what = if teams { "teams" } else { "players" };
        fail(Failure::new(
            FailureKind::Setup,
            code,
            format!("{n} {what}: no table has that many ({code})"),
        ))
    })
}

/// A seat of a table of `players` seats.
///
/// # Errors
/// `UsageError` (`seat.no_such_seat`) for a seat not at the table.
pub(crate) fn seat(players: u8, seat: i128) -> PyResult<u8> {
    if (0..i128::from(players)).contains(&seat) {
        Ok(seat as u8)
    } else {
        Err(usage(
            "seat.no_such_seat",
            format!(
                "seat {seat} does not exist ({players} players: seats 0 to {})",
                players.saturating_sub(1)
            ),
        ))
    }
}

/// An action index of a space of `actions` actions.
///
/// # Errors
/// `ActionError` (`env.out_of_range`) outside `0..actions`.
pub(crate) fn action(actions: usize, action: i128) -> PyResult<usize> {
    if (0..actions as i128).contains(&action) {
        Ok(action as usize)
    } else {
        Err(fail(Failure::new(
            FailureKind::Action,
            "env.out_of_range",
            format!("action {action}: not an action (0 to {})", actions - 1),
        )))
    }
}
