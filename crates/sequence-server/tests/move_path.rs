//! The move path answers byte for byte as recorded: a scripted classic
//! game played through the HTTP API and the WebSocket — legal moves and
//! every kind of refusal (no or wrong token, a body that is not JSON or has
//! a bad field, a stale or early `move_number`, another seat's move, not
//! this seat's turn, an illegal move, a malformed move, a spectator's move,
//! a finished game) — and every answer and push compared with
//! `tests/fixtures/move-path.golden`, recorded from the server before the
//! move path was rewritten (commit 9c99527's move path).
//!
//! The tables are written straight into the database with a fixed id,
//! tokens and deal seed, and no turn timer, so the game is the same on
//! every run; times in answers (13-digit Unix ms) read `<ms>`.
//! `SEQUENCE_GOLDEN_WRITE=1` records the file again.

use crate::common;

use serde_json::{json, Value};
use std::fmt::Write as _;
use std::path::PathBuf;

/// The playing table and the finished one.
const PLAYING: &str = "00000000000000a1";
const OVER: &str = "00000000000000b2";

/// The seats' tokens (32 hex characters).
const TOKENS: [&str; 4] = [
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa0",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa2",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa3",
];

fn golden_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/move-path.golden")
}

/// `text` with every 13-digit number (a time in Unix ms) as `<ms>`.
fn without_times(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        let run = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        let before_ok = i == 0 || !b[i - 1].is_ascii_alphanumeric();
        if run == 13 && before_ok {
            out.push_str("<ms>");
            i += run;
        } else if run > 0 {
            out.push_str(&text[i..i + run]);
            i += run;
        } else {
            let ch = text[i..].chars().next().expect("a character");
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

/// Writes a table of 4 seats (two teams) straight into the database:
/// seats taken by `TOKENS`, dealt from `seed`, no turn timer, with the
/// moves `moves` (record format) already made.
async fn store_table(db: &sequence_server::db::Db, id: &str, seed: u64, options: Value) {
    let spec = json!({"game": "classic", "players": 4, "teams": 2, "options": options,
        "name": "Ann's table", "named_after": "Ann", "turn_seconds": null,
        "created_ms": 1_700_000_000_000i64});
    let mut events = vec![];
    for (seat, name) in ["Ann", "Bob", "Cy", "Di"].iter().enumerate() {
        let token = hex::encode(sequence_server::auth::hash(TOKENS[seat]));
        events.push(json!({"t": "seat", "seat": seat, "name": name, "token": token}).to_string());
    }
    events.push(json!({"t": "start", "seed": seed}).to_string());
    db.create_table(
        id,
        &spec.to_string(),
        "playing",
        1_700_000_000_000,
        &events,
        None,
    )
    .await
    .expect("store the table");
}

/// The script's log: each request and its answer, each push received.
struct Log {
    s: common::Server,
    out: String,
}

impl Log {
    /// `method path` with `token` and a raw `body`: logs status and body.
    async fn http(
        &mut self,
        what: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&str>,
    ) -> Value {
        let url = format!("{}{path}", self.s.base);
        let method = if body.is_some() {
            reqwest::Method::POST
        } else {
            reqwest::Method::GET
        };
        let auth = token.map(|t| format!("Bearer {t}"));
        let r = common::http::request(&self.s.http, method, url, auth.as_deref(), body)
            .send()
            .await
            .expect("request");
        let status = r.status().as_u16();
        let text = r.text().await.expect("body");
        let _ = writeln!(
            self.out,
            "== {what}\n{} {path} {}\n{status} {}",
            if body.is_some() { "POST" } else { "GET" },
            body.unwrap_or(""),
            without_times(&text)
        );
        serde_json::from_str(&text).unwrap_or(Value::Null)
    }

    /// A move over HTTP by `token`.
    async fn post_move(&mut self, what: &str, token: Option<&str>, body: &str) -> Value {
        let path = format!("/api/tables/{PLAYING}/moves");
        self.http(what, &path, token, Some(body)).await
    }

    /// Reads `ws` (named `who`) up to and with a message of type `ty`,
    /// logging each.
    async fn read_to(&mut self, who: &str, ws: &mut common::Ws, ty: &str) -> Value {
        loop {
            let (raw, v) = ws
                .next()
                .await
                .unwrap_or_else(|| panic!("{who}: closed before a {ty} message"));
            let _ = writeln!(self.out, "<- {who} {}", without_times(&raw));
            if v["type"] == ty {
                return v;
            }
        }
    }

    /// Sends `msg` on `ws` (named `who`), logged.
    async fn send(&mut self, who: &str, ws: &mut common::Ws, msg: &str) {
        let _ = writeln!(self.out, "== ws\n-> {who} {msg}");
        ws.ws
            .send(tokio_tungstenite::tungstenite::Message::Text(
                msg.to_string().into(),
            ))
            .await
            .expect("send");
    }
}

use futures_util::SinkExt;

/// The seat to act in `v` (a seat's view).
fn turn(v: &Value) -> usize {
    v["turn"].as_u64().expect("turn") as usize
}

/// An illegal move for a seat's view `v`: its first legal move's card on
/// a corner (C2: no chip on a corner).
fn illegal(v: &Value) -> Value {
    let mut mv = v["legal_moves"][0].clone();
    mv["at"] = json!("a1");
    mv
}

#[tokio::test]
async fn the_move_path_answers_as_recorded() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("golden.db").to_string_lossy().to_string();
    {
        let db = sequence_server::db::Db::open(&file).await.expect("open");
        store_table(&db, PLAYING, 42, json!({})).await;
        store_table(
            &db,
            OVER,
            7,
            json!({"sequence_length": 4, "win_sequences": 1}),
        )
        .await;
        db.close().await;
        db.unlock();
    }
    let s = common::server_on(dir, file, 0).await;
    let mut log = Log {
        s,
        out: String::new(),
    };
    // the finished table: played to its end over HTTP
    let over_path = format!("/api/tables/{OVER}/moves");
    for _ in 0..=1000 {
        let v = log.s.view(OVER, Some(TOKENS[0])).await;
        if v["table"]["status"] == "over" {
            break;
        }
        let t = TOKENS[turn(&v)];
        let v = log.s.view(OVER, Some(t)).await;
        let mv = v["legal_moves"][0].clone();
        let (st, body) = log.s.play(OVER, Some(t), &v["move_number"], &mv).await;
        assert_eq!(st, 200, "{body}");
    }
    let v = log.s.view(OVER, Some(TOKENS[0])).await;
    assert_eq!(
        v["table"]["status"], "over",
        "the game ends within 1000 moves"
    );
    let body =
        json!({"move_number": v["move_number"], "move": {"seat": 0, "card": "2S", "at": "b1"}});
    log.http(
        "game over",
        &over_path,
        Some(TOKENS[0]),
        Some(&body.to_string()),
    )
    .await;

    // every seat's view and the spectator's
    let path = format!("/api/tables/{PLAYING}/view");
    log.http("spectator view", &path, None, None).await;
    let mut views = vec![];
    for t in TOKENS {
        views.push(log.http("seat view", &path, Some(t), None).await);
    }
    // a first move, so that a stale move_number exists
    let first = turn(&views[0]);
    let body0 = json!({"move_number": 0, "move": views[first]["legal_moves"][0]}).to_string();
    log.post_move("first move", Some(TOKENS[first]), &body0)
        .await;
    let mut views = vec![];
    for t in TOKENS {
        views.push(log.http("seat view", &path, Some(t), None).await);
    }
    let a = turn(&views[0]);
    let b = (a + 1) % 4;
    let (ta, tb) = (TOKENS[a], TOKENS[b]);
    let n = views[a]["move_number"].as_u64().expect("move_number");
    let mv = views[a]["legal_moves"][0].clone();
    let mut bare = mv.clone();
    bare.as_object_mut().expect("a move object").remove("seat");
    let body = |n: Value, mv: &Value| json!({"move_number": n, "move": mv}).to_string();

    // refusals over HTTP
    log.post_move("no token", None, &body(json!(n), &mv)).await;
    log.post_move(
        "unknown token",
        Some("0123456789abcdef0123456789abcdef"),
        &body(json!(n), &mv),
    )
    .await;
    log.post_move("malformed token", Some("nope"), &body(json!(n), &mv))
        .await;
    log.post_move("not JSON", Some(ta), "{\"move_number\": ")
        .await;
    log.post_move("not an object", Some(ta), "[1, 2]").await;
    log.post_move("move_number a string", Some(ta), &body(json!("0"), &mv))
        .await;
    log.post_move("move_number negative", Some(ta), &body(json!(-1), &mv))
        .await;
    log.post_move(
        "move missing",
        Some(ta),
        &json!({"move_number": n}).to_string(),
    )
    .await;
    log.post_move(
        "unknown field",
        Some(ta),
        &json!({"move_number": n, "move": mv, "extra": 1}).to_string(),
    )
    .await;
    log.post_move(
        "stale move_number",
        Some(ta),
        &body(json!(n.saturating_sub(1)), &mv),
    )
    .await;
    log.post_move("early move_number", Some(ta), &body(json!(n + 1), &mv))
        .await;
    let mut other = mv.clone();
    other["seat"] = json!(b);
    log.post_move("another seat's move", Some(ta), &body(json!(n), &other))
        .await;
    let mut odd = mv.clone();
    odd["seat"] = json!("0");
    log.post_move("seat not a number", Some(ta), &body(json!(n), &odd))
        .await;
    log.post_move("not your turn", Some(tb), &body(json!(n), &bare))
        .await;
    log.post_move("not your turn, own seat", Some(tb), &body(json!(n), &other))
        .await;
    log.post_move(
        "illegal: a corner",
        Some(ta),
        &body(json!(n), &illegal(&views[a])),
    )
    .await;
    let mut not_held = bare.clone();
    let held: Vec<&str> = views[a]["hand"]
        .as_array()
        .expect("hand")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let missing = ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S"]
        .into_iter()
        .find(|c| !held.contains(c))
        .expect("a card not held");
    not_held["card"] = json!(missing);
    log.post_move(
        "illegal: a card not held",
        Some(ta),
        &body(json!(n), &not_held),
    )
    .await;
    log.post_move("move a number", Some(ta), &body(json!(n), &json!(5)))
        .await;
    log.post_move("move empty", Some(ta), &body(json!(n), &json!({})))
        .await;
    log.post_move(
        "unknown card",
        Some(ta),
        &body(json!(n), &json!({"card": "ZZ", "at": "e5"})),
    )
    .await;
    log.post_move(
        "unknown space",
        Some(ta),
        &body(json!(n), &json!({"card": mv["card"], "at": "z99"})),
    )
    .await;
    log.http("view after refusals", &path, Some(ta), None).await;
    // the move, seat left out
    log.post_move("legal move", Some(ta), &body(json!(n), &bare))
        .await;
    log.post_move("same move again", Some(ta), &body(json!(n), &bare))
        .await;

    // the WebSocket: a spectator, the seat to act, a seat waiting
    let mut spec_ws = log.s.ws(PLAYING, None).await;
    let _ = writeln!(log.out, "== ws spectator hello");
    log.read_to("spectator", &mut spec_ws, "view").await;
    let v = log.s.view(PLAYING, Some(TOKENS[0])).await;
    let c = turn(&v);
    let d = (c + 1) % 4;
    let mut c_ws = log.s.ws(PLAYING, Some(TOKENS[c])).await;
    let _ = writeln!(log.out, "== ws seat {c} hello");
    log.read_to("c", &mut c_ws, "view").await;
    log.read_to("spectator", &mut spec_ws, "view").await;
    let cv = log.s.view(PLAYING, Some(TOKENS[c])).await;
    let n = cv["move_number"].as_u64().expect("move_number");
    let mv = cv["legal_moves"][0].clone();
    let mut other = mv.clone();
    other["seat"] = json!(d);
    let wsmove =
        |n: Value, mv: &Value| json!({"type": "move", "move_number": n, "move": mv}).to_string();
    for (what, msg) in [
        ("stale", wsmove(json!(n.saturating_sub(1)), &mv)),
        ("early", wsmove(json!(n + 1), &mv)),
        ("another seat's", wsmove(json!(n), &other)),
        ("illegal", wsmove(json!(n), &illegal(&cv))),
        ("malformed", wsmove(json!(n), &json!(5))),
        (
            "unknown card",
            wsmove(json!(n), &json!({"card": "ZZ", "at": "e5"})),
        ),
        (
            "no move",
            json!({"type": "move", "move_number": n}).to_string(),
        ),
        (
            "bad move_number",
            json!({"type": "move", "move_number": "1", "move": mv}).to_string(),
        ),
        ("unknown type", json!({"type": "dance"}).to_string()),
        ("not JSON", "{".to_string()),
    ] {
        let _ = writeln!(log.out, "== ws {what}");
        log.send("c", &mut c_ws, &msg).await;
        log.read_to("c", &mut c_ws, "error").await;
    }
    log.send("spectator", &mut spec_ws, &wsmove(json!(n), &mv))
        .await;
    log.read_to("spectator", &mut spec_ws, "error").await;
    let mut d_ws = log.s.ws(PLAYING, Some(TOKENS[d])).await;
    let _ = writeln!(log.out, "== ws seat {d} hello");
    log.read_to("d", &mut d_ws, "view").await;
    log.read_to("c", &mut c_ws, "view").await;
    log.read_to("spectator", &mut spec_ws, "view").await;
    let dv = log.s.view(PLAYING, Some(TOKENS[d])).await;
    let mut dmv = dv["hand"]
        .as_array()
        .map_or(json!({}), |h| json!({"card": h[0], "at": "e5"}));
    dmv["seat"] = json!(d);
    log.send("d", &mut d_ws, &wsmove(json!(n), &dmv)).await;
    log.read_to("d", &mut d_ws, "error").await;
    // the legal move over the WebSocket: everyone gets a view
    log.send("c", &mut c_ws, &wsmove(json!(n), &mv)).await;
    log.read_to("c", &mut c_ws, "view").await;
    log.read_to("d", &mut d_ws, "view").await;
    log.read_to("spectator", &mut spec_ws, "view").await;
    // then an HTTP move by the next seat: pushed to the sockets
    let v = log.s.view(PLAYING, Some(TOKENS[0])).await;
    let e = turn(&v);
    let ev = log.s.view(PLAYING, Some(TOKENS[e])).await;
    let n = ev["move_number"].as_u64().expect("move_number");
    log.post_move(
        "legal move after ws",
        Some(TOKENS[e]),
        &body(json!(n), &ev["legal_moves"][0]),
    )
    .await;
    log.read_to("c", &mut c_ws, "view").await;
    log.read_to("d", &mut d_ws, "view").await;
    log.read_to("spectator", &mut spec_ws, "view").await;
    // a move over the WebSocket at the finished table
    let mut over_ws = log.s.ws(OVER, Some(TOKENS[0])).await;
    let _ = writeln!(log.out, "== ws game over hello");
    log.read_to("over", &mut over_ws, "view").await;
    let v = log.s.view(OVER, Some(TOKENS[0])).await;
    let msg = wsmove(
        v["move_number"].clone(),
        &json!({"seat": 0, "card": "2S", "at": "b1"}),
    );
    log.send("over", &mut over_ws, &msg).await;
    log.read_to("over", &mut over_ws, "error").await;
    log.s.running.abort();

    let got = log.out;
    if common::golden::writing() {
        std::fs::write(golden_path(), &got).expect("write the golden file");
        return;
    }
    let want = std::fs::read_to_string(golden_path()).expect("the golden file");
    if got != want {
        panic!(
            "the answers differ from the golden file (one answer a line) at {}",
            common::golden::first_difference(got.as_bytes(), want.as_bytes())
        );
    }
}
