//! Browser end-to-end test of the puzzle page (issue 25), in headless
//! Chromium (see `browser/mod.rs` for the rig): a learner fails a classic
//! puzzle (the page says why: the opponent can still win on the space it
//! names), then solves it (the page explains the solution); the solved
//! puzzle is remembered over a reload; a Stacks Block puzzle is failed by
//! letting the pile stand and solved with the Block; without an id the
//! page opens the puzzle of the day; the page speaks every language
//! (no key left untranslated).

mod browser;

use browser::*;
use fantoccini::Client;
use serde_json::Value;
use std::time::{SystemTime, UNIX_EPOCH};

async fn puzzles(c: &Client, game: &str) -> Vec<Value> {
    let (status, file) = fetch_json(c, &format!("/puzzles/{game}.json"), None).await;
    assert_eq!(status, 200, "/puzzles/{game}.json");
    file["puzzles"].as_array().expect("puzzles").clone()
}

async fn open(c: &Client, base: &str, game: &str, id: &str) {
    c.goto(&format!("{base}/?puzzles={game}&id={id}"))
        .await
        .expect("open the puzzle page");
    let page = wait_for(c, ".puzzle-page").await;
    assert_eq!(
        page.attr("data-puzzle")
            .await
            .expect("its puzzle")
            .as_deref(),
        Some(id)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_learner_fails_a_puzzle_then_solves_it() {
    let Some(rig) = Rig::start("e2e_puzzles").await else {
        return;
    };
    let (c, _) = rig.browser("puzzler").await;
    c.goto(&format!("{}/", rig.base)).await.expect("lobby");
    wait_for(&c, "#puzzles-classic").await;

    // Classic: a block with the card of the space (grade 1).
    let list = puzzles(&c, "classic").await;
    let p = list
        .iter()
        .find(|p| p["kind"] == "block" && p["grade"] == 1)
        .expect("a block puzzle");
    let id = p["id"].as_str().unwrap_or_default();
    let sol = &p["solution"];
    let threat = p["threats"][0].as_str().unwrap_or_default().to_string();
    open(&c, &rig.base, "classic", id).await;
    let task = wait_text(&c, "#puzzle-task").await;
    assert!(task.contains("stop it"), "{task}");
    // a wrong move: another card of the hand, on a space it lights
    let hand: Vec<&str> = p["hand"]
        .as_array()
        .expect("hand")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let mut failed = false;
    for (i, card) in hand.iter().enumerate() {
        if Some(*card) == sol["card"].as_str() || card.starts_with('J') {
            continue;
        }
        click(&c, &format!(".hand-card[data-focus=\"hand-{i}\"]")).await;
        let lit = c
            .execute(
                "return [...document.querySelectorAll('.space.target')].map((e) => e.dataset.space);",
                vec![],
            )
            .await
            .expect("the lit spaces");
        let Some(space) = lit
            .as_array()
            .and_then(|l| l.first())
            .and_then(Value::as_str)
        else {
            click(&c, &format!(".hand-card[data-focus=\"hand-{i}\"]")).await;
            continue;
        };
        click(&c, &format!(".space.target[data-space=\"{space}\"]")).await;
        failed = true;
        break;
    }
    assert!(failed, "{id}: no other card had a space");
    wait_for(&c, "#puzzle-result.bad").await;
    let why = wait_text(&c, "#puzzle-refutation").await;
    assert!(
        why.contains("could still win on") && why.contains(&threat),
        "{why}"
    );
    shot(&c, "puzzle-wrong").await;
    // the solution
    let i = hand
        .iter()
        .position(|h| Some(*h) == sol["card"].as_str())
        .expect("the solution's card");
    click(&c, &format!(".hand-card[data-focus=\"hand-{i}\"]")).await;
    let at = sol["at"].as_str().unwrap_or_default();
    click(&c, &format!(".space.target[data-space=\"{at}\"]")).await;
    wait_for(&c, "#puzzle-result.good").await;
    let why = wait_text(&c, "#puzzle-why").await;
    assert!(why.contains(at) && why.contains("stops it"), "{why}");
    shot(&c, "puzzle-solved").await;
    // remembered in this browser
    c.refresh().await.expect("reload");
    wait_for(&c, ".puzzle-solved-tag").await;
    let progress = wait_text(&c, "#puzzle-progress").await;
    assert!(progress.starts_with("Solved 1 of"), "{progress}");

    // Stacks: the Block that saves the game.
    let list = puzzles(&c, "stacks").await;
    let p = list
        .iter()
        .find(|p| p["kind"] == "block")
        .expect("a Block puzzle");
    let id = p["id"].as_str().unwrap_or_default();
    open(&c, &rig.base, "stacks", id).await;
    click(&c, "#let-it-stand").await;
    let why = wait_text(&c, "#puzzle-result.bad #puzzle-refutation").await;
    assert!(why.contains("wins them the game"), "{why}");
    click(&c, "#block").await;
    wait_for(&c, "#puzzle-result.good").await;

    // Without an id: the puzzle of the day (the same for everyone, UTC).
    let day = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("a clock")
        .as_millis()
        / 86_400_000;
    let daily = &list[(day as usize * 7919) % list.len()];
    c.goto(&format!("{}/?puzzles=stacks", rig.base))
        .await
        .expect("the puzzle page");
    let page = wait_for(&c, ".puzzle-page").await;
    assert_eq!(
        page.attr("data-puzzle").await.expect("its puzzle"),
        daily["id"].as_str().map(String::from)
    );

    // Every language: no key shown in place of its words.
    for lang in ["ka", "fa", "uk", "kn", "en"] {
        select_option(&c, "#lang", lang).await;
        wait_for(&c, &format!(".puzzle-page[data-learn-lang=\"{lang}\"]")).await;
        let text = wait_text(&c, ".puzzle-page").await;
        assert!(!text.contains("puzzle."), "{lang}: {text}");
        shot(&c, &format!("puzzle-{lang}")).await;
    }
    c.close().await.ok();
}
