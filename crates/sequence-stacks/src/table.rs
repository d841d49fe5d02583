//! What a table shows of a game of Sequence Stacks beyond the views
//! ([`TableFacts`]): the rule options (S3a–S7) with the engine's
//! defaults, the move log's fields of a move's effects (piles completed,
//! cards taken, Blocks, the chip a completion gave once its window
//! closed, the end), the Block window a seat is asked out of turn (S5b)
//! and the chips per seat at the end.

use crate::{Config, Decision, Effects, Game, Options};
use sequence_common::{LogEffects, Notation, OptionSpec, Outcome, Seat, TableFacts};
use serde_json::{json, Map, Value};

/// The default of option `name` as `Options::default()` serialises it
/// (`null` when it leaves it out).
fn default_of(name: &str) -> Value {
    serde_json::to_value(Options::default())
        .ok()
        .and_then(|v| v.get(name).cloned())
        .unwrap_or(Value::Null)
}

impl TableFacts for Game {
    const OPTIONS_EXAMPLE: &'static str = r#"{"piles_per_colour": 3}"#;

    fn option_specs() -> Vec<OptionSpec> {
        // (option, rule, values offered); the defaults are the engine's
        let options = [
            ("piles_per_colour", "S3a", json!([1, 2, 3, 4])),
            ("refill", "S4a", json!(["turn_start", "turn_end"])),
            ("steal_chip_can_win", "S5a", json!([false, true])),
            (
                "block_window",
                "S5b",
                json!(["all_opponents", "next_player"]),
            ),
            (
                "reshuffle_actions",
                "S6a",
                json!(["when_no_completed", "always", "never"]),
            ),
            ("dead_game_draw", "S7", json!([true, false])),
        ];
        options
            .into_iter()
            .map(|(name, rule, values)| OptionSpec::new(name, rule, values, default_of(name)))
            .collect()
    }

    fn log_effects(_config: &Config, fx: &Effects) -> LogEffects {
        let mut own = Map::new();
        let mut previous = Map::new();
        if let Some(place) = fx.completed {
            own.insert("completed".into(), json!(place.name()));
            if fx.opened.is_some() {
                own.insert("window".into(), json!(true));
            }
        }
        if let Some((_, card)) = fx.took {
            own.insert("took".into(), json!(card.code()));
        }
        if let Some(w) = fx.closed {
            match w.blocked_by {
                Some(by) => {
                    own.insert(
                        "blocked".into(),
                        json!({"seat": w.completer.0, "colour": w.colour.name()}),
                    );
                    previous.insert("blocked_by".into(), json!(by.0));
                    previous.insert("window".into(), json!(false));
                }
                None => {
                    // nobody blocked: the completer took its chip (if the
                    // supply had one)
                    previous.insert("window".into(), json!(false));
                    if let Some(colour) = w.chip {
                        previous.insert("chip".into(), json!(colour.name()));
                    }
                }
            }
        }
        if fx.reshuffles > 0 {
            own.insert("reshuffled".into(), json!(true));
        }
        // a window's close belongs to the completion's entry, and so does
        // the end it brings
        let target = if previous.is_empty() {
            &mut own
        } else {
            &mut previous
        };
        match fx.end {
            Outcome::Won(s) => {
                target.insert("won".into(), json!(s));
            }
            Outcome::Draw => {
                target.insert("draw".into(), json!(true));
            }
            Outcome::Playing => {}
        }
        LogEffects { own, previous }
    }

    fn in_window(&self) -> bool {
        self.block_offer().is_some()
    }

    fn window_view(&self, view: &mut Map<String, Value>, deadline_ms: Option<i64>) {
        if self.in_window() {
            if let Some(Value::Object(w)) = view.get_mut("block_window") {
                w.insert("deadline_ms".into(), json!(deadline_ms));
            }
        }
    }

    fn window_default(seat: Seat) -> Option<Value> {
        Some(json!({"seat": seat.0, "pass": true}))
    }

    fn final_sides(&self) -> Value {
        let seats: Vec<Value> = (0..self.players())
            .map(|s| {
                let c = self.chips(Seat(s));
                json!({"side": s, "chips": {"blue": c[0], "red": c[1]}})
            })
            .collect();
        json!(seats)
    }

    fn position_text(&self, _color: bool, _last: Option<&Decision>) -> String {
        // the piles by colour and the chips per seat, as the summary has them
        let s = self.summary(0);
        format!("  piles {}  chips {}\n", s["piles"], s["chips"])
    }
}
