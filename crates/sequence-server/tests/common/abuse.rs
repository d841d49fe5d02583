//! Hostile clients, to measure and test how the server holds up against
//! them (docs/deploy.md, "Limits against slow and hostile clients"), and
//! the normal player whose move latency is measured meanwhile:
//!
//! * [`slowloris`]: sockets that send a request's headers a byte at a
//!   time and never finish;
//! * [`never_reading`]: WebSocket spectators of a table that never read
//!   what they are sent;
//! * [`chat_flood`]: seated WebSockets sending chat as fast as they can;
//! * [`idle_websockets`]: WebSockets that say hello and then only answer
//!   pings.
//!
//! The bench command is `cargo run --release -p sequence-server --example
//! abuse_bench`; crates/sequence-server/tests/hostile.rs holds the limits
//! to what docs/deploy.md promises. Both include this file.
#![allow(dead_code)]

// the example abuse_bench.rs includes this file without common/; the
// tests' binary hostile.rs loads http.rs as common::http as well
#[allow(clippy::duplicate_mod)]
#[path = "http.rs"]
mod http;

use anyhow::{anyhow, bail, Context as _};
use futures_util::{SinkExt, StreamExt};
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio::task::JoinHandle;
use tokio_tungstenite::tungstenite::Message;

/// Opens a TCP connection to `server` from the local address `from`
/// (`None`: any), with a receive buffer of `rcvbuf` bytes when given.
///
/// # Errors
/// The connection cannot be made.
pub async fn connect(
    server: SocketAddr,
    from: Option<IpAddr>,
    rcvbuf: Option<u32>,
) -> std::io::Result<TcpStream> {
    let sock = if server.is_ipv4() {
        TcpSocket::new_v4()?
    } else {
        TcpSocket::new_v6()?
    };
    if let Some(ip) = from {
        sock.bind(SocketAddr::new(ip, 0))?;
    }
    if let Some(n) = rcvbuf {
        sock.set_recv_buffer_size(n)?;
    }
    sock.connect(server).await
}

/// A running attack: its tasks, stopped by [`Attack::stop`].
pub struct Attack {
    stop: Arc<AtomicBool>,
    tasks: Vec<JoinHandle<Option<Duration>>>,
    /// Messages or connections the attack made (what it counts).
    pub sent: Arc<AtomicU64>,
    /// How long each connection the server closed was open.
    closed: Arc<std::sync::Mutex<Vec<Duration>>>,
}

/// What an attack saw of the server's closing its connections.
#[derive(Debug, Clone, Default)]
pub struct Closes {
    /// How long each connection the server closed had been open.
    pub closed: Vec<Duration>,
    /// The age of each connection still open when the attack stopped.
    pub open: Vec<Duration>,
}

impl Attack {
    fn new() -> Attack {
        Attack {
            stop: Arc::new(AtomicBool::new(false)),
            tasks: vec![],
            sent: Arc::new(AtomicU64::new(0)),
            closed: Arc::default(),
        }
    }

    /// Stops the attack: which connections the server closed, after how
    /// long, and the age of those still open.
    pub async fn stop(self) -> Closes {
        self.stop.store(true, Ordering::Relaxed);
        let mut open = vec![];
        for t in self.tasks {
            if let Ok(Some(age)) = t.await {
                open.push(age);
            }
        }
        let closed = self.closed.lock().map(|c| c.clone()).unwrap_or_default();
        Closes { closed, open }
    }
}

/// `n` slow sockets from `from`: each sends a request line and a header,
/// then one more byte of a header every `drip`, never ending the headers;
/// a socket the server closes is opened again (what an attacker does), so
/// `n` stay open until the attack stops. The first ones open evenly over
/// `ramp` (as slowloris tools do; `ZERO`: all at once, so that they also
/// time out together). [`Attack::sent`] counts the sockets opened.
pub fn slowloris(
    server: SocketAddr,
    from: Option<IpAddr>,
    n: usize,
    drip: Duration,
    ramp: Duration,
) -> Attack {
    let mut a = Attack::new();
    for i in 0..n {
        let (stop, sent, closed) = (a.stop.clone(), a.sent.clone(), a.closed.clone());
        let start = ramp.mul_f64(i as f64 / n.max(1) as f64);
        a.tasks.push(tokio::spawn(async move {
            tokio::time::sleep(start).await;
            while !stop.load(Ordering::Relaxed) {
                let Ok(mut s) = connect(server, from, None).await else {
                    tokio::time::sleep(drip).await;
                    continue;
                };
                let opened = Instant::now();
                sent.fetch_add(1, Ordering::Relaxed);
                if drip_until_closed(&mut s, drip, &stop).await {
                    if let Ok(mut c) = closed.lock() {
                        c.push(opened.elapsed());
                    }
                } else {
                    return Some(opened.elapsed());
                }
            }
            None
        }));
    }
    a
}

/// Sends a request's start and then a byte every `drip`: `true` when the
/// server closed the socket, `false` when `stop` was set first.
async fn drip_until_closed(s: &mut TcpStream, drip: Duration, stop: &AtomicBool) -> bool {
    let head = b"POST /api/tables HTTP/1.1\r\nHost: x\r\nX-Slow: ";
    if s.write_all(head).await.is_err() {
        return true;
    }
    let mut buf = [0u8; 1024];
    while !stop.load(Ordering::Relaxed) {
        tokio::select! {
            r = s.read(&mut buf) => match r {
                Ok(0) | Err(_) => return true,
                Ok(_) => {}
            },
            _ = tokio::time::sleep(drip) => {
                if s.write_all(b"a").await.is_err() {
                    return true;
                }
            }
        }
    }
    false
}

/// A WebSocket to table `id` from `from` that has said hello (`token`:
/// `None` for a spectator), with a receive buffer of `rcvbuf` bytes.
///
/// # Errors
/// The connection or the upgrade fails.
pub async fn websocket(
    server: SocketAddr,
    from: Option<IpAddr>,
    id: &str,
    token: Option<&str>,
    rcvbuf: Option<u32>,
) -> anyhow::Result<tokio_tungstenite::WebSocketStream<TcpStream>> {
    let tcp = connect(server, from, rcvbuf).await?;
    let url = format!("ws://{server}/api/tables/{id}/ws");
    let (mut ws, _) = tokio_tungstenite::client_async(url, tcp).await?;
    ws.send(Message::Text(
        json!({"type": "hello", "token": token}).to_string().into(),
    ))
    .await?;
    Ok(ws)
}

/// `n` spectators of table `id` from `from` that never read a byte after
/// their hello (a small receive buffer, so that the server's writes to
/// them stall soon); at the end, those the server has not closed count as
/// open.
pub fn never_reading(server: SocketAddr, from: Option<IpAddr>, id: &str, n: usize) -> Attack {
    let mut a = Attack::new();
    for _ in 0..n {
        let (stop, sent, id) = (a.stop.clone(), a.sent.clone(), id.to_string());
        let closed = a.closed.clone();
        a.tasks.push(tokio::spawn(async move {
            let ws = websocket(server, from, &id, None, Some(4096)).await.ok()?;
            let opened = Instant::now();
            sent.fetch_add(1, Ordering::Relaxed);
            // the socket is never read: whether the server closed it
            // shows only at the end, as a failed send
            let mut ws = ws;
            while !stop.load(Ordering::Relaxed) {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            // (a close is seen only now: its time is when the attack stopped)
            if ws.send(Message::Text("{}".into())).await.is_err() {
                if let Ok(mut c) = closed.lock() {
                    c.push(opened.elapsed());
                }
                return None;
            }
            Some(opened.elapsed())
        }));
    }
    a
}

/// `conns` WebSockets of one seat (a table of its own, created from
/// `from`) sending chat lines as fast as they can, reading what comes
/// back; a connection the server closes for flooding opens again.
/// [`Attack::sent`] counts the lines sent.
///
/// # Errors
/// The table cannot be created.
pub async fn chat_flood(
    http: &reqwest::Client,
    server: SocketAddr,
    from: Option<IpAddr>,
    conns: usize,
) -> anyhow::Result<Attack> {
    let base = format!("http://{server}");
    let r: Value = http
        .post(format!("{base}/api/tables"))
        .json(&json!({"game": "classic", "players": 4, "name": "Flood"}))
        .send()
        .await?
        .json()
        .await?;
    let id = r["table"].as_str().context("table id")?.to_string();
    let token = r["token"].as_str().context("token")?.to_string();
    let mut a = Attack::new();
    for _ in 0..conns {
        let (stop, sent) = (a.stop.clone(), a.sent.clone());
        let (id, token) = (id.clone(), token.clone());
        a.tasks.push(tokio::spawn(async move {
            while !stop.load(Ordering::Relaxed) {
                let Ok(ws) = websocket(server, from, &id, Some(&token), None).await else {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                };
                let (mut tx, mut rx) = ws.split();
                let reader =
                    tokio::spawn(async move { while let Some(Ok(_)) = rx.next().await {} });
                let line =
                    Message::Text(json!({"type": "chat", "text": "spam"}).to_string().into());
                while !stop.load(Ordering::Relaxed) && !reader.is_finished() {
                    if tx.send(line.clone()).await.is_err() {
                        break;
                    }
                    sent.fetch_add(1, Ordering::Relaxed);
                    tokio::task::yield_now().await;
                }
                reader.abort();
            }
            None
        }));
    }
    Ok(a)
}

/// `n` WebSocket spectators of table `id`, spread over the local
/// addresses `from` (as many on each), that only read (answering pings).
/// [`Attack::sent`] counts those open.
pub fn idle_websockets(server: SocketAddr, from: &[IpAddr], id: &str, n: usize) -> Attack {
    let mut a = Attack::new();
    for i in 0..n {
        let (stop, sent, id) = (a.stop.clone(), a.sent.clone(), id.to_string());
        let closed = a.closed.clone();
        let ip = (!from.is_empty()).then(|| from[i % from.len()]);
        a.tasks.push(tokio::spawn(async move {
            let mut ws = websocket(server, ip, &id, None, None).await.ok()?;
            let opened = Instant::now();
            sent.fetch_add(1, Ordering::Relaxed);
            while !stop.load(Ordering::Relaxed) {
                match tokio::time::timeout(Duration::from_millis(200), ws.next()).await {
                    Ok(Some(Ok(_))) | Err(_) => {}
                    Ok(_) => {
                        if let Ok(mut c) = closed.lock() {
                            c.push(opened.elapsed());
                        }
                        return None;
                    }
                }
            }
            Some(opened.elapsed())
        }));
    }
    a
}

/// A normal player: both seats of a classic table for two, moving in
/// turn by `POST …/moves` (a new table when a game ends).
pub struct Player {
    http: reqwest::Client,
    from: Option<IpAddr>,
    base: String,
    id: String,
    tokens: [String; 2],
    rng: rand_chacha::ChaCha8Rng,
}

impl Player {
    /// A player at a new table of the server at `base` (`http://…`),
    /// its requests from `from` (`None`: any local address).
    ///
    /// # Errors
    /// The table cannot be made.
    pub async fn new(base: &str, from: Option<IpAddr>, seed: u64) -> anyhow::Result<Player> {
        let mut p = Player {
            http: Player::client(from)?,
            from,
            base: base.to_string(),
            id: String::new(),
            tokens: [String::new(), String::new()],
            rng: rand_chacha::ChaCha8Rng::seed_from_u64(seed),
        };
        p.new_table().await?;
        Ok(p)
    }

    fn client(from: Option<IpAddr>) -> anyhow::Result<reqwest::Client> {
        let mut b = reqwest::Client::builder().pool_max_idle_per_host(4);
        if let Some(ip) = from {
            b = b.local_address(ip);
        }
        Ok(b.build()?)
    }

    /// New connections for the next requests (for a player moved to
    /// another runtime: its pooled connections belong to the old one).
    ///
    /// # Errors
    /// The client cannot be made.
    pub fn reconnect(&mut self) -> anyhow::Result<()> {
        self.http = Player::client(self.from)?;
        Ok(())
    }

    /// The player's table id.
    pub fn table(&self) -> &str {
        &self.id
    }

    async fn new_table(&mut self) -> anyhow::Result<()> {
        let body = json!({"game": "classic", "players": 2, "name": "Ann"});
        let (_, r) = self.call("POST", "/api/tables", None, Some(body)).await?;
        self.id = r["table"].as_str().context("table id")?.to_string();
        self.tokens[0] = r["token"].as_str().context("token")?.to_string();
        let join = format!("/api/tables/{}/join", self.id);
        let (_, r) = self
            .call("POST", &join, None, Some(json!({"name": "Bob"})))
            .await?;
        self.tokens[1] = r["token"].as_str().context("token")?.to_string();
        Ok(())
    }

    async fn call(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> anyhow::Result<(Duration, Value)> {
        let url = format!("{}{path}", self.base);
        let rb = http::call(&self.http, method, url, token, body.as_ref());
        let t0 = Instant::now();
        let r = rb.send().await?;
        let status = r.status();
        let v: Value = r.json().await?;
        let took = t0.elapsed();
        if !status.is_success() {
            bail!("{method} {path}: {status} {v}");
        }
        Ok((took, v))
    }

    /// Plays one move (reading the acting seat's view first) and returns
    /// how long the `POST …/moves` took, from sending to the whole answer.
    ///
    /// # Errors
    /// A request failed or was refused.
    pub async fn play_one(&mut self) -> anyhow::Result<Duration> {
        for _ in 0..3 {
            let path = format!("/api/tables/{}/view", self.id);
            let (_, v) = self.call("GET", &path, Some(&self.tokens[0]), None).await?;
            if v["status"] != "playing" {
                self.new_table().await?;
                continue;
            }
            let seat = v["turn"].as_u64().context("turn")? as usize;
            let token = self.tokens.get(seat).context("a seat of two")?.clone();
            let v = if seat == 0 {
                v
            } else {
                self.call("GET", &path, Some(&token), None).await?.1
            };
            let legal = v["legal_moves"].as_array().context("legal moves")?;
            if legal.is_empty() {
                bail!("seat {seat} to play has no legal move");
            }
            let mv = legal[self.rng.random_range(0..legal.len())].clone();
            let body = json!({"move_number": v["move_number"], "move": mv});
            let moves = format!("/api/tables/{}/moves", self.id);
            let (took, _) = self.call("POST", &moves, Some(&token), Some(body)).await?;
            return Ok(took);
        }
        Err(anyhow!("no game to play"))
    }

    /// Plays `n` moves, `pause` apart, and returns each move's latency.
    ///
    /// # Errors
    /// As [`Player::play_one`].
    pub async fn play(&mut self, n: usize, pause: Duration) -> anyhow::Result<Vec<Duration>> {
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            out.push(self.play_one().await?);
            tokio::time::sleep(pause).await;
        }
        Ok(out)
    }
}

/// The `q` quantile (0–1) of `xs` (nearest rank), zero for none.
pub fn quantile(xs: &[Duration], q: f64) -> Duration {
    if xs.is_empty() {
        return Duration::ZERO;
    }
    let mut v = xs.to_vec();
    v.sort();
    let rank = ((q * v.len() as f64).ceil() as usize).clamp(1, v.len());
    v[rank - 1]
}
