//! The clients: a table created and joined over HTTP, warm-up moves, and
//! one WebSocket client per seat that plays random legal moves after a
//! think time and times each move until the other seat's push.

use crate::progress::Progress;
use futures_util::{SinkExt, StreamExt};
use rand::seq::IndexedRandom;
use rand::Rng;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{Error as WsError, Message};

/// What the clients counted.
#[derive(Default)]
pub(crate) struct Stats {
    pub(crate) latencies_us: Mutex<Vec<u64>>,
    pub(crate) errors: AtomicU64,
    pub(crate) conflicts: AtomicU64,
    /// Answers 429 or 503 (a rate limit or a cap on connections: the
    /// server throttled the run), WebSocket upgrades included.
    pub(crate) throttled: AtomicU64,
    /// Moves accepted while the measuring window was open.
    pub(crate) moves: AtomicU64,
    pub(crate) games: AtomicU64,
    pub(crate) error_kinds: Mutex<HashMap<String, u64>>,
}

impl Stats {
    fn error(&self, what: String) {
        self.errors.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut m) = self.error_kinds.lock() {
            *m.entry(what.chars().take(120).collect()).or_insert(0) += 1;
        }
    }
}

/// A client's WebSocket.
type WsStream =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Whether an HTTP status says the server throttled the client (a rate
/// limit: 429, or a cap on connections: 429 or 503).
fn throttling(status: u16) -> bool {
    status == 429 || status == 503
}

/// How long an answer says to wait (`Retry-After` in seconds; 1 s when
/// it has none, at most 30 s).
fn retry_after(h: &reqwest::header::HeaderMap) -> Duration {
    let secs = h
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok())
        .unwrap_or(1);
    Duration::from_secs(secs.clamp(1, 30))
}

/// When each move was posted, by move number after it.
pub(crate) type Posted = Arc<Mutex<HashMap<u32, Instant>>>;

/// Creates table `i` on `a` and joins it on `b`: its id and the two
/// seats' tokens.
pub(crate) async fn create(
    http: &reqwest::Client,
    a: &str,
    b: &str,
    i: u32,
) -> anyhow::Result<(String, Vec<String>)> {
    let r: Value = http
        .post(format!("{a}/api/tables"))
        .json(&json!({"game": "classic", "players": 2, "name": format!("load {i}a")}))
        .send()
        .await?
        .error_for_status()?
        .json()
        .await?;
    let id = r["table"]
        .as_str()
        .ok_or_else(|| anyhow::anyhow!("no table id in {r}"))?
        .to_string();
    let t0 = r["token"].as_str().unwrap_or_default().to_string();
    let j: Value = http
        .post(format!("{b}/api/tables/{id}/join"))
        .json(&json!({"name": format!("load {i}b")}))
        .send()
        .await?
        .error_for_status()?
        .json()
        .await?;
    let t1 = j["token"].as_str().unwrap_or_default().to_string();
    Ok((id, vec![t0, t1]))
}

/// Plays `moves` random moves at a table over HTTP (fewer if the game
/// ends).
pub(crate) async fn warm_up(
    http: &reqwest::Client,
    url: &str,
    id: &str,
    tokens: &[String],
    moves: u32,
    seed: u64,
) {
    let mut rng = sequence_common::rng::game_rng(seed);
    let mut made = 0;
    let mut tries = 0;
    while made < moves && tries < 4 * moves + 8 {
        tries += 1;
        for t in tokens {
            let Ok(r) = http
                .get(format!("{url}/api/tables/{id}/view"))
                .bearer_auth(t)
                .send()
                .await
            else {
                return;
            };
            let Ok(v) = r.json::<Value>().await else {
                return;
            };
            if v["status"] != "playing" {
                return;
            }
            let Some(mv) = v["legal_moves"]
                .as_array()
                .and_then(|l| l.choose(&mut rng))
                .cloned()
            else {
                continue;
            };
            let ok = http
                .post(format!("{url}/api/tables/{id}/moves"))
                .bearer_auth(t)
                .json(&json!({"move_number": v["move_number"], "move": mv}))
                .send()
                .await
                .is_ok_and(|r| r.status().is_success());
            if ok {
                made += 1;
            }
        }
    }
}

/// What the clients read of a server message: its type and, for a view,
/// the few fields they act on (the rest is skipped, not built).
#[derive(Deserialize)]
struct Msg {
    #[serde(rename = "type")]
    ty: String,
    #[serde(default)]
    view: Option<ViewLite>,
    #[serde(default)]
    error: Option<Value>,
}

#[derive(Deserialize)]
struct ViewLite {
    #[serde(default)]
    move_number: u32,
    #[serde(default)]
    status: Value,
    #[serde(default)]
    legal_moves: Vec<Value>,
    #[serde(default)]
    last_move: Option<LastMove>,
    table: TableLite,
}

#[derive(Deserialize)]
struct LastMove {
    #[serde(default)]
    seat: Option<u64>,
}

#[derive(Deserialize)]
struct TableLite {
    status: String,
    game_no: u64,
}

pub(crate) struct Client {
    pub(crate) http: reqwest::Client,
    pub(crate) url: String,
    pub(crate) ws: String,
    pub(crate) id: String,
    pub(crate) seat: u8,
    pub(crate) token: String,
    pub(crate) posted: Posted,
    pub(crate) stats: Arc<Stats>,
    pub(crate) think_ms: u64,
    pub(crate) seed: u64,
    pub(crate) measuring: Arc<AtomicBool>,
    pub(crate) idle: bool,
}

impl Client {
    /// Connects the seat's WebSocket; a refused upgrade (429 or 503) is
    /// asked again after its `Retry-After` while `deadline` allows. The
    /// error says what the server answered.
    async fn connect(&self, sem: &Semaphore, deadline: Instant) -> Result<WsStream, String> {
        let config = WebSocketConfig::default()
            .read_buffer_size(8 * 1024)
            .write_buffer_size(0);
        loop {
            let permit = sem.acquire().await;
            let attempt =
                tokio_tungstenite::connect_async_with_config(&self.ws, Some(config), true);
            let left = deadline.saturating_duration_since(Instant::now());
            let e = match tokio::time::timeout(left, attempt).await {
                Ok(Ok((ws, _))) => return Ok(ws),
                Ok(Err(e)) => e,
                Err(_) => return Err("connect: no answer before the deadline".into()),
            };
            drop(permit);
            let WsError::Http(resp) = e else {
                return Err(format!("connect: {e}"));
            };
            let status = resp.status();
            let body = resp
                .body()
                .as_deref()
                .map(|b| String::from_utf8_lossy(b).trim().to_string())
                .unwrap_or_default();
            let refused = format!("websocket upgrade refused: {status} {body}");
            if !throttling(status.as_u16()) {
                return Err(refused);
            }
            self.stats.throttled.fetch_add(1, Ordering::Relaxed);
            let wait = retry_after(resp.headers());
            if Instant::now() + wait >= deadline {
                return Err(refused);
            }
            tokio::time::sleep(wait).await;
        }
    }

    /// Connects, says hello and plays until `stop` (or the socket closes).
    /// `connected` counts the clients connected now; `failed` those that
    /// could not connect (reported as errors) by `deadline`.
    pub(crate) async fn run(
        self,
        sem: Arc<Semaphore>,
        progress: Arc<dyn Progress>,
        stop: Arc<tokio::sync::Notify>,
        connected: Arc<AtomicU64>,
        failed: Arc<AtomicU64>,
        deadline: Instant,
    ) {
        let ws = match self.connect(&sem, deadline).await {
            Ok(ws) => ws,
            Err(e) => {
                self.stats.error(e);
                failed.fetch_add(1, Ordering::Relaxed);
                return;
            }
        };
        let (mut sink, mut stream) = ws.split();
        if sink
            .send(Message::Text(
                json!({"type": "hello", "token": self.token})
                    .to_string()
                    .into(),
            ))
            .await
            .is_err()
        {
            self.stats.error("hello failed".into());
            failed.fetch_add(1, Ordering::Relaxed);
            return;
        }
        connected.fetch_add(1, Ordering::Relaxed);
        progress.step();
        let mut rng = sequence_common::rng::game_rng(self.seed);
        let mut acted_on: Option<(u64, u64)> = None;
        let me = Arc::new(self);
        loop {
            let msg = tokio::select! {
                m = stream.next() => m,
                _ = stop.notified() => break,
            };
            let Some(Ok(msg)) = msg else {
                if me.measuring.load(Ordering::Relaxed) {
                    me.stats.error("websocket closed".into());
                }
                break;
            };
            let Message::Text(text) = msg else { continue };
            let Ok(m) = serde_json::from_str::<Msg>(&text) else {
                me.stats.error("unparsable message".into());
                continue;
            };
            match m.ty.as_str() {
                "error" => me
                    .stats
                    .error(format!("ws error {}", m.error.unwrap_or(Value::Null))),
                "view" => {
                    let Some(view) = m.view else { continue };
                    let n = view.move_number;
                    let game_no = view.table.game_no;
                    // the other seat made move n-1 → n
                    let last_seat = view.last_move.as_ref().and_then(|l| l.seat);
                    if last_seat.is_some() && last_seat != Some(me.seat as u64) {
                        let sent = me.posted.lock().ok().and_then(|mut p| p.remove(&n));
                        if let Some(sent) = sent {
                            if me.measuring.load(Ordering::Relaxed) {
                                if let Ok(mut l) = me.stats.latencies_us.lock() {
                                    l.push(sent.elapsed().as_micros() as u64);
                                }
                            }
                        }
                    }
                    if view.status != "playing" {
                        if view.table.status == "over"
                            && me.seat == 0
                            && !me.idle
                            && acted_on != Some((game_no, u64::MAX))
                        {
                            acted_on = Some((game_no, u64::MAX));
                            me.stats.games.fetch_add(1, Ordering::Relaxed);
                            let me2 = me.clone();
                            tokio::spawn(async move { me2.rematch().await });
                        }
                        continue;
                    }
                    if me.idle
                        || view.legal_moves.is_empty()
                        || acted_on == Some((game_no, n as u64))
                    {
                        continue;
                    }
                    acted_on = Some((game_no, n as u64));
                    let Some(mv) = view.legal_moves.choose(&mut rng).cloned() else {
                        continue;
                    };
                    let think = rng.random_range(me.think_ms / 2..=me.think_ms * 3 / 2 + 1);
                    let me2 = me.clone();
                    tokio::spawn(async move { me2.play(n, mv, think).await });
                }
                _ => {}
            }
        }
        connected.fetch_sub(1, Ordering::Relaxed);
    }

    /// Posts move `mv` as move `n` after `think_ms`; a throttled POST
    /// (429/503) is counted and sent again after its `Retry-After` while
    /// the measuring window is open.
    async fn play(self: Arc<Self>, n: u32, mv: Value, think_ms: u64) {
        tokio::time::sleep(Duration::from_millis(think_ms)).await;
        loop {
            if let Ok(mut p) = self.posted.lock() {
                p.insert(n + 1, Instant::now());
            }
            let r = self
                .http
                .post(format!("{}/api/tables/{}/moves", self.url, self.id))
                .bearer_auth(&self.token)
                .json(&json!({"move_number": n, "move": mv}))
                .send()
                .await;
            match r {
                Ok(r) if r.status().is_success() => {
                    // the moves of the window, for the CPU per move
                    if self.measuring.load(Ordering::Relaxed) {
                        self.stats.moves.fetch_add(1, Ordering::Relaxed);
                    }
                    let _ = r.bytes().await;
                }
                Ok(r) if r.status().as_u16() == 409 => {
                    self.stats.conflicts.fetch_add(1, Ordering::Relaxed);
                    let _ = r.bytes().await;
                }
                Ok(r) if throttling(r.status().as_u16()) => {
                    self.stats.throttled.fetch_add(1, Ordering::Relaxed);
                    let wait = retry_after(r.headers());
                    let _ = r.bytes().await;
                    if !self.measuring.load(Ordering::Relaxed) {
                        return;
                    }
                    tokio::time::sleep(wait).await;
                    continue;
                }
                Ok(r) => {
                    let s = r.status();
                    let b = r.text().await.unwrap_or_default();
                    self.stats.error(format!("POST move {s}: {b}"));
                }
                Err(e) => self.stats.error(format!("POST move: {e}")),
            }
            return;
        }
    }

    async fn rematch(self: Arc<Self>) {
        let r = self
            .http
            .post(format!("{}/api/tables/{}/rematch", self.url, self.id))
            .bearer_auth(&self.token)
            .send()
            .await;
        match r {
            Ok(r) if r.status().is_success() => {}
            Ok(r) => {
                if throttling(r.status().as_u16()) {
                    self.stats.throttled.fetch_add(1, Ordering::Relaxed);
                }
                self.stats.error(format!("rematch {}", r.status()))
            }
            Err(e) => self.stats.error(format!("rematch: {e}")),
        }
    }
}
