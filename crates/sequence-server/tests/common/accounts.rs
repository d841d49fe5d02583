//! A browser with a session cookie (kept by hand: the cookie, and the
//! CSRF token the server answers) for the account tests.

use super::Server;
use serde_json::{json, Value};

/// The password the account tests sign up with.
pub const PW: &str = "correct horse battery";

/// One browser: its cookie and the session's CSRF token.
pub struct Browser {
    pub base: String,
    pub http: reqwest::Client,
    /// `sequence_session=…`, once a session is set.
    pub cookie: Option<String>,
    /// The session's CSRF token.
    pub csrf: Option<String>,
    /// The last `Set-Cookie` header answered.
    pub set_cookie: Option<String>,
}

impl Browser {
    pub fn new(s: &Server) -> Browser {
        Browser::at(&s.base)
    }

    pub fn at(base: &str) -> Browser {
        Browser {
            base: base.to_string(),
            http: reqwest::Client::new(),
            cookie: None,
            csrf: None,
            set_cookie: None,
        }
    }

    /// `(status, body)` of a request: the cookie goes along, the CSRF
    /// token too when `csrf`; a `Set-Cookie` answered is kept (an empty
    /// value removes the cookie), a `csrf` answered too.
    pub async fn send(
        &mut self,
        method: reqwest::Method,
        path: &str,
        body: Option<&Value>,
        csrf: bool,
    ) -> (u16, Value) {
        let mut rq = self.http.request(method, format!("{}{path}", self.base));
        if let Some(c) = &self.cookie {
            rq = rq.header("cookie", c);
        }
        if let (true, Some(t)) = (csrf, &self.csrf) {
            rq = rq.header("x-csrf-token", t);
        }
        if let Some(b) = body {
            rq = rq.json(b);
        }
        let r = rq.send().await.expect("request");
        let status = r.status().as_u16();
        if let Some(sc) = r.headers().get("set-cookie") {
            let sc = sc.to_str().expect("text").to_string();
            let pair = sc.split(';').next().unwrap_or("").to_string();
            self.cookie = if pair.ends_with('=') {
                None
            } else {
                Some(pair)
            };
            self.set_cookie = Some(sc);
        }
        let text = r.text().await.expect("body");
        let v: Value = serde_json::from_str(&text).unwrap_or(Value::String(text));
        if let Some(t) = v.get("csrf").and_then(Value::as_str) {
            self.csrf = Some(t.to_string());
        }
        (status, v)
    }

    /// A browser at `base` signed up as `name` with [`PW`] (201).
    pub async fn signed_up(base: &str, name: &str) -> Browser {
        let mut b = Browser::at(base);
        let (st, body) = b.sign_up(name, PW).await;
        assert_eq!(st, 201, "sign up as {name}: {body}");
        b
    }

    /// A browser at `base` signed in as `name` with [`PW`] (200).
    pub async fn signed_in(base: &str, name: &str) -> Browser {
        let mut b = Browser::at(base);
        let (st, body) = b.sign_in(name, PW).await;
        assert_eq!(st, 200, "sign in as {name}: {body}");
        b
    }

    pub async fn get(&mut self, path: &str) -> (u16, Value) {
        self.send(reqwest::Method::GET, path, None, false).await
    }

    /// A POST with the CSRF token.
    pub async fn post(&mut self, path: &str, body: &Value) -> (u16, Value) {
        self.send(reqwest::Method::POST, path, Some(body), true)
            .await
    }

    /// A POST without the CSRF token.
    pub async fn post_bare(&mut self, path: &str, body: &Value) -> (u16, Value) {
        self.send(reqwest::Method::POST, path, Some(body), false)
            .await
    }

    pub async fn sign_up(&mut self, name: &str, password: &str) -> (u16, Value) {
        self.post(
            "/api/account/signup",
            &json!({"name": name, "password": password}),
        )
        .await
    }

    pub async fn sign_in(&mut self, name: &str, password: &str) -> (u16, Value) {
        self.post(
            "/api/account/signin",
            &json!({"name": name, "password": password}),
        )
        .await
    }

    /// Creates a table of `game` for `players` as this browser: (id, token).
    pub async fn create(&mut self, body: &Value) -> (String, String) {
        let (st, b) = self.post("/api/tables", body).await;
        assert_eq!(st, 201, "{b}");
        (
            b["table"].as_str().expect("id").to_string(),
            b["token"].as_str().expect("token").to_string(),
        )
    }

    /// Joins table `id` as this browser: its seat token.
    pub async fn join(&mut self, id: &str) -> String {
        let (st, b) = self
            .post(&format!("/api/tables/{id}/join"), &json!({"name": "guest"}))
            .await;
        assert_eq!(st, 200, "{b}");
        b["token"].as_str().expect("token").to_string()
    }
}

/// `(status, body)` of a request to `base` with a seat token.
async fn call(
    http: &reqwest::Client,
    method: reqwest::Method,
    url: String,
    token: Option<&str>,
    body: Option<Value>,
) -> (u16, Value) {
    let mut rq = http.request(method, url);
    if let Some(t) = token {
        rq = rq.header("authorization", format!("Bearer {t}"));
    }
    if let Some(b) = body {
        rq = rq.json(&b);
    }
    let r = rq.send().await.expect("request");
    let st = r.status().as_u16();
    (st, r.json().await.unwrap_or(Value::Null))
}

/// Plays random legal moves at table `id` of the server at `s` (seats'
/// `tokens`, `None` for a seat a bot plays) until it is over.
pub async fn play_out(s: &impl AsBase, id: &str, tokens: &[Option<String>], seed: u64) {
    let base = s.base();
    let http = reqwest::Client::new();
    let view = |t: Option<String>| {
        let http = http.clone();
        let url = format!("{base}/api/tables/{id}/view");
        async move {
            call(&http, reqwest::Method::GET, url, t.as_deref(), None)
                .await
                .1
        }
    };
    let mut rng = sequence_common::rng::game_rng(seed);
    for _ in 0..100_000 {
        if view(None).await["table"]["status"] == "over" {
            return;
        }
        let mut acted = false;
        for t in tokens.iter().flatten() {
            let v = view(Some(t.clone())).await;
            if v["table"]["status"] == "over" {
                return;
            }
            let Some(mv) = super::moves::random_legal(&v, &mut rng) else {
                continue;
            };
            let body = json!({"move_number": v["move_number"], "move": mv});
            let url = format!("{base}/api/tables/{id}/moves");
            let (st, body) = call(&http, reqwest::Method::POST, url, Some(t), Some(body)).await;
            assert!(st == 200 || st == 409, "{st} {body}");
            acted = true;
        }
        if !acted {
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
    }
    panic!("table {id} never ended");
}

/// A server's base URL.
pub trait AsBase {
    fn base(&self) -> String;
}

impl AsBase for Server {
    fn base(&self) -> String {
        self.base.clone()
    }
}

impl AsBase for String {
    fn base(&self) -> String {
        self.clone()
    }
}
