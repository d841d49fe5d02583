//! Vectorized stepping: `N` games of one table stepped together in Rust,
//! writing stacked observations, masks, rewards and flags into flat
//! buffers (the Python `VecEnv` hands them over as numpy arrays).
//!
//! Each game has its own random generator (PCG64 seeded from the vector's
//! seed and the game's index), so a run is reproducible whatever the batch
//! sizes the caller uses. A finished game is dealt again at once
//! ([`Rules::fresh_deal`]) within the same step ("same-step autoreset"):
//! the step reports its rewards and `done`, and the observation is the new
//! game's first.
//!
//! Two modes: every seat played by the caller (self-play: the observation
//! is the seat to act's), or one seat per game played by the caller and
//! the others by built-in bots (the bots move inside `step` until the
//! caller's seat must decide or the game ends).

use crate::dynamic::{Failure, FailureKind};
use crate::env::{self, EnvGame};
use sequence_bots::Bot;
use sequence_common::rng::{playout_rng, PlayoutRng};
use sequence_common::{RngReshuffler, Seat};

/// Buffers one step writes: `obs` is `N × obs_len`, `mask` `N × ACTIONS`,
/// `to_act` `N`, `rewards` `N × players` (the single-agent mode writes one
/// reward per game: `N × 1`), `done` `N`.
pub struct Out<'a> {
    /// Observations of the seat to act (or of the caller's seat).
    pub obs: &'a mut [u8],
    /// Action masks.
    pub mask: &'a mut [u8],
    /// The seat to act per game.
    pub to_act: &'a mut [i64],
    /// Rewards of the step.
    pub rewards: &'a mut [f32],
    /// 1 where the game ended in this step (and was dealt again).
    pub done: &'a mut [u8],
}

/// The result counters of the vector since it was built or reset.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games finished.
    pub games: u64,
    /// Wins by side (seat in Stacks), indexed by side.
    pub wins: Vec<u64>,
    /// Draws.
    pub draws: u64,
    /// Moves made (bots' included).
    pub moves: u64,
}

/// `N` games stepped together (see the module docs).
pub struct VecCore<G: EnvGame> {
    template: G,
    games: Vec<G>,
    rngs: Vec<PlayoutRng>,
    /// Single-agent mode: the caller's seat and every game's bots (one per
    /// seat, `None` at the caller's seat).
    bots: Option<(Seat, Vec<Vec<Option<Box<dyn Bot<G>>>>>)>,
    bot_spec: Option<String>,
    seed: u64,
    obs_len: usize,
    tally: Tally,
}

/// SplitMix64 finaliser: per-game seeds from one seed.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl<G: EnvGame> VecCore<G> {
    /// `n` games of `template`'s table, every seat played by the caller.
    pub fn new(template: G, n: usize, seed: u64) -> VecCore<G> {
        let obs_len = G::obs_len(template.config());
        let mut v = VecCore {
            games: vec![template.clone(); n],
            rngs: vec![],
            template,
            bots: None,
            bot_spec: None,
            seed,
            obs_len,
            tally: Tally::default(),
        };
        v.deal_all(seed);
        v
    }

    /// `n` games where the caller plays `seat` and bots built from
    /// `opponents` (e.g. `greedy`) play every other seat.
    ///
    /// # Errors
    /// A bot name that cannot be built, or a seat not at the table.
    pub fn with_opponents(
        template: G,
        n: usize,
        seed: u64,
        seat: u8,
        opponents: &str,
    ) -> Result<VecCore<G>, Failure> {
        if seat >= template.players() {
            return Err(Failure::new(
                FailureKind::Usage,
                "seat.no_such_seat",
                format!(
                    "seat {seat} does not exist ({} players)",
                    template.players()
                ),
            ));
        }
        // Fail early on a bad name.
        sequence_bots::bot::<G>(opponents, 0)
            .map_err(|e| Failure::new(FailureKind::Bot, "bot.spec", e.to_string()))?;
        let mut v = VecCore::new(template, n, seed);
        v.bot_spec = Some(opponents.to_string());
        v.bots = Some((Seat(seat), vec![]));
        v.deal_all(seed);
        Ok(v)
    }

    /// Number of games.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// Whether there is no game.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// Length of one observation.
    pub fn obs_len(&self) -> usize {
        self.obs_len
    }

    /// Rewards per game in a step: the player count, or 1 in the
    /// single-agent mode.
    pub fn reward_width(&self) -> usize {
        if self.bots.is_some() {
            1
        } else {
            self.template.players() as usize
        }
    }

    /// The games (for tests and inspection).
    pub fn games(&self) -> &[G] {
        &self.games
    }

    /// Results since the last reset.
    pub fn tally(&self) -> &Tally {
        &self.tally
    }

    fn deal_all(&mut self, seed: u64) {
        self.seed = seed;
        self.rngs = (0..self.games.len())
            .map(|i| playout_rng(mix(seed ^ mix(i as u64))))
            .collect();
        self.tally = Tally {
            wins: vec![0; self.template.sides() as usize],
            ..Tally::default()
        };
        if let Some((_, bots)) = &mut self.bots {
            bots.clear();
            let spec = self.bot_spec.clone().unwrap_or_default();
            for i in 0..self.games.len() {
                let row = (0..self.template.players())
                    .map(|s| {
                        sequence_bots::bot::<G>(&spec, mix(seed ^ mix((i as u64) << 8 | s as u64)))
                            .ok()
                    })
                    .collect();
                bots.push(row);
            }
        }
        for i in 0..self.games.len() {
            self.games[i] = self.template.fresh_deal(&mut self.rngs[i]);
        }
        for i in 0..self.games.len() {
            // Single-agent: the bots open until the caller's seat decides.
            let mut unused = 0.0;
            self.run_bots(i, &mut unused);
            if self.games[i].is_over() {
                self.games[i] = self.template.fresh_deal(&mut self.rngs[i]);
            }
        }
    }

    /// Deals every game again from `seed` and writes the first
    /// observations, masks and seats to act (rewards 0, done 0).
    pub fn reset(&mut self, seed: u64, out: &mut Out<'_>) {
        self.deal_all(seed);
        out.rewards.fill(0.0);
        out.done.fill(0);
        for i in 0..self.games.len() {
            self.write(i, out);
        }
    }

    /// In the single-agent mode, lets the bots move in game `i` until the
    /// caller's seat must decide or the game ends; adds the caller's
    /// reward to `reward` when it ends.
    fn run_bots(&mut self, i: usize, reward: &mut f32) {
        let Some((me, bots)) = &mut self.bots else {
            return;
        };
        let g = &mut self.games[i];
        while let Some(s) = g.to_act() {
            if s == *me {
                return;
            }
            let Some(Some(bot)) = bots.get_mut(i).and_then(|row| row.get_mut(s.index())) else {
                return;
            };
            let mv = bot.choose(&g.view(s));
            if g.check(s, mv).is_err() {
                // A built-in bot answers a legal move; never trust blindly.
                match g.random_move(&mut self.rngs[i]) {
                    Some(m) => {
                        let _ = g.apply(s, m, &mut RngReshuffler(&mut self.rngs[i]));
                    }
                    None => return,
                }
            } else {
                let _ = g.apply(s, mv, &mut RngReshuffler(&mut self.rngs[i]));
            }
            self.tally.moves += 1;
        }
        if g.is_over() {
            *reward += env::reward(g, *me);
        }
    }

    /// The seat whose observation and mask a game reports.
    fn observer(&self, i: usize) -> Seat {
        match &self.bots {
            Some((me, _)) => *me,
            None => self.games[i].to_act().unwrap_or(Seat(0)),
        }
    }

    fn write(&self, i: usize, out: &mut Out<'_>) {
        let g = &self.games[i];
        let seat = self.observer(i);
        g.observe(seat, &mut out.obs[i * self.obs_len..(i + 1) * self.obs_len]);
        env::action_mask(g, &mut out.mask[i * G::ACTIONS..(i + 1) * G::ACTIONS]);
        out.to_act[i] = g.to_act().map_or(-1, |s| s.0 as i64);
    }

    /// Steps every game with its action; see the module docs.
    ///
    /// # Errors
    /// The first game whose action is outside its mask, naming the game;
    /// no game moves then.
    pub fn step(&mut self, actions: &[i64], out: &mut Out<'_>) -> Result<(), Failure> {
        self.step_with(actions, out, true)
    }

    /// As [`VecCore::step`]; `observe: false` skips the observations (for
    /// agents that read only the masks).
    ///
    /// # Errors
    /// As [`VecCore::step`].
    pub fn step_with(
        &mut self,
        actions: &[i64],
        out: &mut Out<'_>,
        observe: bool,
    ) -> Result<(), Failure> {
        let n = self.games.len();
        if actions.len() != n {
            return Err(Failure::new(
                FailureKind::Action,
                "env.batch_size",
                format!("{} actions for {n} games", actions.len()),
            ));
        }
        // Check every action before any game moves.
        let mut moves = Vec::with_capacity(n);
        for (i, (g, &a)) in self.games.iter().zip(actions).enumerate() {
            match env::legal_move_of(g, a) {
                Ok(m) => moves.push(m),
                Err(e) => {
                    return Err(Failure::new(
                        FailureKind::Action,
                        e.code,
                        format!("game {i}: {e}"),
                    ))
                }
            }
        }
        let width = self.reward_width();
        let players = self.template.players();
        for (i, (seat, mv)) in moves.into_iter().enumerate() {
            let rewards = &mut out.rewards[i * width..(i + 1) * width];
            rewards.fill(0.0);
            out.done[i] = 0;
            let g = &mut self.games[i];
            if g.apply(seat, mv, &mut RngReshuffler(&mut self.rngs[i]))
                .is_err()
            {
                // Only a refusing reshuffler errs; a random one never does.
                continue;
            }
            self.tally.moves += 1;
            let mut r = 0.0;
            if !g.is_over() {
                self.run_bots(i, &mut r);
            } else if let Some((me, _)) = &self.bots {
                r = env::reward(g, *me);
            }
            let g = &mut self.games[i];
            if g.is_over() {
                match g.outcome().winner() {
                    Some(side) => {
                        if let Some(w) = self.tally.wins.get_mut(side as usize) {
                            *w += 1;
                        }
                    }
                    None => self.tally.draws += 1,
                }
                self.tally.games += 1;
                if self.bots.is_some() {
                    rewards[0] = r;
                } else {
                    for s in 0..players {
                        rewards[s as usize] = env::reward(g, Seat(s));
                    }
                }
                out.done[i] = 1;
                *g = self.template.fresh_deal(&mut self.rngs[i]);
                let mut unused = 0.0;
                self.run_bots(i, &mut unused);
                // A game the bots finished before the caller moved is dealt
                // again (it never reaches the caller).
                while self.games[i].is_over() {
                    self.games[i] = self.template.fresh_deal(&mut self.rngs[i]);
                    self.run_bots(i, &mut unused);
                }
            }
            if observe {
                self.write(i, out);
            } else {
                let g = &self.games[i];
                env::action_mask(g, &mut out.mask[i * G::ACTIONS..(i + 1) * G::ACTIONS]);
                out.to_act[i] = g.to_act().map_or(-1, |s| s.0 as i64);
            }
        }
        Ok(())
    }

    /// A uniformly random legal action per game, from the games' own
    /// generators (a random agent that never leaves Rust).
    pub fn random_actions(&mut self, out: &mut [i64]) {
        for ((g, rng), a) in self.games.iter().zip(&mut self.rngs).zip(out.iter_mut()) {
            *a = match (g.to_act(), g.random_move(rng)) {
                (Some(seat), Some(m)) => g.action_of(seat, &m) as i64,
                _ => -1,
            };
        }
    }
}

/// [`VecCore`] of either game, behind one object-safe interface.
pub trait DynVec: Send {
    /// Games.
    fn len(&self) -> usize;
    /// Whether there is no game.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Observation length.
    fn obs_len(&self) -> usize;
    /// Actions.
    fn actions(&self) -> usize;
    /// Rewards per game per step.
    fn reward_width(&self) -> usize;
    /// See [`VecCore::reset`].
    fn reset(&mut self, seed: u64, out: &mut Out<'_>);
    /// See [`VecCore::step_with`].
    ///
    /// # Errors
    /// An action outside its game's mask; nothing moves then.
    fn step(&mut self, actions: &[i64], out: &mut Out<'_>, observe: bool) -> Result<(), Failure>;
    /// See [`VecCore::random_actions`].
    fn random_actions(&mut self, out: &mut [i64]);
    /// Results since the last reset.
    fn tally(&self) -> Tally;
}

impl<G: EnvGame> DynVec for VecCore<G> {
    fn len(&self) -> usize {
        VecCore::len(self)
    }
    fn obs_len(&self) -> usize {
        self.obs_len
    }
    fn actions(&self) -> usize {
        G::ACTIONS
    }
    fn reward_width(&self) -> usize {
        VecCore::reward_width(self)
    }
    fn reset(&mut self, seed: u64, out: &mut Out<'_>) {
        VecCore::reset(self, seed, out)
    }
    fn step(&mut self, actions: &[i64], out: &mut Out<'_>, observe: bool) -> Result<(), Failure> {
        self.step_with(actions, out, observe)
    }
    fn random_actions(&mut self, out: &mut [i64]) {
        VecCore::random_actions(self, out)
    }
    fn tally(&self) -> Tally {
        self.tally.clone()
    }
}

/// A vector of `n` games of a table, every seat played by the caller, or
/// (`opponents: Some((seat, spec))`) the caller at `seat` and bots built
/// from `spec` everywhere else.
///
/// # Errors
/// [`FailureKind::Setup`] for a table or options that break the rules,
/// [`FailureKind::Bot`] for a bot name that cannot be built.
pub fn new_vec(
    kind: sequence_common::GameKind,
    players: u8,
    teams: Option<u8>,
    options: Option<&serde_json::Value>,
    n: usize,
    seed: u64,
    opponents: Option<(u8, &str)>,
) -> Result<Box<dyn DynVec>, Failure> {
    fn go<G: crate::dynamic::DynEngine>(
        players: u8,
        teams: Option<u8>,
        options: Option<&serde_json::Value>,
        n: usize,
        seed: u64,
        opponents: Option<(u8, &str)>,
    ) -> Result<Box<dyn DynVec>, Failure> {
        let options = G::options_from_json(options)
            .map_err(|m| Failure::new(FailureKind::Setup, "options", m))?;
        let config = G::table(players, teams, options).map_err(|e| {
            Failure::new(
                FailureKind::Setup,
                sequence_common::RuleError::code(&e),
                e.to_string(),
            )
        })?;
        let template = G::deal(&config, &mut sequence_common::rng::game_rng(seed)).0;
        Ok(match opponents {
            None => Box::new(VecCore::new(template, n, seed)),
            Some((seat, spec)) => Box::new(VecCore::with_opponents(template, n, seed, seat, spec)?),
        })
    }
    match kind {
        sequence_common::GameKind::Classic => {
            go::<sequence_classic::Game>(players, teams, options, n, seed, opponents)
        }
        sequence_common::GameKind::Stacks => {
            if teams.is_some() {
                return Err(Failure::new(
                    FailureKind::Setup,
                    "S1.teams",
                    "Sequence Stacks has no teams: each seat plays alone (S1)",
                ));
            }
            go::<sequence_stacks::Game>(players, None, options, n, seed, opponents)
        }
    }
}
