//! Fresh-tester report on the HTTP API: every refusal is `{"error": …}`
//! JSON in words (path and query values, body fields), the bearer scheme
//! is case-insensitive, names lose bidi controls, long ids are not echoed
//! in full, and every answer carries the security headers.

use crate::common;

use serde_json::{json, Value};

/// Status, content type and JSON body of a request with a raw body.
async fn raw(
    s: &common::Server,
    method: reqwest::Method,
    path: &str,
    auth: Option<&str>,
    body: Option<&str>,
) -> (u16, String, Value) {
    let url = format!("{}{path}", s.base);
    let r = common::http::request(&s.http, method, url, auth, body)
        .send()
        .await
        .expect("request");
    let status = r.status().as_u16();
    let ct = r
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let text = r.text().await.expect("body");
    let v = serde_json::from_str(&text).unwrap_or(Value::String(text));
    (status, ct, v)
}

use common::error_of;
/// Asserts that `method path` (with an `Authorization` header `auth` and
/// a JSON `body`) is refused with `status` and a JSON `{"error": …}` whose
/// words contain `part`, in plain words.
async fn refused(
    s: &common::Server,
    (method, path, auth, body): (reqwest::Method, &str, Option<&str>, Option<&str>),
    status: u16,
    part: &str,
) {
    let (st, ct, v) = raw(s, method.clone(), path, auth, body).await;
    let body = body.unwrap_or("");
    assert_eq!(st, status, "{method} {path} {body} → {v}");
    assert!(ct.starts_with("application/json"), "{method} {path} → {ct}");
    let e = error_of(&v);
    assert!(e.contains(part), "{method} {path} {body} → {e}");
    plain(e);
}

/// No Rust vocabulary in a message.
fn plain(msg: &str) {
    for rust in [
        "u8",
        "u32",
        "struct",
        "invalid type",
        "Invalid URL",
        "Failed to deserialize",
        "Cannot parse",
    ] {
        assert!(!msg.contains(rust), "{rust:?} in {msg:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn path_query_and_routing_refusals_are_json_in_words() {
    let s = common::server(0).await;
    let (id, host) = s.host("classic", 4).await;
    let post = reqwest::Method::POST;
    let get = reqwest::Method::GET;
    let bearer = format!("Bearer {host}");
    let body = Some(r#"{"level":"random"}"#);
    let cases: Vec<(reqwest::Method, String, u16, &str)> = vec![
        (
            post.clone(),
            format!("/api/tables/{id}/seats/abc/bot"),
            400,
            "seat must be a number 0–3, got `abc`",
        ),
        (
            post.clone(),
            format!("/api/tables/{id}/seats/999/bot"),
            404,
            "seat 999 does not exist",
        ),
        (
            get.clone(),
            format!("/api/tables/{id}/record?game=abc"),
            400,
            "query parameter `game` must be a whole number ≥ 1, got `abc`",
        ),
        (
            get.clone(),
            format!("/api/tables/{id}/record?game=-1"),
            400,
            "`game` must be a whole number ≥ 1",
        ),
        (
            get.clone(),
            "/api/tables/%FF%FE/view".to_string(),
            400,
            "not valid UTF-8",
        ),
        (
            get.clone(),
            "/api/nothing/here".to_string(),
            404,
            "no such path",
        ),
        (
            reqwest::Method::DELETE,
            format!("/api/tables/{id}/join"),
            405,
            "method",
        ),
        (
            get.clone(),
            format!("/api/tables/{id}/ws"),
            400,
            "WebSocket",
        ),
    ];
    for (method, path, status, part) in cases {
        refused(&s, (method, &path, Some(&bearer), body), status, part).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn body_field_errors_name_the_field_in_words() {
    let s = common::server(0).await;
    let (id, host) = s.host("classic", 2).await;
    let _guest = s.join(&id, "Bob").await;
    let bearer = format!("Bearer {host}");
    let post = reqwest::Method::POST;
    let cases: Vec<(String, Option<&str>, &str, &str)> = vec![
        (
            "/api/tables".into(),
            None,
            r#"{"game":"classic","players":"2","name":"A"}"#,
            "players must be a number from 2 to 12, got the string \"2\"",
        ),
        (
            "/api/tables".into(),
            None,
            r#"{"game":"classic","players":2,"name":"A","turn_seconds":-5}"#,
            "turn_seconds must be a whole number of seconds from 1 to 3600",
        ),
        (
            "/api/tables".into(),
            None,
            r#"{"game":"classic","players":2,"name":"A","bots":[{"seat":"x","level":"random"}]}"#,
            "bots[0].seat must be a seat number",
        ),
        (
            "/api/tables".into(),
            None,
            r#"{"game":"classic","players":2}"#,
            "field `name` is missing",
        ),
        (
            format!("/api/tables/{id}/moves"),
            Some(bearer.as_str()),
            r#"{"move_number":-1,"move":{"pass":true}}"#,
            "move_number must be a whole number from 0 to 4294967295",
        ),
        // past u32 (a reviewer's find: it was told "≥ 0")
        (
            format!("/api/tables/{id}/moves"),
            Some(bearer.as_str()),
            r#"{"move_number":99999999999,"move":{"pass":true}}"#,
            "move_number must be a whole number from 0 to 4294967295 (the view's move_number), got 99999999999",
        ),
        (
            format!("/api/tables/{id}/moves"),
            Some(bearer.as_str()),
            "[]",
            "the body must be a JSON object",
        ),
        (
            format!("/api/tables/{id}/moves"),
            Some(bearer.as_str()),
            "{\"move_number\":",
            "the body is not valid JSON",
        ),
        (
            format!("/api/tables/{id}/join"),
            None,
            r#"{"name":"C","seat":"one"}"#,
            "seat must be a seat number",
        ),
        (
            format!("/api/tables/{id}/join"),
            None,
            r#"{"name":"C","name":"D"}"#,
            "duplicate key `name`",
        ),
    ];
    for (path, auth, body, part) in cases {
        refused(&s, (post.clone(), &path, auth, Some(body)), 400, part).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bearer_scheme_is_case_insensitive() {
    let s = common::server(0).await;
    let (id, host) = s.host("classic", 2).await;
    for scheme in ["Bearer", "bearer", "BEARER"] {
        let auth = format!("{scheme} {host}");
        let (st, _, v) = raw(
            &s,
            reqwest::Method::GET,
            &format!("/api/tables/{id}/view"),
            Some(&auth),
            None,
        )
        .await;
        assert_eq!(st, 200, "{scheme}: {v}");
        assert_eq!(v["seat"], 0, "{scheme}: {v}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_lose_bidi_controls_and_long_ids_are_not_echoed() {
    let s = common::server(0).await;
    let (id, _) = s
        .create(
            json!({"game": "classic", "players": 2, "name": "Ann\u{202E}gpj.exe",
                       "table_name": "\u{2066}Fun\u{2069} table\u{200F}"}),
        )
        .await;
    let (_, info) = s.get(&format!("/api/tables/{id}"), None).await;
    assert_eq!(info["seats"][0]["name"], "Anngpj.exe");
    assert_eq!(info["name"], "Fun table");

    let long = "x".repeat(5000);
    let (st, _, v) = raw(
        &s,
        reqwest::Method::GET,
        &format!("/api/tables/{long}"),
        None,
        None,
    )
    .await;
    assert_eq!(st, 404);
    let e = error_of(&v);
    assert!(e.contains(&format!("{}…", "x".repeat(40))), "{e}");
    assert!(e.chars().count() < 120, "{e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_answer_has_the_security_headers() {
    let s = common::server(0).await;
    for path in ["/", "/js/main.js", "/style.css", "/api/tables", "/nope"] {
        let r = s.raw(reqwest::Method::GET, path).await;
        let h = r.headers();
        let get = |k: &str| h.get(k).and_then(|v| v.to_str().ok()).unwrap_or("");
        let csp = get("content-security-policy");
        assert!(csp.contains("default-src 'self'"), "{path}: {csp:?}");
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp:?}");
        assert!(!csp.contains("unsafe-inline"), "{path}: {csp:?}");
        assert_eq!(get("x-content-type-options"), "nosniff", "{path}");
        assert_eq!(get("x-frame-options"), "DENY", "{path}");
        assert_eq!(get("referrer-policy"), "no-referrer", "{path}");
    }
}
