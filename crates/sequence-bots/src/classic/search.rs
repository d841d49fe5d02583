//! The classic search bot: ISMCTS ([`crate::ismcts`]) over determinizations
//! weighted by inference ([`super::inference`]), with tactical playouts
//! ([`super::playout`]) cut off and scored by the learned evaluation
//! ([`super::eval`]).

use super::heuristic::{
    board_game, greedy_scores, lines, race_adjustment, with_declaration, Heuristic, ONE_EYED_COST,
    TWO_EYED_COST,
};
use super::{eval, inference, playout};
use crate::config::{ClassicSearch, SearchConfig};
use crate::ismcts::{self, Budget, Rewards, SearchReport, SearchState, MAX_SIDES};
use crate::{Decide, SearchSpec, Shell};
use sequence_classic::{Game, Move, RngReshuffler, SeatView, Status, Team, CORNERS};
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

/// Default playout length before the evaluation (see [`ClassicState`]).
pub const DEFAULT_CUTOFF: u32 = 2;

/// Value of a live window by spaces missing, for [`evaluate`].
const EVAL: [f32; 6] = [0.0, 12.0, 4.0, 1.5, 0.5, 0.0];
/// Value of a completed sequence, for [`evaluate`].
const EVAL_SEQUENCE: f32 = 80.0;
/// Scale of the evaluation's logistic.
const EVAL_SCALE: f32 = 25.0;

/// The earlier hand-tuned evaluation, kept for comparison
/// (`examples/fit_eval.rs`): each team's sequences and live lines (windows
/// with no opponent chip, by spaces missing), turned into shares that sum
/// to 1 (a softmax). On held-out positions its log loss is worse than
/// even chances; the search uses [`eval::evaluate`].
pub fn line_evaluate(game: &Game) -> Rewards {
    let teams = game.teams() as usize;
    let len = game.sequence_length();
    let ls = lines(len);
    let occ = game.occupied().0;
    let mut v = [0f32; 3];
    let mut chips = [0u128; 3];
    for (t, c) in chips.iter_mut().enumerate().take(teams) {
        *c = game.chips(Team(t as u8)).0;
    }
    for t in 0..teams {
        let own = chips[t] | CORNERS.0;
        let opp = occ & !chips[t];
        let mut s = EVAL_SEQUENCE * game.sequence_count(Team(t as u8)) as f32;
        for &w in &ls.windows {
            if w & opp == 0 {
                let missing = len as usize - (w & own).count_ones() as usize;
                s += EVAL[missing.min(5)];
            }
        }
        v[t] = s;
    }
    let max = v[..teams].iter().cloned().fold(f32::MIN, f32::max);
    let mut r = [0f32; MAX_SIDES];
    let mut sum = 0.0;
    for t in 0..teams {
        r[t] = ((v[t] - max) / EVAL_SCALE).exp();
        sum += r[t];
    }
    for x in r.iter_mut().take(teams) {
        *x /= sum;
    }
    r
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

/// Rewards of a finished game: 1 to the winning team, ½ each on a draw.
pub fn outcome(game: &Game) -> Rewards {
    let mut r = [0.0; MAX_SIDES];
    match game.status() {
        Status::Won(t) => r[t.index() % MAX_SIDES] = 1.0,
        _ => r.iter_mut().for_each(|x| *x = 0.5),
    }
    r
}

/// Searches the view's position as the bot does (the flat search of
/// [`super::rollout`] or the ISMCTS tree, as `config` says) but over at
/// least the [`HINT_ROOT_MOVES`] moves the heuristic ranks highest: per move, visits
/// and the estimated chance of the view's team to win (for `sequence
/// hint`). The view must be on its seat's turn.
pub fn analyse(
    view: &SeatView,
    budget: Budget,
    trees: Option<usize>,
    seed: u64,
    config: &SearchConfig,
) -> SearchReport<Move> {
    let mut cfg = *config;
    cfg.classic.root_moves = cfg.classic.root_moves.max(HINT_ROOT_MOVES);
    let evidence = inference::Evidence::of_view(view, &cfg.classic);
    let mut report = if cfg.classic.flat {
        let mut opts = super::rollout::RolloutOptions::from(&cfg.classic);
        if opts.candidates > 0 {
            opts.candidates = opts.candidates.max(HINT_ROOT_MOVES);
        }
        super::rollout::search(view, &opts, budget, seed, &evidence)
    } else {
        search_view(view, budget, trees, seed, &cfg, &evidence)
    };
    // A placement that wins at once comes first: a free dead-card exchange
    // (C6) before it wins as surely in the search's eyes, but a later win
    // is no better and only the immediate one is certain.
    let game = board_game(view, &mut game_rng(seed));
    if let Some(w) = winning_placement(&game, &view.legal_moves()) {
        if let Some(i) = report.moves.iter().position(|m| m.0 == w) {
            let entry = report.moves.remove(i);
            report.moves.insert(0, entry);
        }
    }
    report
}

/// A legal placement in `moves` that completes enough sequences to win
/// (C9) in `game`, if any. Only the board and the seat's own hand matter,
/// so any determinization of a view answers alike.
pub(crate) fn winning_placement(game: &Game, moves: &[Move]) -> Option<Move> {
    let team = game.team_of(game.turn());
    let have = game.sequence_count(team);
    moves.iter().copied().find(|m| match *m {
        Move::Place { at, .. } => game
            .completions_at(at)
            .is_some_and(|c| c.any() && have + c.most() >= game.win_sequences()),
        _ => false,
    })
}

/// Root moves [`analyse`] compares (at least).
pub const HINT_ROOT_MOVES: usize = 8;

/// The bot's search of the view's position with a playout cutoff (policy
/// moves before the evaluation; 0 plays to the end) over the
/// [`ROOT_MOVES`] the heuristic ranks highest.
pub fn analyse_with(
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

fn search_view(
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

/// Root moves searched: the [`ROOT_MOVES`] the heuristic
/// ([`super::heuristic::score_moves`]) ranks highest (0 = all).
pub const ROOT_MOVES: usize = 4;

/// The `k` root moves the heuristic ranks highest (see [`ROOT_MOVES`]);
/// empty means all (`k` = 0, or no more legal moves than `k`).
pub(crate) fn root_candidates(view: &SeatView, seed: u64, k: usize) -> Vec<Move> {
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

/// ISMCTS bot (see [`crate::ismcts`]). Per iteration a fresh
/// determinization of the view, weighted by what the last opponent move
/// tells of that seat's hand ([`inference`]); at the root only the
/// [`ROOT_MOVES`] moves the heuristic ranks highest; below it the tree
/// grows by the moves of the tactical playout policy
/// ([`playout::tactical_move`]); playouts of [`DEFAULT_CUTOFF`] policy
/// moves are scored by the learned evaluation ([`eval::evaluate`]); root
/// parallelism. Dead-card exchanges are made at once and a winning
/// placement is taken without search; the chosen placement declares as
/// [`super::heuristic::best_declaration`] says.
pub struct IsmctsBot {
    /// The search's budget, trees and settings (the playout cutoff among
    /// them).
    pub search: SearchSpec,
    /// The last search's report (for UIs and `sequence hint`).
    pub last: Option<SearchReport<Move>>,
    /// What the recent moves of the seat before ours told of its hand.
    evidence: inference::Evidence,
}

impl IsmctsBot {
    /// An ISMCTS bot searching as `search` says (see [`ismcts::search`];
    /// its cutoff is read from `search.config`).
    pub fn new(search: SearchSpec) -> IsmctsBot {
        IsmctsBot {
            search,
            last: None,
            evidence: inference::Evidence::new(&search.config.classic),
        }
    }
}

impl Decide for IsmctsBot {
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

/// A move that needs no search, if any: the only legal one, a placement
/// that wins at once (C9) or a dead-card exchange (free, C6: the turn
/// goes on); placements declared as [`with_declaration`] says (C8a).
pub(crate) fn obvious_move(game: &Game, moves: &[Move]) -> Option<Move> {
    let m = if moves.len() == 1 {
        moves[0]
    } else if let Some(m) = winning_placement(game, moves) {
        m
    } else {
        *moves.iter().find(|m| matches!(m, Move::Dead { .. }))?
    };
    Some(with_declaration(game, m))
}
