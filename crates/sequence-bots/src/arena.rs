//! The arena: bots play each other with seats rotated; results with 95 %
//! confidence intervals and Elo ratings, as a table, JSON, CSV and an SVG
//! chart.
//!
//! Seating: a game has *sides* — teams in classic Sequence (C3), seats in
//! Sequence Stacks. In game `g` side `u` is played by bot `(u + g) mod n`
//! (every seat of a team by the same bot), so with two bots at two sides
//! the seats alternate every game. Each bot instance sees only its seat's
//! view.

use crate::{parse_spec, Bot, BotError, BotFailure, BotGame, SearchConfig, Spec};
use indicatif::{ProgressBar, ProgressStyle};
use sequence_common::record::Match;
pub use sequence_common::GameKind;
use sequence_common::{Seat, TableConfig};
use serde::Serialize;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

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
    /// Games played at once (each on its own thread).
    pub jobs: usize,
    /// Show a progress bar on stderr.
    pub progress: bool,
    /// Duplicate games: each deal is played once per seating, the bots'
    /// sides rotated (as many games as sides); `games` is rounded up to
    /// whole sets ([`crate::duplicate`]).
    pub duplicate: bool,
}

/// How one game ended.
#[derive(Debug, Clone, PartialEq)]
pub struct GameResult {
    /// Game number (0-based).
    pub index: u32,
    /// The deal it was dealt from: the game number, or with duplicate
    /// games the set of games sharing one deal.
    pub deal: u32,
    /// The bot (index into the arena's list) playing each side.
    pub sides: Vec<usize>,
    /// The winning side, `None` for a draw.
    pub winner: Option<usize>,
    /// Decisions played.
    pub moves: u32,
    /// A bot that failed (crash, timeout, illegal move): `(side, reason)`.
    /// Its side lost.
    pub failure: Option<(usize, String)>,
}

/// One bot's totals.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct BotStats {
    /// The bot's name.
    pub name: String,
    /// Games it took part in.
    pub games: u32,
    /// Wins.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses.
    pub losses: u32,
    /// Games lost by failing (crash, timeout, illegal move).
    pub failures: u32,
    /// Elo rating (mean of all bots = 1500).
    pub elo: f64,
}

impl BotStats {
    /// Wins / games.
    pub fn win_rate(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.wins as f64 / self.games as f64
        }
    }

    /// Wilson 95 % interval of the win rate.
    pub fn win_ci(&self) -> (f64, f64) {
        wilson(self.wins as f64, self.games as f64)
    }
}

/// The Wilson score interval (95 %) of `k` successes in `n` trials.
pub fn wilson(k: f64, n: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let z = 1.959_964;
    let p = k / n;
    let d = 1.0 + z * z / n;
    let c = (p + z * z / (2.0 * n)) / d;
    let h = z * ((p * (1.0 - p) + z * z / (4.0 * n)) / n).sqrt() / d;
    ((c - h).max(0.0), (c + h).min(1.0))
}

/// An arena run's results.
#[derive(Debug, Clone)]
pub struct ArenaReport {
    /// Per game.
    pub games: Vec<GameResult>,
    /// Per bot, in the order given.
    pub bots: Vec<BotStats>,
    /// With duplicate games: seatings per deal and the statistics over
    /// deals.
    pub duplicate: Option<(usize, Vec<crate::duplicate::DuplicateStats>)>,
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

fn game_seed(seed: u64, g: u32) -> u64 {
    crate::mix(seed ^ crate::mix(0xA12E_4A00 + g as u64))
}

fn bot_seed(seed: u64, g: u32, seat: u8) -> u64 {
    crate::mix(game_seed(seed, g) ^ crate::mix(1000 + seat as u64))
}

/// Most decisions in one game before it is called a draw (a guard; real
/// games end long before).
pub const MAX_DECISIONS: u32 = 20_000;

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

/// Runs the arena.
///
/// # Errors
/// [`ArenaError`] for an unknown bot name or settings that do not make a
/// table (player count, teams). A bot failing during a game does not stop
/// the run: that game is lost by it.
pub fn run(cfg: &ArenaConfig) -> Result<ArenaReport, ArenaError> {
    match cfg.game {
        GameKind::Classic => run_game::<sequence_classic::Game>(cfg),
        GameKind::Stacks => run_game::<sequence_stacks::Game>(cfg),
    }
}

/// [`run`] for the game `G`.
fn run_game<G: BotGame>(cfg: &ArenaConfig) -> Result<ArenaReport, ArenaError> {
    if cfg.bots.is_empty() {
        return Err(ArenaError::Settings("no bots given".into()));
    }
    let specs: Vec<Spec> = cfg
        .bots
        .iter()
        .map(|b| {
            parse_spec(b).map(|s| match s {
                Spec::Command { command, .. } => Spec::Command {
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
        if let Spec::Command { .. } = spec {
            drop(crate::bot_from::<G>(
                name,
                spec.clone(),
                0,
                &SearchConfig::default(),
            )?);
        }
    }
    let pb = if cfg.progress {
        let pb = ProgressBar::new(cfg.games as u64);
        pb.set_style(
            ProgressStyle::with_template(
                "{spinner} [{elapsed_precise}] {bar:40} {pos}/{len} games (eta {eta}) {msg}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        pb
    } else {
        ProgressBar::hidden()
    };
    let next = AtomicUsize::new(0);
    if cfg.games > MAX_GAMES {
        return Err(ArenaError::Settings(format!(
            "{} games: at most {MAX_GAMES} in one run",
            cfg.games
        )));
    }
    // With duplicate games a deal is played once per seating.
    let seatings = if cfg.duplicate { sides } else { 1 };
    let total = cfg.games.div_ceil(seatings as u32) * seatings as u32;
    if total != cfg.games {
        pb.set_length(total as u64);
    }
    let results: Mutex<Vec<Option<GameResult>>> = Mutex::new(vec![None; total as usize]);
    let jobs = cfg.jobs.max(1).min(total.max(1) as usize);
    // Without a terminal the bar is hidden: progress goes to stderr as
    // lines instead, so a long run is seen working.
    let lines = cfg.progress && pb.is_hidden();
    let started = Instant::now();
    let done = Mutex::new((0u32, None::<Instant>));
    if lines {
        eprintln!(
            "arena: {} game{} to play, {} at a time",
            total,
            if total == 1 { "" } else { "s" },
            jobs
        );
    }
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| loop {
                let g = next.fetch_add(1, Ordering::Relaxed);
                if g >= total as usize {
                    break;
                }
                let g = g as u32;
                let deal = g / seatings as u32;
                let base = seating(specs.len(), sides, deal);
                // The r-th seating of a deal: the sides rotated by r.
                let r = (g % seatings as u32) as usize;
                let assign: Vec<usize> = (0..sides).map(|u| base[(u + r) % sides]).collect();
                let r = play_game::<G>(cfg, &table, &specs, &assign, g, deal);
                if let Some((side, why)) = &r.failure {
                    let line = format!(
                        "game {}: {} (side {side}) lost: {why}",
                        g + 1,
                        cfg.bots[assign[*side]]
                    );
                    // Without a terminal the bar is hidden and would drop it.
                    if pb.is_hidden() {
                        eprintln!("{line}");
                    } else {
                        pb.println(line);
                    }
                }
                if lines {
                    if let Ok(mut d) = done.lock() {
                        d.0 += 1;
                        let (n, last) = *d;
                        if progress_line_due(n, total, last.map(|t| t.elapsed())) {
                            d.1 = Some(Instant::now());
                            eprintln!(
                                "game {} done ({n}/{} after {:.1} s): {}",
                                g + 1,
                                total,
                                started.elapsed().as_secs_f64(),
                                game_summary(cfg, &r)
                            );
                        }
                    }
                }
                if let Ok(mut v) = results.lock() {
                    v[g as usize] = Some(r);
                }
                pb.inc(1);
            });
        }
    });
    pb.finish_and_clear();
    let games: Vec<GameResult> = results
        .into_inner()
        .unwrap_or_default()
        .into_iter()
        .flatten()
        .collect();
    let bots = tally(&cfg.bots, &games);
    let duplicate = cfg
        .duplicate
        .then(|| (seatings, crate::duplicate::stats(&cfg.bots, &games)));
    Ok(ArenaReport {
        games,
        bots,
        duplicate,
    })
}

/// Whether the `n`th finished game of `total` gets a progress line when
/// stderr is not a terminal: the first and the last, and any game finished
/// [`PROGRESS_EVERY`] or more after the last line (`since_last`).
pub fn progress_line_due(n: u32, total: u32, since_last: Option<Duration>) -> bool {
    n <= 1 || n >= total || since_last.is_none_or(|t| t >= PROGRESS_EVERY)
}

/// Least time between two progress lines (stderr not a terminal).
pub const PROGRESS_EVERY: Duration = Duration::from_secs(2);

/// One game's outcome in words, e.g. `level:5 won in 80 moves`.
fn game_summary(cfg: &ArenaConfig, r: &GameResult) -> String {
    let outcome = match r.winner {
        Some(side) => match r.sides.get(side).and_then(|&b| cfg.bots.get(b)) {
            Some(name) => format!("{name} won"),
            None => format!("side {side} won"),
        },
        None => "drawn".to_string(),
    };
    format!("{outcome} in {} moves", r.moves)
}

fn failure_result(
    index: u32,
    deal: u32,
    sides: &[usize],
    side: usize,
    why: String,
    moves: u32,
) -> GameResult {
    // The failing side loses: with two sides the other wins, otherwise the
    // game is scored as a draw among the others.
    let winner = if sides.len() == 2 {
        Some(1 - side)
    } else {
        None
    };
    GameResult {
        index,
        deal,
        sides: sides.to_vec(),
        winner,
        moves,
        failure: Some((side, why)),
    }
}

/// Plays game `g` of a run: the table dealt from the seed of deal `deal`,
/// every seat's bot built from the spec of its side's bot (`assign`) and
/// seeded for that seat and game. A bot that fails (or answers an illegal
/// move) loses the game for its side.
fn play_game<G: BotGame>(
    cfg: &ArenaConfig,
    table: &G::Config,
    specs: &[Spec],
    assign: &[usize],
    g: u32,
    deal: u32,
) -> GameResult {
    let mut m = Match::<G>::new(table.clone(), game_seed(cfg.seed, deal));
    let players = table.players();
    let mut bots: Vec<Box<dyn Bot<G>>> = Vec::new();
    for s in 0..players {
        let side = m.game().side_of(Seat(s)) as usize;
        let b = assign[side];
        match crate::bot_from::<G>(
            &cfg.bots[b],
            specs[b].clone(),
            bot_seed(cfg.seed, g, s),
            &SearchConfig::default(),
        ) {
            Ok(bot) => bots.push(bot),
            Err(e) => {
                return failure_result(
                    g,
                    deal,
                    assign,
                    side,
                    BotFailure::Crashed(e.to_string()).to_string(),
                    0,
                )
            }
        }
    }
    let mut moves = 0;
    let mut failure = None;
    while moves < MAX_DECISIONS {
        let Some(seat) = m.to_act() else { break };
        let side = m.game().side_of(seat) as usize;
        let view = m.view(seat);
        let mv = match bots[seat.index()].try_choose(&view) {
            Ok(mv) => mv,
            Err(e) => {
                failure = Some((side, e.to_string()));
                break;
            }
        };
        if let Err(e) = m.play(seat, mv) {
            failure = Some((side, BotFailure::Illegal(e.to_string()).to_string()));
            break;
        }
        moves += 1;
    }
    for s in 0..players {
        let view = m.view(Seat(s));
        bots[s as usize].game_over(&view);
    }
    if let Some((side, why)) = failure {
        return failure_result(g, deal, assign, side, why, moves);
    }
    GameResult {
        index: g,
        deal,
        sides: assign.to_vec(),
        winner: m.game().outcome().winner().map(usize::from),
        moves,
        failure: None,
    }
}

/// Totals per bot and Elo ratings from game results.
pub fn tally(names: &[String], games: &[GameResult]) -> Vec<BotStats> {
    let n = names.len();
    let mut stats: Vec<BotStats> = names
        .iter()
        .map(|name| BotStats {
            name: name.clone(),
            games: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            failures: 0,
            elo: 1500.0,
        })
        .collect();
    // Pairwise scores for Elo: score[a][b] = points of a against b.
    let mut score = vec![vec![0.0f64; n]; n];
    let mut count = vec![vec![0.0f64; n]; n];
    for r in games {
        let mut present: Vec<usize> = r.sides.clone();
        present.sort_unstable();
        present.dedup();
        let winner_bot = r.winner.map(|u| r.sides[u]);
        for &b in &present {
            let s = &mut stats[b];
            s.games += 1;
            match winner_bot {
                Some(w) if w == b => s.wins += 1,
                Some(_) => s.losses += 1,
                None => {
                    if r.failure
                        .as_ref()
                        .is_some_and(|(side, _)| r.sides[*side] == b)
                    {
                        s.losses += 1
                    } else {
                        s.draws += 1
                    }
                }
            }
        }
        if let Some((side, _)) = &r.failure {
            stats[r.sides[*side]].failures += 1;
        }
        for &a in &present {
            for &b in &present {
                if a == b {
                    continue;
                }
                let failed = r.failure.as_ref().map(|(side, _)| r.sides[*side]);
                let pts = match (winner_bot, failed) {
                    (Some(w), _) if w == a => 1.0,
                    (Some(w), _) if w == b => 0.0,
                    // With 3 sides or more a failure leaves no winner: the
                    // failing bot loses to every other.
                    (None, Some(f)) if f == a => 0.0,
                    (None, Some(f)) if f == b => 1.0,
                    _ => 0.5,
                };
                score[a][b] += pts;
                count[a][b] += 1.0;
            }
        }
    }
    for (b, e) in elo(&score, &count).into_iter().enumerate() {
        stats[b].elo = e;
    }
    stats
}

/// Bradley–Terry (Elo) ratings by minorization–maximization from pairwise
/// points and game counts; one virtual draw per pair keeps ratings finite.
/// Mean rating 1500.
pub fn elo(score: &[Vec<f64>], count: &[Vec<f64>]) -> Vec<f64> {
    let n = score.len();
    let mut gamma = vec![1.0f64; n];
    for _ in 0..500 {
        let mut next = gamma.clone();
        for i in 0..n {
            let mut w = 0.0;
            let mut d = 0.0;
            for j in 0..n {
                if i == j || count[i][j] == 0.0 {
                    continue;
                }
                w += score[i][j] + 0.5;
                d += (count[i][j] + 1.0) / (gamma[i] + gamma[j]);
            }
            if d > 0.0 {
                next[i] = w / d;
            }
        }
        // Normalise the geometric mean to 1.
        let lg: f64 = next.iter().map(|g| g.ln()).sum::<f64>() / n as f64;
        for g in next.iter_mut() {
            *g = (g.ln() - lg).exp();
        }
        let delta: f64 = next.iter().zip(&gamma).map(|(a, b)| (a - b).abs()).sum();
        gamma = next;
        if delta < 1e-10 {
            break;
        }
    }
    gamma.iter().map(|g| 1500.0 + 400.0 * g.log10()).collect()
}

impl ArenaReport {
    /// `{"games": N, "bots": [{"name", "games", "wins", "draws", "losses",
    /// "elo"}]}`; a bot's `games` are those it took part in (fewer than `N`
    /// when there are more bots than sides).
    pub fn to_json(&self) -> serde_json::Value {
        let mut v = serde_json::json!({
            "games": self.games.len(),
            "bots": self.bots.iter().map(|b| serde_json::json!({
                "name": b.name,
                "games": b.games,
                "wins": b.wins,
                "draws": b.draws,
                "losses": b.losses,
                "elo": (b.elo * 10.0).round() / 10.0,
            })).collect::<Vec<_>>(),
        });
        if let Some((seatings, stats)) = &self.duplicate {
            let r3 = |x: f64| (x * 1000.0).round() / 1000.0;
            v["duplicate"] = serde_json::json!({
                "seatings": seatings,
                "bots": stats.iter().map(|b| serde_json::json!({
                    "name": b.name,
                    "deals": b.deals,
                    "score": r3(b.score),
                    "ci": [r3(b.ci.0), r3(b.ci.1)],
                    "plain_game_ci": [r3(b.naive_ci.0), r3(b.naive_ci.1)],
                    "narrowing": (b.narrowing * 100.0).round() / 100.0,
                    "elo": b.elo.round(),
                    "elo_ci": [b.elo_ci.0.round(), b.elo_ci.1.round()],
                })).collect::<Vec<_>>(),
            });
        }
        v
    }

    /// The results as a text table.
    pub fn table(&self) -> String {
        let w = self
            .bots
            .iter()
            .map(|b| b.name.chars().count())
            .max()
            .unwrap_or(3)
            .max(3);
        let mut s = format!(
            "{:<w$}  {:>5}  {:>5}  {:>5}  {:>6}  {:>6}  {:>15}  {:>6}\n",
            "bot", "games", "wins", "draws", "losses", "win %", "95% CI", "Elo"
        );
        for b in &self.bots {
            let (lo, hi) = b.win_ci();
            s += &format!(
                "{:<w$}  {:>5}  {:>5}  {:>5}  {:>6}  {:>6.1}  {:>15}  {:>6.0}\n",
                b.name,
                b.games,
                b.wins,
                b.draws,
                b.losses,
                100.0 * b.win_rate(),
                format!("{:.1}–{:.1}", 100.0 * lo, 100.0 * hi),
                b.elo
            );
        }
        let failures: u32 = self.bots.iter().map(|b| b.failures).sum();
        if failures > 0 {
            s += &format!(
                "{failures} game(s) lost by a bot failing (crash, timeout or illegal move)\n"
            );
        }
        if let Some((seatings, stats)) = &self.duplicate {
            s += &crate::duplicate::table(stats, *seatings);
        }
        s
    }

    /// Writes `arena.csv` (one row per bot) into `dir`.
    ///
    /// # Errors
    /// I/O errors.
    pub fn write_csv(&self, dir: &Path) -> anyhow::Result<()> {
        let mut w = csv::Writer::from_path(dir.join("arena.csv"))?;
        w.write_record([
            "bot", "games", "wins", "draws", "losses", "failures", "win_rate", "ci_low", "ci_high",
            "elo",
        ])?;
        for b in &self.bots {
            let (lo, hi) = b.win_ci();
            w.write_record([
                b.name.clone(),
                b.games.to_string(),
                b.wins.to_string(),
                b.draws.to_string(),
                b.losses.to_string(),
                b.failures.to_string(),
                format!("{:.4}", b.win_rate()),
                format!("{lo:.4}"),
                format!("{hi:.4}"),
                format!("{:.1}", b.elo),
            ])?;
        }
        w.flush()?;
        Ok(())
    }

    /// Writes `arena.svg`: win rate per bot with its 95 % interval.
    ///
    /// # Errors
    /// I/O or drawing errors.
    pub fn write_svg(&self, dir: &Path, title: &str) -> anyhow::Result<()> {
        use plotters::prelude::*;
        let path = dir.join("arena.svg");
        let n = self.bots.len();
        let root = SVGBackend::new(&path, (160 + 140 * n as u32, 420)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| anyhow::anyhow!("{e}"))?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 18))
            .margin(16)
            .x_label_area_size(40)
            .y_label_area_size(50)
            // A segmented 0..k has k + 1 slots: one per bot.
            .build_cartesian_2d((0..n.saturating_sub(1)).into_segmented(), 0.0..100.0)
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        // Long names (cmd: command lines) would run into their neighbours.
        let names: Vec<String> = self
            .bots
            .iter()
            .map(|b| {
                if b.name.chars().count() > 20 {
                    let head: String = b.name.chars().take(19).collect();
                    format!("{head}…")
                } else {
                    b.name.clone()
                }
            })
            .collect();
        chart
            .configure_mesh()
            .disable_x_mesh()
            .y_desc("win % (95% CI)")
            .x_labels(n)
            .x_label_formatter(&|x| match x {
                SegmentValue::CenterOf(i) => names.get(*i).cloned().unwrap_or_default(),
                _ => String::new(),
            })
            .draw()
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        chart
            .draw_series(self.bots.iter().enumerate().map(|(i, b)| {
                let mut bar = Rectangle::new(
                    [
                        (SegmentValue::Exact(i), 0.0),
                        (SegmentValue::Exact(i + 1), 100.0 * b.win_rate()),
                    ],
                    Palette99::pick(i).mix(0.7).filled(),
                );
                bar.set_margin(0, 0, 20, 20);
                bar
            }))
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        chart
            .draw_series(self.bots.iter().enumerate().map(|(i, b)| {
                let (lo, hi) = b.win_ci();
                ErrorBar::new_vertical(
                    SegmentValue::CenterOf(i),
                    100.0 * lo,
                    100.0 * b.win_rate(),
                    100.0 * hi,
                    BLACK.stroke_width(2),
                    12,
                )
            }))
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        root.present().map_err(|e| anyhow::anyhow!("{e}"))?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_lines_for_the_first_last_and_slow_games() {
        assert!(progress_line_due(1, 100, None));
        assert!(progress_line_due(100, 100, Some(Duration::ZERO)));
        assert!(!progress_line_due(2, 100, Some(Duration::from_millis(10))));
        assert!(progress_line_due(2, 100, Some(PROGRESS_EVERY)));
    }
}
