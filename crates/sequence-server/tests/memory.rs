//! What a table and a WebSocket hold in memory (issue 26: at most 4 KiB
//! per idle table, 16 KiB per busy socket, as `sequence loadtest`
//! measures them in resident memory): the heap the server keeps per
//! idle table, per connected socket and per socket after moves, counted
//! by a global allocator that leaves out the test's own clients.
//!
//! The clients run on a thread of their own (their allocations are not
//! counted); everything else in the process is the server: its runtime,
//! its tasks, its database thread (SQLite's own page cache is C's
//! `malloc`, not counted here; `sequence loadtest` counts it).
//! `cargo test -p sequence-server --test memory -- --nocapture` prints the
//! figures.

mod common;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicIsize, Ordering};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

/// Counts the bytes allocated and not yet freed by every thread but the
/// clients'.
struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);

thread_local! {
    /// Set on the clients' threads: their allocations are not the server's.
    static CLIENT: Cell<bool> = const { Cell::new(false) };
}

fn counted() -> bool {
    !CLIENT.try_with(Cell::get).unwrap_or(false)
}

// SAFETY: every call is passed on to the system allocator unchanged; the
// counter only observes sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() && counted() {
            LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc_zeroed(layout);
        if !p.is_null() && counted() {
            LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        if counted() {
            LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = System.realloc(ptr, layout, new_size);
        if !p.is_null() && counted() {
            LIVE.fetch_add(
                new_size as isize - layout.size() as isize,
                Ordering::Relaxed,
            );
        }
        p
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// The server's live heap in bytes once it has settled (tasks that were
/// woken have run).
async fn settled() -> isize {
    tokio::time::sleep(Duration::from_millis(300)).await;
    LIVE.load(Ordering::Relaxed)
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// The test's clients: tables made over HTTP, two sockets each.
struct Clients {
    base: String,
    ws: String,
    http: reqwest::Client,
    /// Per table: its id and its seats' tokens.
    tables: Vec<(String, [String; 2])>,
    /// Per table: its seats' sockets.
    sockets: Vec<[Socket; 2]>,
    /// Per table: the view each seat was sent last.
    views: Vec<[Value; 2]>,
}

impl Clients {
    async fn post(&self, path: &str, token: Option<&str>, body: Value) -> Value {
        let mut rb = self.http.post(format!("{}{path}", self.base)).json(&body);
        let body = body.to_string();
        if let Some(t) = token {
            rb = rb.bearer_auth(t);
        }
        let r = rb.send().await.expect("request");
        let status = r.status();
        let v: Value = r.json().await.expect("JSON");
        assert!(status.is_success(), "{path}: {status} {v} (sent {body})");
        v
    }

    /// `n` more two-seat classic tables, both seats taken (a game on).
    async fn tables(&mut self, n: usize) {
        for i in 0..n {
            let body = json!({"game": "classic", "players": 2, "name": format!("t{i}"), "turn_seconds": null});
            let r = self.post("/api/tables", None, body).await;
            let id = r["table"].as_str().expect("id").to_string();
            let host = r["token"].as_str().expect("token").to_string();
            let path = format!("/api/tables/{id}/join");
            let j = self.post(&path, None, json!({"name": "Bob"})).await;
            let guest = j["token"].as_str().expect("token").to_string();
            self.tables.push((id, [host, guest]));
        }
    }

    /// A socket for each seat of every table, each read until its view.
    async fn connect(&mut self) {
        for (id, tokens) in &self.tables {
            let url = format!("{}/api/tables/{id}/ws", self.ws);
            let mut pair = [
                seat_socket(&url, &tokens[0]).await,
                seat_socket(&url, &tokens[1]).await,
            ];
            let views = [
                latest_view(&mut pair[0], 0).await,
                latest_view(&mut pair[1], 0).await,
            ];
            self.sockets.push(pair);
            self.views.push(views);
        }
    }

    /// `moves` moves at every table, over HTTP as `sequence loadtest`
    /// plays them (the first legal move of the seat's pushed view); the
    /// pushes are read by both sockets.
    async fn play(&mut self, moves: usize) {
        for k in 0..self.tables.len() {
            for _ in 0..moves {
                let Some((seat, v)) = self.views[k]
                    .iter()
                    .enumerate()
                    .find(|(_, v)| v["legal_moves"].as_array().is_some_and(|l| !l.is_empty()))
                else {
                    break; // the game is over
                };
                let (id, tokens) = &self.tables[k];
                let n = v["move_number"].as_u64().expect("move_number");
                let body = json!({"move_number": n, "move": v["legal_moves"][0]});
                let path = format!("/api/tables/{id}/moves");
                self.post(&path, Some(&tokens[seat]), body).await;
                for (i, s) in self.sockets[k].iter_mut().enumerate() {
                    self.views[k][i] = latest_view(s, n + 1).await;
                }
            }
        }
    }
}

/// A seat's socket at `url`, its hello said with `token`.
async fn seat_socket(url: &str, token: &str) -> Socket {
    let (mut s, _) = tokio_tungstenite::connect_async(url)
        .await
        .expect("ws connects");
    let hello = json!({"type": "hello", "token": token}).to_string();
    s.send(Message::Text(hello.into())).await.expect("hello");
    s
}

/// The first view a socket is sent of move number `n` or later (older
/// ones still queued are skipped).
async fn latest_view(s: &mut Socket, n: u64) -> Value {
    loop {
        let next = tokio::time::timeout(Duration::from_secs(10), s.next()).await;
        let Ok(Some(Ok(m))) = next else {
            panic!("no view of move {n}");
        };
        if let Message::Text(t) = m {
            let v: Value = serde_json::from_str(&t).expect("JSON");
            if v["type"] == "view" && v["view"]["move_number"].as_u64().unwrap_or(0) >= n {
                return v["view"].clone();
            }
        }
    }
}

/// What the clients are asked to do, and their answer when done.
enum Ask {
    Tables(usize),
    Connect,
    Play(usize),
}

/// Runs the clients on a thread of their own (not counted); returns the
/// channel to ask them and the channel they answer on.
fn clients(
    base: String,
    ws: String,
) -> (
    tokio::sync::mpsc::UnboundedSender<Ask>,
    tokio::sync::mpsc::UnboundedReceiver<()>,
) {
    let (ask, mut asked) = tokio::sync::mpsc::unbounded_channel::<Ask>();
    let (done, answers) = tokio::sync::mpsc::unbounded_channel();
    std::thread::spawn(move || {
        CLIENT.with(|c| c.set(true));
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .on_thread_start(|| CLIENT.with(|c| c.set(true)))
            .build()
            .expect("runtime");
        rt.block_on(async move {
            let mut c = Clients {
                base,
                ws,
                http: reqwest::Client::new(),
                tables: vec![],
                sockets: vec![],
                views: vec![],
            };
            while let Some(a) = asked.recv().await {
                match a {
                    Ask::Tables(n) => c.tables(n).await,
                    Ask::Connect => c.connect().await,
                    Ask::Play(n) => c.play(n).await,
                }
                let _ = done.send(());
            }
        });
    });
    (ask, answers)
}

/// Heap per idle table, per connected socket and per socket after moves:
/// what the cuts of issue 26 brought them to, with some room (a debug
/// build's futures are larger than a release build's). Before the cuts
/// (debug build): 3.4 KiB a table, 13.3 KiB a connected socket, 33 KiB a
/// socket after 10 moves a table, 2 KiB a move (its log entry alone).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_and_a_socket_hold_little_heap() {
    // the clients read a socket only when its table's turn comes: no
    // idle timeout closes the others meanwhile
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("test.db").to_string_lossy().to_string();
    let s = common::server_with(dir, db, |c| {
        c.limits.idle_timeout = Duration::from_secs(3600)
    })
    .await;
    let (ask, mut done) = clients(s.base.clone(), format!("ws://{}", s.running.addr));
    let run = |a: Ask| {
        ask.send(a).expect("clients run");
    };
    // the first tables warm the server's pools and caches up
    let (warm, n, moves) = (20, 100, 10);
    run(Ask::Tables(warm));
    done.recv().await.expect("done");
    let before = settled().await;
    run(Ask::Tables(n));
    done.recv().await.expect("done");
    let tables = settled().await;
    run(Ask::Connect);
    done.recv().await.expect("done");
    let sockets = settled().await;
    run(Ask::Play(moves));
    done.recv().await.expect("done");
    let played = settled().await;
    let all = (n + warm) as f64;
    let per_table = (tables - before) as f64 / n as f64;
    let per_socket = (sockets - tables) as f64 / (2.0 * all);
    let per_busy = (played - tables) as f64 / (2.0 * all);
    let per_move = (played - sockets) as f64 / (all * moves as f64);
    println!(
        "heap per idle table {per_table:.0} B, per connected socket {per_socket:.0} B, \
         per socket after {moves} moves a table {per_busy:.0} B ({per_move:.0} B a move)"
    );
    assert!(per_table < 4096.0, "{per_table:.0} B a table");
    assert!(per_socket < 10240.0, "{per_socket:.0} B a socket");
    assert!(per_busy < 16384.0, "{per_busy:.0} B a busy socket");
    assert!(per_move < 1536.0, "{per_move:.0} B a move");
}
