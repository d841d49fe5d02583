//! Faults of several instances on one PostgreSQL (runs only when
//! `SEQUENCE_TEST_POSTGRES_URL` is set; each test makes a database of its
//! own): notifications that are malformed or name an unknown table are
//! ignored with a log line, and the database going away under load (every
//! connection cut, new ones refused for a while, as in a restart) is
//! answered with 503 — never 500 — while it lasts; the instances recover,
//! push again, and no acknowledged move is lost.

use crate::cluster;
use crate::common;

use cluster::{quick, PgDb};
use common::Server;
use rand::seq::IndexedRandom;
use serde_json::Value;
use sqlx::{Connection, Executor};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// The moves stored for table `id` in the current database, by
/// `(game_no, move_number)`, read from its event log.
async fn stored_moves(url: &str, id: &str) -> BTreeMap<(u64, u64), Value> {
    let db = sequence_server::db::Db::open(url).await.expect("database");
    let events = db.events_since(id, 0).await.expect("events");
    db.close().await;
    common::moves::stored_moves(id, events)
}

/// `GET /api/instance` of `s`.
async fn instance_info(s: &Server) -> Value {
    s.call("GET", "/api/instance", None, None).await.1
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn bad_notifications_are_ignored_with_a_log_line() {
    let Some(db) = PgDb::fresh("notes").await else {
        return;
    };
    let [a, b] = db.instances(quick()).await;
    let (id, host) = a.host("classic", 2).await;
    let (_, guest) = b.join(&id, "Bob").await;
    let mut watch = b.ws(&id, None).await;
    let before = instance_info(&b).await["notifications"].clone();
    let mut c = sqlx::postgres::PgConnection::connect(&db.url)
        .await
        .expect("a connection");
    let events = |id: &str, first: i64, last: i64, data: &str| {
        format!(
            r#"{{"kind":"events","id":"{id}","first":{first},"last":{last},"at_ms":0,"timed_out":0{data}}}"#
        )
    };
    let bad = [
        "".to_string(),
        "garbage".to_string(),
        events("nothex", 1, 2, ""),
        events(&id, 9, 2, ""),
        events(&id, 1, 2, r#","data":["{}"]"#),
        r#"{"kind":"presence","id":"00000000000000ab","instance":"bad/instance","seat":1,"conns":1,"version":1}"#
            .to_string(),
        "x".repeat(7000),
    ];
    for p in &bad {
        sqlx::query("SELECT pg_notify('sequence_changes', $1)")
            .bind(p)
            .execute(&mut c)
            .await
            .expect("notify");
    }
    // well-formed, about a table that is not in memory (or does not exist)
    for p in [
        events("00000000000000ff", 0, 0, ""),
        r#"{"kind":"chat","id":"00000000000000fe","seq":3}"#.to_string(),
    ] {
        c.execute(format!("SELECT pg_notify('sequence_changes', '{p}')").as_str())
            .await
            .expect("notify");
    }
    let deadline = Instant::now() + Duration::from_secs(5);
    let after = loop {
        let n = instance_info(&b).await["notifications"].clone();
        let malformed =
            n["malformed"].as_u64().unwrap_or(0) - before["malformed"].as_u64().unwrap_or(0);
        let not_here =
            n["not_here"].as_u64().unwrap_or(0) - before["not_here"].as_u64().unwrap_or(0);
        if malformed >= bad.len() as u64 && not_here >= 2 {
            break n;
        }
        assert!(
            Instant::now() < deadline,
            "the bad notifications were not all counted: {n}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    eprintln!("notifications after: {after}");
    // the instances go on: a move made on a is pushed by b
    let v = a.view(&id, Some(&host)).await;
    let (tok, v) = if v["legal_moves"].as_array().is_some_and(|l| !l.is_empty()) {
        (host, v)
    } else {
        let g = a.view(&id, Some(&guest)).await;
        (guest, g)
    };
    let mv = v["legal_moves"][0].clone();
    let (st, body) = a.play(&id, Some(&tok), 0, &mv).await;
    assert_eq!(st, 200, "{body}");
    loop {
        let m = watch.expect("view").await;
        if m["view"]["move_number"] == 1 {
            break;
        }
    }
    for s in [&a, &b] {
        s.running.abort();
    }
    c.close().await.ok();
    db.drop_db().await;
}

/// Cuts every connection to the database `name` and refuses new ones
/// (`on`), or lets them in again.
async fn outage(base: &str, name: &str, on: bool) {
    let mut c = sqlx::postgres::PgConnection::connect(base)
        .await
        .expect("a connection to the server");
    let allow = if on { "false" } else { "true" };
    c.execute(format!("ALTER DATABASE \"{name}\" ALLOW_CONNECTIONS {allow}").as_str())
        .await
        .expect("alter database");
    if on {
        sqlx::query(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
             WHERE datname = $1 AND pid <> pg_backend_pid()",
        )
        .bind(name)
        .execute(&mut c)
        .await
        .expect("terminate");
    }
    c.close().await.ok();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_database_outage_is_503_then_recovers_without_losing_moves() {
    let Some(db) = PgDb::fresh("outage").await else {
        return;
    };
    let mut cfg = quick();
    cfg.db_wait = Duration::from_millis(500);
    let servers: [Server; 2] = db.instances(cfg).await;
    // four tables, seats taken on both instances
    let mut tables = vec![];
    for i in 0..4 {
        let (id, host) = servers[i % 2].host("classic", 2).await;
        let (_, guest) = servers[(i + 1) % 2].join(&id, "Bob").await;
        tables.push((id, [host, guest]));
    }
    let mut rng = sequence_common::rng::game_rng(9);
    let mut acked: Vec<BTreeMap<u64, Value>> = vec![BTreeMap::new(); tables.len()];
    let mut statuses: BTreeMap<u16, usize> = BTreeMap::new();
    let start = Instant::now();
    let (down_at, up_at) = (Duration::from_millis(800), Duration::from_millis(2800));
    let (mut down, mut up) = (false, false);
    let mut ok_after_up = 0;
    let mut k = 0usize;
    while ok_after_up < 20 {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the instances did not recover: {statuses:?}"
        );
        if !down && start.elapsed() >= down_at {
            outage(&db.base_url(), &db.name(), true).await;
            down = true;
        }
        if down && !up && start.elapsed() >= up_at {
            outage(&db.base_url(), &db.name(), false).await;
            up = true;
        }
        k += 1;
        let t = k % tables.len();
        let (id, tokens) = &tables[t];
        let s = &servers[k % 2];
        // the seat to act, by its view (any answer but 500 is fine here)
        let mut acting = None;
        for (seat, tok) in tokens.iter().enumerate() {
            let (st, v) = s.at("GET", id, "view", Some(tok), None).await;
            *statuses.entry(st).or_default() += 1;
            assert_ne!(st, 500, "a view during the outage: {v}");
            if st == 503 {
                assert!(v["error"].is_string(), "{v}");
            }
            if st == 200 && v["legal_moves"].as_array().is_some_and(|l| !l.is_empty()) {
                acting = Some((seat, v));
                break;
            }
        }
        let Some((seat, v)) = acting else {
            tokio::time::sleep(Duration::from_millis(20)).await;
            continue;
        };
        if v["table"]["status"] != "playing" {
            continue;
        }
        let n = v["move_number"].as_u64().expect("move_number");
        let mv = v["legal_moves"]
            .as_array()
            .and_then(|l| l.choose(&mut rng))
            .cloned()
            .expect("a legal move");
        let (st, body) = servers[(k + 1) % 2]
            .play(id, Some(&tokens[seat]), n, &mv)
            .await;
        *statuses.entry(st).or_default() += 1;
        match st {
            200 => {
                acked[t].insert(n, mv);
                if up {
                    ok_after_up += 1;
                }
            }
            409 | 503 => {}
            _ => panic!("a move during the outage: {st} {body}"),
        }
    }
    eprintln!("answers: {statuses:?}");
    assert!(
        statuses.get(&503).copied().unwrap_or(0) > 0,
        "the outage was seen: {statuses:?}"
    );
    // every acknowledged move is stored at its place
    for (t, (id, _)) in tables.iter().enumerate() {
        let stored = stored_moves(&db.url, id).await;
        for (n, mv) in &acked[t] {
            assert_eq!(stored.get(&(1, *n)), Some(mv), "table {id} move {n}");
        }
    }
    // instance 1's listener reconnects by itself: its retries back off to
    // at most 2 s, so it may come back after the 20 moves above (a full
    // run failed when this was asserted at once)
    let waited = Instant::now();
    loop {
        let info = instance_info(&servers[1]).await;
        if info["notifications"]["listener_connects"].as_u64() >= Some(2)
            && info["listening"] == true
        {
            break;
        }
        assert!(
            waited.elapsed() < Duration::from_secs(10),
            "the listener reconnected: {info}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // pushes flow again: a move made on instance 0 reaches a WebSocket on
    // instance 1 (its listener is back)
    let (id, tokens) = &tables[0];
    let mut watch = servers[1].ws(id, None).await;
    let first = watch.expect("view").await;
    if first["view"]["table"]["status"] == "playing" {
        let n = first["view"]["move_number"].as_u64().expect("move_number");
        let mut made = false;
        for tok in tokens {
            let v = servers[0].view(id, Some(tok)).await;
            if let Some(mv) = v["legal_moves"].as_array().and_then(|l| l.first()) {
                let (st, body) = servers[0].play(id, Some(tok), n, &mv).await;
                assert_eq!(st, 200, "{body}");
                made = true;
                break;
            }
        }
        assert!(made, "a seat was to act");
        loop {
            let m = watch.expect("view").await;
            if m["view"]["move_number"].as_u64() == Some(n + 1) {
                break;
            }
        }
    }
    for s in &servers {
        s.running.abort();
    }
    db.drop_db().await;
}
