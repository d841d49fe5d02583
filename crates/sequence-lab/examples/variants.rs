//! Duplicate-deal match of two classic bots, experimental ones among them (see
//! `sequence_bots::classic::deals`): every deal is played once per side with the
//! hero's team moved one side along; the interval is computed over deals
//! and compared with the interval of as many plain games.
//!
//! ```sh
//! cargo run --release -p sequence-lab --example variants -- \
//!     --hero ismcts:3000it:1t --field greedy --deals 200 --jobs 2 --seed 1
//! ```
//!
//! Options: `--hero SPEC`, `--field SPEC` (any `sequence arena` bot name,
//! or the experimental names of `sequence_lab::vsearch::bot`:
//! `value`, `vmcts:3000it:…`), `--players P`, `--teams T`, `--deals N`,
//! `--seed S`, `--jobs J`, `--csv FILE` (per-deal scores).

use sequence_classic::{Config, Options};
use sequence_lab::deals::{run, DuplicateConfig};
use std::time::Instant;

fn main() {
    if let Err(e) = real_main() {
        eprintln!("error: {e}");
        std::process::exit(2);
    }
}

fn real_main() -> Result<(), String> {
    let mut hero = "ismcts:3000it:1t".to_string();
    let mut field = "greedy".to_string();
    let mut players = 2u8;
    let mut teams = None;
    let mut deals = 100u32;
    let mut seed = 1u64;
    let mut jobs = 1usize;
    let mut csv = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut val = || args.next().ok_or(format!("{a} needs a value"));
        let num = |v: String| {
            v.parse::<u64>()
                .map_err(|_| format!("{a}: {v:?} is not a number"))
        };
        match a.as_str() {
            "--hero" => hero = val()?,
            "--field" => field = val()?,
            "--players" => players = num(val()?)? as u8,
            "--teams" => teams = Some(num(val()?)? as u8),
            "--deals" => deals = num(val()?)? as u32,
            "--seed" => seed = num(val()?)?,
            "--jobs" => jobs = num(val()?)? as usize,
            "--csv" => csv = Some(val()?),
            _ => return Err(format!("unknown argument {a}")),
        }
    }
    let config = Config::new(players, teams, Options::default()).map_err(|e| e.to_string())?;
    // Check both names before playing.
    sequence_lab::vsearch::bot(&hero, 0)?;
    sequence_lab::vsearch::bot(&field, 0)?;
    let mk_hero = |s: u64| sequence_lab::vsearch::bot(&hero, s).unwrap_or_else(|e| panic!("{e}"));
    let mk_field = |s: u64| sequence_lab::vsearch::bot(&field, s).unwrap_or_else(|e| panic!("{e}"));
    let cfg = DuplicateConfig {
        config,
        deals,
        seed,
        jobs,
        progress: true,
    };
    let start = Instant::now();
    eprintln!(
        "duplicate: {hero} vs {field}, {players} players, {} teams, {deals} deals, seed {seed}, {jobs} jobs",
        cfg.config.teams()
    );
    let report = run(&cfg, &mk_hero, &mk_field);
    println!("{}", report.summary(&hero, &field));
    println!("time: {:.1} s", start.elapsed().as_secs_f64());
    if let Some(path) = csv {
        std::fs::write(&path, report.csv()).map_err(|e| format!("{path}: {e}"))?;
    }
    Ok(())
}
