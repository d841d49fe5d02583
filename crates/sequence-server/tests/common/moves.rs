//! Moves as the tests see them: a random legal move of a view, and the
//! moves a table's event log stores. Shared with the `sequence` binary's
//! server tests (crates/sequence-cli/tests/server_kill.rs includes this
//! file), so it uses nothing but `rand` and `serde_json`.
#![allow(dead_code)]

use rand::seq::IndexedRandom;
use serde_json::Value;
use std::collections::BTreeMap;

/// A legal move of a seat's `view` at random, `None` when the seat has
/// none (not its turn).
pub fn random_legal(view: &Value, rng: &mut impl rand::Rng) -> Option<Value> {
    view["legal_moves"]
        .as_array()
        .expect("a seat's view lists its legal moves")
        .choose(rng)
        .cloned()
}

/// The moves of table `id`'s event log (`(seq, JSON)` as the database
/// answers), by `(game_no, move_number)`, a declined Block included
/// (which a Stacks record leaves out). A move stored twice at one place
/// fails the test.
pub fn stored_moves(id: &str, events: Vec<(i64, String)>) -> BTreeMap<(u64, u64), Value> {
    let mut out = BTreeMap::new();
    let (mut game, mut n) = (0u64, 0u64);
    for (_, data) in events {
        let e: Value = serde_json::from_str(&data).expect("an event is JSON");
        match e["t"].as_str() {
            Some("start") => {
                game += 1;
                n = 0;
            }
            Some("move") => {
                let dup = out.insert((game, n), e["mv"].clone());
                assert!(dup.is_none(), "table {id}: move {n} of game {game} twice");
                n += 1;
            }
            _ => {}
        }
    }
    out
}
