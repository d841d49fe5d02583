//! The tutorials (issue 25): a tutorial table is a private practice game
//! of two against the tutorial's bot, dealt from the tutorial's seed with
//! the bot seeded from it, so that its script (web/tutorial/<game>.json,
//! written by `cargo run -p sequence-server --example tutorial_script`)
//! fits the game: played move by move through the API, every scripted
//! move is legal when its turn comes, the steps are the lesson's (C6: a
//! chip, a two-eyed jack, a one-eyed jack's removal, a dead-card exchange;
//! C8: a sequence) and the last one wins. Twice, on two tables: the game
//! is the same every time.

use crate::common;

use serde_json::{json, Value};
use std::path::Path;
use std::time::{Duration, Instant};

fn script(game: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("web/tutorial/{game}.json"));
    let text = std::fs::read_to_string(&path).expect("the tutorial's script");
    serde_json::from_str(&text).expect("the script is JSON")
}

/// Waits until the seat of `token` may move (or the game is over).
async fn my_turn(s: &common::Server, id: &str, token: &str) -> Value {
    let start = Instant::now();
    loop {
        let v = s.view(id, Some(token)).await;
        let mine = v["legal_moves"].as_array().is_some_and(|l| !l.is_empty());
        if mine || v["status"] != "playing" {
            return v;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the bot never moved: {v}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The learner's turn at `step` of the script in `round`: the view once
/// the seat may move, and the legal move the step names. Fails when the
/// game ended before the step, the step is not at this move number, or
/// its move is not legal now.
async fn learner_turn(
    s: &common::Server,
    id: &str,
    token: &str,
    round: u32,
    step: &Value,
) -> (Value, Value) {
    let v = my_turn(s, id, token).await;
    assert_eq!(
        v["status"], "playing",
        "round {round}: the game ended before {step}"
    );
    assert_eq!(
        v["move_number"], step["at"],
        "round {round}: the learner moves at {step}"
    );
    let legal = v["legal_moves"].as_array().expect("legal moves");
    let mv = legal
        .iter()
        .find(|m| same(m, &step["move"]))
        .unwrap_or_else(|| panic!("round {round}: {step} is not legal now: {legal:?}"))
        .clone();
    (v, mv)
}

fn same(a: &Value, b: &Value) -> bool {
    [
        "card", "at", "remove", "dead", "play", "to", "from", "target", "colour", "discard",
        "pass", "end",
    ]
    .iter()
    .all(|k| a.get(*k) == b.get(*k))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_classic_tutorial_plays_as_its_script_says() {
    let sc = script("classic");
    let steps = sc["steps"].as_array().expect("steps");
    let kinds: Vec<&str> = steps
        .iter()
        .filter_map(|s| s["kind"].as_str())
        .filter(|k| *k != "chip")
        .collect();
    assert_eq!(
        kinds,
        ["place", "two_eyed", "one_eyed", "dead", "sequence"],
        "the lesson's steps in order"
    );
    let s = common::server(0).await;
    for round in 0..2 {
        let (id, token) = s
            .create(json!({"game": "classic", "players": 4, "name": "Ann", "tutorial": "classic", "bots": []}))
            .await;
        let (_, info) = s.get(&format!("/api/tables/{id}"), None).await;
        assert_eq!(info["tutorial"], "classic", "{info}");
        assert_eq!(info["players"], 2, "a tutorial is a game of two: {info}");
        assert_eq!(info["private"], true, "{info}");
        assert_eq!(info["seats"][1]["kind"], "bot", "{info}");
        for step in steps {
            let (v, mv) = learner_turn(&s, &id, &token, round, step).await;
            if step["kind"] == "dead" {
                assert!(
                    v["dead"]
                        .as_array()
                        .is_some_and(|d| d.contains(&step["move"]["dead"])),
                    "{v}"
                );
            }
            let n = v["move_number"].as_u64().unwrap_or(0);
            let (st, r) = s.play(&id, Some(&token), n, mv).await;
            assert_eq!(st, 200, "round {round}: {step}: {r}");
        }
        let v = s.view(&id, Some(&token)).await;
        assert_eq!(v["status"], "won", "the last step wins: {v}");
        assert_eq!(v["winner"], v["team"], "the learner wins: {v}");
    }
    // a tutorial of another game, or none of that name, is refused
    let (st, r) = s
        .try_create(json!({"game": "stacks", "players": 2, "name": "Ann", "tutorial": "classic"}))
        .await;
    assert_eq!(st, 400, "{r}");
    let (st, r) = s
        .try_create(json!({"game": "classic", "players": 2, "name": "Ann", "tutorial": "chess"}))
        .await;
    assert_eq!(st, 400, "{r}");
    assert!(common::error_of(&r).contains("no tutorial"), "{r}");
}

/// The Stacks tutorial: its script holds the lesson's steps (S3: a card on
/// a pile, a wild, a completed pile; S5: Skip or Steal-a-Chip, a Block in
/// the window after the bot completes a pile; S4: every turn ends with a
/// discard), every scripted move is legal when its turn comes, and after
/// the last step (a discard) the bot is to move and the game goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_stacks_tutorial_plays_as_its_script_says() {
    let sc = script("stacks");
    assert_eq!(sc["ends"], "lesson", "the lesson ends before the game");
    let steps = sc["steps"].as_array().expect("steps");
    let kinds: Vec<&str> = steps.iter().filter_map(|s| s["kind"].as_str()).collect();
    for k in ["pile", "wild", "complete", "block", "discard"] {
        assert!(kinds.contains(&k), "the lesson has a {k} step: {kinds:?}");
    }
    assert!(
        kinds.contains(&"skip") || kinds.contains(&"steal_chip"),
        "an action card: {kinds:?}"
    );
    assert_eq!(kinds.last(), Some(&"discard"), "the lesson ends a turn");
    let s = common::server(0).await;
    for round in 0..2 {
        let (id, token) = s
            .create(json!({"game": "stacks", "players": 3, "name": "Ann", "tutorial": "stacks"}))
            .await;
        let (_, info) = s.get(&format!("/api/tables/{id}"), None).await;
        assert_eq!(info["tutorial"], "stacks", "{info}");
        assert_eq!(info["players"], 2, "a tutorial is a game of two: {info}");
        assert_eq!(info["private"], true, "{info}");
        for step in steps {
            let (v, mv) = learner_turn(&s, &id, &token, round, step).await;
            if step["kind"] == "block" {
                assert!(
                    !v["block_window"].is_null(),
                    "a Block answers a window: {v}"
                );
            }
            let n = v["move_number"].as_u64().unwrap_or(0);
            let (st, r) = s.play(&id, Some(&token), n, mv).await;
            assert_eq!(st, 200, "round {round}: {step}: {r}");
            if step["kind"] == "block" {
                let after = s.view(&id, Some(&token)).await;
                assert!(
                    after["block_window"].is_null(),
                    "the Block closed it: {after}"
                );
            }
        }
        // The bot may already have answered by now (a random bot moves at
        // once), so the log says whose turn followed the learner's last
        // discard: every entry after it is the bot's (S4: the discard ends
        // the learner's turn), and the bot has moved or is to move.
        let v = s.view(&id, Some(&token)).await;
        assert_eq!(v["status"], "playing", "the game goes on: {v}");
        let log = v["log"].as_array().expect("log");
        let last_mine = log
            .iter()
            .rposition(|e| e["seat"] == 0)
            .unwrap_or_else(|| panic!("round {round}: the learner's moves are in the log: {v}"));
        let last_step = steps.last().map(|s| &s["move"]).expect("a last step");
        assert!(
            same(&log[last_mine]["move"], last_step),
            "round {round}: the learner's last move is the lesson's last step: {v}"
        );
        let after = &log[last_mine + 1..];
        assert!(
            after.iter().all(|e| e["seat"] == 1),
            "round {round}: only the bot moved after the lesson: {v}"
        );
        assert!(
            !after.is_empty() || v["turn"] == 1,
            "round {round}: the bot's turn after the last discard: {v}"
        );
    }
}
