//! `sequence bench`: random full-rules games per second on one core (wall
//! clock and CPU time of the thread), moves per second, and the time to
//! list the legal moves of a midgame position — for either game.

use crate::BadInput;
use crate::BenchArgs;
use indicatif::ProgressBar;
use sequence_bots::{BotGame, ForGame};
use sequence_common::Outcome;
use std::time::Instant;

/// Moves after which a benchmark game is abandoned (a safety net only).
const MAX_MOVES: u32 = 1_000_000;

/// Runs `sequence bench` for the game `G`: a table, or JSON with `--json`.
///
/// # Errors
/// A table the rules do not allow.
pub fn run<G: BotGame>(a: BenchArgs) -> anyhow::Result<()> {
    let players = a.players.unwrap_or(G::BENCH_PLAYERS);
    let config =
        G::table(players, None, G::Options::default()).map_err(|e| BadInput(e.to_string()))?;
    let mut rng = sequence_common::rng::playout_rng(1);
    let (proto, _) = G::deal(&config, &mut rng);
    let pb = ProgressBar::new_spinner();
    pb.set_message("random games");
    let start = Instant::now();
    let cpu_start = thread_cpu_seconds();
    let mut games = 0u64;
    let mut moves = 0u64;
    let mut finished = 0u64;
    while start.elapsed().as_secs_f64() < a.seconds {
        for _ in 0..256 {
            let mut g = proto.fresh_deal(&mut rng);
            moves += g.playout(&mut rng, MAX_MOVES) as u64;
            games += 1;
            finished += u64::from(g.outcome() != Outcome::Playing);
        }
        pb.tick();
    }
    let secs = start.elapsed().as_secs_f64();
    let cpu_secs = match (cpu_start, thread_cpu_seconds()) {
        (Some(a), Some(b)) if b > a => Some(b - a),
        _ => None,
    };
    pb.set_message("legal moves");
    let pos = midgame::<G>(&config);
    let mut list: Vec<G::Move> = Vec::with_capacity(256);
    let median_ns = sequence_bots::bench::median_ns_per_call(|| {
        pos.legal_moves(&mut list);
        std::hint::black_box(&list);
    });
    pb.finish_and_clear();
    let out = serde_json::json!({
        "game": G::KIND.name(),
        "players": players,
        "seconds": secs,
        "games": games,
        "finished_games": finished,
        "games_per_second": games as f64 / secs,
        "moves_per_second": moves as f64 / secs,
        "mean_moves_per_game": moves as f64 / games.max(1) as f64,
        "cpu_seconds": cpu_secs,
        "games_per_cpu_second": cpu_secs.map(|c| games as f64 / c),
        "legal_moves_median_ns": median_ns,
        "legal_moves_count": list.len(),
    });
    if a.json {
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        println!(
            "{}, {players} players, one core, {secs:.1} s",
            G::KIND.title()
        );
        println!("{:<30}{:>14.0}", "games/s", games as f64 / secs);
        if let Some(c) = cpu_secs {
            println!("{:<30}{:>14.0}", "games per CPU second", games as f64 / c);
        }
        println!("{:<30}{:>14.0}", "moves/s", moves as f64 / secs);
        println!(
            "{:<30}{:>14.1}",
            "mean moves/game",
            moves as f64 / games.max(1) as f64
        );
        println!("{:<30}{:>14.0}", "legal moves median (ns)", median_ns);
        println!("{:<30}{:>14}", "legal moves in position", list.len());
    }
    Ok(())
}

/// CPU time used by this thread so far, in seconds (Linux
/// `/proc/thread-self/schedstat`); `None` elsewhere. On a busy machine the
/// wall-clock rate understates the engine's one-core speed; this does not.
fn thread_cpu_seconds() -> Option<f64> {
    sequence_bots::bench::thread_cpu_ns().map(|ns| ns as f64 / 1e9)
}

/// The midgame position: dealt from seed 42 (ChaCha8), then
/// [`BotGame::MIDGAME_PLIES`] random moves.
fn midgame<G: BotGame>(config: &G::Config) -> G {
    let mut rng = sequence_common::rng::game_rng(42);
    let (mut g, _) = G::deal(config, &mut rng);
    g.playout(&mut rng, G::MIDGAME_PLIES);
    g
}

/// `sequence bench` of the game `--game` names: [`run`].
impl ForGame for BenchArgs {
    type Out = anyhow::Result<()>;
    fn call<G: BotGame>(self) -> Self::Out {
        run::<G>(self)
    }
}
