//! Command-line entry points: `sequence arena` and `sequence hint`.

use crate::arena::{self, ArenaConfig};
use crate::{parse_budget, BotGame, Budget, SearchSpec};
use anyhow::{bail, Context};
use clap::Args;
use sequence_common::record::{detect_kind, Record};
use sequence_common::{GameKind, Seat};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::time::Duration;

/// `sequence arena`: bots play each other; results as a table (or JSON),
/// `arena.csv` and an SVG chart `arena.svg`.
#[derive(Debug, Args)]
pub struct ArenaArgs {
    /// Game: `classic` or `stacks`.
    #[arg(long, default_value = "classic")]
    pub game: String,
    /// Comma-separated bot names, e.g. `random,greedy,ismcts:200ms`,
    /// `ismcts:5000it`, `level:3`, `cmd:python3 examples/bot.py`.
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
    /// Games played at once (useful for fast bots; ismcts already uses
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

/// `sequence hint`: best moves for a seat of an unfinished game, with the
/// ismcts bot's estimated chance to win.
#[derive(Debug, Args)]
pub struct HintArgs {
    /// Record of an unfinished game (classic or Stacks).
    pub file: PathBuf,
    /// The seat to advise (it must be its turn, or its decision).
    #[arg(long)]
    pub seat: u8,
    /// Search budget, e.g. `2s`, `500ms`, `20000it`.
    #[arg(long, default_value = "2s")]
    pub budget: String,
    /// How many moves to show.
    #[arg(long, default_value_t = 5)]
    pub top: usize,
    /// Seed of the search.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Returns a [`BadInput`] (exit code 2) with the message formatted as by
/// `format!`.
macro_rules! bad {
    ($($t:tt)*) => {
        return Err(BadInput(format!($($t)*)).into())
    };
}

/// Runs `sequence arena`.
///
/// # Errors
/// Unknown game or bot names, a table the rules do not allow, or files
/// that cannot be written.
pub fn run_arena(args: ArenaArgs) -> anyhow::Result<()> {
    let game = match args.game.as_str() {
        "classic" => GameKind::Classic,
        "stacks" => GameKind::Stacks,
        g => bad!("unknown game {g:?} (classic or stacks)"),
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
    if game == GameKind::Stacks && args.teams.is_some() {
        bad!("--teams: Sequence Stacks has no teams (S1); every player plays alone");
    }
    let players = args.players.unwrap_or(bots.len().max(2) as u8);
    let cfg = ArenaConfig {
        game,
        bots: bots.clone(),
        games: args.games,
        seed: args.seed,
        players,
        teams: args.teams,
        move_time: Duration::from_millis(args.move_time.max(1)),
        jobs: args.jobs.max(1),
        progress: true,
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
    let report = arena::run(&cfg).map_err(|e| BadInput(e.to_string()))?;
    report.write_csv(&args.out).context("writing arena.csv")?;
    // Duplicate runs play whole deals: the games played, not asked for.
    let title = format!(
        "{} · {} players · {} games · seed {}",
        args.game,
        players,
        report.games.len(),
        args.seed
    );
    report
        .write_svg(&args.out, &title)
        .context("writing arena.svg")?;
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

/// An argument or input file that `sequence hint` refuses (exit code 2).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct BadInput(pub String);

/// The exit code of a `sequence hint` error, as `sequence verify` has it:
/// 2 for a bad argument or a file that cannot be read or is not a valid
/// record, 1 for an illegal move in the record, a finished game or a seat
/// that is not to move.
pub fn hint_exit_code(e: &anyhow::Error) -> u8 {
    if e.downcast_ref::<BadInput>().is_some()
        || e.downcast_ref::<sequence_common::record::MalformedRecord>()
            .is_some()
    {
        return 2;
    }
    match e.downcast_ref::<sequence_common::record::ReplayError>() {
        Some(r) => u8::try_from(r.exit_code()).unwrap_or(1),
        None => 1,
    }
}

/// Runs `sequence hint`.
///
/// # Errors
/// An unreadable or malformed record, a bad argument (both
/// [`BadInput`]), an illegal move in the record, a finished game, or a
/// seat that is not to move; [`hint_exit_code`] tells the exit code.
pub fn run_hint(args: HintArgs) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(&args.file)
        .map_err(|e| BadInput(format!("cannot read {}: {e}", args.file.display())))?;
    let budget = parse_budget(&args.budget).map_err(|e| BadInput(format!("--budget: {e}")))?;
    if args.top == 0 {
        return Err(BadInput("--top: show at least one move".into()).into());
    }
    let out = hint(&text, args.seat, budget, args.top, args.seed)
        .with_context(|| args.file.display().to_string())?;
    if args.json {
        println!("{out}");
    } else {
        print!("{}", hint_table(&out));
    }
    Ok(())
}

/// The hint for `seat` in the record `text` as JSON:
/// `{"game", "seat", "move_number", "iterations", "seconds", "moves": [{"move": record move, "text", "win", "visits"}]}`,
/// best first (`win` is the estimated chance to win, draws half).
///
/// # Errors
/// A malformed record, a finished game, or a seat that is not to move.
pub fn hint(text: &str, seat: u8, budget: Budget, top: usize, seed: u64) -> anyhow::Result<Value> {
    let (kind, _) = detect_kind(text)?;
    match kind {
        GameKind::Classic => hint_for::<sequence_classic::Game>(text, seat, budget, top, seed),
        GameKind::Stacks => hint_for::<sequence_stacks::Game>(text, seat, budget, top, seed),
    }
}

/// [`hint`] for a record of the game `G`.
fn hint_for<G: BotGame>(
    text: &str,
    seat: u8,
    budget: Budget,
    top: usize,
    seed: u64,
) -> anyhow::Result<Value> {
    let (_, game) = Record::<G>::from_json_str(text)?;
    let Some(to_act) = game.to_act() else {
        bail!("the game is over: no move to advise");
    };
    if seat >= game.players() {
        return Err(BadInput(format!(
            "--seat {seat}: the table has seats 0 to {}",
            game.players() - 1
        ))
        .into());
    }
    if to_act != Seat(seat) {
        bail!(
            "--seat {seat}: it is not its turn (seat {} must decide now)",
            to_act.0
        );
    }
    let view = game.view(Seat(seat));
    let Some(report) = G::analyse(&view, seed, &SearchSpec::new(budget, None)) else {
        bail!("the record's position cannot be searched (inconsistent view)");
    };
    let moves: Vec<Value> = report
        .moves
        .iter()
        .take(top.max(1))
        .map(|(m, v, w)| {
            json!({
                "move": G::move_to_json(Seat(seat), m, game.config()),
                "text": G::move_text(m),
                "win": (w * 1000.0).round() / 1000.0,
                "visits": v,
            })
        })
        .collect();
    let mut out = json!({
        "game": G::KIND.name(),
        "seat": seat,
        "move_number": game.ply(),
        "iterations": report.iterations,
        "seconds": report.elapsed.as_secs_f64(),
        "moves": moves,
    });
    if G::TEAMS {
        out["team"] = G::side_to_json(game.side_of(Seat(seat)));
    }
    Ok(out)
}

/// The hint JSON (see [`hint`]) as a text table.
pub fn hint_table(h: &Value) -> String {
    let mut s = format!(
        "seat {} ({}) — {} iterations in {:.2} s\n  #  {:<34} {:>6}  {:>8}\n",
        h["seat"],
        h["game"].as_str().unwrap_or(""),
        h["iterations"],
        h["seconds"].as_f64().unwrap_or(0.0),
        "move",
        "win %",
        "visits"
    );
    for (i, m) in h["moves"].as_array().into_iter().flatten().enumerate() {
        s += &format!(
            "{:>3}  {:<34} {:>6.1}  {:>8}\n",
            i + 1,
            m["text"].as_str().unwrap_or(""),
            100.0 * m["win"].as_f64().unwrap_or(0.0),
            m["visits"]
        );
    }
    s
}
