//! `sequence selfplay`: random legal games of either game — wins per side,
//! draws, mean moves; `--out` writes every record.

use crate::games::{parse_options, side_name, table_refusal};
use crate::BadInput;
use crate::SelfplayArgs;
use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use sequence_bots::{BotGame, ForGame};
use sequence_common::record::Match;
use sequence_common::{Outcome, TableConfig};

/// The error as a refused argument (exit code 2).
pub(crate) fn bad_input(e: anyhow::Error) -> anyhow::Error {
    BadInput(format!("{e:#}")).into()
}

/// Moves after which a self-played game is abandoned as unfinished (random
/// games end long before; a safety net only).
const MAX_MOVES: u32 = 1_000_000;

/// Runs `sequence selfplay` for the game `G`: game `i` is dealt from seed
/// `seed + i` (ChaCha8) and every seat plays uniformly random legal moves
/// drawn from PCG64 seeded alike.
///
/// # Errors
/// Bad options or table, or a folder that cannot be written.
pub fn run<G: BotGame>(a: SelfplayArgs) -> anyhow::Result<()> {
    let options = parse_options::<G>(a.options.as_deref()).map_err(bad_input)?;
    let config =
        G::table(a.players, a.teams, options).map_err(|e| BadInput(table_refusal(&e, a.teams)))?;
    if let Some(dir) = &a.out {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let sides = config.sides() as usize;
    let mut wins = vec![0u32; sides];
    let mut draws = 0u32;
    let mut unfinished = 0u32;
    let mut total = 0u64;
    let pb = ProgressBar::new(a.games as u64);
    pb.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games {per_sec} eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut list: Vec<G::Move> = Vec::new();
    for i in 0..a.games {
        let seed = a.seed.wrapping_add(i as u64);
        let mut m = Match::<G>::new(config.clone(), seed);
        let mut rng = sequence_common::rng::playout_rng(seed);
        let mut n = 0u32;
        while let Some(seat) = m.to_act() {
            if n >= MAX_MOVES {
                break;
            }
            m.game().legal_moves(&mut list);
            let mv = list[rand::Rng::random_range(&mut rng, 0..list.len())];
            m.play(seat, mv)
                .map_err(|e| anyhow::anyhow!("engine refused its own move {mv:?}: {e}"))?;
            n += 1;
        }
        total += m.moves() as u64;
        match m.game().outcome() {
            Outcome::Won(s) => wins[s as usize] += 1,
            Outcome::Draw => draws += 1,
            Outcome::Playing => unfinished += 1,
        }
        if let Some(dir) = &a.out {
            let path = dir.join(format!("game-{:05}.json", i + 1));
            std::fs::write(
                &path,
                m.record().map(|r| r.to_json_string()).unwrap_or_default(),
            )
            .with_context(|| format!("writing {}", path.display()))?;
        }
        pb.inc(1);
    }
    pb.finish_and_clear();
    println!(
        "{}, {} players, {} games (seed {})",
        G::KIND.title(),
        a.players,
        a.games,
        a.seed
    );
    for (s, w) in wins.iter().enumerate() {
        println!("{} wins: {w}", side_name::<G>(s as u8));
    }
    println!("draws: {draws}");
    if unfinished > 0 {
        println!("unfinished: {unfinished}");
    }
    println!("mean moves: {:.1}", total as f64 / a.games.max(1) as f64);
    Ok(())
}

/// `sequence selfplay` of the game `--game` names: [`run`].
impl ForGame for SelfplayArgs {
    type Out = anyhow::Result<()>;
    fn call<G: BotGame>(self) -> Self::Out {
        run::<G>(self)
    }
}
