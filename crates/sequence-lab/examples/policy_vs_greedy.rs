//! The tactical playout policy (no search) against the greedy bot, seats
//! alternated: `cargo run --release -p sequence-lab --example policy_vs_greedy [GAMES] [PLAYERS]`.
//! For tuning the policy (its random share: `tactical_move_with`).

use sequence_bots::classic::greedy_choice;
use sequence_bots::classic::playout::tactical_move;
use sequence_classic::{Config, Game, Options, RngReshuffler, Status, Team};
use sequence_common::rng::{game_rng, playout_rng};

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(2000);
    let players: u8 = args.next().and_then(|s| s.parse().ok()).unwrap_or(2);
    let cfg = Config::new(players, None, Options::default()).expect("config");
    let mut wins = 0u64;
    let mut draws = 0u64;
    for g in 0..games {
        let mut rng = game_rng(g);
        let mut prng = playout_rng(g);
        let (mut game, _) = Game::deal(cfg.clone(), &mut rng);
        let me = Team((g % cfg.teams() as u64) as u8);
        while !game.is_over() {
            let seat = game.turn();
            let mv = if game.team_of(seat) == me {
                tactical_move(&game, &mut prng)
            } else {
                let view = game.view(seat);
                let det = view.determinize(&mut rng);
                greedy_choice(&det, &view.legal_moves(), &mut rng)
            };
            if game
                .apply(game.turn(), mv, &mut RngReshuffler(&mut rng))
                .is_err()
            {
                break;
            }
        }
        match game.status() {
            Status::Won(t) if t == me => wins += 1,
            Status::Won(_) => {}
            _ => draws += 1,
        }
    }
    let p = (wins as f64 + draws as f64 / 2.0) / games as f64;
    let se = (p * (1.0 - p) / games as f64).sqrt();
    println!(
        "policy vs greedy, {players} players: {wins} wins, {draws} draws of {games}: {:.1}% ± {:.1}",
        100.0 * p,
        196.0 * se
    );
}
