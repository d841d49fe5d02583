//! A seat's view read back from its JSON (`view.to_json()`, what the
//! server and the bot protocol send a seat): [`view_from_json`], through
//! the game's [`crate::env::EnvGame::view_from_json`] (`sequence-bots`, where each
//! game says how its view reads back).

use crate::dynamic::{Failure, FailureKind, View};
use sequence_common::GameKind;
use serde_json::Value;

fn bad(message: impl Into<String>) -> Failure {
    Failure::new(FailureKind::Notation, "view.json", message)
}

/// A view given as JSON text (a bot-protocol message's `view`, or
/// `json.dumps(view.to_json())`).
///
/// # Errors
/// [`FailureKind::Notation`] (`view.json`) when the text is not JSON,
/// with the position serde names.
pub fn parse_view(text: &str) -> Result<Value, Failure> {
    serde_json::from_str(text).map_err(|e| {
        bad(format!(
            "view: not JSON ({e}); a view is a JSON object such as View.to_json() gives"
        ))
    })
}

/// The view a seat's JSON describes, of game `kind`.
///
/// # Errors
/// [`FailureKind::Notation`] (`view.json`): not a JSON object, or naming
/// the field that is missing or wrong, or the position that does not add
/// up.
pub fn view_from_json(kind: GameKind, v: &Value) -> Result<View, Failure> {
    if !v.is_object() {
        let what = match v {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Number(_) => "a number",
            Value::String(_) => "a string",
            Value::Array(_) => "a list",
            Value::Object(_) => "an object",
        };
        return Err(bad(format!(
            "view: not a view but {what}; a view is a JSON object such as View.to_json() gives"
        )));
    }
    crate::env::any::view_from_json(kind, v)
        .map(View::new)
        .map_err(bad)
}
