//! What a move did, as the engine reports it ([`Effects`]): checked move by
//! move against the states before and after over random games of several
//! tables and house rules (C6–C9, C11), and on positions of the rules
//! (C6 a chip placed and a card drawn, C8 sequences made, C11 sequences
//! broken, C7 a reshuffle, C9 and C6a the end). A drawn card is seen by the
//! seat that drew it only.

use rand::SeedableRng;
use sequence_classic::options::NoPlay;
use sequence_classic::{
    Card, Chip, Config, Effects, Game, Move, MoveEffects, NoReshuffler, Options, RngReshuffler,
    Seat, Status, Team, Window,
};
use sequence_common::Outcome;

mod common;

use common::{card, position_with, sq};

const BLUE: Team = Team(0);
const GREEN: Team = Team(1);

/// The counts of each card in `cards`.
fn counts(cards: &[Card]) -> [u8; 52] {
    let mut n = [0u8; 52];
    for c in cards {
        n[c.index()] += 1;
    }
    n
}

/// Checks `fx`, the effects of `mv` by `seat`, against `before` and `after`.
fn check(before: &Game, after: &Game, seat: Seat, mv: Move, fx: &Effects) {
    let ctx = format!("{mv:?} by {seat:?}: {fx:?}");
    assert_eq!(fx.seat, seat, "{ctx}");
    let team = before.team_of(seat);
    // C6: the chip placed or removed
    let want_chip = match mv {
        Move::Place { at, .. } => Some(Chip::Placed { at, team }),
        Move::Remove { at, .. } => Some(Chip::Removed {
            at,
            team: before.chip_at(at).expect("a chip to remove"),
        }),
        _ => None,
    };
    assert_eq!(fx.chip, want_chip, "{ctx}");
    // C8: sequences made, in the order counted; C11: sequences broken
    let had: Vec<(Team, Window)> = before.sequences().collect();
    let now: Vec<(Team, Window)> = after.sequences().collect();
    let made: Vec<(Team, Window)> = now.iter().filter(|s| !had.contains(s)).copied().collect();
    let broken: Vec<(Team, Window)> = had.iter().filter(|s| !now.contains(s)).copied().collect();
    let fx_made: Vec<(Team, Window)> = fx.sequences.windows().map(|w| (team, w)).collect();
    assert_eq!(fx_made, made, "{ctx}");
    assert_eq!(fx.new_sequences as usize, made.len(), "{ctx}");
    let broken_team = match fx.chip {
        Some(Chip::Removed { team, .. }) => team,
        _ => team,
    };
    let fx_broken: Vec<(Team, Window)> = fx.broken.windows().map(|w| (broken_team, w)).collect();
    assert_eq!(fx_broken, broken, "{ctx}");
    // C7: a new draw pile
    assert_eq!(
        fx.reshuffled,
        after.draw_pile_len() > before.draw_pile_len(),
        "{ctx}"
    );
    // C6: the card drawn is the one the hand gained
    let mut want = counts(before.hand(seat));
    if let Some(c) = mv.card() {
        want[c.index()] -= 1;
    }
    for c in fx.drawn.cards() {
        want[c.index()] += 1;
    }
    assert_eq!(want, counts(after.hand(seat)), "{ctx}");
    assert_eq!(fx.drawn.seat, seat, "{ctx}");
    assert!(fx.drawn.count() <= 1, "{ctx}");
    // C9, C6a: the end
    let end = if after.is_over() {
        after.outcome()
    } else {
        Outcome::Playing
    };
    assert_eq!(fx.end, end, "{ctx}");
    assert_eq!(fx.ended(), after.is_over(), "{ctx}");
    // the drawn card is the mover's secret
    for viewer in (0..before.players()).map(|s| Some(Seat(s))).chain([None]) {
        let seen = fx.seen_by(viewer);
        assert_eq!(seen.drawn.count(), fx.drawn.count(), "{ctx}");
        if viewer == Some(seat) {
            assert_eq!(&seen, fx, "{ctx}");
        } else {
            assert_eq!(seen.drawn.cards().count(), 0, "{ctx}");
            assert_eq!(
                Effects {
                    drawn: fx.drawn.seen_by(viewer),
                    ..*fx
                },
                seen,
                "{ctx}"
            );
        }
    }
}

#[test]
fn effects_agree_with_the_states_before_and_after_in_random_games() {
    let tables: [(u8, Options); 5] = [
        (2, Options::default()),
        (
            2,
            Options {
                removable_sequences: true,
                win_sequences: Some(4),
                ..Options::default()
            },
        ),
        (
            3,
            Options {
                sequence_length: Some(4),
                removable_sequences: true,
                no_play: NoPlay::Discard,
                ..Options::default()
            },
        ),
        (
            4,
            Options {
                no_reshuffle: true,
                win_sequences: Some(3),
                ..Options::default()
            },
        ),
        (6, Options::default()),
    ];
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(23);
    let (mut made, mut broken, mut removed, mut reshuffled, mut won) = (0, 0, 0, 0, 0);
    for (players, options) in tables {
        let config = Config::new(players, None, options).unwrap();
        for _ in 0..40 {
            let (mut g, _) = Game::deal(config.clone(), &mut rng);
            while let Some(mv) = (!g.is_over()).then(|| g.random_move(&mut rng)).flatten() {
                let before = g.clone();
                let seat = g.turn();
                let fx = g.play(seat, mv, &mut RngReshuffler(&mut rng)).unwrap();
                check(&before, &g, seat, mv, &fx);
                made += fx.new_sequences as u32;
                broken += fx.broken.len();
                removed += matches!(fx.chip, Some(Chip::Removed { .. })) as u32;
                reshuffled += fx.reshuffled as u32;
                won += matches!(fx.end, Outcome::Won(_)) as u32;
            }
        }
    }
    // every kind of effect happened
    assert!(made > 0 && broken > 0 && removed > 0 && reshuffled > 0 && won > 0);
}

/// A position of two seats (blue is seat 0, green seat 1): chips,
/// sequences, hands, the seat to move; the draw pile every other card.
fn position(
    options: Options,
    chips: &[(Team, &str)],
    sequences: &[(Team, &str, &str)],
    hands: [&str; 2],
    turn: u8,
) -> Game {
    position_with(2, None, options, chips, sequences, &hands, turn)
}

#[test]
fn c6_c8_a_placement_reports_its_chip_its_sequence_and_the_card_drawn() {
    // Row 5: a5 9C b5 QS c5 7C d5 6H e5 5H; blue holds a5–d5 (C8).
    let mut g = position(
        Options::default(),
        &[(BLUE, "a5 b5 c5 d5")],
        &[],
        ["5H 3S", "4D"],
        0,
    );
    let draw_top = g.draw_pile().next().expect("a draw pile");
    let fx = g
        .play(
            Seat(0),
            Move::place(card("5H"), sq("e5")),
            &mut NoReshuffler,
        )
        .unwrap();
    assert_eq!(
        fx.chip,
        Some(Chip::Placed {
            at: sq("e5"),
            team: BLUE
        })
    );
    let made: Vec<Window> = fx.sequences.windows().collect();
    assert_eq!(made, [Window::from_ends(sq("a5"), sq("e5"), 5).unwrap()]);
    assert_eq!(fx.new_sequences, 1);
    assert!(fx.broken.is_empty() && !fx.reshuffled && !fx.ended());
    // C6: the mover drew the top of the draw pile; nobody else sees it
    assert_eq!(fx.drawn.cards().collect::<Vec<_>>(), [draw_top]);
    assert!(g.hand(Seat(0)).contains(&draw_top));
    let other = fx.seen_by(Some(Seat(1)));
    assert_eq!((other.drawn.count(), other.drawn.cards().count()), (1, 0));
    assert_eq!(fx.seen_by(None).drawn.cards().count(), 0);
    assert_eq!(fx.seen_by(Some(Seat(0))), fx);
}

#[test]
fn c11_a_one_eyed_jack_reports_the_chip_removed_and_the_sequence_broken() {
    // Blue's sequence a5–e5 under removable_sequences (C11); green (seat
    // 1) removes d5 with a one-eyed jack.
    let options = Options {
        removable_sequences: true,
        ..Options::default()
    };
    let mut g = position(
        options,
        &[(BLUE, "a5 b5 c5 d5 e5")],
        &[(BLUE, "a5", "e5")],
        ["9C", "JS 4D"],
        1,
    );
    let jack = Move::Remove {
        card: card("JS"),
        at: sq("d5"),
    };
    let fx = g.play(Seat(1), jack, &mut NoReshuffler).unwrap();
    assert_eq!(
        fx.chip,
        Some(Chip::Removed {
            at: sq("d5"),
            team: BLUE
        })
    );
    let broken: Vec<Window> = fx.broken.windows().collect();
    assert_eq!(broken, [Window::from_ends(sq("a5"), sq("e5"), 5).unwrap()]);
    assert_eq!(g.sequence_count(BLUE), 0);
    assert_eq!(fx.new_sequences, 0);
    assert_eq!(fx.drawn.count(), 1);
}

#[test]
fn c9_the_winning_placement_reports_the_win_and_draws_nothing() {
    // Blue holds b1–f1 and b5–e5; f5 (4H) makes the second sequence (C9).
    let mut g = position(
        Options::default(),
        &[(BLUE, "b1 c1 d1 e1 f1 b5 c5 d5 e5")],
        &[(BLUE, "b1", "f1")],
        ["4H 8D", "9C"],
        0,
    );
    let fx = g
        .play(
            Seat(0),
            Move::place(card("4H"), sq("f5")),
            &mut NoReshuffler,
        )
        .unwrap();
    assert_eq!(g.status(), Status::Won(BLUE));
    assert_eq!(fx.end, Outcome::Won(0));
    assert!(fx.ended());
    assert_eq!(fx.new_sequences, 1);
    assert!(fx.drawn.is_empty(), "nothing is drawn after the win");
}

#[test]
fn c6a_a_round_of_passes_reports_the_draw() {
    // Neither seat holds a card: each passes (C6a), drawing nothing, and a
    // full round of passes ends the game drawn.
    let mut g = position(Options::default(), &[(GREEN, "e5")], &[], ["", ""], 0);
    let first = g.play(Seat(0), Move::Pass, &mut NoReshuffler).unwrap();
    assert_eq!((first.end, first.chip), (Outcome::Playing, None));
    assert!(first.drawn.is_empty(), "a pass draws nothing (C6a)");
    let second = g.play(Seat(1), Move::Pass, &mut NoReshuffler).unwrap();
    assert_eq!(second.end, Outcome::Draw);
    assert_eq!(g.status(), Status::Draw);
}
