//! The Stacks search bot: root-level Monte Carlo over common
//! determinizations with greedy playouts ([`rollout_search`], the default),
//! or the SO-ISMCTS tree of [`crate::ismcts`] over [`StacksState`].

use super::greedy::greedy_choice;
use super::heuristic::{game_score, score};
use crate::bot::BotGame;
use crate::config::SearchSpec;
use crate::config::{SearchConfig, StacksPlayout, StacksSearch};
use crate::ismcts::{self, SearchState};
use crate::search::{self, Budget, Rewards, SearchReport, MAX_SIDES};
use crate::shell::jittered_best;
use crate::shell::{Decide, Shell};
use rand::Rng;
use sequence_common::rng::{game_rng, PlayoutRng};
use sequence_common::{RngReshuffler, Seat};
use sequence_stacks::{Card, Decision, Decisions, Game, SeatView, Source, Status};

/// A determinization of Sequence Stacks for [`ismcts`], with the search's
/// settings. Sides are seats.
#[derive(Clone)]
pub struct StacksState(pub Game, pub StacksSearch);

pub use crate::config::PLAYOUT_CAP;

impl SearchState for StacksState {
    type Game = Game;

    #[inline]
    fn game(&self) -> &Game {
        &self.0
    }

    #[inline]
    fn game_mut(&mut self) -> &mut Game {
        &mut self.0
    }

    fn prior(&self, d: &Decision) -> f32 {
        let cfg = &self.1;
        if cfg.prior_scale <= 0.0 {
            return 0.0;
        }
        // The greedy score for the deciding seat, squashed to 0..1.
        let v = game_score(&self.0, *d);
        (1.0 / (1.0 + (-v / cfg.prior_scale).exp())) as f32
    }

    fn rollout(&mut self, rng: &mut PlayoutRng) -> Rewards {
        let cfg = self.1;
        match cfg.playout {
            StacksPlayout::Random => {
                self.0.playout(rng, cfg.cap);
            }
            StacksPlayout::Guided => {
                guided_playout(&mut self.0, rng, cfg.cap);
            }
            StacksPlayout::Greedy => {
                greedy_playout(&mut self.0, rng, cfg.cap, cfg.epsilon);
            }
        }
        outcome(&self.0)
    }
}

/// The searching seat's own playout policy: [`game_score`] with two
/// changes (bits of `own`, [`StacksSearch::own`], default both): 1 —
/// always Block an opponent's completion when holding a Block; 2 — do not
/// raise a pile to 3 without holding its 4 (the opponent would need only
/// the 4 and 5). Opponents keep plain greedy (a model of the usual
/// opponent).
fn own_score(g: &Game, d: Decision, own: u32) -> f64 {
    let base = game_score(g, d);
    let v = own;
    match d {
        Decision::Block if v & 1 != 0 => base.max(30.0),
        Decision::Pile { card, from, place } if v & 2 != 0 => {
            let mut hand = g.hand_counts(g.to_act().unwrap_or(Seat(0)));
            if from == Source::Hand {
                hand[card.index()] -= 1;
            }
            let h = g.pile_top(place).unwrap_or(0) + 1;
            let c = place.colour();
            let has =
                |n: u8| hand[Card::numbered(c, n).index()] > 0 || hand[Card::wild(c).index()] > 0;
            if h == 3 && !has(4) {
                base - 8.0
            } else {
                base
            }
        }
        _ => base,
    }
}

/// Epsilon-greedy playout: each decision is the [`game_score`] best (ties
/// at random) except with chance `epsilon` a uniformly random legal one.
/// Stops when the game ends or after `max` decisions; returns how many
/// were played. No allocation.
pub fn greedy_playout(game: &mut Game, rng: &mut PlayoutRng, max: u32, epsilon: f64) -> u32 {
    playout_with(game, rng, max, epsilon, None, 0)
}

/// [`greedy_playout`] where seat `me` (if any) plays by [`own_score`].
fn playout_with(
    game: &mut Game,
    rng: &mut PlayoutRng,
    max: u32,
    epsilon: f64,
    me: Option<Seat>,
    own: u32,
) -> u32 {
    play_out(game, rng, max, |game, seat, list, rng| {
        if list.len() == 1 {
            list[0]
        } else if rng.random::<f64>() < epsilon {
            list[rng.random_range(0..list.len())]
        } else {
            let scored = list.iter().map(|&d| match me {
                Some(s) if s == seat => (d, own_score(game, d, own)),
                _ => (d, game_score(game, d)),
            });
            jittered_best(scored, rng).unwrap_or(list[0])
        }
    })
}

/// A playout policy a little better than uniform: a seat plays what it can
/// (piles, action cards) before it discards, a pile-completing play first;
/// otherwise moves are random. No allocation.
pub fn guided_playout(game: &mut Game, rng: &mut PlayoutRng, max: u32) -> u32 {
    play_out(game, rng, max, |game, _, list, rng| {
        let mut plays = 0usize;
        let mut complete = usize::MAX;
        for (i, d) in list.iter().enumerate() {
            match *d {
                Decision::Discard { .. } | Decision::End | Decision::Pass => {}
                Decision::Pile { place, .. } => {
                    plays += 1;
                    if game.pile_top(place) == Some(4) {
                        complete = i;
                    }
                }
                _ => plays += 1,
            }
        }
        if complete != usize::MAX {
            list[complete]
        } else if plays > 0 && rng.random::<f32>() < 0.9 {
            let mut k = rng.random_range(0..plays);
            let mut pick = list[0];
            for d in list.iter() {
                if matches!(d, Decision::Discard { .. } | Decision::End | Decision::Pass) {
                    continue;
                }
                if k == 0 {
                    pick = *d;
                    break;
                }
                k -= 1;
            }
            pick
        } else {
            list[rng.random_range(0..list.len())]
        }
    })
}

/// Plays `game` on, `policy` choosing each decision of the seat to act
/// among its legal ones (never empty), until the game ends or after `max`
/// decisions; returns how many were played. No allocation.
#[inline]
fn play_out(
    game: &mut Game,
    rng: &mut PlayoutRng,
    max: u32,
    mut policy: impl FnMut(&Game, Seat, &Decisions, &mut PlayoutRng) -> Decision,
) -> u32 {
    let mut list = Decisions::new();
    let mut n = 0;
    while n < max {
        let Some(seat) = game.to_act() else { break };
        game.legal_moves(&mut list);
        if list.is_empty() {
            break;
        }
        let d = policy(game, seat, &list, rng);
        // a listed decision is legal: applied without check or effects
        if game
            .apply_unreported(seat, d, &mut RngReshuffler(&mut *rng))
            .is_err()
        {
            break;
        }
        n += 1;
    }
    n
}

/// Rewards at the end of a playout: 1 to the winner; on a draw an equal
/// share; unfinished (cut off), shares by chip progress toward S7.
pub fn outcome(game: &Game) -> Rewards {
    let n = game.players() as usize;
    let mut r = [0.0; MAX_SIDES];
    match game.status() {
        Status::Won(s) => r[s.index() % MAX_SIDES] = 1.0,
        Status::Draw => r[..n].iter_mut().for_each(|x| *x = 1.0 / n as f32),
        Status::Playing => {
            let mut total = 0.0;
            for (s, x) in r.iter_mut().enumerate().take(n) {
                let c = game.chips(Seat(s as u8));
                let p = c[0].min(2) + c[1].min(2) + (c[0] + c[1]).min(5);
                *x = 1.0 + p as f32;
                total += *x;
            }
            r[..n].iter_mut().for_each(|x| *x /= total);
        }
    }
    r
}

/// The SO-ISMCTS tree of [`crate::ismcts`] over [`StacksState`] (the
/// view's seat must decide). `None` when the view cannot be determinized.
pub fn tree_search(
    view: &SeatView,
    budget: Budget,
    trees: Option<usize>,
    seed: u64,
    config: &SearchConfig,
) -> Option<SearchReport<Decision>> {
    let mut probe = game_rng(seed);
    view.determinize(&mut probe).ok()?;
    let fallback = view.clone();
    let cfg = config.stacks;
    let det = move |rng: &mut PlayoutRng| match fallback.determinize(rng) {
        Ok(g) => StacksState(g, cfg),
        // Checked above; the same view always determinizes.
        Err(_) => unreachable_view(),
    };
    Some(ismcts::search(&det, budget, trees, seed, config))
}

/// Root-level Monte Carlo with common random numbers: every legal
/// decision of the view's seat is tried on the same determinizations (and
/// the same playout seeds), each followed by a [`greedy_playout`]; the
/// decision with the best mean reward wins. One playout counts as one
/// iteration. A one-step policy improvement over the playout policy, with
/// the variance of the comparisons much reduced by the pairing.
/// `None` when the view cannot be determinized.
pub fn rollout_search(
    view: &SeatView,
    budget: Budget,
    seed: u64,
    cfg: &StacksSearch,
) -> Option<SearchReport<Decision>> {
    let start = web_time::Instant::now();
    let mut rng = sequence_common::rng::playout_rng(seed);
    let seat = view.seat?;
    view.determinize(&mut rng).ok()?;
    // (move, reward sum, playouts)
    let mut arms: Vec<(Decision, f64, u32)> = view.legal.iter().map(|&d| (d, 0.0, 0)).collect();
    let mut live: Vec<usize> = (0..arms.len()).collect();
    let mut iterations = 0u64;
    // One determinization (and playout seed) shared by every live move.
    let round = |arms: &mut [(Decision, f64, u32)], live: &[usize], rng: &mut PlayoutRng| {
        let Ok(det) = view.determinize(rng) else {
            return false;
        };
        let pseed: u64 = rng.random();
        for &i in live {
            let mut g = det.clone();
            let mut prng = sequence_common::rng::playout_rng(pseed);
            if g.play(seat, arms[i].0, &mut RngReshuffler(&mut prng))
                .is_err()
            {
                continue;
            }
            let me = (cfg.own > 0).then_some(seat);
            playout_with(&mut g, &mut prng, cfg.cap, cfg.epsilon, me, cfg.own);
            arms[i].1 += outcome(&g)[seat.index() % MAX_SIDES] as f64;
            arms[i].2 += 1;
        }
        true
    };
    let mean = |a: &(Decision, f64, u32)| a.1 / a.2.max(1) as f64;
    match budget {
        Budget::Iterations(n) => {
            // Successive halving: equal shares of the budget per phase,
            // the better half of the moves goes on to the next.
            let phases = search::halving_phases(cfg.halving, arms.len());
            for phase in 0..phases {
                let k = (n / phases / live.len() as u64).max(1);
                for _ in 0..k {
                    if !round(&mut arms, &live, &mut rng) {
                        break;
                    }
                    iterations += live.len() as u64;
                }
                if phase + 1 < phases {
                    live.sort_by(|&x, &y| {
                        mean(&arms[y])
                            .partial_cmp(&mean(&arms[x]))
                            .unwrap_or(std::cmp::Ordering::Equal)
                    });
                    live.truncate(live.len().div_ceil(2));
                }
            }
        }
        Budget::Time(d) => {
            let deadline = start + d;
            loop {
                if !round(&mut arms, &live, &mut rng) {
                    break;
                }
                iterations += live.len() as u64;
                if web_time::Instant::now() >= deadline {
                    break;
                }
            }
        }
    }
    // Most playouts first (the survivors), then the best mean.
    let mut out: Vec<(Decision, u32, f64)> = arms.iter().map(|a| (a.0, a.2, mean(a))).collect();
    out.sort_by(|a, b| {
        b.1.cmp(&a.1)
            .then(b.2.partial_cmp(&a.2).unwrap_or(std::cmp::Ordering::Equal))
    });
    Some(SearchReport {
        moves: out,
        iterations,
        elapsed: start.elapsed(),
        trees: 1,
    })
}

/// [`rollout_search`] on several threads (root parallelism): `trees`
/// independent searches (default: one per core for a time budget, one for
/// an iteration budget, so that results do not depend on the machine),
/// seeds derived from `seed`, an iteration budget split between them; per
/// decision the playouts and rewards are summed. Most playouts first, then
/// the best mean. `None` when the view cannot be determinized.
pub fn parallel_rollout_search(
    view: &SeatView,
    budget: Budget,
    trees: Option<usize>,
    seed: u64,
    cfg: &StacksSearch,
) -> Option<SearchReport<Decision>> {
    let start = web_time::Instant::now();
    let n = trees
        .unwrap_or(match budget {
            Budget::Iterations(_) => 1,
            Budget::Time(_) => search::cores(),
        })
        .max(1);
    if n == 1 {
        return rollout_search(view, budget, seed, cfg);
    }
    let each = match budget {
        Budget::Iterations(k) => Budget::Iterations(k.div_ceil(n as u64).max(1)),
        t => t,
    };
    let reports: Vec<Option<SearchReport<Decision>>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..n as u64)
            .map(|t| {
                let seed = crate::seeds::mix(seed ^ crate::seeds::mix(t + 1));
                scope.spawn(move || rollout_search(view, each, seed, cfg))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().ok().flatten())
            .collect()
    });
    // (decision, playouts, reward sum)
    let mut merged: Vec<(Decision, u32, f64)> = Vec::new();
    let mut iterations = 0;
    for r in reports.into_iter().flatten() {
        iterations += r.iterations;
        for (d, playouts, mean) in r.moves {
            let sum = mean * playouts as f64;
            match merged.iter_mut().find(|m| m.0 == d) {
                Some(m) => {
                    m.1 += playouts;
                    m.2 += sum;
                }
                None => merged.push((d, playouts, sum)),
            }
        }
    }
    if merged.is_empty() {
        return None;
    }
    let mut moves: Vec<(Decision, u32, f64)> = merged
        .into_iter()
        .map(|(d, p, sum)| (d, p, sum / p.max(1) as f64))
        .collect();
    moves.sort_by(|a, b| b.1.cmp(&a.1).then(b.2.total_cmp(&a.2)));
    Some(SearchReport {
        moves,
        iterations,
        elapsed: start.elapsed(),
        trees: n,
    })
}

#[cold]
fn unreachable_view() -> ! {
    panic!("a view that determinized once failed to determinize")
}

/// Search bot for Sequence Stacks (spec `search`). By default a
/// root-level Monte Carlo over common determinizations ([`rollout_search`]:
/// each legal decision tried on the same deals, followed by greedy
/// playouts, successive halving of the candidates); with
/// [`StacksSearch::flat`] off the SO-ISMCTS tree of [`crate::ismcts`] over
/// [`StacksState`] instead. Completions that win, and Blocks that stop a
/// win, are played at once.
pub struct SearchBot {
    /// The search's budget, trees and settings.
    pub search: SearchSpec,
    /// The last search's report.
    pub last: Option<SearchReport<Decision>>,
}

impl SearchBot {
    /// A search bot searching as `search` says.
    pub fn new(search: SearchSpec) -> SearchBot {
        SearchBot { search, last: None }
    }
}

impl Decide for SearchBot {
    type Game = Game;

    fn decide(&mut self, shell: &mut Shell, view: &SeatView, moves: &[Decision]) -> Decision {
        if let [only] = moves {
            return *only;
        }
        shell.count_move();
        // Obvious cases: a win now, or a Block that stops one.
        if let Some(&d) = moves.iter().find(|&&d| score(view, d) >= 1000.0) {
            return d;
        }
        let seed = shell.search_seed();
        match Game::analyse(view, seed, &self.search) {
            Some(report) => {
                let best = report.best().unwrap_or(moves[0]);
                self.last = Some(report);
                best
            }
            None => greedy_choice(view, &mut shell.rng),
        }
    }
}
