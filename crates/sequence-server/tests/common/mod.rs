//! Helpers shared by the server's integration tests: a server on
//! 127.0.0.1:0 over a temporary SQLite file, an HTTP client and WebSocket
//! clients.
#![allow(dead_code)]

pub mod accounts;
pub mod golden;
pub mod http;
pub mod logs;
pub mod moves;
pub mod postgres;

use futures_util::{SinkExt, StreamExt};
use sequence_server::{start, Running, ServerConfig};
use serde_json::{json, Value};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

pub struct Server {
    pub running: Running,
    pub dir: tempfile::TempDir,
    pub base: String,
    pub http: reqwest::Client,
}

pub async fn server(rate_limit: u32) -> Server {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("test.db").to_string_lossy().to_string();
    server_on(dir, db, rate_limit).await
}

/// A fresh server with a 2-seat table of `game` that is playing: (the
/// server, table id, token of the seat to act, that seat).
pub async fn playing(game: &str) -> (Server, String, String, u64) {
    let s = server(0).await;
    let (id, host) = s.host(game, 2).await;
    let (_, guest) = s.join(&id, "Bob").await;
    let v = s.view(&id, Some(&host)).await;
    let seat = v["to_act"]
        .as_u64()
        .or_else(|| v["turn"].as_u64())
        .expect("a seat acts");
    (s, id, if seat == 0 { host } else { guest }, seat)
}

pub async fn server_on(dir: tempfile::TempDir, db: String, rate_limit: u32) -> Server {
    server_with(dir, db, |c| c.rate_limit = rate_limit).await
}

/// A server over `db` with the tests' settings (no rate limit, no bot
/// delay, a cheap analysis) changed by `f`.
pub async fn server_with(
    dir: tempfile::TempDir,
    db: String,
    f: impl FnOnce(&mut ServerConfig),
) -> Server {
    let mut cfg = ServerConfig {
        db,
        rate_limit: 0,
        rate_burst: 0,
        bot_delay: Duration::ZERO,
        analysis_iterations: 20,
        ..ServerConfig::default()
    };
    f(&mut cfg);
    cfg.rate_burst = cfg.rate_limit * 2;
    let running = start(cfg, "127.0.0.1:0").await.expect("server starts");
    let base = format!("http://{}", running.addr);
    Server {
        running,
        dir,
        base,
        http: reqwest::Client::new(),
    }
}

/// The words of a JSON refusal `{"error": …}`.
pub fn error_of(v: &Value) -> &str {
    v["error"]
        .as_str()
        .unwrap_or_else(|| panic!("JSON error body: {v}"))
}

impl Server {
    /// `(status, body)` of a request; `token` goes in the Authorization header.
    pub async fn call(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (u16, Value) {
        let url = format!("{}{}", self.base, path);
        let r = http::call(&self.http, method, url, token, body.as_ref())
            .send()
            .await
            .expect("request");
        let status = r.status().as_u16();
        let text = r.text().await.expect("body");
        (
            status,
            serde_json::from_str(&text).unwrap_or(Value::String(text)),
        )
    }

    /// `(status, body)` of `GET path`, with the seat token if any.
    pub async fn get(&self, path: &str, token: Option<&str>) -> (u16, Value) {
        self.call("GET", path, token, None).await
    }

    /// `(status, body)` of `POST path` with a JSON `body` and a seat token.
    pub async fn post(&self, path: &str, token: &str, body: Value) -> (u16, Value) {
        self.call("POST", path, Some(token), Some(body)).await
    }

    /// `(status, body)` of `POST /api/tables/{id}/moves` with `body`
    /// (`{"move_number": …, "move": …}`).
    pub async fn post_move(&self, id: &str, token: Option<&str>, body: Value) -> (u16, Value) {
        self.call(
            "POST",
            &format!("/api/tables/{id}/moves"),
            token,
            Some(body),
        )
        .await
    }

    /// `(status, body)` of `method /api/tables/{id}/{what}` (`what` is
    /// the resource below the table, such as `"rematch"` or
    /// `"record?game=1"`).
    pub async fn at(
        &self,
        method: &str,
        id: &str,
        what: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (u16, Value) {
        let path = format!("/api/tables/{id}/{what}");
        self.call(method, &path, token, body).await
    }

    /// `(status, body)` of `POST /api/tables/{id}/{what}` with a JSON
    /// `body` and a seat token.
    pub async fn post_at(&self, id: &str, what: &str, token: &str, body: Value) -> (u16, Value) {
        self.at("POST", id, what, Some(token), Some(body)).await
    }

    /// `(status, body)` of playing `mv` as move `move_number` at table `id`.
    pub async fn play(
        &self,
        id: &str,
        token: Option<&str>,
        move_number: impl serde::Serialize,
        mv: impl serde::Serialize,
    ) -> (u16, Value) {
        let body = json!({"move_number": move_number, "move": mv});
        self.post_move(id, token, body).await
    }

    /// `(status, body)` of the host (or whoever holds `token`) giving
    /// `seat` of table `id` to a bot of `level`.
    pub async fn seat_bot(&self, id: &str, seat: u8, token: &str, level: &str) -> (u16, Value) {
        let what = format!("seats/{seat}/bot");
        self.post_at(id, &what, token, json!({ "level": level }))
            .await
    }

    /// The raw answer to `method path` sent without a body or token (to
    /// read headers, or for methods [`Server::call`] does not send).
    pub async fn raw(&self, method: reqwest::Method, path: &str) -> reqwest::Response {
        let url = format!("{}{path}", self.base);
        self.http
            .request(method, url)
            .send()
            .await
            .expect("request")
    }

    /// `(status, body)` of `POST /api/tables` with `body` (for refusals;
    /// [`Server::create`] expects success).
    pub async fn try_create(&self, body: Value) -> (u16, Value) {
        self.call("POST", "/api/tables", None, Some(body)).await
    }

    /// Creates a table; returns (id, host token).
    pub async fn create(&self, body: Value) -> (String, String) {
        let (s, r) = self.call("POST", "/api/tables", None, Some(body)).await;
        assert_eq!(s, 201, "{r}");
        (
            r["table"].as_str().expect("id").to_string(),
            r["token"].as_str().expect("token").to_string(),
        )
    }

    /// Creates a table of `game` for `players` hosted by "Ann"; returns
    /// (id, host token).
    pub async fn host(&self, game: &str, players: u8) -> (String, String) {
        self.create(json!({"game": game, "players": players, "name": "Ann"}))
            .await
    }

    pub async fn join(&self, id: &str, name: &str) -> (u8, String) {
        let (s, r) = self
            .call(
                "POST",
                &format!("/api/tables/{id}/join"),
                None,
                Some(json!({"name": name})),
            )
            .await;
        assert_eq!(s, 200, "{r}");
        (
            r["seat"].as_u64().expect("seat") as u8,
            r["token"].as_str().expect("token").to_string(),
        )
    }

    pub async fn view(&self, id: &str, token: Option<&str>) -> Value {
        let (s, v) = self
            .call("GET", &format!("/api/tables/{id}/view"), token, None)
            .await;
        assert_eq!(s, 200, "{v}");
        v
    }

    pub async fn ws(&self, id: &str, token: Option<&str>) -> Ws {
        let url = format!("ws://{}/api/tables/{id}/ws", self.running.addr);
        let (mut ws, _) = tokio_tungstenite::connect_async(url)
            .await
            .expect("ws connects");
        ws.send(Message::Text(
            json!({"type": "hello", "token": token}).to_string().into(),
        ))
        .await
        .expect("hello");
        Ws { ws }
    }
}

pub struct Ws {
    pub ws: tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >,
}

impl Ws {
    /// Next text message as (raw text, JSON), `None` when closed or after 10 s.
    pub async fn next(&mut self) -> Option<(String, Value)> {
        loop {
            let m = tokio::time::timeout(Duration::from_secs(10), self.ws.next())
                .await
                .ok()??
                .ok()?;
            match m {
                Message::Text(t) => {
                    let s = t.to_string();
                    let v = serde_json::from_str(&s).expect("server sends JSON");
                    return Some((s, v));
                }
                Message::Close(_) => return None,
                _ => continue,
            }
        }
    }

    /// Waits for a message of `type`.
    pub async fn expect(&mut self, ty: &str) -> Value {
        loop {
            let (_, v) = self
                .next()
                .await
                .unwrap_or_else(|| panic!("connection closed before a {ty} message"));
            if v["type"] == ty {
                return v;
            }
        }
    }

    /// Waits for an `error` message and checks it: its `status`, and
    /// words its `error` text contains. Returns it.
    pub async fn expect_error(&mut self, status: u16, words: &str) -> Value {
        let e = self.expect("error").await;
        assert_eq!(e["status"], status, "{e}");
        assert!(e["error"].as_str().unwrap_or("").contains(words), "{e}");
        e
    }

    pub async fn send(&mut self, v: Value) {
        self.ws
            .send(Message::Text(v.to_string().into()))
            .await
            .expect("send");
    }
}
