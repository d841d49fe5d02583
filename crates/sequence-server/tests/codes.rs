//! Refused moves carry the engine's stable code besides the English text
//! (`"code": "C6.corner"`, `"notation.field"`), over HTTP and the
//! WebSocket, so that the browser can translate them; other refusals have
//! none. Bots sharing a level at one table get distinct names.

use crate::common;

use serde_json::{json, Value};

fn code_of(v: &Value) -> &str {
    v["code"]
        .as_str()
        .unwrap_or_else(|| panic!("a code in {v}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refused_moves_carry_the_engine_code_over_http() {
    let (s, id, tok, _) = common::playing("classic").await;
    let post = |mv: Value| {
        let s = &s;
        let id = id.clone();
        let tok = tok.clone();
        async move { s.play(&id, Some(&tok), 0, &mv).await }
    };
    // malformed: the notation's code
    let (st, v) = post(json!({"card": "ZZ", "at": "e5"})).await;
    assert_eq!(st, 400, "{v}");
    assert_eq!(code_of(&v), "notation.field");
    assert!(v["error"].as_str().unwrap_or("").contains("card"), "{v}");
    let (st, v) = post(json!({"at": "e5"})).await;
    assert_eq!((st, code_of(&v)), (400, "notation.missing"), "{v}");
    let (st, v) = post(json!({"card": "7H", "at": "e5", "x": 1})).await;
    assert_eq!((st, code_of(&v)), (400, "notation.unknown_key"), "{v}");
    let (st, v) = post(json!([1])).await;
    assert_eq!((st, code_of(&v)), (400, "notation.not_an_object"), "{v}");
    let (st, v) = post(json!({"seat": "0", "pass": true})).await;
    assert_eq!((st, code_of(&v)), (400, "notation.field"), "{v}");
    // illegal: the rule's code, the rule named in the text too
    let hand = s.view(&id, Some(&tok)).await["hand"].clone();
    let card = hand
        .as_array()
        .expect("a hand")
        .iter()
        .find(|c| !c.as_str().unwrap_or("J").starts_with('J'))
        .cloned();
    if let Some(card) = card {
        let (st, v) = post(json!({"card": card, "at": "a1"})).await;
        assert_eq!(st, 422, "{v}");
        assert!(code_of(&v).starts_with("C6."), "{v}");
        assert!(v["error"].as_str().unwrap_or("").contains("(C6"), "{v}");
    }
    let (st, v) = post(json!({"pass": true})).await;
    assert_eq!(st, 422, "{v}");
    assert_eq!(code_of(&v), "C6a.not_stuck");
    // other refusals have no code
    let (st, v) = s.play(&id, Some(&tok), 3, json!({"pass": true})).await;
    assert_eq!(st, 409, "{v}");
    assert!(v.get("code").is_none(), "{v}");
    let (st, v) = s.get("/api/tables/0000000000000000/view", None).await;
    assert_eq!(st, 404, "{v}");
    assert!(v.get("code").is_none(), "{v}");
    assert_eq!(s.view(&id, Some(&tok)).await["move_number"], 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stacks_refusals_and_websocket_errors_carry_codes() {
    let (s, id, tok, _) = common::playing("stacks").await;
    let (st, v) = s.play(&id, Some(&tok), 0, json!({"pass": true})).await;
    assert_eq!(st, 422, "{v}");
    assert!(code_of(&v).starts_with("S5"), "{v}");
    let (st, v) = s
        .play(&id, Some(&tok), 0, json!({"play": "B9", "to": "blue-a"}))
        .await;
    assert_eq!(st, 400, "{v}");
    assert!(code_of(&v).starts_with("notation."), "{v}");

    let mut ws = s.ws(&id, Some(&tok)).await;
    ws.expect("welcome").await;
    ws.send(json!({"type": "move", "move_number": 0, "move": {"pass": true}}))
        .await;
    let e = ws.expect("error").await;
    assert_eq!(e["status"], 422, "{e}");
    assert!(code_of(&e).starts_with("S5"), "{e}");
    ws.send(json!({"type": "move", "move_number": 0, "move": {"discard": 5}}))
        .await;
    let e = ws.expect("error").await;
    assert_eq!(e["status"], 400, "{e}");
    assert_eq!(code_of(&e), "notation.field", "{e}");
    ws.send(json!({"type": "move", "move_number": 9, "move": {"pass": true}}))
        .await;
    let e = ws.expect("error").await;
    assert_eq!(e["status"], 409, "{e}");
    assert!(e.get("code").is_none(), "{e}");
}

/// Regression: two bots of one level at a table were both named "Bot 2".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_of_one_level_have_distinct_names() {
    let s = common::server(0).await;
    let (id, host) = s
        .create(json!({"game": "classic", "players": 4, "name": "Ann",
                       "bots": [{"seat": 1, "level": "level:2"}, {"seat": 2, "level": "level:2"}]}))
        .await;
    let (_, info) = s.get(&format!("/api/tables/{id}"), None).await;
    let names: Vec<&str> = info["seats"]
        .as_array()
        .expect("seats")
        .iter()
        .filter_map(|x| x["name"].as_str())
        .collect();
    assert_eq!(names, ["Ann", "Bot 2", "Bot 2 (b)"], "{info}");
    // a third bot of the level, given by the host
    let (st, info) = s.seat_bot(&id, 3, &host, "level:2").await;
    assert_eq!(st, 200, "{info}");
    assert_eq!(info["seats"][3]["name"], "Bot 2 (c)", "{info}");
}
