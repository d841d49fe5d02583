//! Bots by name: a *bot spec* such as `greedy:40%`, `search:5000it:2t`,
//! `level:3` or `cmd:PROGRAM` read into a [`BotSpec`] ([`parse_spec`]) and
//! built for a game ([`bot`], [`bot_from`]); the levels of the user
//! interfaces ([`level`], [`LEVEL_ELO`]).

use crate::bot::{Bot, BotGame};
use crate::config::{SearchConfig, SearchSpec};
use crate::protocol;
use crate::random::RandomBot;
use crate::search::Budget;
use crate::shell::{Greedy, GreedyBot};
use std::time::Duration;

/// A bot name that cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BotError {
    /// Not one of the known names.
    #[error("unknown bot {0:?} (expected random, greedy, search[:200ms|:1s|:5000it][:4t][:c10][:tree][:learned], level:1..5 or cmd:PROGRAM; ismcts:… is the old name of search:…)")]
    Unknown(String),
    /// A known bot with a bad budget or option.
    #[error("bot {spec:?}: {why}")]
    BadOption {
        /// The spec given.
        spec: String,
        /// What is wrong with it.
        why: String,
    },
    /// A `cmd:` bot whose program could not be started or greeted.
    #[error("bot {spec:?}: {why}")]
    Program {
        /// The spec given.
        spec: String,
        /// What went wrong.
        why: String,
    },
}

/// A parsed bot name (see the crate docs for the grammar).
#[derive(Debug, Clone, PartialEq)]
pub enum BotSpec {
    /// Uniformly random legal moves.
    Random,
    /// One-ply heuristic; `blunder` is the chance (0–1) of a random move
    /// instead (level 1).
    Greedy {
        /// Chance of a random move.
        blunder: f64,
    },
    /// The game's search bot (`search:…`, formerly `ismcts:…`: flat root
    /// Monte Carlo over determinized deals with rollouts by default, the
    /// ISMCTS tree with `tree`), with its budget per move,
    /// trees and overrides; its settings are the defaults until
    /// [`bot_from`] puts in the ones it is given.
    Search(SearchSpec),
    /// An outside program speaking the bot protocol.
    Command {
        /// The command line (split on whitespace; no shell).
        command: String,
        /// Per-move time limit.
        move_time: Duration,
    },
}

/// The name of the search bot in a spec (`search:3000it:1t`): flat root
/// Monte Carlo over determinized deals with rollouts by default (the
/// ISMCTS tree with `:tree`). `ismcts` and `mcts`, its names before, are
/// still read as the same bot.
pub const SEARCH: &str = "search";

/// Default per-move time limit of `cmd:` bots.
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(5);

/// The spec a level (1–5) stands for, for the terminal and browser UIs.
/// Each level wins at least 60 % of classic 2-player duplicate games
/// against the level below (docs/bots.md): 1 to 4 are the greedy
/// heuristic with 90 %, 60 %, 35 % and 12 % random moves, 5 the search
/// (`search:3000it:1t`). Budgets are iterations, so a level plays alike on
/// any machine and under any load. [`level_elo`] gives each level's
/// measured Elo.
///
/// # Errors
/// [`BotError::BadOption`] outside 1–5.
pub fn level(n: u8) -> Result<BotSpec, BotError> {
    Ok(match n {
        1 => BotSpec::Greedy { blunder: 0.90 },
        2 => BotSpec::Greedy { blunder: 0.60 },
        3 => BotSpec::Greedy { blunder: 0.35 },
        4 => BotSpec::Greedy { blunder: 0.12 },
        5 => BotSpec::Search(SearchSpec::new(Budget::Iterations(3000), Some(1))),
        _ => {
            return Err(BotError::BadOption {
                spec: format!("level:{n}"),
                why: "levels run from 1 to 5".into(),
            })
        }
    })
}

/// Measured Elo of `level:1` … `level:5` (index 0 is level 1), classic
/// Sequence, 2 players, on a scale where the uniformly random bot is
/// 1000: each level's rating is the one below plus
/// `400 · log10(p / (1 − p))` for its score `p` against it in duplicate
/// arena games (docs/bots.md lists the games and intervals).
pub const LEVEL_ELO: [u16; 5] = [1099, 1366, 1520, 1628, 1748];

/// The measured Elo of a level (1–5, see [`LEVEL_ELO`]); `None` outside.
pub fn level_elo(level: u8) -> Option<u16> {
    LEVEL_ELO.get(usize::from(level).checked_sub(1)?).copied()
}

fn bad(spec: &str, why: impl Into<String>) -> BotError {
    BotError::BadOption {
        spec: spec.to_string(),
        why: why.into(),
    }
}

/// Reads a budget: `200ms`, `1s`, `1.5s`, `5000it`.
///
/// # Errors
/// A message naming the text.
pub fn parse_budget(s: &str) -> Result<Budget, String> {
    let num = |t: &str| {
        t.trim()
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite() && *x > 0.0)
    };
    if let Some(t) = s.strip_suffix("ms") {
        num(t).map(|x| Budget::Time(Duration::from_secs_f64(x / 1000.0)))
    } else if let Some(t) = s.strip_suffix("it") {
        t.trim()
            .parse::<u64>()
            .ok()
            .filter(|&n| n > 0)
            .map(Budget::Iterations)
    } else if let Some(t) = s.strip_suffix('s') {
        num(t).map(|x| Budget::Time(Duration::from_secs_f64(x)))
    } else {
        None
    }
    .ok_or_else(|| format!("{s:?} is not a budget (e.g. 200ms, 1s, 5000it)"))
}

/// Parses a bot name into a [`BotSpec`].
///
/// # Errors
/// [`BotError::Unknown`] or [`BotError::BadOption`].
pub fn parse_spec(spec: &str) -> Result<BotSpec, BotError> {
    let s = spec.trim();
    if let Some(cmd) = s.strip_prefix("cmd:") {
        if cmd.split_whitespace().next().is_none() {
            return Err(bad(spec, "no program given after cmd:"));
        }
        return Ok(BotSpec::Command {
            command: cmd.trim().to_string(),
            move_time: DEFAULT_MOVE_TIME,
        });
    }
    let lower = s.to_ascii_lowercase();
    let mut parts = lower.split(':');
    let head = parts.next().unwrap_or_default();
    let rest: Vec<&str> = parts.collect();
    if let Some(n) = head.strip_prefix("level") {
        let n = if n.is_empty() {
            if rest.len() > 1 {
                return Err(bad(spec, "a level takes no options (level:1 … level:5)"));
            }
            rest.first().copied().unwrap_or_default()
        } else {
            if !rest.is_empty() {
                return Err(bad(spec, "a level takes no options (level:1 … level:5)"));
            }
            n.trim_matches(['(', ')'])
        };
        let n: u8 = n
            .trim_matches(['(', ')'])
            .parse()
            .map_err(|_| bad(spec, "a level is a number from 1 to 5"))?;
        return level(n);
    }
    match head {
        "random" if rest.is_empty() => Ok(BotSpec::Random),
        "greedy" => {
            let blunder = match rest.as_slice() {
                [] => 0.0,
                [b] => {
                    let p = b
                        .strip_suffix('%')
                        .unwrap_or(b)
                        .parse::<f64>()
                        .map_err(|_| bad(spec, "blunder rate e.g. greedy:40%"))?;
                    if !b.ends_with('%') && p > 0.0 && p < 1.0 {
                        return Err(bad(
                            spec,
                            "the blunder rate is in percent: greedy:40% is 40 %, greedy:0.4% is 0.4 %",
                        ));
                    }
                    if !(0.0..=100.0).contains(&p) {
                        return Err(bad(spec, "blunder rate from 0% to 100%"));
                    }
                    p / 100.0
                }
                _ => {
                    return Err(bad(
                        spec,
                        "greedy takes at most one option (blunder rate, e.g. greedy:40%)",
                    ))
                }
            };
            Ok(BotSpec::Greedy { blunder })
        }
        // `ismcts` and `mcts`: the names before `search`, kept for the
        // levels and arenas saved with them (the same bot)
        SEARCH | "ismcts" | "mcts" => parse_search(spec, &rest),
        _ => Err(BotError::Unknown(spec.to_string())),
    }
}

/// Reads the options of `search:…` (`rest`, lower case) of `spec`.
fn parse_search(spec: &str, rest: &[&str]) -> Result<BotSpec, BotError> {
    let mut budget = None;
    let mut trees = None;
    let mut cutoff = None;
    let mut flat = None;
    let mut learned = false;
    for &r in rest {
        if r == "learned" {
            if learned {
                return Err(bad(spec, "learned is given twice"));
            }
            learned = true;
        } else if r == "flat" || r == "tree" {
            if flat.is_some() {
                return Err(bad(spec, "flat or tree is given twice"));
            }
            flat = Some(r == "flat");
        } else if let Some(c) = r
            .strip_prefix('c')
            .filter(|t| t.chars().all(|c| c.is_ascii_digit()) && !t.is_empty())
        {
            if cutoff.is_some() {
                return Err(bad(spec, "the cutoff is given twice"));
            }
            cutoff = Some(c.parse().map_err(|_| bad(spec, "cutoff e.g. c10"))?);
        } else if let Some(t) = r
            .strip_suffix('t')
            .filter(|t| t.chars().all(|c| c.is_ascii_digit()) && !t.is_empty())
        {
            let n: usize = t.parse().map_err(|_| bad(spec, "trees e.g. 4t"))?;
            if n == 0 || n > 256 {
                return Err(bad(spec, "trees from 1 to 256"));
            }
            if trees.is_some() {
                return Err(bad(spec, "the number of trees is given twice"));
            }
            trees = Some(n);
        } else {
            let b = parse_budget(r).map_err(|e| bad(spec, e))?;
            if budget.is_some() {
                return Err(bad(spec, "the budget is given twice"));
            }
            budget = Some(b);
        }
    }
    if learned && flat == Some(false) {
        return Err(bad(spec, "learned guides the flat search, not the tree"));
    }
    Ok(BotSpec::Search(SearchSpec {
        cutoff,
        flat,
        learned,
        ..SearchSpec::new(
            budget.unwrap_or(Budget::Time(Duration::from_millis(200))),
            trees,
        )
    }))
}

/// Builds a bot for the game `G` from its name (see [`parse_spec`]) with
/// its own random generator seeded by `seed` (ChaCha8). A `cmd:` bot
/// starts its program and greets it (docs/bot-protocol.md).
///
/// # Errors
/// [`BotError`] for an unknown name, a bad option, or a program that does
/// not start or greet.
pub fn bot<G: BotGame>(spec: &str, seed: u64) -> Result<Box<dyn Bot<G>>, BotError> {
    let parsed = parse_spec(spec)?;
    bot_from(spec, parsed, seed, &SearchConfig::default())
}

/// As [`bot`] from a parsed [`BotSpec`] and explicit search settings; `name`
/// is what [`Bot::name`] reports.
///
/// # Errors
/// As [`bot`].
pub fn bot_from<G: BotGame>(
    name: &str,
    spec: BotSpec,
    seed: u64,
    config: &SearchConfig,
) -> Result<Box<dyn Bot<G>>, BotError> {
    let name = name.trim().to_string();
    // `level:5` searches with this game's own budget.
    let spec = match spec {
        BotSpec::Search(search) if name.to_ascii_lowercase().starts_with("level") => {
            BotSpec::Search(SearchSpec {
                budget: Budget::Iterations(G::TOP_LEVEL_ITERATIONS),
                ..search
            })
        }
        spec => spec,
    };
    Ok(match spec {
        BotSpec::Random => Box::new(RandomBot::new(name, seed)),
        BotSpec::Greedy { blunder } => {
            Box::new(GreedyBot::new(name, seed, Greedy::<G>::new(blunder)))
        }
        BotSpec::Search(search) => G::search_bot(
            name,
            seed,
            &SearchSpec {
                config: *config,
                ..search
            },
        ),
        BotSpec::Command { command, move_time } => Box::new(
            protocol::ProgramBot::start(&command, G::KIND.name(), move_time, seed)
                .map_err(|why| BotError::Program {
                    spec: name.clone(),
                    why,
                })?
                .playing::<G>(name),
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every level is rated, each above the one below (the ladder of
    /// docs/bots.md), and only levels 1–5 are.
    #[test]
    fn levels_rise_in_elo() {
        assert!(LEVEL_ELO.windows(2).all(|w| w[0] < w[1]), "{LEVEL_ELO:?}");
        assert_eq!(level_elo(1), Some(LEVEL_ELO[0]));
        assert_eq!(level_elo(5), Some(LEVEL_ELO[4]));
        assert_eq!(level_elo(0), None);
        assert_eq!(level_elo(6), None);
        for n in 1..=5 {
            assert!(level(n).is_ok());
        }
    }

    /// `search:…` is the search bot's name; `ismcts:…` and `mcts:…`, its
    /// names before (in saved levels and arenas), read as the same bot.
    #[test]
    fn the_old_search_names_read_as_search() {
        for options in [
            "",
            ":200ms",
            ":5000it:2t",
            ":3000it:1t:tree",
            ":flat:c10",
            ":1s:learned",
        ] {
            let new = parse_spec(&format!("search{options}")).expect("search parses");
            assert!(
                matches!(new, BotSpec::Search(_)),
                "search{options}: {new:?}"
            );
            for old in ["ismcts", "MCTS"] {
                assert_eq!(
                    parse_spec(&format!("{old}{options}")),
                    Ok(new.clone()),
                    "{old}{options}"
                );
            }
        }
        let unknown = parse_spec("alphazero").expect_err("unknown").to_string();
        assert!(unknown.contains("search[:200ms"), "{unknown}");
        assert!(matches!(
            parse_spec("search:fast"),
            Err(BotError::BadOption { .. })
        ));
    }

    #[test]
    fn specs_parse() {
        assert_eq!(parse_spec("random").unwrap(), BotSpec::Random);
        assert_eq!(
            parse_spec("greedy").unwrap(),
            BotSpec::Greedy { blunder: 0.0 }
        );
        assert_eq!(
            parse_spec("ismcts:200ms").unwrap(),
            BotSpec::Search(SearchSpec {
                cutoff: None,
                flat: None,
                ..SearchSpec::new(Budget::Time(Duration::from_millis(200)), None)
            })
        );
        assert_eq!(
            parse_spec("ismcts:5000it:2t").unwrap(),
            BotSpec::Search(SearchSpec {
                cutoff: None,
                flat: None,
                ..SearchSpec::new(Budget::Iterations(5000), Some(2))
            })
        );
        assert_eq!(
            parse_spec("ismcts:3000it:1t:tree").unwrap(),
            BotSpec::Search(SearchSpec {
                cutoff: None,
                flat: Some(false),
                ..SearchSpec::new(Budget::Iterations(3000), Some(1))
            })
        );
        assert!(matches!(
            parse_spec("ismcts:flat").unwrap(),
            BotSpec::Search(SearchSpec {
                flat: Some(true),
                ..
            })
        ));
        assert!(matches!(
            parse_spec("ismcts:3000it:1t:learned").unwrap(),
            BotSpec::Search(SearchSpec { learned: true, .. })
        ));
        for bad_learned in ["ismcts:learned:learned", "ismcts:learned:tree"] {
            assert!(
                matches!(parse_spec(bad_learned), Err(BotError::BadOption { .. })),
                "{bad_learned} was accepted"
            );
        }
        assert!(matches!(
            parse_spec("ismcts:flat:tree"),
            Err(BotError::BadOption { .. })
        ));
        assert_eq!(parse_spec("level:5").unwrap(), level(5).unwrap());
        assert_eq!(parse_spec("level(3)").unwrap(), level(3).unwrap());
        assert!(
            matches!(parse_spec("cmd:python3 bot.py").unwrap(), BotSpec::Command { command, .. } if command == "python3 bot.py")
        );
        assert!(matches!(
            parse_spec("ismcts:fast"),
            Err(BotError::BadOption { .. })
        ));
        assert!(matches!(
            parse_spec("level:9"),
            Err(BotError::BadOption { .. })
        ));
        assert!(matches!(parse_spec("alphazero"), Err(BotError::Unknown(_))));
        // Found by a tester: options that were silently ignored or misread.
        for loose in [
            "level:3:foo",
            "level(3):1s",
            "ismcts:1s:2s",
            "ismcts:2t:4t",
            "ismcts:c2:c4",
            "greedy:0.4",
            "greedy:40%%",
            "ismcts:200it:c-1",
        ] {
            assert!(
                matches!(parse_spec(loose), Err(BotError::BadOption { .. })),
                "{loose} was accepted"
            );
        }
        assert_eq!(
            parse_spec("greedy:0.4%").unwrap(),
            BotSpec::Greedy { blunder: 0.004 }
        );
        assert_eq!(
            parse_spec("greedy:40").unwrap(),
            BotSpec::Greedy { blunder: 0.4 }
        );
        assert!(matches!(
            parse_spec("cmd:  "),
            Err(BotError::BadOption { .. })
        ));
    }
}
