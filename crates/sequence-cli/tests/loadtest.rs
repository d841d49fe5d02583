//! `sequence loadtest` against servers that throttle it: it ends (it
//! hung for ever once a WebSocket upgrade was refused), reports the
//! refusals, and the server it starts itself does not throttle its own
//! run (it hung past 500 WebSockets, the default upgrade burst).

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// `sequence ARGS` with a time limit: exit code, stdout and stderr; the
/// test fails if it runs longer than `limit`.
fn run_within(args: &[&str], limit: Duration) -> (Option<i32>, String, String) {
    let dir = std::env::temp_dir().join(format!(
        "loadtest-test-{}-{}",
        std::process::id(),
        args.join("_").replace(['/', ':'], "")
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (out, err) = (dir.join("out"), dir.join("err"));
    let mut child = Command::new(env!("CARGO_BIN_EXE_sequence"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out).expect("out file"))
        .stderr(std::fs::File::create(&err).expect("err file"))
        .spawn()
        .expect("sequence runs");
    let t = Instant::now();
    let code = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s.code();
        }
        if t.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "sequence {args:?} still runs after {limit:?}; stderr: {}",
                std::fs::read_to_string(&err).unwrap_or_default()
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let read = |p| std::fs::read_to_string(p).unwrap_or_default();
    let r = (code, read(&out), read(&err));
    let _ = std::fs::remove_dir_all(&dir);
    r
}

/// The value in the Markdown table row whose label starts with `label`.
fn row(table: &str, label: &str) -> String {
    table
        .lines()
        .find(|l| l.starts_with(&format!("| {label}")))
        .and_then(|l| l.split('|').nth(2))
        .unwrap_or_else(|| panic!("no row {label:?} in {table}"))
        .trim()
        .to_string()
}

struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A server allowing one WebSocket upgrade per second with bursts of 2.
fn stingy_server(name: &str) -> (Server, String, std::path::PathBuf) {
    let db = std::env::temp_dir().join(format!("loadtest-{name}-{}.db", std::process::id()));
    let exe = std::path::Path::new(env!("CARGO_BIN_EXE_sequence"));
    let (child, url) = sequence_loadtest::spawn_server(
        exe,
        &db.to_string_lossy(),
        &["--ws-rate", "1", "--ws-burst", "2"],
        Stdio::null(),
    )
    .expect("sequence serve starts");
    (Server(child), url, db)
}

/// Regression (a fresh user's test): `--tables 4` against a server with
/// `--ws-rate 1 --ws-burst 2` hung for ever; the refused upgrades are
/// now asked again after their Retry-After and counted.
#[test]
fn refused_upgrades_are_retried_and_counted() {
    let (_server, url, db) = stingy_server("retry");
    let (code, out, err) = run_within(
        &["loadtest", "--url", &url, "--tables", "4", "--seconds", "1"],
        Duration::from_secs(60),
    );
    assert_eq!(code, Some(0), "{out}\n{err}");
    assert_eq!(row(&out, "WebSocket clients connected"), "8 (8)", "{out}");
    let throttled: u64 = row(&out, "429/503 answers").parse().expect("a count");
    assert!(throttled > 0, "{out}");
    let _ = std::fs::remove_file(db);
}

/// The upgrades still refused when `--connect-seconds` runs out are
/// errors naming the server's answer, and the run ends.
#[test]
fn upgrades_refused_until_the_deadline_are_errors() {
    let (_server, url, db) = stingy_server("deadline");
    let (code, out, err) = run_within(
        &[
            "loadtest",
            "--url",
            &url,
            "--tables",
            "10",
            "--seconds",
            "1",
            "--connect-seconds",
            "2",
        ],
        Duration::from_secs(60),
    );
    assert_eq!(code, Some(0), "{out}\n{err}");
    let errors: u64 = row(&out, "errors").parse().expect("a count");
    assert!((10..=18).contains(&errors), "{out}");
    assert!(
        out.contains("websocket upgrade refused: 429 Too Many Requests"),
        "{out}"
    );
    assert!(err.contains("could not connect"), "{err}");
    let _ = std::fs::remove_file(db);
}

/// Regression: `--tables 280` (560 WebSockets, over the default upgrade
/// burst of 500 per address) hung with the server this command starts.
#[test]
fn its_own_server_takes_more_than_500_websockets() {
    let (code, out, err) = run_within(
        &[
            "loadtest",
            "--tables",
            "260",
            "--seconds",
            "1",
            "--think-ms",
            "60000",
        ],
        Duration::from_secs(120),
    );
    assert_eq!(code, Some(0), "{out}\n{err}");
    assert_eq!(
        row(&out, "WebSocket clients connected"),
        "520 (520)",
        "{out}"
    );
    assert_eq!(row(&out, "errors"), "0", "{out}");
    assert_eq!(row(&out, "429/503 answers"), "0", "{out}");
}
