//! Bots for both games, written once over the game interface
//! ([`sequence_common::Rules`]): the [`Bot`] trait, the arena and the bot
//! protocol. Bots see only a seat's view.
//!
//! * [`Bot<G>`]: a bot takes one seat's view (`G::View`) and answers one of
//!   its legal moves. It never sees another seat's hand or the draw pile;
//!   searching bots sample those with the view's `determinize`.
//! * [`bot()`] builds a bot for a game from a name (a *spec*, [`spec`]): `random`,
//!   `greedy`, `search`, `search:200ms`, `search:5000it`, `search:2s:4t`
//!   (4 trees), `search:5000it:c10` (classic: playouts cut after 10 moves),
//!   `search:3000it:tree` (the ISMCTS tree instead of the default flat
//!   root Monte Carlo over the best candidate moves; `flat` asks for the
//!   latter; `ismcts:…` and `mcts:…`, the names before, read the same),
//!   `greedy:40%` (40 % random moves), `level:1` … `level:5`, `cmd:PROGRAM
//!   ARGS…` (an outside program speaking the bot protocol,
//!   docs/bot-protocol.md). Each game supplies its heuristic and search
//!   through [`BotGame`]: [`classic`] and [`stacks`].
//! * The search bots: by default a flat root Monte Carlo over the best
//!   candidate moves with common random numbers ([`classic::flat`],
//!   [`stacks::rollout_search`]); with `tree` the Information-Set Monte
//!   Carlo Tree Search ([`ismcts`]: single observer, Cowling, Powley &
//!   Whitehouse 2012, root parallelism, over [`ismcts::SearchState`]).
//!   Their settings are a [`SearchConfig`] (never the environment); what
//!   every search shares is in [`search`].
//! * [`arena`]: bots play each other (the statistics in [`stats`]);
//!   [`hint`]: the analysis `sequence hint` prints.
//! * [`env`]: each game as an environment for learning agents (action
//!   space, mask, observation; [`env::EnvGame`]), which the Python package
//!   is written over.

pub mod anybot;
pub mod arena;
pub mod bench;
pub mod bot;
pub mod classic;
pub mod config;
pub mod env;
pub mod games;
pub mod hint;
pub mod ismcts;
pub mod protocol;
pub mod puzzles;
pub mod random;
pub mod replay;
pub mod search;
pub mod seeds;
pub mod shell;
pub mod spec;
pub mod stacks;
pub mod stats;

pub use anybot::{any_bot, penalty_discard, AnyBot, AnyBotError};
pub use bot::{Bot, BotFailure, BotGame};
pub use config::{SearchConfig, SearchSpec};
pub use games::{rules, verify_record, with_game, ForGame};
pub use random::RandomBot;
pub use search::{Budget, SearchReport};
pub use shell::{Decide, Greedy, GreedyBot, Shell, ShellBot};
pub use spec::{
    bot, bot_from, level, level_elo, parse_budget, parse_spec, BotError, BotSpec,
    DEFAULT_MOVE_TIME, LEVEL_ELO,
};
