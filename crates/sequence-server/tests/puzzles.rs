//! The puzzles (issue 25): every puzzle of the data files the browser's
//! puzzle page reads (web/puzzles/<game>.json, written by `sequence
//! puzzles`) is checked again by the engine: its position is one of the
//! engine's, and the search that found it (sequence_bots::puzzles) finds
//! it again — the same kind, grade and explanation, and the stored
//! solution as the only move that keeps the best outcome within the
//! search's budget. Each file has at least 200 puzzles, every grade, and
//! unique ids; the rarer kinds (classic forks and windows, Stacks two-turn
//! wins) are there in number. Every Stacks Block puzzle names the pile just
//! completed (S5b), which its view alone cannot tell when both places of
//! the colour are free.

use sequence_bots::puzzles::{classic, stacks};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;
use std::time::Instant;

/// Window puzzles (C8a) and Stacks two-turn wins the files hold at least.
const WINDOWS: usize = 4;
const WIN2: usize = 1;
/// Stacks Block puzzles against a win the completer's next plays make.
const BLOCK2: usize = 19;

fn file(game: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("web/puzzles/{game}.json"));
    let text = std::fs::read_to_string(&path).expect("the puzzles' data file");
    serde_json::from_str(&text).expect("the puzzles' file is JSON")
}

fn puzzles(game: &str) -> Vec<Value> {
    let f = file(game);
    assert_eq!(f["game"], game);
    let list = f["puzzles"].as_array().expect("puzzles").clone();
    assert!(list.len() >= 200, "{game}: {} puzzles", list.len());
    let ids: BTreeSet<&str> = list.iter().filter_map(|p| p["id"].as_str()).collect();
    assert_eq!(ids.len(), list.len(), "{game}: every puzzle has its own id");
    let grades: BTreeSet<u64> = list.iter().filter_map(|p| p["grade"].as_u64()).collect();
    assert_eq!(grades, BTreeSet::from([1, 2, 3]), "{game}: graded 1 to 3");
    list
}

#[test]
fn every_classic_puzzle_is_solved_again_by_the_engine() {
    let start = Instant::now();
    let list = puzzles("classic");
    for p in &list {
        let id = &p["id"];
        let k = classic::known_from_json(p).unwrap_or_else(|e| panic!("{id}: {e}"));
        let s = classic::solve(&k)
            .unwrap_or_else(|e| panic!("{id}: not a position of the engine: {e}"))
            .unwrap_or_else(|| panic!("{id}: no longer a puzzle: no single best move"));
        let again = classic::to_json(
            p["id"].as_str().unwrap_or(""),
            &k,
            &s,
            p["from"]["seed"].as_u64().unwrap_or(0),
            p["from"]["move"].as_u64().unwrap_or(0) as u32,
        );
        for key in [
            "kind", "grade", "solution", "threats", "wins", "chance", "board", "choices", "need",
        ] {
            assert_eq!(again.get(key), p.get(key), "{id}: {key}");
        }
        // the whole entry, key order too: the file is what `to_json` writes
        assert_eq!(again.to_string(), p.to_string(), "{id}: as written");
    }
    eprintln!(
        "{} classic puzzles checked in {:.1} s",
        list.len(),
        start.elapsed().as_secs_f64()
    );
}

#[test]
fn every_stacks_puzzle_is_solved_again_by_the_engine() {
    let start = Instant::now();
    let list = puzzles("stacks");
    for p in &list {
        let id = &p["id"];
        let view = stacks::view_from_json(p).unwrap_or_else(|e| panic!("{id}: {e}"));
        let mut s = stacks::solve(&view)
            .unwrap_or_else(|e| panic!("{id}: not a position of the engine: {e}"))
            .unwrap_or_else(|| panic!("{id}: no longer a puzzle: no single best decision"));
        // a Block window's pile is named, and can be that pile (S3, S5b)
        s.why.completed =
            stacks::completion_from_json(p, &view).unwrap_or_else(|e| panic!("{id}: {e}"));
        let block = p["kind"] == "block" || p["kind"] == "block2";
        assert_eq!(s.why.completed.is_some(), block, "{id}: completed");
        let again = stacks::to_json(
            p["id"].as_str().unwrap_or(""),
            &view,
            &s,
            p["from"]["seed"].as_u64().unwrap_or(0),
            p["from"]["move"].as_u64().unwrap_or(0) as u32,
        );
        for key in [
            "kind",
            "grade",
            "solution",
            "line",
            "view",
            "completed",
            "threat",
        ] {
            assert_eq!(again.get(key), p.get(key), "{id}: {key}");
        }
        assert_eq!(again.to_string(), p.to_string(), "{id}: as written");
    }
    eprintln!(
        "{} Stacks puzzles checked in {:.1} s",
        list.len(),
        start.elapsed().as_secs_f64()
    );
}

/// A wrong solution is caught: the check is not a formality.
#[test]
fn a_changed_solution_is_refused() {
    let list = puzzles("classic");
    let p = &list[0];
    let k = classic::known_from_json(p).expect("a position");
    let s = classic::solve(&k).expect("a game").expect("a puzzle");
    let mut other =
        classic::candidates(&classic::game_of(&k, sequence_common::Seat(0)).expect("a game"));
    other.retain(|m| *m != s.solution);
    let wrong = other.first().expect("another move");
    let (v, _, _) = classic::value(&k, *wrong).expect("a legal move");
    let (best, _, _) = classic::value(&k, s.solution).expect("a legal move");
    assert!(v < best, "{wrong:?} is worse than the solution");
}

/// How many puzzles of `kind` the file has, by grade.
fn kind_grades(list: &[Value], kind: &str) -> Vec<u64> {
    list.iter()
        .filter(|p| p["kind"] == kind)
        .filter_map(|p| p["grade"].as_u64())
        .collect()
}

/// Issue 25: more forks (graded), window puzzles (C8a) and Stacks puzzles
/// over two of the player's turns.
#[test]
fn the_rarer_kinds_are_there_and_graded() {
    let classic = puzzles("classic");
    let forks = kind_grades(&classic, "fork");
    assert!(forks.len() >= 30, "{} forks", forks.len());
    assert!(forks.contains(&2) && forks.contains(&3), "{forks:?}");
    let windows = kind_grades(&classic, "window");
    assert!(windows.len() >= WINDOWS, "{} windows", windows.len());
    let stacks = puzzles("stacks");
    let deep = kind_grades(&stacks, "win2");
    assert!(deep.len() >= WIN2, "{} two-turn wins", deep.len());
    let block2 = kind_grades(&stacks, "block2");
    assert!(block2.len() >= BLOCK2, "{} block2", block2.len());
    assert!(block2.contains(&2) && block2.contains(&3), "{block2:?}");
}

/// A window puzzle (C8a): the other choices of the five for the same
/// placement are judged worse than the solution's.
#[test]
fn a_window_puzzles_other_choices_are_worse() {
    let list = puzzles("classic");
    let mut n = 0;
    for p in list.iter().filter(|p| p["kind"] == "window") {
        let id = &p["id"];
        let k = classic::known_from_json(p).expect("a position");
        let s = classic::solve(&k).expect("a game").expect("a puzzle");
        let (best, _, _) = classic::value(&k, s.solution).expect("a legal move");
        let g = classic::game_of(&k, sequence_common::Seat(0)).expect("a game");
        let same = |m: &sequence_classic::Move| match (m, &s.solution) {
            (
                sequence_classic::Move::Place { card, at, .. },
                sequence_classic::Move::Place {
                    card: c2, at: a2, ..
                },
            ) => card == c2 && at == a2,
            _ => false,
        };
        let others: Vec<_> = classic::candidates(&g)
            .into_iter()
            .filter(|m| same(m) && *m != s.solution)
            .collect();
        assert!(!others.is_empty(), "{id}: no other choice");
        // the long line's window: the next sequence is further after every
        // other choice; else the other choices lose the win next turn
        let need = |m| {
            classic::second_need(&k, m)
                .expect("a legal move")
                .map_or(usize::MAX, |n| n.len())
        };
        for m in others {
            if p.get("need").is_some() {
                assert!(need(m) > need(s.solution), "{id}: {m:?} is as near");
            } else {
                let (v, _, _) = classic::value(&k, m).expect("a legal move");
                assert!(v < best, "{id}: {m:?} is as good as the solution");
            }
        }
        assert_eq!(
            p["choices"].as_array().map(Vec::len),
            Some(
                1 + classic::candidates(&g)
                    .iter()
                    .filter(|m| same(m) && **m != s.solution)
                    .count()
            ),
            "{id}: the page offers every choice"
        );
        n += 1;
    }
    assert!(n >= WINDOWS, "{n} window puzzles");
}

/// A Stacks Block puzzle names the pile just completed (S5b): the view
/// alone shows its place free again (S3), and where both places of the
/// colour are free it could be either; a named pile that cannot be the one
/// is refused.
#[test]
fn every_stacks_block_puzzle_names_its_pile() {
    let list = puzzles("stacks");
    let (mut blocks, mut both_free) = (0, 0);
    for p in list
        .iter()
        .filter(|p| p["kind"] == "block" || p["kind"] == "block2")
    {
        let id = &p["id"];
        let view = stacks::view_from_json(p).unwrap_or_else(|e| panic!("{id}: {e}"));
        let w = view
            .block_window
            .unwrap_or_else(|| panic!("{id}: no Block window"));
        let c = stacks::completion_from_json(p, &view)
            .unwrap_or_else(|e| panic!("{id}: {e}"))
            .unwrap_or_else(|| panic!("{id}: no pile named"));
        let free: Vec<_> = view
            .piles
            .iter()
            .filter(|q| q.place.colour() == w.colour && q.cards.is_empty())
            .map(|q| q.place)
            .collect();
        assert!(free.contains(&c.place), "{id}: {} is not free", c.place);
        both_free += usize::from(free.len() > 1);
        blocks += 1;
        // a place of the other colour, or a pile still there, is refused
        // (which of two free places it was only self-play knows)
        for q in view.piles.iter().filter(|q| !free.contains(&q.place)) {
            let mut wrong = p.clone();
            wrong["completed"]["place"] = q.place.name().into();
            assert!(
                stacks::completion_from_json(&wrong, &view).is_err(),
                "{id}: {} taken",
                q.place
            );
        }
        let mut unnamed = p.clone();
        if let Some(o) = unnamed.as_object_mut() {
            o.remove("completed");
        }
        assert!(
            stacks::completion_from_json(&unnamed, &view).is_err(),
            "{id}: unnamed taken"
        );
    }
    assert!(blocks >= 100, "{blocks} Block puzzles");
    // the defect this fixes: those positions were ambiguous
    assert!(both_free > 0, "no Block puzzle with both places free");
    eprintln!("{blocks} Block puzzles, {both_free} with both places of the colour free");
}

/// A `block2` puzzle's threat (S3, S5b, S7): played on the position after
/// every seat lets the completion stand, it wins the completer the game;
/// after the Block the same plays do not.
#[test]
fn a_block2_threat_wins_unless_blocked() {
    use sequence_common::NoReshuffler;
    use sequence_stacks::{notation, Decision, Status};
    let list = puzzles("stacks");
    let mut n = 0;
    for p in list.iter().filter(|p| p["kind"] == "block2") {
        let id = &p["id"];
        let view = stacks::view_from_json(p).expect("a view");
        let w = view.block_window.expect("a Block window");
        let me = view.seat.expect("a seat");
        let threat: Vec<Decision> = p["threat"]
            .as_array()
            .expect("a threat")
            .iter()
            .map(|d| notation::move_from_json(d).expect("a decision").1)
            .collect();
        let play_out = |first: Decision| {
            let mut g = stacks::game_of(&view).expect("a game");
            g.play(me, first, &mut NoReshuffler).expect("legal");
            for d in &threat {
                while let (Some(_), Some(s)) = (g.block_offer(), g.to_act()) {
                    g.play(s, Decision::Pass, &mut NoReshuffler)
                        .expect("a pass");
                }
                if g.play(w.completer, *d, &mut NoReshuffler).is_err() {
                    break;
                }
            }
            // the last completion's window declined too: its chip is taken
            while let (Some(_), Some(s)) = (g.block_offer(), g.to_act()) {
                g.play(s, Decision::Pass, &mut NoReshuffler)
                    .expect("a pass");
            }
            g.status()
        };
        assert_eq!(
            play_out(Decision::Pass),
            Status::Won(w.completer),
            "{id}: stands"
        );
        assert_ne!(
            play_out(Decision::Block),
            Status::Won(w.completer),
            "{id}: blocked"
        );
        n += 1;
    }
    assert!(n >= BLOCK2, "{n} block2 puzzles");
}
