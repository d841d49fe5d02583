//! A learned evaluation of unfinished classic Sequence positions, for the
//! end of cut-off playouts.
//!
//! Each team gets a score `w · f`, a weighted sum of a few features of the
//! full (determinized) position ([`features`]): its sequences, the spaces
//! that would complete or build its live windows ([`Threats`]), whether it
//! can make a sequence at once, its jacks, and whether it moves next. The
//! teams' chances to win are the softmax of their scores. The weights
//! ([`WEIGHTS`]) were fitted by logistic (softmax) regression on positions
//! from tactical self-play labelled by who won a playout from them:
//! `cargo run --release -p sequence-lab --example fit_eval` prints them.

use super::playout::Threats;
use crate::search::{Rewards, MAX_SIDES};
use sequence_classic::{Game, Seat, Team};

/// Number of features per team.
pub const FEATURES: usize = 15;

/// Feature names, in order (for the fitting program's report).
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "sequences",
    "one sequence from the win",
    "spaces completing a sequence",
    "spaces making a four",
    "spaces making a three",
    "can make a sequence now",
    "two-eyed jacks held",
    "one-eyed jacks held",
    "moves next",
    "moves next and can make a sequence",
    "live windows missing 1",
    "live windows missing 2",
    "live windows missing 3",
    "live windows missing 4",
    "cards that make a four",
];

/// Fitted weights (see the module docs).
pub const WEIGHTS: [f32; FEATURES] = [
    0.7086, 0.7086, 0.2274, 0.0185, 0.0054, 0.9521, 0.2926, 0.2958, 0.1508, 0.1595, 0.0768, 0.0390,
    0.0212, 0.0078, 0.2102,
];

/// The features of `team` in `game` (see [`FEATURE_NAMES`]).
pub fn features(game: &Game, th: &Threats, team: usize) -> [f32; FEATURES] {
    let t = Team(team as u8);
    let seqs = game.sequence_count(t);
    let one_away = seqs + 1 >= game.win_sequences();
    let complete = th.fill[team][0];
    let layout = game.layout();
    let mut natural = 0u128;
    let (mut two, mut one) = (0u32, 0u32);
    let players = game.players();
    for s in 0..players {
        let seat = Seat(s);
        if game.team_of(seat) != t {
            continue;
        }
        for &c in game.hand(seat) {
            if c.is_two_eyed_jack() {
                two += 1;
            } else if c.is_one_eyed_jack() {
                one += 1;
            } else {
                natural |= layout.spaces_of(c).0;
            }
        }
    }
    let can_complete = complete != 0 && (complete & natural != 0 || two > 0);
    let next = game.team_of(game.turn()) == t;
    [
        seqs as f32,
        one_away as u8 as f32,
        complete.count_ones().min(6) as f32,
        th.fill[team][1].count_ones().min(12) as f32,
        th.fill[team][2].count_ones().min(30) as f32,
        can_complete as u8 as f32,
        two as f32,
        one as f32,
        next as u8 as f32,
        (next && can_complete) as u8 as f32,
        th.windows[team][0] as f32,
        th.windows[team][1] as f32,
        th.windows[team][2] as f32,
        th.windows[team][3] as f32,
        (natural & th.fill[team][1]).count_ones() as f32,
    ]
}

/// Every team's score `w · f` (higher is better).
pub fn scores(game: &Game, weights: &[f32; FEATURES]) -> [f32; 3] {
    let th = Threats::of(game);
    let mut out = [0f32; 3];
    for (t, o) in out
        .iter_mut()
        .enumerate()
        .take(game.teams().min(3) as usize)
    {
        let f = features(game, &th, t);
        *o = f.iter().zip(weights).map(|(a, b)| a * b).sum();
    }
    out
}

/// Each team's chance to win an unfinished `game`: the softmax of its
/// [`scores`] with [`WEIGHTS`]. Shares sum to 1.
pub fn evaluate(game: &Game) -> Rewards {
    softmax(&scores(game, &WEIGHTS), game.teams().min(3) as usize)
}

/// The softmax of the first `n` scores, as rewards.
pub fn softmax(s: &[f32; 3], n: usize) -> Rewards {
    let max = s[..n].iter().copied().fold(f32::MIN, f32::max);
    let mut r = [0f32; MAX_SIDES];
    let mut sum = 0.0;
    for t in 0..n {
        r[t] = (s[t] - max).exp();
        sum += r[t];
    }
    for x in r.iter_mut().take(n) {
        *x /= sum;
    }
    r
}
