//! Rule options: one per **Interpretation** of RULES.md Part 2 (S3a, S4a,
//! S5a, S5b, S6a), each defaulting to the documented reading. The field
//! names are those of a record's `options` object (RECORD-STACKS.md); the
//! list is in `docs/stacks-options.md`.

use serde::{Deserialize, Serialize};

/// When a player draws back up to 5 cards (S4a).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Refill {
    /// `"turn_start"` (default, S4a): at the start of each turn the player
    /// draws until they hold 5 cards.
    #[default]
    TurnStart,
    /// `"turn_end"`: right after the turn's discard (or `end`), the player
    /// draws until they hold 5 cards.
    TurnEnd,
}

/// Who is offered to Block a completion (S5b).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum BlockWindow {
    /// `"all_opponents"` (default, S5b): every opponent, in order of play
    /// from the completer; the first Block wins.
    #[default]
    AllOpponents,
    /// `"next_player"`: only the next player in the current direction.
    NextPlayer,
}

/// Whether the action-card discard pile goes into a new draw pile (S6a).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum ReshuffleActions {
    /// `"when_no_completed"` (default, S6a): only when no completed pile is
    /// set aside.
    #[default]
    WhenNoCompleted,
    /// `"always"`: the action-card discard pile is always shuffled in with
    /// the completed piles.
    Always,
    /// `"never"`: only completed piles are reshuffled.
    Never,
}

/// Rule options of Sequence Stacks. Serialized with the names below; a
/// record's `options` object lists those that differ from the defaults
/// (`{}` = the rules as written in RULES.md). Unknown names are an error.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Options {
    /// `piles_per_colour` (S3a), 1–4, default **2**: how many piles of each
    /// colour may be in progress at once, table-wide. Places are named
    /// `blue-a`, `blue-b`, … up to this many letters.
    pub piles_per_colour: u8,
    /// `refill` (S4a), default **`"turn_start"`**: when a player draws back
    /// up to 5 cards. See [`Refill`].
    pub refill: Refill,
    /// `steal_chip_can_win` (S5a), default **false**: when false, a
    /// Steal-a-Chip may not be played if the stolen chip would meet the win
    /// condition (S7); when true it may, and that wins.
    pub steal_chip_can_win: bool,
    /// `block_window` (S5b), default **`"all_opponents"`**. See
    /// [`BlockWindow`].
    pub block_window: BlockWindow,
    /// `reshuffle_actions` (S6a), default **`"when_no_completed"`**. See
    /// [`ReshuffleActions`].
    pub reshuffle_actions: ReshuffleActions,
    /// `dead_game_draw` (draw detection, S6/S7), default **true**: the game
    /// is drawn as soon as neither chip supply holds a chip while
    /// Steal-a-Chip cannot win (S5a), since no player can win any more.
    /// Not an Interpretation of RULES.md but a consequence of it; turn it
    /// off to play on until the S6a draw.
    pub dead_game_draw: bool,
}

impl Options {
    /// The printed rules with RULES.md's interpretations (what
    /// [`Options::default`] gives), usable in constants.
    pub const DEFAULT: Options = Options {
        piles_per_colour: 2,
        refill: Refill::TurnStart,
        steal_chip_can_win: false,
        block_window: BlockWindow::AllOpponents,
        reshuffle_actions: ReshuffleActions::WhenNoCompleted,
        dead_game_draw: true,
    };
}

impl Default for Options {
    fn default() -> Self {
        Options::DEFAULT
    }
}

/// An option value out of range, said from the engine's option list as a
/// value of the wrong kind is ([`sequence_common::OptionSpec::out_of_range`]:
/// `options.piles_per_colour must be 1, 2, 3 or 4 (S3a), got 9`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OptionsError {
    /// `piles_per_colour` outside 1–4 (S3a).
    #[error("{}", out_of_range("piles_per_colour", *.0))]
    PilesPerColour(u8),
}

/// The refusal of `got` for the option `name`, from the option list.
fn out_of_range(name: &str, got: u8) -> String {
    let specs = <crate::Game as sequence_common::TableFacts>::option_specs();
    sequence_common::OptionSpec::out_of_range(&specs, name, got.into())
}

impl Options {
    /// Checks the values' ranges (S3a); a table does ([`crate::Config::new`]).
    ///
    /// # Errors
    /// [`OptionsError`] naming the option.
    pub fn validate(&self) -> Result<(), OptionsError> {
        if !(1..=crate::card::MAX_PLACES_PER_COLOUR as u8).contains(&self.piles_per_colour) {
            return Err(OptionsError::PilesPerColour(self.piles_per_colour));
        }
        Ok(())
    }

    /// The options as a JSON object holding only the fields that differ
    /// from the defaults (what a record's `options` holds).
    pub fn to_record_json(&self) -> serde_json::Value {
        let mine = serde_json::to_value(self).unwrap_or_default();
        let def = serde_json::to_value(Options::default()).unwrap_or_default();
        let mut out = serde_json::Map::new();
        if let (Some(m), Some(d)) = (mine.as_object(), def.as_object()) {
            for (k, v) in m {
                if d.get(k) != Some(v) {
                    out.insert(k.clone(), v.clone());
                }
            }
        }
        serde_json::Value::Object(out)
    }

    /// Reads options from a JSON object (absent fields take defaults). A
    /// value of the right kind out of range is the table's to refuse
    /// ([`crate::Config::new`], S3a), as in classic.
    ///
    /// # Errors
    /// A message naming an unknown field or a value of the wrong kind.
    pub fn from_json(v: &serde_json::Value) -> Result<Options, String> {
        let hints = <crate::Game as sequence_common::TableFacts>::option_hints("");
        sequence_common::json::from_value_hinted(v, &hints)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_interpretations() {
        let o = Options::default();
        assert_eq!(o.piles_per_colour, 2);
        assert_eq!(o.refill, Refill::TurnStart);
        assert!(!o.steal_chip_can_win);
        assert_eq!(o.block_window, BlockWindow::AllOpponents);
        assert_eq!(o.reshuffle_actions, ReshuffleActions::WhenNoCompleted);
        assert_eq!(o.to_record_json(), serde_json::json!({}));
        assert_eq!(Options::from_json(&serde_json::json!({})).unwrap(), o);
    }

    #[test]
    fn options_round_trip_and_refuse_unknown() {
        let o =
            Options::from_json(&serde_json::json!({"refill": "turn_end", "piles_per_colour": 3}))
                .unwrap();
        assert_eq!(o.refill, Refill::TurnEnd);
        assert_eq!(
            o.to_record_json(),
            serde_json::json!({"refill": "turn_end", "piles_per_colour": 3})
        );
        assert!(Options::from_json(&serde_json::json!({"colour": 1})).is_err());
        // a value out of range is read, and refused by the table (S3a) in
        // the option list's words, with the rule's code
        let nine = Options::from_json(&serde_json::json!({"piles_per_colour": 9})).unwrap();
        let e = crate::Config::new(2, nine).unwrap_err();
        assert_eq!(
            e.to_string(),
            "options.piles_per_colour must be 1, 2, 3 or 4 (S3a), got 9"
        );
        assert_eq!(sequence_common::RuleError::code(&e), "S3a.option");
        // a value of the wrong kind: the option's own values and rule, not
        // its JSON type's range (tester's finding)
        let e = Options::from_json(&serde_json::json!({"piles_per_colour": "three"})).unwrap_err();
        assert!(
            e.starts_with("piles_per_colour must be 1, 2, 3 or 4 (S3a), got the string \"three\""),
            "{e}"
        );
        let e = Options::from_json(&serde_json::json!({"refill": 3})).unwrap_err();
        assert!(
            e.contains("refill must be \"turn_start\" or \"turn_end\" (S4a)"),
            "{e}"
        );
    }
}
