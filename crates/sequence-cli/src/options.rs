//! `sequence options`: a game's rule options as its engine lists them
//! ([`sequence_common::TableFacts::option_specs`]: name, rule id, values
//! offered, default) — the list the server's lobby shows (`GET
//! /api/games`) and Python's `rule_options`, from the same place.

use sequence_bots::{with_game, BotGame, ForGame};
use sequence_common::{GameKind, OptionSpec};
use serde_json::Value;

/// `sequence options`.
#[derive(Debug, clap::Args)]
pub struct OptionsArgs {
    /// Game: `classic` or `stacks`.
    #[arg(long, default_value = "classic")]
    pub game: GameKind,
    /// Print the list as JSON (as `GET /api/games` gives it) instead of a
    /// table.
    #[arg(long)]
    pub json: bool,
}

/// The option list of a game ([`with_game`]).
struct Specs;

impl ForGame for Specs {
    type Out = Vec<OptionSpec>;

    fn call<G: BotGame>(self) -> Vec<OptionSpec> {
        G::option_specs()
    }
}

/// A value as the table shows it: JSON, `null` as `official`.
fn shown(v: &Value) -> String {
    match v {
        Value::Null => "official".into(),
        Value::String(s) => s.clone(),
        v => v.to_string(),
    }
}

/// The options of `game` as a table: one line per option, `name  rule
/// default  values`.
pub fn table(game: GameKind) -> String {
    let specs = with_game(game, Specs);
    let mut out = format!("{:<22} {:<5} {:<18} values\n", "option", "rule", "default");
    for s in &specs {
        let values: Vec<String> = s.values.iter().map(shown).collect();
        let default = match &s.by_sides {
            Some(b) => format!("by sides {b}"),
            None => shown(&s.default),
        };
        out += &format!(
            "{:<22} {:<5} {:<18} {}\n",
            s.name,
            s.rule,
            default,
            values.join(", ")
        );
    }
    out
}

/// Runs `sequence options`.
///
/// # Errors
/// Never (printing to a closed pipe ends the program quietly).
pub fn run(a: &OptionsArgs) -> anyhow::Result<()> {
    if a.json {
        let list: Vec<Value> = with_game(a.game, Specs)
            .iter()
            .map(OptionSpec::to_json)
            .collect();
        println!("{}", Value::Array(list));
    } else {
        print!("{}", table(a.game));
    }
    Ok(())
}
