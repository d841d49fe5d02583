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
    let auth = token.map(|t| format!("Bearer {t}"));
    let headers: Vec<(&str, &str)> = auth
        .as_deref()
        .map(|a| ("Authorization", a))
        .into_iter()
        .collect();
    http_with(addr, method, path, &headers, body).map(|(st, v, _)| (st, v))
}

/// [`http`] with any request `headers`; also answers the `Set-Cookie`
/// header's `name=value` pair, if any.
fn http_with(
    addr: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&Value>,
) -> std::io::Result<(u16, Value, Option<String>)> {
    let mut s = TcpStream::connect(addr)?;
    s.set_read_timeout(Some(Duration::from_secs(10)))?;
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let extra: String = headers
        .iter()
        .map(|(k, v)| format!("{k}: {v}\r\n"))
        .collect();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{extra}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )?;
    let mut resp = String::new();
    s.read_to_string(&mut resp)?;
    let status: u16 = resp
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| std::io::Error::other(format!("bad response {resp:?}")))?;
    let (head, text) = resp.split_once("\r\n\r\n").unwrap_or((&resp, ""));
    let cookie = head.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.eq_ignore_ascii_case("set-cookie")
            .then(|| v.trim().split(';').next().unwrap_or("").to_string())
    });
    Ok((
        status,
        serde_json::from_str(text).unwrap_or(Value::String(text.into())),
        cookie,
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

/// An account of [`rated_games_ended_while_instances_are_killed_count_once`]:
/// its name, session cookie (`name=value`) and CSRF token.
#[derive(Clone)]
struct Account {
    name: String,
    cookie: String,
    csrf: String,
}

impl Account {
    /// The headers of a request this account's browser makes.
    fn headers(&self) -> [(&str, &str); 2] {
        [("Cookie", &self.cookie), ("X-CSRF-Token", &self.csrf)]
    }
}

/// One of the live instances' addresses, at random.
fn any_instance(addrs: &Mutex<Vec<String>>, rng: &mut impl Rng) -> String {
    loop {
        if let Some(a) = addrs.lock().unwrap().choose(rng).cloned() {
            return a;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A rated classic table for two (one sequence of four wins) made by
/// `host` and joined by `guest`, each through any live instance: `(id,
/// host token, guest token)`, or `None` when an answer was lost in a way
/// that leaves the table unusable (it was made or joined, its token never
/// seen): the caller makes another.
fn rated_table(
    addrs: &Mutex<Vec<String>>,
    rng: &mut impl Rng,
    host: &Account,
    guest: &Account,
) -> Option<(String, String, String)> {
    // no turn clock: nobody is played for while an instance restarts
    let body = json!({"game": "classic", "players": 2, "rated": true, "turn_seconds": null,
                      "private": true, "options": {"sequence_length": 4, "win_sequences": 1}});
    let a = any_instance(addrs, rng);
    let (st, r, _) = http_with(&a, "POST", "/api/tables", &host.headers(), Some(&body)).ok()?;
    match st {
        201 => {}
        503 => return None,
        _ => panic!("create: {st} {r}"),
    }
    let id = r["table"].as_str().unwrap().to_string();
    let t0 = r["token"].as_str().unwrap().to_string();
    let join = format!("/api/tables/{id}/join");
    for _ in 0..50 {
        let a = any_instance(addrs, rng);
        match http_with(&a, "POST", &join, &guest.headers(), Some(&json!({}))) {
            Ok((200, r, _)) => {
                let t1 = r["token"].as_str().unwrap().to_string();
                return Some((id, t0, t1));
            }
            // the seat was taken by a join whose answer was lost
            Ok((409, _, _)) => return None,
            Ok((503, _, _)) | Err(_) => {
                // killed mid-request: taken or not?
                match http(&a, "GET", &format!("/api/tables/{id}"), None, None) {
                    Ok((200, info)) if info["seats"][1]["kind"] != "free" => return None,
                    _ => std::thread::sleep(Duration::from_millis(20)),
                }
            }
            Ok((st, e, _)) => panic!("join {id}: {st} {e}"),
        }
    }
    None
}

/// Plays random legal moves at table `id` (both seats' `tokens`) through
/// any live instance until its game is over; the number of final moves
/// whose answer was lost (the instance killed, or the database cut,
/// while the move that ended the game was being stored).
fn play_rated_game(
    addrs: &Mutex<Vec<String>>,
    rng: &mut impl Rng,
    id: &str,
    tokens: [&str; 2],
) -> usize {
    let deadline = Instant::now() + Duration::from_secs(240);
    let mut lost_endings = 0;
    loop {
        assert!(Instant::now() < deadline, "table {id} never ended");
        let a = any_instance(addrs, rng);
        let mut moved = false;
        for t in tokens {
            let Ok((200, v)) = http(&a, "GET", &format!("/api/tables/{id}/view"), Some(t), None)
            else {
                continue;
            };
            if v["table"]["status"] == "over" {
                return lost_endings;
            }
            let Some(mv) = moves::random_legal(&v, rng) else {
                continue;
            };
            let body = json!({"move_number": v["move_number"], "move": mv});
            match http(
                &a,
                "POST",
                &format!("/api/tables/{id}/moves"),
                Some(t),
                Some(&body),
            ) {
                Ok((200, _)) | Ok((409, _)) => moved = true,
                Ok((503, _)) | Err(_) => {
                    // not acknowledged: did it end the game?
                    let over = http(
                        &any_instance(addrs, rng),
                        "GET",
                        &format!("/api/tables/{id}"),
                        None,
                        None,
                    )
                    .is_ok_and(|(_, i)| i["status"] == "over");
                    lost_endings += usize::from(over);
                }
                Ok((st, e)) => panic!("table {id}: move {st} {e}"),
            }
        }
        if !moved {
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

/// Issue 24, "Must hold": two instances of `sequence serve` on one
/// PostgreSQL (runs when `SEQUENCE_TEST_POSTGRES_URL` is set; a database
/// of its own) while one or the other is killed with SIGKILL every few
/// hundred milliseconds and started again. Five pairs of accounts play 200
/// rated classic games through whichever instance is up (each pair one
/// game at a time); moves whose answer is lost are looked up, never
/// assumed. Then, as every instance sees it: each player's rating counts
/// exactly the games they finished (no change lost, none applied twice),
/// and the chain of their rating changes, in the order the games ended,
/// starts at 1500, each starting where the one before ended, and ends at
/// the rating their profile shows.
#[test]
fn rated_games_ended_while_instances_are_killed_count_once() {
    let Ok(base) = std::env::var("SEQUENCE_TEST_POSTGRES_URL") else {
        assert!(
            std::env::var_os("SEQUENCE_TEST_QUICK").is_some(),
            "SEQUENCE_TEST_POSTGRES_URL is not set: scripts/test.sh starts a PostgreSQL of its own and sets it (scripts/test.sh --quick leaves this test out)"
        );
        eprintln!("quick mode: PostgreSQL rated kill test left out");
        return;
    };
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let name = format!("seqtest_ratedkill_{}", std::process::id());
    let url = rt
        .block_on(sequence_server::db::create_database(&base, &name))
        .expect("a test database");
    const PAIRS: usize = 5;
    const GAMES_PER_PAIR: usize = 40;
    let mut procs: Vec<(Child, String)> = (0..2).map(|_| spawn_pg(&url)).collect();
    let addrs = Arc::new(Mutex::new(
        procs.iter().map(|p| p.1.clone()).collect::<Vec<_>>(),
    ));
    let mut accounts = vec![];
    for i in 0..PAIRS * 2 {
        let name = format!("rk{i}");
        let (st, v, cookie) = http_with(
            &procs[i % 2].1,
            "POST",
            "/api/account/signup",
            &[],
            Some(&json!({"name": name, "password": "a long enough password"})),
        )
        .unwrap();
        assert_eq!(st, 201, "{v}");
        accounts.push(Account {
            name,
            cookie: cookie.expect("a session cookie"),
            csrf: v["csrf"].as_str().unwrap().to_string(),
        });
    }
    let finished = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let mut players = vec![];
    for p in 0..PAIRS {
        let (a, b) = (accounts[2 * p].clone(), accounts[2 * p + 1].clone());
        let addrs = addrs.clone();
        let finished = finished.clone();
        players.push(std::thread::spawn(move || {
            let mut rng = sequence_common::rng::game_rng(900 + p as u64);
            let mut ended = vec![];
            let mut lost_endings = 0;
            while ended.len() < GAMES_PER_PAIR {
                let (host, guest) = if ended.len() % 2 == 0 {
                    (&a, &b)
                } else {
                    (&b, &a)
                };
                let Some((id, t0, t1)) = rated_table(&addrs, &mut rng, host, guest) else {
                    continue;
                };
                lost_endings += play_rated_game(&addrs, &mut rng, &id, [&t0, &t1]);
                ended.push(id);
            }
            finished.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            (ended, lost_endings)
        }));
    }
    // the killer: one instance or the other, every 150–500 ms, started
    // again at once (the other serves meanwhile)
    let mut rng = sequence_common::rng::game_rng(78);
    let mut kills = 0;
    while finished.load(std::sync::atomic::Ordering::SeqCst) < PAIRS {
        std::thread::sleep(Duration::from_millis(rng.random_range(150..500)));
        let v = rng.random_range(0..2);
        addrs.lock().unwrap().retain(|a| *a != procs[v].1);
        procs[v].0.kill().unwrap(); // SIGKILL
        procs[v].0.wait().unwrap();
        kills += 1;
        procs[v] = spawn_pg(&url);
        addrs.lock().unwrap().push(procs[v].1.clone());
    }
    let results: Vec<(Vec<String>, usize)> = players
        .into_iter()
        .map(|p| p.join().expect("a pair"))
        .collect();
    let lost: usize = results.iter().map(|r| r.1).sum();
    eprintln!(
        "{} rated games over {kills} kills; {lost} final moves answered with a lost connection or 503 but stored",
        PAIRS * GAMES_PER_PAIR
    );
    assert!(kills >= 10, "the instances were killed only {kills} times");
    for (p, (ended, _)) in results.iter().enumerate() {
        for who in [&accounts[2 * p], &accounts[2 * p + 1]] {
            for (_, at) in &procs {
                let (st, prof) =
                    http(at, "GET", &format!("/api/users/{}", who.name), None, None).unwrap();
                assert_eq!(st, 200, "{prof}");
                let rating = &prof["ratings"][0];
                assert_eq!(rating["kind"], "classic-1v1", "{prof}");
                assert_eq!(
                    rating["games"],
                    json!(GAMES_PER_PAIR),
                    "{}: {prof}",
                    who.name
                );
                assert_eq!(prof["stats"][0]["played"], json!(GAMES_PER_PAIR), "{prof}");
                let (st, list) = http(
                    at,
                    "GET",
                    &format!("/api/users/{}/games?limit=500", who.name),
                    None,
                    None,
                )
                .unwrap();
                assert_eq!(st, 200, "{list}");
                let mut games = list["games"].as_array().cloned().unwrap_or_default();
                let mut tables: Vec<&str> =
                    games.iter().filter_map(|g| g["table"].as_str()).collect();
                tables.sort();
                let mut want: Vec<&str> = ended.iter().map(String::as_str).collect();
                want.sort();
                assert_eq!(
                    tables, want,
                    "{}: the games stored are those played",
                    who.name
                );
                games.sort_by_key(|g| g["ended_ms"].as_i64());
                let mut now = json!(1500.0);
                for g in &games {
                    assert_eq!(g["rated"], true, "{g}");
                    assert_eq!(
                        g["rating_before"], now,
                        "{}: a rating change lost or doubled before {g}",
                        who.name
                    );
                    now = g["rating_after"].clone();
                }
                assert_eq!(rating["rating"], now, "{}: {prof}", who.name);
            }
        }
    }
    for (mut c, _) in procs {
        let _ = c.kill();
        let _ = c.wait();
    }
    let _ = rt.block_on(sequence_server::db::drop_database(&base, &name));
}
