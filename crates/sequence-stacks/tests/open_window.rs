//! A record that ends inside an open Block window (S5b) loads with the
//! window still open: a decline is never written (RECORD-STACKS.md "When no
//! one blocks, nothing is written"), only implied by a later entry, so a
//! record saved right after a pile-completing move of an unfinished game
//! ends with the opponents still to be asked. Regression (fresh tester,
//! defect 1): loading closed the window, so the seat offered it could not
//! answer and a practice bot found no move.

use sequence_common::SeatView as _;
use sequence_stacks::record::replay;
use sequence_stacks::{Config, Decision, Match, Options, Status};

/// Plays the first legal decision of whoever acts (seat order of the
/// listing) until a Block window opens for the `declines`-th time with at
/// least `declines` seats still to ask; passes the first `declines` asked
/// seats. `None` if the game ends first.
fn into_window(players: u8, seed: u64, declines: usize) -> Option<Match> {
    let mut m = Match::new(Config::new(players, Options::default()).ok()?, seed);
    for _ in 0..5_000 {
        let seat = m.to_act()?;
        if let Some(w) = m.game().block_offer() {
            if w.offered == seat && usize::from(players) > declines + 1 {
                for _ in 0..declines {
                    let s = m.to_act()?;
                    m.play(s, Decision::Pass).ok()?;
                }
                return Some(m);
            }
        }
        let mv = *m.view(seat).legal_moves().first()?;
        m.play(seat, mv).ok()?;
    }
    None
}

fn open_window_match(players: u8, declines: usize) -> Match {
    (0..200)
        .find_map(|seed| into_window(players, seed, declines))
        .expect("a game that opens a Block window")
}

#[test]
fn s5b_a_record_ending_in_an_open_window_loads_with_the_window_open() {
    for players in 2..=4 {
        let m = open_window_match(players, 0);
        let w = m.game().block_offer().expect("window open");
        assert_eq!(m.game().status(), Status::Playing);
        let (_, g) = replay(&m.to_json().expect("dealt from a seed")).expect("replays");
        assert_eq!(g.block_offer(), Some(w), "{players} players");
        assert_eq!(g.to_act(), Some(w.offered));
        let legal = g.view(w.offered).legal_moves();
        assert!(legal.contains(&Decision::Pass), "{legal:?}");
        assert_eq!(legal, m.view(w.offered).legal_moves());
        // the same game goes on: the offered seat passes in both
        let mut live = m;
        let mut back = Match::resume(
            replay(&live.to_json().expect("dealt from a seed"))
                .unwrap()
                .0,
            g,
            1,
        );
        live.play(w.offered, Decision::Pass).unwrap();
        back.play(w.offered, Decision::Pass).unwrap();
        assert_eq!(live.to_json(), back.to_json());
        assert_eq!(live.to_act(), back.to_act());
    }
}

#[test]
fn s5b_a_later_entry_still_implies_the_declines() {
    // the offered seat declines silently; the completer's next move is
    // written: loading that record closes the window with the chip taken
    let m = open_window_match(3, 0);
    let w = m.game().block_offer().unwrap();
    let mut live = m;
    while live.game().block_offer().is_some() {
        let s = live.to_act().unwrap();
        live.play(s, Decision::Pass).unwrap();
    }
    assert_eq!(live.to_act(), Some(w.completer));
    if live.game().status() == Status::Playing {
        let mv = live.view(w.completer).legal_moves()[0];
        live.play(w.completer, mv).unwrap();
    }
    let (_, g) = replay(&live.to_json().expect("dealt from a seed")).expect("replays");
    assert_eq!(g.block_offer(), live.game().block_offer());
    assert_eq!(g.chips(w.completer), live.game().chips(w.completer));
    assert_eq!(g.to_act(), live.to_act());
}

#[test]
fn s5b_declines_made_before_the_save_are_not_in_the_record() {
    // with 4 players one seat declined before the save: the record cannot
    // show it, so the loaded game asks that seat again (the caller keeps
    // the declines made since the last entry, as the practice table and
    // Python pickles do)
    let m = open_window_match(4, 1);
    let w = m.game().block_offer().unwrap();
    let (_, g) = replay(&m.to_json().expect("dealt from a seed")).unwrap();
    let first = g.block_offer().unwrap();
    assert_eq!(first.completer, w.completer);
    assert_ne!(first.offered, w.offered);
    assert_eq!(g.to_act(), Some(first.offered));
    let mut back = Match::resume(
        replay(&m.to_json().expect("dealt from a seed")).unwrap().0,
        g,
        1,
    );
    back.play(first.offered, Decision::Pass).unwrap();
    assert_eq!(back.game().block_offer(), Some(w));
}

#[test]
fn s5b_a_record_naming_a_winner_closes_the_window_it_ends_in() {
    // the shared examples end with the winning completion: the win is the
    // chip taken when the window closes
    for name in ["2p", "3p", "4p", "6p"] {
        let p = format!(
            "{}/../../../shared/examples/stacks/{name}.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
        let (_, g) = replay(&v).expect("verifies");
        assert!(matches!(g.status(), Status::Won(_)), "{name}");
        assert_eq!(g.block_offer(), None);
        // without its result the same record is an unfinished game inside
        // the window of its last completion
        let mut open = v.clone();
        open.as_object_mut().unwrap().remove("result");
        let (_, g) = replay(&open).expect("replays");
        assert_eq!(g.status(), Status::Playing, "{name}");
        let w = g.block_offer().expect("window open");
        assert_eq!(g.to_act(), Some(w.offered));
        assert_ne!(w.offered, w.completer);
    }
}
