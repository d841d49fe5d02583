//! Bots for both games, written once over the game interface
//! ([`sequence_common::Rules`]): the [`Bot`] trait, the arena and the bot
//! protocol. Bots see only a seat's view.
//!
//! * [`Bot<G>`]: a bot takes one seat's view (`G::View`) and answers one of
//!   its legal moves. It never sees another seat's hand or the draw pile;
//!   searching bots sample those with the view's `determinize`.
//! * [`bot`] builds a bot for a game from a name (a *spec*): `random`,
//!   `greedy`, `ismcts`, `ismcts:200ms`, `ismcts:5000it`, `ismcts:2s:4t`
//!   (4 trees), `ismcts:5000it:c10` (classic: playouts cut after 10 moves),
//!   `ismcts:3000it:tree` (the ISMCTS tree instead of the default flat
//!   root Monte Carlo over the best candidate moves; `flat` asks for the
//!   latter), `greedy:40%` (40 % random moves), `level:1` … `level:5`, `cmd:PROGRAM
//!   ARGS…` (an outside program speaking the bot protocol,
//!   docs/bot-protocol.md). Each game supplies its heuristic and search
//!   through [`BotGame`]: [`classic`] and [`stacks`].
//! * [`ismcts`]: Information-Set Monte Carlo Tree Search (single observer,
//!   Cowling, Powley & Whitehouse 2012) with root parallelism, over
//!   [`ismcts::SearchState`]; its settings are a [`SearchConfig`] (never the
//!   environment).
//! * [`arena`]: bots play each other; [`cli`]: `sequence arena` and
//!   `sequence hint`.

pub mod arena;
pub mod bench;
pub mod classic;
pub mod cli;
pub mod config;
pub mod duplicate;
pub mod ismcts;
pub mod protocol;
pub mod random;
pub mod shell;
pub mod stacks;

use sequence_common::{Notation, Rules};
use std::time::Duration;

pub use config::SearchConfig;
pub use ismcts::{Budget, SearchReport};
pub use random::RandomBot;
use sequence_common::rng::GameRng;
pub use shell::{Decide, Greedy, GreedyBot, SearchSpec, Shell, ShellBot};

/// A bot for the game `G`. It decides from the seat's view only.
pub trait Bot<G: Rules>: Send {
    /// The bot's name as given to [`bot`] (e.g. `ismcts:200ms`).
    fn name(&self) -> String;

    /// One of the view's legal moves. Called only when the view's seat must
    /// decide and the game goes on (the list is then never empty).
    fn choose(&mut self, view: &G::View) -> G::Move;

    /// As [`Bot::choose`], but a bot that can fail (an outside program that
    /// crashed, hung or answered an illegal move) reports why instead of
    /// falling back to a legal move. The arena uses this: a failure loses
    /// that game.
    ///
    /// # Errors
    /// [`BotFailure`] naming what went wrong.
    fn try_choose(&mut self, view: &G::View) -> Result<G::Move, BotFailure> {
        Ok(self.choose(view))
    }

    /// Tells the bot the game ended (the final view of its seat). Default:
    /// nothing.
    fn game_over(&mut self, _view: &G::View) {}
}

/// What a game supplies to the bots: its one-ply heuristic bot, its
/// search bot and the search's analysis (`sequence hint`). Random and
/// program bots are written once for every game.
pub trait BotGame: Notation {
    /// Iterations per move of `level:5`, the search level: per game, so
    /// that the top level keeps its measured strength (classic 3,000;
    /// Sequence Stacks 10,000, docs/bots.md).
    const TOP_LEVEL_ITERATIONS: u64 = 3000;

    /// The one-ply heuristic's choice among `moves`, the view's legal
    /// moves (ties broken by `rng`): the decision of [`GreedyBot`].
    fn greedy_choice(view: &Self::View, moves: &[Self::Move], rng: &mut GameRng) -> Self::Move;

    /// The search bot named `name`, seeded with `seed`, searching as
    /// `search` says.
    fn ismcts(name: String, seed: u64, search: &SearchSpec) -> Box<dyn Bot<Self>>;

    /// The search bot's analysis of the view's position (the view's seat
    /// must decide): per move, visits and the estimated chance to win, best
    /// first. `None` when the view cannot be searched (a view read from
    /// outside that does not add up).
    fn analyse(
        view: &Self::View,
        seed: u64,
        search: &SearchSpec,
    ) -> Option<SearchReport<Self::Move>>;
}

/// Why a bot could not move (outside programs only; built-in bots always
/// move). The arena counts the game as lost by that bot and shows this.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BotFailure {
    /// The program could not be started or exited / closed its output.
    #[error("crashed: {0}")]
    Crashed(String),
    /// No answer within the time limit (milliseconds).
    #[error("no answer within {0} ms")]
    Timeout(u64),
    /// The answer was not valid protocol JSON or not a move.
    #[error("garbled answer: {0}")]
    Garbled(String),
    /// The answer was a move, but not one of the legal moves sent.
    #[error("illegal move: {0}")]
    Illegal(String),
}

/// A bot name that cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BotError {
    /// Not one of the known names.
    #[error("unknown bot {0:?} (expected random, greedy, ismcts[:200ms|:1s|:5000it][:4t][:c10], level:1..5 or cmd:PROGRAM)")]
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
pub enum Spec {
    /// Uniformly random legal moves.
    Random,
    /// One-ply heuristic; `blunder` is the chance (0–1) of a random move
    /// instead (level 1).
    Greedy {
        /// Chance of a random move.
        blunder: f64,
    },
    /// ISMCTS with a budget per move and a number of trees (root
    /// parallelism; `None` = one per core for time budgets, 4 for
    /// iteration budgets so that results do not depend on the machine).
    Ismcts {
        /// Per-move budget.
        budget: Budget,
        /// Trees searched in parallel.
        trees: Option<usize>,
        /// Classic only: random moves per playout before the evaluation
        /// (`c10`; 0 = to the end; `None` = the default).
        cutoff: Option<u32>,
        /// `flat`: root Monte Carlo over the best candidate moves with
        /// common random numbers; `tree`: the ISMCTS tree; `None`: the
        /// game's default ([`SearchConfig`]).
        flat: Option<bool>,
    },
    /// An outside program speaking the bot protocol.
    Command {
        /// The command line (split on whitespace; no shell).
        command: String,
        /// Per-move time limit.
        move_time: Duration,
    },
}

/// Default per-move time limit of `cmd:` bots.
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(5);

/// The spec a level (1–5) stands for, for the terminal and browser UIs.
/// Each level wins at least 60 % of classic 2-player duplicate games
/// against the level below (docs/bots.md): 1 to 4 are the greedy
/// heuristic with 90 %, 60 %, 35 % and 12 % random moves, 5 the search
/// (`ismcts:3000it:1t`). Budgets are iterations, so a level plays alike on
/// any machine and under any load. [`level_elo`] gives each level's
/// measured Elo.
///
/// # Errors
/// [`BotError::BadOption`] outside 1–5.
pub fn level(n: u8) -> Result<Spec, BotError> {
    Ok(match n {
        1 => Spec::Greedy { blunder: 0.90 },
        2 => Spec::Greedy { blunder: 0.60 },
        3 => Spec::Greedy { blunder: 0.35 },
        4 => Spec::Greedy { blunder: 0.12 },
        5 => Spec::Ismcts {
            budget: Budget::Iterations(3000),
            trees: Some(1),
            cutoff: None,
            flat: None,
        },
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

/// Parses a bot name into a [`Spec`].
///
/// # Errors
/// [`BotError::Unknown`] or [`BotError::BadOption`].
pub fn parse_spec(spec: &str) -> Result<Spec, BotError> {
    let s = spec.trim();
    if let Some(cmd) = s.strip_prefix("cmd:") {
        if cmd.split_whitespace().next().is_none() {
            return Err(bad(spec, "no program given after cmd:"));
        }
        return Ok(Spec::Command {
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
        "random" if rest.is_empty() => Ok(Spec::Random),
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
            Ok(Spec::Greedy { blunder })
        }
        "ismcts" | "mcts" => {
            let mut budget = None;
            let mut trees = None;
            let mut cutoff = None;
            let mut flat = None;
            for r in rest {
                if r == "flat" || r == "tree" {
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
            Ok(Spec::Ismcts {
                budget: budget.unwrap_or(Budget::Time(Duration::from_millis(200))),
                trees,
                cutoff,
                flat,
            })
        }
        _ => Err(BotError::Unknown(spec.to_string())),
    }
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

/// As [`bot`] from a parsed [`Spec`] and explicit search settings; `name`
/// is what [`Bot::name`] reports.
///
/// # Errors
/// As [`bot`].
pub fn bot_from<G: BotGame>(
    name: &str,
    spec: Spec,
    seed: u64,
    config: &SearchConfig,
) -> Result<Box<dyn Bot<G>>, BotError> {
    let name = name.trim().to_string();
    // `level:5` searches with this game's own budget.
    let spec = match spec {
        Spec::Ismcts {
            trees,
            cutoff,
            flat,
            ..
        } if name.to_ascii_lowercase().starts_with("level") => Spec::Ismcts {
            budget: Budget::Iterations(G::TOP_LEVEL_ITERATIONS),
            trees,
            cutoff,
            flat,
        },
        spec => spec,
    };
    Ok(match spec {
        Spec::Random => Box::new(RandomBot::new(name, seed)),
        Spec::Greedy { blunder } => Box::new(GreedyBot::new(name, seed, Greedy::<G>::new(blunder))),
        Spec::Ismcts {
            budget,
            trees,
            cutoff,
            flat,
        } => {
            let mut search = SearchSpec {
                budget,
                trees,
                cutoff,
                config: *config,
            };
            if let Some(f) = flat {
                search.config.classic.flat = f;
                search.config.stacks.flat = f;
            }
            G::ismcts(name, seed, &search)
        }
        Spec::Command { command, move_time } => Box::new(
            protocol::ProgramBot::start(&command, G::KIND.name(), move_time, seed)
                .map_err(|why| BotError::Program {
                    spec: name.clone(),
                    why,
                })?
                .playing::<G>(name),
        ),
    })
}

/// A 64-bit mix (SplitMix64 finaliser) for deriving seeds.
pub(crate) fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
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

    #[test]
    fn specs_parse() {
        assert_eq!(parse_spec("random").unwrap(), Spec::Random);
        assert_eq!(parse_spec("greedy").unwrap(), Spec::Greedy { blunder: 0.0 });
        assert_eq!(
            parse_spec("ismcts:200ms").unwrap(),
            Spec::Ismcts {
                budget: Budget::Time(Duration::from_millis(200)),
                trees: None,
                cutoff: None,
                flat: None
            }
        );
        assert_eq!(
            parse_spec("ismcts:5000it:2t").unwrap(),
            Spec::Ismcts {
                budget: Budget::Iterations(5000),
                trees: Some(2),
                cutoff: None,
                flat: None
            }
        );
        assert_eq!(
            parse_spec("ismcts:3000it:1t:tree").unwrap(),
            Spec::Ismcts {
                budget: Budget::Iterations(3000),
                trees: Some(1),
                cutoff: None,
                flat: Some(false)
            }
        );
        assert!(matches!(
            parse_spec("ismcts:flat").unwrap(),
            Spec::Ismcts {
                flat: Some(true),
                ..
            }
        ));
        assert!(matches!(
            parse_spec("ismcts:flat:tree"),
            Err(BotError::BadOption { .. })
        ));
        assert_eq!(parse_spec("level:5").unwrap(), level(5).unwrap());
        assert_eq!(parse_spec("level(3)").unwrap(), level(3).unwrap());
        assert!(
            matches!(parse_spec("cmd:python3 bot.py").unwrap(), Spec::Command { command, .. } if command == "python3 bot.py")
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
            Spec::Greedy { blunder: 0.004 }
        );
        assert_eq!(
            parse_spec("greedy:40").unwrap(),
            Spec::Greedy { blunder: 0.4 }
        );
        assert!(matches!(
            parse_spec("cmd:  "),
            Err(BotError::BadOption { .. })
        ));
    }
}
