//! The puzzle search on positions built by hand (issue 25): the window
//! puzzles (C8, C8a) — a chip that makes a line longer than five, where only
//! one choice of the five keeps a win next turn, or keeps the next
//! sequence nearest — and that the wrong choice is judged worse; Stacks
//! Block puzzles (S5b) from self-play name the pile just completed.

use sequence_bots::puzzles::classic::{self, Known, Value3};
use sequence_classic::{Card, Declaration, Move, Space, Team, Window};
use sequence_common::Seat;

const BLUE: Team = Team(0);

fn at(name: &str) -> Space {
    name.parse().expect("a space")
}

/// Row 5: blue on a5 b5, d5 e5, g5 h5 i5; c5 and f5 empty. A two-eyed
/// jack on f5 makes the line d5–i5 (six); the card of c5 is kept for the
/// next turn. Declaring e5–i5 leaves a5–e5 (sharing e5 only, C8) to be
/// completed on c5; declaring d5–h5 leaves nothing (a5–e5 would share d5
/// and e5).
fn long_line() -> Known {
    let chips = ["a5", "b5", "d5", "e5", "g5", "h5", "i5"]
        .iter()
        .map(|s| (BLUE, at(s)))
        .collect();
    let blank = Known {
        chips,
        sequences: vec![],
        hand: vec![],
        discards: vec![],
    };
    let g = classic::game_of(&blank, Seat(0)).expect("a position");
    let c5 = g.layout().card_at(at("c5")).expect("c5 has a card");
    Known {
        hand: vec![Card::JD, c5],
        ..blank
    }
}

fn place_f5(first: &str, last: &str) -> Move {
    let w = Window::from_ends(at(first), at(last), 5).expect("a window");
    Move::Place {
        card: Card::JD,
        at: at("f5"),
        declare: Some(Declaration::new(&[w])),
    }
}

#[test]
fn the_window_puzzle_asks_for_the_five_that_leave_a_second_sequence() {
    let k = long_line();
    let s = classic::solve(&k)
        .expect("a position of the engine")
        .expect("a puzzle");
    assert_eq!(s.kind, "window");
    assert_eq!(s.grade, 3);
    assert_eq!(s.solution, place_f5("e5", "i5"));
    assert_eq!(s.why.wins, vec![at("c5")]);
    // the engine's own choice (the first window in reading order, C8a) is
    // the wrong one here: it leaves no win
    let (right, _, wins) = classic::value(&k, place_f5("e5", "i5")).expect("legal");
    let (wrong, _, none) = classic::value(&k, place_f5("d5", "h5")).expect("legal");
    assert_eq!((right, wrong), (Value3::Threatens, Value3::Safe));
    assert_eq!((wins, none), (vec![at("c5")], vec![]));
    // the data file offers both choices of the placement, in record notation
    let v = classic::to_json("t", &k, &s, 1, 2);
    assert_eq!(
        v["choices"],
        serde_json::json!([[["d5", "h5"]], [["e5", "i5"]]])
    );
    assert_eq!(v["solution"]["declare"], serde_json::json!([["e5", "i5"]]));
}

/// Without the card of c5 no choice wins next turn; the window puzzle
/// of the long line: e5–i5 leaves the next sequence one chip away (a5–e5,
/// on c5), d5–h5 leaves it further.
#[test]
fn without_the_card_for_c5_the_right_five_keep_the_next_sequence_nearest() {
    let mut k = long_line();
    let c5 = k.hand.pop().expect("the card of c5");
    let other: Card = if c5.to_string() == "TS" { "QS" } else { "TS" }
        .parse()
        .expect("a card");
    k.hand.push(other);
    let s = classic::solve(&k)
        .expect("a position of the engine")
        .expect("a puzzle");
    assert_eq!((s.kind, s.grade), ("window", 2));
    assert_eq!(s.solution, place_f5("e5", "i5"));
    assert_eq!(s.why.need, vec![at("c5")]);
    assert!(s.why.wins.is_empty());
    let v = classic::to_json("t", &k, &s, 1, 2);
    assert_eq!(v["need"], serde_json::json!(["c5"]));
}

/// Stacks Block puzzles (S5b) from self-play name the pile just completed
/// (the view shows its place free again, S3): the completing decision's
/// place and card, also when an earlier opponent's pass came between
/// (three players); the data file's `completed` reads back the same.
#[test]
fn stacks_block_puzzles_name_the_pile_just_completed() {
    use sequence_bots::puzzles::stacks;
    use sequence_stacks::Decision;
    let (mut blocks, mut after_pass) = (0, 0);
    stacks::self_play(1, |view, s, seed, at| {
        if s.kind != "block" {
            return seed < 400;
        }
        let w = view.block_window.expect("a Block window");
        let c = s.why.completed.expect("the pile just completed");
        assert_eq!(c.place.colour(), w.colour, "seed {seed}");
        match view.last_move {
            Some((who, Decision::Pile { card, place, .. })) => {
                assert_eq!(who, w.completer, "seed {seed}");
                assert_eq!((c.place, c.card), (place, card), "seed {seed}");
            }
            Some((_, Decision::Pass)) => after_pass += 1,
            other => panic!("seed {seed}: last move {other:?}"),
        }
        let v = stacks::to_json("t", view, s, seed, at);
        assert_eq!(v["completed"]["place"], c.place.name());
        assert_eq!(v["completed"]["card"], c.card.code());
        let back = stacks::view_from_json(&v).expect("a view");
        assert_eq!(stacks::completion_from_json(&v, &back), Ok(Some(c)));
        blocks += 1;
        (blocks < 12 || after_pass == 0) && seed < 400
    });
    assert!(blocks >= 12, "{blocks} Block puzzles");
    assert!(after_pass > 0, "no Block puzzle after a pass");
}
