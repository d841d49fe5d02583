//! Durability of `sequence serve`: the real binary is killed with SIGKILL
//! at random moments while several games are being played against it and
//! restarted on the same SQLite file. No acknowledged move may be lost
//! (every record ends up with every acknowledged move at its place) and
//! every game goes on to its end.

use rand::seq::IndexedRandom;
use rand::Rng;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
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

fn spawn(db: &std::path::Path) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sequence"))
        .args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--rate-limit",
            "0",
            "--bot-delay-ms",
            "0",
            "--db",
        ])
        .arg(db)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("sequence serve starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("address line");
    let addr = line
        .split_whitespace()
        .find_map(|w| w.strip_prefix("http://"))
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    (child, addr)
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
                    let Some(mv) = v["legal_moves"]
                        .as_array()
                        .unwrap()
                        .choose(&mut rng)
                        .cloned()
                    else {
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
