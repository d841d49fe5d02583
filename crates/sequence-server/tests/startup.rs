//! `sequence serve` start-up failures: a database that cannot be opened or
//! an address that cannot be bound fails at once, naming the file, host or
//! address and the cause (fresh-tester report: 30 s of pool retries, then
//! "pool timed out" twice; "Address already in use" without the address).

use sequence_server::{start, ServerConfig};
use std::time::{Duration, Instant};

fn cfg(db: String) -> ServerConfig {
    ServerConfig {
        db,
        rate_limit: 0,
        rate_burst: 0,
        bot_delay: Duration::ZERO,
        ..Default::default()
    }
}

/// The error of starting on `db` and `listen`, and how long it took.
async fn failure(db: String, listen: &str) -> (String, Duration) {
    let t0 = Instant::now();
    match start(cfg(db), listen).await {
        Ok(r) => {
            r.abort();
            panic!("the server started")
        }
        Err(e) => (format!("{e:#}"), t0.elapsed()),
    }
}

fn assert_once(msg: &str, part: &str) {
    assert_eq!(msg.matches(part).count(), 1, "{part:?} once in: {msg}");
}

/// The error of starting on `db`, which must come within 5 s, name
/// `names` (the file or host) and say `cause` once.
async fn fails_at_once(db: &str, names: &str, cause: &str) -> String {
    let (msg, took) = failure(db.to_string(), "127.0.0.1:0").await;
    assert!(took < Duration::from_secs(5), "took {took:?}: {msg}");
    assert!(msg.contains(names), "{msg}");
    assert_once(&msg, cause);
    msg
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_file_that_is_not_sqlite_fails_at_once_naming_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("notdb.bin");
    std::fs::write(&path, "this is not an SQLite database\n".repeat(40)).expect("write");
    let path = path.to_string_lossy().to_string();
    let msg = fails_at_once(&path, &path, "not an SQLite database").await;
    assert!(!msg.contains("pool timed out"), "{msg}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_directory_fails_at_once_naming_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().to_string_lossy().to_string();
    fails_at_once(&path, &path, "is a directory").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missing_directory_names_the_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("no/such/dir/x.db");
    let path = path.to_string_lossy().to_string();
    fails_at_once(&path, &path, "cannot be opened").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_refusing_fails_at_once_naming_the_host_not_the_password() {
    let db = "postgres://u:secretpw@127.0.0.1:1/db";
    let msg = fails_at_once(db, "127.0.0.1:1", "connection refused").await;
    assert!(!msg.contains("secretpw"), "{msg}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn listen_errors_name_the_address() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = taken.local_addr().expect("addr").to_string();
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("a.db").to_string_lossy().to_string();
    let (msg, _) = failure(db.clone(), &addr).await;
    assert!(msg.contains(&addr), "{msg}");
    assert!(msg.contains("already in use"), "{msg}");
    let (msg, _) = failure(db, "nonsense").await;
    assert!(msg.contains("nonsense"), "{msg}");
    assert!(msg.contains("127.0.0.1:8080"), "{msg}");
}

/// Fresh-tester report: `--listen :8080` said "failed to lookup address
/// information" where other bad values say what an address looks like.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn listen_values_without_a_host_or_port_say_what_an_address_is() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("a.db").to_string_lossy().to_string();
    for bad in [":0", ":8080", "127.0.0.1", "127.0.0.1:", "localhost:http"] {
        let (msg, _) = failure(db.clone(), bad).await;
        assert!(
            msg.contains("not an address like 127.0.0.1:8080"),
            "{bad}: {msg}"
        );
        assert!(!msg.contains("lookup"), "{bad}: {msg}");
    }
}

/// Fresh-tester report: `--db ''` ran on a nameless temporary database.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_empty_database_name_is_refused() {
    for empty in ["", "  ", "sqlite:", "sqlite://"] {
        let (msg, _) = failure(empty.into(), "127.0.0.1:0").await;
        assert!(msg.contains("no database named"), "{empty:?}: {msg}");
    }
}

/// Fresh-tester report: a `postgres://` URL pointing at an HTTP server said
/// "expected to read 1414811696 bytes, got 103 bytes at EOF".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_is_not_postgres_is_named() {
    let http = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = http.local_addr().expect("addr");
    std::thread::spawn(move || {
        use std::io::{Read, Write};
        for conn in http.incoming().take(4) {
            let Ok(mut c) = conn else { continue };
            let mut buf = [0u8; 512];
            let _ = c.read(&mut buf);
            let _ = c.write_all(
                b"HTTP/1.1 400 Bad Request\r\nContent-Length: 11\r\nConnection: close\r\n\r\nbad request",
            );
        }
    });
    let (msg, took) = failure(format!("postgres://u:pw@{addr}/db"), "127.0.0.1:0").await;
    assert!(took < Duration::from_secs(5), "took {took:?}: {msg}");
    assert!(
        msg.contains(&format!(
            "the server at {addr} does not answer as PostgreSQL"
        )),
        "{msg}"
    );
    assert!(!msg.contains("bytes"), "{msg}");
    assert!(!msg.contains("pw@"), "{msg}");
}

/// An SQLite file serves one instance: a second `serve` on the same file
/// is refused at once, saying why and what to use instead; once the first
/// stops, the file may be served again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_instance_on_one_sqlite_file_is_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("one.db").to_string_lossy().to_string();
    let first = start(cfg(path.clone()), "127.0.0.1:0")
        .await
        .expect("the first instance starts");
    let (msg, took) = failure(path.clone(), "127.0.0.1:0").await;
    assert!(took < Duration::from_secs(5), "{took:?}");
    assert!(msg.contains("one.db"), "names the file: {msg}");
    assert!(
        msg.contains("another `sequence serve` is using this file"),
        "{msg}"
    );
    assert!(
        msg.contains("postgres://"),
        "says what to use instead: {msg}"
    );
    first.abort();
    let again = start(cfg(path), "127.0.0.1:0")
        .await
        .expect("the file is free once the first instance stopped");
    again.abort();
}
