//! The classic ISMCTS with the learned value
//! ([`sequence_bots::classic::value`]) and the
//! experiments around it: the evaluation at the playout cut-off, opponent
//! modelling (the search expects the other teams to play like the greedy
//! heuristic) and the root's candidate moves. Built on the same
//! determinizations ([`sequence_bots::classic::inference`]), tree ([`sequence_bots::ismcts`]), prior
//! and playout policy ([`ClassicState`]) as [`sequence_bots::classic::TreeBot`];
//! only the parts named in [`SearchOptions`] differ.
//!
//! [`bot`] builds any classic bot from a name: the arena's names, and
//! `value[:N]` (the one-ply [`crate::value_bot::ValueBot`], N deals) and
//! `vmcts:…` (this search; see [`parse`]).

use crate::value_bot;
use sequence_bots::classic::obvious::{obvious_move, winning_placement as winning};
use sequence_bots::classic::{
    eval, greedy_choice, greedy_scores, inference, outcome, playout, value, with_declaration,
    ClassicState, DEFAULT_CUTOFF, ROOT_MOVES,
};
use sequence_bots::ismcts::{self, Budget, Rewards, SearchReport, SearchState};
use sequence_bots::{Bot, Decide, SearchConfig, Shell, ShellBot};
use sequence_classic::{Game, Move, RngReshuffler, SeatView};
use sequence_common::rng::{game_rng, PlayoutRng};
use std::sync::Arc;

/// What [`VState`] does differently from [`ClassicState`].
#[derive(Debug, Clone, PartialEq)]
pub struct SearchOptions {
    /// Policy moves per playout before the evaluation (`None`: to the
    /// end; `Some(0)`: the evaluation at the tree's leaf).
    pub cutoff: Option<u32>,
    /// Root moves searched (the heuristic's best; 0 = all).
    pub root_moves: usize,
    /// The learned value at the cut-off (else the older evaluation,
    /// [`sequence_bots::classic::eval::evaluate`]).
    pub learned: bool,
    /// Other teams' moves in playouts by the greedy heuristic instead of
    /// the tactical policy.
    pub greedy_playouts: bool,
    /// Other teams' nodes grow by greedy's move instead of the tactical
    /// policy's.
    pub greedy_tree: bool,
    /// Weigh determinizations by the last opponent move (inference).
    pub inference: bool,
    /// Root moves the one-ply learned value ranks highest, searched besides
    /// greedy's `root_moves` (0: none).
    pub value_root_moves: usize,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            cutoff: Some(DEFAULT_CUTOFF),
            root_moves: ROOT_MOVES,
            learned: true,
            greedy_playouts: false,
            greedy_tree: false,
            inference: true,
            value_root_moves: 0,
        }
    }
}

/// A determinization for the search, with the searching team.
#[derive(Clone)]
pub struct VState {
    inner: ClassicState,
    me: u8,
    opts: Arc<SearchOptions>,
}

impl VState {
    fn other_team_moves(&self) -> bool {
        !self.inner.game.is_over() && self.inner.game.team_of(self.inner.game.turn()).0 != self.me
    }

    fn greedy_move(&self, rng: &mut PlayoutRng) -> Move {
        let mut moves = Vec::with_capacity(128);
        self.inner.game.legal_moves(&mut moves);
        if moves.is_empty() {
            return Move::Pass;
        }
        greedy_choice(&self.inner.game, &moves, rng)
    }
}

impl SearchState for VState {
    type Game = Game;

    #[inline]
    fn game(&self) -> &Game {
        &self.inner.game
    }

    #[inline]
    fn game_mut(&mut self) -> &mut Game {
        &mut self.inner.game
    }

    fn prior(&self, mv: &Move) -> f32 {
        self.inner.prior(mv)
    }

    fn policy_move(&self, rng: &mut PlayoutRng) -> Option<Move> {
        if self.opts.greedy_tree && self.other_team_moves() {
            Some(self.greedy_move(rng))
        } else {
            self.inner.policy_move(rng)
        }
    }

    fn rollout(&mut self, rng: &mut PlayoutRng) -> Rewards {
        let game = &mut self.inner.game;
        let mut n = 0;
        while !game.is_over() && self.opts.cutoff.is_none_or(|c| n < c) {
            let other = game.team_of(game.turn()).0 != self.me;
            let mv = if other && self.opts.greedy_playouts {
                let mut moves = Vec::with_capacity(128);
                game.legal_moves(&mut moves);
                if moves.is_empty() {
                    Move::Pass
                } else {
                    greedy_choice(game, &moves, rng)
                }
            } else {
                playout::tactical_move(game, rng)
            };
            let seat = game.turn();
            if game.apply(seat, mv, &mut RngReshuffler(rng)).is_err() {
                break;
            }
            n += 1;
        }
        if game.is_over() {
            outcome(game)
        } else if self.opts.learned {
            value::evaluate(game)
        } else {
            eval::evaluate(game)
        }
    }
}

/// A placement in `moves` that completes enough sequences to win (C9).
pub fn winning_placement(game: &Game, moves: &[Move]) -> Option<Move> {
    winning(game, moves)
}

/// The `k` root moves greedy ranks highest and the `kv` the one-ply
/// learned value ranks highest (empty: all).
fn root_candidates(view: &SeatView, seed: u64, k: usize, kv: usize) -> Vec<Move> {
    let moves = view.legal_moves();
    if k == 0 || moves.len() <= k + kv {
        return Vec::new();
    }
    let game = view.determinize(&mut game_rng(seed));
    let scores = greedy_scores(&game, &moves);
    let mut order: Vec<usize> = (0..moves.len()).collect();
    order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]));
    let mut out: Vec<Move> = order.iter().take(k).map(|&i| moves[i]).collect();
    if kv > 0 {
        let values = value_bot::one_ply_values(view, &moves, 8, seed);
        order.sort_by(|&a, &b| values[b].total_cmp(&values[a]));
        for &i in &order {
            if out.len() >= k + kv {
                break;
            }
            if !out.contains(&moves[i]) {
                out.push(moves[i]);
            }
        }
    }
    out
}

/// Searches the view's position with [`VState`].
pub fn search(
    view: &SeatView,
    opts: &Arc<SearchOptions>,
    budget: Budget,
    trees: Option<usize>,
    seed: u64,
    evidence: &inference::Evidence,
) -> SearchReport<Move> {
    let config = SearchConfig::default();
    let mut cfg = config.classic;
    cfg.cutoff = opts.cutoff.unwrap_or(0);
    let none = inference::Evidence::new(&cfg);
    let evidence = if opts.inference { evidence } else { &none };
    let me = view.team().map_or(0, |t| t.0);
    let det = |rng: &mut PlayoutRng| VState {
        inner: ClassicState {
            game: inference::determinize(view, evidence, rng),
            cfg,
        },
        me,
        opts: Arc::clone(opts),
    };
    let root = root_candidates(view, seed, opts.root_moves, opts.value_root_moves);
    ismcts::search_among(&det, &root, budget, trees, seed, &config)
}

/// The ISMCTS bot with [`SearchOptions`] (otherwise as
/// [`sequence_bots::classic::TreeBot`]).
pub struct VBot {
    budget: Budget,
    trees: Option<usize>,
    opts: Arc<SearchOptions>,
    evidence: inference::Evidence,
    /// The last search's report.
    pub last: Option<SearchReport<Move>>,
}

impl VBot {
    /// A bot searching with `opts`.
    pub fn new(budget: Budget, trees: Option<usize>, opts: SearchOptions) -> VBot {
        VBot {
            budget,
            trees,
            opts: Arc::new(opts),
            evidence: inference::Evidence::new(&SearchConfig::default().classic),
            last: None,
        }
    }
}

impl Decide for VBot {
    type Game = Game;

    fn decide(&mut self, shell: &mut Shell, view: &SeatView, moves: &[Move]) -> Move {
        self.evidence.update(view);
        shell.count_move();
        let game = view.determinize(&mut shell.rng);
        if let Some(m) = obvious_move(&game, moves) {
            return m;
        }
        let seed = shell.search_seed();
        let (budget, trees) = (self.budget, self.trees);
        let report = search(view, &self.opts, budget, trees, seed, &self.evidence);
        let best = report.best().unwrap_or(moves[0]);
        self.last = Some(report);
        with_declaration(&game, best)
    }
}

/// Reads `vmcts[:OPTION…]`: a budget (`3000it`, `200ms`), `Nt` trees, `cN`
/// cut-off (`c0`: to the end), `leaf` (the evaluation at the tree's leaf), `kN` root moves,
/// `kvN` root moves the one-ply value adds, `old` (the older evaluation at the cut-off),
/// `gp` (greedy opponents in playouts), `gt` (greedy opponents grow the
/// tree), `noinf` (no inference). Defaults: 3000 iterations, 1 tree, the
/// [`SearchOptions`] defaults.
///
/// # Errors
/// A message naming the option.
pub fn parse(spec: &str) -> Result<(Budget, Option<usize>, SearchOptions), String> {
    let mut trees = Some(1);
    let mut o = SearchOptions::default();
    let budget = parse_options(spec, "vmcts", |p, num| {
        match p {
            "old" => o.learned = false,
            "gp" => o.greedy_playouts = true,
            "gt" => o.greedy_tree = true,
            "noinf" => o.inference = false,
            _ if p.ends_with('t') => trees = Some(num(&p[..p.len() - 1])?.max(1) as usize),
            "leaf" => o.cutoff = Some(0),
            _ if p.starts_with('c') => o.cutoff = Some(num(&p[1..])? as u32).filter(|&c| c > 0),
            _ if p.starts_with("kv") => o.value_root_moves = num(&p[2..])? as usize,
            _ if p.starts_with('k') => o.root_moves = num(&p[1..])? as usize,
            _ => return Ok(false),
        }
        Ok(true)
    })?;
    Ok((budget, trees, o))
}

/// Reads a spec `NAME:OPTION:…` of the experimental classic bots: an
/// option ending in `it`, `ms` or `s` is the budget (default 3000
/// iterations), any other goes to `option`, which answers whether it
/// knows it; `num` reads a number for it.
///
/// # Errors
/// A message naming the spec and the option not understood.
pub fn parse_options(
    spec: &str,
    name: &str,
    mut option: impl FnMut(&str, &dyn Fn(&str) -> Result<u64, String>) -> Result<bool, String>,
) -> Result<Budget, String> {
    let mut parts = spec.split(':');
    if parts.next() != Some(name) {
        return Err(format!("{spec:?} is not {name}:…"));
    }
    let mut budget = Budget::Iterations(3000);
    for p in parts {
        let not_an_option = || format!("{spec}: {p:?} is not an option");
        if p.ends_with("it") || p.ends_with("ms") || p.ends_with('s') {
            budget = sequence_bots::parse_budget(p)?;
        } else if !option(p, &|t| t.parse::<u64>().map_err(|_| not_an_option()))? {
            return Err(not_an_option());
        }
    }
    Ok(budget)
}

/// The search's playout policy ([`playout::tactical_move`]) as a bot: a
/// one-ply player as strong as greedy with other rules and weights.
pub struct TacticalBot {
    rng: PlayoutRng,
}

impl Bot<Game> for TacticalBot {
    fn name(&self) -> String {
        "tactical".into()
    }

    fn choose(&mut self, view: &SeatView) -> Move {
        if view.legal_moves().is_empty() {
            return Move::Pass;
        }
        let game = view.determinize(&mut self.rng);
        with_declaration(&game, playout::tactical_move(&game, &mut self.rng))
    }
}

/// Any classic bot by name: the arena's names ([`sequence_bots::bot`]),
/// `tactical` ([`TacticalBot`]), `value[:N]`, `vmcts:…` ([`parse`]) and
/// `rmc:…` ([`crate::rmc::parse`]).
///
/// # Errors
/// A message for an unknown name or option.
pub fn bot(spec: &str, seed: u64) -> Result<Box<dyn Bot<Game>>, String> {
    if let Some(rest) = spec.strip_prefix("value-old") {
        let deals = match rest.strip_prefix(':') {
            Some(n) => n
                .parse()
                .map_err(|_| format!("{spec}: deals e.g. value-old:16"))?,
            None => value_bot::ONE_PLY_DEALS,
        };
        let mut b = value_bot::ValueBot::new(deals);
        b.eval = eval::evaluate;
        return Ok(Box::new(ShellBot::new(spec.to_string(), seed, b)));
    }
    if spec == "value" || spec.starts_with("value:") {
        let deals = match spec.strip_prefix("value:") {
            Some(n) => n
                .parse()
                .map_err(|_| format!("{spec}: deals e.g. value:16"))?,
            None => value_bot::ONE_PLY_DEALS,
        };
        let b = value_bot::ValueBot::new(deals);
        return Ok(Box::new(ShellBot::new(spec.to_string(), seed, b)));
    }
    if spec == "tactical" {
        return Ok(Box::new(TacticalBot {
            rng: sequence_common::rng::playout_rng(seed),
        }));
    }
    if spec.starts_with("rmc") {
        return crate::rmc::bot(spec, seed);
    }
    if spec.starts_with("vmcts") {
        let (budget, trees, opts) = parse(spec)?;
        let b = VBot::new(budget, trees, opts);
        return Ok(Box::new(ShellBot::new(spec.to_string(), seed, b)));
    }
    sequence_bots::bot::<Game>(spec, seed).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use sequence_classic::{Config, Options};

    #[test]
    fn options_parse() {
        let (b, t, o) = parse("vmcts:2000it:2t:c3:k6:kv2:gt:gp:old:noinf").expect("spec");
        assert_eq!(b, Budget::Iterations(2000));
        assert_eq!(t, Some(2));
        assert_eq!(
            o,
            SearchOptions {
                cutoff: Some(3),
                root_moves: 6,
                learned: false,
                greedy_playouts: true,
                greedy_tree: true,
                inference: false,
                value_root_moves: 2,
            }
        );
        assert_eq!(parse("vmcts:c0").expect("spec").2.cutoff, None);
        assert_eq!(parse("vmcts:leaf").expect("spec").2.cutoff, Some(0));
        assert!(parse("vmcts:fast").is_err());
        assert!(bot("nonsense", 1).is_err());
    }

    /// Every experimental bot plays legal moves to the end of a game.
    #[test]
    fn experimental_bots_play_legal_games() {
        for (players, specs) in [
            (2u8, ["vmcts:200it:gt:gp:kv2", "value:4"]),
            (3, ["vmcts:200it:leaf", "tactical"]),
        ] {
            let cfg = Config::new(players, None, Options::default()).expect("config");
            let mk = |s: u64| bot(specs[0], s).expect("bot");
            let field = |s: u64| bot(specs[1], s).expect("bot");
            let seed = crate::deals::deal_seed(3, 0);
            let (score, moves) = crate::deals::play_deal(&cfg, seed, 0, &mk, &field);
            assert!(
                moves > 10 && (0.0..=1.0).contains(&score),
                "{moves} {score}"
            );
        }
    }
}
