//! How a table was created ([`Spec`]): the same for every game, the
//! engine reading its rule options and checking the table
//! ([`sequence_common::AnyRules::check_table`]).

use sequence_common::GameKind;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// How a table was created (stored as JSON; holds no secret).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Spec {
    /// The game.
    pub game: GameKind,
    /// Seats: classic 2–12 (C3), Stacks 2–6.
    pub players: u8,
    /// Classic teams (C3), `None` for the default / Stacks.
    pub teams: Option<u8>,
    /// Rule options as in the record formats.
    pub options: Value,
    /// The table's name (escaped): its own, or `NAME's table` after the
    /// creator when it was given none (see `named_after`).
    pub name: String,
    /// The creator's name (escaped) when the table was given no name of its
    /// own, so that a client can say "NAME's table" in its language.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub named_after: Option<String>,
    /// Turn timer in seconds.
    pub turn_seconds: Option<u32>,
    /// Not listed in `GET /api/tables` (only the invite link finds it).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub private: bool,
    /// Creation time, Unix ms.
    pub created_ms: i64,
    /// The tutorial this table plays ([`super::tutorial`]): its first game
    /// is dealt from the tutorial's seed and its bot seeded from it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tutorial: Option<String>,
    /// Rated (`Some(true)`) or casual (`Some(false)`) as the host chose;
    /// `None` (tables made before ratings, or no choice): rated unless a
    /// bot plays. A game with a bot is casual either way
    /// ([`crate::results`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rated: Option<bool>,
}

impl Spec {
    /// A table of `game` for `players` named `name` with everything else
    /// left as it comes: default teams and options, no turn timer, listed,
    /// created at time 0 (for building tables directly, as tests do).
    pub fn plain(game: GameKind, players: u8, name: &str) -> Spec {
        Spec {
            game,
            players,
            teams: None,
            options: Value::Null,
            name: name.to_string(),
            named_after: None,
            turn_seconds: None,
            private: false,
            created_ms: 0,
            tutorial: None,
            rated: None,
        }
    }
}
