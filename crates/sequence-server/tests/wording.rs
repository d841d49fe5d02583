//! Fresh-tester report on the API's wording: a move's `seat` of the wrong
//! kind, table `options` that are not an object or hold a bad value, a
//! `move_number` ahead of the game, Authorization headers that are not
//! readable or not `Bearer`, bot seats, a doubled `move:` prefix, and bidi
//! controls echoed back in an error.

use crate::common;

use reqwest::header::{HeaderValue, AUTHORIZATION};
use serde_json::{json, Value};

use common::error_of;
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_that_is_not_a_number_is_a_400_over_http_and_websocket() {
    let (s, id, tok, turn) = common::playing("classic").await;
    let mv = json!({"seat": turn.to_string(), "card": "7H", "at": "d6"});
    let (st, v) = s.play(&id, Some(&tok), 0, &mv).await;
    assert_eq!(st, 400, "{v}");
    let e = error_of(&v);
    assert!(e.contains("seat must be a number"), "{e}");
    assert!(e.contains(&format!("the string \"{turn}\"")), "{e}");

    let mut ws = s.ws(&id, Some(&tok)).await;
    ws.expect("welcome").await;
    ws.send(json!({"type": "move", "move_number": 0, "move": mv}))
        .await;
    let e = ws.expect("error").await;
    assert_eq!(e["status"], 400, "{e}");
    assert!(
        e["error"]
            .as_str()
            .unwrap_or_default()
            .contains("seat must be a number"),
        "{e}"
    );
    // another seat's number is still a 409
    let (st, v) = s
        .play(
            &id,
            Some(&tok),
            0,
            json!({"seat": 1 - turn, "card": "7H", "at": "d6"}),
        )
        .await;
    assert_eq!(st, 409, "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_number_ahead_of_the_game_is_not_called_stale() {
    let (s, id, tok, _) = common::playing("classic").await;
    let (st, v) = s.play(&id, Some(&tok), 5, json!({"pass": true})).await;
    assert_eq!(st, 409, "{v}");
    assert_eq!(
        error_of(&v),
        "move_number 5 is ahead of the game (at move_number 0)"
    );
    // play one legal move, then an old number is stale
    let view = s.view(&id, Some(&tok)).await;
    let mv = view["legal_moves"][0].clone();
    let (st, v) = s.play(&id, Some(&tok), 0, &mv).await;
    assert_eq!(st, 200, "{v}");
    let (st, v) = s.play(&id, Some(&tok), 0, &mv).await;
    assert_eq!(st, 409, "{v}");
    assert!(error_of(&v).starts_with("stale move_number 0"), "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn options_must_be_an_object_and_bad_values_are_named_once() {
    let s = common::server(0).await;
    let cases = [
        ("classic", json!([]), "options must be a JSON object"),
        ("stacks", json!([]), "options must be a JSON object"),
        ("classic", json!("x"), "options must be a JSON object"),
        ("classic", json!(3), "options must be a JSON object"),
        (
            "classic",
            json!({"sequence_length": "4"}),
            "options.sequence_length must be",
        ),
        (
            "classic",
            json!({"board": "abc"}),
            "options.board must be a list",
        ),
        (
            "stacks",
            json!({"bogus": 1}),
            "unknown field `bogus` in `options`",
        ),
        (
            "classic",
            json!({"bogus": 1}),
            "unknown field `bogus` in `options`",
        ),
    ];
    for (game, options, part) in cases {
        let (st, v) = s
            .try_create(json!({"game": game, "players": 2, "name": "A", "options": options}))
            .await;
        assert_eq!(st, 400, "{game} {options} → {v}");
        let e = error_of(&v);
        assert!(e.contains(part), "{game} {options} → {e}");
        assert_eq!(e.matches("options").count(), 1, "{e}");
        for rust in [
            "u8",
            "struct",
            "invalid type",
            "a sequence",
            "field `options`",
        ] {
            assert!(!e.contains(rust), "{rust:?} in {e}");
        }
    }
    // an object and null are fine
    for options in [json!({}), Value::Null, json!({"sequence_length": 4})] {
        let (st, v) = s
            .try_create(json!({"game": "classic", "players": 2, "name": "A", "options": options}))
            .await;
        assert_eq!(st, 201, "{options} → {v}");
    }
}

/// Tester's finding: a table created with `win_sequences: "two"` was
/// told the value must be "a whole number from 0 to 255" (its JSON type's
/// range). A value of the wrong kind is answered with the option's own
/// values and rule, from the engine's option list (`GET /api/games`); so
/// is a value of the right kind the engine does not offer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mistyped_option_is_answered_with_its_own_values_and_rule() {
    let s = common::server(0).await;
    let cases = [
        (
            "classic",
            json!({"win_sequences": "two"}),
            "options.win_sequences must be 1, 2, 3 or 4, or null for the official rule (C9), got the string \"two\"",
        ),
        (
            "classic",
            json!({"sequence_length": 4.5}),
            "options.sequence_length must be 5 or 4 (C11), got 4.5",
        ),
        (
            "classic",
            json!({"default_window": true}),
            "options.default_window must be \"first\" or \"last\" (C8a), got true",
        ),
        (
            "stacks",
            json!({"piles_per_colour": -1}),
            "options.piles_per_colour must be 1, 2, 3 or 4 (S3a), got -1",
        ),
        (
            "stacks",
            json!({"steal_chip_can_win": "no"}),
            "options.steal_chip_can_win must be true or false (S5a), got the string \"no\"",
        ),
        // a value of the right kind that is not offered, in the same words
        // (a reviewer's find: "option `sequence_length`: 3 is not 4 or 5",
        // and a third format for Stacks)
        (
            "classic",
            json!({"sequence_length": 3}),
            "options.sequence_length must be 5 or 4 (C11), got 3",
        ),
        (
            "classic",
            json!({"win_sequences": 7}),
            "options.win_sequences must be 1, 2, 3 or 4, or null for the official rule (C9), got 7",
        ),
        (
            "stacks",
            json!({"piles_per_colour": 9}),
            "options.piles_per_colour must be 1, 2, 3 or 4 (S3a), got 9",
        ),
    ];
    for (game, options, want) in cases {
        let (st, v) = s
            .try_create(json!({"game": game, "players": 2, "name": "A", "options": options}))
            .await;
        assert_eq!(st, 400, "{game} {options} → {v}");
        let e = error_of(&v);
        assert_eq!(e, want, "{game} {options}");
    }
    s.running.abort();
}

async fn view_with(s: &common::Server, id: &str, auth: HeaderValue) -> (u16, Value) {
    let r = s
        .http
        .get(format!("{}/api/tables/{id}/view", s.base))
        .header(AUTHORIZATION, auth)
        .send()
        .await
        .expect("request");
    let st = r.status().as_u16();
    (st, r.json().await.expect("JSON"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn authorization_headers_are_refused_in_words() {
    let s = common::server(0).await;
    let (id, _) = s.host("classic", 2).await;
    // (header, words the refusal says, words it must not say)
    let cases = [
        (
            HeaderValue::from_bytes(b"Bearer \xff\xfe").expect("header"),
            "not readable text",
            Some("missing"),
        ),
        (
            HeaderValue::from_static("Basic abc"),
            "use `Authorization: Bearer <seat token>`",
            None,
        ),
        (
            HeaderValue::from_static("Bearer xyz"),
            "32 hex characters",
            None,
        ),
    ];
    for (header, says, not) in cases {
        let (st, v) = view_with(&s, &id, header).await;
        assert_eq!(st, 401, "{v}");
        let e = error_of(&v);
        assert!(e.contains(says), "{e}");
        assert!(not.is_none_or(|w| !e.contains(w)), "{e}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bot_seats_say_which_seats_may_be_bots() {
    let s = common::server(0).await;
    let cases = [
        (
            2,
            0,
            "seat 0 is the host's and cannot be a bot; bots may sit only in seat 1",
        ),
        (
            2,
            5,
            "there is no seat 5 at a 2-seat table; bots may sit only in seat 1",
        ),
        (
            4,
            0,
            "seat 0 is the host's and cannot be a bot; bots may sit in seats 1–3",
        ),
    ];
    for (players, seat, want) in cases {
        let (st, v) = s
            .try_create(json!({"game": "classic", "players": players, "name": "A",
                            "bots": [{"seat": seat, "level": "random"}]}))
            .await;
        assert_eq!(st, 400, "{v}");
        assert_eq!(error_of(&v), format!("bots: {want}"));
    }
    // the same words when the host asks for a bot in seat 0 later
    let (id, host) = s.host("classic", 2).await;
    let (st, v) = s.seat_bot(&id, 0, &host, "random").await;
    assert_eq!(st, 409, "{v}");
    assert!(
        error_of(&v).contains("seat 0 is the host's and cannot be a bot"),
        "{v}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_moves_say_move_once() {
    let (s, id, tok, turn) = common::playing("classic").await;
    let (st, v) = s
        .play(
            &id,
            Some(&tok),
            0,
            json!({"seat": turn, "dead": "7H", "card": "7H"}),
        )
        .await;
    assert_eq!(st, 400, "{v}");
    let e = error_of(&v);
    assert!(e.starts_with("malformed move: "), "{e}");
    assert!(!e.contains("move: move:"), "{e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bidi_controls_in_refused_values_are_escaped() {
    let s = common::server(0).await;
    let (st, v) = s
        .try_create(json!({"game": "cla\u{202e}ssic", "players": 2, "name": "A"}))
        .await;
    assert_eq!(st, 400, "{v}");
    let e = error_of(&v);
    assert!(!e.contains('\u{202e}'), "{e:?}");
    assert!(e.contains("cla\\u{202e}ssic"), "{e}");
    let (st, v) = s
        .try_create(json!({"game": "classic", "players": 2, "name": "A",
                        "bots": [{"seat": 1, "level": "lev\u{7}el\u{2066}"}]}))
        .await;
    assert_eq!(st, 400, "{v}");
    let e = error_of(&v);
    assert!(
        !e.chars().any(|c| c.is_control() || c == '\u{2066}'),
        "{e:?}"
    );
    assert!(e.contains("lev\\u{7}el\\u{2066}"), "{e}");
}

/// Fresh-tester report: a table without a name was titled "NAME's table"
/// in English for every language; the info now names the creator apart.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_without_a_name_says_whom_it_is_named_after() {
    let s = common::server(0).await;
    let (id, _) = s.host("classic", 2).await;
    let (_, info) = s.get(&format!("/api/tables/{id}"), None).await;
    assert_eq!(info["named_after"], "Ann", "{info}");
    assert_eq!(info["name"], "Ann's table", "{info}");
    let (id, _) = s
        .create(json!({"game": "classic", "players": 2, "name": "Ann", "table_name": "Fri"}))
        .await;
    let (_, info) = s.get(&format!("/api/tables/{id}"), None).await;
    assert_eq!(info["named_after"], Value::Null, "{info}");
    assert_eq!(info["name"], "Fri", "{info}");
}
