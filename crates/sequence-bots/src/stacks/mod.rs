//! Bots for Sequence Stacks: the heuristic ([`heuristic`]), the greedy bot
//! ([`GreedyBot`]) and the search bot ([`IsmctsBot`]);
//! [`sequence_stacks::Game`] implements [`BotGame`] here. The random and
//! program bots are those of every game ([`crate::RandomBot`],
//! [`crate::protocol`]).

pub mod greedy;
pub mod heuristic;
pub mod search;

pub use greedy::{greedy_choice, GreedyBot};
pub use heuristic::{game_score, score};
pub use search::{
    analyse, greedy_playout, guided_playout, outcome, parallel_rollout_search, rollout_search,
    tree_search, IsmctsBot, StacksState, PLAYOUT_CAP,
};

use crate::{Bot, BotGame, Budget, SearchConfig, SearchReport};
use sequence_stacks::{Decision, Game, SeatView};

impl BotGame for Game {
    const TOP_LEVEL_ITERATIONS: u64 = 10_000;

    fn greedy(name: String, seed: u64, blunder: f64) -> Box<dyn Bot<Game>> {
        Box::new(GreedyBot::new(name, seed, blunder))
    }

    fn ismcts(
        name: String,
        seed: u64,
        budget: Budget,
        trees: Option<usize>,
        _cutoff: Option<u32>,
        config: &SearchConfig,
    ) -> Box<dyn Bot<Game>> {
        Box::new(IsmctsBot::new(name, seed, budget, trees, *config))
    }

    fn analyse(
        view: &SeatView,
        budget: Budget,
        trees: Option<usize>,
        seed: u64,
        config: &SearchConfig,
    ) -> Option<SearchReport<Decision>> {
        analyse(view, budget, trees, seed, config)
    }
}
