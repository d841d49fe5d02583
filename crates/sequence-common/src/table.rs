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
        }
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

    /// The move that closes an open window for `seat` when its time runs
    /// out (a declined Block), as a player would send it. Default: none.
    fn window_default(seat: Seat) -> Option<Value> {
        let _ = seat;
        None
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
