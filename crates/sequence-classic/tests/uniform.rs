//! `Game::random_move` is uniform over `Game::legal_moves` (C6, C6a): the
//! frequencies of many seeded draws in many positions against the list,
//! by a chi-square test; and the case the earlier engine got wrong, a seat
//! with no play but a dead card, which may pass as well as exchange.

use sequence_classic::{
    Card, Config, Game, Move, MoveList, Options, Position, RngReshuffler, Seat, Space, Team,
};
use std::collections::HashMap;

/// Draws `per_move` samples per legal move in `g` and returns the
/// chi-square statistic and its degrees of freedom; panics on a move that
/// is not listed.
fn chi_square(g: &Game, per_move: usize, rng: &mut impl rand::Rng) -> (f64, usize) {
    let mut list = MoveList::new();
    g.legal_moves(&mut list);
    let n = list.len();
    let mut counts: HashMap<Move, usize> = list.iter().map(|m| (*m, 0)).collect();
    for _ in 0..per_move * n {
        let mv = g.random_move(rng).expect("the game goes on");
        *counts
            .get_mut(&mv)
            .unwrap_or_else(|| panic!("{mv:?} is not in {list:?}")) += 1;
    }
    let e = per_move as f64;
    let x = counts.values().map(|&c| (c as f64 - e).powi(2) / e).sum();
    (x, n - 1)
}

#[test]
fn random_moves_are_uniform_over_the_legal_moves() {
    let mut rng = sequence_common::rng::playout_rng(2024);
    let (mut x, mut df, mut positions) = (0.0, 0usize, 0);
    for players in [2u8, 3, 4] {
        let config = Config::new(players, None, Options::default()).expect("C3");
        for _ in 0..12 {
            let (mut g, _) = Game::deal(config.clone(), &mut rng);
            let mut ply = 0;
            while !g.is_over() && ply < 120 {
                if ply % 7 == 0 {
                    let (xi, dfi) = chi_square(&g, 40, &mut rng);
                    x += xi;
                    df += dfi;
                    positions += 1;
                }
                let mv = g.random_move(&mut rng).expect("the game goes on");
                g.apply(g.turn(), mv, &mut RngReshuffler(&mut rng))
                    .expect("legal");
                ply += 1;
            }
        }
    }
    // Sum of independent chi-squares: mean df, variance 2 df. Four
    // standard deviations either way.
    let z = (x - df as f64) / (2.0 * df as f64).sqrt();
    assert!(
        positions > 300 && df > 5_000,
        "{positions} positions, df {df}"
    );
    assert!(
        z.abs() < 4.0,
        "chi-square {x:.0} on {df} degrees of freedom (z = {z:.2})"
    );
}

/// A seat whose only card is dead (both 7♥ spaces covered, C6) has two
/// legal moves: exchange it, or pass without a play (C6a). Random play
/// takes each half of the time (the earlier engine always exchanged, so
/// random games never ended drawn).
#[test]
fn a_stuck_seat_with_a_dead_card_passes_as_often_as_it_exchanges() {
    let sq = |s: &str| s.parse::<Space>().expect("space");
    let card = |s: &str| s.parse::<Card>().expect("card");
    let config = Config::new(2, None, Options::default()).expect("C3");
    let pos = Position {
        chips: vec![(Team(1), sq("i5")), (Team(1), sq("d6"))],
        sequences: vec![],
        hands: vec![vec![card("7H")], vec![card("2S")]],
        discards: vec![],
        draw_pile: None,
        turn: Seat(0),
    };
    let g = Game::from_position(config, &pos).expect("a valid position");
    assert!(g.is_dead(card("7H")));
    let mut list = MoveList::new();
    g.legal_moves(&mut list);
    assert_eq!(
        list.as_slice(),
        [Move::Dead { card: card("7H") }, Move::Pass]
    );
    let mut rng = sequence_common::rng::playout_rng(5);
    let passes = (0..20_000)
        .filter(|_| g.random_move(&mut rng) == Some(Move::Pass))
        .count();
    // Binomial(20000, 1/2): sd about 71.
    assert!(
        (9_600..=10_400).contains(&passes),
        "{passes} passes of 20000"
    );
}
