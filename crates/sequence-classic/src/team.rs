//! A team of classic Sequence (C3): its number and colour.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A team, by number: team 0 plays blue, 1 green, 2 red (RECORD.md).
/// Seat `s` is in team `s % teams` (C3).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Team(pub u8);

impl Team {
    /// The chip colour's name: `blue`, `green`, `red`.
    pub fn colour(self) -> &'static str {
        ["blue", "green", "red"][self.0 as usize % 3]
    }

    /// The team of a colour name (any case).
    pub fn from_colour(name: &str) -> Option<Team> {
        match name.to_ascii_lowercase().as_str() {
            "blue" => Some(Team(0)),
            "green" => Some(Team(1)),
            "red" => Some(Team(2)),
            _ => None,
        }
    }

    /// One-letter chip code: `B`, `G`, `R` (lower case when locked).
    pub fn letter(self) -> char {
        ['B', 'G', 'R'][self.0 as usize % 3]
    }

    /// Index `0 … 2`.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Team {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.colour())
    }
}

impl Serialize for Team {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.colour())
    }
}

impl<'de> Deserialize<'de> for Team {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Team, D::Error> {
        let s = String::deserialize(d)?;
        Team::from_colour(&s)
            .ok_or_else(|| serde::de::Error::custom(format!("{s:?} is not blue, green or red")))
    }
}
