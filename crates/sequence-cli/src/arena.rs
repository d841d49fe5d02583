//! `sequence arena`: bots play each other ([`sequence_bots::arena`]);
//! results as a table or JSON, `arena.csv` and the chart `arena.svg`,
//! with a progress bar (or progress lines without a terminal) on stderr.

use crate::BadInput;
use anyhow::Context;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use sequence_bots::arena::{self, ArenaConfig, ArenaProgress, ArenaReport, GameResult};
use sequence_bots::{with_game, BotGame, ForGame};
use sequence_common::GameKind;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// `sequence arena`: bots play each other; results as a table (or JSON),
/// `arena.csv` and an SVG chart `arena.svg`.
#[derive(Debug, Args)]
pub struct ArenaArgs {
    /// Game: `classic` or `stacks`.
    #[arg(long, default_value = "classic")]
    pub game: String,
    /// Comma-separated bot names, e.g. `random,greedy,search:200ms`,
    /// `search:5000it`, `level:3`, `cmd:python3 examples/bot.py` (`ismcts:…`
    /// is the old name of `search:…` and still read).
    #[arg(long)]
    pub bots: String,
    /// Number of games.
    #[arg(long, default_value_t = 100)]
    pub games: u32,
    /// Seed (ChaCha8) of the deals and the bots; runs repeat exactly when
    /// budgets are in iterations.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Players per game (default: the number of bots, at least 2).
    #[arg(long)]
    pub players: Option<u8>,
    /// Teams (classic; default per C3).
    #[arg(long)]
    pub teams: Option<u8>,
    /// Output format: `table` or `json`.
    #[arg(long, default_value = "table")]
    pub format: String,
    /// Folder for `arena.csv` and `arena.svg`.
    #[arg(long, default_value = ".")]
    pub out: PathBuf,
    /// Games played at once (useful for fast bots; search already uses
    /// every core).
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Time limit per move for `cmd:` bots, in milliseconds.
    #[arg(long, default_value_t = 5000)]
    pub move_time: u64,
    /// Duplicate games: each deal played once per seating, the bots' sides
    /// rotated, so the luck of the cards cancels; intervals over deals
    /// (`--games` rounded up to whole sets).
    #[arg(long)]
    pub duplicate: bool,
}

/// Returns a [`BadInput`] (exit code 2) with the message formatted as by
/// `format!`.
macro_rules! bad {
    ($($t:tt)*) => {
        return Err(BadInput(format!($($t)*)).into())
    };
}

/// A table of the game it is called for: players and teams under the
/// official rules, as the engine checks it ([`sequence_common::Rules::table`]).
struct Table(u8, Option<u8>);

impl ForGame for Table {
    type Out = Result<(), String>;
    fn call<G: BotGame>(self) -> Self::Out {
        G::table(self.0, self.1, G::Options::default())
            .map(drop)
            .map_err(|e| crate::games::table_refusal(&e, self.1))
    }
}

/// Runs `sequence arena`.
///
/// # Errors
/// Unknown game or bot names, a table the rules do not allow, or files
/// that cannot be written.
pub fn run_arena(args: ArenaArgs) -> anyhow::Result<()> {
    let game: GameKind = match args.game.parse() {
        Ok(g) => g,
        Err(e) => bad!("--game: {e}"),
    };
    let json_out = match args.format.as_str() {
        "table" => false,
        "json" => true,
        f => bad!("unknown format {f:?} (table or json)"),
    };
    let bots: Vec<String> = args.bots.split(',').map(|s| s.trim().to_string()).collect();
    if bots.iter().any(|b| b.is_empty()) {
        bad!(
            "--bots: an empty name in {:?} (names are separated by single commas)",
            args.bots
        );
    }
    if bots.len() < 2 {
        bad!("--bots: give at least two bot names to compare, e.g. --bots greedy,random (a bot is tallied as one row: against itself it would win every game)");
    }
    // Names are case-insensitive, but not the command of a cmd: bot.
    let key = |b: &str| {
        if b.starts_with("cmd:") {
            b.to_string()
        } else {
            b.to_ascii_lowercase()
        }
    };
    for (i, b) in bots.iter().enumerate() {
        if bots[..i].iter().any(|a| key(a) == key(b)) {
            bad!("--bots: {b} is listed twice (a bot's games are tallied under its name); to seat it more than once, use --players");
        }
    }
    if args.games == 0 {
        bad!("--games: play at least one game");
    }
    if args.games > arena::MAX_GAMES {
        bad!("--games: at most {} in one run", arena::MAX_GAMES);
    }
    if args.move_time == 0 {
        bad!("--move-time: give the time in milliseconds, at least 1");
    }
    if args.jobs == 0 {
        bad!("--jobs: play at least one game at a time");
    }
    let players = args.players.unwrap_or(bots.len().max(2) as u8);
    // The engine refuses a table the rules do not allow (C3; S1: Stacks
    // has no teams) before the output folder is made.
    if let Err(e) = with_game(game, Table(players, args.teams)) {
        bad!("{e}");
    }
    let cfg = ArenaConfig {
        game,
        bots: bots.clone(),
        games: args.games,
        seed: args.seed,
        players,
        teams: args.teams,
        move_time: Duration::from_millis(args.move_time.max(1)),
        jobs: args.jobs.max(1),
        duplicate: args.duplicate,
    };
    tracing::info!(?cfg, "arena");
    // The output folder must be writable before hours of games are played.
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(args.out.join("arena.csv"))
        .with_context(|| format!("cannot write in {}", args.out.display()))?;
    let progress = Progress::new(&cfg.bots);
    let report = arena::run_with(&cfg, &progress).map_err(|e| BadInput(e.to_string()))?;
    progress.finish();
    write_csv(&report, &args.out).context("writing arena.csv")?;
    // Duplicate runs play whole deals: the games played, not asked for.
    let title = format!(
        "{} · {} players · {} games · seed {}",
        args.game,
        players,
        report.games.len(),
        args.seed
    );
    write_svg(&report, &args.out, &title).context("writing arena.svg")?;
    if json_out {
        println!("{}", report.to_json());
    } else {
        println!("{title}");
        print!("{}", report.table());
        println!(
            "wrote {} and {}",
            args.out.join("arena.csv").display(),
            args.out.join("arena.svg").display()
        );
    }
    Ok(())
}

/// The arena's progress on stderr: a bar on a terminal; otherwise lines
/// for the first and last game and at most one every [`PROGRESS_EVERY`],
/// so a long run is seen working. A game lost by a failing bot is always
/// told.
struct Progress<'a> {
    names: &'a [String],
    bar: ProgressBar,
    /// Whether progress goes out as lines (no terminal).
    lines: bool,
    started: Instant,
    total: Mutex<u32>,
    /// Games finished, and when the last line was written.
    done: Mutex<(u32, Option<Instant>)>,
}

impl<'a> Progress<'a> {
    fn new(names: &'a [String]) -> Progress<'a> {
        let bar = ProgressBar::new(0);
        bar.set_style(
            ProgressStyle::with_template(
                "{spinner} [{elapsed_precise}] {bar:40} {pos}/{len} games (eta {eta}) {msg}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        let lines = bar.is_hidden();
        Progress {
            names,
            bar,
            lines,
            started: Instant::now(),
            total: Mutex::new(0),
            done: Mutex::new((0, None)),
        }
    }

    fn finish(&self) {
        self.bar.finish_and_clear();
    }

    /// One game's outcome in words, e.g. `level:5 won in 80 moves`.
    fn summary(&self, r: &GameResult) -> String {
        let outcome = match r.winner {
            Some(side) => match r.sides.get(side).and_then(|&b| self.names.get(b)) {
                Some(name) => format!("{name} won"),
                None => format!("side {side} won"),
            },
            None => "drawn".to_string(),
        };
        format!("{outcome} in {} moves", r.moves)
    }
}

impl ArenaProgress for Progress<'_> {
    fn started(&self, total: u32, jobs: usize) {
        self.bar.set_length(u64::from(total));
        if let Ok(mut t) = self.total.lock() {
            *t = total;
        }
        if self.lines {
            eprintln!(
                "arena: {} game{} to play, {} at a time",
                total,
                if total == 1 { "" } else { "s" },
                jobs
            );
        }
    }

    fn finished(&self, r: &GameResult) {
        if let Some((side, why)) = &r.failure {
            let bot = r
                .sides
                .get(*side)
                .and_then(|&b| self.names.get(b))
                .map_or("?", |n| n.as_str());
            let line = format!("game {}: {bot} (side {side}) lost: {why}", r.index + 1);
            // Without a terminal the bar is hidden and would drop it.
            if self.bar.is_hidden() {
                eprintln!("{line}");
            } else {
                self.bar.println(line);
            }
        }
        if self.lines {
            let total = self.total.lock().map_or(0, |t| *t);
            if let Ok(mut d) = self.done.lock() {
                d.0 += 1;
                let (n, last) = *d;
                if progress_line_due(n, total, last.map(|t| t.elapsed())) {
                    d.1 = Some(Instant::now());
                    eprintln!(
                        "game {} done ({n}/{total} after {:.1} s): {}",
                        r.index + 1,
                        self.started.elapsed().as_secs_f64(),
                        self.summary(r)
                    );
                }
            }
        }
        self.bar.inc(1);
    }
}

/// Whether the `n`th finished game of `total` gets a progress line when
/// stderr is not a terminal: the first and the last, and any game finished
/// [`PROGRESS_EVERY`] or more after the last line (`since_last`).
fn progress_line_due(n: u32, total: u32, since_last: Option<Duration>) -> bool {
    n <= 1 || n >= total || since_last.is_none_or(|t| t >= PROGRESS_EVERY)
}

/// Least time between two progress lines (stderr not a terminal).
const PROGRESS_EVERY: Duration = Duration::from_secs(2);

/// Writes `arena.csv` (one row per bot) into `dir`.
///
/// # Errors
/// I/O errors.
fn write_csv(report: &ArenaReport, dir: &Path) -> anyhow::Result<()> {
    let mut w = csv::Writer::from_path(dir.join("arena.csv"))?;
    w.write_record([
        "bot", "games", "wins", "draws", "losses", "failures", "win_rate", "ci_low", "ci_high",
        "elo",
    ])?;
    for b in &report.bots {
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
fn write_svg(report: &ArenaReport, dir: &Path, title: &str) -> anyhow::Result<()> {
    use plotters::prelude::*;
    let bots = &report.bots;
    let path = dir.join("arena.svg");
    let n = bots.len();
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
    let names: Vec<String> = bots
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
        .draw_series(bots.iter().enumerate().map(|(i, b)| {
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
        .draw_series(bots.iter().enumerate().map(|(i, b)| {
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

    /// `arena.csv` has a header and a row per bot; `arena.svg` names them.
    #[test]
    fn the_arena_writes_its_csv_and_chart() {
        let cfg = ArenaConfig {
            game: GameKind::Classic,
            bots: vec!["random".into(), "greedy".into()],
            games: 12,
            seed: 9,
            players: 2,
            teams: None,
            move_time: Duration::from_secs(10),
            jobs: 2,
            duplicate: false,
        };
        let report = arena::run(&cfg).expect("arena");
        let dir = std::env::temp_dir().join(format!("bots-arena-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        write_csv(&report, &dir).unwrap();
        write_svg(&report, &dir, "test").unwrap();
        let csv = std::fs::read_to_string(dir.join("arena.csv")).unwrap();
        assert!(csv.starts_with("bot,games,wins,draws,losses"));
        assert_eq!(csv.lines().count(), 3);
        let svg = std::fs::read_to_string(dir.join("arena.svg")).unwrap();
        assert!(svg.contains("<svg") && svg.contains("greedy"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
