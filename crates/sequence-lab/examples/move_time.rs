//! CPU time per decision of a classic bot in real games: plays `--games`
//! 2-player games of `--bot` against `--field` (seats alternating, deals
//! from `--seed`) on one thread and measures the thread CPU time of each
//! of the bot's decisions (the obvious ones included). Prints the median,
//! the 90th and 99th percentiles and the maximum, in milliseconds: the
//! figure to hold against a budget such as "at most 1 s a move on one
//! core", which CPU time measures whatever else the machine runs.
//!
//! ```sh
//! cargo run --release -p sequence-lab --example move_time -- \
//!     --bot rmc:30000it:v2 --field level:5 --games 4 --seed 7
//! ```

use sequence_bots::bench::thread_cpu_ns;
use sequence_classic::{Config, Game, Options};
use sequence_common::rng::game_rng;

fn main() {
    if let Err(e) = real_main() {
        eprintln!("error: {e}");
        std::process::exit(2);
    }
}

fn real_main() -> Result<(), String> {
    let mut bot = "ismcts:3000it:1t".to_string();
    let mut field = "level:5".to_string();
    let mut games = 4u64;
    let mut seed = 1u64;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let v = args.next().ok_or(format!("{a} needs a value"))?;
        let num = |v: &str| {
            v.parse::<u64>()
                .map_err(|_| format!("{a}: {v:?} is not a number"))
        };
        match a.as_str() {
            "--bot" => bot = v,
            "--field" => field = v,
            "--games" => games = num(&v)?,
            "--seed" => seed = num(&v)?,
            _ => return Err(format!("unknown argument {a}")),
        }
    }
    let config = Config::new(2, None, Options::default()).map_err(|e| e.to_string())?;
    let mut times: Vec<f64> = Vec::new();
    for g in 0..games {
        let deal = seed.wrapping_mul(1_000_003).wrapping_add(g);
        let mut rng = game_rng(deal);
        let (mut game, _) = Game::deal(config.clone(), &mut rng);
        let hero_seat = (g % 2) as usize;
        let mut bots = [
            sequence_lab::vsearch::bot(&bot, deal)?,
            sequence_lab::vsearch::bot(&field, deal ^ 1)?,
        ];
        if hero_seat == 1 {
            bots.swap(0, 1);
        }
        let mut reshuffle = sequence_classic::RngReshuffler(&mut rng);
        let mut decisions = 0;
        while !game.is_over() && decisions < 2_000 {
            let seat = game.turn();
            let view = game.view(seat);
            let c0 = thread_cpu_ns();
            let mv = bots[seat.index()].choose(&view);
            if seat.index() == hero_seat {
                if let (Some(a), Some(b)) = (c0, thread_cpu_ns()) {
                    times.push((b - a) as f64 / 1e6);
                }
            }
            game.play(seat, mv, &mut reshuffle)
                .map_err(|e| format!("game {g}: {e}"))?;
            decisions += 1;
        }
    }
    if times.is_empty() {
        return Err("no CPU clock on this system".into());
    }
    times.sort_by(f64::total_cmp);
    let q = |p: f64| times[((times.len() - 1) as f64 * p).round() as usize];
    println!(
        "{bot} vs {field}: {games} games, {} decisions; CPU ms per decision: median {:.1}, p90 {:.1}, p99 {:.1}, max {:.1}, mean {:.1}",
        times.len(),
        q(0.5),
        q(0.9),
        q(0.99),
        q(1.0),
        times.iter().sum::<f64>() / times.len() as f64
    );
    Ok(())
}
