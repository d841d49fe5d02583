//! Bots for Sequence Stacks: the heuristic ([`heuristic`]), the greedy bot
//! ([`GreedyBot`]) and the search bot ([`SearchBot`]: flat root Monte
//! Carlo by default, the SO-ISMCTS tree with `search:…:tree`);
//! [`sequence_stacks::Game`] implements [`BotGame`] here. The random and
//! program bots are those of every game ([`crate::RandomBot`],
//! [`crate::protocol`]).

pub mod greedy;
pub mod heuristic;
pub mod search;

pub use greedy::{greedy_choice, GreedyBot};
pub use heuristic::{game_score, score};
pub use search::{
    greedy_playout, guided_playout, outcome, parallel_rollout_search, rollout_search, tree_search,
    SearchBot, StacksState, PLAYOUT_CAP,
};

use crate::bot::{Bot, BotGame};
use crate::config::SearchSpec;
use crate::search::SearchReport;
use crate::shell::ShellBot;
use sequence_common::rng::GameRng;
use sequence_stacks::{Decision, Game, SeatView};
use serde_json::Value;

impl BotGame for Game {
    const TOP_LEVEL_ITERATIONS: u64 = 10_000;
    const BENCH_PLAYERS: u8 = 4;
    const MIDGAME_PLIES: u32 = 40;
    const PUZZLE_KIND_PERCENT: usize = 60;

    fn find_puzzles(first_seed: u64, found: &mut dyn FnMut(&'static str, u8, Value, u64) -> bool) {
        use crate::puzzles::stacks::{self_play, to_json};
        self_play(first_seed, |view, s, seed, at| {
            found(s.kind, s.grade, to_json("", view, s, seed, at), seed)
        });
    }

    fn greedy_choice(view: &SeatView, _moves: &[Decision], rng: &mut GameRng) -> Decision {
        greedy_choice(view, rng)
    }

    fn search_bot(name: String, seed: u64, search: &SearchSpec) -> Box<dyn Bot<Game>> {
        let search = SearchSpec {
            config: search.settings(),
            ..*search
        };
        Box::new(ShellBot::new(name, seed, SearchBot::new(search)))
    }

    /// Searches the view's position as the bot does (the view's seat must
    /// decide): [`parallel_rollout_search`] by default, the SO-ISMCTS tree
    /// ([`tree_search`]) when [`crate::config::StacksSearch::flat`] is off.
    /// `None` when the view cannot be determinized (inconsistent) or is a
    /// spectator's.
    fn analyse(view: &SeatView, seed: u64, search: &SearchSpec) -> Option<SearchReport<Decision>> {
        let (budget, trees, config) = (search.budget, search.trees, &search.settings());
        if config.stacks.flat {
            parallel_rollout_search(view, budget, trees, seed, &config.stacks)
        } else {
            tree_search(view, budget, trees, seed, config)
        }
    }
}
