//! `sequence puzzles`: finds puzzles in seeded self-play (issue 25) and
//! writes the data file the browser's puzzle page reads
//! (`crates/sequence-server/web/puzzles/<game>.json`).

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use sequence_bots::{with_game, BotGame, ForGame};
use sequence_common::GameKind;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::time::Instant;

/// `sequence puzzles`.
#[derive(Debug, clap::Args)]
pub struct PuzzlesArgs {
    /// Game: `classic` or `stacks`.
    #[arg(long, default_value = "classic")]
    pub game: GameKind,
    /// Puzzles to find, of the kinds without a `--quota`.
    #[arg(long, default_value_t = 240)]
    pub count: usize,
    /// `KIND=N` (repeatable): the first N puzzles of a rare kind (classic
    /// `fork`, `window`; Stacks `win2`), counted apart from `--count`;
    /// self-play goes on until they are found too (or `--max-games`).
    #[arg(long, value_parser = parse_quota)]
    pub quota: Vec<(String, usize)>,
    /// Self-play games at most (the quotas may stay short of N).
    #[arg(long, default_value_t = 20_000)]
    pub max_games: u64,
    /// At most this share of them (percent) of one kind, so that the rarer
    /// kinds get their place (default: classic 30, Stacks 60: it has two
    /// kinds).
    #[arg(long)]
    pub max_kind_percent: Option<usize>,
    /// The seed of the first self-play game (ChaCha8); game `i` is dealt
    /// from `seed + i`.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The file to write (JSON); `-` for standard output.
    #[arg(long, default_value = "-")]
    pub out: String,
}

/// The game's default share of one kind of puzzle
/// ([`BotGame::PUZZLE_KIND_PERCENT`]).
struct KindPercent;

impl ForGame for KindPercent {
    type Out = usize;
    fn call<G: BotGame>(self) -> usize {
        G::PUZZLE_KIND_PERCENT
    }
}

/// The game's self-play from the seed, each puzzle found given to the
/// function until it answers `false` ([`BotGame::find_puzzles`]).
struct SelfPlay<'a>(u64, &'a mut dyn FnMut(&'static str, u8, Value, u64) -> bool);

impl ForGame for SelfPlay<'_> {
    type Out = ();
    fn call<G: BotGame>(self) {
        G::find_puzzles(self.0, self.1);
    }
}

/// Reads a `--quota` value: `KIND=N`.
fn parse_quota(s: &str) -> Result<(String, usize), String> {
    let (kind, n) = s
        .split_once('=')
        .ok_or(format!("{s:?}: give KIND=N, e.g. fork=30"))?;
    let n = n
        .parse()
        .map_err(|_| format!("{s:?}: N must be a whole number"))?;
    Ok((kind.to_string(), n))
}

/// Runs `sequence puzzles`: self-play until `--count` puzzles (and each
/// `--quota`) are found, then writes them sorted by grade, with a summary
/// on standard error.
///
/// # Errors
/// A count of 0 or a share outside 1–100 (exit 2); a file that cannot be
/// written.
pub fn run(a: PuzzlesArgs) -> anyhow::Result<()> {
    let start = Instant::now();
    let percent = a
        .max_kind_percent
        .unwrap_or_else(|| with_game(a.game, KindPercent));
    if a.count == 0 || !(1..=100).contains(&percent) {
        return Err(crate::BadInput(format!(
            "--count {} --max-kind-percent {percent}: give at least one puzzle and a share of 1 to 100",
            a.count
        ))
        .into());
    }
    let cap = (a.count * percent / 100).max(1);
    let quota: BTreeMap<String, usize> = a.quota.iter().cloned().collect();
    let total = a.count + quota.values().sum::<usize>();
    let pb = ProgressBar::new(total as u64);
    pb.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} puzzles {msg} eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut kinds: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut found: Vec<(u8, Value)> = vec![];
    let (mut common, mut games) = (0usize, 0u64);
    // the quotas' kinds are counted apart: a kind added later does not
    // push the puzzles of the others (and their ids) out of the file
    let mut take = |kind: &'static str, grade: u8, v: Value, seed: u64| {
        games = games.max(seed - a.seed + 1);
        let n = kinds.entry(kind).or_default();
        let keep = match quota.get(kind) {
            Some(q) => *n < *q,
            None => *n < cap && common < a.count,
        };
        if keep {
            *n += 1;
            common += usize::from(!quota.contains_key(kind));
            found.push((grade, v));
            pb.inc(1);
        }
        pb.set_message(format!("{games} games"));
        let short = quota
            .iter()
            .any(|(k, q)| kinds.get(k.as_str()).copied().unwrap_or(0) < *q);
        (common < a.count || short) && games < a.max_games
    };
    with_game(a.game, SelfPlay(a.seed, &mut take));
    pb.finish_and_clear();
    found.sort_by_key(|(g, _)| *g);
    let mut grades: BTreeMap<u8, usize> = BTreeMap::new();
    // an id from where the puzzle was found (game seed, move, kind), not
    // from its place in the file: progress kept by id (in browsers and
    // accounts) keeps meaning the same puzzle when the file is made again
    // with more games
    let puzzles: Vec<Value> = found
        .into_iter()
        .map(|(g, mut v)| {
            *grades.entry(g).or_default() += 1;
            let id = format!(
                "{}-{}-{}-{}",
                a.game.name(),
                v["from"]["seed"],
                v["from"]["move"],
                v["kind"].as_str().unwrap_or("")
            );
            v["id"] = json!(id);
            v
        })
        .collect();
    let mut quotas: String = quota
        .iter()
        .map(|(k, n)| format!(" --quota {k}={n}"))
        .collect();
    if !quota.is_empty() {
        quotas += &format!(" --max-games {}", a.max_games);
    }
    let file = json!({
        "game": a.game.name(),
        "generator": format!("sequence puzzles --game {} --count {} --max-kind-percent {} --seed {}{quotas}", a.game.name(), a.count, percent, a.seed),
        "puzzles": puzzles,
    });
    let text = serde_json::to_string(&file)? + "\n";
    if a.out == "-" {
        print!("{text}");
    } else {
        std::fs::write(&a.out, text).with_context(|| format!("writing {}", a.out))?;
    }
    eprintln!(
        "{} puzzles from {games} games in {:.1} s; by kind {kinds:?}; by grade {grades:?}",
        puzzles.len(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
