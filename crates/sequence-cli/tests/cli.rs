//! The `sequence` command as a user runs it: exit codes and messages of
//! verify and replay for both games (RECORD.md, RECORD-STACKS.md), bad
//! options. Regressions from a fresh user's test are marked.

use std::process::{Command, Output, Stdio};

fn examples() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/examples")
}

fn run(args: &[&str], stdin: Option<&str>) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_sequence"));
    c.args(args).stdout(Stdio::piped()).stderr(Stdio::piped());
    c.stdin(if stdin.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    });
    let mut child = c.spawn().expect("sequence runs");
    if let Some(text) = stdin {
        use std::io::Write;
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(text.as_bytes())
            .expect("write");
    }
    child.wait_with_output().expect("sequence ends")
}

fn path(rel: &str) -> String {
    examples().join(rel).to_string_lossy().to_string()
}

#[test]
fn verify_prints_the_summary_and_exit_codes_follow_record_md() {
    let ok = run(&["verify", &path("2p-blue-vs-green.json")], None);
    assert_eq!(ok.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&ok.stdout).expect("JSON summary");
    assert_eq!(v["winner"], "green");
    let bad = run(&["verify", &path("illegal/corner.json")], None);
    assert_eq!(bad.status.code(), Some(1));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.starts_with("move 14 "), "{err}");
    // Regression: the reason is printed once, not twice.
    assert_eq!(
        err.matches("corner is a free space (C6)").count(),
        1,
        "{err}"
    );
    let malformed = run(&["verify", "-"], Some("{\"format\": "));
    assert_eq!(malformed.status.code(), Some(2));
    let stacks = run(&["verify", &path("stacks/2p.json")], None);
    assert_eq!(stacks.status.code(), Some(0));
}

#[test]
fn replay_shows_both_games_and_exits_like_verify() {
    // Regression: Stacks records were refused by replay.
    let s = run(&["replay", &path("stacks/2p.json")], None);
    assert_eq!(
        s.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&s.stderr)
    );
    assert!(String::from_utf8_lossy(&s.stdout).contains("seat 0 wins"));
    let c = run(&["replay", "--last", &path("2p-blue-vs-green.json")], None);
    assert_eq!(c.status.code(), Some(0));
    let out = String::from_utf8_lossy(&c.stdout);
    assert!(out.contains("green wins"), "{out}");
    // Regression: no colour codes when stdout is not a terminal.
    assert!(!out.contains('\u{1b}'), "escape codes in piped output");
    // Regression: exit 1 at an illegal move, 2 for a malformed file.
    assert_eq!(
        run(&["replay", &path("illegal/corner.json")], None)
            .status
            .code(),
        Some(1)
    );
    assert_eq!(run(&["replay", "-"], Some("")).status.code(), Some(2));
}

#[test]
fn options_must_be_a_json_object() {
    // Regression: `--options '[]'` was accepted as the defaults.
    let o = run(
        &[
            "selfplay",
            "--players",
            "2",
            "--games",
            "1",
            "--options",
            "[]",
        ],
        None,
    );
    assert_ne!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stderr).contains("JSON object"));
    let ok = run(
        &[
            "selfplay",
            "--players",
            "3",
            "--games",
            "2",
            "--options",
            "{\"sequence_length\":4}",
        ],
        None,
    );
    assert_eq!(
        ok.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
}

/// A bot program that exits at once is refused with a message naming it
/// (it used to kill the arena silently with SIGPIPE).
#[test]
fn arena_names_a_bot_program_that_exits() {
    let out = run(
        &[
            "arena",
            "--bots",
            "cmd:true,greedy",
            "--games",
            "2",
            "--out",
            "/tmp",
        ],
        None,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("cmd:true") && stderr.contains("crashed"),
        "{stderr}"
    );
}

/// An output folder that cannot be written is refused before any game.
#[test]
fn arena_checks_its_output_folder_first() {
    let t = std::time::Instant::now();
    let out = run(
        &[
            "arena",
            "--bots",
            "ismcts:50000it:1t,greedy",
            "--games",
            "50",
            "--out",
            "/proc/nope",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/proc/nope"));
    assert!(
        t.elapsed() < std::time::Duration::from_secs(5),
        "games were played first"
    );
}

/// One bot, or the same bot twice, makes a table that compares nothing
/// (it reported 100 % for `--bots greedy`): refused with a message.
#[test]
fn arena_refuses_a_single_or_repeated_bot() {
    for bots in ["greedy", "greedy,greedy", "greedy,random,greedy"] {
        let out = run(&["arena", "--bots", bots, "--games", "2"], None);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{bots}: {stderr}");
        assert!(stderr.contains("--bots"), "{bots}: {stderr}");
    }
}
