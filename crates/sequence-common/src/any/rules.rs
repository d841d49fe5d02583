//! A game's rules before any deal, behind one type: [`AnyRules`], what a
//! table of a game of some kind is checked, seated, dealt and described
//! with (the server's lobby and tables), implemented once for every
//! engine ([`rules_of`]). `sequence_bots::rules` gives the one of a
//! [`GameKind`] through the workspace's one registration of its games.

use super::AnyGame;
use crate::game::{GameKind, Rules, TableConfig};
use crate::json::{describe as describe_error, kind_of};
use crate::live::Match;
use crate::penalty::PenaltyError;
use crate::seat::Seat;
use crate::table::{OptionSpec, TableFacts};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Map, Value};
use std::marker::PhantomData;

/// A table as it is asked for: its seats, its teams (`None`: the
/// default) and its rule options as records write them (`null`: the
/// defaults).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TableSetup<'a> {
    /// Seats.
    pub players: u8,
    /// Teams (C3), `None` for the default or a game without teams.
    pub teams: Option<u8>,
    /// Rule options as records write them.
    pub options: &'a Value,
}

/// The rules of a game of some kind before any deal: checking a table
/// (players, teams, rule options as records write them), seating it,
/// dealing it, and describing the game for a lobby. Object safe;
/// [`rules_of`] gives the one of an engine.
pub trait AnyRules: Sync {
    /// Which game this is.
    fn kind(&self) -> GameKind;

    /// Checks a table with the engine ([`Rules::table`]); the number of
    /// teams in a game with teams (the default applied), `None` in a game
    /// without.
    ///
    /// # Errors
    /// A message naming the bad field, option (`options.NAME …`, in the
    /// option's own words, [`TableFacts::option_hints`]) or rule (C3, S1).
    fn check_table(&self, table: TableSetup<'_>) -> Result<Option<u8>, String>;

    /// The teams of such a table and the team of each seat, by name, as
    /// the engine seats them (C3), known before the deal; `None` in a game
    /// without teams or for a table the engine refuses.
    fn seat_teams(&self, table: TableSetup<'_>) -> Option<(u8, Vec<Value>)>;

    /// A new game of such a table, dealt from `seed`, with its record.
    ///
    /// # Errors
    /// As [`AnyRules::check_table`].
    fn deal(&self, table: TableSetup<'_>, seed: u64) -> Result<Box<dyn AnyGame>, String>;

    /// A side's name as views and records write it (classic: its colour).
    fn side_json(&self, side: u8) -> Value;

    /// Why a table of this game cannot be given the table-talk penalty
    /// (C10): `None` when it can ([`crate::Notation::TABLE_TALK_PENALTY`]).
    fn no_penalty(&self) -> Option<String>;

    /// The game for a lobby (the server's `GET /api/games`): `name`,
    /// `title`, `record_format`, the player counts the engine allows
    /// (`players`), the team counts per player count (`teams`, and the
    /// default, `default_teams`; `null` in a game without teams), the
    /// rule `options` ([`OptionSpec::to_json`]), whether it has the
    /// table-talk `penalty` (C10), and the engine's own extras
    /// ([`TableFacts::describe_extras`]).
    fn describe(&self) -> Value;

    /// Replaces a lobby's shorthands in rule options
    /// ([`TableFacts::prepare_options`]: a random board drawn from `seed`).
    fn prepare_options(&self, options: &mut Value, seed: u64);
}

/// The [`AnyRules`] of the game `G`.
pub fn rules_of<G: TableFacts>() -> &'static dyn AnyRules {
    &RulesOf::<G>(PhantomData)
}

/// [`AnyRules`] of the game `G`.
struct RulesOf<G>(PhantomData<fn() -> G>);

impl<G: TableFacts> RulesOf<G> {
    /// The engine's table.
    fn config(table: TableSetup<'_>) -> Result<G::Config, String> {
        let TableSetup {
            players,
            teams,
            options,
        } = table;
        let hints = G::option_hints("options.");
        let options = read_options::<G::Options>(options, G::OPTIONS_EXAMPLE, &hints)?;
        // a value of the right kind out of range is the engine's to refuse,
        // said from its option list as one of the wrong kind is
        // (OptionSpec::out_of_range: C9, C11, S3a); so are teams (S1)
        G::table(players, teams, options).map_err(|e| e.to_string())
    }
}

impl<G: TableFacts> AnyRules for RulesOf<G> {
    fn kind(&self) -> GameKind {
        G::KIND
    }

    fn check_table(&self, table: TableSetup<'_>) -> Result<Option<u8>, String> {
        Self::config(table).map(|c| c.team_count())
    }

    fn seat_teams(&self, table: TableSetup<'_>) -> Option<(u8, Vec<Value>)> {
        let config = Self::config(table).ok()?;
        let teams = config.team_count()?;
        let seats = (0..config.players())
            .map(|s| G::side_to_json(config.side_of(Seat(s))))
            .collect();
        Some((teams, seats))
    }

    fn deal(&self, table: TableSetup<'_>, seed: u64) -> Result<Box<dyn AnyGame>, String> {
        let config = Self::config(table)?;
        Ok(Box::new(Match::<G>::new(config, seed)))
    }

    fn side_json(&self, side: u8) -> Value {
        G::side_to_json(side)
    }

    fn no_penalty(&self) -> Option<String> {
        (!G::TABLE_TALK_PENALTY).then(|| PenaltyError::NoPenalty(G::KIND).to_string())
    }

    fn describe(&self) -> Value {
        describe::<G>()
    }

    fn prepare_options(&self, options: &mut Value, seed: u64) {
        G::prepare_options(options, seed);
    }
}

/// Rule options as `T`: null is the defaults; anything else must be an
/// object (`example` shows one). Errors name the option by its path
/// (`options.sequence_length must be …`), in words: what each option must
/// be comes from the engine (`hints`, [`TableFacts::option_hints`] under
/// `options.`), else from its type.
fn read_options<T: DeserializeOwned + Default>(
    v: &Value,
    example: &str,
    hints: &[(String, String)],
) -> Result<T, String> {
    #[derive(Deserialize)]
    struct Wrapped<O> {
        options: O,
    }
    match v {
        Value::Null => Ok(T::default()),
        Value::Object(_) => {
            serde_path_to_error::deserialize::<_, Wrapped<T>>(json!({ "options": v }))
                .map(|w| w.options)
                .map_err(|e| describe_error(&e, hints))
        }
        other => Err(format!(
            "options must be a JSON object like {example}, not {}",
            kind_of(other)
        )),
    }
}

/// The teams (C3) of the table `G` could seat `players` in, by the engine
/// (every count from 2 to `players` it accepts): `None` when the player
/// count is not allowed.
fn team_choices<G: Rules>(players: u8) -> Option<Vec<u8>>
where
    G::Options: Default,
{
    let def = G::table(players, None, G::Options::default()).ok()?;
    let Some(default_teams) = def.team_count() else {
        return Some(vec![]);
    };
    let mut out = vec![default_teams];
    for t in 2..=players {
        if t != default_teams
            && G::table(players, Some(t), G::Options::default())
                .is_ok_and(|c| c.team_count() == Some(t))
        {
            out.push(t);
        }
    }
    out.sort_unstable();
    Some(out)
}

/// [`AnyRules::describe`] of the game `G`: every player count the engine
/// accepts ([`Rules::table`]).
fn describe<G: TableFacts>() -> Value {
    let mut players = vec![];
    let mut teams = Map::new();
    let mut default_teams = Map::new();
    for p in 0..=u8::MAX {
        if let Some(t) = team_choices::<G>(p) {
            players.push(p);
            if let Ok(c) = G::table(p, None, G::Options::default()) {
                if let Some(d) = c.team_count() {
                    default_teams.insert(p.to_string(), json!(d));
                    teams.insert(p.to_string(), json!(t));
                }
            }
        }
    }
    let mut d = json!({
        "name": G::KIND.name(),
        "title": G::KIND.title(),
        "record_format": G::KIND.record_format(),
        "players": players,
        "teams": if G::TEAMS { Value::Object(teams) } else { Value::Null },
        "default_teams": if G::TEAMS { Value::Object(default_teams) } else { Value::Null },
        "options": G::option_specs().iter().map(OptionSpec::to_json).collect::<Vec<_>>(),
        "penalty": G::TABLE_TALK_PENALTY,
    });
    if let Some(o) = d.as_object_mut() {
        G::describe_extras(o);
    }
    d
}
