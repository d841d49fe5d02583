//! The search's settings, explicit: a bot's strength depends only on its
//! spec and these, never on the environment of the process that runs it
//! (a server's environment must not silently change its bots).
//! [`SearchConfig::default`] is what every bot plays with; experiments
//! (the examples) build others.

/// Settings of the ISMCTS bots.
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
    /// Root Monte Carlo with common random numbers over greedy's best
    /// candidate moves, scored by the learned value
    /// ([`crate::classic::rollout`]), instead of the ISMCTS tree.
    pub flat: bool,
    /// Flat search: candidate moves, greedy's best this many (0: all).
    pub candidates: usize,
    /// Flat search: policy moves after a candidate before the learned
    /// value (0: to the end of the game).
    pub flat_cutoff: u32,
    /// Flat search: with 3 seats or more, weigh deals by every other
    /// seat's moves since our last turn ([`crate::classic::belief`]), not
    /// only the seat before ours.
    pub belief: bool,
    /// Flat search: other teams play the greedy heuristic in playouts (a
    /// model of the opponents), else the tactical policy.
    pub greedy_opponents: bool,
}

impl Default for ClassicSearch {
    fn default() -> Self {
        ClassicSearch {
            cutoff: crate::classic::DEFAULT_CUTOFF,
            tactical_playouts: true,
            inference: true,
            prior: true,
            root_moves: crate::classic::ROOT_MOVES,
            infer_temperature: crate::classic::inference::TEMPERATURE,
            infer_depth: crate::classic::inference::DEPTH,
            random_share: crate::classic::playout::RANDOM_SHARE,
            flat: true,
            candidates: crate::classic::rollout::CANDIDATES,
            flat_cutoff: crate::classic::rollout::CUTOFF,
            belief: false,
            greedy_opponents: false,
        }
    }
}

/// The playout policy of the Stacks search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StacksPlayout {
    /// Uniformly random decisions.
    Random,
    /// A seat plays what it can before it discards
    /// ([`crate::stacks::guided_playout`]).
    Guided,
    /// The greedy heuristic ([`crate::stacks::greedy_playout`]).
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
            cap: crate::stacks::PLAYOUT_CAP,
            epsilon: 0.0,
            flat: true,
            halving: true,
            own: 3,
        }
    }
}
