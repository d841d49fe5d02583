//! The Stacks lesson's learner (see `tutorial_script.rs`): one try at a
//! deal, its moves labelled with the lesson's kinds of step.

use rand::Rng;
use sequence_common::{AnyGame, GameKind, Seat};
use sequence_server::tables::tutorial;
use serde_json::{json, Value};

/// The kinds of step the lesson must hold (an action card is `skip` or
/// `steal_chip`).
const LESSON: [&str; 5] = ["pile", "wild", "complete", "action", "block"];
/// The longest lesson searched for, in learner moves.
const MAX_MOVES: usize = 40;

fn is_wild(card: &str) -> bool {
    card == "BW" || card == "RW"
}

/// Whether `mv` completes a pile: afterwards a Block window is open or
/// more cards are set aside as completed (S3, S5b).
fn completes(live: &dyn AnyGame, seat: Seat, mv: &Value) -> bool {
    let before = live.view_json(Some(seat))["completed"]
        .as_array()
        .map_or(0, Vec::len);
    let mut next = live.clone_box();
    if next.play_json(mv).is_err() {
        return false;
    }
    let v = next.view_json(Some(seat));
    !v["block_window"].is_null() || v["completed"].as_array().map_or(0, Vec::len) > before
}

/// The kind of step `mv` is.
fn kind_of(live: &dyn AnyGame, seat: Seat, mv: &Value) -> &'static str {
    if mv.get("pass").is_some() {
        return "pass";
    }
    if mv.get("discard").is_some() {
        return "discard";
    }
    if mv.get("end").is_some() {
        return "end";
    }
    match mv["play"].as_str().unwrap_or("") {
        "BLOCK" => "block",
        "SKIP" => "skip",
        "STEAL-CHIP" => "steal_chip",
        "STEAL-CARD" => "steal_card",
        "REVERSE" => "reverse",
        _ if completes(live, seat, mv) => "complete",
        c if is_wild(c) => "wild",
        _ => "pile",
    }
}

/// How much the learner wants the step `kind` with card `card` now, given
/// the lesson's kinds `done` (None: never).
fn want(kind: &str, card: &str, done: &[&str]) -> Option<i32> {
    let new = |k: &str| !done.contains(&k);
    Some(match kind {
        "block" => 100,
        "pass" => 0,
        "complete" => 60,
        "skip" | "steal_chip" if new("action") => 50,
        "skip" | "steal_chip" => return None,
        "wild" if new("wild") => 40,
        "wild" => return None,
        "pile" => 30,
        // what to discard: never the Block, a wild or an action card the
        // lesson still needs
        "discard" => match card {
            "BLOCK" if new("block") => return None,
            "BW" | "RW" => -20,
            "SKIP" | "STEAL-CHIP" if new("action") => -10,
            _ => 0,
        },
        "end" => 0,
        _ => return None,
    })
}

/// One try (number `k`) at the deal of `seed`: the learner's steps, or
/// `None` when it does not take every kind of step within [`MAX_MOVES`].
pub fn lesson(t: &tutorial::Tutorial, seed: u64, k: u64) -> Option<Vec<Value>> {
    let mut live = super::start(GameKind::Stacks, t, seed)?;
    let mut rng = sequence_common::rng::game_rng(k);
    let mut moves = 0u32;
    let mut done: Vec<&str> = vec![];
    let mut steps = vec![];
    while let Some(seat) = super::bot_turns(&mut live, t, seed, &mut moves)? {
        if steps.len() >= MAX_MOVES {
            return None;
        }
        let view = live.view_json(Some(seat));
        let legal = view["legal_moves"].as_array()?.clone();
        let (kind, mv) = legal
            .iter()
            .filter(|m| m.get("from").is_none())
            .filter_map(|m| {
                let kind = kind_of(live.as_ref(), seat, m);
                let card = m["play"].as_str().or(m["discard"].as_str()).unwrap_or("");
                let score = want(kind, card, &done)? * 4 + rng.random_range(0..4);
                Some((score, kind, m))
            })
            .max_by_key(|(score, _, _)| *score)
            .map(|(_, kind, m)| (kind, m.clone()))?;
        live.play_json(&mv).ok()?;
        let lesson_kind = if kind == "skip" || kind == "steal_chip" {
            "action"
        } else {
            kind
        };
        if LESSON.contains(&lesson_kind) && !done.contains(&lesson_kind) {
            done.push(lesson_kind);
        }
        steps.push(json!({"at": moves, "kind": kind, "move": mv}));
        moves += 1;
        let turn_over = kind == "discard" || kind == "end";
        if done.len() == LESSON.len() && turn_over {
            return Some(steps);
        }
    }
    None
}
