//! The search's settings, explicit: a bot's strength depends only on its
//! spec and these, never on the environment of the process that runs it
//! (a server's environment must not silently change its bots).
//! [`SearchConfig::default`] is what every bot plays with; experiments
//! (the `sequence-lab` crate) build others. The defaults are the
//! constants below; the algorithms read them from here.

use crate::search::Budget;

/// Classic tree search: policy moves per playout before the evaluation
/// ([`crate::classic::tree`]).
pub const DEFAULT_CUTOFF: u32 = 2;

/// Classic tree search: root moves searched, the heuristic's best this
/// many (0 = all).
pub const ROOT_MOVES: usize = 4;

/// Classic: root moves `sequence hint` compares (at least).
pub const HINT_ROOT_MOVES: usize = 8;

/// Classic inference: scale of the points a seat may leave on the table,
/// for the acceptance probability `exp(-d / T)`
/// ([`crate::classic::inference`]).
pub const TEMPERATURE: f64 = 20.0;

/// Classic inference: past moves the evidence keeps.
pub const DEPTH: usize = 1;

/// Classic playouts: chance of a uniformly random move in the tactical
/// policy ([`crate::classic::playout::tactical_move`]).
pub const RANDOM_SHARE: f32 = 0.05;

/// Classic flat search: candidate moves, greedy's best this many
/// ([`crate::classic::flat`]).
pub const CANDIDATES: usize = 6;

/// Classic flat search: policy moves after a candidate before the learned
/// value.
pub const FLAT_CUTOFF: u32 = 4;

/// Sequence Stacks: playouts stop after this many decisions and are
/// scored by chips.
pub const PLAYOUT_CAP: u32 = 400;

/// Settings of the search bots: the live flat Monte Carlo search and the
/// ISMCTS tree (`search:…`, [`crate::spec::SEARCH`]), per game.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SearchConfig {
    /// UCB exploration constant.
    pub exploration: f32,
    /// Weight of the heuristic prior in the selection (progressive bias,
    /// `prior_weight · prior / (visits + 1)`).
    pub prior_weight: f32,
    /// Classic Sequence settings.
    pub classic: ClassicSearch,
    /// Sequence Stacks settings.
    pub stacks: StacksSearch,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            exploration: 0.7,
            prior_weight: 1.0,
            classic: ClassicSearch::default(),
            stacks: StacksSearch::default(),
        }
    }
}

/// Settings of the classic search.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClassicSearch {
    /// Policy moves per playout before the evaluation (0: to the end).
    pub cutoff: u32,
    /// Whether playouts follow the tactical policy (else uniformly random).
    pub tactical_playouts: bool,
    /// Whether determinizations are weighted by what the last opponent
    /// moves tell of their hands.
    pub inference: bool,
    /// Whether the selection uses the heuristic prior.
    pub prior: bool,
    /// Root moves searched: the heuristic's best this many (0: all).
    pub root_moves: usize,
    /// Temperature of the inference's softmax over an opponent's options.
    pub infer_temperature: f64,
    /// Moves back the inference reads.
    pub infer_depth: usize,
    /// Share of uniformly random moves in the tactical playout policy.
    pub random_share: f32,
    /// Flat root Monte Carlo with common random numbers over greedy's best
    /// candidate moves, scored by the learned value
    /// ([`crate::classic::flat`]), instead of the ISMCTS tree.
    pub flat: bool,
    /// Flat search: candidate moves, greedy's best this many (0: all).
    pub candidates: usize,
    /// Flat search: policy moves after a candidate before the learned
    /// value (0: to the end of the game).
    pub flat_cutoff: u32,
    /// Flat search: other teams play the greedy heuristic in playouts (a
    /// model of the opponents), else the tactical policy.
    pub greedy_opponents: bool,
    /// Flat search: the learned policy ([`crate::classic::policy`])
    /// chooses the candidate moves and moves in the playouts, instead of
    /// greedy's ranking and the tactical policy (`search:…:learned`;
    /// tables the policy was not trained for keep the default).
    pub learned: bool,
}

impl Default for ClassicSearch {
    fn default() -> Self {
        ClassicSearch {
            cutoff: DEFAULT_CUTOFF,
            tactical_playouts: true,
            inference: true,
            prior: true,
            root_moves: ROOT_MOVES,
            infer_temperature: TEMPERATURE,
            infer_depth: DEPTH,
            random_share: RANDOM_SHARE,
            flat: true,
            candidates: CANDIDATES,
            flat_cutoff: FLAT_CUTOFF,
            greedy_opponents: false,
            learned: false,
        }
    }
}

/// The playout policy of the Stacks search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StacksPlayout {
    /// Uniformly random decisions.
    Random,
    /// A seat plays what it can before it discards
    /// (`guided_playout` of [`crate::stacks`]).
    Guided,
    /// The greedy heuristic (`greedy_playout` of [`crate::stacks`]).
    Greedy,
}

/// Settings of the Sequence Stacks search.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StacksSearch {
    /// The playout policy.
    pub playout: StacksPlayout,
    /// Scale of the heuristic prior's sigmoid (0: no prior).
    pub prior_scale: f64,
    /// Most decisions per playout.
    pub cap: u32,
    /// Share of uniformly random decisions in greedy playouts.
    pub epsilon: f64,
    /// Flat Monte Carlo at the root (else the SO-ISMCTS tree).
    pub flat: bool,
    /// Successive halving of the root arms.
    pub halving: bool,
    /// Own decisions per turn the playout policy plans.
    pub own: u32,
}

impl Default for StacksSearch {
    fn default() -> Self {
        StacksSearch {
            playout: StacksPlayout::Greedy,
            prior_scale: 20.0,
            cap: PLAYOUT_CAP,
            epsilon: 0.0,
            flat: true,
            halving: true,
            own: 3,
        }
    }
}

/// A search bot's settings: the per-move budget, the number of trees
/// (`None`: one per core for a time budget, 4 for iterations, so that
/// results do not depend on the machine), what its name overrides (a
/// playout cutoff, flat or tree) and the search's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchSpec {
    /// Per-move budget.
    pub budget: Budget,
    /// Trees searched at once (root parallelism).
    pub trees: Option<usize>,
    /// Classic: policy moves before the evaluation (`c10`; 0 = to the
    /// end; `None`: the default).
    pub cutoff: Option<u32>,
    /// `flat`: root Monte Carlo over the best candidate moves with common
    /// random numbers; `tree`: the ISMCTS tree; `None`: the game's default
    /// ([`SearchConfig`]).
    pub flat: Option<bool>,
    /// Classic: `learned`, the search guided by the learned policy
    /// ([`ClassicSearch::learned`]).
    pub learned: bool,
    /// The search's settings.
    pub config: SearchConfig,
}

impl SearchSpec {
    /// A search of `budget` on `trees` trees with the default settings.
    pub fn new(budget: Budget, trees: Option<usize>) -> SearchSpec {
        SearchSpec {
            budget,
            trees,
            cutoff: None,
            flat: None,
            learned: false,
            config: SearchConfig::default(),
        }
    }

    /// The settings with the name's overrides put in: the cutoff, if any
    /// (classic: the tree's and the flat search's playout cutoff), and
    /// flat or tree (both games).
    pub fn settings(&self) -> SearchConfig {
        let mut config = self.config;
        if let Some(c) = self.cutoff {
            config.classic.cutoff = c;
            config.classic.flat_cutoff = c;
        }
        if let Some(f) = self.flat {
            config.classic.flat = f;
            config.stacks.flat = f;
        }
        if self.learned {
            config.classic.learned = true;
        }
        config
    }
}
