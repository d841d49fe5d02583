//! Bots for classic Sequence: [`RandomBot`], [`GreedyBot`] (one-ply
//! heuristic) and [`IsmctsBot`] (search), plus the heuristic itself
//! ([`Heuristic`]) and the search state ([`ClassicState`]).

pub mod eval;
pub mod inference;
pub mod playout;
// eval branch: learned value and its experiments (new files only).
pub mod belief;
pub mod features;
pub mod rollout;
pub mod value;
pub mod vsearch;

use crate::ismcts::{self, Budget, Rewards, SearchReport, SearchState, MAX_SIDES};
use crate::ClassicBot;
use rand::{Rng, RngCore};
use sequence_classic::{
    Bitboard, Declaration, Game, Move, RngReshuffler, SeatView, Space, Status, Team, Window,
    CORNERS,
};
use sequence_common::rng::{game_rng, GameRng, PlayoutRng};
use std::sync::OnceLock;

// ----- random ----------------------------------------------------------------

/// Plays a uniformly random legal move.
pub struct RandomBot {
    name: String,
    rng: GameRng,
}

impl RandomBot {
    /// A random bot named `name`, seeded with `seed` (ChaCha8).
    pub fn new(name: String, seed: u64) -> RandomBot {
        RandomBot {
            name,
            rng: game_rng(seed),
        }
    }
}

impl ClassicBot for RandomBot {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, view: &SeatView) -> Move {
        let moves = view.legal_moves();
        if moves.is_empty() {
            return Move::Pass;
        }
        moves[self.rng.random_range(0..moves.len())]
    }
}

// ----- lines through spaces ---------------------------------------------------

/// Every window of `len` spaces as a mask, and per space (bit index) the
/// windows through it.
pub struct Lines {
    /// Window masks.
    pub windows: Vec<u128>,
    /// Per bit index (0–109): indices into `windows`.
    pub through: Vec<Vec<u16>>,
}

fn build_lines(len: u8) -> Lines {
    let mut windows = Vec::new();
    let mut through = vec![Vec::new(); 110];
    for sq in Space::all() {
        for dir in sequence_classic::Dir::ALL {
            if let Some(w) = Window::new(sq, dir, len) {
                let m = w.mask(len).0;
                let id = windows.len() as u16;
                windows.push(m);
                for s in Bitboard(m).iter() {
                    through[s.bit() as usize].push(id);
                }
            }
        }
    }
    Lines { windows, through }
}

/// The line tables for sequence length 4 or 5 (other lengths: 5).
pub fn lines(len: u8) -> &'static Lines {
    static L4: OnceLock<Lines> = OnceLock::new();
    static L5: OnceLock<Lines> = OnceLock::new();
    if len == 4 {
        L4.get_or_init(|| build_lines(4))
    } else {
        L5.get_or_init(|| build_lines(5))
    }
}

// ----- heuristic --------------------------------------------------------------

/// Value of a live window by spaces still missing (0 = a sequence).
const OWN: [f64; 6] = [10_000.0, 40.0, 9.0, 3.0, 1.0, 0.0];
/// Value of killing an opponent's live window, by spaces it still misses.
const BLOCK: [f64; 6] = [0.0, 600.0, 12.0, 2.0, 0.5, 0.0];
/// Value of blocking a four that would win the opponent the game.
const WINNING_BLOCK: f64 = 50_000.0;
/// Cost of spending a two-eyed jack (wild).
const TWO_EYED_COST: f64 = 30.0;
/// Cost of spending a one-eyed jack (remover).
const ONE_EYED_COST: f64 = 40.0;
/// With 3 teams or more (one sequence wins, C9), greedy's extra cost of
/// placing a two-eyed jack: it keeps it to win or to block a four
/// ([`greedy_scores`]).
const RACE_TWO_EYED_COST: f64 = 250.0;
/// With 3 teams or more, greedy's extra cost of a one-eyed jack removal
/// that breaks no opponent's four ([`greedy_scores`]).
const RACE_ONE_EYED_COST: f64 = 100.0;
/// With 3 teams or more, greedy's value, per window, of removing the one
/// opponent chip in a window that holds four of its own when it holds a
/// card to fill the cleared space next turn (C6: not in the same turn).
const REOPEN_FOUR: f64 = 2000.0;

/// The public board as the heuristic reads it.
#[derive(Clone, Debug)]
pub struct Heuristic {
    chips: [u128; 3],
    occupied: u128,
    /// Per team, the spaces of its sequences (corners excluded).
    locked: [u128; 3],
    teams: u8,
    len: u8,
    win: u8,
    seq_count: [u8; 3],
}

impl Heuristic {
    /// Reads the board of a view.
    pub fn from_view(view: &SeatView) -> Heuristic {
        let cfg = view.config();
        let len = cfg.sequence_length();
        let teams = cfg.teams();
        let mut chips = [0u128; 3];
        for t in 0..teams.min(3) {
            chips[t as usize] = view.chips(Team(t)).0;
        }
        let mut locked = [0u128; 3];
        let mut seq_count = [0u8; 3];
        for (t, w) in view.sequences() {
            locked[t.index() % 3] |= w.mask(len).0 & !CORNERS.0;
            seq_count[t.index() % 3] += 1;
        }
        Heuristic {
            chips,
            occupied: chips[0] | chips[1] | chips[2],
            locked,
            teams,
            len,
            win: cfg.win_sequences(),
            seq_count,
        }
    }

    /// Reads the board of a full game.
    pub fn from_game(game: &Game) -> Heuristic {
        let len = game.sequence_length();
        let teams = game.teams();
        let mut chips = [0u128; 3];
        for t in 0..teams.min(3) {
            chips[t as usize] = game.chips(Team(t)).0;
        }
        let mut locked = [0u128; 3];
        let mut seq_count = [0u8; 3];
        for (t, w) in game.sequences() {
            locked[t.index() % 3] |= w.mask(len).0 & !CORNERS.0;
            seq_count[t.index() % 3] += 1;
        }
        Heuristic {
            chips,
            occupied: game.occupied().0,
            locked,
            teams,
            len,
            win: game.win_sequences(),
            seq_count,
        }
    }

    /// Spaces still missing in window `w` for `team`, or `None` when the
    /// window is dead for it (an opponent chip in it, or more than one space
    /// shared with its own sequences, C8).
    #[inline]
    fn missing(&self, w: u128, team: usize, locked: u128) -> Option<usize> {
        let opp = self.occupied & !self.chips[team];
        if w & opp != 0 || (w & locked).count_ones() > 1 {
            return None;
        }
        let have = (w & (self.chips[team] | CORNERS.0)).count_ones();
        Some(self.len as usize - have as usize)
    }

    /// Value for `team` of a chip on the empty space `at`: own lines it
    /// builds plus opponents' lines it blocks.
    pub fn place_value(&self, team: Team, at: Space) -> f64 {
        let t = team.index();
        let ls = lines(self.len);
        let mut v = 0.0;
        for &wi in &ls.through[at.bit() as usize] {
            let w = ls.windows[wi as usize];
            if let Some(m) = self.missing(w, t, self.locked[t]) {
                v += OWN[m.saturating_sub(1).min(5)] - OWN[m.min(5)];
            }
            for o in 0..self.teams as usize {
                if o != t {
                    if let Some(m) = self.missing(w, o, self.locked[o]) {
                        // A four that would win them the game must be blocked.
                        v += if m == 1 && self.seq_count[o] + 1 >= self.win {
                            WINNING_BLOCK
                        } else {
                            BLOCK[m.min(5)]
                        };
                    }
                }
            }
        }
        v
    }

    /// A scorer for many [`Heuristic::place_value`] calls by `team` on the
    /// same board (the per-team masks computed once).
    pub fn place_scorer(&self, team: Team) -> PlaceScorer {
        let t = team.index();
        let mut sides = [(0u128, 0u128, 0u128, 0.0f32); 3];
        let mut n = 0;
        let mut order = [t; 3];
        for o in (0..self.teams as usize).filter(|&o| o != t) {
            n += 1;
            order[n] = o;
        }
        for (i, &o) in order.iter().enumerate().take(n + 1) {
            sides[i] = (
                self.occupied & !self.chips[o],
                self.chips[o] | CORNERS.0,
                self.locked[o],
                if self.seq_count[o] + 1 >= self.win {
                    1.0
                } else {
                    0.0
                },
            );
        }
        PlaceScorer {
            sides,
            n: n + 1,
            len: self.len,
        }
    }

    /// Value for `team` of removing the opponent chip on `at`.
    pub fn remove_value(&self, team: Team, at: Space) -> f64 {
        let t = team.index();
        let Some(owner) = (0..self.teams as usize).find(|&o| self.chips[o] >> at.bit() & 1 != 0)
        else {
            return 0.0;
        };
        if owner == t {
            return 0.0;
        }
        let ls = lines(self.len);
        let mut v = 0.0;
        for &wi in &ls.through[at.bit() as usize] {
            let w = ls.windows[wi as usize];
            if let Some(m) = self.missing(w, owner, self.locked[owner]) {
                // The window loses a chip: worth its threat.
                v += BLOCK[m.min(5)] + OWN[m.min(5)].min(600.0) * 0.1;
            }
        }
        v
    }

    /// Whether removing the chip on `at` breaks a window its owner (an
    /// opponent of `team`) lacks one space to complete (C8).
    fn breaks_four(&self, team: Team, at: Space) -> bool {
        let bit = at.bb().0;
        let ls = lines(self.len);
        (0..self.teams as usize)
            .filter(|&o| o != team.index() && self.chips[o] & bit != 0)
            .any(|o| {
                ls.through[at.bit() as usize]
                    .iter()
                    .any(|&wi| self.missing(ls.windows[wi as usize], o, self.locked[o]) == Some(1))
            })
    }

    /// Windows of `team` through `at` that would lack only the space `at`
    /// once the opponent chip on it is removed (C6, C8).
    fn reopened_fours(&self, team: Team, at: Space) -> usize {
        let t = team.index();
        let bit = at.bb().0;
        let opp = self.occupied & !self.chips[t] & !bit;
        let own = self.chips[t] | CORNERS.0;
        let ls = lines(self.len);
        ls.through[at.bit() as usize]
            .iter()
            .map(|&wi| ls.windows[wi as usize])
            .filter(|&w| {
                w & opp == 0
                    && (w & self.locked[t]).count_ones() <= 1
                    && (w & own).count_ones() + 1 == self.len as u32
            })
            .count()
    }

    /// Sum over every window still live for `team` of its value, with
    /// `locked` as the team's sequence spaces: the team's potential.
    pub fn potential(&self, team: Team, locked: u128) -> f64 {
        let t = team.index();
        let ls = lines(self.len);
        ls.windows
            .iter()
            .filter_map(|&w| self.missing(w, t, locked))
            .filter(|&m| m > 0)
            .map(|m| OWN[m.min(5)])
            .sum()
    }
}

/// [`Heuristic::place_value`] for one team on one board, with the masks
/// of every team computed once (see [`Heuristic::place_scorer`]).
pub struct PlaceScorer {
    /// Per side (the scoring team first): opponent chips, own chips with
    /// the corners, sequence spaces, 1 when one more sequence wins.
    sides: [(u128, u128, u128, f32); 3],
    n: usize,
    len: u8,
}

impl PlaceScorer {
    /// Same value as [`Heuristic::place_value`] (as `f32`).
    #[inline]
    pub fn value(&self, at: Space) -> f32 {
        const OWN_GAIN: [f32; 6] = [0.0, 9_960.0, 31.0, 6.0, 2.0, 1.0];
        const BLOCK_F: [f32; 6] = [0.0, 600.0, 12.0, 2.0, 0.5, 0.0];
        let ls = lines(self.len);
        let len = self.len as u32;
        let mut v = 0.0f32;
        for &wi in &ls.through[at.bit() as usize] {
            let w = ls.windows[wi as usize];
            for (i, &(opp, own, locked, wins)) in self.sides[..self.n].iter().enumerate() {
                if w & opp != 0 || (w & locked).count_ones() > 1 {
                    continue;
                }
                let m = (len - (w & own).count_ones()).min(5) as usize;
                v += if i == 0 {
                    OWN_GAIN[m]
                } else if m == 1 && wins > 0.0 {
                    WINNING_BLOCK as f32
                } else {
                    BLOCK_F[m]
                };
            }
        }
        v
    }
}

/// The best declaration (C8a) for a placement on `at` by the seat to move
/// in `game`: among the choices that make the most sequences, the one that
/// leaves the team the most potential for further sequences (fewest of its
/// live lines locked). `None` when the placement completes nothing or there
/// is one choice only (the engine's default then is the same).
pub fn best_declaration(game: &Game, at: Space) -> Option<Declaration> {
    let comp = game.completions_at(at)?;
    if !comp.any() {
        return None;
    }
    let choices = comp.all_choices();
    if choices.len() <= 1 {
        return None;
    }
    let team = game.team_of(game.turn());
    let mut h = Heuristic::from_game(game);
    h.chips[team.index()] |= at.bb().0;
    h.occupied |= at.bb().0;
    let len = game.sequence_length();
    let base = h.locked[team.index()];
    choices
        .iter()
        .map(|ws| {
            let locked = ws
                .iter()
                .fold(base, |b, w| b | (w.mask(len).0 & !CORNERS.0));
            (h.potential(team, locked), ws)
        })
        .fold(None::<(f64, &Vec<Window>)>, |best, (v, ws)| match best {
            Some((bv, _)) if bv >= v => best,
            _ => Some((v, ws)),
        })
        .map(|(_, ws)| Declaration::new(ws))
}

/// Adds the best declaration to a placement that completes sequences.
pub fn with_declaration(game: &Game, mv: Move) -> Move {
    match mv {
        Move::Place {
            card,
            at,
            declare: None,
        } => match best_declaration(game, at) {
            Some(d) => Move::Place {
                card,
                at,
                declare: Some(d),
            },
            None => mv,
        },
        _ => mv,
    }
}

/// Scores every legal move of the seat to move in `game` (its own view of
/// the board is public, so a determinization serves). Higher is better.
pub fn score_moves(game: &Game, moves: &[Move]) -> Vec<f64> {
    score_moves_with(&Heuristic::from_game(game), game, moves)
}

/// [`score_moves`] with the board already read into `h`.
fn score_moves_with(h: &Heuristic, game: &Game, moves: &[Move]) -> Vec<f64> {
    let team = game.team_of(game.turn());
    moves
        .iter()
        .map(|m| match *m {
            // Free: before anything but a win.
            Move::Dead { .. } => 5e5,
            Move::Place { card, at, .. } => {
                let mut v = h.place_value(team, at);
                if let Some(c) = game.completions_at(at) {
                    let made = c.most();
                    if made > 0 {
                        v += 10_000.0 * made as f64;
                        if h.seq_count[team.index() % 3] + made >= h.win {
                            v += 1e6;
                        }
                    }
                }
                if card.is_jack() {
                    v -= TWO_EYED_COST;
                }
                v
            }
            Move::Remove { at, .. } => h.remove_value(team, at) - ONE_EYED_COST,
            Move::Pass => 0.0,
            // Stuck: throw the card least likely to be useful (jacks last).
            Move::Discard { card } => {
                if card.is_jack() {
                    -100.0
                } else {
                    0.0
                }
            }
        })
        .collect()
}

/// The greedy bot's scores of `moves` in `game` (higher is better): those
/// of [`score_moves`], and with 3 teams or more, where one sequence wins
/// (C9) and two opponents threaten at once, a racing policy for the jacks
/// (C6): a two-eyed jack costs 250 more, so it is kept to win or to block
/// a four; a one-eyed jack costs 100 more unless it breaks an opponent's
/// four, and is worth 2,000 per own window it leaves a single space short
/// when the hand holds a card for that space (the cleared space is filled
/// next turn). Reads only the public board and the mover's hand; with 2
/// teams the scores are those of [`score_moves`].
pub fn greedy_scores(game: &Game, moves: &[Move]) -> Vec<f64> {
    let h = Heuristic::from_game(game);
    let mut scores = score_moves_with(&h, game, moves);
    if game.teams() < 3 {
        return scores;
    }
    for (s, m) in scores.iter_mut().zip(moves) {
        *s += race_adjustment(&h, game, *m);
    }
    scores
}

/// With 3 teams or more, what [`greedy_scores`] adds to the score of `mv`
/// by the seat to move in `game` (read from `h`, the same board): −250 for
/// a two-eyed jack; −100 for a one-eyed jack that breaks no opponent's
/// four, and +2,000 per own window the removal leaves a single space short
/// when the hand holds a card for that space. 0 with 2 teams. Shared by
/// the greedy bot and the search's playout policy and root ordering.
pub(crate) fn race_adjustment(h: &Heuristic, game: &Game, mv: Move) -> f64 {
    if game.teams() < 3 {
        return 0.0;
    }
    let team = game.team_of(game.turn());
    match mv {
        Move::Place { card, .. } if card.is_two_eyed_jack() => -RACE_TWO_EYED_COST,
        Move::Remove { at, .. } => {
            let mut s = 0.0;
            if !h.breaks_four(team, at) {
                s -= RACE_ONE_EYED_COST;
            }
            let can_fill = game.hand(game.turn()).iter().any(|&c| {
                c.is_two_eyed_jack() || (!c.is_jack() && game.layout().spaces_of(c).contains(at))
            });
            if can_fill {
                s += REOPEN_FOUR * h.reopened_fours(team, at) as f64;
            }
            s
        }
        _ => 0.0,
    }
}

/// A view's public board as a full game (hidden cards dealt at random):
/// the heuristic only reads the public part.
fn board_game(view: &SeatView, rng: &mut impl RngCore) -> Game {
    view.determinize(rng)
}

// ----- greedy -----------------------------------------------------------------

/// One-ply heuristic: completes sequences (and wins), blocks opponents'
/// fours and open threes, values spaces by the live lines through them,
/// keeps jacks for when they matter, exchanges dead cards, and declares
/// sequences keeping the most potential (C8a); with 3 teams or more it
/// races ([`greedy_scores`]). With `blunder` > 0 it plays a random move
/// that often (level 1).
pub struct GreedyBot {
    name: String,
    rng: GameRng,
    blunder: f64,
}

impl GreedyBot {
    /// A greedy bot; `blunder` is the chance (0–1) of a random move.
    pub fn new(name: String, seed: u64, blunder: f64) -> GreedyBot {
        GreedyBot {
            name,
            rng: game_rng(seed),
            blunder,
        }
    }
}

/// The greedy choice among `moves` in `game` (ties broken by `rng`).
pub fn greedy_choice(game: &Game, moves: &[Move], rng: &mut impl Rng) -> Move {
    let scores = greedy_scores(game, moves);
    let mut best = 0;
    let mut best_v = f64::NEG_INFINITY;
    for (i, &v) in scores.iter().enumerate() {
        let v = v + rng.random::<f64>() * 0.5;
        if v > best_v {
            best_v = v;
            best = i;
        }
    }
    with_declaration(game, moves[best])
}

impl ClassicBot for GreedyBot {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, view: &SeatView) -> Move {
        let moves = view.legal_moves();
        if moves.is_empty() {
            return Move::Pass;
        }
        if self.blunder > 0.0 && self.rng.random::<f64>() < self.blunder {
            return moves[self.rng.random_range(0..moves.len())];
        }
        let game = board_game(view, &mut self.rng);
        greedy_choice(&game, &moves, &mut self.rng)
    }
}

// ----- search -----------------------------------------------------------------

/// A determinization of classic Sequence for [`ismcts`]. Sides are teams.
/// Playouts play `cutoff` moves of [`playout::tactical_move`] (0 = to the
/// end) and then score the board with [`eval::evaluate`]; below the root
/// the tree grows by the moves that policy proposes
/// ([`SearchState::policy_move`]).
#[derive(Clone)]
pub struct ClassicState {
    /// The determinized game.
    pub game: Game,
    /// Policy moves per playout before the evaluation (0: play to the end).
    pub cutoff: u32,
}

/// Default playout length before the evaluation (see [`ClassicState`]);
/// `SEQUENCE_CUTOFF` overrides it for experiments.
pub const DEFAULT_CUTOFF: u32 = 2;

/// Whether playouts follow [`playout::tactical_move`] (the default) or are
/// uniformly random (`SEQUENCE_RANDOM_PLAYOUTS`, for experiments).
fn tactical_playouts() -> bool {
    static T: OnceLock<bool> = OnceLock::new();
    *T.get_or_init(|| std::env::var("SEQUENCE_RANDOM_PLAYOUTS").is_err())
}

/// Whether determinizations are weighted by what the last opponent move
/// tells of its hand ([`inference`]); `SEQUENCE_NO_INFERENCE` turns it off
/// for experiments.
fn use_inference() -> bool {
    static I: OnceLock<bool> = OnceLock::new();
    *I.get_or_init(|| std::env::var("SEQUENCE_NO_INFERENCE").is_err())
}

/// Whether the search uses the heuristic prior (`SEQUENCE_NO_PRIOR` turns
/// it off, for experiments).
fn use_prior() -> bool {
    static P: OnceLock<bool> = OnceLock::new();
    *P.get_or_init(|| std::env::var("SEQUENCE_NO_PRIOR").is_err())
}

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

const KEY_REMOVE: usize = 52 * 110;
const KEY_DEAD: usize = 2 * 52 * 110;
const KEY_PASS: usize = KEY_DEAD + 52;
const KEY_DISCARD: usize = KEY_PASS + 1;

impl SearchState for ClassicState {
    type Move = Move;
    const KEYS: usize = KEY_DISCARD + 52;

    #[inline]
    fn mover(&self) -> Option<u8> {
        if self.game.is_over() {
            None
        } else {
            Some(self.game.team_of(self.game.turn()).0)
        }
    }

    fn legal(&self, out: &mut Vec<Move>) {
        self.game.legal_moves(out);
    }

    #[inline]
    fn key(mv: &Move) -> usize {
        match *mv {
            Move::Place { card, at, .. } => card.index() * 110 + at.bit() as usize,
            Move::Remove { card, at } => KEY_REMOVE + card.index() * 110 + at.bit() as usize,
            Move::Dead { card } => KEY_DEAD + card.index(),
            Move::Pass => KEY_PASS,
            Move::Discard { card } => KEY_DISCARD + card.index(),
        }
    }

    #[inline]
    fn play(&mut self, mv: Move, rng: &mut PlayoutRng) {
        let _ = self.game.apply(mv, &mut RngReshuffler(rng));
    }

    fn policy_move(&self, rng: &mut PlayoutRng) -> Option<Move> {
        tactical_playouts().then(|| playout::tactical_move(&self.game, rng))
    }

    fn prior(&self, mv: &Move) -> f32 {
        if !use_prior() {
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
        if self.cutoff == 0 {
            if tactical_playouts() {
                while !self.game.is_over() {
                    let mv = playout::tactical_move(&self.game, rng);
                    if self.game.apply(mv, &mut RngReshuffler(rng)).is_err() {
                        break;
                    }
                }
            } else {
                self.game.playout(rng);
            }
            return outcome(&self.game);
        }
        let tactical = tactical_playouts();
        for _ in 0..self.cutoff {
            if self.game.is_over() {
                return outcome(&self.game);
            }
            let mv = if tactical {
                playout::tactical_move(&self.game, rng)
            } else {
                self.game.random_move(rng)
            };
            if self.game.apply(mv, &mut RngReshuffler(rng)).is_err() {
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

/// Searches the view's position with ISMCTS, as the bot does but over the
/// [`HINT_ROOT_MOVES`] moves the heuristic ranks highest: per move, visits
/// and the estimated chance of the view's team to win (for `sequence
/// hint`). The view must be on its seat's turn.
pub fn analyse(
    view: &SeatView,
    budget: Budget,
    trees: Option<usize>,
    seed: u64,
) -> SearchReport<Move> {
    let k = root_moves_from_env().max(HINT_ROOT_MOVES);
    let evidence = inference::Evidence::of_view(view);
    let mut report = search_view(view, budget, trees, seed, cutoff_from_env(), k, &evidence);
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
fn winning_placement(game: &Game, moves: &[Move]) -> Option<Move> {
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

/// Playout cutoff: `SEQUENCE_CUTOFF` (for experiments) or [`DEFAULT_CUTOFF`].
fn cutoff_from_env() -> u32 {
    crate::env_or("SEQUENCE_CUTOFF", DEFAULT_CUTOFF)
}

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
    let evidence = inference::Evidence::of_view(view);
    search_view(
        view,
        budget,
        trees,
        seed,
        cutoff,
        root_moves_from_env(),
        &evidence,
    )
}

fn search_view(
    view: &SeatView,
    budget: Budget,
    trees: Option<usize>,
    seed: u64,
    cutoff: u32,
    root_moves: usize,
    evidence: &inference::Evidence,
) -> SearchReport<Move> {
    let none = inference::Evidence::default();
    let evidence = if use_inference() { evidence } else { &none };
    let det = |rng: &mut PlayoutRng| ClassicState {
        game: inference::determinize(view, evidence, rng),
        cutoff,
    };
    let root = root_candidates(view, seed, root_moves);
    ismcts::search_among(&det, &root, budget, trees, seed)
}

/// Root moves searched: the [`ROOT_MOVES`] the heuristic ([`score_moves`])
/// ranks highest (`SEQUENCE_ROOT_MOVES` overrides, 0 = all).
pub const ROOT_MOVES: usize = 4;

fn root_moves_from_env() -> usize {
    static K: OnceLock<usize> = OnceLock::new();
    *K.get_or_init(|| crate::env_or("SEQUENCE_ROOT_MOVES", ROOT_MOVES))
}

/// The `k` root moves the heuristic ranks highest (see [`ROOT_MOVES`]);
/// empty means all (`k` = 0, or no more legal moves than `k`).
fn root_candidates(view: &SeatView, seed: u64, k: usize) -> Vec<Move> {
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
/// [`best_declaration`] says.
pub struct IsmctsBot {
    name: String,
    seed: u64,
    moves_made: u64,
    budget: Budget,
    trees: Option<usize>,
    rng: GameRng,
    /// Random moves per playout before the evaluation (0: to the end).
    pub cutoff: u32,
    /// The last search's report (for UIs and `sequence hint`).
    pub last: Option<SearchReport<Move>>,
    /// What the recent moves of the seat before ours told of its hand.
    evidence: inference::Evidence,
}

impl IsmctsBot {
    /// An ISMCTS bot with a per-move budget and tree count (see
    /// [`ismcts::search`]).
    pub fn new(name: String, seed: u64, budget: Budget, trees: Option<usize>) -> IsmctsBot {
        IsmctsBot {
            name,
            seed,
            moves_made: 0,
            budget,
            trees,
            rng: game_rng(seed),
            cutoff: cutoff_from_env(),
            last: None,
            evidence: inference::Evidence::default(),
        }
    }
}

impl ClassicBot for IsmctsBot {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, view: &SeatView) -> Move {
        let moves = view.legal_moves();
        if moves.is_empty() {
            return Move::Pass;
        }
        self.evidence.update(view);
        self.moves_made += 1;
        let game = board_game(view, &mut self.rng);
        if moves.len() == 1 {
            return with_declaration(&game, moves[0]);
        }
        // A placement that wins ends the game: no search needed.
        if let Some(m) = winning_placement(&game, &moves) {
            return with_declaration(&game, m);
        }
        // A dead-card exchange is free: make it before searching.
        if let Some(m) = moves.iter().find(|m| matches!(m, Move::Dead { .. })) {
            return *m;
        }
        let seed = crate::mix(self.seed ^ crate::mix(self.moves_made));
        let report = search_view(
            view,
            self.budget,
            self.trees,
            seed,
            self.cutoff,
            root_moves_from_env(),
            &self.evidence,
        );
        let best = report.best().unwrap_or(moves[0]);
        self.last = Some(report);
        with_declaration(&game, best)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sequence_classic::{Card, Config, Options, Position, Seat};

    fn sp(s: &str) -> Space {
        s.parse().expect("space")
    }

    fn cards(codes: &[&str]) -> Vec<Card> {
        codes.iter().map(|c| c.parse().expect("card")).collect()
    }

    /// A game of `players` at `chips` with these hands, seat 0 to move.
    fn game_at(players: u8, chips: Vec<(Team, Space)>, hands: Vec<Vec<Card>>) -> Game {
        let cfg = Config::new(players, None, Options::default()).expect("config");
        let pos = Position {
            chips,
            sequences: vec![],
            hands,
            discards: vec![],
            draw_pile: None,
            turn: Seat(0),
        };
        Game::from_position(cfg, &pos).expect("position")
    }

    /// Row 3 reads `7C AS 2D 3D 4D 5D 6D 7D 9H QS` (C2). Blue holds c3, d3,
    /// e3 and g3; the opponent chip on f3 is the only one in c3–g3; `others`
    /// hold b3 and h3. Blue to move holds a one-eyed jack and the 5♦ that
    /// fills f3.
    fn reopen_position(players: u8, others: [Team; 3]) -> Game {
        let mut chips: Vec<(Team, Space)> = ["c3", "d3", "e3", "g3"]
            .iter()
            .map(|s| (Team(0), sp(s)))
            .collect();
        chips.extend(
            others
                .iter()
                .zip(["f3", "b3", "h3"])
                .map(|(&t, s)| (t, sp(s))),
        );
        let mut hands = vec![
            cards(&["JS", "5D", "2S", "3S", "4S", "6S"]),
            cards(&["2H", "3H", "4H", "5H", "6H", "7H"]),
            cards(&["2C", "3C", "4C", "5C", "6C", "7C"]),
        ];
        hands.truncate(players as usize);
        if players == 2 {
            hands[0].push("8S".parse().expect("card"));
            hands[1].push("8H".parse().expect("card"));
        }
        game_at(players, chips, hands)
    }

    /// The search's playout policy and root ordering race as greedy does
    /// with 3 teams (C9): the policy clears the last space of its four
    /// with the one-eyed jack (but for its share of random moves), and the
    /// root candidates hold that removal first.
    #[test]
    fn with_three_teams_the_search_races_like_greedy() {
        let game = reopen_position(3, [Team(1), Team(2), Team(2)]);
        let clears = (0..40u64)
            .filter(|&seed| {
                let mut rng = sequence_common::rng::playout_rng(seed);
                matches!(playout::tactical_move(&game, &mut rng), Move::Remove { at, .. } if at == sp("f3"))
            })
            .count();
        assert!(clears >= 32, "the policy cleared f3 {clears} times of 40");
        let view = game.view(Seat(0));
        let root = root_candidates(&view, 1, ROOT_MOVES);
        assert!(
            matches!(root.first(), Some(Move::Remove { at, .. }) if *at == sp("f3")),
            "root candidates {root:?}"
        );
    }

    #[test]
    fn with_three_teams_greedy_clears_the_last_space_of_its_four() {
        // C9: with 3 teams one sequence wins; removing f3 (C6, one-eyed
        // jack) leaves c3–g3 lacking only f3, which the 5♦ fills next turn.
        let game = reopen_position(3, [Team(1), Team(2), Team(2)]);
        let moves = game.view(Seat(0)).legal_moves();
        let mut rng = game_rng(3);
        let mv = greedy_choice(&game, &moves, &mut rng);
        assert!(
            matches!(mv, Move::Remove { at, .. } if at == sp("f3")),
            "greedy played {mv:?}"
        );
        // With 2 teams (two sequences win) the heuristic alone decides:
        // clearing f3 is worth little there.
        let game = reopen_position(2, [Team(1); 3]);
        let moves = game.view(Seat(0)).legal_moves();
        let mv = greedy_choice(&game, &moves, &mut rng);
        assert!(!matches!(mv, Move::Remove { .. }), "greedy played {mv:?}");
    }

    #[test]
    fn with_three_teams_greedy_keeps_a_two_eyed_jack_unless_it_decides() {
        // Blue holds b2, c2 and d2 and a two-eyed jack (C6): the jack on a2
        // or e2 makes a four, which the shared heuristic pays it for; with
        // 3 teams greedy keeps it to win or block a four (C9).
        let chips = ["b2", "c2", "d2"]
            .iter()
            .map(|s| (Team(0), sp(s)))
            .collect();
        let hands = vec![
            cards(&["JD", "2S", "3S", "4S", "6S", "7S"]),
            cards(&["2H", "3H", "4H", "5H", "6H", "7H"]),
            cards(&["2C", "3C", "4C", "5C", "6C", "7C"]),
        ];
        let game = game_at(3, chips, hands);
        let moves = game.view(Seat(0)).legal_moves();
        let before = score_moves(&game, &moves);
        let after = greedy_scores(&game, &moves);
        let best = |v: &[f64]| {
            (0..v.len())
                .max_by(|&a, &b| v[a].total_cmp(&v[b]))
                .map(|i| moves[i])
                .expect("moves")
        };
        assert!(
            matches!(best(&before), Move::Place { card, .. } if card.is_jack()),
            "the shared heuristic spends the wild: {:?}",
            best(&before)
        );
        assert!(
            matches!(best(&after), Move::Place { card, .. } if !card.is_jack()),
            "greedy keeps it: {:?}",
            best(&after)
        );
    }
}
