//! What every search shares, the tree ([`crate::ismcts`]) and the flat
//! ones ([`crate::classic::flat`], Sequence Stacks' root Monte Carlo): the
//! budget per move, the report of what a search found, the rewards of a
//! playout, successive halving of root moves.

use std::time::Duration;

/// Most sides (teams or seats) a game has.
pub const MAX_SIDES: usize = 6;

/// Reward of each side at the end of a playout, 0 (loss) to 1 (win).
pub type Rewards = [f32; MAX_SIDES];

/// How much search a move gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget {
    /// This many iterations in all (split over the trees).
    Iterations(u64),
    /// This much wall-clock time per move.
    Time(Duration),
}

/// What a search found: per root move, visits and mean reward (the
/// estimated chance to win, draws counting half), best first.
#[derive(Debug, Clone)]
pub struct SearchReport<M> {
    /// `(move, visits, mean reward of the searching side)`, most visited
    /// first.
    pub moves: Vec<(M, u32, f64)>,
    /// Iterations run in all trees.
    pub iterations: u64,
    /// Wall-clock time of the search.
    pub elapsed: Duration,
    /// Trees searched.
    pub trees: usize,
}

impl<M: Copy> SearchReport<M> {
    /// The most visited move.
    pub fn best(&self) -> Option<M> {
        self.moves.first().map(|m| m.0)
    }
}

/// Number of cores to use.
pub fn cores() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

/// Phases of successive halving over `arms` root moves (each phase keeps
/// the better half): enough to end with one or two, i.e. ⌈log2 arms⌉
/// when `halving` is on and there are more than 2 arms; else 1.
pub fn halving_phases(halving: bool, arms: usize) -> u64 {
    if halving && arms > 2 {
        (usize::BITS - (arms - 1).leading_zeros()) as u64
    } else {
        1
    }
}
