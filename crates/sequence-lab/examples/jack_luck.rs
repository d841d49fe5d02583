//! How much the deal decides classic 2-player Sequence: greedy plays
//! greedy, and the games are grouped by how many more jacks (C6) the first
//! team received over the game than the other (dealt or drawn). If the
//! team that got more jacks wins most games whatever the skill, no bot can
//! win a very large share against a sound heuristic.
//!
//! `cargo run --release -p sequence-lab --example jack_luck [GAMES]`

use sequence_bots::classic::greedy_choice;
use sequence_classic::{Config, Game, Move, Options, RngReshuffler, Seat, Status, Team};
use sequence_common::rng::game_rng;

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(4000);
    let cfg = Config::new(2, None, Options::default()).expect("2 players is a legal table");
    // Per difference of jacks received (team 0 − team 1, clamped to ±4):
    // games and team 0's wins; the same for two-eyed jacks only.
    let mut all = [(0u32, 0u32); 9];
    let mut two = [(0u32, 0u32); 9];
    for g in 0..games {
        let mut rng = game_rng(g);
        let (mut game, _) = Game::deal(cfg.clone(), &mut rng);
        let (mut jacks, mut wild) = ([0i32; 2], [0i32; 2]);
        for s in 0..2u8 {
            for c in game.hand(Seat(s)) {
                jacks[s as usize] += c.is_jack() as i32;
                wild[s as usize] += c.is_two_eyed_jack() as i32;
            }
        }
        while !game.is_over() {
            let seat = game.turn();
            let view = game.view(seat);
            let det = view.determinize(&mut rng);
            let mv = greedy_choice(&det, &view.legal_moves(), &mut rng);
            let before = game.hand(seat).len();
            if game
                .apply(game.turn(), mv, &mut RngReshuffler(&mut rng))
                .is_err()
            {
                break;
            }
            // The card drawn after a turn-ending move is the hand's last.
            if mv.ends_turn() && !matches!(mv, Move::Pass) && game.hand(seat).len() == before {
                if let Some(c) = game.hand(seat).last() {
                    jacks[seat.index()] += c.is_jack() as i32;
                    wild[seat.index()] += c.is_two_eyed_jack() as i32;
                }
            }
        }
        let won = matches!(game.status(), Status::Won(t) if t == Team(0)) as u32;
        let i = ((jacks[0] - jacks[1]).clamp(-4, 4) + 4) as usize;
        all[i].0 += 1;
        all[i].1 += won;
        let i = ((wild[0] - wild[1]).clamp(-4, 4) + 4) as usize;
        two[i].0 += 1;
        two[i].1 += won;
    }
    for (name, table) in [("jacks", all), ("two-eyed jacks", two)] {
        println!("{name} received, team 0 minus team 1: games, team 0 wins");
        for (i, (n, w)) in table.iter().enumerate() {
            if *n > 0 {
                println!(
                    "  {:+}: {:5} games, {:5.1}% won",
                    i as i32 - 4,
                    n,
                    100.0 * *w as f64 / *n as f64
                );
            }
        }
    }
}
