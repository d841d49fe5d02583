//! The Stacks search bot's building blocks: the allocation-free heuristic
//! agrees with the view-based one, and the root search is legal and
//! reproducible under an iteration budget.

use sequence_bots::stacks::{game_score, rollout_search, score};
use sequence_bots::Budget;
use sequence_common::rng::{game_rng, playout_rng};
use sequence_stacks::{Game, Options, SeatView};

fn position(seed: u64, decisions: u32, players: u8) -> Game {
    let mut rng = game_rng(seed);
    let config = sequence_stacks::Config::new(players, Options::default()).expect("table");
    let (mut g, _) = Game::deal(config, &mut rng);
    g.playout(&mut playout_rng(seed), decisions);
    g
}

/// For each seed, the [`position`] after `decisions(seed)` decisions at a
/// table of `players(seed)`, and the view of the seat that must decide
/// (seeds whose game ended are skipped).
fn views(
    seeds: std::ops::Range<u64>,
    decisions: impl Fn(u64) -> u32,
    players: impl Fn(u64) -> u8,
) -> impl Iterator<Item = (u64, Game, SeatView)> {
    seeds.filter_map(move |seed| {
        let g = position(seed, decisions(seed), players(seed));
        let view = g.view(g.to_act()?);
        Some((seed, g, view))
    })
}

/// Both read one scoring function now; plays from the discard pile used to
/// differ (the view-based copy skipped a hand card that was not played).
#[test]
fn game_score_matches_score() {
    for (seed, g, view) in views(0..300, |s| (s % 120) as u32, |s| 2 + (s % 4) as u8) {
        for &d in &view.legal {
            assert_eq!(game_score(&g, d), score(&view, d), "seed {seed}: {d:?}");
        }
    }
}

#[test]
fn rollout_search_is_legal_and_reproducible() {
    for (seed, _, view) in views(0..20, |_| 40, |s| 2 + (s % 3) as u8) {
        let a = rollout_search(&view, Budget::Iterations(300), seed, &Default::default())
            .expect("search");
        let b = rollout_search(&view, Budget::Iterations(300), seed, &Default::default())
            .expect("search");
        let best = a.best().expect("a move");
        assert!(view.legal.contains(&best));
        assert_eq!(Some(best), b.best());
        assert!(a.iterations > 0);
    }
}

#[test]
fn parallel_search_merges_its_threads() {
    use sequence_bots::stacks::parallel_rollout_search;
    for (seed, _, view) in views(0..10, |_| 40, |s| 2 + (s % 3) as u8) {
        if view.legal.len() < 2 {
            continue;
        }
        let search = || {
            parallel_rollout_search(
                &view,
                Budget::Iterations(400),
                Some(2),
                seed,
                &Default::default(),
            )
            .expect("search")
        };
        let (a, b) = (search(), search());
        assert_eq!(a.trees, 2);
        assert!(view.legal.contains(&a.best().expect("a move")));
        assert_eq!(a.best(), b.best(), "reproducible with fixed threads");
        // Every legal decision appears once, with the playouts of both
        // threads summed.
        assert_eq!(a.moves.len(), view.legal.len());
        let playouts: u64 = a.moves.iter().map(|m| m.1 as u64).sum();
        assert_eq!(playouts, a.iterations);
    }
}
