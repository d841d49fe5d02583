//! The live classic search: flat root Monte Carlo with common random
//! numbers (no tree), as Sequence Stacks' default search does
//! (`rollout_search` of [`crate::stacks`]):
//! the root's candidate moves are each tried on the same determinizations
//! of the view (weighted by [`super::inference`]) with the same playout
//! seeds, each followed by a few moves of a playout policy and scored by
//! the learned value ([`super::value::evaluate`]). With an iteration budget
//! the candidates are halved in rounds (successive halving); one playout
//! counts as one iteration. Paired on the same deal, the differences
//! between moves (a few percent of win chance) are measured with much
//! less noise than by unpaired playouts, which is what a tree search in
//! a game this dealt needs most.

use super::greedy::greedy_choice;
use super::heuristic::{greedy_scores, with_declaration};
use super::obvious::obvious_move;
use super::policy::{self, Policy};
use super::{inference, playout, value};
use crate::config::{ClassicSearch, SearchConfig};
use crate::search::{Budget, SearchReport};
use crate::shell::{Decide, Shell};
use rand::RngCore;
use sequence_classic::{Game, Move, RngReshuffler, SeatView};
use sequence_common::rng::{game_rng, playout_rng, PlayoutRng};
use std::sync::Arc;

/// Settings of [`search`].
#[derive(Debug, Clone, PartialEq)]
pub struct FlatOptions {
    /// Candidate moves: the best of greedy's ranking (0: every legal move).
    pub candidates: usize,
    /// Policy moves after the candidate before the evaluation (`None`: to
    /// the end of the game).
    pub cutoff: Option<u32>,
    /// Other teams move by the greedy heuristic in playouts (a model of
    /// the opponent), else by the tactical policy.
    pub greedy_opponents: bool,
    /// Weigh determinizations by the last opponent move.
    pub inference: bool,
    /// Successive halving (else every candidate gets an equal share).
    pub halving: bool,
    /// The learned policy: it ranks the candidates and moves in the
    /// playouts (where it has a model for the table).
    pub policy: Option<Arc<Policy>>,
    /// Playout moves chosen one ply deep by the learned value (the first
    /// this many of each playout; 0: none, the default): among the
    /// policy's move and every natural placement of the seat to move,
    /// the one after which the value rates the mover's team highest.
    pub value_plies: u32,
}

pub use crate::config::{CANDIDATES, FLAT_CUTOFF as CUTOFF};

impl Default for FlatOptions {
    fn default() -> Self {
        FlatOptions::from(&ClassicSearch::default())
    }
}

impl From<&ClassicSearch> for FlatOptions {
    /// The flat search's settings in the bots' settings.
    fn from(c: &ClassicSearch) -> Self {
        FlatOptions {
            candidates: c.candidates,
            cutoff: Some(c.flat_cutoff).filter(|&n| n > 0),
            greedy_opponents: c.greedy_opponents,
            inference: c.inference,
            halving: true,
            policy: c.learned.then(policy::shipped),
            value_plies: 0,
        }
    }
}

/// The candidates: the `k` moves greedy ranks highest (all when `k` is 0
/// or there are no more).
fn candidates(
    view: &SeatView,
    moves: &[Move],
    k: usize,
    seed: u64,
    weights: Option<&[f32]>,
) -> Vec<Move> {
    if k == 0 || moves.len() <= k {
        return moves.to_vec();
    }
    let game = view.determinize(&mut game_rng(seed));
    if let Some(w) = weights {
        // The policy reads the board and the seat's own hand only, so any
        // determinization ranks alike.
        let ranked = policy::ranked(&game, w, moves);
        return ranked.into_iter().take(k).map(|m| m.0).collect();
    }
    let scores = greedy_scores(&game, moves);
    let mut order: Vec<usize> = (0..moves.len()).collect();
    order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]));
    order.into_iter().take(k).map(|i| moves[i]).collect()
}

/// Plays on from `g` (the candidate just made) and scores it for `team`.
fn continuation(
    g: &mut Game,
    team: usize,
    opts: &FlatOptions,
    weights: Option<&[f32]>,
    rng: &mut PlayoutRng,
    buf: &mut Vec<Move>,
) -> f64 {
    let mut n = 0;
    while !g.is_over() && opts.cutoff.is_none_or(|c| n < c) {
        let other = g.team_of(g.turn()).index() != team;
        let mv = if other && opts.greedy_opponents {
            buf.clear();
            g.legal_moves(buf);
            if buf.is_empty() {
                Move::Pass
            } else {
                greedy_choice(g, buf, rng)
            }
        } else if let Some(w) = weights {
            policy::policy_move(g, w, rng, playout::RANDOM_SHARE)
        } else {
            playout::tactical_move(g, rng)
        };
        let mv = if n < opts.value_plies {
            value_move(g, mv, buf)
        } else {
            mv
        };
        let seat = g.turn();
        if g.apply(seat, mv, &mut RngReshuffler(rng)).is_err() {
            break;
        }
        n += 1;
    }
    value::value_of(g)[team] as f64
}

/// The move of the seat to move in `g` whose resulting position the
/// learned value rates best for its team, among `base` (the playout
/// policy's move) and every natural placement; `base` itself when it is
/// a dead-card exchange or a pass. `buf` is scratch space.
fn value_move(g: &Game, base: Move, buf: &mut Vec<Move>) -> Move {
    if !matches!(base, Move::Place { .. } | Move::Remove { .. }) {
        return base;
    }
    let seat = g.turn();
    let mover = g.team_of(seat).index();
    // Reshuffles inside a one-ply look are rare; any fixed order serves.
    let after = |m: Move| -> f32 {
        let mut h = g.clone();
        let mut r = playout_rng(0);
        match h.apply(seat, m, &mut RngReshuffler(&mut r)) {
            Ok(_) => value::value_of(&h)[mover],
            Err(_) => f32::NEG_INFINITY,
        }
    };
    buf.clear();
    g.legal_moves(buf);
    let mut best = (base, after(base));
    for &m in buf.iter() {
        if let Move::Place { card, .. } = m {
            if !card.is_jack() && m != base {
                let v = after(m);
                if v > best.1 {
                    best = (m, v);
                }
            }
        }
    }
    best.0
}

/// Root Monte Carlo over the view's candidate moves (see the module docs).
/// The view must be on its seat's turn with a legal move.
pub fn search(
    view: &SeatView,
    opts: &FlatOptions,
    budget: Budget,
    seed: u64,
    evidence: &inference::Evidence,
) -> SearchReport<Move> {
    let none = inference::Evidence::new(&SearchConfig::default().classic);
    let evidence = if opts.inference { evidence } else { &none };
    search_with(view, opts, budget, seed, &mut |rng: &mut PlayoutRng| {
        inference::determinize(view, evidence, rng)
    })
}

/// [`search`] with another source of determinizations (e.g. one that
/// knows the other hands, to measure what hidden cards cost).
pub fn search_with(
    view: &SeatView,
    opts: &FlatOptions,
    budget: Budget,
    seed: u64,
    determinize: &mut dyn FnMut(&mut PlayoutRng) -> Game,
) -> SearchReport<Move> {
    let start = web_time::Instant::now();
    let team = view.team().map_or(0, |t| t.index());
    let moves = view.legal_moves();
    let cfg = view.config();
    let weights = opts
        .policy
        .as_deref()
        .and_then(|p| p.model_for(cfg.players(), cfg.teams()));
    let cands = candidates(view, &moves, opts.candidates, seed, weights);
    // (move, reward sum, playouts)
    let mut arms: Vec<(Move, f64, u32)> = cands.iter().map(|&m| (m, 0.0, 0)).collect();
    let mut live: Vec<usize> = (0..arms.len()).collect();
    let mut rng = playout_rng(seed);
    let mut buf = Vec::with_capacity(128);
    let mut iterations = 0u64;
    // One round: the arms `live` on one determinization, with one playout
    // seed for all of them (common random numbers).
    let mut round = |arms: &mut [(Move, f64, u32)], live: &[usize], rng: &mut PlayoutRng| {
        let det = determinize(rng);
        let pseed = rng.next_u64();
        for &i in live {
            let mut g = det.clone();
            let mut prng = playout_rng(pseed);
            let seat = g.turn();
            let value = if g
                .apply(seat, arms[i].0, &mut RngReshuffler(&mut prng))
                .is_ok()
            {
                continuation(&mut g, team, opts, weights, &mut prng, &mut buf)
            } else {
                // Never for a legal candidate; counted as a loss.
                0.0
            };
            arms[i].1 += value;
            arms[i].2 += 1;
        }
    };
    let mean = |a: &(Move, f64, u32)| a.1 / a.2.max(1) as f64;
    match budget {
        Budget::Iterations(n) => {
            // Successive halving: the budget split evenly over the phases,
            // each phase's share over its live arms in whole rounds and one
            // last partial round, so exactly `n` playouts run in all.
            let phases = crate::search::halving_phases(opts.halving, arms.len());
            for phase in 0..phases {
                let share = n / phases + u64::from(phase < n % phases);
                let per = live.len() as u64;
                for _ in 0..share / per {
                    round(&mut arms, &live, &mut rng);
                }
                let rest = (share % per) as usize;
                if rest > 0 {
                    round(&mut arms, &live[..rest], &mut rng);
                }
                iterations += share;
                if phase + 1 < phases {
                    live.sort_by(|&x, &y| mean(&arms[y]).total_cmp(&mean(&arms[x])));
                    live.truncate(live.len().div_ceil(2));
                }
            }
        }
        Budget::Time(d) => {
            let deadline = start + d;
            loop {
                round(&mut arms, &live, &mut rng);
                iterations += live.len() as u64;
                if web_time::Instant::now() >= deadline {
                    break;
                }
            }
        }
    }
    let mut out: Vec<(Move, u32, f64)> = arms.iter().map(|a| (a.0, a.2, mean(a))).collect();
    out.sort_by(|a, b| b.1.cmp(&a.1).then(b.2.total_cmp(&a.2)));
    SearchReport {
        moves: out,
        iterations,
        elapsed: start.elapsed(),
        trees: 1,
    }
}

/// The live classic search bot (the default of `search:…` and of
/// `level:5`): [`search`] from its seat's view, the determinizations
/// weighted by what the seat before ours told of its hand; a winning
/// placement and a dead-card exchange are made at once (as
/// [`super::tree::TreeBot`] does).
pub struct FlatBot {
    budget: Budget,
    opts: FlatOptions,
    evidence: inference::Evidence,
    /// The last search's report.
    pub last: Option<SearchReport<Move>>,
}

impl FlatBot {
    /// A flat search bot with a budget per move.
    pub fn new(budget: Budget, opts: FlatOptions) -> FlatBot {
        FlatBot {
            budget,
            opts,
            evidence: inference::Evidence::new(&SearchConfig::default().classic),
            last: None,
        }
    }
}

impl Decide for FlatBot {
    type Game = Game;

    fn decide(&mut self, shell: &mut Shell, view: &SeatView, moves: &[Move]) -> Move {
        self.evidence.update(view);
        let (opts, budget, evidence) = (&self.opts, self.budget, &self.evidence);
        decide_flat(shell, view, moves, &mut self.last, |seed| {
            search(view, opts, budget, seed, evidence)
        })
    }
}

/// A flat search bot's move, counted in `shell`: the obvious move when
/// there is one (a dead card is exchanged at once, C6, and the turn goes
/// on: the only time a dead card's exchange is chosen, since one is
/// obvious whenever it is legal), else the best of the report `run_search`
/// makes from the move's search seed (kept in `last`); declared as it
/// counts (C8a).
pub fn decide_flat(
    shell: &mut Shell,
    view: &SeatView,
    moves: &[Move],
    last: &mut Option<SearchReport<Move>>,
    run_search: impl FnOnce(u64) -> SearchReport<Move>,
) -> Move {
    shell.count_move();
    let game = view.determinize(&mut shell.rng);
    let mv = match obvious_move(&game, moves) {
        // Free (C6); the turn goes on.
        Some(m @ Move::Dead { .. }) => return m,
        Some(m) => m,
        None => {
            let report = run_search(shell.search_seed());
            let best = report.best().unwrap_or(moves[0]);
            *last = Some(report);
            best
        }
    };
    with_declaration(&game, mv)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An iteration budget runs exactly that many playouts, each counted
    /// on one candidate, over greedy's best [`CANDIDATES`] moves; the
    /// values are chances.
    #[test]
    fn an_iteration_budget_is_run_exactly_over_the_candidates() {
        let view = crate::bench::classic_midgame(3);
        let legal = view.legal_moves().len();
        let opts = FlatOptions::default();
        assert_eq!(opts.candidates, CANDIDATES);
        assert_eq!(opts.cutoff, Some(CUTOFF));
        let evidence = inference::Evidence::of_view(&view, &ClassicSearch::default());
        for n in [1u64, 5, 7, 100] {
            let r = search(&view, &opts, Budget::Iterations(n), 9, &evidence);
            assert_eq!(r.iterations, n);
            let visits: u64 = r.moves.iter().map(|m| u64::from(m.1)).sum();
            assert_eq!(visits, n, "every playout tries one candidate");
            assert_eq!(r.moves.len(), CANDIDATES.min(legal));
            assert!(r.moves.iter().all(|m| (0.0..=1.0).contains(&m.2)));
            assert!(r.moves.iter().all(|m| view.legal_moves().contains(&m.0)));
        }
        // The same seed searches alike.
        let a = search(&view, &opts, Budget::Iterations(60), 4, &evidence);
        let b = search(&view, &opts, Budget::Iterations(60), 4, &evidence);
        assert_eq!(a.moves, b.moves);
    }

    /// The one-ply value move is the best of the policy's move and every
    /// natural placement by the learned value, for the mover's team, and
    /// a search with value plies still runs exactly its budget.
    #[test]
    fn value_plies_choose_the_best_valued_placement() {
        let view = crate::bench::classic_midgame(5);
        let game = view.determinize(&mut game_rng(3));
        let mover = game.team_of(game.turn()).index();
        let mut rng = playout_rng(2);
        let base = playout::tactical_move_with(&game, &mut rng, 0.0);
        let mut buf = Vec::new();
        let chosen = value_move(&game, base, &mut buf);
        let after = |m: Move| {
            let mut h = game.clone();
            h.apply(h.turn(), m, &mut RngReshuffler(&mut playout_rng(0)))
                .expect("legal");
            value::value_of(&h)[mover]
        };
        let best = after(chosen);
        assert!(best >= after(base));
        let mut naturals = 0;
        let mut legal = Vec::new();
        game.legal_moves(&mut legal);
        for m in legal {
            if let Move::Place { card, .. } = m {
                if !card.is_jack() {
                    naturals += 1;
                    assert!(best >= after(m), "{m:?} is valued higher than {chosen:?}");
                }
            }
        }
        assert!(
            naturals > 1,
            "the midgame has natural placements to compare"
        );
        let opts = FlatOptions {
            value_plies: 2,
            ..FlatOptions::default()
        };
        let evidence = inference::Evidence::of_view(&view, &ClassicSearch::default());
        let r = search(&view, &opts, Budget::Iterations(50), 9, &evidence);
        assert_eq!(r.iterations, 50);
        let plain = search(
            &view,
            &FlatOptions::default(),
            Budget::Iterations(50),
            9,
            &evidence,
        );
        assert_eq!(plain.iterations, 50);
    }
}
