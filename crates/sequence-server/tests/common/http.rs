//! One HTTP request builder for the tests (common/mod.rs's `Server`, the
//! hostile clients of common/abuse.rs, the raw requests of the API tests).
#![allow(dead_code)]

/// A request of `method` to `url`: `auth` is the whole `Authorization`
/// header (`Bearer TOKEN`), `body` JSON text sent as it is with the type
/// `application/json` (so that a test can send malformed JSON too).
pub fn request(
    http: &reqwest::Client,
    method: reqwest::Method,
    url: String,
    auth: Option<&str>,
    body: Option<&str>,
) -> reqwest::RequestBuilder {
    let mut rb = http.request(method, url);
    if let Some(a) = auth {
        rb = rb.header("authorization", a);
    }
    if let Some(b) = body {
        rb = rb
            .header("content-type", "application/json")
            .body(b.to_string());
    }
    rb
}

/// A call of the tests' short form: `method` `"GET"` is a GET, any other
/// a POST; `token` a seat token (bearer), `body` a JSON value.
pub fn call(
    http: &reqwest::Client,
    method: &str,
    url: String,
    token: Option<&str>,
    body: Option<&serde_json::Value>,
) -> reqwest::RequestBuilder {
    let method = if method == "GET" {
        reqwest::Method::GET
    } else {
        reqwest::Method::POST
    };
    let auth = token.map(|t| format!("Bearer {t}"));
    let body = body.map(serde_json::Value::to_string);
    request(http, method, url, auth.as_deref(), body.as_deref())
}
