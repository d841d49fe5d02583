//! The classic tree search, off by default (`search:…:tree`; the live
//! search is the flat one of [`super::flat`]): ISMCTS ([`crate::ismcts`])
//! over determinizations weighted by inference ([`super::inference`]),
//! with tactical playouts ([`super::playout`]) cut off and scored by the
//! fitted evaluation ([`super::eval`]).

use super::heuristic::{
    board_game, greedy_scores, race_adjustment, with_declaration, Heuristic, ONE_EYED_COST,
    TWO_EYED_COST,
};
use super::obvious::obvious_move;
use super::value::outcome;
use super::{eval, inference, playout};
use crate::config::SearchSpec;
use crate::config::{ClassicSearch, SearchConfig};
use crate::ismcts::{self, SearchState};
use crate::search::{Budget, Rewards, SearchReport};
use crate::shell::{Decide, Shell};
use sequence_classic::{Game, Move, RngReshuffler, SeatView};
use sequence_common::rng::{game_rng, PlayoutRng};

/// A determinization of classic Sequence for [`ismcts`]. Sides are teams.
/// Playouts play `cutoff` moves of [`playout::tactical_move`] (0 = to the
/// end) and then score the board with [`eval::evaluate`]; below the root
/// the tree grows by the moves that policy proposes
/// ([`SearchState::policy_move`]).
#[derive(Clone)]
pub struct ClassicState {
    /// The determinized game.
    pub game: Game,
    /// The search's settings (cutoff, playout policy, prior).
    pub cfg: ClassicSearch,
}

impl SearchState for ClassicState {
    type Game = Game;

    #[inline]
    fn game(&self) -> &Game {
        &self.game
    }

    #[inline]
    fn game_mut(&mut self) -> &mut Game {
        &mut self.game
    }

    fn policy_move(&self, rng: &mut PlayoutRng) -> Option<Move> {
        self.cfg
            .tactical_playouts
            .then(|| playout::tactical_move_with(&self.game, rng, self.cfg.random_share))
    }

    fn prior(&self, mv: &Move) -> f32 {
        if !self.cfg.prior {
            return 0.0;
        }
        let team = self.game.team_of(self.game.turn());
        let v = match *mv {
            Move::Place { card, at, .. } => {
                let h = Heuristic::from_game(&self.game);
                h.place_value(team, at) - if card.is_jack() { TWO_EYED_COST } else { 0.0 }
                    + race_adjustment(&h, &self.game, *mv)
            }
            Move::Remove { at, .. } => {
                let h = Heuristic::from_game(&self.game);
                h.remove_value(team, at) - ONE_EYED_COST + race_adjustment(&h, &self.game, *mv)
            }
            Move::Dead { .. } => 1000.0,
            Move::Pass | Move::Discard { .. } => 0.0,
        };
        (1.0 - (-(v.max(0.0)) / 40.0).exp()) as f32
    }

    fn rollout(&mut self, rng: &mut PlayoutRng) -> Rewards {
        let tactical = self.cfg.tactical_playouts;
        let share = self.cfg.random_share;
        if self.cfg.cutoff == 0 {
            if tactical {
                while !self.game.is_over() {
                    let mv = playout::tactical_move_with(&self.game, rng, share);
                    let seat = self.game.turn();
                    if self.game.apply(seat, mv, &mut RngReshuffler(rng)).is_err() {
                        break;
                    }
                }
            } else {
                self.game.playout(rng, u32::MAX);
            }
            return outcome(&self.game);
        }
        for _ in 0..self.cfg.cutoff {
            if self.game.is_over() {
                return outcome(&self.game);
            }
            let mv = if tactical {
                playout::tactical_move_with(&self.game, rng, share)
            } else {
                self.game.random_move(rng).unwrap_or_default()
            };
            let seat = self.game.turn();
            if self.game.apply(seat, mv, &mut RngReshuffler(rng)).is_err() {
                break;
            }
        }
        if self.game.is_over() {
            outcome(&self.game)
        } else {
            eval::evaluate(&self.game)
        }
    }
}

/// The bot's search of the view's position with a playout cutoff (policy
/// moves before the evaluation; 0 plays to the end) over the
/// [`ROOT_MOVES`](crate::config::ROOT_MOVES) the heuristic ranks highest.
pub fn tree_search(
    view: &SeatView,
    budget: Budget,
    trees: Option<usize>,
    seed: u64,
    cutoff: u32,
) -> SearchReport<Move> {
    let mut cfg = SearchConfig::default();
    cfg.classic.cutoff = cutoff;
    let evidence = inference::Evidence::of_view(view, &cfg.classic);
    search_view(view, budget, trees, seed, &cfg, &evidence)
}

/// The tree search of the view's position with `config`'s settings and
/// the inference `evidence` (unless `config` turns inference off).
pub fn search_view(
    view: &SeatView,
    budget: Budget,
    trees: Option<usize>,
    seed: u64,
    config: &SearchConfig,
    evidence: &inference::Evidence,
) -> SearchReport<Move> {
    let cfg = config.classic;
    let none = inference::Evidence::new(&cfg);
    let evidence = if cfg.inference { evidence } else { &none };
    let det = |rng: &mut PlayoutRng| ClassicState {
        game: inference::determinize(view, evidence, rng),
        cfg,
    };
    let root = root_candidates(view, seed, cfg.root_moves);
    ismcts::search_among(&det, &root, budget, trees, seed, config)
}

/// The `k` root moves the heuristic ranks highest (see [`ROOT_MOVES`](crate::config::ROOT_MOVES));
/// empty means all (`k` = 0, or no more legal moves than `k`).
pub fn root_candidates(view: &SeatView, seed: u64, k: usize) -> Vec<Move> {
    let moves = view.legal_moves();
    if k == 0 || moves.len() <= k {
        return Vec::new();
    }
    let game = view.determinize(&mut game_rng(seed));
    let scores = greedy_scores(&game, &moves);
    let mut order: Vec<usize> = (0..moves.len()).collect();
    order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]));
    order.into_iter().take(k).map(|i| moves[i]).collect()
}

/// The tree search bot (`search:…:tree`; see [`crate::ismcts`]). Per iteration a fresh
/// determinization of the view, weighted by what the last opponent move
/// tells of that seat's hand ([`inference`]); at the root only the
/// [`ROOT_MOVES`](crate::config::ROOT_MOVES) moves the heuristic ranks highest; below it the tree
/// grows by the moves of the tactical playout policy
/// ([`playout::tactical_move`]); playouts of [`DEFAULT_CUTOFF`](crate::config::DEFAULT_CUTOFF) policy
/// moves are scored by the learned evaluation ([`eval::evaluate`]); root
/// parallelism. Dead-card exchanges are made at once and a winning
/// placement is taken without search; the chosen placement declares as
/// [`super::heuristic::best_declaration`] says.
pub struct TreeBot {
    /// The search's budget, trees and settings (the playout cutoff among
    /// them).
    pub search: SearchSpec,
    /// The last search's report (for UIs and `sequence hint`).
    pub last: Option<SearchReport<Move>>,
    /// What the recent moves of the seat before ours told of its hand.
    evidence: inference::Evidence,
}

impl TreeBot {
    /// An ISMCTS bot searching as `search` says (see [`ismcts::search`];
    /// its cutoff is read from `search.config`).
    pub fn new(search: SearchSpec) -> TreeBot {
        TreeBot {
            search,
            last: None,
            evidence: inference::Evidence::new(&search.config.classic),
        }
    }
}

impl Decide for TreeBot {
    type Game = Game;

    fn decide(&mut self, shell: &mut Shell, view: &SeatView, moves: &[Move]) -> Move {
        self.evidence.update(view);
        shell.count_move();
        let game = board_game(view, &mut shell.rng);
        if let Some(m) = obvious_move(&game, moves) {
            return m;
        }
        let s = &self.search;
        let seed = shell.search_seed();
        let report = search_view(view, s.budget, s.trees, seed, &s.config, &self.evidence);
        let best = report.best().unwrap_or(moves[0]);
        self.last = Some(report);
        with_declaration(&game, best)
    }
}
