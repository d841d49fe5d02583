//! The bot interface: [`Bot<G>`] (a seat's view in, one of its legal
//! moves out), what a game supplies to the bots ([`BotGame`]), and why a
//! bot could not move ([`BotFailure`]).

use crate::config::SearchSpec;
use crate::search::SearchReport;
use sequence_common::rng::GameRng;
use sequence_common::TableFacts;
use serde_json::Value;

/// A bot for the game `G`. It decides from the seat's view only.
pub trait Bot<G: sequence_common::Rules>: Send {
    /// The bot's name as given to [`bot`] (e.g. `search:200ms`).
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
pub trait BotGame: TableFacts {
    /// Iterations per move of `level:5`, the search level: per game, so
    /// that the top level keeps its measured strength (classic 3,000;
    /// Sequence Stacks 10,000, docs/bots.md).
    const TOP_LEVEL_ITERATIONS: u64 = 3000;

    /// Players at the table `sequence bench` times by default (classic 2,
    /// Sequence Stacks 4).
    const BENCH_PLAYERS: u8 = 2;

    /// Random moves from the deal to the midgame position on which
    /// `sequence bench` times legal-move generation (classic 30, Sequence
    /// Stacks 40).
    const MIDGAME_PLIES: u32 = 30;

    /// The share (percent) of one kind of puzzle that `sequence puzzles`
    /// takes by default, so that the rarer kinds get their place (classic
    /// 30; Sequence Stacks 60: it has two kinds).
    const PUZZLE_KIND_PERCENT: usize = 30;

    /// The one-ply heuristic's choice among `moves`, the view's legal
    /// moves (ties broken by `rng`): the decision of [`GreedyBot`].
    fn greedy_choice(view: &Self::View, moves: &[Self::Move], rng: &mut GameRng) -> Self::Move;

    /// The search bot named `name`, seeded with `seed`, searching as
    /// `search` says.
    fn search_bot(name: String, seed: u64, search: &SearchSpec) -> Box<dyn Bot<Self>>;

    /// The search bot's analysis of the view's position (the view's seat
    /// must decide): per move, visits and the estimated chance to win, best
    /// first. `None` when the view cannot be searched (a view read from
    /// outside that does not add up).
    fn analyse(
        view: &Self::View,
        seed: u64,
        search: &SearchSpec,
    ) -> Option<SearchReport<Self::Move>>;

    /// The card a bot (or a table's clock) discards for the view's seat
    /// under the table-talk penalty (C10), chosen from the seat's view
    /// with a generator seeded by `seed`; `None` in a game without the
    /// penalty (the default) or for an empty hand.
    fn penalty_choice(view: &Self::View, seed: u64) -> Option<Self::Card> {
        let _ = (view, seed);
        None
    }

    /// Finds puzzles ([`crate::puzzles`], issue 25) in seeded self-play
    /// from `first_seed` on (game `i` dealt from `first_seed + i`): each
    /// one found goes to `found` as its kind (`win`, `block`, …), grade
    /// (1 easy to 3 hard), the puzzle as the data file holds it (no `id`)
    /// and the seed of its game, until `found` answers `false`.
    fn find_puzzles(first_seed: u64, found: &mut dyn FnMut(&'static str, u8, Value, u64) -> bool);
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
