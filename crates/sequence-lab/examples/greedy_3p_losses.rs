//! Studies greedy against random seats in 3-player classic Sequence (C3,
//! C9: one sequence wins): `cargo run --release -p sequence-lab --example
//! greedy_3p_losses [GAMES] [SEED]`. Plays greedy alone against two random
//! seats, then two greedy seats against one random seat (greedy's seats
//! rotated), and prints the win rates, game lengths and, for the games
//! greedy lost alone, the last turn at which it could still touch the
//! winning window (place on one of its spaces or remove one of its chips)
//! and what it played then, and the fours the opponents held at its last
//! turn.

use sequence_bots::classic::{lines, GreedyBot};
use sequence_bots::Greedy;
use sequence_bots::{Bot, RandomBot};
use sequence_classic::{Config, Game, Move, Options, RngReshuffler, Space, Status, Team, CORNERS};
use sequence_common::rng::game_rng;
use std::collections::BTreeMap;

/// What the games greedy lost alone looked like.
#[derive(Default)]
struct Study {
    losses: u32,
    /// Losses where greedy could never touch the winning window.
    never: u32,
    /// By (greedy turns before the end, spaces the winner then missed):
    /// the last turn greedy could touch the winning window.
    last_touch: BTreeMap<(usize, u32), u32>,
    /// What greedy played at that turn (`W`: inside the winning window).
    played: BTreeMap<String, u32>,
    /// At greedy's last turn: the opponents' winning spaces, the winner's,
    /// how many of them greedy could fill, whether it held a remover.
    last_turn: BTreeMap<String, u32>,
}

impl Study {
    fn add(&mut self, end: &Game, winner: Team, turns: &[(Game, Move)]) {
        self.losses += 1;
        let len = end.sequence_length();
        let w = end
            .sequences()
            .find(|(t, _)| *t == winner)
            .map_or(0, |(_, w)| w.mask(len).0);
        if let Some((g, _)) = turns.last() {
            self.last_turn(g, winner);
        }
        let n = turns.len();
        for (i, (g, mv)) in turns.iter().enumerate().rev() {
            let wc = g.chips(winner).0;
            let inside = |at: Space| w & at.bb().0 != 0;
            let can = g.view(g.turn()).legal_moves().iter().any(|m| match *m {
                Move::Place { at, .. } => inside(at),
                Move::Remove { at, .. } => inside(at) && wc & at.bb().0 != 0,
                _ => false,
            });
            if can {
                let missing = len as u32 - (w & (wc | CORNERS.0)).count_ones();
                *self.last_touch.entry((n - 1 - i, missing)).or_default() += 1;
                let mark = |at: Space| if inside(at) { "W" } else { "" };
                let kind = match *mv {
                    Move::Place { card, at, .. } if card.is_jack() => format!("wild{}", mark(at)),
                    Move::Place { at, .. } => format!("place{}", mark(at)),
                    Move::Remove { at, .. } => format!("remove{}", mark(at)),
                    _ => "other".to_string(),
                };
                *self
                    .played
                    .entry(format!("{kind} missing {missing}"))
                    .or_default() += 1;
                return;
            }
        }
        self.never += 1;
    }

    fn last_turn(&mut self, g: &Game, winner: Team) {
        let me = g.team_of(g.turn());
        let ls = lines(g.sequence_length());
        let (mut spaces, mut theirs) = (0u128, 0u128);
        for o in (0..3).map(Team).filter(|&o| o != me) {
            let own = g.chips(o).0 | CORNERS.0;
            let opp = g.occupied().0 & !g.chips(o).0;
            for &w in &ls.windows {
                let gap = w & !own;
                if w & opp == 0 && gap.count_ones() == 1 {
                    spaces |= gap;
                    if o == winner {
                        theirs |= gap;
                    }
                }
            }
        }
        let moves = g.view(g.turn()).legal_moves();
        let fill = moves.iter().fold(0u128, |b, m| match *m {
            Move::Place { at, .. } => b | (at.bb().0 & spaces),
            _ => b,
        });
        let remover = moves.iter().any(|m| matches!(m, Move::Remove { .. }));
        let key = format!(
            "winning spaces {} (winner {}), greedy fills {}, remover {remover}",
            spaces.count_ones(),
            theirs.count_ones(),
            fill.count_ones()
        );
        *self.last_turn.entry(key).or_default() += 1;
    }

    fn print(&self) {
        println!(
            "  losses {}, winning window never touched {}",
            self.losses, self.never
        );
        println!(
            "  last touch (turns before end, winner missing): {:?}",
            self.last_touch
        );
        println!("  played then: {:?}", self.played);
        println!("  at greedy's last turn:");
        for (k, v) in &self.last_turn {
            println!("    {k}: {v}");
        }
    }
}

/// Counts by 25 plies (the last bin: 175 or more).
fn by_25(plies: &[u32]) -> [u32; 8] {
    let mut h = [0u32; 8];
    for &p in plies {
        h[(p as usize / 25).min(7)] += 1;
    }
    h
}

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(2000);
    let seed: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let cfg = Config::new(3, None, Options::default()).expect("config");
    for greedy_seats in [1usize, 2] {
        let (mut wins, mut draws) = (0u64, 0u64);
        let (mut win_plies, mut loss_plies) = (Vec::new(), Vec::new());
        let mut study = Study::default();
        for g in 0..games {
            let gs = seed.wrapping_mul(1_000_003).wrapping_add(g);
            let mut rng = game_rng(gs);
            let (mut game, _) = Game::deal(cfg.clone(), &mut rng);
            let first = (g % 3) as usize;
            let greedy: Vec<bool> = (0..3).map(|s| (s + 3 - first) % 3 < greedy_seats).collect();
            let mut bots: Vec<Box<dyn Bot<Game>>> = (0..3)
                .map(|s| -> Box<dyn Bot<Game>> {
                    if greedy[s] {
                        Box::new(GreedyBot::new(
                            "greedy".into(),
                            gs ^ (s as u64 + 11),
                            Greedy::new(0.0),
                        ))
                    } else {
                        Box::new(RandomBot::new("random".into(), gs ^ (s as u64 + 77)))
                    }
                })
                .collect();
            // Greedy's decisions, with the position each was made in.
            let mut turns: Vec<(Game, Move)> = Vec::new();
            while !game.is_over() && game.ply() < 5000 {
                let seat = game.turn();
                let mv = bots[seat.index()].choose(&game.view(seat));
                if greedy[seat.index()] && greedy_seats == 1 {
                    turns.push((game.clone(), mv));
                }
                if game
                    .apply(game.turn(), mv, &mut RngReshuffler(&mut rng))
                    .is_err()
                {
                    break;
                }
            }
            match game.status() {
                Status::Won(t) if greedy[t.index()] => {
                    wins += 1;
                    win_plies.push(game.ply());
                }
                Status::Won(t) => {
                    loss_plies.push(game.ply());
                    if greedy_seats == 1 {
                        study.add(&game, t, &turns);
                    }
                }
                _ => draws += 1,
            }
        }
        println!(
            "greedy seats {greedy_seats}: {wins}/{games} = {:.1}% won, {draws} draws",
            100.0 * wins as f64 / games as f64
        );
        println!("  plies of wins by 25: {:?}", by_25(&win_plies));
        println!("  plies of losses by 25: {:?}", by_25(&loss_plies));
        if greedy_seats == 1 {
            study.print();
        }
    }
}
