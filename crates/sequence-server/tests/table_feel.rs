//! Issue 25, the defects a new player found that are the server's: a
//! left seat at a timed table, and the start time of a game whose other
//! seats are all bots.

use crate::common;

use common::server;
use rand::seq::IndexedRandom;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// A new 2-player classic table (sequences of 4, one to win) of Ann
/// against a random bot at seat 1: its id and Ann's token.
async fn against_a_bot(s: &common::Server) -> (String, String) {
    s.create(json!({"game": "classic", "players": 2, "name": "Ann",
                    "bots": [{"seat": 1, "level": "random"}],
                    "options": {"sequence_length": 4, "win_sequences": 1}}))
        .await
}

/// Plays random legal moves for the seat of `token` until the game is
/// over (other seats are bots); gives the table info at the end.
async fn play_to_the_end(s: &common::Server, id: &str, token: &str, seed: u64) -> Value {
    let mut r = sequence_common::rng::game_rng(seed);
    let start = Instant::now();
    loop {
        let v = s.view(id, Some(token)).await;
        if v["table"]["status"] == "over" {
            return v["table"].clone();
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the game did not end: {v}"
        );
        let legal = v["legal_moves"].as_array().cloned().unwrap_or_default();
        match legal.choose(&mut r) {
            Some(mv) => {
                // a refusal is a race lost to the clock or a bot: look again
                let _ = s.play(id, Some(token), &v["move_number"], mv).await;
            }
            None => tokio::time::sleep(Duration::from_millis(10)).await,
        }
    }
}

/// Issue 25 defect 5: the end panel had no duration when every other seat
/// is a bot — the game started as the table was made, before the table's
/// clock was on, so `started_ms` was null.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_against_bots_knows_when_it_started_and_ended() {
    let s = server(0).await;
    let before = sequence_server::tables::now_ms();
    let (id, host) = against_a_bot(&s).await;
    let (_, info) = s.get(&format!("/api/tables/{id}"), None).await;
    let started = info["started_ms"]
        .as_i64()
        .unwrap_or_else(|| panic!("no start time: {info}"));
    assert!(started >= before, "{started} before {before}");
    let end = play_to_the_end(&s, &id, &host, 1).await;
    let ended = end["ended_ms"]
        .as_i64()
        .unwrap_or_else(|| panic!("no end time: {end}"));
    assert!(ended >= started, "{end}");
    let (_, r) = s.at("GET", &id, "replay", None, None).await;
    assert_eq!(r["started_ms"], json!(started), "the replay's facts");
}

/// Issue 25 defect 4: a person who left a timed table was played by the
/// clock to the end (and could "win") although docs/api.md said the game
/// waits for the seat. Now the game waits one turn's time for someone to
/// take the seat; then a bot takes it for good (the seat is a bot's, its
/// moves are the bot's own, none is played "for" the person gone).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_left_seat_at_a_timed_table_waits_a_turn_then_a_bot_takes_it() {
    let s = server(0).await;
    let (id, ann) = s
        .create(
            json!({"game": "classic", "players": 2, "name": "Ann", "turn_seconds": 2,
                       "options": {"sequence_length": 4, "win_sequences": 1}}),
        )
        .await;
    let (_, bob) = s.join(&id, "Bob").await;
    let (st, info) = s.at("POST", &id, "leave", Some(&bob), None).await;
    assert_eq!(st, 200, "{info}");
    assert_eq!(info["seats"][1]["kind"], "left");
    // Ann moves when it is her turn; Bob's seat waits its turn's time
    let start = Instant::now();
    let mut waited_from = None;
    let info = loop {
        let v = s.view(&id, Some(&ann)).await;
        let info = v["table"].clone();
        if info["seats"][1]["kind"] == "bot" {
            break info;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "no bot took the seat: {info}"
        );
        if v["turn"] == 1 {
            waited_from.get_or_insert_with(Instant::now);
            assert_eq!(info["seats"][1]["kind"], "left", "the seat waits: {info}");
        } else if let Some(mv) = v["legal_moves"].as_array().and_then(|l| l.first()) {
            let _ = s.play(&id, Some(&ann), &v["move_number"], mv).await;
            continue;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let waited = waited_from.expect("the left seat's turn came").elapsed();
    assert!(
        waited >= Duration::from_millis(1500),
        "the seat waited only {waited:?}"
    );
    assert_eq!(info["seats"][1]["name"], "Bot 2", "{info}");
    assert_eq!(info["seats"][1]["timeouts"], 0, "{info}");
    play_to_the_end(&s, &id, &ann, 2).await;
    let (_, log) = s.at("GET", &id, "log", None, None).await;
    let log = log["log"].as_array().cloned().unwrap_or_default();
    assert!(log.iter().any(|e| e["seat"] == 1), "the bot played");
    let played_for: Vec<&Value> = log
        .iter()
        .filter(|e| e["seat"] == 1 && e.get("auto").is_some())
        .collect();
    assert!(
        played_for.is_empty(),
        "moves played for the person who left: {played_for:?}"
    );
}

/// Issue 25, game feel: quick reactions go to every connection of the
/// table (not stored), named ones only, within each seat's allowance (the
/// chat's: 8 at once, then 1 a second); spectators cannot send them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reactions_reach_the_table_within_an_allowance() {
    let s = server(0).await;
    let (id, ann) = s.host("classic", 2).await;
    let (_, bob) = s.join(&id, "Bob").await;
    let mut a = s.ws(&id, Some(&ann)).await;
    let mut b = s.ws(&id, Some(&bob)).await;
    let mut watcher = s.ws(&id, None).await;
    // each connection's view says it is at the table: a reaction sent
    // before a hello was read would not reach it (the test failed so)
    for w in [&mut a, &mut b, &mut watcher] {
        w.expect("view").await;
    }
    a.send(json!({"type": "reaction", "reaction": "star"}))
        .await;
    for w in [&mut b, &mut watcher] {
        let r = w.expect("reaction").await;
        assert_eq!(
            (r["seat"].clone(), r["reaction"].clone()),
            (json!(0), json!("star")),
            "{r}"
        );
    }
    a.send(json!({"type": "reaction", "reaction": "heart"}))
        .await;
    a.expect_error(400, "smile, frown, star, wow, think, gg")
        .await;
    watcher
        .send(json!({"type": "reaction", "reaction": "gg"}))
        .await;
    let e = watcher.expect("error").await;
    assert_eq!(e["status"], 403, "{e}");
    // the allowance: 8 at once (one is spent), then refused
    for _ in 0..9 {
        b.send(json!({"type": "reaction", "reaction": "wow"})).await;
    }
    b.expect_error(429, "too many reactions").await;
}

/// Issue 25, game feel: the table info keeps the running score across
/// rematches (`results`: the winner of each finished game).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_table_keeps_the_score_across_rematches() {
    let s = server(0).await;
    let (id, host) = against_a_bot(&s).await;
    let (_, info) = s.get(&format!("/api/tables/{id}"), None).await;
    assert_eq!(info["results"], json!([]), "{info}");
    let end = play_to_the_end(&s, &id, &host, 3).await;
    let first = end["results"].clone();
    assert_eq!(first.as_array().map(Vec::len), Some(1), "{end}");
    assert!(
        ["blue", "green"].contains(&first[0].as_str().unwrap_or("")),
        "{end}"
    );
    let (st, _) = s.at("POST", &id, "rematch", Some(&host), None).await;
    assert_eq!(st, 200);
    let (_, info) = s.get(&format!("/api/tables/{id}"), None).await;
    assert_eq!(
        info["results"], first,
        "the score stays while game 2 is played"
    );
    let end = play_to_the_end(&s, &id, &host, 4).await;
    let both = end["results"].as_array().cloned().unwrap_or_default();
    assert_eq!(both.len(), 2, "{end}");
    assert_eq!(both[0], first[0]);
}
