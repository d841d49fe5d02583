//! Table configuration (C3, C4, C9) and rule options (Interpretations and
//! house rules of RULES.md, C6a, C7, C8a, C11).
//!
//! The names of [`Options`]' fields are the names the record's `options`
//! object uses (RECORD.md); an absent field takes the official default.

use crate::layout::{Layout, LayoutError};
use serde::{Deserialize, Serialize};

/// What a player with no legal play does (Interpretation **C6a**).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum NoPlay {
    /// Official interpretation: the player passes and draws nothing; a full
    /// round of passes with no dead-card exchange is a draw.
    #[default]
    Pass,
    /// House variant: the player discards a card of their choice and draws
    /// (record move `{"discard": C}`); a full round of such turns with no
    /// dead-card exchange is a draw.
    Discard,
}

/// Which window the engine takes for a line longer than a sequence when a
/// move names none (Interpretation **C8a**).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum DefaultWindow {
    /// Official interpretation: the window whose first space in reading
    /// order comes first.
    #[default]
    First,
    /// The window whose first space in reading order comes last.
    Last,
}

/// Rule options; [`Options::default`] is the official rules.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct Options {
    /// `win_sequences` (C9, C11): sequences a team needs to win; absent =
    /// 2 with two sides, 1 with three. Range 1–4.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub win_sequences: Option<u8>,
    /// `sequence_length` (C8, C11): spaces in a sequence, 5 (official) or 4.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sequence_length: Option<u8>,
    /// `no_reshuffle` (C7, C11): when the draw pile runs out, no new pile is
    /// made; players play on with what they hold.
    #[serde(skip_serializing_if = "is_false")]
    pub no_reshuffle: bool,
    /// `removable_sequences` (C11): a one-eyed jack may remove a chip of a
    /// completed sequence, which breaks that sequence.
    #[serde(skip_serializing_if = "is_false")]
    pub removable_sequences: bool,
    /// `board` (C11 random board layout): 10 rows of 10 codes, `XX` on the
    /// corners; absent = the official board of C2.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub board: Option<Vec<String>>,
    /// `no_play` (C6a): `"pass"` (official) or `"discard"`.
    #[serde(skip_serializing_if = "is_default")]
    pub no_play: NoPlay,
    /// `default_window` (C8a): `"first"` (official) or `"last"`.
    #[serde(skip_serializing_if = "is_default")]
    pub default_window: DefaultWindow,
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_default<T: Default + PartialEq>(t: &T) -> bool {
    *t == T::default()
}

/// A table that breaks C3 or an option out of range.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// Player count not in 2, 3, 4, 6, 8, 9, 10, 12 (C3).
    #[error("{0} players is not allowed: 2, 3, 4, 6, 8, 9, 10 or 12 (C3)")]
    Players(u8),
    /// Teams not allowed for this many players (C3).
    #[error("{players} players cannot form {teams} teams (C3)")]
    Teams {
        /// Players at the table.
        players: u8,
        /// Teams asked for.
        teams: u8,
    },
    /// An option out of range (C9, C11): the option's name and its
    /// refusal in the words of the option list
    /// ([`sequence_common::OptionSpec::out_of_range`]: `options.sequence_length
    /// must be 5 or 4 (C11), got 3`).
    #[error("{1}")]
    Option(&'static str, String),
    /// A bad custom board.
    #[error(transparent)]
    Layout(#[from] LayoutError),
}

impl ConfigError {
    /// The option `name` given `got`, a value it does not offer, said from
    /// the engine's option list (its values and rule).
    fn out_of_range(name: &'static str, got: u8) -> ConfigError {
        let specs = <crate::Game as sequence_common::TableFacts>::option_specs();
        let words = sequence_common::OptionSpec::out_of_range(&specs, name, got.into());
        ConfigError::Option(name, words)
    }
}

/// Players, teams and options of one table. Validated by [`Config::new`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    players: u8,
    teams: u8,
    options: Options,
}

impl Config {
    /// The allowed player counts (C3).
    pub const PLAYER_COUNTS: [u8; 8] = [2, 3, 4, 6, 8, 9, 10, 12];

    /// The default number of teams for `players` (C3): each alone up to 3,
    /// else 2 teams when the count is even, otherwise 3.
    pub fn default_teams(players: u8) -> u8 {
        if players <= 3 {
            players
        } else if players.is_multiple_of(2) {
            2
        } else {
            3
        }
    }

    /// A validated table.
    ///
    /// # Errors
    /// [`ConfigError`] when the player count or team split breaks C3, or an
    /// option is out of range.
    pub fn new(players: u8, teams: Option<u8>, options: Options) -> Result<Config, ConfigError> {
        if !Self::PLAYER_COUNTS.contains(&players) {
            return Err(ConfigError::Players(players));
        }
        let teams = teams.unwrap_or_else(|| Self::default_teams(players));
        let ok = if players <= 3 {
            teams == players
        } else {
            (teams == 2 || teams == 3) && players.is_multiple_of(teams)
        };
        if !ok {
            return Err(ConfigError::Teams { players, teams });
        }
        if let Some(w) = options.win_sequences {
            if !(1..=4).contains(&w) {
                return Err(ConfigError::out_of_range("win_sequences", w));
            }
        }
        if let Some(l) = options.sequence_length {
            if l != 4 && l != 5 {
                return Err(ConfigError::out_of_range("sequence_length", l));
            }
        }
        if let Some(rows) = &options.board {
            Layout::from_rows(rows)?;
        }
        Ok(Config {
            players,
            teams,
            options,
        })
    }

    /// Players at the table.
    pub fn players(&self) -> u8 {
        self.players
    }

    /// Teams (2 or 3; equals `players` when 3 or fewer).
    pub fn teams(&self) -> u8 {
        self.teams
    }

    /// The rule options.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Cards per hand (C4).
    pub fn hand_size(&self) -> usize {
        match self.players {
            2 => 7,
            3 | 4 => 6,
            6 => 5,
            8 | 9 => 4,
            _ => 3,
        }
    }

    /// Sequences needed to win (C9, or the `win_sequences` option).
    pub fn win_sequences(&self) -> u8 {
        self.options
            .win_sequences
            .unwrap_or(if self.teams == 3 { 1 } else { 2 })
    }

    /// Spaces in a sequence (5, or 4 with the house rule).
    pub fn sequence_length(&self) -> u8 {
        self.options.sequence_length.unwrap_or(5)
    }

    /// The board layout these options give.
    pub fn layout(&self) -> Layout {
        match &self.options.board {
            None => Layout::official(),
            Some(rows) => match Layout::from_rows(rows) {
                Ok(l) => l,
                Err(_) => Layout::official(), // validated in Config::new
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c3_player_counts_and_teams() {
        for p in [5, 7, 11, 1, 13, 0] {
            assert_eq!(
                Config::new(p, None, Options::default()),
                Err(ConfigError::Players(p))
            );
        }
        assert_eq!(
            Config::new(6, Some(3), Options::default()).unwrap().teams(),
            3
        );
        assert_eq!(Config::new(6, None, Options::default()).unwrap().teams(), 2);
        assert_eq!(
            Config::new(12, Some(3), Options::default())
                .unwrap()
                .teams(),
            3
        );
        assert_eq!(Config::new(9, None, Options::default()).unwrap().teams(), 3);
        assert!(Config::new(4, Some(3), Options::default()).is_err());
        assert!(Config::new(8, Some(3), Options::default()).is_err());
        assert!(Config::new(3, Some(2), Options::default()).is_err());
        assert!(Config::new(9, Some(2), Options::default()).is_err());
    }

    #[test]
    fn c4_hand_sizes() {
        let sizes: Vec<usize> = Config::PLAYER_COUNTS
            .iter()
            .map(|&p| {
                Config::new(p, None, Options::default())
                    .unwrap()
                    .hand_size()
            })
            .collect();
        assert_eq!(sizes, [7, 6, 6, 5, 4, 4, 3, 3]);
    }

    #[test]
    fn c9_sequences_to_win() {
        assert_eq!(
            Config::new(2, None, Options::default())
                .unwrap()
                .win_sequences(),
            2
        );
        assert_eq!(
            Config::new(3, None, Options::default())
                .unwrap()
                .win_sequences(),
            1
        );
        assert_eq!(
            Config::new(12, Some(3), Options::default())
                .unwrap()
                .win_sequences(),
            1
        );
        assert_eq!(
            Config::new(12, Some(2), Options::default())
                .unwrap()
                .win_sequences(),
            2
        );
    }

    #[test]
    fn options_json_names() {
        let o: Options = serde_json::from_str(
            r#"{"win_sequences":3,"sequence_length":4,"no_reshuffle":true,"removable_sequences":true,"no_play":"discard","default_window":"last"}"#,
        )
        .unwrap();
        assert_eq!(o.win_sequences, Some(3));
        assert_eq!(o.no_play, NoPlay::Discard);
        assert!(serde_json::from_str::<Options>(r#"{"sequence_lenght":4}"#).is_err());
        assert_eq!(serde_json::to_string(&Options::default()).unwrap(), "{}");
        assert!(Config::new(
            2,
            None,
            Options {
                sequence_length: Some(6),
                ..Options::default()
            }
        )
        .is_err());
    }

    /// A value out of range is said from the option list, as the server
    /// says it, and keeps the rule's code (C11.option).
    #[test]
    fn c11_a_value_out_of_range_is_said_from_the_option_list() {
        use sequence_common::RuleError;
        let refused = |options: Options| {
            let e = crate::SetupError::from(Config::new(2, None, options).unwrap_err());
            (e.code(), e.to_string())
        };
        let len = Options {
            sequence_length: Some(3),
            ..Options::default()
        };
        assert_eq!(
            refused(len),
            (
                "C11.option",
                "options.sequence_length must be 5 or 4 (C11), got 3".to_string()
            )
        );
        let wins = Options {
            win_sequences: Some(7),
            ..Options::default()
        };
        assert_eq!(
            refused(wins).1,
            "options.win_sequences must be 1, 2, 3 or 4, or null for the official rule (C9), got 7"
        );
    }
}
