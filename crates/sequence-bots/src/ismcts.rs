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

use crate::config::SearchConfig;
pub use crate::search::{cores, halving_phases, Budget, Rewards, SearchReport, MAX_SIDES};
use sequence_common::rng::{playout_rng, PlayoutRng};
use sequence_common::{RngReshuffler, Rules};
use web_time::Instant;

/// A determinization the search plays on: a whole game (any
/// [`Rules`]) and what a game's bots add to the search — how a playout goes
/// on and is scored, a heuristic prior, a playout policy. Who moves, the
/// legal moves, the move keys and making a move come from the game itself.
pub trait SearchState: Clone + Send {
    /// The game.
    type Game: Rules;

    /// The determinized game.
    fn game(&self) -> &Self::Game;

    /// The determinized game, to play on.
    fn game_mut(&mut self) -> &mut Self::Game;

    /// Plays on (random or guided moves) and returns every side's reward.
    fn rollout(&mut self, rng: &mut PlayoutRng) -> Rewards;

    /// A heuristic prior of `mv` for the side to move, 0 to 1, used as a
    /// progressive bias (`prior_weight · prior / (visits + 1)`) in the
    /// selection. Default: none.
    fn prior(&self, _mv: &<Self::Game as Rules>::Move) -> f32 {
        0.0
    }

    /// The move a playout policy would play here, used to grow the tree
    /// below the root: a node gains a child only when the policy picks a
    /// move not yet tried there (policy-sampled expansion), so replies the
    /// policy finds plausible are searched first instead of random ones.
    /// Default `None`: untried moves are expanded in random order.
    fn policy_move(&self, _rng: &mut PlayoutRng) -> Option<<Self::Game as Rules>::Move> {
        None
    }

    /// The side (team or seat) that must move now; `None` once over.
    #[inline]
    fn mover(&self) -> Option<u8> {
        let g = self.game();
        g.to_act().map(|s| g.side_of(s))
    }

    /// Plays a legal move (reshuffles draw from `rng`).
    #[inline]
    fn play(&mut self, mv: <Self::Game as Rules>::Move, rng: &mut PlayoutRng) {
        if let Some(seat) = self.game().to_act() {
            let _ = self.game_mut().apply(seat, mv, &mut RngReshuffler(rng));
        }
    }
}

/// A move of the search state's game.
type MoveOf<S> = <<S as SearchState>::Game as Rules>::Move;

/// An edge of the tree: a move from its parent node, with its statistics
/// kept in the parent's contiguous edge list (cache-friendly selection).
struct Edge<M> {
    mv: M,
    key: u32,
    /// Side that made `mv` (rewards are kept for it).
    side: u8,
    visits: u32,
    avail: u32,
    reward: f32,
    /// Heuristic prior (progressive bias), 0 to 1.
    prior: f32,
    /// The node below, `u32::MAX` until expanded further.
    child: u32,
}

/// `ln(n)` for small `n` from a table, else computed.
struct LnTable(Vec<f32>);

impl LnTable {
    fn new() -> LnTable {
        LnTable((0..4096u32).map(|n| (n.max(1) as f32).ln()).collect())
    }
    #[inline]
    fn ln(&self, n: u32) -> f32 {
        match self.0.get(n as usize) {
            Some(&x) => x,
            None => (n as f32).ln(),
        }
    }
}

/// Whether a tree's budget is spent after `done` iterations: `iterations`
/// run, or the `deadline` passed (the clock read every 32 iterations).
#[inline(always)]
fn spent(done: u64, iterations: Option<u64>, deadline: Option<Instant>) -> bool {
    iterations.is_some_and(|n| done >= n)
        || deadline.is_some_and(|d| done.is_multiple_of(32) && done > 0 && Instant::now() >= d)
}

/// Marks the keys of the moves legal now with a new stamp (the stamps
/// start over when the counter wraps); returns that stamp.
#[inline(always)]
fn mark(stamp: &mut [u32], tick: u32, keys: impl Iterator<Item = usize>) -> u32 {
    let mut tick = tick.wrapping_add(1);
    if tick == 0 {
        stamp.iter_mut().for_each(|x| *x = 0);
        tick = 1;
    }
    for k in keys {
        stamp[k] = tick;
    }
    tick
}

/// Availability and UCB (with the progressive bias of the prior) over a
/// node's edges whose moves are legal here (stamped `tick`); clears their
/// stamps so that the untried legal moves stay marked. Returns the best
/// edge (`u32::MAX` for none) and how many edges were available.
#[inline(always)]
fn select<M>(
    edges: &mut [Edge<M>],
    stamp: &mut [u32],
    tick: u32,
    ln: &LnTable,
    config: &SearchConfig,
) -> (u32, usize) {
    let (exploration, prior_weight) = (config.exploration, config.prior_weight);
    let mut best = u32::MAX;
    let mut best_score = f32::NEG_INFINITY;
    let mut available = 0usize;
    for (i, e) in edges.iter_mut().enumerate() {
        let k = e.key as usize;
        if stamp[k] != tick {
            continue;
        }
        stamp[k] = 0;
        available += 1;
        e.avail += 1;
        let v = e.visits as f32;
        let score = e.reward / v
            + exploration * (ln.ln(e.avail) / v).sqrt()
            + prior_weight * e.prior / (v + 1.0);
        if score > best_score {
            best_score = score;
            best = i as u32;
        }
    }
    (best, available)
}

/// One tree's search. `determinize` deals a determinization. Returns the
/// root's edges as (move, visits, reward sum) and the iterations run.
fn search_tree<S: SearchState>(
    determinize: &(dyn Fn(&mut PlayoutRng) -> S + Sync),
    root_moves: &[MoveOf<S>],
    seed: u64,
    iterations: Option<u64>,
    deadline: Option<Instant>,
    config: &SearchConfig,
) -> (Vec<(MoveOf<S>, u32, f64)>, u64) {
    let keys = <S::Game as Rules>::MOVE_KEYS;
    let key = |m: &MoveOf<S>| <S::Game as Rules>::move_key(m);
    let mut rng = playout_rng(seed);
    let ln = LnTable::new();
    // nodes[i] = the edges out of node i.
    let mut nodes: Vec<Vec<Edge<MoveOf<S>>>> = vec![Vec::new()];
    let mut legal: Vec<MoveOf<S>> = Vec::with_capacity(256);
    let mut stamp = vec![0u32; keys];
    let mut tick = 0u32;
    // (node, edge index) per step.
    let mut path: Vec<(u32, u32)> = Vec::with_capacity(64);
    let mut untried: Vec<(MoveOf<S>, u32)> = Vec::with_capacity(256);
    let mut root_allowed = vec![false; if root_moves.is_empty() { 0 } else { keys }];
    for m in root_moves {
        root_allowed[key(m)] = true;
    }
    let mut done = 0u64;
    loop {
        if spent(done, iterations, deadline) {
            break;
        }
        done += 1;
        let mut st = determinize(&mut rng);
        path.clear();
        let mut cur = 0u32;
        let rewards: Rewards = loop {
            let Some(side) = st.mover() else {
                break st.rollout(&mut rng);
            };
            st.game().legal_moves(&mut legal);
            if cur == 0 && !root_allowed.is_empty() {
                legal.retain(|m| root_allowed[key(m)]);
            }
            if legal.is_empty() {
                break st.rollout(&mut rng);
            }
            tick = mark(&mut stamp, tick, legal.iter().map(key));
            let (best, available) = select(&mut nodes[cur as usize], &mut stamp, tick, &ln, config);
            // Below the root, the policy proposes the move to expand; when
            // it proposes one already tried, the node is searched as it is.
            let proposal = if cur != 0 {
                st.policy_move(&mut rng)
            } else {
                None
            };
            let proposal = match proposal {
                Some(m) if stamp[key(&m)] == tick => Some(Some(m)),
                Some(_) => Some(None),
                None => None,
            };
            if available < legal.len() && proposal != Some(None) {
                untried.clear();
                if let Some(Some(m)) = proposal {
                    untried.push((m, key(&m) as u32));
                } else {
                    untried.extend(legal.iter().filter_map(|m| {
                        let k = key(m);
                        (stamp[k] == tick).then_some((*m, k as u32))
                    }));
                }
                if !untried.is_empty() {
                    let (pick, key) =
                        untried[((rng_u32(&mut rng) as u64 * untried.len() as u64) >> 32) as usize];
                    let prior = st.prior(&pick);
                    let edges = &mut nodes[cur as usize];
                    edges.push(Edge {
                        prior,
                        mv: pick,
                        key,
                        side,
                        visits: 0,
                        avail: 1,
                        reward: 0.0,
                        child: u32::MAX,
                    });
                    path.push((cur, (edges.len() - 1) as u32));
                    st.play(pick, &mut rng);
                    break st.rollout(&mut rng);
                }
            }
            if best == u32::MAX {
                break st.rollout(&mut rng);
            }
            path.push((cur, best));
            let e = &nodes[cur as usize][best as usize];
            let mv = e.mv;
            let mut child = e.child;
            if child == u32::MAX {
                child = nodes.len() as u32;
                nodes.push(Vec::new());
                nodes[cur as usize][best as usize].child = child;
            }
            st.play(mv, &mut rng);
            cur = child;
        };
        for &(n, i) in &path {
            let e = &mut nodes[n as usize][i as usize];
            e.visits += 1;
            e.reward += rewards[e.side as usize % MAX_SIDES];
        }
    }
    let out = nodes[0]
        .iter()
        .map(|e| (e.mv, e.visits, e.reward as f64))
        .collect();
    (out, done)
}

#[inline]
fn rng_u32(rng: &mut PlayoutRng) -> u32 {
    use rand::RngCore;
    rng.next_u32()
}

/// One tree's root edges `(move, visits, reward sum)` and iterations.
type TreeResult<M> = (Vec<(M, u32, f64)>, u64);

/// Runs the search: `trees` trees (default: one per core for a time budget,
/// 4 for an iteration budget), each on its own thread when cores allow,
/// seeds derived from `seed`. `determinize` must deal a fresh
/// determinization of the searching seat's view.
pub fn search<S: SearchState>(
    determinize: &(dyn Fn(&mut PlayoutRng) -> S + Sync),
    budget: Budget,
    trees: Option<usize>,
    seed: u64,
    config: &SearchConfig,
) -> SearchReport<MoveOf<S>> {
    search_among(determinize, &[], budget, trees, seed, config)
}

/// As [`search`], with the root's moves limited to `root_moves` (empty:
/// every legal move). A bot passes the few moves its heuristic ranks
/// highest, so the budget goes to telling those apart. Moves of the list
/// that are not legal are ignored.
pub fn search_among<S: SearchState>(
    determinize: &(dyn Fn(&mut PlayoutRng) -> S + Sync),
    root_moves: &[MoveOf<S>],
    budget: Budget,
    trees: Option<usize>,
    seed: u64,
    config: &SearchConfig,
) -> SearchReport<MoveOf<S>> {
    let start = Instant::now();
    let trees = trees.unwrap_or(match budget {
        Budget::Iterations(_) => 4,
        Budget::Time(_) => cores(),
    });
    // No more trees than iterations: each tree runs at least one.
    let trees = match budget {
        Budget::Iterations(n) => trees.min(n.max(1) as usize),
        Budget::Time(_) => trees,
    }
    .max(1);
    let deadline = match budget {
        Budget::Iterations(_) => None,
        Budget::Time(d) => Some(start + d),
    };
    let threads = cores().min(trees).max(1);
    // Tree `t`'s share of an iteration budget: `n / trees`, the first
    // `n % trees` trees one more, so the trees run exactly `n` in all.
    let share = |t: usize| match budget {
        Budget::Iterations(n) => {
            let n = n.max(1);
            Some(n / trees as u64 + u64::from((t as u64) < n % trees as u64))
        }
        Budget::Time(_) => None,
    };
    let seeds: Vec<u64> = (0..trees as u64)
        .map(|t| crate::seeds::mix(seed ^ crate::seeds::mix(t + 1)))
        .collect();
    let results: Vec<TreeResult<MoveOf<S>>> = if threads == 1 {
        seeds
            .iter()
            .enumerate()
            .map(|(t, &s)| search_tree(determinize, root_moves, s, share(t), deadline, config))
            .collect()
    } else {
        // Trees are dealt to threads round-robin; results come back in tree
        // order so merging is deterministic.
        let mut slots: Vec<Option<TreeResult<MoveOf<S>>>> = (0..trees).map(|_| None).collect();
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|th| {
                    let seeds = &seeds;
                    scope.spawn(move || {
                        (th..trees)
                            .step_by(threads)
                            .map(|t| {
                                (
                                    t,
                                    search_tree(
                                        determinize,
                                        root_moves,
                                        seeds[t],
                                        share(t),
                                        deadline,
                                        config,
                                    ),
                                )
                            })
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
    let mut merged: Vec<(MoveOf<S>, u32, f64)> = Vec::new();
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
    let mut moves: Vec<(MoveOf<S>, u32, f64)> = merged
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
