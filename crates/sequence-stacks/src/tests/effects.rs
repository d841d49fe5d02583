//! What a decision did, as the engine reports it ([`Effects`]): on
//! positions of the rules (S3 a completion, S5b the Block window opened and
//! closed, S5 steals, S4 the draws and who sees them, S6 the reshuffle,
//! S7 the end), and decision by decision against the states before and
//! after over random games.

use super::*;
use crate::effects::{Effects, WindowClosed};
use rand::SeedableRng;
use sequence_common::{MoveEffects, Outcome};

fn effects(g: &mut Game, seat: u8, d: Decision) -> Effects {
    g.play(Seat(seat), d, &mut NoReshuffle)
        .unwrap_or_else(|e| panic!("{d}: {e}"))
}

#[test]
fn s3_s5b_a_completion_opens_the_window_and_the_last_pass_gives_the_chip() {
    let mut g = table(3, D, &[&[Card::R5, Card::B1], &[], &[]]);
    set_pile(&mut g, RA, 4);
    let fx = effects(&mut g, 0, pile(Card::R5, RA));
    assert_eq!(fx.completed, Some(RA));
    let offer = fx.opened.expect("a Block window opens (S5b)");
    assert_eq!(
        (offer.completer, offer.offered, offer.colour),
        (Seat(0), Seat(1), Colour::Red)
    );
    assert_eq!(fx.closed, None);
    // the first pass leaves the window open, the last one closes it
    let first = effects(&mut g, 1, Decision::Pass);
    assert_eq!(
        first,
        Effects {
            seat: Seat(1),
            drawn: first.drawn,
            ..Effects::default()
        }
    );
    let last = effects(&mut g, 2, Decision::Pass);
    assert_eq!(
        last.closed,
        Some(WindowClosed {
            completer: Seat(0),
            colour: Colour::Red,
            blocked_by: None,
            chip: Some(Colour::Red),
        })
    );
    assert_eq!(g.chips(Seat(0)), [0, 1]);
    assert_eq!(last.end, Outcome::Playing);
}

#[test]
fn s5b_a_block_closes_the_window_with_no_chip() {
    let mut g = table(3, D, &[&[Card::B5, Card::R2], &[Card::Block], &[]]);
    set_pile(&mut g, BA, 4);
    effects(&mut g, 0, pile(Card::B5, BA));
    let fx = effects(&mut g, 1, Decision::Block);
    assert_eq!(
        fx.closed,
        Some(WindowClosed {
            completer: Seat(0),
            colour: Colour::Blue,
            blocked_by: Some(Seat(1)),
            chip: None,
        })
    );
    assert_eq!(fx.seat, Seat(1));
}

#[test]
fn s5_steals_report_the_card_taken_and_the_chip() {
    let mut g = table(
        3,
        D,
        &[&[Card::StealCard, Card::StealChip, Card::B1], &[], &[]],
    );
    push_discard(&mut g, Seat(2), Card::B4);
    push_discard(&mut g, Seat(2), Card::RW);
    g.chips[1] = [1, 0];
    let fx = effects(
        &mut g,
        0,
        Decision::StealCard {
            from: Source::Hand,
            target: Seat(2),
        },
    );
    assert_eq!(fx.took, Some((Seat(2), Card::RW)));
    let fx = effects(
        &mut g,
        0,
        Decision::StealChip {
            from: Source::Hand,
            target: Seat(1),
            colour: Colour::Blue,
        },
    );
    assert_eq!(fx.stole_chip, Some((Seat(1), Colour::Blue)));
    assert_eq!(fx.took, None);
}

#[test]
fn s4_an_emptied_hand_draws_five_seen_by_its_seat_only() {
    let mut g = table(2, D, &[&[Card::B1], &[]]);
    let top: Vec<Card> = g.draw[g.draw_len as usize - 5..g.draw_len as usize].to_vec();
    let fx = effects(&mut g, 0, pile(Card::B1, BA));
    assert_eq!(fx.drawn.seat, Seat(0));
    assert_eq!(fx.drawn.count(), 5);
    let mut drawn: Vec<Card> = fx.drawn.cards().collect();
    let mut want = top;
    drawn.sort();
    want.sort();
    assert_eq!(drawn, want);
    for viewer in [Some(Seat(1)), None] {
        let seen = fx.seen_by(viewer);
        assert_eq!((seen.drawn.count(), seen.drawn.cards().count()), (5, 0));
        assert!(!format!("{seen:?}").contains("B2"), "{seen:?}");
    }
    assert_eq!(fx.seen_by(Some(Seat(0))), fx);
}

#[test]
fn s4a_the_next_seat_draws_at_the_start_of_its_turn() {
    let mut g = table(2, D, &[&[Card::B1, Card::R2], &[Card::R3]]);
    let fx = effects(&mut g, 0, Decision::Discard { card: Card::R2 });
    assert_eq!(fx.seat, Seat(0));
    assert_eq!((fx.drawn.seat, fx.drawn.count()), (Seat(1), 4));
    assert_eq!(fx.seen_by(Some(Seat(0))).drawn.cards().count(), 0);
}

#[test]
fn s7_a_winning_chip_reports_the_win_with_the_window_closed() {
    let mut g = table(2, D, &[&[Card::R5, Card::B1], &[]]);
    set_pile(&mut g, RA, 4);
    g.chips[0] = [2, 2];
    effects(&mut g, 0, pile(Card::R5, RA));
    let fx = effects(&mut g, 1, Decision::Pass);
    assert_eq!(fx.end, Outcome::Won(0));
    assert!(fx.ended());
    assert_eq!(fx.closed.and_then(|w| w.chip), Some(Colour::Red));
}

/// The card `d` takes from the deciding seat's hand.
fn from_hand(d: Decision) -> Option<Card> {
    let hand = |from: Source, c: Card| (from == Source::Hand).then_some(c);
    match d {
        Decision::Pile { card, from, .. } => hand(from, card),
        Decision::Skip { from } => hand(from, Card::Skip),
        Decision::Reverse { from } => hand(from, Card::Reverse),
        Decision::StealCard { from, .. } => hand(from, Card::StealCard),
        Decision::StealChip { from, .. } => hand(from, Card::StealChip),
        Decision::Discard { card } => Some(card),
        Decision::Block => Some(Card::Block),
        Decision::Pass | Decision::End => None,
    }
}

/// Checks `fx`, the effects of `d` by `seat`, against `before` and `after`.
fn check(before: &Game, after: &Game, seat: Seat, d: Decision, fx: &Effects) {
    let ctx = format!("{d:?} by {seat:?}: {fx:?}");
    assert_eq!(fx.seat, seat, "{ctx}");
    let completed = match d {
        Decision::Pile { place, .. } if before.pile(place).len() == 4 => Some(place),
        _ => None,
    };
    assert_eq!(fx.completed, completed, "{ctx}");
    assert_eq!(fx.opened, completed.and(after.block_offer()), "{ctx}");
    let took = match d {
        Decision::StealCard { target, .. } => before.discard_top(target).map(|c| (target, c)),
        _ => None,
    };
    assert_eq!(fx.took, took, "{ctx}");
    let stole = match d {
        Decision::StealChip { target, colour, .. } => Some((target, colour)),
        _ => None,
    };
    assert_eq!(fx.stole_chip, stole, "{ctx}");
    let closed = match (before.block_offer(), after.block_offer(), d) {
        (Some(w), None, _) => {
            let c = w.completer;
            let gained = (0..2).find(|&i| after.chips(c)[i] > before.chips(c)[i]);
            Some(WindowClosed {
                completer: c,
                colour: w.colour,
                blocked_by: (d == Decision::Block).then_some(seat),
                chip: gained.map(|i| Colour::ALL[i]),
            })
        }
        _ => None,
    };
    assert_eq!(fx.closed, closed, "{ctx}");
    assert_eq!(
        fx.reshuffles as u16,
        after.reshuffle_count() - before.reshuffle_count(),
        "{ctx}"
    );
    // every hand changed by what the decision took from it or gave it, and
    // the cards drawn
    for s in (0..before.players()).map(Seat) {
        let mut want = before.hand_counts(s);
        if s == seat {
            if let Some(c) = from_hand(d) {
                want[c.index()] -= 1;
            }
            if let Some((_, c)) = fx.took {
                want[c.index()] += 1;
            }
        }
        if fx.drawn.seat == s {
            for c in fx.drawn.cards() {
                want[c.index()] += 1;
            }
        }
        assert_eq!(want, after.hand_counts(s), "{ctx} {s:?}");
    }
    let end = if after.status() == Status::Playing {
        Outcome::Playing
    } else {
        after.outcome()
    };
    assert_eq!(fx.end, end, "{ctx}");
}

#[test]
fn effects_agree_with_the_states_before_and_after_in_random_games() {
    let mut o2 = D;
    o2.refill = Refill::TurnEnd;
    o2.block_window = BlockWindow::NextPlayer;
    let mut o3 = D;
    o3.reshuffle_actions = ReshuffleActions::Always;
    o3.piles_per_colour = 1;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(23);
    let mut seen = [0u32; 6];
    for (players, options) in [(2, D), (3, o2), (4, o3), (6, D)] {
        let config = crate::game::Config::new(players, options).unwrap();
        for _ in 0..25 {
            let (mut g, _) = Game::deal(config, &mut rng);
            let mut n = 0;
            while let (Some(seat), Some(d)) = (g.to_act(), g.random_move(&mut rng)) {
                let before = g.clone();
                let fx = g.play(seat, d, &mut RngReshuffler(&mut rng)).unwrap();
                check(&before, &g, seat, d, &fx);
                for (k, hit) in [
                    fx.completed.is_some(),
                    fx.closed.is_some_and(|w| w.blocked_by.is_some()),
                    fx.closed.is_some_and(|w| w.chip.is_some()),
                    fx.took.is_some(),
                    fx.reshuffles > 0,
                    fx.ended(),
                ]
                .into_iter()
                .enumerate()
                {
                    seen[k] += hit as u32;
                }
                n += 1;
                if n > 5000 {
                    break;
                }
            }
        }
    }
    assert!(
        seen.iter().all(|&n| n > 0),
        "every kind of effect: {seen:?}"
    );
}
