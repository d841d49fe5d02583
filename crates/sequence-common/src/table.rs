//! What a table shows of a game beyond the seats' views, as each engine
//! says it ([`TableFacts`]): the rule options a table may choose
//! ([`OptionSpec`]: name, rule id, values, default), what a move did in
//! public terms for the move log ([`LogEffects`], from the engine's typed
//! effects), the decision window a seat is asked out of turn (the Stacks
//! Block window), the facts of the end per side. The server, the web
//! lobby (`GET /api/games`), the command line and Python read them here
//! (and `sequence replay` the position and moves as text),
//! so nothing above the engines repeats a game's rules.

use crate::notation::Notation;
use crate::seat::Seat;
use serde::de::DeserializeOwned;
use serde_json::{json, Map, Value};

/// One rule option of a game, as a lobby offers it and the command line
/// and Python list it (README "Classic rule options",
/// docs/stacks-options.md).
#[derive(Clone, Debug, PartialEq)]
pub struct OptionSpec {
    /// The option's name in a record's `options` (e.g. `sequence_length`).
    pub name: &'static str,
    /// The rule or Interpretation it changes (e.g. `C11`, `S3a`).
    pub rule: &'static str,
    /// The values offered, in order; `null` stands for the official rule
    /// where it depends on the table (C9) or is a value of its own (C2).
    pub values: Vec<Value>,
    /// The default (`null`: it depends on the table, see `by_sides`).
    pub default: Value,
    /// Where the default depends on the number of sides: the default per
    /// number of sides (`{"2": 2, "3": 1}` for C9's sequences to win).
    pub by_sides: Option<Value>,
    /// What a value must be, in words, where the values offered do not
    /// say it all (a board is 10 rows of codes, not only `null` or
    /// `"random"`); `None`: said from `values` ([`OptionSpec::allowed`]).
    pub words: Option<&'static str>,
}

impl OptionSpec {
    /// An option whose default does not depend on the table.
    pub fn new(name: &'static str, rule: &'static str, values: Value, default: Value) -> Self {
        OptionSpec {
            name,
            rule,
            values: match values {
                Value::Array(a) => a,
                v => vec![v],
            },
            default,
            by_sides: None,
            words: None,
        }
    }

    /// The option with `words` saying what a value must be (see
    /// [`OptionSpec::words`]).
    #[must_use]
    pub fn said_as(mut self, words: &'static str) -> Self {
        self.words = Some(words);
        self
    }

    /// What a value of the option must be, in words, with its rule, for a
    /// message about a value of the wrong kind: `1, 2, 3 or 4, or null for
    /// the official rule (C9)`, `"pass" or "discard" (C6a)`, `true or false
    /// (C7)`.
    pub fn allowed(&self) -> String {
        let words = match self.words {
            Some(w) => w.to_string(),
            None if self.values.iter().all(Value::is_boolean) => "true or false".to_string(),
            None => {
                let shown: Vec<String> = self
                    .values
                    .iter()
                    .filter(|v| !v.is_null())
                    .map(Value::to_string)
                    .collect();
                let mut w = match shown.is_empty() {
                    true => "null".to_string(),
                    false => or_list(&shown),
                };
                if self.values.iter().any(Value::is_null) && !shown.is_empty() {
                    w.push_str(", or null for the official rule");
                }
                w
            }
        };
        format!("{words} ({})", self.rule)
    }

    /// The refusal of `got`, a value of the right kind that the option
    /// does not offer, in the words of a value of the wrong kind
    /// ([`OptionSpec::allowed`]), the option named by its path under
    /// `prefix`: `options.sequence_length must be 5 or 4 (C11), got 3`.
    pub fn refusal(&self, got: &Value, prefix: &str) -> String {
        format!(
            "{prefix}{} must be {}, got {}",
            self.name,
            self.allowed(),
            crate::json::echo(&got.to_string())
        )
    }

    /// How an engine words a table's option value out of range (C9, C11,
    /// S3a): the [`OptionSpec::refusal`] of `got` by the option `name` of
    /// the engine's option list `specs` ([`TableFacts::option_specs`]),
    /// under the table's `options.` (`options.piles_per_colour must be 1,
    /// 2, 3 or 4 (S3a), got 9`) — the words of a value of the wrong kind,
    /// so the command line, records, Python, the browser engine and the
    /// server say the same. The error's code stays the engine's (the
    /// option's rule: `C11.option`, `S3a.option`).
    pub fn out_of_range(specs: &[OptionSpec], name: &str, got: Value) -> String {
        match specs.iter().find(|s| s.name == name) {
            Some(spec) => spec.refusal(&got, "options."),
            None => format!("options.{name}: {got} is not offered"),
        }
    }

    /// The option's hint for [`crate::json::describe`]: its path under
    /// `prefix` and [`OptionSpec::allowed`].
    pub fn hint(&self, prefix: &str) -> (String, String) {
        (format!("{prefix}{}", self.name), self.allowed())
    }

    /// The option as `GET /api/games` lists it: `{"name", "rule",
    /// "values", "default"}`, and `by_sides` where there is one.
    pub fn to_json(&self) -> Value {
        let mut v = json!({
            "name": self.name,
            "rule": self.rule,
            "values": self.values,
            "default": self.default,
        });
        if let Some(b) = &self.by_sides {
            v["by_sides"] = b.clone();
        }
        v
    }
}

/// What a move did, for the move log (docs/api.md "Move log"): fields of
/// its own entry, and fields to merge into the previous entry (a Stacks
/// completion learns whether it gave a chip or was blocked only when its
/// Block window closes). Public facts only: a card drawn is never named.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct LogEffects {
    /// Fields of the move's own entry.
    pub own: Map<String, Value>,
    /// Fields for the previous entry of the log.
    pub previous: Map<String, Value>,
}

/// What a table shows of a game beyond the views: implemented by each
/// engine (its `table` module) on its `Game`. A table's rule options are
/// read from JSON (serde) with the engine's names.
pub trait TableFacts: Notation<Options: DeserializeOwned> {
    /// Rule options as a message shows an example of them (`{"sequence_length": 4}`).
    const OPTIONS_EXAMPLE: &'static str;

    /// The rule options a table may choose, in the lobby's order, with
    /// their rule ids, values and defaults (the engine's own).
    fn option_specs() -> Vec<OptionSpec>;

    /// What each rule option must be, in words with its rule
    /// ([`OptionSpec::allowed`]), by the option's path under `prefix`
    /// (`""` in an options object, `"options."` in a request that holds
    /// one): the hints of [`crate::json::describe`], so that a value of the
    /// wrong kind is answered with the option's own values, not its JSON
    /// type's range. An engine adds hints for parts of an option (classic:
    /// a row of a board).
    fn option_hints(prefix: &str) -> Vec<(String, String)> {
        Self::option_specs()
            .iter()
            .map(|o| o.hint(prefix))
            .collect()
    }

    /// Replaces a lobby's shorthands in a table's options before the
    /// engine reads them (classic `"board": "random"`: a random layout
    /// drawn from `seed`, C11). Default: nothing.
    fn prepare_options(options: &mut Value, seed: u64) {
        let _ = (options, seed);
    }

    /// The move log's fields of what a move did, from the engine's
    /// effects of the move at the table `config`.
    fn log_effects(config: &Self::Config, fx: &Self::Effects) -> LogEffects;

    /// Whether a seat is asked out of turn now (the Stacks Block window,
    /// S5b): a table gives it a short deadline of its own. Default: never.
    fn in_window(&self) -> bool {
        false
    }

    /// Writes when the open window closes by itself (Unix ms, `None`:
    /// unknown) into a table's view of the game (the Stacks Block window's
    /// `block_window.deadline_ms`, S5b). Default: nothing.
    fn window_view(&self, view: &mut Map<String, Value>, deadline_ms: Option<i64>) {
        let _ = (view, deadline_ms);
    }

    /// The move that closes an open window for `seat` when its time runs
    /// out (a declined Block), as a player would send it. Default: none.
    fn window_default(seat: Seat) -> Option<Value> {
        let _ = seat;
        None
    }

    /// Fields the game's description in the server's game list adds to
    /// its players, teams and options (classic: the official board as 10
    /// rows of card codes, `layout`, C2). Default: none.
    fn describe_extras(out: &mut Map<String, Value>) {
        let _ = out;
    }

    /// Fields a table's view adds to the engine's view (the classic board
    /// layout, C2). Default: none.
    fn view_extras(&self, out: &mut Map<String, Value>) {
        let _ = out;
    }

    /// Public facts of the end of the game per side, for the end screen
    /// (classic: sequences per team; Stacks: chips per seat).
    fn final_sides(&self) -> Value;

    /// The move `mv` by `seat` in words, as `sequence replay` prints it
    /// (classic: `green plays 7H on d6`). Default: `seat N` and the move's
    /// text ([`Notation::move_text`]).
    fn move_words(&self, seat: Seat, mv: &Self::Move) -> String {
        format!("seat {} {}", seat.0, Self::move_text(mv))
    }

    /// The position as plain text for a terminal, one or more lines each
    /// ending in a newline (`color`: with ANSI colours; `last`: the move
    /// just made, marked where the game can show it). What
    /// `sequence replay` prints after each move.
    fn position_text(&self, color: bool, last: Option<&Self::Move>) -> String;
}

/// Words joined as a choice: `a`, `a or b`, `a, b or c` (empty: ``).
pub fn or_list(words: &[String]) -> String {
    match words.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_options_values_are_said_with_its_rule() {
        let said = |values: Value| OptionSpec::new("x", "R1", values, Value::Null).allowed();
        assert_eq!(said(json!([1, 2, 3])), "1, 2 or 3 (R1)");
        assert_eq!(said(json!([5, 4])), "5 or 4 (R1)");
        assert_eq!(
            said(json!([null, 1, 2])),
            "1 or 2, or null for the official rule (R1)"
        );
        assert_eq!(said(json!([false, true])), "true or false (R1)");
        assert_eq!(said(json!(["a", "b"])), "\"a\" or \"b\" (R1)");
        let board =
            OptionSpec::new("b", "C2", json!([null, "random"]), Value::Null).said_as("rows");
        assert_eq!(board.allowed(), "rows (C2)");
        assert_eq!(
            board.hint("options."),
            ("options.b".into(), "rows (C2)".into())
        );
    }

    #[test]
    fn a_value_out_of_range_is_said_from_the_option_list() {
        let specs = [OptionSpec::new("len", "C11", json!([5, 4]), json!(5))];
        assert_eq!(
            OptionSpec::out_of_range(&specs, "len", json!(3)),
            "options.len must be 5 or 4 (C11), got 3"
        );
        assert_eq!(
            specs[0].refusal(&json!("x"), ""),
            "len must be 5 or 4 (C11), got \"x\""
        );
    }
}
