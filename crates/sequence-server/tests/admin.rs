//! The operators' API (`sequence admin`, docs/deploy.md
//! "Administration"): only with the admin token; tables and sockets
//! listed; a player renamed; a table closed with a reason its players
//! see, which takes nothing more and stays closed after a restart; the
//! leases shown.

mod common;

use serde_json::{json, Value};

const TOKEN: &str = "admin-token-of-issue-26";

/// `(status, body)` of an admin request with `token`.
async fn admin(
    s: &common::Server,
    method: reqwest::Method,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (u16, Value) {
    let mut r = s.http.request(method, format!("{}{path}", s.base));
    if let Some(t) = token {
        r = r.bearer_auth(t);
    }
    if let Some(b) = body {
        r = r.json(&b);
    }
    let r = r.send().await.expect("a request");
    let st = r.status().as_u16();
    (st, r.json().await.unwrap_or(Value::Null))
}

async fn with_token(db: String) -> common::Server {
    let dir = tempfile::tempdir().expect("temp dir");
    common::server_with(dir, db, |c| c.admin_token = Some(TOKEN.into())).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn operators_list_rename_and_close_with_the_admin_token() {
    use reqwest::Method;
    let dbdir = tempfile::tempdir().expect("temp dir");
    let db = dbdir.path().join("a.db").to_string_lossy().to_string();
    let s = with_token(db.clone()).await;
    let (id, host) = s.host("classic", 2).await;
    let (_, guest) = s.join(&id, "Rude Name").await;
    let mut ws = s.ws(&id, Some(&guest)).await;
    ws.expect("view").await;

    // only with the token
    let (st, v) = admin(&s, Method::GET, "/api/admin/tables", None, None).await;
    assert_eq!(st, 401, "{v}");
    let (st, v) = admin(
        &s,
        Method::GET,
        "/api/admin/tables",
        Some("wrong-token-xxxxxxxx"),
        None,
    )
    .await;
    assert_eq!((st, common::error_of(&v)), (401, "wrong admin token"));
    let (st, v) = admin(&s, Method::GET, "/api/admin/tables", Some(&host), None).await;
    assert_eq!(st, 401, "a seat token is no admin token: {v}");

    // tables and sockets
    let (st, v) = admin(&s, Method::GET, "/api/admin/tables", Some(TOKEN), None).await;
    assert_eq!(st, 200, "{v}");
    let t = v["tables"]
        .as_array()
        .and_then(|a| a.iter().find(|t| t["id"] == json!(id)))
        .unwrap_or_else(|| panic!("the table is listed: {v}"));
    assert_eq!(t["status"], "playing");
    assert_eq!(
        t["sockets"],
        json!([{"conn": t["sockets"][0]["conn"], "seat": 1}])
    );
    assert_eq!(t["seats"][1]["name"], "Rude Name");
    assert_eq!(v["websockets"], 1);

    // a name renamed, then removed; a bot's or a free seat's is not
    let path = format!("/api/admin/tables/{id}/seats/1/name");
    let (st, v) = admin(
        &s,
        Method::POST,
        &path,
        Some(TOKEN),
        Some(json!({"name": "Robert"})),
    )
    .await;
    assert_eq!(st, 200, "{v}");
    assert_eq!(v["seats"][1]["name"], "Robert");
    let (st, v) = admin(
        &s,
        Method::POST,
        &path,
        Some(TOKEN),
        Some(json!({"name": null})),
    )
    .await;
    assert_eq!(
        (st, &v["seats"][1]["name"]),
        (200, &json!("Player 2")),
        "{v}"
    );
    let bad = format!("/api/admin/tables/{id}/seats/5/name");
    let (st, v) = admin(
        &s,
        Method::POST,
        &bad,
        Some(TOKEN),
        Some(json!({"name": "X"})),
    )
    .await;
    assert_eq!(st, 404, "{v}");
    let view = s.view(&id, Some(&host)).await;
    assert_eq!(view["table"]["seats"][1]["name"], "Player 2");

    // closed with a reason the players see
    let close = format!("/api/admin/tables/{id}/close");
    let (st, v) = admin(
        &s,
        Method::POST,
        &close,
        Some(TOKEN),
        Some(json!({"reason": "  "})),
    )
    .await;
    assert_eq!(st, 400, "{v}");
    let reason = "closed for abuse of the chat";
    let (st, v) = admin(
        &s,
        Method::POST,
        &close,
        Some(TOKEN),
        Some(json!({"reason": reason})),
    )
    .await;
    assert_eq!(st, 200, "{v}");
    assert_eq!(
        (v["status"].as_str(), v["closed"].as_str()),
        (Some("closed"), Some(reason))
    );
    let msg = ws.expect("closed").await;
    assert_eq!(msg["reason"], reason);
    let view = s.view(&id, Some(&guest)).await;
    assert_eq!(view["table"]["closed"], reason);
    // nothing more happens at it
    let seat = view["turn"].as_u64().unwrap_or(0) as usize;
    let tok = [&host, &guest][seat];
    let (st, v) = s
        .play(
            &id,
            Some(tok),
            view["move_number"].clone(),
            json!({"pass": true}),
        )
        .await;
    assert_eq!(st, 409, "{v}");
    assert!(common::error_of(&v).contains(reason), "{v}");
    let (st, v) = s.at("POST", &id, "rematch", Some(&host), None).await;
    assert_eq!(st, 409, "{v}");
    let (st, _) = s.at("GET", &id, "record", Some(&host), None).await;
    assert_ne!(st, 200, "an unfinished game's record stays hidden");
    let (st, _) = admin(
        &s,
        Method::POST,
        &close,
        Some(TOKEN),
        Some(json!({"reason": "again"})),
    )
    .await;
    assert_eq!(st, 409);

    // leases (SQLite: this instance alone)
    let (st, v) = admin(&s, Method::GET, "/api/admin/leases", Some(TOKEN), None).await;
    assert_eq!(st, 200, "{v}");
    assert_eq!(
        (
            v["database"].as_str(),
            v["instances"].as_array().map(Vec::len)
        ),
        (Some("sqlite"), Some(0))
    );

    // closed for good: a restarted server reads it closed
    s.running.abort();
    drop(ws);
    let s2 = with_token(db).await;
    let view = s2.view(&id, Some(&host)).await;
    assert_eq!(view["table"]["closed"], reason);
    assert_eq!(view["table"]["seats"][1]["name"], "Player 2");
}

#[tokio::test]
async fn without_an_admin_token_the_api_is_off() {
    let s = common::server(0).await;
    let (st, v) = admin(
        &s,
        reqwest::Method::GET,
        "/api/admin/tables",
        Some(TOKEN),
        None,
    )
    .await;
    assert_eq!(st, 404, "{v}");
    assert!(common::error_of(&v).contains("--admin-token"), "{v}");
}

/// At the default level (`warn`, no `RUST_LOG`), the warning of a close
/// carries the request's span (docs/deploy.md "Logs": every line written
/// while a request is served) and the reason as plain text, not
/// `Some("…")`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_close_is_logged_with_its_request_id_at_the_default_level() {
    let buf = common::logs::LogBuf::default();
    let writer = buf.clone();
    let subscriber = tracing_subscriber::fmt()
        .json()
        .with_current_span(true)
        .with_span_list(false)
        .with_env_filter("warn")
        .with_writer(move || writer.clone())
        .finish();
    tracing::subscriber::set_global_default(subscriber).expect("the only subscriber of this file");
    let dbdir = tempfile::tempdir().expect("temp dir");
    let s = with_token(dbdir.path().join("l.db").to_string_lossy().to_string()).await;
    let (id, _) = s.host("classic", 2).await;
    let reason = "closed to test the log";
    let r = s
        .http
        .post(format!("{}/api/admin/tables/{id}/close", s.base))
        .bearer_auth(TOKEN)
        .header("x-request-id", "req-close-1")
        .json(&json!({ "reason": reason }))
        .send()
        .await
        .expect("a request");
    assert_eq!(r.status().as_u16(), 200);
    let text = buf.text();
    let line: Value = text
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|l| l["fields"]["message"] == "table closed by the operators")
        .unwrap_or_else(|| panic!("the close is logged: {text}"));
    assert_eq!(line["span"]["request_id"], "req-close-1", "{line}");
    assert_eq!(line["span"]["table"], json!(id), "{line}");
    assert_eq!(line["fields"]["reason"], reason, "{line}");
}
