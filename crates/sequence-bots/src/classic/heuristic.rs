//! The classic heuristic: the lines through each space ([`lines`]), the
//! public board as the heuristic reads it ([`Heuristic`]), move scores
//! ([`score_moves`], [`greedy_scores`] with the 3-team race) and the
//! choice of a declaration (C8a, [`best_declaration`]). Shared by the
//! greedy bot, the search's prior and root ordering, and the inference.

use rand::RngCore;
use sequence_classic::{
    Bitboard, Config, Declaration, Game, Move, SeatView, Space, Team, Window, CORNERS,
};
use std::sync::OnceLock;

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
pub(crate) const WINNING_BLOCK: f64 = 50_000.0;
/// Cost of spending a two-eyed jack (wild).
pub const TWO_EYED_COST: f64 = 30.0;
/// Cost of spending a one-eyed jack (remover).
pub const ONE_EYED_COST: f64 = 40.0;
/// With 3 teams or more (one sequence wins, C9), greedy's extra cost of
/// placing a two-eyed jack: it keeps it to win or to block a four
/// ([`greedy_scores`]).
pub const RACE_TWO_EYED_COST: f64 = 250.0;
/// With 3 teams or more, greedy's extra cost of a one-eyed jack removal
/// that breaks no opponent's four ([`greedy_scores`]).
pub const RACE_ONE_EYED_COST: f64 = 100.0;
/// With 3 teams or more, greedy's value, per window, of removing the one
/// opponent chip in a window that holds four of its own when it holds a
/// card to fill the cleared space next turn (C6: not in the same turn).
const REOPEN_FOUR: f64 = 2000.0;

/// The public board as the heuristic reads it.
#[derive(Clone, Debug)]
pub struct Heuristic {
    /// Per team (index 0–2), its chips as a bitboard of spaces.
    pub chips: [u128; 3],
    /// Every space with a chip.
    pub occupied: u128,
    /// Per team, the spaces of its sequences (corners excluded).
    pub locked: [u128; 3],
    /// Teams at the table (C3).
    pub teams: u8,
    pub(crate) len: u8,
    pub(crate) win: u8,
    pub(crate) seq_count: [u8; 3],
}

impl Heuristic {
    /// Reads the board of a view.
    pub fn from_view(view: &SeatView) -> Heuristic {
        let cfg = view.config();
        let mut h = Heuristic::of_board(cfg, |t| view.chips(t).0, view.sequences());
        h.occupied = h.chips[0] | h.chips[1] | h.chips[2];
        h
    }

    /// Reads the board of a full game.
    pub fn from_game(game: &Game) -> Heuristic {
        let mut h = Heuristic::of_board(game.config(), |t| game.chips(t).0, game.sequences());
        h.occupied = game.occupied().0;
        h
    }

    /// The board of a table `cfg` with these chips by team and these
    /// sequences (C8); `occupied` is left empty for the caller.
    #[inline]
    fn of_board(
        cfg: &Config,
        chips_of: impl Fn(Team) -> u128,
        sequences: impl IntoIterator<Item = (Team, Window)>,
    ) -> Heuristic {
        let len = cfg.sequence_length();
        let teams = cfg.teams();
        let mut chips = [0u128; 3];
        for t in 0..teams.min(3) {
            chips[t as usize] = chips_of(Team(t));
        }
        let mut locked = [0u128; 3];
        let mut seq_count = [0u8; 3];
        for (t, w) in sequences {
            locked[t.index() % 3] |= w.mask(len).0 & !CORNERS.0;
            seq_count[t.index() % 3] += 1;
        }
        Heuristic {
            chips,
            occupied: 0,
            locked,
            teams,
            len,
            win: cfg.win_sequences(),
            seq_count,
        }
    }

    /// Spaces still missing in window `w` for `team`, or `None` when the
    /// window is dead for it (an opponent chip in it, or more than one space
    /// shared with its own sequences, C8).
    #[inline]
    pub(crate) fn missing(&self, w: u128, team: usize, locked: u128) -> Option<usize> {
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
    pub fn breaks_four(&self, team: Team, at: Space) -> bool {
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
    pub(crate) fn reopened_fours(&self, team: Team, at: Space) -> usize {
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
pub(crate) fn score_moves_with(h: &Heuristic, game: &Game, moves: &[Move]) -> Vec<f64> {
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
pub(crate) fn board_game(view: &SeatView, rng: &mut impl RngCore) -> Game {
    view.determinize(rng)
}
