//! Single-observer Information-Set Monte Carlo Tree Search (SO-ISMCTS,
//! Cowling, Powley & Whitehouse, IEEE TCIAIG 2012), generic over the game.
//!
//! Each iteration deals a fresh *determinization* of the searching seat's
//! view (the unseen cards at random, consistent with everything the seat
//! saw), then descends the one tree only through moves legal in that
//! determinization, choosing by UCB with availability counts, expands one
//! untried move, plays the rest out, and backs the result up: each node
//! keeps the reward of the side that made its move.
//!
//! Root parallelism: several independent trees (one per thread), their root
//! visit counts and rewards summed at the end. With an iteration budget the
//! number of trees and every tree's seed are fixed by the bot's seed, so a
//! search is reproducible on any machine.

use sequence_common::rng::{playout_rng, PlayoutRng};
use std::time::{Duration, Instant};

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

/// A game position the search can play on (a determinization).
pub trait SearchState: Clone + Send {
    /// A move of the game.
    type Move: Copy + Eq + Send + Sync + std::fmt::Debug;
    /// Number of distinct move keys: [`SearchState::key`] is below this.
    const KEYS: usize;

    /// The side (team or seat) that must move now; `None` once over.
    fn mover(&self) -> Option<u8>;
    /// The legal moves now, into `out` (cleared first).
    fn legal(&self, out: &mut Vec<Self::Move>);
    /// A dense index identifying the move within any position of this game.
    fn key(mv: &Self::Move) -> usize;
    /// Plays a legal move (reshuffles draw from `rng`).
    fn play(&mut self, mv: Self::Move, rng: &mut PlayoutRng);
    /// Plays on (random or guided moves) and returns every side's reward.
    fn rollout(&mut self, rng: &mut PlayoutRng) -> Rewards;
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

struct Node<M> {
    mv: Option<M>,
    /// Side that made `mv` (rewards are kept for it).
    side: u8,
    children: Vec<u32>,
    visits: u32,
    avail: u32,
    reward: f64,
}

/// UCB exploration constant.
pub const EXPLORATION: f64 = 0.7;

/// One tree's search. `determinize` deals a determinization. Returns per
/// root key: (move, visits, reward sum) and iterations.
fn search_tree<S: SearchState>(
    determinize: &(dyn Fn(&mut PlayoutRng) -> S + Sync),
    seed: u64,
    iterations: Option<u64>,
    deadline: Option<Instant>,
) -> (Vec<(S::Move, u32, f64)>, u64) {
    let mut rng = playout_rng(seed);
    let mut nodes: Vec<Node<S::Move>> = vec![Node {
        mv: None,
        side: 0,
        children: vec![],
        visits: 0,
        avail: 0,
        reward: 0.0,
    }];
    let mut legal: Vec<S::Move> = Vec::with_capacity(256);
    let mut stamp = vec![0u32; S::KEYS];
    let mut child_stamp = vec![0u32; S::KEYS];
    let mut tick = 0u32;
    let mut path: Vec<u32> = Vec::with_capacity(64);
    let mut untried: Vec<S::Move> = Vec::with_capacity(256);
    let mut done = 0u64;
    loop {
        if let Some(n) = iterations {
            if done >= n {
                break;
            }
        }
        if let Some(d) = deadline {
            if done % 32 == 0 && Instant::now() >= d && done > 0 {
                break;
            }
        }
        done += 1;
        let mut st = determinize(&mut rng);
        path.clear();
        let mut cur = 0u32;
        path.push(cur);
        let rewards: Rewards;
        loop {
            let Some(side) = st.mover() else {
                rewards = st.rollout(&mut rng);
                break;
            };
            st.legal(&mut legal);
            if legal.is_empty() {
                rewards = st.rollout(&mut rng);
                break;
            }
            tick = tick.wrapping_add(1);
            if tick == 0 {
                stamp.iter_mut().for_each(|x| *x = 0);
                child_stamp.iter_mut().for_each(|x| *x = 0);
                tick = 1;
            }
            for m in &legal {
                stamp[S::key(m)] = tick;
            }
            // Availability and UCB over the children legal here.
            let node = &nodes[cur as usize];
            let mut best = u32::MAX;
            let mut best_score = f64::NEG_INFINITY;
            for &c in &node.children {
                let ch = &nodes[c as usize];
                let Some(mv) = ch.mv else { continue };
                let k = S::key(&mv);
                child_stamp[k] = tick;
                if stamp[k] != tick {
                    continue;
                }
                let score = ch.reward / ch.visits as f64
                    + EXPLORATION * ((ch.avail.max(1) as f64).ln() / ch.visits as f64).sqrt();
                if score > best_score {
                    best_score = score;
                    best = c;
                }
            }
            let nch = nodes[cur as usize].children.len();
            for i in 0..nch {
                let c = nodes[cur as usize].children[i];
                if let Some(mv) = nodes[c as usize].mv {
                    if stamp[S::key(&mv)] == tick {
                        nodes[c as usize].avail += 1;
                    }
                }
            }
            untried.clear();
            untried.extend(
                legal
                    .iter()
                    .copied()
                    .filter(|m| child_stamp[S::key(m)] != tick),
            );
            if !untried.is_empty() {
                let pick = untried[(rng_u32(&mut rng) as usize * untried.len()) >> 32];
                let id = nodes.len() as u32;
                nodes.push(Node {
                    mv: Some(pick),
                    side,
                    children: vec![],
                    visits: 0,
                    avail: 1,
                    reward: 0.0,
                });
                nodes[cur as usize].children.push(id);
                path.push(id);
                st.play(pick, &mut rng);
                rewards = st.rollout(&mut rng);
                break;
            }
            if best == u32::MAX {
                rewards = st.rollout(&mut rng);
                break;
            }
            let Some(mv) = nodes[best as usize].mv else {
                unreachable_rewards()
            };
            st.play(mv, &mut rng);
            cur = best;
            path.push(cur);
        }
        for &n in &path {
            let node = &mut nodes[n as usize];
            node.visits += 1;
            node.reward += rewards[node.side as usize % MAX_SIDES] as f64;
        }
    }
    let root = &nodes[0];
    let out = root
        .children
        .iter()
        .filter_map(|&c| {
            let n = &nodes[c as usize];
            n.mv.map(|m| (m, n.visits, n.reward))
        })
        .collect();
    (out, done)
}

#[inline]
fn rng_u32(rng: &mut PlayoutRng) -> u64 {
    use rand::RngCore;
    rng.next_u32() as u64
}

#[cold]
fn unreachable_rewards() -> ! {
    panic!("tree child without a move")
}

/// Number of cores to use.
pub fn cores() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

/// Runs the search: `trees` trees (default: one per core for a time budget,
/// 4 for an iteration budget), each on its own thread when cores allow,
/// seeds derived from `seed`. `determinize` must deal a fresh
/// determinization of the searching seat's view.
pub fn search<S: SearchState>(
    determinize: &(dyn Fn(&mut PlayoutRng) -> S + Sync),
    budget: Budget,
    trees: Option<usize>,
    seed: u64,
) -> SearchReport<S::Move> {
    let start = Instant::now();
    let trees = trees.unwrap_or(match budget {
        Budget::Iterations(_) => 4,
        Budget::Time(_) => cores(),
    });
    let trees = trees.max(1);
    let (iters, deadline) = match budget {
        Budget::Iterations(n) => (Some(n.div_ceil(trees as u64).max(1)), None),
        Budget::Time(d) => (None, Some(start + d)),
    };
    let threads = cores().min(trees).max(1);
    let seeds: Vec<u64> = (0..trees as u64)
        .map(|t| crate::mix(seed ^ crate::mix(t + 1)))
        .collect();
    let results: Vec<(Vec<(S::Move, u32, f64)>, u64)> = if threads == 1 {
        seeds
            .iter()
            .map(|&s| search_tree(determinize, s, iters, deadline))
            .collect()
    } else {
        // Trees are dealt to threads round-robin; results come back in tree
        // order so merging is deterministic.
        let mut slots: Vec<Option<(Vec<(S::Move, u32, f64)>, u64)>> =
            (0..trees).map(|_| None).collect();
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|th| {
                    let seeds = &seeds;
                    scope.spawn(move || {
                        (th..trees)
                            .step_by(threads)
                            .map(|t| (t, search_tree(determinize, seeds[t], iters, deadline)))
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            for h in handles {
                if let Ok(v) = h.join() {
                    for (t, r) in v {
                        slots[t] = Some(r);
                    }
                }
            }
        });
        slots.into_iter().flatten().collect()
    };
    let mut merged: Vec<(S::Move, u32, f64)> = Vec::new();
    let mut total = 0;
    for (moves, n) in results {
        total += n;
        for (m, v, r) in moves {
            match merged.iter_mut().find(|e| e.0 == m) {
                Some(e) => {
                    e.1 += v;
                    e.2 += r;
                }
                None => merged.push((m, v, r)),
            }
        }
    }
    let mut moves: Vec<(S::Move, u32, f64)> = merged
        .into_iter()
        .map(|(m, v, r)| (m, v, if v > 0 { r / v as f64 } else { 0.0 }))
        .collect();
    // Stable: ties keep the first tree's order.
    moves.sort_by(|a, b| {
        b.1.cmp(&a.1)
            .then(b.2.partial_cmp(&a.2).unwrap_or(std::cmp::Ordering::Equal))
    });
    SearchReport {
        moves,
        iterations: total,
        elapsed: start.elapsed(),
        trees,
    }
}
