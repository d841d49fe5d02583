//! `sequence selfplay --game stacks`, `sequence bench --game stacks` and
//! the Stacks half of `sequence verify`.

use crate::{BenchArgs, SelfplayArgs};
use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use sequence_common::record::ReplayError;
use sequence_stacks::card::{Card, MAX_CARDS};
use sequence_stacks::game::Decisions;
use sequence_stacks::{Game, Match, Options, Status};
use std::time::Instant;

/// Decisions after which a self-played game is abandoned as unfinished
/// (random games end long before; a safety net only).
const MAX_DECISIONS: u32 = 1_000_000;

fn parse_options(s: Option<&str>) -> anyhow::Result<Options> {
    match s {
        None => Ok(Options::default()),
        Some(text) => {
            let v: serde_json::Value =
                serde_json::from_str(text).context("--options is not JSON")?;
            Options::from_json(&v).map_err(|e| anyhow::anyhow!("--options: {e}"))
        }
    }
}

/// Random legal Stacks games: prints wins per seat, draws and mean
/// decisions; with `--out DIR` writes each record as `DIR/game-NNNNN.json`.
pub fn selfplay(a: SelfplayArgs) -> anyhow::Result<()> {
    let options = parse_options(a.options.as_deref())?;
    if let Some(t) = a.teams {
        if t != a.players {
            anyhow::bail!("Sequence Stacks has no teams: each player plays alone (S1)");
        }
    }
    if !(2..=6).contains(&a.players) {
        anyhow::bail!(
            "Sequence Stacks is for 2 to 6 players (S1), not {}",
            a.players
        );
    }
    if let Some(dir) = &a.out {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let mut wins = vec![0u32; a.players as usize];
    let mut draws = 0u32;
    let mut unfinished = 0u32;
    let mut total = 0u64;
    let pb = ProgressBar::new(a.games as u64);
    pb.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    if a.games < 1000 {
        pb.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    let mut list = Decisions::new();
    for i in 0..a.games {
        let seed = a.seed.wrapping_add(i as u64);
        let mut m = Match::new(a.players, options, seed)?;
        let mut rng = sequence_common::rng::playout_rng(seed);
        let mut n = 0u32;
        while let Some(seat) = m.game().to_act() {
            if n >= MAX_DECISIONS {
                break;
            }
            m.game().legal_into(&mut list);
            let d = list[rand::Rng::random_range(&mut rng, 0..list.len())];
            m.play(seat, d)
                .map_err(|e| anyhow::anyhow!("engine refused its own decision {d}: {e}"))?;
            n += 1;
        }
        total += m.moves() as u64;
        match m.game().status() {
            Status::Won(s) => wins[s.index()] += 1,
            Status::Draw => draws += 1,
            Status::Playing => unfinished += 1,
        }
        if let Some(dir) = &a.out {
            let path = dir.join(format!("game-{:05}.json", i + 1));
            std::fs::write(&path, m.record().to_json_string())
                .with_context(|| format!("writing {}", path.display()))?;
        }
        pb.inc(1);
    }
    pb.finish_and_clear();
    println!(
        "Sequence Stacks, {} players, {} games (seed {})",
        a.players, a.games, a.seed
    );
    for (s, w) in wins.iter().enumerate() {
        println!("seat {s} wins: {w}");
    }
    println!("draws: {draws}");
    if unfinished > 0 {
        println!("unfinished: {unfinished}");
    }
    println!(
        "mean decisions: {:.1}",
        total as f64 / a.games.max(1) as f64
    );
    Ok(())
}

/// Random complete Stacks games per second on one core (default 4
/// players), decisions per second, and the cost of listing legal
/// decisions; a table, or JSON with `--json`.
pub fn bench(a: BenchArgs) -> anyhow::Result<()> {
    let players = a.players.unwrap_or(4);
    if !(2..=6).contains(&players) {
        anyhow::bail!("Sequence Stacks is for 2 to 6 players (S1), not {players}");
    }
    let options = Options::default();
    let mut rng = sequence_common::rng::playout_rng(1);
    let mut deck = [Card::B1; MAX_CARDS];
    let pb = ProgressBar::new_spinner();
    pb.set_message("random games");
    let start = Instant::now();
    let cpu_start = thread_cpu_seconds();
    let mut games = 0u64;
    let mut decisions = 0u64;
    let mut finished = 0u64;
    while start.elapsed().as_secs_f64() < a.seconds {
        for _ in 0..256 {
            let mut g = Game::random_into(players, options, &mut rng, &mut deck)?;
            decisions += g.playout(&mut rng, MAX_DECISIONS) as u64;
            games += 1;
            finished += u64::from(g.status() != Status::Playing);
        }
        pb.tick();
    }
    let secs = start.elapsed().as_secs_f64();
    let cpu_secs = match (cpu_start, thread_cpu_seconds()) {
        (Some(a), Some(b)) if b > a => Some(b - a),
        _ => None,
    };
    pb.set_message("legal decisions");
    let pos = midgame(players)?;
    let mut list = Decisions::new();
    let median_ns = crate::median_ns_per_call(|| {
        pos.legal_into(&mut list);
        std::hint::black_box(&list);
    });
    pb.finish_and_clear();
    let out = serde_json::json!({
        "game": "stacks",
        "players": players,
        "seconds": secs,
        "games": games,
        "finished_games": finished,
        "games_per_second": games as f64 / secs,
        "decisions_per_second": decisions as f64 / secs,
        "mean_decisions_per_game": decisions as f64 / games.max(1) as f64,
        "cpu_seconds": cpu_secs,
        "games_per_cpu_second": cpu_secs.map(|c| games as f64 / c),
        "legal_decisions_median_ns": median_ns,
        "legal_decisions_count": list.len(),
    });
    if a.json {
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        println!("Sequence Stacks, {players} players, one core, {secs:.1} s");
        println!("{:<30}{:>14.0}", "games/s", games as f64 / secs);
        if let Some(c) = cpu_secs {
            println!("{:<30}{:>14.0}", "games per CPU second", games as f64 / c);
        }
        println!("{:<30}{:>14.0}", "decisions/s", decisions as f64 / secs);
        println!(
            "{:<30}{:>14.1}",
            "mean decisions/game",
            decisions as f64 / games.max(1) as f64
        );
        println!("{:<30}{:>14.0}", "legal decisions median (ns)", median_ns);
        println!("{:<30}{:>14}", "legal decisions in position", list.len());
    }
    Ok(())
}

/// CPU time used by this thread so far, in seconds (Linux
/// `/proc/thread-self/schedstat`); `None` elsewhere. On a busy machine the
/// wall-clock rate understates the engine's one-core speed; this does not.
fn thread_cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 / 1e9)
}

/// A midgame position: 40 random decisions from a fixed seed.
fn midgame(players: u8) -> anyhow::Result<Game> {
    let mut rng = sequence_common::rng::game_rng(42);
    let mut deck = [Card::B1; MAX_CARDS];
    let mut g = Game::random_into(players, Options::default(), &mut rng, &mut deck)?;
    g.playout(&mut rng, 40);
    Ok(g)
}

/// Verifies a Stacks record; on success the summary JSON of
/// RECORD-STACKS.md (`moves`, `winner`, `chips`, `piles`, …).
pub fn verify(v: serde_json::Value) -> Result<serde_json::Value, ReplayError> {
    sequence_stacks::record::verify(&v)
}

/// `sequence replay` for a Stacks record: each decision in words with the
/// piles and chips after it (or only the end with `last`).
///
/// # Errors
/// The replay error (exit 1 at an illegal move, 2 for a malformed file).
pub fn replay(
    value: &serde_json::Value,
    last: bool,
    out: &mut impl std::io::Write,
) -> Result<(), ReplayError> {
    let show = |out: &mut dyn std::io::Write, g: &Game, n: usize| {
        let s = sequence_stacks::record::summary(g, n);
        let _ = writeln!(out, "  piles {}  chips {}", s["piles"], s["chips"]);
    };
    let (_, game) = sequence_stacks::record::replay_with(value, |i, seat, d, g| {
        if !last {
            let _ = writeln!(out, "move {i}: seat {} {d}", seat.0);
            show(out, g, i + 1);
        }
    })?;
    let n = value
        .get("moves")
        .and_then(|m| m.as_array())
        .map_or(0, |m| m.len());
    show(out, &game, n);
    let _ = match game.status() {
        Status::Won(s) => writeln!(out, "seat {} wins", s.0),
        Status::Draw => writeln!(out, "draw"),
        _ => writeln!(out, "game unfinished"),
    };
    Ok(())
}
