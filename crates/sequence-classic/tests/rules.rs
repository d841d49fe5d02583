//! Rule tests, named after the rule ids of RULES.md Part 1 (C1–C9).

use sequence_classic::game::cut_for_dealer;
use sequence_classic::NoReshuffler;
use sequence_classic::{
    Card, Config, Declaration, Game, IllegalMove, Layout, Move, MoveEffects, MoveList, Options,
    Position, Reshuffler, Seat, Status, Team, Window,
};
use sequence_common::ReshuffleError;

mod common;

use common::{card, cards, position_with, sq};

const BLUE: Team = Team(0);
const GREEN: Team = Team(1);
const RED: Team = Team(2);

/// A position: `chips` as (team, "a1 b2 …"), hands as "7H 8D …" per seat.
fn position(
    players: u8,
    teams: Option<u8>,
    chips: &[(Team, &str)],
    hands: &[&str],
    turn: u8,
) -> Game {
    position_with(players, teams, Options::default(), chips, &[], hands, turn)
}

fn play(g: &mut Game, m: Move) -> Result<sequence_classic::Effects, IllegalMove> {
    let seat = g.turn();
    g.play(seat, m, &mut NoReshuffler)
}

fn place(c: &str, at: &str) -> Move {
    Move::place(card(c), sq(at))
}

fn declare(c: &str, at: &str, windows: &[(&str, &str)]) -> Move {
    let ws: Vec<Window> = windows
        .iter()
        .map(|(a, b)| Window::from_ends(sq(a), sq(b), 5).unwrap())
        .collect();
    Move::Place {
        card: card(c),
        at: sq(at),
        declare: Some(Declaration::new(&ws)),
    }
}

// ----- C1, C2 --------------------------------------------------------------------

#[test]
fn c1_two_standard_decks() {
    let d = Card::double_deck();
    assert_eq!(d.len(), 104);
    for c in Card::all() {
        assert_eq!(d.iter().filter(|&&x| x == c).count(), 2, "{c}");
    }
    assert_eq!(d.iter().filter(|c| c.is_jack()).count(), 8);
    let mut short = d.to_vec();
    short.pop();
    assert!(sequence_classic::game::check_deck(&short)
        .unwrap_err()
        .to_string()
        .contains("103 cards"));
}

#[test]
fn c2_every_card_twice_on_the_official_board() {
    let l = Layout::official();
    for c in Card::all().filter(|c| !c.is_jack()) {
        assert_eq!(l.spaces_of(c).count(), 2, "{c}");
    }
    assert_eq!(l.card_at(sq("e6")), Some(card("2H")));
    assert_eq!(l.card_at(sq("a1")), None);
}

// ----- C3, C4, C5 ----------------------------------------------------------------

#[test]
fn c4_deal_fills_every_hand() {
    for &p in &Config::PLAYER_COUNTS {
        let config = Config::new(p, None, Options::default()).unwrap();
        let size = config.hand_size();
        let (g, deck) = Game::deal(config, &mut sequence_common::rng::game_rng(p as u64));
        assert_eq!(deck.len(), 104);
        for s in 0..p {
            assert_eq!(g.hand(Seat(s)).len(), size, "{p} players seat {s}");
        }
        assert_eq!(g.draw_pile_len(), 104 - size * p as usize);
    }
}

#[test]
fn c5_deal_starts_left_of_dealer_one_card_at_a_time() {
    let config = Config::new(3, None, Options::default()).unwrap();
    let deck = Card::double_deck();
    let g = Game::new(config, Seat(1), &deck).unwrap();
    assert_eq!(g.turn(), Seat(2), "the dealer's left plays first");
    assert_eq!(g.hand(Seat(2))[0], deck[0]);
    assert_eq!(g.hand(Seat(0))[0], deck[1]);
    assert_eq!(g.hand(Seat(1))[0], deck[2]);
    assert_eq!(g.hand(Seat(2))[1], deck[3]);
    assert_eq!(g.draw_pile().next(), Some(deck[18]));
}

#[test]
fn c5_cut_is_seeded_and_any_seat_may_deal() {
    let mut seen = [false; 4];
    for seed in 0..200 {
        let a = cut_for_dealer(4, &mut sequence_common::rng::game_rng(seed));
        let b = cut_for_dealer(4, &mut sequence_common::rng::game_rng(seed));
        assert_eq!(a, b);
        seen[a.index()] = true;
    }
    assert_eq!(seen, [true; 4]);
}

// ----- C6 -----------------------------------------------------------------------------

#[test]
fn c6_card_places_on_either_of_its_empty_spaces_only() {
    // 7H is on d6 and i5.
    let mut g = position(2, None, &[(GREEN, "d6")], &["7H 2S", "3S"], 0);
    assert_eq!(
        play(&mut g.clone(), place("7H", "d6")),
        Err(IllegalMove::SpaceTaken(sq("d6")))
    );
    assert!(matches!(
        play(&mut g.clone(), place("7H", "e5")),
        Err(IllegalMove::WrongSpace { .. })
    ));
    assert_eq!(
        play(&mut g.clone(), place("8H", "d7")),
        Err(IllegalMove::NotInHand(card("8H")))
    );
    play(&mut g, place("7H", "i5")).unwrap();
    assert_eq!(g.chip_at(sq("i5")), Some(BLUE));
    assert_eq!(g.turn(), Seat(1));
    assert_eq!(g.hand(Seat(0)).len(), 2, "a card was drawn");
    assert_eq!(g.discard_pile(Seat(0)).collect::<Vec<_>>(), [card("7H")]);
}

#[test]
fn c6_two_eyed_jack_any_empty_space_never_a_corner() {
    let g = position(2, None, &[(GREEN, "e5")], &["JD JC", "3S"], 0);
    assert_eq!(
        play(&mut g.clone(), place("JD", "a1")),
        Err(IllegalMove::Corner)
    );
    assert_eq!(
        play(&mut g.clone(), place("JC", "j10")),
        Err(IllegalMove::Corner)
    );
    assert_eq!(
        play(&mut g.clone(), place("JD", "e5")),
        Err(IllegalMove::SpaceTaken(sq("e5")))
    );
    let mut ok = g.clone();
    play(&mut ok, place("JC", "b2")).unwrap();
    assert_eq!(ok.chip_at(sq("b2")), Some(BLUE));
    assert_eq!(g.targets(card("JD")).count(), 95);
}

#[test]
fn c6_one_eyed_jack_removes_only_an_opponents_loose_chip() {
    // 4 players, 2 teams: seats 0 and 2 blue, 1 and 3 green.
    let g = position_with(
        4,
        None,
        Options::default(),
        &[(BLUE, "b3 c3"), (GREEN, "e5 b2 c2 d2 e2 f2")],
        &[(GREEN, "b2", "f2")],
        &["JS JH 2S", "3S", "4S", "5S"],
        0,
    );
    assert_eq!(
        play(
            &mut g.clone(),
            Move::Remove {
                card: card("JS"),
                at: sq("b3")
            }
        ),
        Err(IllegalMove::OwnChip)
    );
    // c3 is a chip of the same team placed by a teammate's colour: same team.
    assert_eq!(
        play(
            &mut g.clone(),
            Move::Remove {
                card: card("JH"),
                at: sq("c3")
            }
        ),
        Err(IllegalMove::OwnChip)
    );
    assert_eq!(
        play(
            &mut g.clone(),
            Move::Remove {
                card: card("JS"),
                at: sq("c2")
            }
        ),
        Err(IllegalMove::Locked)
    );
    assert_eq!(
        play(
            &mut g.clone(),
            Move::Remove {
                card: card("JS"),
                at: sq("a1")
            }
        ),
        Err(IllegalMove::Corner)
    );
    assert_eq!(
        play(
            &mut g.clone(),
            Move::Remove {
                card: card("JS"),
                at: sq("h8")
            }
        ),
        Err(IllegalMove::NoChip(sq("h8")))
    );
    assert!(matches!(
        play(&mut g.clone(), place("JS", "h8")),
        Err(IllegalMove::WrongUse(_))
    ));
    let mut ok = g.clone();
    play(
        &mut ok,
        Move::Remove {
            card: card("JS"),
            at: sq("e5"),
        },
    )
    .unwrap();
    assert_eq!(ok.chip_at(sq("e5")), None);
    assert_eq!(ok.turn(), Seat(1), "the removal ends the turn");
    // The removable chips are exactly the loose opponent chips.
    assert_eq!(g.targets(card("JS")).iter().collect::<Vec<_>>(), [sq("e5")]);
}

#[test]
fn c6_teammate_chip_refused() {
    let g = position(4, None, &[(BLUE, "e5")], &["3S", "4S", "JH 5S", "6S"], 2);
    assert_eq!(
        play(
            &mut g.clone(),
            Move::Remove {
                card: card("JH"),
                at: sq("e5")
            }
        ),
        Err(IllegalMove::OwnChip)
    );
}

#[test]
fn c6_dead_card_only_when_both_spaces_covered_once_per_turn() {
    // 7H: d6 and i5. 2C: e2 and g4. Jacks never dead.
    let g = position(2, None, &[(GREEN, "d6 i5 e2")], &["7H 2C JD 9S", "3S"], 0);
    assert!(g.is_dead(card("7H")));
    assert!(!g.is_dead(card("2C")), "one space is still empty");
    assert!(!g.is_dead(card("JD")));
    assert_eq!(
        play(&mut g.clone(), Move::Dead { card: card("2C") }),
        Err(IllegalMove::NotDead(card("2C")))
    );
    assert_eq!(
        play(&mut g.clone(), Move::Dead { card: card("JD") }),
        Err(IllegalMove::NotDead(card("JD")))
    );
    let mut h = g.clone();
    let top = h.draw_pile().next().unwrap();
    play(&mut h, Move::Dead { card: card("7H") }).unwrap();
    assert_eq!(h.turn(), Seat(0), "the exchange comes before the play");
    assert_eq!(h.hand(Seat(0)).len(), 4);
    assert!(h.hand(Seat(0)).contains(&top));
    assert!(!h.hand(Seat(0)).contains(&card("7H")));
    // A second dead card in the same turn is refused, even a real one.
    let mut two = position(
        2,
        None,
        &[(GREEN, "d6 i5 e2 g4")],
        &["7H 2C JD 9S", "3S"],
        0,
    );
    play(&mut two, Move::Dead { card: card("7H") }).unwrap();
    assert_eq!(
        play(&mut two.clone(), Move::Dead { card: card("2C") }),
        Err(IllegalMove::SecondDead)
    );
    let mut list = MoveList::new();
    two.legal_moves(&mut list);
    assert!(list.iter().all(|m| !matches!(m, Move::Dead { .. })));
    play(&mut two, place("9S", "b7")).unwrap();
    assert_eq!(two.turn(), Seat(1));
}

#[test]
fn c6a_pass_only_without_a_play_and_a_round_of_passes_is_a_draw() {
    // Every card in both hands is dead.
    let g = position(
        2,
        None,
        &[(GREEN, "d6 i5"), (BLUE, "e2 g4")],
        &["7H 2C", "7H 2C"],
        0,
    );
    let mut list = MoveList::new();
    g.legal_moves(&mut list);
    assert!(list.contains(&Move::Pass));
    let mut h = g.clone();
    play(&mut h, Move::Pass).unwrap();
    assert_eq!(h.hand(Seat(0)).len(), 2, "a pass draws nothing");
    assert_eq!(h.status(), Status::Playing);
    play(&mut h, Move::Pass).unwrap();
    assert_eq!(h.status(), Status::Draw);
    // A dead-card exchange in the round resets the count.
    let mut k = g.clone();
    play(&mut k, Move::Pass).unwrap();
    play(&mut k, Move::Dead { card: card("7H") }).unwrap();
    if !k.has_play() {
        play(&mut k, Move::Pass).unwrap();
        assert_eq!(k.status(), Status::Playing);
    }
    // With a playable card, a pass is refused.
    let mut p = position(2, None, &[], &["7H", "2C"], 0);
    assert_eq!(play(&mut p, Move::Pass), Err(IllegalMove::NotStuck));
}

// ----- C7 -----------------------------------------------------------------------------

struct Capture(Vec<Card>);
impl Reshuffler<Card> for Capture {
    fn reshuffle(&mut self, cards: &mut [Card]) -> Result<(), ReshuffleError> {
        self.0 = cards.to_vec();
        cards.reverse();
        Ok(())
    }
}

fn empty_draw_position(options: Options) -> Game {
    empty_draw_with(options, &[], &[], &["7H 8D", "9C TS"])
}

/// A 2-player position with an empty draw pile: `hands` as given, every
/// other card in the discard piles (so a move that draws must reshuffle,
/// C7), blue's chips and sequences as given, blue to move.
fn empty_draw_with(
    options: Options,
    blue_chips: &[&str],
    blue_sequences: &[(&str, &str)],
    hands: &[&str],
) -> Game {
    let hands: Vec<Vec<Card>> = hands.iter().map(|h| cards(h)).collect();
    let mut rest: Vec<Card> = Vec::new();
    let mut counts = [0u8; 52];
    for c in hands.iter().flatten() {
        counts[c.index()] += 1;
    }
    for c in Card::all() {
        for _ in counts[c.index()]..2 {
            rest.push(c);
        }
    }
    let pos = Position {
        chips: blue_chips
            .iter()
            .flat_map(|c| c.split_whitespace())
            .map(|x| (BLUE, sq(x)))
            .collect(),
        sequences: blue_sequences
            .iter()
            .map(|(a, b)| (BLUE, Window::from_ends(sq(a), sq(b), 5).unwrap()))
            .collect(),
        hands,
        discards: rest
            .iter()
            .enumerate()
            .map(|(i, c)| (Seat((i % 2) as u8), *c))
            .collect(),
        draw_pile: Some(vec![]),
        turn: Seat(0),
    };
    Game::from_position(Config::new(2, None, options).unwrap(), &pos).unwrap()
}

#[test]
fn c7_reshuffle_takes_every_discard_including_the_card_just_played() {
    let mut g = empty_draw_position(Options::default());
    let before: Vec<Card> = g.discards().map(|(_, c)| c).collect();
    let mut cap = Capture(vec![]);
    let played = g.play(Seat(0), place("7H", "d6"), &mut cap).unwrap();
    assert!(played.reshuffled);
    let mut want = before.clone();
    want.push(card("7H"));
    assert_eq!(cap.0, want);
    assert_eq!(cap.0.len(), 101);
    assert_eq!(g.discards().count(), 0, "the discard piles are empty again");
    assert_eq!(g.draw_pile_len(), 100);
    assert_eq!(g.hand(Seat(0)).len(), 2);
}

#[test]
fn c7_house_rule_no_reshuffle_draws_nothing() {
    let mut g = empty_draw_position(Options {
        no_reshuffle: true,
        ..Options::default()
    });
    let played = g
        .play(Seat(0), place("7H", "d6"), &mut NoReshuffler)
        .unwrap();
    assert!(!played.reshuffled);
    assert_eq!(g.hand(Seat(0)).len(), 1);
    assert_eq!(g.draw_pile_len(), 0);
}

/// A placement that wins ends the game at once (C9): nothing is drawn, so an
/// empty draw pile asks for no reshuffle (C7) and a record lists none
/// (RECORD.md). Found by replaying random games: the engine asked for a
/// reshuffle before it knew the move won (example `2p-win-on-empty-pile`).
#[test]
fn c9_a_win_on_an_empty_draw_pile_asks_for_no_reshuffle() {
    // Blue holds one sequence (b1–f1) and four in a row b5–e5; f5 is 4H.
    let cases = [
        // A card placed on its own space.
        ("4H", "b5 c5 d5 e5", 2),
        // A two-eyed jack placed anywhere.
        ("JD", "b5 c5 d5 e5", 2),
        // One chip completing two sequences at once (row 5 and column f):
        // blue wins with three.
        ("4H", "b5 c5 d5 e5 f2 f3 f4", 3),
    ];
    for (c, chips, total) in cases {
        let g0 = empty_draw_with(
            Options::default(),
            &["b1 c1 d1 e1 f1", chips],
            &[("b1", "f1")],
            &[&format!("{c} 8D"), "9C TS"],
        );
        assert_eq!(g0.draw_pile_len(), 0);
        let mut g = g0.clone();
        let played = g
            .play(Seat(0), place(c, "f5"), &mut NoReshuffler)
            .unwrap_or_else(|e| panic!("{c} {chips}: {e}"));
        assert!(played.ended() && !played.reshuffled, "{c} {chips}");
        assert_eq!(g.status(), Status::Won(BLUE), "{c} {chips}");
        assert_eq!(g.sequence_count(BLUE), total, "{c} {chips}");
        // Nothing drawn: the hand is one card short, the card on the discard
        // pile.
        assert_eq!(g.hand(Seat(0)), cards("8D"));
        assert_eq!(g.discards().count(), g0.discards().count() + 1);
    }
}

/// A move that does not win on an empty draw pile still needs its
/// reshuffle (C7); when the reshuffler refuses, nothing changes.
#[test]
fn c7_a_refused_reshuffle_changes_nothing() {
    let g0 = empty_draw_with(
        Options::default(),
        &["b1 c1 d1 e1 f1", "b5 c5 d5"],
        &[("b1", "f1")],
        &["4H 8D", "9C TS"],
    );
    let mut g = g0.clone();
    let err = g
        .play(Seat(0), place("4H", "f5"), &mut NoReshuffler)
        .unwrap_err();
    assert!(matches!(err, IllegalMove::Reshuffle(_)), "{err}");
    assert_eq!(err.to_string().matches("(C7)").count(), 1, "{err}");
    assert_eq!(g.board_rows(), g0.board_rows());
    assert_eq!(g.hand(Seat(0)), g0.hand(Seat(0)));
    assert_eq!(g.discards().count(), g0.discards().count());
    assert_eq!(g.turn(), g0.turn());
    assert_eq!(g.ply(), g0.ply());
}

// ----- C8, C8a ------------------------------------------------------------------------

#[test]
fn c8_nine_in_a_row_makes_two_sequences() {
    // Row 5: a5 9C b5 QS c5 7C d5 6H e5 5H f5 4H g5 AH h5 9D i5 7H.
    let mut g = position(
        2,
        None,
        &[(BLUE, "a5 b5 c5 d5 f5 g5 h5 i5")],
        &["5H", "3S"],
        0,
    );
    let p = play(&mut g, place("5H", "e5")).unwrap();
    assert_eq!(p.new_sequences, 2);
    assert_eq!(g.sequence_count(BLUE), 2);
    assert_eq!(g.status(), Status::Won(BLUE));
    let ws: Vec<Window> = g.sequences().map(|(_, w)| w).collect();
    assert_eq!(ws[0].start, sq("a5"));
    assert_eq!(ws[1].start, sq("e5"));
}

#[test]
fn c8_ten_in_a_row_makes_two_sequences() {
    // Row 6: a6..e6 already a sequence; f6 g6 h6 j6 blue; i6 (6H) completes 10.
    let mut g = position_with(
        2,
        None,
        Options::default(),
        &[(BLUE, "a6 b6 c6 d6 e6 f6 g6 h6 j6")],
        &[(BLUE, "a6", "e6")],
        &["6H", "3S"],
        0,
    );
    let p = play(&mut g, place("6H", "i6")).unwrap();
    assert_eq!(p.new_sequences, 1);
    assert_eq!(g.sequence_count(BLUE), 2);
    assert_eq!(g.status(), Status::Won(BLUE));
}

#[test]
fn c8_six_seven_or_eight_in_a_row_make_one() {
    // A sequence a6..e6, then f6 (8C), g6 (KH), h6 (TD) one by one.
    let mut g = position_with(
        2,
        None,
        Options::default(),
        &[(BLUE, "a6 b6 c6 d6 e6")],
        &[(BLUE, "a6", "e6")],
        &["3H KH TD", "3S 4S 5S"],
        0,
    );
    // Six, seven and eight in a row.
    for (c, at) in [("3H", "f6"), ("KH", "g6"), ("TD", "h6")] {
        play(&mut g, place(c, at)).unwrap();
        assert_eq!(g.sequence_count(BLUE), 1, "{at}");
        let gc = g.hand(Seat(1))[0];
        let spot = g.targets(gc).first().unwrap();
        play(&mut g, Move::place(gc, spot)).unwrap();
    }
    // Six placed at once in the middle: a6 b6 c6 d6 f6 + e6 = 1.
    let mut h = position(2, None, &[(BLUE, "a6 b6 c6 d6 f6")], &["2H", "3S"], 0);
    assert_eq!(play(&mut h, place("2H", "e6")).unwrap().new_sequences, 1);
}

#[test]
fn c8_corner_counts_for_both_teams() {
    // Blue: b1 c1 d1 e1 with corner a1 (row). Green: a2 a3 a4 a5 with a1 (column).
    let mut g = position(
        2,
        None,
        &[(BLUE, "b1 c1 d1"), (GREEN, "a2 a3 a4")],
        &["5S", "9C"],
        0,
    );
    assert_eq!(play(&mut g, place("5S", "e1")).unwrap().new_sequences, 1);
    assert_eq!(play(&mut g, place("9C", "a5")).unwrap().new_sequences, 1);
    assert_eq!(g.sequence_count(BLUE), 1);
    assert_eq!(g.sequence_count(GREEN), 1);
    assert_eq!(g.status(), Status::Playing);
    assert_eq!(g.board_rows()[0], "*bbbb....*");
}

#[test]
fn c8_second_sequence_sharing_one_space_counts() {
    // Row 6 sequence a6..e6; column e: e3 e4 e5 blue, e7 (9H) completes e3..e7
    // which shares only e6.
    let mut g = position_with(
        2,
        None,
        Options::default(),
        &[(BLUE, "a6 b6 c6 d6 e6 e3 e4 e5")],
        &[(BLUE, "a6", "e6")],
        &["9H", "3S"],
        0,
    );
    assert_eq!(play(&mut g, place("9H", "e7")).unwrap().new_sequences, 1);
    assert_eq!(g.status(), Status::Won(BLUE));
}

#[test]
fn c8_second_sequence_sharing_two_spaces_refused() {
    // Sequence a6..e6; f6 g6 blue; h6 makes d6..h6, which shares d6 and e6.
    let g = position_with(
        2,
        None,
        Options::default(),
        &[(BLUE, "a6 b6 c6 d6 e6 f6 g6")],
        &[(BLUE, "a6", "e6")],
        &["TD", "3S"],
        0,
    );
    let e = play(&mut g.clone(), declare("TD", "h6", &[("d6", "h6")])).unwrap_err();
    assert!(matches!(e, IllegalMove::Declaration(_)), "{e}");
    assert!(e.to_string().contains("C8"));
    let mut h = g.clone();
    assert_eq!(play(&mut h, place("TD", "h6")).unwrap().new_sequences, 0);
}

#[test]
fn c8_one_chip_completes_two_sequences() {
    // Row 5 b5..e5 and column f1..f4; f5 (4H) completes both.
    let mut g = position(
        2,
        None,
        &[(BLUE, "b5 c5 d5 e5 f1 f2 f3 f4")],
        &["4H", "3S"],
        0,
    );
    assert_eq!(play(&mut g, place("4H", "f5")).unwrap().new_sequences, 2);
    assert_eq!(g.status(), Status::Won(BLUE));
}

#[test]
fn c8_chips_of_a_sequence_are_locked() {
    let mut g = position(2, None, &[(BLUE, "b5 c5 d5 e5")], &["4H", "JS"], 0);
    play(&mut g, place("4H", "f5")).unwrap();
    assert!(g.locked().contains(sq("c5")));
    assert_eq!(g.board_rows()[4], ".bbbbb....");
    assert_eq!(
        play(
            &mut g,
            Move::Remove {
                card: card("JS"),
                at: sq("c5")
            }
        ),
        Err(IllegalMove::Locked)
    );
}

#[test]
fn c8a_declaration_must_name_the_most_sequences() {
    let g = position(
        2,
        None,
        &[(BLUE, "a5 b5 c5 d5 f5 g5 h5 i5")],
        &["5H", "3S"],
        0,
    );
    let e = play(&mut g.clone(), declare("5H", "e5", &[("a5", "e5")])).unwrap_err();
    assert!(e.to_string().contains("C8a"), "{e}");
    let mut ok = g.clone();
    play(&mut ok, declare("5H", "e5", &[("a5", "e5"), ("e5", "i5")])).unwrap();
    assert_eq!(ok.sequence_count(BLUE), 2);
    // A window that does not pass through the placed chip is refused.
    let e = play(
        &mut g.clone(),
        declare("5H", "e5", &[("a5", "e5"), ("b5", "f5")]),
    )
    .unwrap_err();
    assert!(e.to_string().contains("C8"), "{e}");
}

#[test]
fn c8a_declared_window_decides_the_locked_chips() {
    // a6 b6 c6 d6 f6 blue; e6 gives six in a row: a6..e6 by default, or b6..f6.
    let g = position(2, None, &[(BLUE, "a6 b6 c6 d6 f6")], &["2H", "3S"], 0);
    let mut by_default = g.clone();
    play(&mut by_default, place("2H", "e6")).unwrap();
    assert!(by_default.locked().contains(sq("a6")));
    assert!(!by_default.locked().contains(sq("f6")));
    let mut declared = g.clone();
    play(&mut declared, declare("2H", "e6", &[("b6", "f6")])).unwrap();
    assert!(!declared.locked().contains(sq("a6")));
    assert!(declared.locked().contains(sq("f6")));
    // The option `default_window: last` takes b6..f6 without a declaration.
    let mut last = position_with(
        2,
        None,
        Options {
            default_window: sequence_classic::options::DefaultWindow::Last,
            ..Options::default()
        },
        &[(BLUE, "a6 b6 c6 d6 f6")],
        &[],
        &["2H", "3S"],
        0,
    );
    play(&mut last, place("2H", "e6")).unwrap();
    assert!(last.locked().contains(sq("f6")));
}

#[test]
fn c11_sequence_length_four_and_removable_sequences() {
    let opts = Options {
        sequence_length: Some(4),
        removable_sequences: true,
        ..Options::default()
    };
    let mut g = position_with(2, None, opts, &[(BLUE, "b5 c5 d5")], &[], &["5H", "JS"], 0);
    assert_eq!(play(&mut g, place("5H", "e5")).unwrap().new_sequences, 1);
    // With removable sequences a one-eyed jack breaks it.
    play(
        &mut g,
        Move::Remove {
            card: card("JS"),
            at: sq("c5"),
        },
    )
    .unwrap();
    assert_eq!(g.sequence_count(BLUE), 0);
    assert!(g.locked().is_empty());
}

// ----- C9 -----------------------------------------------------------------------------

#[test]
fn c9_three_teams_win_with_one_sequence() {
    let mut g = position(3, None, &[(RED, "b5 c5 d5 e5")], &["3S", "4S", "4H"], 2);
    play(&mut g, place("4H", "f5")).unwrap();
    assert_eq!(g.status(), Status::Won(RED));
    assert_eq!(play(&mut g, place("3S", "c1")), Err(IllegalMove::GameOver));
}

#[test]
fn c9_two_teams_need_two_sequences() {
    let mut g = position(
        4,
        None,
        &[(GREEN, "b5 c5 d5 e5")],
        &["3S", "4H", "5S", "6S"],
        1,
    );
    play(&mut g, place("4H", "f5")).unwrap();
    assert_eq!(g.sequence_count(GREEN), 1);
    assert_eq!(g.status(), Status::Playing);
    assert_eq!(g.turn(), Seat(2));
}

#[test]
fn c9_win_sequences_option() {
    let opts = Options {
        win_sequences: Some(1),
        ..Options::default()
    };
    let mut g = position_with(
        2,
        None,
        opts,
        &[(GREEN, "b5 c5 d5 e5")],
        &[],
        &["3S", "4H"],
        1,
    );
    play(&mut g, place("4H", "f5")).unwrap();
    assert_eq!(g.status(), Status::Won(GREEN));
}
