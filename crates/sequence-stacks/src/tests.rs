//! Rule tests, named after the rule ids of RULES.md Part 2.

use crate::card::{deck_counts, sorted_deck, Card, Colour, Place};
use crate::game::{Game, Status};
use crate::moves::{Decision, Decisions, PlayError, Source};
use crate::options::{BlockWindow, Options, Refill, ReshuffleActions};
use crate::record::{replay, Match};
use sequence_common::{Direction, Seat};
use sequence_common::{NoReshuffler as NoReshuffle, ReshuffleError, RngReshuffler};

mod effects;

const BA: Place = Place::blue_a();
const BB: Place = Place::blue_b();
const RA: Place = Place::red_a();

impl Place {
    const fn blue_a() -> Place {
        Place(0)
    }
    const fn blue_b() -> Place {
        Place(1)
    }
    const fn red_a() -> Place {
        Place(4)
    }
}

/// A table of `players` seats (seat 0 to play, clockwise), every card in
/// the draw pile in kind order, then `hands` given to the seats.
fn table(players: u8, options: Options, hands: &[&[Card]]) -> Game {
    let mut g = Game::deal_empty(players, options, Seat(players - 1));
    let deck = sorted_deck(players);
    for (i, &c) in deck.iter().rev().enumerate() {
        g.draw[i] = c;
    }
    g.draw_len = deck.len() as u8;
    for (s, h) in hands.iter().enumerate() {
        for &c in h.iter() {
            let c = take_from_draw(&mut g, c);
            g.give(Seat(s as u8), c);
        }
    }
    g
}

fn take_from_draw(g: &mut Game, c: Card) -> Card {
    let n = g.draw_len as usize;
    let i = g.draw[..n]
        .iter()
        .rposition(|&d| d == c)
        .expect("card left in the draw pile");
    g.draw.copy_within(i + 1..n, i);
    g.draw_len -= 1;
    c
}

fn set_pile(g: &mut Game, place: Place, n: u8) {
    for k in 1..=n {
        let c = take_from_draw(g, Card::numbered(place.colour(), k));
        g.piles[place.index()][k as usize - 1] = c;
    }
    g.pile_len[place.index()] = n;
}

fn push_discard(g: &mut Game, seat: Seat, c: Card) {
    let c = take_from_draw(g, c);
    let s = seat.index();
    g.discards[s][g.discard_len[s] as usize] = c;
    g.discard_len[s] += 1;
}

fn legal(g: &Game) -> Decisions {
    let mut d = Decisions::new();
    g.legal_moves(&mut d);
    d
}

fn conserved(g: &Game) {
    assert_eq!(g.card_census(), deck_counts(g.players()));
}

fn play(g: &mut Game, seat: u8, d: Decision) {
    g.play(Seat(seat), d, &mut NoReshuffle)
        .unwrap_or_else(|e| panic!("{d}: {e}"));
}

fn pile(card: Card, place: Place) -> Decision {
    Decision::Pile {
        card,
        from: Source::Hand,
        place,
    }
}

const D: Options = Options::DEFAULT;

#[test]
fn s2_deal_five_each_from_the_dealers_left() {
    let deck = sorted_deck(3);
    let g = Game::new(
        crate::game::Config::new(3, Options::default()).unwrap(),
        Seat(1),
        &deck,
    )
    .unwrap();
    assert_eq!(g.turn(), Seat(2));
    assert_eq!(g.hand_len(Seat(0)), 5);
    assert_eq!(g.draw_pile_len(), 105);
    // deck[0] to seat 2, deck[1] to seat 0, deck[2] to seat 1, …
    assert_eq!(
        g.hand(Seat(2)),
        vec![Card::B1, Card::B1, Card::B1, Card::B2, Card::B2]
    );
    conserved(&g);
    let mut bad = deck.clone();
    bad[0] = Card::B2;
    assert!(Game::new(
        crate::game::Config::new(3, Options::default()).unwrap(),
        Seat(0),
        &bad
    )
    .unwrap_err()
    .to_string()
    .contains("field `deck`"));
    assert!(Game::new(
        crate::game::Config::new(2, Options::default()).unwrap(),
        Seat(0),
        &deck
    )
    .is_err());
    assert!(crate::game::Config::new(7, Options::default()).is_err());
}

#[test]
fn s1_every_player_plays_alone_so_a_team_count_is_refused() {
    use sequence_common::{RuleError, Rules};
    let e = <Game as Rules>::table(4, Some(2), Options::default()).unwrap_err();
    assert_eq!(e, crate::game::SetupError::Teams(2));
    assert_eq!(e.code(), "S1.teams");
    assert_eq!(
        e.to_string(),
        "Sequence Stacks has no teams (S1); every player plays alone"
    );
    assert!(<Game as Rules>::table(4, None, Options::default()).is_ok());
}

#[test]
fn s2_two_player_deck_has_112_cards() {
    let mut rng = sequence_common::rng::game_rng(3);
    let (g, deck) = Game::deal(
        crate::game::Config::new(2, Options::default()).unwrap(),
        &mut rng,
    );
    assert_eq!(deck.len(), 112);
    assert!(!deck.contains(&Card::Reverse));
    conserved(&g);
}

#[test]
fn s3_pile_starts_with_a_one_or_a_wild() {
    let mut g = table(2, D, &[&[Card::B2, Card::B1, Card::BW, Card::R3], &[]]);
    assert_eq!(
        g.play(Seat(0), pile(Card::B2, BA), &mut NoReshuffle),
        Err(PlayError::DoesNotFit(Card::B2, BA))
    );
    play(&mut g, 0, pile(Card::B1, BA));
    assert_eq!(g.pile_top(BA), Some(1));
    play(&mut g, 0, pile(Card::BW, BB));
    assert_eq!(g.pile_top(BB), Some(1), "a wild starting a pile is a 1");
    play(&mut g, 0, pile(Card::B2, BA));
    assert_eq!(g.pile_top(BA), Some(2));
    conserved(&g);
}

#[test]
fn s3_wrong_colour_or_wrong_number_refused() {
    let mut g = table(2, D, &[&[Card::B3, Card::R2, Card::RW, Card::Skip], &[]]);
    set_pile(&mut g, BA, 1);
    let e = g
        .play(Seat(0), pile(Card::B3, BA), &mut NoReshuffle)
        .unwrap_err();
    assert_eq!(e.to_string(), "B3 does not fit on blue-a (S3)");
    assert_eq!(
        g.play(Seat(0), pile(Card::R2, BA), &mut NoReshuffle),
        Err(PlayError::DoesNotFit(Card::R2, BA))
    );
    assert_eq!(
        g.play(Seat(0), pile(Card::RW, BA), &mut NoReshuffle),
        Err(PlayError::DoesNotFit(Card::RW, BA)),
        "a wild in its own colour only"
    );
    assert_eq!(
        g.play(Seat(0), pile(Card::Skip, BA), &mut NoReshuffle),
        Err(PlayError::NotAPileCard(Card::Skip))
    );
    assert!(!legal(&g)
        .iter()
        .any(|d| matches!(d, Decision::Pile { place, .. } if *place == BA)));
    assert_eq!(g.pile_top(BA), Some(1));
}

#[test]
fn s3_pile_limit_reached_two_per_colour() {
    let mut g = table(2, D, &[&[Card::B1, Card::BW, Card::R1], &[]]);
    set_pile(&mut g, BA, 2);
    set_pile(&mut g, BB, 3);
    // No blue place is free: the B1 cannot start a third blue pile.
    assert!(!legal(&g)
        .iter()
        .any(|d| matches!(d, Decision::Pile { card: Card::B1, .. })));
    let blue_c = Place::new(Colour::Blue, 2);
    assert_eq!(
        g.play(Seat(0), pile(Card::B1, blue_c), &mut NoReshuffle),
        Err(PlayError::NoSuchPlace(blue_c, 2))
    );
    // Red still has two free places.
    assert!(legal(&g).contains(&pile(Card::R1, RA)));
    // S3a as an option: three piles per colour.
    let mut o = D;
    o.piles_per_colour = 3;
    let mut g3 = table(2, o, &[&[Card::B1], &[]]);
    set_pile(&mut g3, BA, 2);
    set_pile(&mut g3, BB, 3);
    assert!(legal(&g3).contains(&pile(Card::B1, blue_c)));
}

#[test]
fn s3_wild_as_one_and_as_five() {
    let mut g = table(3, D, &[&[Card::BW, Card::BW, Card::R2], &[], &[]]);
    // As a 1: it starts a pile; the next card is a 2.
    play(&mut g, 0, pile(Card::BW, BB));
    assert_eq!(g.pile_top(BB), Some(1));
    assert!(!g.fits(Card::B1, BB) && g.fits(Card::B2, BB));
    // As a 5: it completes the pile and takes a chip.
    set_pile(&mut g, BA, 4);
    play(&mut g, 0, pile(Card::BW, BA));
    assert_eq!(g.pile_top(BA), None, "the place is free again");
    assert_eq!(g.completed_counts()[Card::BW.index()], 1);
    let w = g.block_offer().expect("Block window (S5b)");
    assert_eq!((w.completer, w.offered, w.remaining), (Seat(0), Seat(1), 2));
    play(&mut g, 1, Decision::Pass);
    play(&mut g, 2, Decision::Pass);
    assert_eq!(g.chips(Seat(0)), [1, 0]);
    assert_eq!(g.supply(), [19, 20]);
    conserved(&g);
}

#[test]
fn s3_completion_with_empty_supply_gives_no_chip() {
    let mut g = table(2, D, &[&[Card::R5], &[]]);
    set_pile(&mut g, RA, 4);
    g.supply = [3, 0];
    play(&mut g, 0, pile(Card::R5, RA));
    play(&mut g, 1, Decision::Pass);
    assert_eq!(g.chips(Seat(0)), [0, 0]);
    assert_eq!(g.status(), Status::Playing);
}

#[test]
fn s4_top_of_own_discard_pile_playable_another_players_not() {
    let mut g = table(2, D, &[&[Card::R4], &[Card::B2]]);
    set_pile(&mut g, BA, 1);
    push_discard(&mut g, Seat(0), Card::B3);
    push_discard(&mut g, Seat(0), Card::B2);
    push_discard(&mut g, Seat(1), Card::B2);
    let from_discard = Decision::Pile {
        card: Card::B2,
        from: Source::Discard,
        place: BA,
    };
    assert!(legal(&g).contains(&from_discard));
    // B3 lies under the top: not playable yet.
    let b3 = Decision::Pile {
        card: Card::B3,
        from: Source::Discard,
        place: BA,
    };
    assert_eq!(
        g.play(Seat(0), b3, &mut NoReshuffle),
        Err(PlayError::NotOnDiscardTop(Card::B3))
    );
    play(&mut g, 0, from_discard);
    assert_eq!(g.discard_top(Seat(0)), Some(Card::B3));
    // Seat 1's top is B2 but seat 0 cannot play it; B3 (own top) fits now.
    let e = g
        .play(
            Seat(0),
            Decision::Pile {
                card: Card::B2,
                from: Source::Discard,
                place: BB,
            },
            &mut NoReshuffle,
        )
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "B2 is not on top of the seat's discard pile (S4)"
    );
    play(&mut g, 0, b3);
    assert_eq!(g.pile_top(BA), Some(3));
    assert_eq!(g.discard_pile(Seat(1)), &[Card::B2]);
}

#[test]
fn s4_turn_ends_with_a_discard_and_not_seats_turn_refused() {
    let mut g = table(3, D, &[&[Card::R4, Card::B4], &[Card::B3], &[]]);
    let e = g
        .play(
            Seat(1),
            Decision::Discard { card: Card::B3 },
            &mut NoReshuffle,
        )
        .unwrap_err();
    assert_eq!(e.to_string(), "not seat 1's turn (S4)");
    assert_eq!(
        g.play(
            Seat(0),
            Decision::Discard { card: Card::R5 },
            &mut NoReshuffle
        )
        .unwrap_err()
        .to_string(),
        "R5 not in hand"
    );
    assert_eq!(
        g.play(Seat(0), Decision::End, &mut NoReshuffle),
        Err(PlayError::HandNotEmpty)
    );
    assert!(!legal(&g).contains(&Decision::End));
    play(&mut g, 0, Decision::Discard { card: Card::R4 });
    assert_eq!(g.discard_top(Seat(0)), Some(Card::R4));
    assert_eq!(g.turn(), Seat(1));
    conserved(&g);
}

#[test]
fn s4a_draw_up_to_five_at_the_start_of_the_turn() {
    let mut g = table(3, D, &[&[Card::R4], &[Card::B3, Card::B4], &[]]);
    play(&mut g, 0, Decision::Discard { card: Card::R4 });
    assert_eq!(g.hand_len(Seat(1)), 5, "seat 1 drew 3 at its turn's start");
    assert_eq!(g.hand_len(Seat(0)), 0, "seat 0 draws at its own next turn");
    // The option: draw at the end of the turn instead.
    let mut o = D;
    o.refill = Refill::TurnEnd;
    let mut g = table(3, o, &[&[Card::R4, Card::R3], &[Card::B3], &[]]);
    play(&mut g, 0, Decision::Discard { card: Card::R4 });
    assert_eq!(g.hand_len(Seat(0)), 5);
    assert_eq!(g.hand_len(Seat(1)), 1);
    conserved(&g);
}

#[test]
fn s4_emptied_hand_draws_five_more_and_end_without_discard() {
    let mut g = table(2, D, &[&[Card::B1], &[]]);
    play(&mut g, 0, pile(Card::B1, BA));
    assert_eq!(g.hand_len(Seat(0)), 5);
    assert_eq!(g.turn(), Seat(0), "the player may go on");
    // With nothing to draw, the turn ends without a discard.
    let mut g = table(2, D, &[&[Card::B1], &[]]);
    g.draw_len = 0;
    g.quiet_turns = 0;
    let mut g2 = g.clone();
    g2.play(Seat(0), pile(Card::B1, BA), &mut NoReshuffle)
        .unwrap();
    assert_eq!(g2.hand_len(Seat(0)), 0);
    assert_eq!(legal(&g2).to_vec(), vec![Decision::End]);
    play(&mut g2, 0, Decision::End);
    assert_eq!(g2.turn(), Seat(1));
}

#[test]
fn s5_skip_with_two_and_with_three_players() {
    // Two players: the Skip makes the opponent lose the turn: seat 0 again.
    let mut g = table(2, D, &[&[Card::Skip, Card::R3], &[]]);
    play(&mut g, 0, Decision::Skip { from: Source::Hand });
    assert_eq!(
        g.action_discard_counts()[0],
        1,
        "to the action-card discard pile"
    );
    play(&mut g, 0, Decision::Discard { card: Card::R3 });
    assert_eq!(g.turn(), Seat(0));
    // Three players: seat 1 skipped, seat 2 plays; two Skips skip two.
    let mut g = table(3, D, &[&[Card::Skip, Card::R3], &[], &[]]);
    play(&mut g, 0, Decision::Skip { from: Source::Hand });
    play(&mut g, 0, Decision::Discard { card: Card::R3 });
    assert_eq!(g.turn(), Seat(2));
    assert_eq!(g.hand_len(Seat(1)), 0, "a skipped seat does not draw");
    let mut g = table(4, D, &[&[Card::Skip, Card::Skip, Card::R3], &[], &[], &[]]);
    play(&mut g, 0, Decision::Skip { from: Source::Hand });
    play(&mut g, 0, Decision::Skip { from: Source::Hand });
    play(&mut g, 0, Decision::Discard { card: Card::R3 });
    assert_eq!(g.turn(), Seat(3));
}

#[test]
fn s5_reverse_with_two_and_with_three_players() {
    let mut g = table(3, D, &[&[Card::Reverse, Card::R3], &[], &[]]);
    play(&mut g, 0, Decision::Reverse { from: Source::Hand });
    assert_eq!(g.direction(), Direction::Counterclockwise);
    play(&mut g, 0, Decision::Discard { card: Card::R3 });
    assert_eq!(g.turn(), Seat(2));
    // Reverse then Skip: the skip follows the new direction.
    let mut g = table(
        4,
        D,
        &[&[Card::Reverse, Card::Skip, Card::R3], &[], &[], &[]],
    );
    play(&mut g, 0, Decision::Reverse { from: Source::Hand });
    play(&mut g, 0, Decision::Skip { from: Source::Hand });
    play(&mut g, 0, Decision::Discard { card: Card::R3 });
    assert_eq!(g.turn(), Seat(2));
    // Two players (S2 removes the Reverses; a Reverse still only flips the
    // direction, and the other seat plays next either way).
    let mut g = table(3, D, &[&[Card::Reverse, Card::R3], &[]]);
    g.config.players = 2;
    play(&mut g, 0, Decision::Reverse { from: Source::Hand });
    play(&mut g, 0, Decision::Discard { card: Card::R3 });
    assert_eq!(
        (g.turn(), g.direction()),
        (Seat(1), Direction::Counterclockwise)
    );
    assert_eq!(deck_counts(2)[Card::Reverse.index()], 0);
}

#[test]
fn s5_steal_a_card_takes_the_top_of_an_opponents_discard_pile() {
    let mut g = table(3, D, &[&[Card::StealCard, Card::StealCard], &[], &[]]);
    // No opponent has a discard: nothing to steal.
    assert!(!legal(&g)
        .iter()
        .any(|d| matches!(d, Decision::StealCard { .. })));
    assert_eq!(
        g.play(
            Seat(0),
            Decision::StealCard {
                from: Source::Hand,
                target: Seat(1)
            },
            &mut NoReshuffle
        ),
        Err(PlayError::NothingToSteal(1))
    );
    push_discard(&mut g, Seat(1), Card::B4);
    push_discard(&mut g, Seat(1), Card::RW);
    push_discard(&mut g, Seat(0), Card::R1);
    assert_eq!(
        g.play(
            Seat(0),
            Decision::StealCard {
                from: Source::Hand,
                target: Seat(0)
            },
            &mut NoReshuffle
        ),
        Err(PlayError::StealFromSelf)
    );
    play(
        &mut g,
        0,
        Decision::StealCard {
            from: Source::Hand,
            target: Seat(1),
        },
    );
    assert_eq!(g.hand_counts(Seat(0))[Card::RW.index()], 1);
    assert_eq!(g.discard_pile(Seat(1)), &[Card::B4]);
    conserved(&g);
}

#[test]
fn s5_steal_a_chip_and_no_such_chip() {
    let mut g = table(3, D, &[&[Card::StealChip, Card::R1], &[], &[]]);
    g.chips[1] = [1, 0];
    let e = g
        .play(
            Seat(0),
            Decision::StealChip {
                from: Source::Hand,
                target: Seat(1),
                colour: Colour::Red,
            },
            &mut NoReshuffle,
        )
        .unwrap_err();
    assert_eq!(e.to_string(), "no such chip to steal (S5)");
    let legal: Vec<_> = legal(&g)
        .iter()
        .filter(|d| matches!(d, Decision::StealChip { .. }))
        .copied()
        .collect();
    assert_eq!(
        legal,
        vec![Decision::StealChip {
            from: Source::Hand,
            target: Seat(1),
            colour: Colour::Blue
        }]
    );
    play(&mut g, 0, legal[0]);
    assert_eq!((g.chips(Seat(0)), g.chips(Seat(1))), ([1, 0], [0, 0]));
}

#[test]
fn s5a_steal_a_chip_refused_when_it_would_win() {
    let mut g = table(3, D, &[&[Card::StealChip, Card::R1], &[], &[]]);
    g.chips[0] = [2, 2];
    g.chips[1] = [1, 1];
    let win = Decision::StealChip {
        from: Source::Hand,
        target: Seat(1),
        colour: Colour::Red,
    };
    assert_eq!(
        g.play(Seat(0), win, &mut NoReshuffle),
        Err(PlayError::StealChipWins)
    );
    assert!(!legal(&g)
        .iter()
        .any(|d| matches!(d, Decision::StealChip { .. })));
    // The option lets it win.
    g.config.options.steal_chip_can_win = true;
    assert!(legal(&g).contains(&win));
    play(&mut g, 0, win);
    assert_eq!(g.status(), Status::Won(Seat(0)));
}

#[test]
fn s5b_block_cancels_the_completion_and_no_chip_is_taken() {
    let mut g = table(
        4,
        D,
        &[&[Card::B5, Card::R2], &[Card::Block], &[Card::Block], &[]],
    );
    set_pile(&mut g, BA, 4);
    play(&mut g, 0, pile(Card::B5, BA));
    // Offered to seat 1 first; seat 3 (no Block) would be offered too.
    assert_eq!(g.to_act(), Some(Seat(1)));
    assert_eq!(legal(&g).to_vec(), vec![Decision::Pass, Decision::Block]);
    assert_eq!(
        g.play(Seat(2), Decision::Block, &mut NoReshuffle),
        Err(PlayError::NotOffered(2))
    );
    assert_eq!(
        g.play(Seat(0), Decision::Block, &mut NoReshuffle),
        Err(PlayError::OwnBlock)
    );
    assert_eq!(
        g.play(
            Seat(0),
            Decision::Discard { card: Card::R2 },
            &mut NoReshuffle
        ),
        Err(PlayError::WindowOpen { offered: 1 })
    );
    play(&mut g, 1, Decision::Pass);
    play(&mut g, 2, Decision::Block);
    assert_eq!(g.block_offer(), None, "the first Block wins");
    assert_eq!(g.chips(Seat(0)), [0, 0]);
    assert_eq!(g.supply(), [20, 20]);
    assert_eq!(g.pile_top(BA), None);
    assert_eq!(
        g.completed_counts()[Card::B5.index()],
        1,
        "set aside with the completed piles"
    );
    assert_eq!(g.action_discard_counts()[4], 1);
    assert_eq!(g.turn(), Seat(0), "the completer's turn goes on");
    conserved(&g);
}

#[test]
fn s5b_window_offered_to_every_opponent_in_order() {
    let mut g = table(4, D, &[&[Card::R5, Card::Reverse, Card::B1], &[], &[], &[]]);
    set_pile(&mut g, RA, 4);
    play(&mut g, 0, Decision::Reverse { from: Source::Hand });
    play(&mut g, 0, pile(Card::R5, RA));
    let mut order = vec![];
    while let Some(w) = g.block_offer() {
        assert_eq!(
            legal(&g).to_vec(),
            vec![Decision::Pass],
            "offered without a Block too"
        );
        order.push(w.offered.0);
        play(&mut g, w.offered.0, Decision::Pass);
    }
    assert_eq!(
        order,
        vec![3, 2, 1],
        "in the current direction from the completer"
    );
    assert_eq!(g.chips(Seat(0)), [0, 1]);
    // Option: only the next player is offered.
    let mut o = D;
    o.block_window = BlockWindow::NextPlayer;
    let mut g = table(4, o, &[&[Card::R5], &[], &[Card::Block], &[]]);
    set_pile(&mut g, RA, 4);
    play(&mut g, 0, pile(Card::R5, RA));
    play(&mut g, 1, Decision::Pass);
    assert_eq!(g.block_offer(), None);
    assert_eq!(g.chips(Seat(0)), [0, 1]);
}

#[test]
fn s5_block_only_right_after_a_completion() {
    let mut g = table(3, D, &[&[Card::Block, Card::B1], &[Card::Block], &[]]);
    assert_eq!(
        g.play(Seat(1), Decision::Block, &mut NoReshuffle),
        Err(PlayError::NoCompletion)
    );
    assert_eq!(
        g.play(Seat(0), Decision::Block, &mut NoReshuffle),
        Err(PlayError::NoCompletion)
    );
    assert!(!legal(&g).contains(&Decision::Block));
    assert_eq!(
        g.play(Seat(1), Decision::Pass, &mut NoReshuffle),
        Err(PlayError::NoWindow)
    );
}

#[test]
fn s6_reshuffle_takes_the_completed_piles() {
    let mut g = table(2, D, &[&[Card::B5, Card::R2], &[Card::Skip]]);
    set_pile(&mut g, BA, 4);
    // Empty the draw pile into seat 1's discard pile, keep a played Skip.
    while g.draw_len > 0 {
        let c = g.draw[g.draw_len as usize - 1];
        push_discard(&mut g, Seat(1), c);
    }
    g.actions[0] = 1;
    g.actions_len = 1;
    g.hands[1][Card::Skip.index()] = 0;
    g.hand_mask[1] = 0;
    g.hand_len[1] = 0;
    play(&mut g, 0, pile(Card::B5, BA));
    play(&mut g, 1, Decision::Pass);
    let mut seen = vec![];
    let mut r = |cards: &mut [Card]| {
        seen = cards.to_vec();
        Ok::<(), ReshuffleError>(())
    };
    struct F<'a, T>(&'a mut T);
    impl<T: FnMut(&mut [Card]) -> Result<(), ReshuffleError>> sequence_common::Reshuffler<Card>
        for F<'_, T>
    {
        fn reshuffle(&mut self, cards: &mut [Card]) -> Result<(), ReshuffleError> {
            (self.0)(cards)
        }
    }
    g.play(
        Seat(0),
        Decision::Discard { card: Card::R2 },
        &mut F(&mut r),
    )
    .unwrap();
    // The 5 completed cards, not the Skip (S6a: actions only when no
    // completed pile is set aside).
    assert_eq!(seen, vec![Card::B1, Card::B2, Card::B3, Card::B4, Card::B5]);
    assert_eq!(g.hand_len(Seat(1)), 5);
    assert_eq!(g.reshuffle_count(), 1);
    assert_eq!(g.action_discard_counts()[0], 1);
    conserved(&g);
}

#[test]
fn s6a_action_pile_reshuffled_when_no_completed_pile_then_nothing() {
    let mut g = table(2, D, &[&[Card::R2, Card::R3], &[]]);
    while g.draw_len > 0 {
        let c = g.draw[g.draw_len as usize - 1];
        push_discard(&mut g, Seat(1), c);
    }
    assert_eq!(g.reshuffle_content(), [0; 17]);
    assert!(g.nothing_to_draw());
    g.actions = [1, 0, 2, 0, 0];
    g.actions_len = 3;
    let c = g.reshuffle_content();
    assert_eq!((c[Card::Skip.index()], c[Card::StealCard.index()]), (1, 2));
    let mut o = g.clone();
    o.config.options.reshuffle_actions = ReshuffleActions::Never;
    assert!(o.nothing_to_draw());
    // Nothing at all to draw: play goes on with what one holds.
    g.actions = [0; 5];
    g.actions_len = 0;
    let mut rng = sequence_common::rng::playout_rng(1);
    g.play(
        Seat(0),
        Decision::Discard { card: Card::R2 },
        &mut RngReshuffler(&mut rng),
    )
    .unwrap();
    assert_eq!((g.turn(), g.hand_len(Seat(1))), (Seat(1), 0));
}

#[test]
fn s6a_draw_after_a_full_round_without_pile_play_and_nothing_to_draw() {
    let mut g = table(3, D, &[&[Card::R2, Card::R4], &[Card::R3], &[Card::R5]]);
    while g.draw_len > 0 {
        let c = g.draw[g.draw_len as usize - 1];
        push_discard(&mut g, Seat(1), c);
    }
    play(&mut g, 0, Decision::Discard { card: Card::R2 });
    play(&mut g, 1, Decision::Discard { card: Card::R3 });
    assert_eq!(g.status(), Status::Playing);
    play(&mut g, 2, Decision::Discard { card: Card::R5 });
    assert_eq!(g.status(), Status::Draw);
    assert_eq!(g.to_act(), None);
    assert!(legal(&g).is_empty());
}

#[test]
fn s7_win_with_five_chips_two_of_each() {
    let mut g = table(2, D, &[&[Card::R5, Card::B1], &[]]);
    set_pile(&mut g, RA, 4);
    g.chips[0] = [3, 1];
    play(&mut g, 0, pile(Card::R5, RA));
    assert_eq!(
        g.status(),
        Status::Playing,
        "not before the Block window closes"
    );
    play(&mut g, 1, Decision::Pass);
    assert_eq!(g.status(), Status::Won(Seat(0)));
    assert_eq!(g.winner(), Some(Seat(0)));
    assert_eq!(
        g.play(
            Seat(0),
            Decision::Discard { card: Card::B1 },
            &mut NoReshuffle
        ),
        Err(PlayError::GameOver)
    );
}

/// A completion that wins ends the game before S4 step 3 would draw: with
/// the completing card the last in hand and the draw pile empty, no
/// reshuffle of the completed piles is asked for (S6, S7), so a record
/// lists none. The classic engine once asked before knowing the move won
/// (C9); this is the same case in Stacks.
#[test]
fn s7_a_winning_completion_on_an_empty_draw_pile_draws_nothing() {
    let mut g = table(2, D, &[&[Card::R5], &[]]);
    set_pile(&mut g, RA, 4);
    while g.draw_len > 0 {
        let c = g.draw[g.draw_len as usize - 1];
        push_discard(&mut g, Seat(1), c);
    }
    g.chips[0] = [3, 1];
    play(&mut g, 0, pile(Card::R5, RA));
    // NoReshuffle refuses any reshuffle: the win must not ask for one.
    play(&mut g, 1, Decision::Pass);
    assert_eq!(g.status(), Status::Won(Seat(0)));
    assert_eq!(g.reshuffle_count(), 0);
    assert_eq!(g.hand_len(Seat(0)), 0);
    conserved(&g);
    // Without the win the emptied hand draws, and the completed pile is
    // reshuffled into a new draw pile (S4 step 3, S6).
    let mut g = table(2, D, &[&[Card::R5], &[]]);
    set_pile(&mut g, RA, 4);
    while g.draw_len > 0 {
        let c = g.draw[g.draw_len as usize - 1];
        push_discard(&mut g, Seat(1), c);
    }
    play(&mut g, 0, pile(Card::R5, RA));
    let err = g
        .play(Seat(1), Decision::Pass, &mut NoReshuffle)
        .unwrap_err();
    assert!(matches!(err, PlayError::Reshuffle(_)), "{err}");
    assert_eq!(err.to_string().matches("(S6)").count(), 1, "{err}");
}

#[test]
fn s7_five_chips_of_one_colour_do_not_win() {
    // Five blue; nor 5 blue and 1 red.
    for (before, after, what) in [([4, 0], [5, 0], "five blue"), ([4, 1], [5, 1], "wrong mix")] {
        let mut g = table(2, D, &[&[Card::B5, Card::B1], &[]]);
        set_pile(&mut g, BA, 4);
        g.chips[0] = before;
        play(&mut g, 0, pile(Card::B5, BA));
        play(&mut g, 1, Decision::Pass);
        assert_eq!(g.chips(Seat(0)), after);
        assert_eq!(g.status(), Status::Playing, "{what}: plays on");
    }
    assert!(!crate::game::meets_win([5, 0]));
    assert!(!crate::game::meets_win([2, 2]));
    assert!(crate::game::meets_win([2, 3]));
}

#[test]
fn dead_game_draw_when_the_supply_is_empty() {
    let mut g = table(2, D, &[&[Card::B5, Card::B1], &[]]);
    set_pile(&mut g, BA, 4);
    g.supply = [1, 0];
    g.chips[0] = [10, 0];
    g.chips[1] = [9, 20];
    play(&mut g, 0, pile(Card::B5, BA));
    play(&mut g, 1, Decision::Pass);
    assert_eq!(g.status(), Status::Draw);
}

#[test]
fn view_hides_other_hands_and_the_draw_pile_and_determinizes() {
    let mut rng = sequence_common::rng::game_rng(11);
    let (mut g, _) = Game::deal(
        crate::game::Config::new(4, Options::default()).unwrap(),
        &mut rng,
    );
    g.playout(&mut rng, 60);
    let seat = Seat(1);
    let v = g.view(seat);
    assert_eq!(v.hand, g.hand(seat));
    assert_eq!(v.hand_sizes.len(), 4);
    assert_eq!(v.draw_pile, g.draw_pile_len());
    assert_eq!(v.legal.is_empty(), g.to_act() != Some(seat));
    let json = serde_json::to_value(&v).unwrap();
    let keys: Vec<_> = json.as_object().unwrap().keys().cloned().collect();
    for k in &keys {
        assert!(
            k != "hands" && k != "draw" && k != "draw_order",
            "view leaks {k}"
        );
    }
    for i in 0..20 {
        let d = v
            .determinize(&mut sequence_common::rng::playout_rng(i))
            .unwrap();
        assert_eq!(d.hand(seat), g.hand(seat));
        assert_eq!(d.card_census(), deck_counts(4));
        assert_eq!(d.view(seat), v, "same view from the determinized game");
        for s in 0..4 {
            assert_eq!(d.hand_len(Seat(s)), g.hand_len(Seat(s)));
        }
    }
}

#[test]
fn match_records_and_replays_the_same_game() {
    let mut m = Match::new(crate::game::Config::new(3, Options::default()).unwrap(), 5);
    let mut rng = sequence_common::rng::playout_rng(5);
    while let Some(s) = m.game().to_act() {
        let d = m.game().random_move(&mut rng).unwrap();
        m.play(s, d).unwrap();
    }
    let rec = m.record().expect("dealt from a seed");
    let (r2, g2) = replay(&rec.to_json()).unwrap();
    assert_eq!(&g2, m.game());
    assert_eq!(r2, rec);
    let resumed = Match::from_record_json(&m.to_json().expect("dealt from a seed"), 1).unwrap();
    assert_eq!(resumed.game(), m.game());
    assert_eq!(resumed.to_act(), None);
    let again = Match::new(crate::game::Config::new(3, Options::default()).unwrap(), 5);
    assert_eq!(
        again.record().expect("dealt from a seed").deck,
        rec.deck,
        "same seed, same deal"
    );
}

#[test]
fn s5_stolen_card_is_known_in_the_view_and_kept_by_determinization() {
    let mut g = table(3, D, &[&[Card::StealCard, Card::R1], &[Card::B2], &[]]);
    push_discard(&mut g, Seat(1), Card::RW);
    play(
        &mut g,
        0,
        Decision::StealCard {
            from: Source::Hand,
            target: Seat(1),
        },
    );
    let v = g.view(Seat(2));
    assert_eq!(v.known_in_hands[0], vec![Card::RW]);
    assert!(v.hand.is_empty());
    for i in 0..10 {
        let d = v
            .determinize(&mut sequence_common::rng::playout_rng(i))
            .unwrap();
        assert!(d.hand_counts(Seat(0))[Card::RW.index()] >= 1);
        assert_eq!(d.view(Seat(2)), v);
    }
    // Once played, the card is no longer known to be in the hand.
    play(&mut g, 0, pile(Card::RW, RA));
    assert!(g.view(Seat(2)).known_in_hands[0].is_empty());
}

#[test]
fn decisions_serialize_as_record_entries_and_back() {
    let all = [
        Decision::Pile {
            card: Card::BW,
            from: Source::Discard,
            place: BB,
        },
        Decision::Skip { from: Source::Hand },
        Decision::Reverse {
            from: Source::Discard,
        },
        Decision::StealCard {
            from: Source::Hand,
            target: Seat(2),
        },
        Decision::StealChip {
            from: Source::Discard,
            target: Seat(1),
            colour: Colour::Red,
        },
        Decision::Block,
        Decision::Pass,
        Decision::Discard {
            card: Card::StealChip,
        },
        Decision::End,
    ];
    for d in all {
        let j = serde_json::to_value(d).unwrap();
        assert_eq!(
            serde_json::from_value::<Decision>(j.clone()).unwrap(),
            d,
            "{j}"
        );
    }
    assert_eq!(
        serde_json::to_value(all[0]).unwrap(),
        serde_json::json!({"play": "BW", "to": "blue-b", "from": "discard"})
    );
    assert_eq!(
        crate::notation::decision_json(Seat(3), &all[4]),
        serde_json::json!({"seat": 3, "play": "STEAL-CHIP", "target": 1, "colour": "red", "from": "discard"})
    );
    assert!(!<Game as sequence_common::Notation>::is_recorded(
        &Decision::Pass
    ));
    assert!(serde_json::from_value::<Decision>(serde_json::json!({"play": "B1"})).is_err());
}

#[test]
fn random_index_is_in_range_and_covers_it() {
    let mut rng = sequence_common::rng::playout_rng(9);
    for n in [1u32, 2, 3, 7, 61] {
        let mut seen = vec![0u32; n as usize];
        for _ in 0..20_000 {
            let r = crate::playout::below(&mut rng, n);
            assert!(r < n);
            seen[r as usize] += 1;
        }
        let expect = 20_000 / n;
        assert!(seen.iter().all(|&c| c > expect * 8 / 10), "{n}: {seen:?}");
    }
}
