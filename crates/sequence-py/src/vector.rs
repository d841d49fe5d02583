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

mod dynvec;
mod rows;

pub use rows::next_seed;
use rows::{below, check_all, mix, rows, split_out, step_run};

pub use dynvec::{new_vec, DynVec, VecSpec};

use crate::dynamic::{Failure, FailureKind};
use crate::env::{self, ActionBits, EnvGame};
use rand::RngCore;
use sequence_bots::Bot;
use sequence_common::record::Record;
use sequence_common::reshuffle::Recording;
use sequence_common::rng::{playout_rng, GameRng, PlayoutRng};
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

/// Owned output buffers for a vector of games (for Rust callers; the
/// Python binding lends numpy arrays instead): [`Buffers::out`] lends
/// them as an [`Out`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Buffers {
    /// `N × obs_len` observations.
    pub obs: Vec<u8>,
    /// `N × ACTIONS` masks.
    pub mask: Vec<u8>,
    /// `N` seats to act.
    pub to_act: Vec<i64>,
    /// `N × reward_width` rewards.
    pub rewards: Vec<f32>,
    /// `N` done flags.
    pub done: Vec<u8>,
}

impl Buffers {
    /// The buffers as the [`Out`] a step writes.
    pub fn out(&mut self) -> Out<'_> {
        Out {
            obs: &mut self.obs,
            mask: &mut self.mask,
            to_act: &mut self.to_act,
            rewards: &mut self.rewards,
            done: &mut self.done,
        }
    }
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

impl Tally {
    fn add(&mut self, o: &Tally) {
        self.games += o.games;
        self.draws += o.draws;
        self.moves += o.moves;
        if self.wins.len() < o.wins.len() {
            self.wins.resize(o.wins.len(), 0);
        }
        for (a, b) in self.wins.iter_mut().zip(&o.wins) {
            *a += b;
        }
    }
}

/// One game's bots, by seat (`None` at the caller's seat).
type SeatBots<G> = Vec<Option<Box<dyn Bot<G>>>>;

/// How a game of the vector ended: the winning side (`-1` for a draw)
/// and the moves it took (bots' included).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Ended {
    /// The winning side (team or seat), `-1` for a draw.
    pub winner: i64,
    /// Moves made in the game.
    pub length: i64,
    /// The game's rotation of roles (self-play mode with roles: the role of
    /// seat `s` was `(s + rotation) % players`; 0 otherwise).
    pub rotation: i64,
}

/// A slot's record when the vector keeps them: the record of the game
/// being played and the ChaCha8 generator its deal and reshuffles come
/// from (as `Match`: the record replays exactly).
struct Recorder<G: EnvGame> {
    record: Record<G>,
    rng: GameRng,
    /// Records of the games this slot finished, not yet taken.
    finished: Vec<Record<G>>,
}

/// One game of the vector with its generator, its legal actions as last
/// written to the caller's mask, and (single-agent mode) its bots.
struct Slot<G: EnvGame> {
    game: G,
    rng: PlayoutRng,
    legal: ActionBits,
    /// Number of actions in `legal`.
    legal_count: usize,
    bots: SeatBots<G>,
    /// How the game that ended in the last step ended.
    ended: Ended,
    /// Self-play mode: the role that plays seat `s` is `(s + rot) % players`.
    rot: u8,
    /// The record being kept, when the vector keeps them.
    rec: Option<Box<Recorder<G>>>,
}

/// What every slot's step shares.
struct Shared<'a, G: EnvGame> {
    template: &'a G,
    /// The caller's seat in the single-agent mode.
    me: Option<Seat>,
    /// Self-play mode: the roles the vector's own bots play (bit per
    /// role); the caller plays the others.
    bot_roles: u16,
    /// Self-play mode: whether the roles move one seat on with each game.
    rotate: bool,
    obs_len: usize,
    /// Rewards per game in a step.
    width: usize,
    observe: bool,
}

/// The output rows of one slot.
struct Row<'a> {
    obs: &'a mut [u8],
    mask: &'a mut [u8],
    to_act: &'a mut i64,
    rewards: &'a mut [f32],
    done: &'a mut u8,
}

impl<G: EnvGame> Slot<G> {
    /// Makes a checked move, reshuffling (and recording) as the slot does;
    /// whether the engine took it.
    #[inline(always)]
    fn apply(&mut self, seat: Seat, mv: G::Move) -> bool {
        match &mut self.rec {
            None => self
                .game
                .apply(seat, mv, &mut RngReshuffler(&mut self.rng))
                .is_ok(),
            Some(r) => {
                let mut log = Recording {
                    rng: &mut r.rng,
                    log: &mut r.record.reshuffles,
                };
                let ok = self.game.apply(seat, mv, &mut log).is_ok();
                if ok && G::is_recorded(&mv) {
                    let written = self.game.last_move().map_or(mv, |(_, m)| m);
                    r.record.moves.push((seat, written));
                }
                ok
            }
        }
    }

    /// A new game of `template`'s table: the fast shuffle, or (keeping
    /// records) a ChaCha8 deal from a seed of the slot's generator.
    fn new_game(&mut self, template: &G) -> G {
        match &mut self.rec {
            None => template.fresh_deal(&mut self.rng),
            Some(r) => {
                let (game, record, rng) =
                    Record::deal(template.config().clone(), self.rng.next_u64());
                r.record = record;
                r.rng = rng;
                game
            }
        }
    }

    /// The bots move until a seat of the caller must decide or the game
    /// ends (single-agent mode: every seat but `me`; self-play mode: the
    /// bots' roles); returns the caller's reward in the single-agent mode
    /// when it ended, and the moves made.
    fn run_bots(&mut self, sh: &Shared<'_, G>) -> (f32, u64) {
        if sh.me.is_none() && sh.bot_roles == 0 {
            return (0.0, 0);
        }
        let players = self.game.players();
        let mut moves = 0;
        while let Some(s) = self.game.to_act() {
            let role = match sh.me {
                Some(me) if s == me => return (0.0, moves),
                Some(_) => s.index(),
                None => {
                    let role = (s.0 + self.rot) % players;
                    if sh.bot_roles & (1 << role) == 0 {
                        return (0.0, moves);
                    }
                    role as usize
                }
            };
            let Some(Some(bot)) = self.bots.get_mut(role) else {
                return (0.0, moves);
            };
            let mv = bot.choose(&self.game.view(s));
            // A built-in bot answers a legal move; never trust blindly.
            let mv = match self.game.check(s, mv) {
                Ok(()) => mv,
                Err(_) => match self.game.random_move(&mut self.rng) {
                    Some(m) => m,
                    None => return (0.0, moves),
                },
            };
            self.apply(s, mv);
            moves += 1;
        }
        (sh.me.map_or(0.0, |me| env::reward(&self.game, me)), moves)
    }

    /// Deals a new game until one reaches the caller (the bots may finish
    /// a game before the caller's seat ever decides).
    fn deal(&mut self, sh: &Shared<'_, G>, tally: &mut Tally) {
        loop {
            self.game = self.new_game(sh.template);
            if sh.rotate {
                self.rot = (self.rot + 1) % self.game.players();
            }
            let (_, m) = self.run_bots(sh);
            tally.moves += m;
            if !self.game.is_over() {
                return;
            }
        }
    }

    #[inline(always)]
    fn write(&mut self, sh: &Shared<'_, G>, row: &mut Row<'_>) {
        if sh.observe {
            let seat = sh.me.or(self.game.to_act()).unwrap_or(Seat(0));
            self.game.observe(seat, row.obs);
        }
        self.legal_count = env::action_mask_bits(&self.game, row.mask, &mut self.legal);
        *row.to_act = self.game.to_act().map_or(-1, |s| s.0 as i64);
    }

    /// Makes the checked move, lets the bots answer, and on the game's end
    /// counts it, reports the rewards and deals again.
    #[inline(always)]
    fn step(
        &mut self,
        sh: &Shared<'_, G>,
        seat: Seat,
        mv: G::Move,
        row: &mut Row<'_>,
        tally: &mut Tally,
    ) {
        // (One or two rewards a game mostly: stores, not a fill call.)
        match &mut *row.rewards {
            [a] => *a = 0.0,
            [a, b] => (*a, *b) = (0.0, 0.0),
            r => r.fill(0.0),
        }
        *row.done = 0;
        if self.apply(seat, mv) {
            tally.moves += 1;
            let mut r = 0.0;
            if (sh.me.is_some() || sh.bot_roles != 0) && !self.game.is_over() {
                let (rb, m) = self.run_bots(sh);
                r = rb;
                tally.moves += m;
            } else if let Some(me) = sh.me {
                r = env::reward(&self.game, me);
            }
            if self.game.is_over() {
                match self.game.outcome().winner() {
                    Some(side) => {
                        if let Some(w) = tally.wins.get_mut(side as usize) {
                            *w += 1;
                        }
                    }
                    None => tally.draws += 1,
                }
                tally.games += 1;
                self.ended = Ended {
                    winner: self.game.outcome().winner().map_or(-1, i64::from),
                    length: i64::from(self.game.ply()),
                    rotation: i64::from(self.rot),
                };
                if let Some(r) = &mut self.rec {
                    let mut done = r.record.clone();
                    done.result = Some(self.game.outcome().winner());
                    r.finished.push(done);
                }
                if sh.me.is_some() {
                    row.rewards[0] = r;
                } else {
                    for (s, x) in row.rewards.iter_mut().enumerate() {
                        *x = env::reward(&self.game, Seat(s as u8));
                    }
                }
                *row.done = 1;
                self.deal(sh, tally);
            }
        }
        self.write(sh, row);
    }
}

/// `N` games stepped together (see the module docs).
pub struct VecCore<G: EnvGame> {
    template: G,
    slots: Vec<Slot<G>>,
    /// Single-agent mode: the caller's seat and the bots' name.
    opponents: Option<(Seat, String)>,
    obs_len: usize,
    threads: usize,
    /// The worker threads when `threads` > 1 (kept from call to call).
    pool: Option<rayon::ThreadPool>,
    tally: Tally,
    /// Whether every game keeps its record.
    records: bool,
    /// Self-play mode: the bot spec of each role (`None`: the caller's).
    role_bots: Vec<Option<String>>,
    /// Self-play mode: roles move one seat on with each game.
    rotate: bool,
}

/// Fewest games per thread worth a thread of its own.
const GAMES_PER_THREAD: usize = 64;

impl<G: EnvGame> VecCore<G> {
    /// `n` games of `template`'s table, every seat played by the caller.
    pub fn new(template: G, n: usize, seed: u64) -> VecCore<G> {
        let obs_len = G::obs_len(template.config());
        let mut v = VecCore {
            slots: (0..n)
                .map(|_| Slot {
                    game: template.clone(),
                    rng: playout_rng(0),
                    legal: ActionBits::default(),
                    legal_count: 0,
                    bots: vec![],
                    ended: Ended::default(),
                    rot: 0,
                    rec: None,
                })
                .collect(),
            template,
            opponents: None,
            obs_len,
            threads: 1,
            pool: None,
            tally: Tally::default(),
            records: false,
            role_bots: Vec::new(),
            rotate: false,
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
        v.opponents = Some((Seat(seat), opponents.to_string()));
        v.deal_all(seed);
        Ok(v)
    }

    /// Self-play with roles: role `r` is played by a bot built from
    /// `specs[r]` or, for `None`, by the caller; with `rotate`, game `k` of
    /// slot `i` seats role `r` at seat `(r - i - k) mod players` (the role
    /// of seat `s` is `(s + rotation) % players`), so every role plays
    /// every seat in turn. The games are dealt again from `seed`.
    ///
    /// # Errors
    /// A bot name that cannot be built, a spec per seat that is not one per
    /// seat, or the single-agent mode (it has its own bots).
    pub fn set_roles(
        &mut self,
        specs: Vec<Option<String>>,
        rotate: bool,
        seed: u64,
    ) -> Result<(), Failure> {
        let players = self.template.players() as usize;
        if specs.len() != players || self.opponents.is_some() {
            return Err(Failure::new(
                FailureKind::Usage,
                "env.roles",
                format!(
                    "roles: one per seat ({players}), and not with opponents= ({} given)",
                    specs.len()
                ),
            ));
        }
        for spec in specs.iter().flatten() {
            sequence_bots::bot::<G>(spec, 0)
                .map_err(|e| Failure::new(FailureKind::Bot, "bot.spec", e.to_string()))?;
        }
        self.role_bots = specs;
        self.rotate = rotate;
        self.deal_all(seed);
        Ok(())
    }

    /// The roles the vector's bots play, a bit per role.
    fn bot_roles(&self) -> u16 {
        self.role_bots
            .iter()
            .enumerate()
            .filter(|(_, b)| b.is_some())
            .fold(0, |m, (r, _)| m | 1 << r)
    }

    /// The role to act in each game (self-play with roles; the seat to
    /// act otherwise), `-1` for none.
    pub fn roles_to_act(&self) -> Vec<i64> {
        self.slots
            .iter()
            .map(|s| {
                s.game.to_act().map_or(-1, |seat| {
                    i64::from((seat.0 + s.rot) % self.template.players())
                })
            })
            .collect()
    }

    /// Each game's rotation of roles (the role of seat `s` is `(s +
    /// rotation) % players`).
    pub fn rotations(&self) -> Vec<i64> {
        self.slots.iter().map(|s| i64::from(s.rot)).collect()
    }

    /// Keeps every game's record from now on: the games are dealt again
    /// from `seed`, each from a ChaCha8 seed of its own generator (as
    /// `Match` deals), so that its record replays exactly; finished
    /// records are taken with [`VecCore::take_records`]. Slower than the
    /// fast shuffle.
    pub fn keep_records(&mut self, seed: u64) {
        self.records = true;
        self.deal_all(seed);
    }

    /// The records of the games finished since the last call (or reset),
    /// with their game's index, in index order then finishing order.
    pub fn take_records(&mut self) -> Vec<(usize, Record<G>)> {
        let mut out = Vec::new();
        for (i, slot) in self.slots.iter_mut().enumerate() {
            if let Some(r) = &mut slot.rec {
                out.extend(r.finished.drain(..).map(|rec| (i, rec)));
            }
        }
        out
    }

    /// How each game that ended in the last step ended (meaningful where
    /// that step's `done` is set).
    pub fn ended(&self) -> Vec<Ended> {
        self.slots.iter().map(|s| s.ended).collect()
    }

    /// Steps the games on up to `threads` threads (1: the calling thread
    /// only). Results do not depend on it: every game has its own
    /// generator.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
        // A pool that cannot be made (no threads left) steps on the
        // calling thread.
        self.pool = (self.threads > 1)
            .then(|| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(self.threads)
                    .thread_name(|i| format!("sequence-vec-{i}"))
                    .build()
                    .ok()
            })
            .flatten();
    }

    /// Number of games.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether there is no game.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Length of one observation.
    pub fn obs_len(&self) -> usize {
        self.obs_len
    }

    /// Rewards per game in a step: the player count, or 1 in the
    /// single-agent mode.
    pub fn reward_width(&self) -> usize {
        if self.opponents.is_some() {
            1
        } else {
            self.template.players() as usize
        }
    }

    /// Zeroed output buffers of the right sizes for this vector.
    pub fn buffers(&self) -> Buffers {
        let n = self.slots.len();
        Buffers {
            obs: vec![0; n * self.obs_len],
            mask: vec![0; n * G::ACTIONS],
            to_act: vec![0; n],
            rewards: vec![0.0; n * self.reward_width()],
            done: vec![0; n],
        }
    }

    /// The games (for tests and inspection).
    pub fn games(&self) -> Vec<&G> {
        self.slots.iter().map(|s| &s.game).collect()
    }

    /// Results since the last reset.
    pub fn tally(&self) -> &Tally {
        &self.tally
    }

    fn deal_all(&mut self, seed: u64) {
        let mut tally = Tally {
            wins: vec![0; self.template.sides() as usize],
            ..Tally::default()
        };
        let players = self.template.players();
        for (i, slot) in self.slots.iter_mut().enumerate() {
            slot.rng = playout_rng(mix(seed ^ mix(i as u64)));
            slot.ended = Ended::default();
            slot.rec = self.records.then(|| {
                let (_, record, rng) = Record::deal(self.template.config().clone(), 0);
                Box::new(Recorder {
                    record,
                    rng,
                    finished: Vec::new(),
                })
            });
            // Rotating: the first game of slot `i` has rotation `i % players`
            // (dealing moves it one on first).
            slot.rot = if self.rotate {
                ((i + players as usize - 1) % players as usize) as u8
            } else {
                0
            };
            slot.bots = match &self.opponents {
                None => self
                    .role_bots
                    .iter()
                    .enumerate()
                    .map(|(r, spec)| {
                        spec.as_ref().and_then(|spec| {
                            sequence_bots::bot::<G>(
                                spec,
                                mix(seed ^ mix((i as u64) << 8 | r as u64)),
                            )
                            .ok()
                        })
                    })
                    .collect(),
                Some((me, spec)) => (0..players)
                    .map(|s| {
                        (Seat(s) != *me)
                            .then(|| {
                                sequence_bots::bot::<G>(
                                    spec,
                                    mix(seed ^ mix((i as u64) << 8 | s as u64)),
                                )
                                .ok()
                            })
                            .flatten()
                    })
                    .collect(),
            };
        }
        let me = self.opponents.as_ref().map(|(s, _)| *s);
        let sh = Shared {
            template: &self.template,
            me,
            bot_roles: self.bot_roles(),
            rotate: self.rotate,
            obs_len: self.obs_len,
            width: self.reward_width(),
            observe: false,
        };
        let mut unused = Tally::default();
        for slot in &mut self.slots {
            slot.deal(&sh, &mut unused);
        }
        tally.moves = 0;
        self.tally = tally;
    }

    /// Deals every game again from `seed` and writes the first
    /// observations, masks and seats to act (rewards 0, done 0).
    pub fn reset(&mut self, seed: u64, out: &mut Out<'_>) {
        self.deal_all(seed);
        out.rewards.fill(0.0);
        out.done.fill(0);
        let (obs_len, width) = (self.obs_len, self.reward_width());
        let rows = rows(out, obs_len, G::ACTIONS, width);
        let sh = Shared {
            template: &self.template,
            me: self.opponents.as_ref().map(|(s, _)| *s),
            bot_roles: self.bot_roles(),
            rotate: self.rotate,
            obs_len,
            width,
            observe: true,
        };
        for (slot, mut row) in self.slots.iter_mut().zip(rows) {
            slot.write(&sh, &mut row);
        }
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
        let n = self.slots.len();
        if actions.len() != n {
            return Err(Failure::new(
                FailureKind::Action,
                "env.batch_size",
                format!("{} actions for {n} games", actions.len()),
            ));
        }
        // Check every action before any game moves: it must be in the mask
        // the caller was given. That mask lists exactly the legal moves
        // (`EnvGame::write_mask`; the crate's tests compare them with the
        // engine's), so a listed action is not checked by the engine again.
        let moves = crate::isa::with_v3(
            #[inline(always)]
            || check_all(&self.slots, actions),
        )?;
        let width = self.reward_width();
        let sh = Shared {
            template: &self.template,
            me: self.opponents.as_ref().map(|(s, _)| *s),
            bot_roles: self.bot_roles(),
            rotate: self.rotate,
            obs_len: self.obs_len,
            width,
            observe,
        };
        let threads = self.threads.min(n / GAMES_PER_THREAD).max(1);
        let tally = match &self.pool {
            Some(pool) if threads > 1 => {
                use rayon::prelude::*;
                let per = n.div_ceil(threads);
                let outs: Vec<Out<'_>> =
                    split_out(out, per, sh.obs_len, G::ACTIONS, width).collect();
                let slots = &mut self.slots;
                let tallies: Vec<Tally> = pool.install(|| {
                    slots
                        .par_chunks_mut(per)
                        .zip(outs)
                        .zip(moves.par_chunks(per))
                        .map(|((slots, mut out), moves)| step_run(slots, &mut out, moves, &sh))
                        .collect()
                });
                let mut tally = Tally::default();
                for t in &tallies {
                    tally.add(t);
                }
                tally
            }
            _ => step_run(&mut self.slots, out, &moves, &sh),
        };
        self.tally.add(&tally);
        Ok(())
    }

    /// A uniformly random legal action per game (uniform over the actions
    /// of its mask), from the games' own generators: a random agent that
    /// never leaves Rust. `-1` for a game with no legal action.
    pub fn random_actions(&mut self, out: &mut [i64]) {
        crate::isa::with_v3(
            #[inline(always)]
            || {
                for (slot, a) in self.slots.iter_mut().zip(out.iter_mut()) {
                    let n = slot.legal_count;
                    *a = if n == 0 {
                        -1
                    } else {
                        slot.legal
                            .nth(below(&mut slot.rng, n))
                            .map_or(-1, |x| x as i64)
                    };
                }
            },
        )
    }
}
