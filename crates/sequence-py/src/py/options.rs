//! `sequence_game.rule_options(game)`: a game's rule options as its engine
//! lists them ([`sequence_common::TableFacts::option_specs`]) — the list
//! the server's lobby and `sequence options` show, from the same place.

use super::convert::json_to_py;
use super::kind_of;
use pyo3::prelude::*;
use sequence_bots::{with_game, BotGame, ForGame};
use sequence_common::OptionSpec;
use serde_json::Value;

/// The option list of a game ([`with_game`]).
struct Specs;

impl ForGame for Specs {
    type Out = Vec<OptionSpec>;

    fn call<G: BotGame>(self) -> Vec<OptionSpec> {
        G::option_specs()
    }
}

/// The rule options of `game` (`classic` or `stacks`): a list of dicts
/// `{"name", "rule", "values", "default"}` (and `by_sides` where the
/// default depends on the number of sides, C9), in the lobby's order.
/// Raises `UsageError` for an unknown game.
#[pyfunction]
#[pyo3(signature = (game = "classic"))]
pub(super) fn rule_options<'py>(py: Python<'py>, game: &str) -> PyResult<Bound<'py, PyAny>> {
    let list: Vec<Value> = with_game(kind_of(game)?, Specs)
        .iter()
        .map(OptionSpec::to_json)
        .collect();
    json_to_py(py, &Value::Array(list))
}
