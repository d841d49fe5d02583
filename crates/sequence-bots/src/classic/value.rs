//! A learned value of classic Sequence positions: each team's chance to
//! win a full (determinized) position.
//!
//! Per team a small network scores its [`features`] next to its opponents'
//! ([`features::context`]): `s = w2 · relu(W1 z + b1) + lin · z`, with `z`
//! the standardized inputs; the teams' chances are the softmax of their
//! scores (with two teams, `sigmoid(s0 − s1)`). One model per table kind:
//! `2p` (2 players), `4p` (2 teams of 2 or more), `3p` (3 sides, one
//! sequence wins, C9). The weights are in `crates/sequence-bots/data/value.json`
//! (compiled in), fitted to the outcomes of fast self-play games by
//! `cargo run --release -p sequence-lab --example train_value`.

use super::features::{self, FEATURES};
use crate::search::{Rewards, MAX_SIDES};
use sequence_classic::{Game, Status};
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// Inputs of a model: the team's features and its opponents'.
pub const INPUTS: usize = 2 * FEATURES;

/// Most hidden units [`Model::score_fast`] handles.
pub const MAX_HIDDEN: usize = 64;

/// One table kind's network.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Model {
    /// `2p`, `4p` or `3p`.
    pub kind: String,
    /// Hidden units (0: linear).
    pub hidden: usize,
    /// Per input: its mean in the training data.
    pub mean: Vec<f32>,
    /// Per input: 1 / its standard deviation in the training data.
    pub scale: Vec<f32>,
    /// `hidden × INPUTS`, row by row.
    pub w1: Vec<f32>,
    /// `hidden`.
    pub b1: Vec<f32>,
    /// `hidden`.
    pub w2: Vec<f32>,
    /// `INPUTS`: the linear part.
    pub lin: Vec<f32>,
    /// `w1` transposed (`INPUTS × hidden`) for [`Model::score_fast`]; set
    /// by [`Model::prepare`], empty until then.
    #[serde(skip)]
    pub w1t: Vec<f32>,
}

impl Model {
    /// A model of zeros (even chances) with the given standardization.
    pub fn zeros(kind: &str, hidden: usize) -> Model {
        Model {
            kind: kind.to_string(),
            hidden,
            mean: vec![0.0; INPUTS],
            scale: vec![1.0; INPUTS],
            w1: vec![0.0; hidden * INPUTS],
            b1: vec![0.0; hidden],
            w2: vec![0.0; hidden],
            lin: vec![0.0; INPUTS],
            w1t: Vec::new(),
        }
    }

    /// Lays the first layer out for [`Model::score_fast`] (call again
    /// after changing the weights).
    pub fn prepare(&mut self) {
        let h = self.hidden;
        self.w1t = vec![0.0; h * INPUTS];
        for j in 0..h {
            for i in 0..INPUTS {
                self.w1t[i * h + j] = self.w1[j * INPUTS + i];
            }
        }
    }

    /// As [`Model::score_z`], from the transposed first layer (the hidden
    /// units summed side by side, which the compiler vectorizes). Needs
    /// [`Model::prepare`] and at most [`MAX_HIDDEN`] hidden units.
    #[inline]
    pub fn score_fast(&self, z: &[f32; INPUTS]) -> f32 {
        let h = self.hidden;
        let mut acc = [0f32; MAX_HIDDEN];
        let acc = &mut acc[..h];
        acc.copy_from_slice(&self.b1);
        for (i, &zi) in z.iter().enumerate() {
            let row = &self.w1t[i * h..(i + 1) * h];
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w * zi;
            }
        }
        let mut s = 0.0;
        for (a, w) in acc.iter().zip(&self.w2) {
            s += a.max(0.0) * w;
        }
        for (a, b) in self.lin.iter().zip(z) {
            s += a * b;
        }
        s
    }

    /// Whether the sizes fit together.
    pub fn is_valid(&self) -> bool {
        self.mean.len() == INPUTS
            && self.scale.len() == INPUTS
            && self.w1.len() == self.hidden * INPUTS
            && self.b1.len() == self.hidden
            && self.w2.len() == self.hidden
            && self.lin.len() == INPUTS
            && self
                .mean
                .iter()
                .chain(&self.scale)
                .chain(&self.w1)
                .chain(&self.b1)
                .chain(&self.w2)
                .chain(&self.lin)
                .all(|x| x.is_finite())
    }

    /// The standardized inputs of a team with features `f` and context `c`.
    #[inline]
    pub fn inputs(&self, f: &[f32; FEATURES], c: &[f32; FEATURES]) -> [f32; INPUTS] {
        let mut z = [0f32; INPUTS];
        for i in 0..FEATURES {
            z[i] = (f[i] - self.mean[i]) * self.scale[i];
            z[FEATURES + i] = (c[i] - self.mean[FEATURES + i]) * self.scale[FEATURES + i];
        }
        z
    }

    /// The score of standardized inputs `z`.
    #[inline]
    pub fn score_z(&self, z: &[f32; INPUTS]) -> f32 {
        let mut s: f32 = self.lin.iter().zip(z).map(|(a, b)| a * b).sum();
        for h in 0..self.hidden {
            let row = &self.w1[h * INPUTS..(h + 1) * INPUTS];
            let a: f32 = self.b1[h] + row.iter().zip(z).map(|(a, b)| a * b).sum::<f32>();
            if a > 0.0 {
                s += self.w2[h] * a;
            }
        }
        s
    }

    /// Every team's chance to win, from the features of every team.
    pub fn chances(&self, f: &[[f32; FEATURES]; 3], teams: usize) -> Rewards {
        let mut s = [0f32; 3];
        for (t, st) in s.iter_mut().enumerate().take(teams) {
            let c = features::context(f, teams, t);
            let z = self.inputs(&f[t], &c);
            *st = if self.w1t.len() == self.w1.len() && self.hidden <= MAX_HIDDEN {
                self.score_fast(&z)
            } else {
                self.score_z(&z)
            };
        }
        super::eval::softmax(&s, teams)
    }
}

/// The weights file: a model per table kind.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
pub struct Weights {
    /// Format version (1).
    pub version: u32,
    /// The feature names the models were fitted with ([`features::NAMES`]).
    pub features: Vec<String>,
    /// How they were fitted (command, games, positions, time, log loss).
    pub trained: serde_json::Value,
    /// The models.
    pub models: Vec<Model>,
}

impl Weights {
    /// Reads a weights file; models whose sizes do not fit or whose
    /// feature list differs from [`features::NAMES`] are refused.
    ///
    /// # Errors
    /// A message naming what is wrong.
    pub fn from_json(text: &str) -> Result<Weights, String> {
        let mut w: Weights = serde_json::from_str(text).map_err(|e| e.to_string())?;
        if !w.models.is_empty() && w.features != features::NAMES {
            return Err("the weights were fitted with other features".into());
        }
        if let Some(m) = w.models.iter().find(|m| !m.is_valid()) {
            return Err(format!("model {} does not fit together", m.kind));
        }
        w.models.iter_mut().for_each(Model::prepare);
        Ok(w)
    }

    /// The model for a table of `players` in `teams` teams, if any.
    pub fn model_for(&self, players: u8, teams: u8) -> Option<&Model> {
        let kind = table_kind(players, teams);
        self.models
            .iter()
            .find(|m| m.kind == kind)
            .or_else(|| (kind == "4p").then(|| self.models.iter().find(|m| m.kind == "2p"))?)
    }
}

/// The model kind for a table: `2p`, `4p` (2 teams of 2 or more) or `3p`
/// (3 sides).
pub fn table_kind(players: u8, teams: u8) -> &'static str {
    match (players, teams) {
        (_, 3..) => "3p",
        (2, _) => "2p",
        _ => "4p",
    }
}

/// The weights compiled in (`crates/sequence-bots/data/value.json`).
pub fn weights() -> &'static Weights {
    static W: OnceLock<Weights> = OnceLock::new();
    W.get_or_init(|| {
        Weights::from_json(include_str!("../../data/value.json")).unwrap_or_else(|e| {
            tracing::warn!("value weights not usable ({e}); the learned value is off");
            Weights::default()
        })
    })
}

/// Each team's chance to win the unfinished `game` by the learned value
/// (shares sum to 1). Without a model for the table, the older evaluation
/// ([`super::eval::evaluate`]).
pub fn evaluate(game: &Game) -> Rewards {
    match weights().model_for(game.players(), game.teams()) {
        Some(m) => {
            let (f, teams) = features::all_features(game);
            m.chances(&f, teams)
        }
        None => super::eval::evaluate(game),
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

/// Chances of every side of a game that may be over: the winner 1, a draw
/// even shares, else [`evaluate`].
pub fn value_of(game: &Game) -> Rewards {
    if game.is_over() {
        outcome(game)
    } else {
        evaluate(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sequence_classic::{Config, Options};
    use sequence_common::rng::game_rng;

    #[test]
    fn the_fast_score_is_the_plain_one() {
        let w = Weights::from_json(include_str!("../../data/value.json")).expect("weights");
        let cfg = Config::new(2, None, Options::default()).expect("config");
        let mut rng = game_rng(3);
        let (game, _) = Game::deal(cfg, &mut rng);
        let (f, n) = features::all_features(&game);
        for m in &w.models {
            for t in 0..n {
                let z = m.inputs(&f[t], &features::context(&f, n, t));
                let (a, b) = (m.score_z(&z), m.score_fast(&z));
                assert!((a - b).abs() < 1e-4 * a.abs().max(1.0), "{a} vs {b}");
            }
        }
    }

    #[test]
    fn the_compiled_weights_read_and_give_shares() {
        let w = Weights::from_json(include_str!("../../data/value.json")).expect("weights");
        for (players, teams) in [(2u8, None), (3, None), (4, None)] {
            let cfg = Config::new(players, teams, Options::default()).expect("config");
            let mut rng = game_rng(players as u64);
            let (game, _) = Game::deal(cfg, &mut rng);
            let r = evaluate(&game);
            let n = game.teams() as usize;
            let sum: f32 = r[..n].iter().sum();
            assert!((sum - 1.0).abs() < 1e-4, "{r:?}");
            assert!(r[..n].iter().all(|x| (0.0..=1.0).contains(x)));
            let _ = w.model_for(players, game.teams());
        }
    }
}
