//! What the hidden hands cost the search: the root Monte Carlo search
//! (`classic::flat`, `rmc:…` options) against a field bot on duplicate
//! deals, once as a fair bot and once told every other hand (the draw
//! pile stays hidden: it is shuffled anew for every playout). The gap is
//! what better inference about the other hands could gain at most.
//!
//! `cargo run --release -p sequence-lab --example hidden_cost -- [DEALS] [SPEC] [FIELD] [PLAYERS]`

use rand::RngCore;
use sequence_bots::classic::{flat, with_declaration};
use sequence_bots::Bot;
use sequence_classic::{Config, Game, Move, Options, Position, Seat, Status, Team};
use sequence_common::rng::{game_rng, shuffle_fast, PlayoutRng};
use sequence_lab::deals::{deal_seed, DuplicateReshuffler};
use sequence_lab::{rmc, vsearch};

/// The true game with the draw pile shuffled (everything else as it is).
fn with_hidden_draw(game: &Game, rng: &mut PlayoutRng) -> Option<Game> {
    let mut chips = Vec::new();
    for t in 0..game.teams() {
        for sq in game.chips(Team(t)).iter() {
            chips.push((Team(t), sq));
        }
    }
    let mut draw: Vec<_> = game.draw_pile().collect();
    shuffle_fast(&mut draw, rng);
    let pos = Position {
        chips,
        sequences: game.sequences().collect(),
        hands: (0..game.players())
            .map(|s| game.hand(Seat(s)).to_vec())
            .collect(),
        discards: game.discards().collect(),
        draw_pile: Some(draw),
        turn: game.turn(),
    };
    Game::from_position(game.config().clone(), &pos).ok()
}

fn play(
    cfg: &Config,
    seed: u64,
    hero_side: usize,
    spec: &str,
    field: &str,
    cheat: bool,
) -> Result<f64, String> {
    let (budget, opts, _) = rmc::parse(spec)?;
    let mut rng = game_rng(seed);
    let (mut game, _) = Game::deal(cfg.clone(), &mut rng);
    let teams = game.teams() as usize;
    let mut bots: Vec<Box<dyn Bot<Game>>> = Vec::new();
    for s in 0..game.players() {
        let bseed = seed ^ (0xB07 + s as u64);
        bots.push(vsearch::bot(
            if s as usize % teams == hero_side {
                spec
            } else {
                field
            },
            bseed,
        )?);
    }
    let mut reshuffler = DuplicateReshuffler::new(seed);
    let mut srng = game_rng(seed ^ 0xC4EA7);
    let mut n = 0;
    while !game.is_over() && n < 5000 {
        let seat = game.turn();
        let view = game.view(seat);
        let mv = if cheat && seat.index() % teams == hero_side {
            let moves = view.legal_moves();
            let win = vsearch::winning_placement(&game, &moves);
            if moves.is_empty() {
                Move::Pass
            } else if let Some(m) = win {
                with_declaration(&game, m)
            } else if let Some(m) = moves.iter().find(|m| matches!(m, Move::Dead { .. })) {
                *m
            } else if moves.len() == 1 {
                with_declaration(&game, moves[0])
            } else {
                let truth = game.clone();
                let mut det = |r: &mut PlayoutRng| {
                    with_hidden_draw(&truth, r).unwrap_or_else(|| truth.clone())
                };
                let rep = flat::search_with(&view, &opts, budget, srng.next_u64(), &mut det);
                with_declaration(&game, rep.best().unwrap_or(moves[0]))
            }
        } else {
            bots[seat.index()].choose(&view)
        };
        game.play(seat, mv, &mut reshuffler)
            .map_err(|e| e.to_string())?;
        n += 1;
    }
    Ok(match game.status() {
        Status::Won(t) if t.index() == hero_side => 1.0,
        Status::Won(_) => 0.0,
        _ => 0.5,
    })
}

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let deals: u32 = args.next().and_then(|s| s.parse().ok()).unwrap_or(100);
    let spec = args.next().unwrap_or_else(|| "rmc:3000it".into());
    let field = args.next().unwrap_or_else(|| "greedy".into());
    let players: u8 = args.next().and_then(|s| s.parse().ok()).unwrap_or(2);
    let cfg = Config::new(players, None, Options::default())?;
    let sides = cfg.teams() as usize;
    for cheat in [true, false] {
        let mut xs = Vec::new();
        for d in 0..deals {
            let seed = deal_seed(1, d);
            let mut s = 0.0;
            for r in 0..sides {
                s += play(&cfg, seed, r, &spec, &field, cheat).map_err(anyhow::Error::msg)?;
            }
            xs.push(s / sides as f64);
        }
        let n = xs.len() as f64;
        let m = xs.iter().sum::<f64>() / n;
        let v = xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1.0);
        println!(
            "{spec} {} vs {field}: {:.1} % ± {:.1} over {deals} deals",
            if cheat {
                "told the other hands"
            } else {
                "fair"
            },
            100.0 * m,
            196.0 * (v / n).sqrt()
        );
    }
    Ok(())
}
