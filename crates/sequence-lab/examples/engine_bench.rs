//! The engines measured on one core, for either game.
//!
//! `cargo run --release -p sequence-lab --example engine_bench -- [classic|stacks] [players] [seconds] [games|legal:N]`
//!
//! Random full-rules games per CPU second and the time to list the legal
//! moves of a midgame, as `sequence bench` measures them (a game per
//! `Rules::fresh_deal` and `Rules::playout`; the median of 200 batches of
//! 1,000 `legal_moves` calls into a reused `Vec`). With `games`, exactly
//! that many games and nothing else (a fixed amount of work, for
//! instruction counts under valgrind); with `legal:N`, only N legal-move
//! listings of the midgame.
//!
//! `cargo run --release -p sequence-lab --example engine_bench -- stats [classic|stacks] [players] [games] [seed]`
//!
//! Statistics of uniformly random games, to check that a faster engine
//! plays the same game: mean moves, wins per side counted from the side
//! that moves first (C9; S2, S7), draws (C6a, S6a) and reshuffles (C7, S6)
//! per game.

use rand::Rng;
use sequence_bots::bench::{median_ns_per_call, thread_cpu_ns};
use sequence_common::rng::{game_rng, playout_rng};
use sequence_common::{GameKind, Outcome, ReshuffleError, Reshuffler, RngReshuffler, Rules};
use std::time::Instant;

/// The midgame reached from seed 42 by `moves` random moves (as `sequence
/// bench`), and one that any engine version reaches alike: `moves` moves
/// picked by index from the legal moves sorted by key.
fn midgames<G: Rules>(config: &G::Config, moves: u32) -> (G, G) {
    let mut r = game_rng(42);
    let (mut random, _) = G::deal(config, &mut r);
    random.playout(&mut r, moves);
    let mut r = game_rng(42);
    let (mut fixed, _) = G::deal(config, &mut r);
    let mut list: Vec<G::Move> = Vec::new();
    for _ in 0..moves {
        let Some(seat) = fixed.to_act() else { break };
        fixed.legal_moves(&mut list);
        list.sort_by_key(G::move_key);
        let mv = list[r.random_range(0..list.len())];
        fixed
            .play(seat, mv, &mut RngReshuffler(&mut r))
            .unwrap_or_else(|_| panic!("a listed move is legal"));
    }
    (random, fixed)
}

fn bench<G: Rules>(config: G::Config, midgame_moves: u32, mut args: impl Iterator<Item = String>) {
    let seconds: f64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(2.0);
    let fixed_arg = args.next();
    let name = G::KIND.name();
    let players = config_players::<G>(&config);
    let mut rng = playout_rng(1);
    let (proto, _) = G::deal(&config, &mut rng);
    let (pos, fixed_pos) = midgames::<G>(&config, midgame_moves);
    let mut list: Vec<G::Move> = Vec::with_capacity(256);
    match fixed_arg.as_deref() {
        Some(arg) if arg.starts_with("legal:") => {
            let calls: u64 = arg[6..].parse().expect("legal:N with a number N");
            for _ in 0..calls {
                pos.legal_moves(std::hint::black_box(&mut list));
                std::hint::black_box(&list);
            }
            println!("{calls} legal_moves calls, {} moves", list.len());
            return;
        }
        Some(arg) => {
            let n: u64 = arg.parse().expect("a number of games");
            let mut moves = 0u64;
            for _ in 0..n {
                let mut g = proto.fresh_deal(&mut rng);
                moves += u64::from(g.playout(&mut rng, 1_000_000));
            }
            println!("{name} {players}p: {n} games, {moves} moves");
            return;
        }
        None => {}
    }
    let start = Instant::now();
    let cpu0 = thread_cpu_ns();
    let (mut games, mut moves, mut finished) = (0u64, 0u64, 0u64);
    while start.elapsed().as_secs_f64() < seconds {
        for _ in 0..256 {
            let mut g = proto.fresh_deal(&mut rng);
            moves += u64::from(g.playout(&mut rng, 1_000_000));
            games += 1;
            finished += u64::from(g.outcome() != Outcome::Playing);
        }
    }
    let wall = start.elapsed().as_secs_f64();
    let cpu = cpu0.zip(thread_cpu_ns()).map(|(a, b)| (b - a) as f64 / 1e9);
    let legal_ns = median_ns_per_call(|| {
        pos.legal_moves(&mut list);
        std::hint::black_box(&list);
    });
    let mut list2: Vec<G::Move> = Vec::with_capacity(256);
    let fixed_ns = median_ns_per_call(|| {
        fixed_pos.legal_moves(&mut list2);
        std::hint::black_box(&list2);
    });
    let mut r2 = playout_rng(3);
    let random_ns = median_ns_per_call(|| {
        std::hint::black_box(pos.random_move(&mut r2));
    });
    println!(
        "{name} {players}p: {games} games ({finished} finished), {:.0} games/s wall, {} games per CPU second, {:.1} moves/game, legal_moves {legal_ns:.1} ns ({} moves), random_move {random_ns:.1} ns, legal_moves of the fixed midgame {fixed_ns:.1} ns ({} moves)",
        games as f64 / wall,
        cpu.map_or("n/a".into(), |c| format!("{:.0}", games as f64 / c)),
        moves as f64 / games.max(1) as f64,
        list.len(),
        list2.len()
    );
}

fn config_players<G: Rules>(config: &G::Config) -> u8 {
    sequence_common::TableConfig::players(config)
}

/// A random reshuffler that counts the reshuffles it orders.
struct Counting<'a, R: Rng> {
    rng: &'a mut R,
    count: u64,
}

impl<C, R: Rng> Reshuffler<C> for Counting<'_, R> {
    fn reshuffle(&mut self, cards: &mut [C]) -> Result<(), ReshuffleError> {
        self.count += 1;
        RngReshuffler(&mut *self.rng).reshuffle(cards)
    }
}

fn stats<G: Rules>(config: G::Config, mut args: impl Iterator<Item = String>) {
    let games: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let seed: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let players = sequence_common::TableConfig::players(&config);
    let mut rng = playout_rng(seed);
    let (mut moves, mut reshuffles, mut draws) = (0u64, 0u64, 0u64);
    let mut moves_sq = 0f64;
    let mut wins = [0u64; 12];
    let mut sides = 0;
    for _ in 0..games {
        let (mut g, _) = G::deal(&config, &mut rng);
        sides = g.sides();
        let first = g.to_act().map_or(0, |s| g.side_of(s));
        let mut n = 0u64;
        while let Some(mv) = g.random_move(&mut rng) {
            let Some(seat) = g.to_act() else { break };
            let mut counting = Counting {
                rng: &mut rng,
                count: 0,
            };
            g.play(seat, mv, &mut counting)
                .unwrap_or_else(|_| panic!("a random move is legal and reshuffles"));
            reshuffles += counting.count;
            n += 1;
        }
        moves += n;
        moves_sq += (n * n) as f64;
        match g.outcome() {
            Outcome::Won(side) => wins[usize::from((side + sides - first) % sides)] += 1,
            Outcome::Draw => draws += 1,
            Outcome::Playing => unreachable!("played to the end"),
        }
    }
    let n = games as f64;
    let mean = moves as f64 / n;
    let sd = (moves_sq / n - mean * mean).sqrt();
    let se = |p: f64| (p * (1.0 - p) / n).sqrt();
    println!(
        "{} {players}p, {games} random games (seed {seed})",
        G::KIND.name()
    );
    println!(
        "mean moves/game        {mean:.3} (sd {sd:.2}, s.e. {:.3})",
        sd / n.sqrt()
    );
    for (k, w) in wins.iter().enumerate().take(usize::from(sides)) {
        let p = *w as f64 / n;
        println!(
            "wins of side {:<2}        {p:.5} (s.e. {:.5})",
            k + 1,
            se(p)
        );
    }
    let p = draws as f64 / n;
    println!("draws                  {p:.5} (s.e. {:.5})", se(p));
    println!("reshuffles/game        {:.4}", reshuffles as f64 / n);
}

fn main() {
    let mut args = std::env::args().skip(1).peekable();
    let want_stats = args.next_if(|a| a == "stats").is_some();
    let kind: GameKind = args
        .next()
        .unwrap_or_else(|| "classic".into())
        .parse()
        .expect("classic or stacks");
    let players: u8 = args.next().and_then(|s| s.parse().ok()).unwrap_or(2);
    match kind {
        GameKind::Classic => run::<sequence_classic::Game>(players, 30, want_stats, args, "C3"),
        GameKind::Stacks => run::<sequence_stacks::Game>(players, 40, want_stats, args, "S1"),
    }
}

/// The statistics or the benchmark (from midgames after `midgame_moves`
/// moves) of the game `G` at a table of `players` (the rule `rule` says
/// which tables are valid).
fn run<G: Rules>(
    players: u8,
    midgame_moves: u32,
    want_stats: bool,
    args: impl Iterator<Item = String>,
    rule: &str,
) {
    let config = match G::table(players, None, Default::default()) {
        Ok(c) => c,
        Err(e) => panic!("{players} players: not a valid table ({rule}): {e}"),
    };
    if want_stats {
        stats::<G>(config, args)
    } else {
        bench::<G>(config, midgame_moves, args)
    }
}
