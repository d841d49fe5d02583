//! [`VecCore`] of either game behind one object-safe interface, and the
//! entry point that picks the game.

use super::{Ended, Out, Tally, VecCore};
use crate::dynamic::{Failure, FailureKind};
use crate::env::EnvGame;

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
    /// See [`VecCore::set_threads`].
    fn set_threads(&mut self, threads: usize);
    /// See [`VecCore::ended`].
    fn ended(&self) -> Vec<Ended>;
    /// See [`VecCore::set_roles`].
    ///
    /// # Errors
    /// As [`VecCore::set_roles`].
    fn set_roles(
        &mut self,
        specs: Vec<Option<String>>,
        rotate: bool,
        seed: u64,
    ) -> Result<(), Failure>;
    /// See [`VecCore::roles_to_act`].
    fn roles_to_act(&self) -> Vec<i64>;
    /// See [`VecCore::rotations`].
    fn rotations(&self) -> Vec<i64>;
    /// See [`VecCore::keep_records`].
    fn keep_records(&mut self, seed: u64);
    /// The records of [`VecCore::take_records`] as JSON.
    fn take_records(&mut self) -> Vec<(usize, serde_json::Value)>;
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
    fn set_threads(&mut self, threads: usize) {
        VecCore::set_threads(self, threads)
    }
    fn ended(&self) -> Vec<Ended> {
        VecCore::ended(self)
    }
    fn keep_records(&mut self, seed: u64) {
        VecCore::keep_records(self, seed)
    }
    fn set_roles(
        &mut self,
        specs: Vec<Option<String>>,
        rotate: bool,
        seed: u64,
    ) -> Result<(), Failure> {
        VecCore::set_roles(self, specs, rotate, seed)
    }
    fn roles_to_act(&self) -> Vec<i64> {
        VecCore::roles_to_act(self)
    }
    fn rotations(&self) -> Vec<i64> {
        VecCore::rotations(self)
    }
    fn take_records(&mut self) -> Vec<(usize, serde_json::Value)> {
        VecCore::take_records(self)
            .into_iter()
            .map(|(i, r)| (i, r.to_json()))
            .collect()
    }
}

/// What [`new_vec`] builds: `n` games of the table of `players` seats (in
/// `teams` teams, classic only) with rule `options` (the record's JSON),
/// dealt from `seed`; every seat played by the caller, or (`opponents:
/// Some((seat, spec))`) the caller at `seat` and bots built from `spec`
/// everywhere else.
#[derive(Debug, Clone, Copy)]
pub struct VecSpec<'a> {
    /// Seats at each table.
    pub players: u8,
    /// Teams (classic; `None` for the rules' default).
    pub teams: Option<u8>,
    /// Rule options as in a record, `None` for the official rules.
    pub options: Option<&'a serde_json::Value>,
    /// Number of games.
    pub n: usize,
    /// Seed of the first deal.
    pub seed: u64,
    /// The caller's seat and the bot spec for the other seats.
    pub opponents: Option<(u8, &'a str)>,
    /// Whether every game keeps its record ([`VecCore::keep_records`]).
    pub records: bool,
}

/// A vector of games of the table `spec` describes.
///
/// # Errors
/// [`FailureKind::Setup`] for a table or options that break the rules,
/// [`FailureKind::Bot`] for a bot name that cannot be built.
pub fn new_vec(
    kind: sequence_common::GameKind,
    spec: VecSpec<'_>,
) -> Result<Box<dyn DynVec>, Failure> {
    struct New<'a>(VecSpec<'a>);
    impl sequence_bots::ForGame for New<'_> {
        type Out = Result<Box<dyn DynVec>, Failure>;
        fn call<G: EnvGame>(self) -> Self::Out {
            new_of::<G>(self.0)
        }
    }
    sequence_bots::with_game(kind, New(spec))
}

/// [`new_vec`] for the game `G`.
fn new_of<G: EnvGame>(spec: VecSpec<'_>) -> Result<Box<dyn DynVec>, Failure> {
    let VecSpec {
        players,
        teams,
        options,
        n,
        seed,
        opponents,
        records,
    } = spec;
    let options = G::options_from_json(options).map_err(crate::dynamic::option_failure::<G>)?;
    let config = G::table(players, teams, options).map_err(|e| {
        Failure::new(
            FailureKind::Setup,
            sequence_common::RuleError::code(&e),
            e.to_string(),
        )
    })?;
    let template = G::deal(&config, &mut sequence_common::rng::game_rng(seed)).0;
    let mut v = match opponents {
        None => VecCore::new(template, n, seed),
        Some((seat, bots)) => VecCore::with_opponents(template, n, seed, seat, bots)?,
    };
    if records {
        v.keep_records(seed);
    }
    Ok(Box::new(v))
}
