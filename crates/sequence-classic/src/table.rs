//! What a table shows of a game of classic Sequence beyond the views
//! ([`TableFacts`]): the rule options (C2, C6a, C7, C8a, C9, C11) with
//! their defaults, the move log's fields of a move's effects (sequences
//! made and broken, chips removed, the reshuffle, the end), the board
//! layout a table's view adds (C2) and the sequences per team at the end.

use crate::game::{Game, Team};
use crate::layout::Layout;
use crate::options::{Config, DefaultWindow, NoPlay, Options};
use crate::sequences::Window;
use crate::{Chip, Declaration, Effects, Move, Seat};
use sequence_common::{LogEffects, OptionSpec, Outcome, TableFacts};
use serde_json::{json, Map, Value};

impl TableFacts for Game {
    const OPTIONS_EXAMPLE: &'static str = r#"{"sequence_length": 4}"#;

    fn option_specs() -> Vec<OptionSpec> {
        // the effective defaults, from the engine: a two-team table
        let two = Config::new(2, None, Default::default()).ok();
        let three = Config::new(3, None, Default::default()).ok();
        let wins = json!({
            "2": two.as_ref().map(|c| c.win_sequences()),
            "3": three.as_ref().map(|c| c.win_sequences()),
        });
        let len = two.as_ref().map_or(5, |c| c.sequence_length());
        let o = Options::default();
        let mut win = OptionSpec::new(
            "win_sequences",
            "C9",
            json!([null, 1, 2, 3, 4]),
            Value::Null,
        );
        win.by_sides = Some(wins);
        vec![
            win,
            OptionSpec::new("sequence_length", "C11", json!([len, 4]), json!(len)),
            OptionSpec::new(
                "removable_sequences",
                "C11",
                json!([false, true]),
                json!(o.removable_sequences),
            ),
            OptionSpec::new(
                "no_reshuffle",
                "C7",
                json!([false, true]),
                json!(o.no_reshuffle),
            ),
            OptionSpec::new("board", "C2", json!([null, "random"]), Value::Null).said_as(
                "a list of 10 rows of 10 card codes with XX in the corners (RECORD.md), \"random\" \
                 for a random layout at a new table, or null for the official board",
            ),
            OptionSpec::new(
                "no_play",
                "C6a",
                json!(["pass", "discard"]),
                json!(NoPlay::default()),
            ),
            OptionSpec::new(
                "default_window",
                "C8a",
                json!(["first", "last"]),
                json!(DefaultWindow::default()),
            ),
        ]
    }

    fn option_hints(prefix: &str) -> Vec<(String, String)> {
        let mut hints: Vec<_> = Self::option_specs()
            .iter()
            .map(|o| o.hint(prefix))
            .collect();
        hints.push((
            format!("{prefix}board[]"),
            "a row of 10 card codes, XX in the corners (C2, RECORD.md)".into(),
        ));
        hints
    }

    fn prepare_options(options: &mut Value, seed: u64) {
        if let Some(o) = options.as_object_mut() {
            if o.get("board").and_then(Value::as_str) == Some("random") {
                // ChaCha8 from the seed; the layout itself goes into the
                // table's options and so into every record (C11).
                let mut rng = sequence_common::rng::game_rng(seed);
                let layout = Layout::random(&mut rng);
                o.insert("board".into(), json!(layout.to_rows()));
            }
        }
    }

    fn log_effects(config: &Config, fx: &Effects) -> LogEffects {
        let len = config.sequence_length();
        let key =
            |t: Team, w: Window| json!([t.colour(), w.start.to_string(), w.last(len).to_string()]);
        let windows =
            |t: Team, d: &Declaration| -> Value { d.windows().map(|w| key(t, w)).collect() };
        let mut own = Map::new();
        match fx.chip {
            Some(Chip::Placed { team, .. }) if !fx.sequences.is_empty() => {
                own.insert("sequences".into(), windows(team, &fx.sequences));
            }
            Some(Chip::Removed { team, .. }) => {
                if !fx.broken.is_empty() {
                    own.insert("broken".into(), windows(team, &fx.broken));
                }
                own.insert("removed".into(), json!(team.colour()));
            }
            _ => {}
        }
        if fx.reshuffled {
            own.insert("reshuffled".into(), json!(true));
        }
        match fx.end {
            Outcome::Won(t) => {
                own.insert("won".into(), json!(Team(t).colour()));
            }
            Outcome::Draw => {
                own.insert("draw".into(), json!(true));
            }
            Outcome::Playing => {}
        }
        LogEffects {
            own,
            previous: Map::new(),
        }
    }

    fn describe_extras(out: &mut Map<String, Value>) {
        out.insert("layout".into(), json!(Layout::official().to_rows()));
    }

    fn view_extras(&self, out: &mut Map<String, Value>) {
        out.insert("layout".into(), json!(self.layout().to_rows()));
    }

    fn final_sides(&self) -> Value {
        let teams: Vec<Value> = (0..self.teams())
            .map(|t| {
                let team = Team(t);
                json!({"side": team.colour(), "sequences": self.sequence_count(team)})
            })
            .collect();
        json!(teams)
    }

    fn move_words(&self, seat: Seat, mv: &Move) -> String {
        crate::text::move_words(self, seat, mv)
    }

    fn position_text(&self, color: bool, last: Option<&Move>) -> String {
        crate::text::board_text(self, color, last.and_then(crate::text::move_space))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sequence_common::Notation;

    /// A value of the wrong kind is answered with the option's own values
    /// and rule, not its JSON type's range ("0 to 255" for
    /// `win_sequences`, tester's finding).
    #[test]
    fn a_mistyped_option_is_answered_with_its_values_and_rule() {
        for (options, want) in [
            (
                json!({"win_sequences": "two"}),
                "win_sequences must be 1, 2, 3 or 4, or null for the official rule (C9), got the string \"two\"",
            ),
            (
                json!({"sequence_length": "four"}),
                "sequence_length must be 5 or 4 (C11)",
            ),
            (
                json!({"no_play": 1}),
                "no_play must be \"pass\" or \"discard\" (C6a), got 1",
            ),
            (
                json!({"no_reshuffle": "yes"}),
                "no_reshuffle must be true or false (C7)",
            ),
            (json!({"board": 3}), "board must be a list of 10 rows"),
            (
                json!({"board": [5]}),
                "board[0] must be a row of 10 card codes, XX in the corners (C2, RECORD.md)",
            ),
        ] {
            let e = Game::options_from_json(Some(&options)).expect_err("refused");
            assert!(e.contains(want), "{options} → {e}");
            assert!(!e.contains("255") && !e.contains("whole number"), "{e}");
        }
    }
}
