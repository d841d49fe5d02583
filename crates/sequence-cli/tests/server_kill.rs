//! Durability of `sequence serve`: the real binary is killed with SIGKILL
//! at random moments while several games are being played against it and
//! restarted on the same SQLite file. No acknowledged move may be lost
//! (every record ends up with every acknowledged move at its place) and
//! every game goes on to its end.

#[path = "../../sequence-server/tests/common/moves.rs"]
mod moves;

use rand::seq::IndexedRandom;
use rand::Rng;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Child, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A bare HTTP/1.1 request (one connection per request).
fn http(
    addr: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> std::io::Result<(u16, Value)> {
    let mut s = TcpStream::connect(addr)?;
    s.set_read_timeout(Some(Duration::from_secs(10)))?;
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let auth = token
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )?;
    let mut resp = String::new();
    s.read_to_string(&mut resp)?;
    let status: u16 = resp
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| std::io::Error::other(format!("bad response {resp:?}")))?;
    let text = resp.split_once("\r\n\r\n").map(|(_, b)| b).unwrap_or("");
    Ok((
        status,
        serde_json::from_str(text).unwrap_or(Value::String(text.into())),
    ))
}

/// `sequence serve` on `db` (an SQLite file or a PostgreSQL URL) with
/// `extra` arguments: the child and the address it listens at.
fn spawn_with(db: &str, extra: &[&str], stderr: Stdio) -> (Child, String) {
    let exe = std::path::Path::new(env!("CARGO_BIN_EXE_sequence"));
    let (child, url) =
        sequence_loadtest::spawn_server(exe, db, extra, stderr).expect("sequence serve starts");
    let addr = url.trim_start_matches("http://").to_string();
    (child, addr)
}

fn spawn(db: &std::path::Path) -> (Child, String) {
    spawn_with(&db.to_string_lossy(), &[], Stdio::null())
}

fn strip_declare(mut m: Value) -> Value {
    if let Some(o) = m.as_object_mut() {
        o.remove("declare");
    }
    m
}

#[test]
fn sigkill_loses_no_acknowledged_move() {
    let dir = std::env::temp_dir().join(format!("sequence-kill-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("kill.db");
    let (child, addr) = spawn(&db);
    let child = Arc::new(Mutex::new(child));
    let addr = Arc::new(Mutex::new(addr));
    let mut tables = vec![];
    for i in 0..6 {
        let a = addr.lock().unwrap().clone();
        let (st, r) = http(
            &a,
            "POST",
            "/api/tables",
            None,
            Some(&json!({"game": "classic", "players": 2, "name": format!("k{i}")})),
        )
        .unwrap();
        assert_eq!(st, 201, "{r}");
        let id = r["table"].as_str().unwrap().to_string();
        let t0 = r["token"].as_str().unwrap().to_string();
        let (st, j) = http(
            &a,
            "POST",
            &format!("/api/tables/{id}/join"),
            None,
            Some(&json!({"name": "x"})),
        )
        .unwrap();
        assert_eq!(st, 200, "{j}");
        tables.push((id, vec![t0, j["token"].as_str().unwrap().to_string()]));
    }
    let done = Arc::new(Mutex::new(false));
    let mut players = vec![];
    for (i, (id, tokens)) in tables.clone().into_iter().enumerate() {
        let addr = addr.clone();
        players.push(std::thread::spawn(move || {
            let mut rng = sequence_common::rng::game_rng(100 + i as u64);
            let mut acked: BTreeMap<u64, Value> = BTreeMap::new();
            let deadline = Instant::now() + Duration::from_secs(240);
            'game: while Instant::now() < deadline {
                for t in &tokens {
                    let a = addr.lock().unwrap().clone();
                    let Ok((200, v)) =
                        http(&a, "GET", &format!("/api/tables/{id}/view"), Some(t), None)
                    else {
                        std::thread::sleep(Duration::from_millis(20));
                        continue;
                    };
                    let n = v["move_number"].as_u64().unwrap();
                    // nothing acknowledged may be missing after a restart
                    if let Some((&last, _)) = acked.iter().next_back() {
                        assert!(
                            n > last,
                            "table {id}: move {last} was acknowledged but the server is at {n}"
                        );
                    }
                    if v["table"]["status"] == "over" {
                        break 'game;
                    }
                    let Some(mv) = moves::random_legal(&v, &mut rng) else {
                        continue;
                    };
                    match http(
                        &a,
                        "POST",
                        &format!("/api/tables/{id}/moves"),
                        Some(t),
                        Some(&json!({"move_number": n, "move": mv})),
                    ) {
                        Ok((200, nv)) => {
                            assert_eq!(nv["move_number"].as_u64(), Some(n + 1));
                            acked.insert(n, mv);
                        }
                        Ok((409, _)) | Err(_) => {} // killed mid-request, or it went through before the kill
                        Ok((st, e)) => panic!("table {id}: unexpected {st} {e}"),
                    }
                }
            }
            (id, acked)
        }));
    }
    // the killer: SIGKILL at random moments, restart on the same file
    let killer = {
        let child = child.clone();
        let addr = addr.clone();
        let done = done.clone();
        let db = db.clone();
        std::thread::spawn(move || {
            let mut rng = sequence_common::rng::game_rng(9);
            let mut kills = 0;
            while !*done.lock().unwrap() && kills < 10 {
                std::thread::sleep(Duration::from_millis(rng.random_range(50..250)));
                let mut c = child.lock().unwrap();
                c.kill().unwrap(); // SIGKILL
                c.wait().unwrap();
                kills += 1;
                let (nc, na) = spawn(&db);
                *c = nc;
                *addr.lock().unwrap() = na;
            }
            kills
        })
    };
    let results: Vec<(String, BTreeMap<u64, Value>)> = players
        .into_iter()
        .map(|p| p.join().expect("player"))
        .collect();
    *done.lock().unwrap() = true;
    let kills = killer.join().unwrap();
    let total: usize = results.iter().map(|(_, a)| a.len()).sum();
    eprintln!(
        "{kills} kills, {total} acknowledged moves over {} games",
        results.len()
    );
    assert!(kills >= 3, "the server was killed only {kills} times");
    let a = addr.lock().unwrap().clone();
    for (id, acked) in &results {
        let (st, rec) = http(&a, "GET", &format!("/api/tables/{id}/record"), None, None).unwrap();
        assert_eq!(st, 200, "game {id} went on to its end: {rec}");
        let moves = rec["moves"].as_array().unwrap();
        assert!(!acked.is_empty());
        for (n, mv) in acked {
            assert_eq!(
                strip_declare(moves[*n as usize].clone()),
                strip_declare(mv.clone()),
                "table {id} move {n}"
            );
        }
        sequence_classic::record::Record::from_json_str(&rec.to_string()).expect("record replays");
    }
    let mut c = child.lock().unwrap();
    let _ = c.kill();
    let _ = c.wait();
    let _ = std::fs::remove_dir_all(&dir);
}

/// `sequence serve` on PostgreSQL with a short lease (a dead instance's
/// tables are taken over within about a second).
fn spawn_pg(url: &str) -> (Child, String) {
    let stderr = match std::env::var("SEQUENCE_KILL_TEST_LOGS") {
        // a folder for the servers' logs (to look into a failure)
        Ok(dir) => std::fs::File::create(format!("{dir}/serve-{}.log", rand::random::<u32>()))
            .map(Stdio::from)
            .unwrap_or(Stdio::null()),
        Err(_) => Stdio::null(),
    };
    spawn_with(url, &["--db-pool", "3", "--lease-ms", "600"], stderr)
}

/// A finished game's record replays with its engine.
fn replays(game: &str, rec: &Value) -> bool {
    if game == "classic" {
        sequence_common::record::verify::<sequence_classic::Game>(rec).is_ok()
    } else {
        sequence_common::record::verify::<sequence_stacks::Game>(rec).is_ok()
    }
}

/// The moves stored for table `id`, by `(game_no, move_number)`, read
/// from its event log (a declined Block included, which a Stacks record
/// leaves out).
fn stored_moves(
    rt: &tokio::runtime::Runtime,
    db: &sequence_server::db::Db,
    id: &str,
) -> BTreeMap<(u64, u64), Value> {
    let events = rt
        .block_on(db.events_since(id, 0))
        .expect("the table's events");
    moves::stored_moves(id, events)
}

/// Several instances on one PostgreSQL (runs when
/// `SEQUENCE_TEST_POSTGRES_URL` is set; a database of its own): tables
/// where every seat but the host's is a bot, the host seats moved by the
/// test through any instance. Twenty-five times, the two instances that
/// own the most tables (run their bots) are killed with SIGKILL together
/// (50 kills) and started again: every table is owned by a survivor within
/// 5 s, no bot waits 5 s to move, and no acknowledged move is lost or
/// duplicated (each is stored at its number, once; every finished game's
/// record replays).
#[test]
fn killing_the_owner_hands_its_bots_over() {
    let Ok(base) = std::env::var("SEQUENCE_TEST_POSTGRES_URL") else {
        assert!(
            std::env::var_os("SEQUENCE_TEST_QUICK").is_some(),
            "SEQUENCE_TEST_POSTGRES_URL is not set: scripts/test.sh starts a PostgreSQL of its own and sets it (scripts/test.sh --quick leaves this test out)"
        );
        eprintln!("quick mode: PostgreSQL kill test left out");
        return;
    };
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let name = format!("seqtest_kill_{}", std::process::id());
    let url = rt
        .block_on(sequence_server::db::create_database(&base, &name))
        .expect("a test database");
    const INSTANCES: usize = 4;
    const ROUNDS: usize = 25;
    const KILLED: usize = 2;
    let procs: Arc<Mutex<Vec<(Child, String)>>> =
        Arc::new(Mutex::new((0..INSTANCES).map(|_| spawn_pg(&url)).collect()));
    let addrs = || -> Vec<String> { procs.lock().unwrap().iter().map(|p| p.1.clone()).collect() };
    // tables created on every instance, each owning its own at first
    let mut tables = vec![];
    for i in 0..8 {
        let body = if i % 2 == 0 {
            json!({"game": "classic", "players": 2, "name": format!("h{i}"),
                   "options": {"sequence_length": 4, "win_sequences": 1},
                   "bots": [{"seat": 1, "level": "random"}]})
        } else {
            json!({"game": "stacks", "players": 3, "name": format!("h{i}"),
                   "bots": [{"seat": 1, "level": "random"}, {"seat": 2, "level": "greedy"}]})
        };
        let game = if i % 2 == 0 { "classic" } else { "stacks" };
        let at = addrs()[i % INSTANCES].clone();
        let (st, r) = http(&at, "POST", "/api/tables", None, Some(&body)).unwrap();
        assert_eq!(st, 201, "{r}");
        tables.push((
            r["table"].as_str().unwrap().to_string(),
            r["token"].as_str().unwrap().to_string(),
            game,
        ));
    }
    let stop = Arc::new(Mutex::new(false));
    let shared_addrs = Arc::new(Mutex::new(addrs()));
    let mut players = vec![];
    for (i, (id, token, game)) in tables.clone().into_iter().enumerate() {
        let addrs = shared_addrs.clone();
        let stop = stop.clone();
        players.push(std::thread::spawn(move || {
            let mut rng = sequence_common::rng::game_rng(500 + i as u64);
            // acknowledged host moves: (game_no, move_number) → move
            let mut acked: BTreeMap<(u64, u64), Value> = BTreeMap::new();
            let mut longest_bot_wait = Duration::ZERO;
            let mut waiting_since: Option<(u64, u64, Instant)> = None;
            let deadline = Instant::now() + Duration::from_secs(300);
            let mut finished = vec![];
            loop {
                assert!(Instant::now() < deadline, "table {id}: the test ran too long");
                let stopping = *stop.lock().unwrap();
                let a = addrs.lock().unwrap().choose(&mut rng).cloned().unwrap();
                let Ok((200, v)) =
                    http(&a, "GET", &format!("/api/tables/{id}/view"), Some(&token), None)
                else {
                    std::thread::sleep(Duration::from_millis(20));
                    continue;
                };
                let game_no = v["table"]["game_no"].as_u64().unwrap();
                let n = v["move_number"].as_u64().unwrap();
                if let Some((&(g, last), _)) = acked.iter().next_back() {
                    assert!(
                        g < game_no || n > last,
                        "table {id}: move {last} of game {g} was acknowledged but the table is at {n}"
                    );
                }
                if v["table"]["status"] == "over" {
                    waiting_since = None;
                    if finished.last() != Some(&game_no) {
                        finished.push(game_no);
                    }
                    if stopping {
                        break;
                    }
                    match http(&a, "POST", &format!("/api/tables/{id}/rematch"), Some(&token), None) {
                        Ok((200, _)) | Ok((409, _)) | Ok((503, _)) | Err(_) => {}
                        Ok((st, e)) => panic!("table {id}: rematch {st} {e}"),
                    }
                    continue;
                }
                if stopping {
                    break;
                }
                let legal = v["legal_moves"].as_array().cloned().unwrap_or_default();
                let Some(mv) = legal.choose(&mut rng).cloned() else {
                    // a bot is to move: how long has it been?
                    match waiting_since {
                        Some((g, m, t)) if (g, m) == (game_no, n) => {
                            longest_bot_wait = longest_bot_wait.max(t.elapsed());
                        }
                        _ => waiting_since = Some((game_no, n, Instant::now())),
                    }
                    std::thread::sleep(Duration::from_millis(20));
                    continue;
                };
                waiting_since = None;
                match http(
                    &a,
                    "POST",
                    &format!("/api/tables/{id}/moves"),
                    Some(&token),
                    Some(&json!({"move_number": n, "move": mv})),
                ) {
                    Ok((200, nv)) => {
                        assert_eq!(nv["move_number"].as_u64(), Some(n + 1));
                        acked.insert((game_no, n), mv);
                    }
                    // killed mid-request, a race with a view of the other
                    // instance, or the database busy: not acknowledged
                    Ok((409, _)) | Ok((503, _)) | Err(_) => {}
                    Ok((st, e)) => panic!("table {id}: unexpected {st} {e}"),
                }
            }
            (id, game, acked, longest_bot_wait, finished)
        }));
    }
    // the killer
    let mut rng = sequence_common::rng::game_rng(77);
    let mut takeovers = vec![];
    for k in 0..ROUNDS {
        std::thread::sleep(Duration::from_millis(rng.random_range(100..300)));
        // the instances that own the most tables
        let owned: Vec<u64> = addrs()
            .iter()
            .map(|a| {
                http(a, "GET", "/api/instance", None, None)
                    .ok()
                    .and_then(|(_, v)| v["tables_owned"].as_u64())
                    .unwrap_or(0)
            })
            .collect();
        let mut order: Vec<usize> = (0..INSTANCES).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(owned[i]));
        let victims = &order[..KILLED];
        let t0 = Instant::now();
        {
            let mut p = procs.lock().unwrap();
            for &v in victims {
                p[v].0.kill().unwrap(); // SIGKILL
                p[v].0.wait().unwrap();
            }
        }
        // the survivors own every table within 5 s
        let survivors: Vec<String> = addrs()
            .iter()
            .enumerate()
            .filter(|(i, _)| !victims.contains(i))
            .map(|(_, a)| a.clone())
            .collect();
        *shared_addrs.lock().unwrap() = survivors.clone();
        loop {
            let all_owned = tables.iter().all(|(id, _, _)| {
                survivors.iter().any(|a| {
                    http(a, "GET", &format!("/api/instance?table={id}"), None, None)
                        .is_ok_and(|(_, v)| v["owns"] == true)
                })
            });
            if all_owned {
                break;
            }
            assert!(
                t0.elapsed() < Duration::from_secs(5),
                "round {k}: the tables were not taken over within 5 s"
            );
            std::thread::sleep(Duration::from_millis(25));
        }
        takeovers.push(t0.elapsed());
        let fresh: Vec<(Child, String)> = victims.iter().map(|_| spawn_pg(&url)).collect();
        let mut p = procs.lock().unwrap();
        for (&v, f) in victims.iter().zip(fresh) {
            p[v] = f;
        }
        *shared_addrs.lock().unwrap() = p.iter().map(|x| x.1.clone()).collect();
    }
    *stop.lock().unwrap() = true;
    let results: Vec<_> = players
        .into_iter()
        .map(|p| p.join().expect("player"))
        .collect();
    takeovers.sort();
    eprintln!(
        "{} kills: takeover p50 {:?}, max {:?}",
        ROUNDS * KILLED,
        takeovers[takeovers.len() / 2],
        takeovers.last().unwrap()
    );
    let db = rt
        .block_on(sequence_server::db::Db::open(&url))
        .expect("the test database");
    let a = addrs()[0].clone();
    let mut total = 0;
    let mut games_checked = 0;
    for (id, game, acked, wait, finished) in &results {
        eprintln!(
            "table {id}: {} games over, {} acknowledged host moves, longest bot wait {wait:?}",
            finished.len(),
            acked.len()
        );
        assert!(
            *wait < Duration::from_secs(5),
            "table {id}: a bot waited {wait:?} to move"
        );
        let stored = stored_moves(&rt, &db, id);
        for (key, mv) in acked {
            let got = stored
                .get(key)
                .unwrap_or_else(|| panic!("table {id}: acknowledged move {key:?} is not stored"));
            assert_eq!(
                strip_declare(got.clone()),
                strip_declare(mv.clone()),
                "table {id}: game {} move {}",
                key.0,
                key.1
            );
            total += 1;
        }
        for g in finished {
            let (st, rec) = http(
                &a,
                "GET",
                &format!("/api/tables/{id}/record?game={g}"),
                None,
                None,
            )
            .unwrap();
            assert_eq!(st, 200, "table {id} game {g}: {rec}");
            assert!(
                replays(game, &rec),
                "table {id} game {g}: the record replays"
            );
            games_checked += 1;
        }
    }
    eprintln!("{total} acknowledged host moves found at their place, {games_checked} finished games replayed");
    assert!(total > 100, "the test made moves: {total}");
    assert!(games_checked > 0, "games finished");
    for (mut c, _) in procs.lock().unwrap().drain(..) {
        let _ = c.kill();
        let _ = c.wait();
    }
    rt.block_on(db.close());
    let _ = rt.block_on(sequence_server::db::drop_database(&base, &name));
}
