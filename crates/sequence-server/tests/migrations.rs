//! Versioned migrations keep every stored table: a database written before
//! migrations existed (by commit 9c99527, the last start-up that probed
//! columns) is opened by today's server and nothing is lost — every row of
//! every table, every event, chat line, seat and view — and its games load,
//! replay and go on.
//!
//! The fixture `tests/fixtures/before-migrations/` holds that database
//! (`tables.db`, SQLite), the seat tokens of its tables (`tokens.json`),
//! each seat's view as that server answered it (`views.json`), and the
//! PostgreSQL schema the same server created (`postgres.sql`). The
//! PostgreSQL test (when `SEQUENCE_TEST_POSTGRES_URL` is set) builds that
//! schema, copies the SQLite fixture's rows into it and checks the same.
//! `write_fixture` (ignored) wrote the fixture.
//!
//! The fixture `tests/fixtures/main-v1/` is a database written the same
//! way by the server at schema version 1 (before the accounts of
//! migration 2): it upgrades to version 2 with every row kept, and the
//! accounts' tables then work (a user signs up, a seat is claimed).

use crate::common;

use serde_json::{json, Value};
use sqlx::{AnyConnection, Connection, Executor, Row};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The fixture's folder.
fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/before-migrations")
}

/// The stored tables and their columns, as the server before migrations
/// created them (`ORDER BY` the primary key).
const TABLES: &[(&str, &str, &str)] = &[
    (
        "game_tables",
        "id, spec, status, created_ms, next_seq, owner, clock_ms, timed_out, chat_seq",
        "id",
    ),
    ("events", "table_id, seq, data", "table_id, seq"),
    ("chat", "table_id, seq, line", "table_id, seq"),
    ("instances", "id, pid, host, started_ms, heartbeat_ms", "id"),
    (
        "presence",
        "table_id, instance, seat, conns",
        "table_id, instance, seat",
    ),
];

/// Every row of every stored table, each value as JSON (text, number or
/// null), by table name.
async fn all_rows(conn: &mut AnyConnection) -> BTreeMap<String, Vec<Vec<Value>>> {
    let mut out = BTreeMap::new();
    for (table, cols, key) in TABLES {
        let rows = sqlx::query(&format!("SELECT {cols} FROM {table} ORDER BY {key}"))
            .fetch_all(&mut *conn)
            .await
            .unwrap_or_else(|e| panic!("read {table}: {e}"));
        let n = cols.split(',').count();
        let read: Vec<Vec<Value>> = rows
            .iter()
            .map(|r| {
                (0..n)
                    .map(|i| {
                        if let Ok(Some(v)) = r.try_get::<Option<i64>, _>(i) {
                            json!(v)
                        } else if let Ok(Some(s)) = r.try_get::<Option<String>, _>(i) {
                            json!(s)
                        } else {
                            Value::Null
                        }
                    })
                    .collect()
            })
            .collect();
        out.insert(table.to_string(), read);
    }
    out
}

/// Each seat's view (and the spectator's, under `"-"`) of every table of
/// `tokens` (`{table: [token, …]}`).
async fn views(s: &common::Server, tokens: &Value) -> BTreeMap<String, Value> {
    let mut out = BTreeMap::new();
    for (id, ts) in tokens.as_object().expect("tokens by table") {
        let mut seats = BTreeMap::new();
        seats.insert("-".to_string(), s.view(id, None).await);
        for t in ts.as_array().expect("tokens") {
            let t = t.as_str().expect("token");
            seats.insert(t.to_string(), s.view(id, Some(t)).await);
        }
        out.insert(id.clone(), json!(seats));
    }
    out
}

/// Plays random legal moves at table `id` until it is over.
async fn play_out(s: &common::Server, id: &str, tokens: &[String], seed: u64) {
    let mut rng = sequence_common::rng::game_rng(seed);
    loop {
        let mut acted = false;
        for t in tokens {
            let v = s.view(id, Some(t)).await;
            if v["table"]["status"] == "over" {
                return;
            }
            let Some(mv) = common::moves::random_legal(&v, &mut rng) else {
                continue;
            };
            let (st, body) = s.play(id, Some(t), &v["move_number"], &mv).await;
            assert_eq!(st, 200, "{body}");
            acted = true;
        }
        assert!(acted, "nobody could move");
    }
}

/// Writes the fixture with the server of this checkout (run once, by the
/// server before migrations): a classic game finished, a classic game
/// playing with chat, a Stacks table waiting with a bot seat.
#[tokio::test]
#[ignore = "writes the fixture; run by hand only"]
async fn write_fixture() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("tables.db");
    let s = common::server_on(dir, file.to_string_lossy().to_string(), 0).await;
    let mut tokens = serde_json::Map::new();
    // a finished classic game (sequence of 4, one wins)
    let (over, host) = s
        .create(json!({"game": "classic", "players": 2, "name": "Ann",
            "options": {"sequence_length": 4, "win_sequences": 1}}))
        .await;
    let (_, guest) = s.join(&over, "Bob").await;
    let ts = vec![host, guest];
    play_out(&s, &over, &ts, 11).await;
    tokens.insert(over.clone(), json!(ts));
    // a classic game of 4 in two teams playing, some moves made, chat
    let (playing, host) = s.host("classic", 4).await;
    let mut ts = vec![host];
    for name in ["Bob", "Cy", "Di"] {
        ts.push(s.join(&playing, name).await.1);
    }
    let mut rng = sequence_common::rng::game_rng(5);
    let mut made = 0;
    while made < 6 {
        for t in &ts {
            let v = s.view(&playing, Some(t)).await;
            if let Some(mv) = common::moves::random_legal(&v, &mut rng) {
                let (st, body) = s.play(&playing, Some(t), &v["move_number"], &mv).await;
                assert_eq!(st, 200, "{body}");
                made += 1;
            }
        }
    }
    for (i, text) in ["good luck", "<b>well</b> played & more"]
        .iter()
        .enumerate()
    {
        let mut ws = s.ws(&playing, Some(&ts[i])).await;
        ws.expect("view").await;
        ws.send(json!({"type": "chat", "text": text})).await;
        ws.expect("chat").await;
    }
    tokens.insert(playing.clone(), json!(ts));
    // a Stacks table of 3 waiting: the host, a bot, an empty seat
    let (waiting, host) = s.host("stacks", 3).await;
    let (st, body) = s.seat_bot(&waiting, 1, &host, "level:2").await;
    assert_eq!(st, 200, "{body}");
    tokens.insert(waiting.clone(), json!([host]));
    let tokens = Value::Object(tokens);
    let seen = views(&s, &tokens).await;
    s.running.abort();
    s.running.app.db.close().await;
    // SEQUENCE_FIXTURE_DIR: another fixture folder beside this one
    let out = match std::env::var("SEQUENCE_FIXTURE_DIR") {
        Ok(name) => fixture_dir().with_file_name(name),
        Err(_) => fixture_dir(),
    };
    std::fs::create_dir_all(&out).expect("fixture dir");
    std::fs::copy(&file, out.join("tables.db")).expect("copy the database");
    let pretty = |v: &Value| serde_json::to_string_pretty(v).expect("json") + "\n";
    std::fs::write(out.join("tokens.json"), pretty(&tokens)).expect("tokens");
    std::fs::write(out.join("views.json"), pretty(&json!(seen))).expect("views");
}

/// The folder of fixture `name` (`before-migrations`, `main-v1`).
fn fixture_at(name: &str) -> PathBuf {
    fixture_dir().with_file_name(name)
}

/// A JSON file of the fixture folder `dir`.
fn fixture_json_in(dir: &Path, name: &str) -> Value {
    let text = std::fs::read_to_string(dir.join(name)).expect("fixture file");
    serde_json::from_str(&text).expect("fixture JSON")
}

/// The fixture database copied to a temporary folder: (folder, file).
fn fixture_copy() -> (tempfile::TempDir, String) {
    fixture_copy_of(&fixture_dir())
}

/// The database of fixture folder `from` copied to a temporary folder.
fn fixture_copy_of(from: &Path) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("tables.db");
    std::fs::copy(from.join("tables.db"), &file).expect("copy the fixture");
    let file = file.to_string_lossy().to_string();
    (dir, file)
}

/// A raw connection to `url` (an SQLite file or PostgreSQL).
async fn connect(url: &str) -> AnyConnection {
    sqlx::any::install_default_drivers();
    let url = if url.starts_with("postgres") {
        url.to_string()
    } else {
        format!("sqlite://{url}")
    };
    AnyConnection::connect(&url).await.expect("connect")
}

/// The versions of every migration the server has (`migrations/`, one
/// set for both databases).
fn every_version() -> Vec<i64> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations");
    let mut v: Vec<i64> = std::fs::read_dir(&dir)
        .expect("migrations")
        .filter_map(|e| {
            let name = e.ok()?.file_name().to_string_lossy().to_string();
            name.split('_').next()?.parse().ok()
        })
        .collect();
    v.sort_unstable();
    assert!(v.len() >= 3, "{v:?}");
    v
}

/// The migrations the database has applied (`_sqlx_migrations`), by version.
async fn applied(conn: &mut AnyConnection) -> Vec<i64> {
    sqlx::query("SELECT version FROM _sqlx_migrations WHERE success ORDER BY version")
        .fetch_all(&mut *conn)
        .await
        .expect("migrations table")
        .iter()
        .map(|r| r.try_get::<i64, _>(0).expect("version"))
        .collect()
}

/// `v` without its times: `now_ms` (the time of the answer), and the
/// times the event log does not keep — when each move was made (`at` as a
/// number), `started_ms`, `ended_ms` — which a server shows for the games
/// it saw played and not for games it read from the database, migrated or
/// not.
fn without_now(v: &Value) -> Value {
    let dropped = |k: &str, v: &Value| {
        matches!(k, "now_ms" | "started_ms" | "ended_ms") || (k == "at" && v.is_number())
    };
    match v {
        Value::Object(o) => Value::Object(
            o.iter()
                .filter(|(k, v)| !dropped(k, v))
                .map(|(k, v)| (k.clone(), without_now(v)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(without_now).collect()),
        other => other.clone(),
    }
}

/// The paths where `a` and `b` differ, with both values (a key `a` has
/// and `b` has not is left out: what a newer server adds).
fn differences(a: &Value, b: &Value, at: String, out: &mut Vec<String>) {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            // a field the newer server adds (`rated`) is no difference
            for k in y.keys() {
                let (u, v) = (
                    x.get(k).unwrap_or(&Value::Null),
                    y.get(k).unwrap_or(&Value::Null),
                );
                differences(u, v, format!("{at}.{k}"), out);
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (u, v)) in x.iter().zip(y).enumerate() {
                differences(u, v, format!("{at}[{i}]"), out);
            }
        }
        _ if a != b => out.push(format!("{at}: {a} (want {b})")),
        _ => {}
    }
}

/// Upgrades the database `db` (whose rows before were `before`) and
/// checks that every stored row is unchanged (the upgrade adds its
/// migration log and nothing else); then serves it and checks every
/// seat's view is the one the server before migrations answered (the
/// playing game's: its moves — its turn timer ran out meanwhile, and the
/// server may have played for the seat), the finished game's record
/// replays, the playing game takes its next move and shows its chat, and
/// the Stacks table takes its last seat.
async fn check_upgrade(
    dir: tempfile::TempDir,
    db: String,
    before: &BTreeMap<String, Vec<Vec<Value>>>,
) -> tempfile::TempDir {
    check_upgrade_of(&fixture_dir(), dir, db, before).await
}

/// [`check_upgrade`] of the fixture in folder `fixture`.
async fn check_upgrade_of(
    fixture: &Path,
    dir: tempfile::TempDir,
    db: String,
    before: &BTreeMap<String, Vec<Vec<Value>>>,
) -> tempfile::TempDir {
    let opened = sequence_server::db::Db::open(&db).await.expect("open");
    let mut conn = connect(&db).await;
    assert_eq!(
        &all_rows(&mut conn).await,
        before,
        "a stored row changed when the database was upgraded"
    );
    assert_eq!(
        applied(&mut conn).await,
        every_version(),
        "every migration is recorded"
    );
    drop(conn);
    opened.close().await;
    opened.unlock();
    let s = common::server_on(dir, db.clone(), 0).await;
    let tokens = fixture_json_in(fixture, "tokens.json");
    let want = fixture_json_in(fixture, "views.json");
    let got = json!(views(&s, &tokens).await);
    for (id, seats) in want.as_object().expect("views by table") {
        for (seat, view) in seats.as_object().expect("views by seat") {
            let now = &got[id][seat];
            if view["status"] == "playing" {
                let moves = view["log"].as_array().expect("log").len();
                let log = &now["log"].as_array().expect("log")[..moves];
                assert_eq!(
                    without_now(&json!(log)),
                    without_now(&view["log"]),
                    "table {id}: the moves differ"
                );
            } else {
                let mut diff = vec![];
                differences(
                    &without_now(now),
                    &without_now(view),
                    String::new(),
                    &mut diff,
                );
                assert!(
                    diff.is_empty(),
                    "table {id} seat {seat}: the view differs at {diff:?}"
                );
            }
        }
    }
    for (id, ts) in tokens.as_object().expect("tables") {
        let ts: Vec<String> = serde_json::from_value(ts.clone()).expect("tokens");
        let v = s.view(id, Some(&ts[0])).await;
        match v["table"]["status"].as_str() {
            Some("over") => {
                let (st, rec) = s.get(&format!("/api/tables/{id}/record"), None).await;
                assert_eq!(st, 200, "{rec}");
                let (r, _) = sequence_classic::record::Record::from_json_str(&rec.to_string())
                    .expect("the finished game's record replays");
                assert_eq!(Some(r.moves.len() as u64), v["move_number"].as_u64());
            }
            Some("playing") => {
                // (the server may play for a seat out of time meanwhile:
                // then the move is stale, and is made again)
                let mut rng = sequence_common::rng::game_rng(9);
                let mut moved = false;
                for _ in 0..5 {
                    for t in &ts {
                        let v = s.view(id, Some(t)).await;
                        let n = v["move_number"].as_u64().expect("move_number");
                        if let Some(mv) = common::moves::random_legal(&v, &mut rng) {
                            let (st, body) = s.play(id, Some(t), n, &mv).await;
                            if st == 200 {
                                assert_eq!(body["move_number"].as_u64(), Some(n + 1));
                                moved = true;
                            } else {
                                assert_eq!(st, 409, "{body}");
                            }
                            break;
                        }
                    }
                    if moved {
                        break;
                    }
                }
                assert!(moved, "the playing game goes on");
                let mut ws = s.ws(id, Some(&ts[0])).await;
                let mut chat = vec![];
                while chat.len() < 2 {
                    let m = ws.expect("chat").await;
                    chat.push(m["text"].as_str().expect("text").to_string());
                }
                assert_eq!(chat[0], "good luck");
            }
            Some("waiting") => {
                let (_, guest) = s.join(id, "Eve").await;
                let v = s.view(id, Some(&guest)).await;
                assert_eq!(v["table"]["status"], "playing", "{v}");
            }
            other => panic!("table {id}: status {other:?}"),
        }
    }
    s.running.abort();
    s.dir
}

#[tokio::test]
async fn an_sqlite_database_before_migrations_is_upgraded_with_nothing_lost() {
    let (dir, db) = fixture_copy();
    let before = all_rows(&mut connect(&db).await).await;
    assert_eq!(
        before["game_tables"].len(),
        3,
        "the fixture has its three tables"
    );
    assert!(before["chat"].len() >= 2 && before["events"].len() > 20);
    let dir = check_upgrade(dir, db.clone(), &before).await;
    // opened again: nothing more to apply
    let s = common::server_on(dir, db.clone(), 0).await;
    let mut conn = connect(&db).await;
    assert_eq!(applied(&mut conn).await, every_version());
    s.running.abort();
}

/// A database written by the server at schema version 1 (the accounts'
/// migration not yet applied) upgrades with every row kept and its
/// games going on; then an account is made and claims a finished game's
/// seat with its token.
#[tokio::test]
async fn a_version_1_database_is_upgraded_with_nothing_lost() {
    let fixture = fixture_at("main-v1");
    let (dir, db) = fixture_copy_of(&fixture);
    let mut conn = connect(&db).await;
    assert_eq!(
        applied(&mut conn).await,
        vec![1],
        "the fixture is at version 1"
    );
    let before = all_rows(&mut conn).await;
    drop(conn);
    assert_eq!(before["game_tables"].len(), 3);
    let dir = check_upgrade_of(&fixture, dir, db.clone(), &before).await;
    let s = common::server_on(dir, db.clone(), 0).await;
    let mut browser = common::accounts::Browser::new(&s);
    let (st, body) = browser.sign_up("Ann_1", "a long password").await;
    assert_eq!(st, 201, "{body}");
    let tokens = fixture_json_in(&fixture, "tokens.json");
    let (table, ts) = tokens
        .as_object()
        .expect("tables")
        .iter()
        .next()
        .expect("a table");
    let seats = json!({"seats": [{"table": table, "token": ts[0]}]});
    let (st, body) = browser.post("/api/account/claim", &seats).await;
    assert_eq!(st, 200, "{body}");
    assert_eq!(body["claimed"], json!([true]));
    // and its learning progress (migration 3) is kept
    let puzzle = sequence_server::learn::catalogue().puzzles["classic"]
        .iter()
        .next()
        .expect("a classic puzzle")
        .clone();
    let progress = json!({"puzzles": {"classic": [puzzle]}});
    let (st, body) = browser.post("/api/account/progress", &progress).await;
    assert_eq!(st, 200, "{body}");
    assert_eq!(body["puzzles"]["classic"], json!([puzzle]));
    s.running.abort();
}

#[tokio::test]
async fn a_new_sqlite_database_gets_the_same_schema() {
    let (_old_dir, old) = fixture_copy();
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("new.db").to_string_lossy().to_string();
    let s = common::server_on(dir, db.clone(), 0).await;
    s.running.abort();
    let schema = |url: String| async move {
        let mut conn = connect(&url).await;
        let mut cols = vec![];
        for (table, _, _) in TABLES {
            for r in sqlx::query(&format!(
                "SELECT name, type, \"notnull\", COALESCE(dflt_value, ''), pk \
                 FROM pragma_table_info('{table}') ORDER BY cid"
            ))
            .fetch_all(&mut conn)
            .await
            .expect("table info")
            {
                cols.push(format!(
                    "{table}.{} {} {} {} {}",
                    r.try_get::<String, _>(0).expect("name"),
                    r.try_get::<String, _>(1).expect("type"),
                    r.try_get::<i64, _>(2).expect("notnull"),
                    r.try_get::<String, _>(3).expect("default"),
                    r.try_get::<i64, _>(4).expect("pk"),
                ));
            }
        }
        let idx: Vec<String> = sqlx::query(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%' \
             AND tbl_name IN ('game_tables', 'events', 'chat', 'instances', 'presence') \
             ORDER BY name",
        )
        .fetch_all(&mut conn)
        .await
        .expect("indexes")
        .iter()
        .map(|r| r.try_get::<String, _>(0).expect("name"))
        .collect();
        (cols, idx)
    };
    assert_eq!(schema(db).await, schema(old).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_postgres_database_before_migrations_is_upgraded_with_nothing_lost() {
    let Some(url) = common::postgres::url("test") else {
        return;
    };
    let name = "seq_before_migrations";
    let db = sequence_server::db::create_database(&url, name)
        .await
        .expect("create a database");
    // the schema as the server before migrations made it, and the rows
    // of the SQLite fixture
    let (_file_dir, file) = fixture_copy();
    let before = all_rows(&mut connect(&file).await).await;
    let mut pg = connect(&db).await;
    let schema = std::fs::read_to_string(fixture_dir().join("postgres.sql")).expect("schema");
    pg.execute(schema.as_str()).await.expect("the old schema");
    for (table, cols, _) in TABLES {
        let n = cols.split(',').count();
        let marks: Vec<String> = (1..=n).map(|i| format!("${i}")).collect();
        let sql = format!("INSERT INTO {table} ({cols}) VALUES ({})", marks.join(", "));
        for row in &before[*table] {
            let mut q = sqlx::query(&sql);
            for v in row {
                q = match v {
                    Value::Number(n) => q.bind(n.as_i64()),
                    Value::String(s) => q.bind(s.clone()),
                    _ => q.bind(None::<String>),
                };
            }
            q.execute(&mut pg).await.expect("copy a row");
        }
    }
    assert_eq!(all_rows(&mut pg).await, before);
    drop(pg);
    let dir = tempfile::tempdir().expect("temp dir");
    check_upgrade(dir, db, &before).await;
    sequence_server::db::drop_database(&url, name)
        .await
        .expect("drop the database");
}
