//! A backup of a live SQLite database (`sequence backup`,
//! docs/deploy.md "Backup and restore"): taken while games are played as
//! fast as the clients go, it holds every move acknowledged before it
//! began, every table in it rebuilds and every record in it verifies; a
//! restore puts it in place and a server serves it.

use crate::common;

use rand::SeedableRng;
use sequence_server::backup::{backup_sqlite, check_database, restore_sqlite};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Tables played at once.
const TABLES: usize = 16;

/// One table's game played until `stop`: each acknowledged move as
/// `(moves after it, when it was acknowledged)`.
async fn drive(
    s: Arc<common::Server>,
    id: String,
    tokens: [String; 2],
    seed: u64,
    stop: Instant,
    acks: Arc<Mutex<Vec<(String, u64, Instant)>>>,
) {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    while Instant::now() < stop {
        let v = s.view(&id, Some(&tokens[0])).await;
        if v["status"] != "playing" {
            return;
        }
        let seat = v["turn"].as_u64().expect("a seat to act") as usize;
        let n = v["move_number"].as_u64().expect("a move number");
        let view = if seat == 0 {
            v
        } else {
            s.view(&id, Some(&tokens[seat])).await
        };
        let Some(mv) = common::moves::random_legal(&view, &mut rng) else {
            return;
        };
        let (st, body) = s.play(&id, Some(&tokens[seat]), n, &mv).await;
        assert_eq!(st, 200, "{body}");
        acks.lock()
            .expect("acks")
            .push((id.clone(), n + 1, Instant::now()));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_taken_during_play_holds_every_acknowledged_move() {
    let s = Arc::new(common::server(0).await);
    let mut tables = Vec::new();
    for _ in 0..TABLES {
        let (id, host) = s.host("classic", 2).await;
        let (_, guest) = s.join(&id, "Bob").await;
        tables.push((id, [host, guest]));
    }
    let db = s.dir.path().join("test.db").to_string_lossy().to_string();
    let out = s.dir.path().join("backup.db");
    let acks = Arc::new(Mutex::new(Vec::new()));
    let started = Instant::now();
    let stop = started + Duration::from_millis(2500);
    let mut drivers = Vec::new();
    for (i, (id, tokens)) in tables.iter().enumerate() {
        drivers.push(tokio::spawn(drive(
            s.clone(),
            id.clone(),
            tokens.clone(),
            i as u64,
            stop,
            acks.clone(),
        )));
    }
    tokio::time::sleep(Duration::from_millis(1000)).await;
    let before = Instant::now();
    let written = backup_sqlite(&db, &out).await.expect("a backup");
    let after = Instant::now();
    for d in drivers {
        d.await.expect("a driver");
    }
    let acks = acks.lock().expect("acks").clone();
    let rate = acks.len() as f64 / started.elapsed().as_secs_f64();
    let during = acks
        .iter()
        .filter(|(_, _, t)| *t >= before && *t <= after)
        .count();
    eprintln!(
        "{} moves acknowledged, {rate:.0} a second; the backup took {:?} ({} bytes), {during} moves acknowledged meanwhile",
        acks.len(),
        written.took,
        written.bytes
    );
    assert!(acks.len() > 100, "the games went on: {} moves", acks.len());

    let checked = check_database(&out).await.expect("the backup checks");
    assert_eq!(checked.tables, TABLES);
    assert_eq!(checked.records, TABLES, "one game a table, each verified");
    let in_backup: HashMap<String, u64> = checked
        .positions
        .iter()
        .map(|(id, game, moves)| {
            assert_eq!(*game, 1);
            (id.clone(), u64::from(*moves))
        })
        .collect();
    let mut acked_before: HashMap<&str, u64> = HashMap::new();
    let mut acked_all: HashMap<&str, u64> = HashMap::new();
    for (id, n, t) in &acks {
        let all = acked_all.entry(id).or_default();
        *all = (*all).max(*n);
        if *t < before {
            let b = acked_before.entry(id).or_default();
            *b = (*b).max(*n);
        }
    }
    for (id, _) in &tables {
        let have = in_backup[id];
        let need = acked_before.get(id.as_str()).copied().unwrap_or(0);
        assert!(
            have >= need,
            "table {id}: {need} moves acknowledged before the backup, {have} in it"
        );
        assert!(have <= acked_all.get(id.as_str()).copied().unwrap_or(0));
    }
    assert_eq!(
        checked.moves as u64,
        in_backup.values().sum::<u64>(),
        "the records hold every move"
    );

    // a restore refuses to replace a database without --force, and one a
    // server is using even with it
    let e = restore_sqlite(&out, &db, false).await.unwrap_err();
    assert!(e.to_string().contains("--force"), "{e}");
    let e = restore_sqlite(&out, &db, true).await.unwrap_err();
    assert!(
        format!("{e:#}").contains("another `sequence serve`"),
        "{e:#}"
    );
    // into a new file, then served
    let dir = tempfile::tempdir().expect("temp dir");
    let restored = dir.path().join("restored.db").to_string_lossy().to_string();
    let report = restore_sqlite(&out, &restored, false)
        .await
        .expect("a restore");
    assert_eq!(report.tables, TABLES);
    let r = common::server_on(dir, restored, 0).await;
    for (id, tokens) in &tables {
        let v = r.view(id, Some(&tokens[0])).await;
        assert_eq!(v["move_number"].as_u64(), Some(in_backup[id]), "table {id}");
    }
    // a backup never overwrites a file
    let e = backup_sqlite(&db, &out).await.unwrap_err();
    assert!(e.to_string().contains("exists already"), "{e}");
}

#[tokio::test]
async fn postgres_and_missing_files_are_refused_with_their_reason() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("b.db");
    let e = backup_sqlite("postgres://u:secret@db-host/x", &out)
        .await
        .unwrap_err()
        .to_string();
    assert!(e.contains("pg_dump") && !e.contains("secret"), "{e}");
    let missing = dir.path().join("none.db").to_string_lossy().to_string();
    let e = backup_sqlite(&missing, &out).await.unwrap_err().to_string();
    assert!(e.contains("no such file"), "{e}");
    let e = check_database(&out).await.unwrap_err().to_string();
    assert!(e.contains("no such file"), "{e}");
}
