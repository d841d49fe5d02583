//! What an operator watches (docs/deploy.md "Metrics and readiness"):
//! `/metrics` parses as the Prometheus text format and its counters move
//! as a scripted game is played; it is served on the private metrics
//! listener only; `/readyz` follows the database (PostgreSQL cut and
//! restored through a TCP proxy of the test's own); every log line of a
//! request carries its request id and table id; the Grafana dashboard of
//! docs/deploy.md loads and names only metrics the server exports.
//!
//! The metrics recorder is global to the process: only
//! [`metrics_count_a_scripted_game`] plays moves in this file, so that its
//! counts of moves are exact.

mod cluster;
mod common;

use prometheus_parse::{Scrape, Value as PromValue};
use rand::SeedableRng;
use serde_json::{json, Value};
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The metrics page of `s` parsed, and its raw text.
async fn scrape(s: &common::Server) -> (Scrape, String) {
    let addr = s.running.metrics_addr.expect("a metrics listener");
    let r = s
        .http
        .get(format!("http://{addr}/metrics"))
        .send()
        .await
        .expect("GET /metrics");
    assert_eq!(r.status(), 200);
    let ct = r.headers()["content-type"]
        .to_str()
        .unwrap_or("")
        .to_string();
    assert!(ct.starts_with("text/plain; version=0.0.4"), "{ct}");
    let text = r.text().await.expect("a page");
    let lines = text.lines().map(|l| Ok(l.to_string()));
    let parsed = Scrape::parse(lines).expect("the Prometheus text format");
    (parsed, text)
}

/// The value of counter or gauge `name` whose labels include `labels`
/// (0 when absent).
fn value(s: &Scrape, name: &str, labels: &[(&str, &str)]) -> f64 {
    s.samples
        .iter()
        .filter(|x| x.metric == name)
        .filter(|x| labels.iter().all(|(k, v)| x.labels.get(k) == Some(*v)))
        .map(|x| match x.value {
            PromValue::Counter(v) | PromValue::Gauge(v) | PromValue::Untyped(v) => v,
            _ => panic!("{name} is not a counter or gauge"),
        })
        .sum()
}

/// The number of observations of histogram `name` (0 when absent).
fn observations(s: &Scrape, name: &str) -> f64 {
    s.samples
        .iter()
        .filter(|x| x.metric == name)
        .map(|x| match &x.value {
            PromValue::Histogram(buckets) => buckets.iter().map(|b| b.count).fold(0.0, f64::max),
            other => panic!("{name} is not a histogram: {other:?}"),
        })
        .sum()
}

/// The metric names of a page (a histogram's `_bucket`, `_sum` and
/// `_count` under its own name).
fn names_on(s: &Scrape) -> HashSet<String> {
    s.samples.iter().map(|x| x.metric.clone()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_count_a_scripted_game() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("m.db").to_string_lossy().to_string();
    let s = common::server_with(dir, db, |c| {
        c.metrics_listen = Some("127.0.0.1:0".into());
    })
    .await;
    // the public listener never serves the metrics
    let (st, _) = s.get("/metrics", None).await;
    assert_eq!(st, 404, "/metrics must not be on the public address");
    let (before, _) = scrape(&s).await;
    let accepted0 = value(&before, "sequence_moves_accepted_total", &[]);
    let stale0 = value(
        &before,
        "sequence_moves_refused_total",
        &[("code", "stale")],
    );
    let taken0 = value(
        &before,
        "sequence_moves_refused_total",
        &[("code", "C6.space_taken")],
    );
    let pushes0 = observations(&before, "sequence_move_push_seconds");
    let batches0 = observations(&before, "sequence_db_append_batch_size");

    let (id, host) = s.host("classic", 2).await;
    let (_, guest) = s.join(&id, "Bob").await;
    let mut ws = s.ws(&id, Some(&host)).await;
    ws.expect("view").await;
    let tokens = [host, guest];
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(26);
    let mut played = 0u32;
    let mut taken_at: Option<Value> = None;
    for _ in 0..12 {
        let v = s.view(&id, Some(&tokens[0])).await;
        let seat = v["turn"].as_u64().expect("a seat to act") as usize;
        let n = v["move_number"].as_u64().expect("a move number");
        let view = s.view(&id, Some(&tokens[seat])).await;
        let mv = common::moves::random_legal(&view, &mut rng).expect("a legal move");
        let (st, body) = s.play(&id, Some(&tokens[seat]), n, &mv).await;
        assert_eq!(st, 200, "{body}");
        played += 1;
        if taken_at.is_none() && mv.get("at").is_some() && mv.get("card").is_some() {
            taken_at = Some(mv.clone());
        }
    }
    // refused: a stale move_number, and a chip on a taken space (C6)
    let v = s.view(&id, Some(&tokens[0])).await;
    let seat = v["turn"].as_u64().expect("a seat") as usize;
    let n = v["move_number"].as_u64().expect("a move number");
    let view = s.view(&id, Some(&tokens[seat])).await;
    let mv = common::moves::random_legal(&view, &mut rng).expect("a legal move");
    let (st, body) = s.play(&id, Some(&tokens[seat]), n - 1, &mv).await;
    assert_eq!(st, 409, "{body}");
    let taken = taken_at.expect("a chip was placed");
    let hand: Vec<String> = view["hand"]
        .as_array()
        .expect("a hand")
        .iter()
        .filter_map(|c| c.as_str().map(String::from))
        .collect();
    let card = hand
        .iter()
        .find(|c| !c.starts_with('J'))
        .expect("a card that is not a jack");
    let on_taken = json!({"card": card, "at": taken["at"]});
    let (st, body) = s.play(&id, Some(&tokens[seat]), n, &on_taken).await;
    assert_eq!(st, 422, "{body}");
    let code = body["code"].as_str().unwrap_or("").to_string();

    let (after, text) = scrape(&s).await;
    assert_eq!(
        value(&after, "sequence_moves_accepted_total", &[]) - accepted0,
        f64::from(played),
        "{text}"
    );
    assert_eq!(
        value(&after, "sequence_moves_refused_total", &[("code", "stale")]) - stale0,
        1.0
    );
    if code == "C6.space_taken" {
        let now = value(
            &after,
            "sequence_moves_refused_total",
            &[("code", "C6.space_taken")],
        );
        assert_eq!(now - taken0, 1.0, "{text}");
    } else {
        assert!(
            value(&after, "sequence_moves_refused_total", &[("code", &code)]) >= 1.0,
            "refusal {code} counted: {text}"
        );
    }
    assert_eq!(
        observations(&after, "sequence_move_push_seconds") - pushes0,
        f64::from(played)
    );
    // every accepted move (and the seats taken, the start) was committed
    assert!(
        observations(&after, "sequence_db_append_batch_size") - batches0 >= f64::from(played),
        "{text}"
    );
    assert_eq!(value(&after, "sequence_websockets", &[]), 1.0, "{text}");
    assert!(value(&after, "sequence_tables_in_memory", &[]) >= 1.0);
    assert!(
        value(
            &after,
            "sequence_http_responses_total",
            &[("status", "200")]
        ) >= 12.0
    );
    assert!(
        value(
            &after,
            "sequence_http_responses_total",
            &[("status", "422")]
        ) >= 1.0
    );
    assert_eq!(value(&after, "sequence_lease_held", &[]), 1.0);
    // every metric of the server is on the page (the lag of notifications
    // between instances only once one arrived: PostgreSQL)
    let names = names_on(&after);
    for name in sequence_server::telemetry::NAMES {
        if name == sequence_server::telemetry::NOTIFY_LAG {
            continue;
        }
        assert!(
            names.contains(name) || names.contains(&format!("{name}_count")),
            "{name} missing from /metrics:\n{text}"
        );
    }
    // readiness on SQLite: the database answers
    let (st, body) = s.get("/readyz", None).await;
    assert_eq!((st, &body), (200, &json!({"ready": true})));
    let (st, _) = s.get("/healthz", None).await;
    assert_eq!(st, 200);
}

/// The metric names a Grafana dashboard's queries use: every
/// `sequence_…` word of its `expr`s, a histogram's suffixes taken off.
fn dashboard_metrics(dashboard: &Value) -> HashSet<String> {
    let mut out = HashSet::new();
    let mut stack = vec![dashboard];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(o) => {
                if let Some(Value::String(e)) = o.get("expr") {
                    for word in e.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
                        if word.starts_with("sequence_") {
                            let base = ["_bucket", "_sum", "_count"]
                                .iter()
                                .find_map(|s| word.strip_suffix(s))
                                .unwrap_or(word);
                            out.insert(base.to_string());
                        }
                    }
                }
                stack.extend(o.values());
            }
            Value::Array(a) => stack.extend(a.iter()),
            _ => {}
        }
    }
    out
}

/// The code block of docs/deploy.md that follows the line `marker`.
fn block_after(doc: &str, marker: &str) -> String {
    let at = doc
        .find(marker)
        .unwrap_or_else(|| panic!("docs/deploy.md has no {marker:?}"));
    let rest = &doc[at..];
    let start = rest.find("```").expect("a code block") + 3;
    let rest = &rest[start..];
    let body_start = rest.find('\n').expect("a fence line") + 1;
    let end = rest[body_start..]
        .find("\n```")
        .expect("a closed code block");
    rest[body_start..body_start + end].to_string()
}

#[test]
fn the_grafana_dashboard_loads_and_names_only_exported_metrics() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/deploy.md"))
        .expect("docs/deploy.md");
    let json_text = block_after(&doc, "<!-- grafana-dashboard -->");
    let dashboard: Value = serde_json::from_str(&json_text).expect("the dashboard is JSON");
    assert!(dashboard["title"].is_string(), "a dashboard has a title");
    let panels = dashboard["panels"].as_array().expect("panels");
    assert!(panels.len() >= 8, "{} panels", panels.len());
    for p in panels {
        assert!(p["title"].is_string() && p["targets"].is_array(), "{p}");
    }
    let used = dashboard_metrics(&dashboard);
    let exported: HashSet<&str> = sequence_server::telemetry::NAMES.into_iter().collect();
    for m in &used {
        assert!(
            exported.contains(m.as_str()),
            "the dashboard names {m}, which the server does not export"
        );
    }
    for must in [
        "sequence_moves_accepted_total",
        "sequence_move_push_seconds",
        "sequence_db_commit_seconds",
        "sequence_lease_held",
    ] {
        assert!(used.contains(must), "the dashboard shows {must}");
    }
    // the scrape configuration is YAML naming the metrics address
    let scrape = block_after(&doc, "<!-- prometheus-scrape -->");
    assert!(
        scrape.contains("scrape_configs:") && scrape.contains("9464"),
        "{scrape}"
    );
}

/// A TCP proxy to `target` that the test can cut (every connection
/// dropped, new ones closed at once) and restore.
struct Proxy {
    port: u16,
    open: Arc<AtomicBool>,
    conns: Arc<Mutex<Vec<tokio::task::JoinHandle<()>>>>,
}

impl Proxy {
    async fn start(target: String) -> Proxy {
        let l = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a proxy port");
        let port = l.local_addr().expect("an address").port();
        let open = Arc::new(AtomicBool::new(true));
        let conns: Arc<Mutex<Vec<tokio::task::JoinHandle<()>>>> = Arc::default();
        let (o, c) = (open.clone(), conns.clone());
        tokio::spawn(async move {
            while let Ok((mut client, _)) = l.accept().await {
                if !o.load(Ordering::SeqCst) {
                    drop(client);
                    continue;
                }
                let target = target.clone();
                let task = tokio::spawn(async move {
                    if let Ok(mut server) = tokio::net::TcpStream::connect(&target).await {
                        let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
                    }
                });
                c.lock().expect("the proxy's list").push(task);
            }
        });
        Proxy { port, open, conns }
    }

    fn cut(&self) {
        self.open.store(false, Ordering::SeqCst);
        for t in self.conns.lock().expect("the proxy's list").drain(..) {
            t.abort();
        }
    }

    fn restore(&self) {
        self.open.store(true, Ordering::SeqCst);
    }
}

/// `url` with its host and port replaced by 127.0.0.1:`port`.
fn through(url: &str, port: u16) -> (String, String) {
    let (scheme, rest) = url.split_once("://").expect("a URL");
    let (auth, path) = rest.split_once('/').unwrap_or((rest, ""));
    let (user, hostport) = auth.rsplit_once('@').map_or(("", auth), |(u, h)| (u, h));
    let target = if hostport.contains(':') {
        hostport.to_string()
    } else {
        format!("{hostport}:5432")
    };
    let at = if user.is_empty() {
        String::new()
    } else {
        format!("{user}@")
    };
    (format!("{scheme}://{at}127.0.0.1:{port}/{path}"), target)
}

/// Polls `/readyz` until its status is `want`: how long that took.
async fn ready_within(s: &common::Server, want: u16, limit: Duration) -> Duration {
    let start = Instant::now();
    loop {
        let (st, body) = s.get("/readyz", None).await;
        if st == want {
            if want == 503 {
                assert!(
                    common::error_of(&body).contains("database"),
                    "the 503 names the database: {body}"
                );
            }
            return start.elapsed();
        }
        assert!(
            start.elapsed() < limit,
            "/readyz still {st} after {limit:?} (want {want}): {body}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readyz_follows_postgres_going_away_and_coming_back() {
    let Some(pg) = cluster::PgDb::fresh("ready").await else {
        return;
    };
    let (url, target) = through(&pg.url, 0);
    let proxy = Proxy::start(target).await;
    let (url, _) = through(&url, proxy.port);
    let ccfg = sequence_server::ClusterConfig {
        db_wait: Duration::from_millis(500),
        ..cluster::quick()
    };
    let s = cluster::instance(&url, ccfg).await;
    ready_within(&s, 200, Duration::from_secs(5)).await;
    for round in 0..2 {
        proxy.cut();
        let down = ready_within(&s, 503, Duration::from_secs(10)).await;
        assert!(
            down < Duration::from_secs(2),
            "round {round}: 503 after {down:?}"
        );
        let (st, _) = s.get("/healthz", None).await;
        assert_eq!(st, 200, "liveness does not follow the database");
        // longer than the lease: the heartbeats fail too
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let (st, _) = s.get("/readyz", None).await;
        assert_eq!(st, 503);
        proxy.restore();
        let up = ready_within(&s, 200, Duration::from_secs(10)).await;
        assert!(
            up < Duration::from_secs(2),
            "round {round}: 200 again after {up:?}"
        );
        eprintln!("round {round}: 503 after {down:?}, 200 after {up:?}");
    }
    s.running.shutdown().await;
    pg.drop_db().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_log_line_of_a_request_names_its_request_id_and_table() {
    let buf = common::logs::LogBuf::default();
    let writer = buf.clone();
    let subscriber = tracing_subscriber::fmt()
        .json()
        .with_current_span(true)
        .with_env_filter("sequence_server=debug,tower_http=debug")
        .with_writer(move || writer.clone())
        .finish();
    // the server's tasks run on the runtime's threads: the global one
    tracing::subscriber::set_global_default(subscriber).expect("the only subscriber of this file");
    let s = common::server(0).await;
    let (id, host) = s.host("classic", 2).await;
    let r = s
        .http
        .get(format!("{}/api/tables/{id}/view", s.base))
        .header("authorization", format!("Bearer {host}"))
        .header("x-request-id", "req-26-a")
        .send()
        .await
        .expect("a request");
    assert_eq!(r.headers()["x-request-id"], "req-26-a", "the id comes back");
    let r = s
        .http
        .get(format!("{}/api/tables/{id}", s.base))
        .send()
        .await
        .expect("a request");
    let made = r.headers()["x-request-id"]
        .to_str()
        .unwrap_or("")
        .to_string();
    assert_eq!(made.len(), 36, "a fresh UUID: {made}");
    let text = buf.text();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("a JSON log line ({e}): {l}")))
        .collect();
    let of = |rid: &str| -> Vec<&Value> {
        lines
            .iter()
            .filter(|l| l["span"]["request_id"] == rid)
            .collect()
    };
    // the view's request: its lines (started, finished) name it and its
    // table (no move is played here: the counts of moves are another
    // test's)
    let mine = of("req-26-a");
    assert!(mine.len() >= 2, "lines of the request: {text}");
    for l in &mine {
        assert_eq!(l["span"]["table"], json!(id), "{l}");
    }
    assert!(
        !of(&made).is_empty(),
        "the server's own id is logged: {text}"
    );
    // every line written inside a request names a request id
    for l in lines.iter().filter(|l| l["span"]["name"] == "request") {
        assert!(
            l["span"]["request_id"]
                .as_str()
                .is_some_and(|r| !r.is_empty()),
            "{l}"
        );
    }
}
