//! Property tests over random games with 2 to 6 players: cards and chips
//! are conserved; every listed decision is accepted and others refused;
//! a record's round trip replays the same game; every game ends.

use proptest::prelude::*;
use rand::Rng;
use sequence_common::rng::PlayoutRng;
use sequence_common::Seat;
use sequence_common::{NoReshuffler as NoReshuffle, RngReshuffler};
use sequence_stacks::card::{deck_counts, Card, Colour, Place};
use sequence_stacks::game::CHIPS_PER_COLOUR;
use sequence_stacks::record::replay;
use sequence_stacks::Decisions;
use sequence_stacks::{Config, Decision, Game, Match, Options, Source, Status};

/// Enough for any random game (they end after a few hundred decisions).
const CAP: u32 = 200_000;

fn options(i: u8) -> Options {
    let mut o = Options::default();
    match i % 6 {
        1 => o.refill = sequence_stacks::Refill::TurnEnd,
        2 => o.block_window = sequence_stacks::BlockWindow::NextPlayer,
        3 => o.reshuffle_actions = sequence_stacks::ReshuffleActions::Always,
        4 => o.piles_per_colour = 3,
        5 => o.reshuffle_actions = sequence_stacks::ReshuffleActions::Never,
        _ => {}
    }
    o
}

fn check_conservation(g: &Game) {
    assert_eq!(g.card_census(), deck_counts(g.players()), "cards conserved");
    let mut chips = g.supply();
    for s in 0..g.players() {
        let c = g.chips(Seat(s));
        chips[0] += c[0];
        chips[1] += c[1];
    }
    assert_eq!(chips, [CHIPS_PER_COLOUR; 2], "chips conserved");
}

/// A random decision from the whole decision space (legal or not).
fn arbitrary_decision<R: Rng>(rng: &mut R, players: u8) -> Decision {
    let card = Card::from_index(rng.random_range(0..17));
    let from = if rng.random_bool(0.5) {
        Source::Hand
    } else {
        Source::Discard
    };
    let target = Seat(rng.random_range(0..players));
    let colour = if rng.random_bool(0.5) {
        Colour::Blue
    } else {
        Colour::Red
    };
    match rng.random_range(0..9) {
        0 => Decision::Pile {
            card,
            from,
            place: Place::new(colour, rng.random_range(0..4)),
        },
        1 => Decision::Skip { from },
        2 => Decision::Reverse { from },
        3 => Decision::StealCard { from, target },
        4 => Decision::StealChip {
            from,
            target,
            colour,
        },
        5 => Decision::Block,
        6 => Decision::Pass,
        7 => Decision::Discard { card },
        _ => Decision::End,
    }
}

/// A game of `players` under the options `opt` ([`options`]) dealt from
/// `seed`, and the generator that dealt it (to play on with).
fn dealt(players: u8, seed: u64, opt: u8) -> (Game, PlayoutRng) {
    let mut rng = sequence_common::rng::playout_rng(seed);
    let config = Config::new(players, options(opt)).expect("2 to 6 players (S1)");
    let (g, _) = Game::deal(config, &mut rng);
    (g, rng)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn cards_and_chips_conserved_and_every_game_ends(players in 2u8..=6, seed in any::<u64>(), opt in 0u8..6) {
        let (mut g, mut rng) = dealt(players, seed, opt);
        let mut list = Decisions::new();
        let mut n = 0;
        while let Some(seat) = g.to_act() {
            prop_assert!(n < CAP, "game did not end");
            check_conservation(&g);
            g.legal_moves(&mut list);
            prop_assert!(!list.is_empty());
            let d = list[rng.random_range(0..list.len())];
            g.play(seat, d, &mut RngReshuffler(&mut rng)).unwrap();
            n += 1;
        }
        check_conservation(&g);
        prop_assert!(g.status() != Status::Playing);
    }

    #[test]
    fn listed_decisions_accepted_others_refused(players in 2u8..=6, seed in any::<u64>(), opt in 0u8..6) {
        let (mut g, mut rng) = dealt(players, seed, opt);
        let mut list = Decisions::new();
        let mut steps = 0;
        while let Some(seat) = g.to_act() {
            g.legal_moves(&mut list);
            // Every listed decision is accepted.
            for &d in list.iter() {
                let mut h = g.clone();
                prop_assert!(h.play(seat, d, &mut RngReshuffler(&mut rng.clone())).is_ok(), "listed {d} refused");
            }
            // Unlisted decisions (or any decision by another seat) are refused
            // and change nothing.
            for _ in 0..8 {
                let d = arbitrary_decision(&mut rng, players);
                let who = if rng.random_bool(0.8) { seat } else { Seat(rng.random_range(0..players)) };
                let listed = who == seat && list.contains(&d);
                prop_assert_eq!(g.check(who, d).is_ok(), listed, "check disagrees with legal on {}", d);
                let mut h = g.clone();
                let r = h.play(who, d, &mut NoReshuffle);
                if listed {
                    let mut h2 = g.clone();
                    prop_assert!(h2.play(who, d, &mut RngReshuffler(&mut rng.clone())).is_ok());
                } else {
                    prop_assert!(r.is_err(), "unlisted {d} by seat {} accepted", who.0);
                    prop_assert_eq!(&h, &g, "a refused decision changed the game");
                }
            }
            // The fast random choice picks only listed decisions.
            let r = g.random_move(&mut rng).unwrap();
            prop_assert!(list.contains(&r));
            g.play(seat, r, &mut RngReshuffler(&mut rng)).unwrap();
            steps += 1;
            if steps > 400 { break; }
        }
    }

    #[test]
    fn record_round_trip_replays_the_same_game(players in 2u8..=6, seed in any::<u64>(), opt in 0u8..6) {
        let mut m = Match::new(Config::new(players, options(opt)).unwrap(), seed);
        let mut rng = sequence_common::rng::playout_rng(seed ^ 0x5eed);
        while let Some(s) = m.game().to_act() {
            let d = m.game().random_move(&mut rng).unwrap();
            m.play(s, d).unwrap();
        }
        let rec = m.record().expect("dealt from a seed");
        let text = rec.to_json_string();
        let (back, g) = sequence_stacks::Record::from_json_str(&text).unwrap();
        prop_assert_eq!(&g, m.game());
        prop_assert_eq!(&back, &rec);
        prop_assert_eq!(back.to_json_string(), text);
        let summary = sequence_stacks::record::verify(&rec.to_json()).unwrap();
        prop_assert_eq!(summary["moves"].as_u64(), Some(rec.moves.len() as u64));
        prop_assert_eq!(summary["winner"].as_u64().map(|w| w as u8), g.winner().map(|s| s.0));
        // Replaying a prefix is a legal unfinished game.
        let mut v = rec.to_json();
        let k = rec.moves.len() / 2;
        v["moves"].as_array_mut().unwrap().truncate(k);
        v.as_object_mut().unwrap().remove("result");
        v.as_object_mut().unwrap().remove("reshuffles");
        let _ = replay(&v);
    }
}
