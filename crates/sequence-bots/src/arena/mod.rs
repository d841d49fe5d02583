//! The arena: bots play each other with seats rotated, each game a job of
//! a thread pool ([`game`]); results with 95 % confidence intervals and
//! Elo ratings, as a table and JSON ([`report`], [`duplicate`]; the
//! statistics are in [`crate::stats`]). The `sequence arena` command adds
//! the CSV file, the chart and the progress bar.
//!
//! Seating: a game has *sides* — teams in classic Sequence (C3), seats in
//! Sequence Stacks. In game `g` side `u` is played by bot `(u + g) mod n`
//! (every seat of a team by the same bot), so with two bots at two sides
//! the seats alternate every game. Each bot instance sees only its seat's
//! view.

pub mod duplicate;
pub mod game;
pub mod report;

pub use duplicate::DuplicateStats;
pub use game::{GameResult, MAX_DECISIONS};
pub use report::{tally, ArenaReport, BotStats};
pub use sequence_common::GameKind;

use crate::bot::BotGame;
use crate::config::SearchConfig;
use crate::games::{with_game, ForGame};
use crate::spec::{bot_from, parse_spec, BotError, BotSpec};
use rayon::prelude::*;
use sequence_common::TableConfig;
use std::time::Duration;

/// An arena run's settings.
#[derive(Debug, Clone)]
pub struct ArenaConfig {
    /// The game.
    pub game: GameKind,
    /// Bot names (see [`crate::parse_spec`]), at least one.
    pub bots: Vec<String>,
    /// Games to play.
    pub games: u32,
    /// Seed: game `g` is dealt from `mix(seed, g)` and bots are seeded from
    /// it too, so iteration-budget runs repeat exactly.
    pub seed: u64,
    /// Players per game.
    pub players: u8,
    /// Teams (classic only; `None` = C3 default).
    pub teams: Option<u8>,
    /// Time limit per move of `cmd:` bots.
    pub move_time: Duration,
    /// Games played at once (jobs of a thread pool of this size).
    pub jobs: usize,
    /// Duplicate games: each deal is played once per seating, the bots'
    /// sides rotated (as many games as sides); `games` is rounded up to
    /// whole sets ([`duplicate`]).
    pub duplicate: bool,
}

/// Errors of an arena run.
#[derive(Debug, thiserror::Error)]
pub enum ArenaError {
    /// A bot name could not be built.
    #[error(transparent)]
    Bot(#[from] BotError),
    /// Bad settings.
    #[error("{0}")]
    Settings(String),
}

/// Most games one run plays (every result is kept for the CSV and the
/// tally).
pub const MAX_GAMES: u32 = 10_000_000;

/// The bot (index into the arena's list) at each of `sides` sides in game
/// `g` of a run with `bots` bots. With no more bots than sides every bot
/// plays every game, rotated one side per game (a bot holds several sides
/// when there are fewer bots). With more bots than sides the games cycle
/// through every ordered choice of distinct bots, so every pair meets, in
/// every seat order, as often as every other.
pub fn seating(bots: usize, sides: usize, g: u32) -> Vec<usize> {
    if bots <= sides {
        return (0..sides).map(|u| (u + g as usize) % bots.max(1)).collect();
    }
    let total = (0..sides).fold(1u64, |t, u| t.saturating_mul((bots - u) as u64));
    let mut idx = g as u64 % total;
    let mut pool: Vec<usize> = (0..bots).collect();
    (0..sides)
        .map(|u| {
            let k = (idx % (bots - u) as u64) as usize;
            idx /= (bots - u) as u64;
            pool.remove(k)
        })
        .collect()
}

/// What an arena run tells while it plays (a progress bar, log lines).
/// Called from the jobs' threads.
pub trait ArenaProgress: Sync {
    /// The run starts: `total` games (whole deals with duplicate games),
    /// `jobs` at a time.
    fn started(&self, _total: u32, _jobs: usize) {}

    /// A game ended (in any order; [`GameResult::index`] tells which).
    fn finished(&self, _game: &GameResult) {}
}

/// Tells nothing.
pub struct Silent;

impl ArenaProgress for Silent {}

/// Runs the arena silently (see [`run_with`]).
///
/// # Errors
/// As [`run_with`].
pub fn run(cfg: &ArenaConfig) -> Result<ArenaReport, ArenaError> {
    run_with(cfg, &Silent)
}

/// Runs the arena, telling `progress` of every game that ends.
///
/// # Errors
/// [`ArenaError`] for an unknown bot name or settings that do not make a
/// table (player count, teams). A bot failing during a game does not stop
/// the run: that game is lost by it.
pub fn run_with(
    cfg: &ArenaConfig,
    progress: &dyn ArenaProgress,
) -> Result<ArenaReport, ArenaError> {
    /// [`run_game`] of the game the arena plays.
    struct Run<'a>(&'a ArenaConfig, &'a dyn ArenaProgress);
    impl ForGame for Run<'_> {
        type Out = Result<ArenaReport, ArenaError>;
        fn call<G: BotGame>(self) -> Self::Out {
            run_game::<G>(self.0, self.1)
        }
    }
    with_game(cfg.game, Run(cfg, progress))
}

/// [`run_with`] for the game `G`.
fn run_game<G: BotGame>(
    cfg: &ArenaConfig,
    progress: &dyn ArenaProgress,
) -> Result<ArenaReport, ArenaError> {
    if cfg.bots.is_empty() {
        return Err(ArenaError::Settings("no bots given".into()));
    }
    let specs: Vec<BotSpec> = cfg
        .bots
        .iter()
        .map(|b| {
            parse_spec(b).map(|s| match s {
                BotSpec::Command { command, .. } => BotSpec::Command {
                    command,
                    move_time: cfg.move_time,
                },
                s => s,
            })
        })
        .collect::<Result<_, _>>()?;
    let table = G::table(cfg.players, cfg.teams, G::Options::default())
        .map_err(|e| ArenaError::Settings(e.to_string()))?;
    let sides = table.sides() as usize;
    // Build every bot once up front so a bad program is reported before
    // the run starts.
    for (name, spec) in cfg.bots.iter().zip(&specs) {
        if let BotSpec::Command { .. } = spec {
            drop(bot_from::<G>(
                name,
                spec.clone(),
                0,
                &SearchConfig::default(),
            )?);
        }
    }
    if cfg.games > MAX_GAMES {
        return Err(ArenaError::Settings(format!(
            "{} games: at most {MAX_GAMES} in one run",
            cfg.games
        )));
    }
    // With duplicate games a deal is played once per seating.
    let seatings = if cfg.duplicate { sides } else { 1 };
    let total = cfg.games.div_ceil(seatings as u32) * seatings as u32;
    let jobs = cfg.jobs.max(1).min(total.max(1) as usize);
    progress.started(total, jobs);
    let play = |g: u32| {
        let deal = g / seatings as u32;
        let base = seating(specs.len(), sides, deal);
        // The r-th seating of a deal: the sides rotated by r.
        let r = (g % seatings as u32) as usize;
        let assign: Vec<usize> = (0..sides).map(|u| base[(u + r) % sides]).collect();
        let result = game::play_game::<G>((cfg.seed, &cfg.bots), &table, &specs, &assign, g, deal);
        progress.finished(&result);
        result
    };
    // Each game on its own job; the results are kept in game order.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .thread_name(|i| format!("arena-{i}"))
        .build()
        .map_err(|e| ArenaError::Settings(format!("cannot start {jobs} jobs: {e}")))?;
    let games: Vec<GameResult> = pool.install(|| (0..total).into_par_iter().map(play).collect());
    let bots = tally(&cfg.bots, &games);
    let duplicate = cfg
        .duplicate
        .then(|| (seatings, duplicate::stats(&cfg.bots, &games)));
    Ok(ArenaReport {
        games,
        bots,
        duplicate,
    })
}
