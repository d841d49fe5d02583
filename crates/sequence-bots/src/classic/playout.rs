//! A fast tactical playout policy for classic Sequence, in bitboards.
//!
//! For every team it finds, with shifts over the whole board at once, the
//! windows (runs of `sequence_length` spaces, C8) that hold no opponent
//! chip and miss exactly 1, 2 or 3 spaces, and the empty spaces that would
//! fill them ([`Threats`]). The policy ([`tactical_move`]) then plays like a
//! quick human: make a sequence, else block an opponent's four (placing on
//! its gap, or removing one of its chips with a one-eyed jack), else make
//! or block fours and threes with natural cards, else a random placement.
//! Jacks are kept for the first two cases. A small share of moves is
//! uniformly random, so playouts still explore.

use super::heuristic::{
    race_adjustment, Heuristic, ONE_EYED_COST, RACE_TWO_EYED_COST, TWO_EYED_COST, WINNING_BLOCK,
};
use rand::RngCore;
use sequence_classic::{Bitboard, Card, Dir, Game, Move, Space, Team, BOARD, CORNERS};
use sequence_common::rng::PlayoutRng;

/// Levels tracked: windows missing 1, 2 and 3 spaces.
pub const LEVELS: usize = 3;

/// For each team and level `m` (index `m - 1`), the spaces whose filling
/// brings a live window of that team from `m` missing to `m - 1` missing.
/// Level 1 are the spaces that complete a sequence.
#[derive(Clone, Copy, Debug, Default)]
pub struct Threats {
    /// `fill[team][m - 1]`: spaces (bit masks) filling a window missing `m`.
    pub fill: [[u128; LEVELS]; 3],
    /// `four_chips[team]`: the team's removable chips (not in a sequence,
    /// not corners) in windows missing 1: a one-eyed jack there blocks.
    pub four_chips: [u128; 3],
    /// `three_chips[team]`: as `four_chips` for windows missing 2.
    pub three_chips: [u128; 3],
    /// `windows[team][m - 1]`: number of the team's live windows missing
    /// `m` spaces (1 to 4).
    pub windows: [[u16; 4]; 3],
    /// `starts[team][dir][m - 1]`: the first spaces (bit masks) of the
    /// team's live windows in direction `dir` (index of [`Dir::ALL`])
    /// missing `m` spaces (1 to 5), for [`Threats::place_values`].
    starts: [[[u128; 5]; 4]; 3],
    /// Sequence length (C8), 4 or 5.
    len: u8,
    /// Teams scored (at most 3).
    teams: u8,
}

/// Shift toward higher bits by `s` (below 128: windows are at most 5
/// spaces long and a step is at most 12 bits).
#[inline(always)]
fn up(b: u128, s: u32) -> u128 {
    b << (s & 127)
}

/// Shift toward lower bits by `s` (see [`up`]).
#[inline(always)]
fn down(b: u128, s: u32) -> u128 {
    b >> (s & 127)
}

/// `x` and its copies shifted up by each step of a window: the spaces of
/// the windows (length `L`, step `D`) starting at `x`. By doubling: three
/// shifts for 4 or 5.
#[inline(always)]
fn spread_up<const D: u32, const L: u32>(x: u128) -> u128 {
    let y = x | up(x, D);
    let z = y | up(y, 2 * D);
    if L == 5 {
        z | up(x, 4 * D)
    } else {
        z
    }
}

/// The window starts (length `L`, step `D`) whose window holds a bit of
/// `x` (the mirror of [`spread_up`]).
#[inline(always)]
fn spread_down<const D: u32, const L: u32>(x: u128) -> u128 {
    let y = x | down(x, D);
    let z = y | down(y, 2 * D);
    if L == 5 {
        z | down(x, 4 * D)
    } else {
        z
    }
}

/// The starts of the windows (length `L`, step `D`) that lie on the board.
#[inline(always)]
fn window_starts<const D: u32, const L: u32>() -> u128 {
    let mut m = !0u128;
    let mut k = 0;
    while k < L {
        m &= down(BOARD.0, k * D);
        k += 1;
    }
    m
}

/// The board as [`Threats::of`] reads it.
struct Board {
    empty: u128,
    locked_all: u128,
    chips: [u128; 3],
    teams: usize,
}

/// Per sequence length (4, 5), direction and space: the bit masks of the
/// window starts whose window (in that direction) holds the space.
fn starts_through(len: u8) -> &'static [[u128; 128]; 4] {
    static T: std::sync::OnceLock<[[[u128; 128]; 4]; 2]> = std::sync::OnceLock::new();
    let t = T.get_or_init(|| {
        let mut t = [[[0u128; 128]; 4]; 2];
        for (li, len) in [4u32, 5].into_iter().enumerate() {
            for (di, dir) in Dir::ALL.into_iter().enumerate() {
                let d = dir.step() as u32;
                for (at, m) in t[li][di].iter_mut().enumerate().take(110) {
                    for k in 0..len {
                        if let Some(s) = (at as u32).checked_sub(k * d) {
                            *m |= 1u128 << s;
                        }
                    }
                }
            }
        }
        t
    });
    &t[usize::from(len == 5)]
}

impl Threats {
    /// Computes the threats of every team of `game`.
    #[inline]
    pub fn of(game: &Game) -> Threats {
        let len = game.sequence_length();
        let teams = game.teams().min(3) as usize;
        let mut chips = [0u128; 3];
        for (t, c) in chips.iter_mut().enumerate().take(teams) {
            *c = game.chips(Team(t as u8)).0;
        }
        let b = Board {
            empty: BOARD.0 & !game.occupied().0 & !CORNERS.0,
            locked_all: game.locked().0,
            chips,
            teams,
        };
        let mut out = Threats {
            len,
            teams: teams as u8,
            ..Threats::default()
        };
        // Constant steps and lengths let the compiler unroll every shift.
        if len == 4 {
            out.pass::<1, 4>(&b, 0);
            out.pass::<11, 4>(&b, 1);
            out.pass::<12, 4>(&b, 2);
            out.pass::<10, 4>(&b, 3);
        } else {
            out.pass::<1, 5>(&b, 0);
            out.pass::<11, 5>(&b, 1);
            out.pass::<12, 5>(&b, 2);
            out.pass::<10, 5>(&b, 3);
        }
        for t in 0..teams {
            out.four_chips[t] &= !b.locked_all & !CORNERS.0;
            out.three_chips[t] &= !b.locked_all & !CORNERS.0;
        }
        out
    }

    /// The windows of one direction (step `D`, length `L`, index `di` of
    /// [`Dir::ALL`]).
    #[inline(always)]
    #[allow(clippy::needless_range_loop)] // teams index several arrays
    fn pass<const D: u32, const L: u32>(&mut self, b: &Board, di: usize) {
        let teams = b.teams;
        // Per window start (the window's first space): every space on the
        // board, the number of empty spaces as a 3-bit counter, and per
        // team whether it has a chip in it and whether two of the team's
        // sequence spaces are (C8: a new sequence shares at most one space
        // with the team's own).
        let on_board = window_starts::<D, L>();
        let (mut e0, mut e1, mut e2) = (0u128, 0u128, 0u128);
        for k in 0..L {
            let e = down(b.empty, k * D);
            let c0 = e0 & e;
            e0 ^= e;
            let c1 = e1 & c0;
            e1 ^= c0;
            e2 |= c1;
        }
        let mut any = [0u128; 3];
        for t in 0..teams {
            any[t] = spread_down::<D, L>(b.chips[t]);
        }
        let mut l2 = [0u128; 3];
        if b.locked_all != 0 {
            for t in 0..teams {
                let mut l1 = 0u128;
                for k in 0..L {
                    let l = down(b.locked_all & b.chips[t], k * D);
                    l2[t] |= l1 & l;
                    l1 |= l;
                }
            }
        }
        // Exactly m empties: 1 (001), 2 (010), 3 (011), 4 (100), 5 (101).
        let exact = [
            on_board & e0 & !e1 & !e2,
            on_board & !e0 & e1 & !e2,
            on_board & e0 & e1 & !e2,
            on_board & !e0 & !e1 & e2,
            on_board & e0 & !e1 & e2,
        ];
        for t in 0..teams {
            let opp = (0..teams).filter(|&u| u != t).fold(0, |o, u| o | any[u]);
            let live = !opp & !l2[t];
            let q = exact.map(|x| x & live);
            self.starts[t][di] = q;
            for (n, qm) in self.windows[t].iter_mut().zip(q) {
                *n += qm.count_ones() as u16;
            }
            if q[0] | q[1] | q[2] == 0 {
                continue;
            }
            // The spaces of the windows starting at q: q shifted by each
            // step of a window (the starts are of windows on the board, so
            // nothing is shifted out). The empty ones fill, the team's
            // chips are the ones a one-eyed jack could take.
            let cover = [
                spread_up::<D, L>(q[0]),
                spread_up::<D, L>(q[1]),
                spread_up::<D, L>(q[2]),
            ];
            for (f, c) in self.fill[t].iter_mut().zip(cover) {
                *f |= c & b.empty;
            }
            self.four_chips[t] |= cover[0] & b.chips[t];
            self.three_chips[t] |= cover[1] & b.chips[t];
        }
    }

    /// The heuristic's value for `team` of a chip on each empty space of
    /// `spaces` (bit mask), the same as [`Heuristic::place_value`] but from
    /// the window masks already found: per window through the space, the
    /// gain of its own live windows and the block of the opponents' (a
    /// four whose team needs one more sequence to win counts as a winning
    /// block). `wins[u]`: whether team `u` needs one more sequence only.
    /// Calls `f(space, value)` per space.
    #[inline]
    #[allow(clippy::needless_range_loop)] // teams index several arrays
    pub fn place_values(
        &self,
        team: usize,
        wins: [bool; 3],
        spaces: u128,
        mut f: impl FnMut(Space, f32),
    ) {
        const OWN_GAIN: [f32; 5] = [9_960.0, 31.0, 6.0, 2.0, 1.0];
        const BLOCK_F: [f32; 5] = [600.0, 12.0, 2.0, 0.5, 0.0];
        if spaces.count_ones() > 4 {
            // Many spaces: weigh each window start once
            // per direction, then sum the starts through each space. Every
            // term is a multiple of 0.5 far below 2^23, so the f32 sums
            // are exact and equal the window-by-window count below.
            let mut w = [[0f32; 128]; 4];
            for ((di, wd), dir) in w.iter_mut().enumerate().zip(Dir::ALL) {
                // Only the starts of windows through a space asked about.
                let d = dir.step() as u32;
                let mut relevant = 0u128;
                for k in 0..self.len as u32 {
                    relevant |= down(spaces, k * d);
                }
                for u in 0..self.teams as usize {
                    let q = &self.starts[u][di];
                    let mut add = |m: u128, g: f32| {
                        for b in Bitboard(m & relevant) {
                            wd[b.bit() as usize & 127] += g;
                        }
                    };
                    if u == team {
                        for (&qm, g) in q.iter().zip(OWN_GAIN) {
                            add(qm, g);
                        }
                    } else {
                        add(
                            q[0],
                            if wins[u] {
                                WINNING_BLOCK as f32
                            } else {
                                BLOCK_F[0]
                            },
                        );
                        for (&qm, &g) in q[1..4].iter().zip(&BLOCK_F[1..4]) {
                            add(qm, g);
                        }
                    }
                }
            }
            for at in Bitboard(spaces) {
                let bit = at.bit() as usize;
                let mut v = 0.0f32;
                for (wd, dir) in w.iter().zip(Dir::ALL) {
                    let d = dir.step() as usize;
                    for k in 0..self.len as usize {
                        if let Some(start) = bit.checked_sub(k * d) {
                            v += wd[start];
                        }
                    }
                }
                f(at, v);
            }
            return;
        }
        let through = starts_through(self.len);
        for at in Bitboard(spaces) {
            let bit = at.bit() as usize;
            let mut v = 0.0f32;
            for (di, th) in through.iter().enumerate() {
                let m = th[bit];
                for u in 0..self.teams as usize {
                    let q = &self.starts[u][di];
                    if u == team {
                        for (qm, g) in q.iter().zip(OWN_GAIN) {
                            v += (qm & m).count_ones() as f32 * g;
                        }
                    } else {
                        let four = (q[0] & m).count_ones() as f32;
                        v += four
                            * if wins[u] {
                                WINNING_BLOCK as f32
                            } else {
                                BLOCK_F[0]
                            };
                        for (qm, g) in q[1..4].iter().zip(&BLOCK_F[1..4]) {
                            v += (qm & m).count_ones() as f32 * g;
                        }
                    }
                }
            }
            f(at, v);
        }
    }
}

pub use crate::config::RANDOM_SHARE;

#[inline]
fn pick(b: u128, rng: &mut PlayoutRng) -> Option<Space> {
    let n = b.count_ones();
    if n == 0 {
        return None;
    }
    Bitboard(b).nth(((rng.next_u32() as u64 * n as u64) >> 32) as u32)
}

/// The jacks of `hand` (C6): its last two-eyed and its last one-eyed
/// jack; each of its natural cards is handed to `natural` in turn.
#[inline(always)]
pub(crate) fn jacks_of(
    hand: &[Card],
    mut natural: impl FnMut(Card),
) -> (Option<Card>, Option<Card>) {
    let (mut two_eyed, mut one_eyed) = (None, None);
    for &c in hand {
        if c.is_two_eyed_jack() {
            two_eyed = Some(c);
        } else if c.is_one_eyed_jack() {
            one_eyed = Some(c);
        } else {
            natural(c);
        }
    }
    (two_eyed, one_eyed)
}

/// A move of the seat to move chosen by the tactical policy (see the module
/// docs). The game must not be over.
pub fn tactical_move(game: &Game, rng: &mut PlayoutRng) -> Move {
    tactical_move_with(game, rng, RANDOM_SHARE)
}

/// [`tactical_move`] with `random_share` the chance of a uniformly random
/// move instead (the search's [`crate::config::ClassicSearch::random_share`]).
pub fn tactical_move_with(game: &Game, rng: &mut PlayoutRng, random_share: f32) -> Move {
    if (rng.next_u32() as f32) < random_share * 4_294_967_296.0 {
        return game.random_move(rng).unwrap_or_default();
    }
    let seat = game.turn();
    let team = game.team_of(seat).index();
    let hand = game.hand(seat);
    let empty = BOARD.0 & !game.occupied().0 & !CORNERS.0;
    let layout = game.layout();
    let mut natural = 0u128;
    let (two_eyed, one_eyed) = jacks_of(hand, |c| natural |= layout.spaces_of(c).0 & empty);
    // `at` is an empty space of a natural card in hand, and a space shows
    // one card (C2): the card it shows.
    let place_natural =
        |at: Space| -> Move { Move::place(layout.card_at(at).unwrap_or(Card::JC), at) };
    let th = Threats::of(game);
    let teams = game.teams().min(3) as usize;
    let mut opp = [0u128; LEVELS];
    let mut opp_chips = 0u128;
    for u in (0..teams).filter(|&u| u != team) {
        for (o, f) in opp.iter_mut().zip(th.fill[u]) {
            *o |= f;
        }
        opp_chips |= th.four_chips[u];
    }
    let mine = th.fill[team];
    // 1. Make a sequence.
    if let Some(at) = pick(mine[0] & natural, rng) {
        return place_natural(at);
    }
    if let (Some(j), Some(at)) = (two_eyed, pick(mine[0], rng)) {
        return Move::place(j, at);
    }
    // 2. Block a four.
    if let Some(at) = pick(opp[0] & natural, rng) {
        return place_natural(at);
    }
    if let (Some(j), Some(at)) = (one_eyed, pick(opp_chips, rng)) {
        return Move::Remove { card: j, at };
    }
    if let (Some(j), Some(at)) = (two_eyed, pick(opp[0], rng)) {
        return Move::place(j, at);
    }
    // 3. A free dead-card exchange (C6).
    if !game.dead_exchanged() {
        if let Some(&card) = hand.iter().find(|&&c| game.is_dead(c)) {
            return Move::Dead { card };
        }
    }
    // 4. The move the heuristic values most among natural placements,
    //    two-eyed jacks on spaces that make or block fours, and one-eyed
    //    jacks on opponents' threes (jacks cost, as in greedy). With 3
    //    teams or more the jacks cost more, and a one-eyed jack may clear
    //    the last space of an own four, as greedy races (race_adjustment).
    let race = teams >= 3;
    let mut wins = [false; 3];
    for (u, w) in wins.iter_mut().enumerate().take(teams) {
        *w = game.sequence_count(Team(u as u8)) + 1 >= game.win_sequences();
    }
    let mut best = None;
    let mut best_v = f64::NEG_INFINITY;
    let mut consider = |mv: Move, v: f64, rng: &mut PlayoutRng| {
        let v = v + (rng.next_u32() >> 22) as f64 * 1e-4;
        if v > best_v {
            best_v = v;
            best = Some(mv);
        }
    };
    th.place_values(team, wins, natural, |at, v| {
        consider(place_natural(at), v as f64, rng)
    });
    if let Some(j) = two_eyed {
        let cost = TWO_EYED_COST + if race { RACE_TWO_EYED_COST } else { 0.0 };
        th.place_values(team, wins, (mine[1] | mine[2] | opp[1]) & empty, |at, v| {
            consider(Move::place(j, at), v as f64 - cost, rng)
        });
    }
    if let Some(j) = one_eyed {
        let mut targets = 0u128;
        for u in (0..teams).filter(|&u| u != team) {
            targets |= th.three_chips[u];
            if race {
                // Every removable opponent chip: it may reopen our four.
                targets |= game.chips(Team(u as u8)).0;
            }
        }
        targets &= !game.locked().0 & !CORNERS.0;
        if targets != 0 {
            let h = Heuristic::from_game(game);
            let me = Team(team as u8);
            for at in Bitboard(targets) {
                let mv = Move::Remove { card: j, at };
                consider(
                    mv,
                    h.remove_value(me, at) - ONE_EYED_COST + race_adjustment(&h, game, mv),
                    rng,
                );
            }
        }
    }
    if let Some(mv) = best {
        return mv;
    }
    game.random_move(rng).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classic::testing::{blue_four, game_at, gap_hand, sp};
    use sequence_classic::{Config, Options, Seat};

    #[test]
    fn finds_the_gap_of_a_four_and_its_chips() {
        // C8: four blue chips in a row with the fifth space empty.
        let cfg = Config::new(2, None, Options::default()).expect("config");
        let mut rng = sequence_common::rng::game_rng(1);
        let (dealt, _) = Game::deal(cfg.clone(), &mut rng);
        let blue: Vec<Space> = blue_four().iter().map(|&(_, s)| s).collect();
        let hands = (0..2).map(|s| dealt.hand(Seat(s)).to_vec()).collect();
        let game = game_at(&cfg, blue_four(), hands, Seat(0));
        let th = Threats::of(&game);
        assert_ne!(th.fill[0][0] & sp("f2").bb().0, 0, "f2 completes b2–f2");
        assert_ne!(th.fill[0][0] & sp("a2").bb().0, 0, "a2 completes a2–e2");
        assert_eq!(th.fill[1][0], 0, "green has no four");
        assert_eq!(
            th.four_chips[0],
            blue.iter().fold(0u128, |b, s| b | s.bb().0)
        );
    }

    /// The same threats window by window from [`crate::classic::lines`].
    fn naive(game: &Game) -> Threats {
        let len = game.sequence_length();
        let empty = BOARD.0 & !game.occupied().0 & !CORNERS.0;
        let locked = game.locked().0;
        let mut out = Threats::default();
        for t in 0..game.teams() as usize {
            let chips = game.chips(Team(t as u8)).0;
            let opp = game.occupied().0 & !chips;
            for &w in &crate::classic::lines(len).windows {
                if w & opp != 0 || (w & locked & chips).count_ones() > 1 {
                    continue;
                }
                let m = (w & empty).count_ones() as usize;
                if (1..=4).contains(&m) {
                    out.windows[t][m - 1] += 1;
                }
                if (1..=LEVELS).contains(&m) {
                    out.fill[t][m - 1] |= w & empty;
                }
                if m == 1 {
                    out.four_chips[t] |= w & chips & !locked;
                }
                if m == 2 {
                    out.three_chips[t] |= w & chips & !locked;
                }
            }
        }
        out
    }

    #[test]
    fn threats_and_place_values_match_a_window_by_window_count() {
        for (players, len) in [(2u8, 5u8), (3, 5), (2, 4)] {
            for seed in 0..40u64 {
                let opts = Options {
                    sequence_length: Some(len),
                    ..Options::default()
                };
                let cfg = Config::new(players, None, opts).expect("config");
                let mut rng = sequence_common::rng::playout_rng(seed);
                let (mut game, _) = Game::deal(cfg, &mut rng);
                let mut plies = 0;
                while !game.is_over() && plies < 200 {
                    let th = Threats::of(&game);
                    let want = naive(&game);
                    assert_eq!(th.fill, want.fill, "seed {seed} ply {plies}");
                    assert_eq!(th.four_chips, want.four_chips, "seed {seed} ply {plies}");
                    assert_eq!(th.three_chips, want.three_chips, "seed {seed} ply {plies}");
                    assert_eq!(th.windows, want.windows, "seed {seed} ply {plies}");
                    if !game.is_over() {
                        let h = Heuristic::from_game(&game);
                        let me = game.team_of(game.turn());
                        let scorer = h.place_scorer(me);
                        let empty = BOARD.0 & !game.occupied().0 & !CORNERS.0;
                        for at in Bitboard(empty) {
                            let (a, b) = (scorer.value(at) as f64, h.place_value(me, at));
                            assert!((a - b).abs() <= 1e-3 * b.abs().max(1.0), "{at}: {a} vs {b}");
                        }
                        let mut wins = [false; 3];
                        for (u, w) in wins.iter_mut().enumerate() {
                            *w = game.sequence_count(Team(u as u8)) + 1 >= game.win_sequences();
                        }
                        let mut n = 0;
                        th.place_values(me.index(), wins, empty, |at, v| {
                            let b = h.place_value(me, at);
                            assert!(
                                (v as f64 - b).abs() <= 1e-3 * b.abs().max(1.0),
                                "seed {seed} ply {plies} {at}: {v} vs {b}"
                            );
                            n += 1;
                        });
                        assert_eq!(n, empty.count_ones());
                        // Many spaces at once (window starts weighed once)
                        // and one at a time (window by window) agree
                        // exactly.
                        th.place_values(me.index(), wins, empty, |at, v| {
                            th.place_values(me.index(), wins, at.bb().0, |_, one| {
                                assert_eq!(v, one, "seed {seed} ply {plies} {at}");
                            });
                        });
                    }
                    let mv = tactical_move(&game, &mut rng);
                    game.apply(
                        game.turn(),
                        mv,
                        &mut sequence_classic::RngReshuffler(&mut rng),
                    )
                    .expect("the policy plays legal moves");
                    plies += 1;
                }
            }
        }
    }

    /// The policy alone (no search) must crush uniformly random play.
    #[test]
    fn the_policy_beats_random_play() {
        let cfg = Config::new(2, None, Options::default()).expect("config");
        let mut wins = 0;
        for seed in 0..30u64 {
            let mut rng = sequence_common::rng::playout_rng(seed);
            let (mut game, _) = Game::deal(cfg.clone(), &mut rng);
            // The policy plays team (seed % 2), so both teams get it.
            let me = Team((seed % 2) as u8);
            while !game.is_over() {
                let mv = if game.team_of(game.turn()) == me {
                    tactical_move(&game, &mut rng)
                } else {
                    game.random_move(&mut rng).expect("the game goes on")
                };
                game.apply(
                    game.turn(),
                    mv,
                    &mut sequence_classic::RngReshuffler(&mut rng),
                )
                .expect("legal");
            }
            wins += (game.status() == sequence_classic::Status::Won(me)) as u32;
        }
        assert!(
            wins >= 27,
            "the policy won {wins} of 30 against random play"
        );
    }

    /// C8: with a four on the board and the card for its gap in hand, the
    /// policy makes the sequence; the opponent, holding that card, blocks.
    #[test]
    fn completes_its_four_and_blocks_the_opponents() {
        let cfg = Config::new(2, None, Options::default()).expect("config");
        let gap = sp("f2");
        let hand = gap_hand(&cfg);
        for turn in [Seat(0), Seat(1)] {
            let game = game_at(&cfg, blue_four(), vec![hand.clone(), hand.clone()], turn);
            let on_gap = (0..40u64)
                .filter(|&seed| {
                    let mut rng = sequence_common::rng::playout_rng(seed);
                    matches!(tactical_move(&game, &mut rng), Move::Place { at, .. } if at == gap)
                })
                .count();
            // A share RANDOM_SHARE of moves is random by design.
            assert!(
                on_gap >= 32,
                "seat {}: f2 taken {on_gap} times of 40",
                turn.0
            );
        }
    }
}
