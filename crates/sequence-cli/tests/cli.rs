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

/// `sequence LINE` as typed in a shell (arguments split at spaces, so
/// none may hold one), without input.
fn sequence(line: &str) -> Output {
    run(&line.split_whitespace().collect::<Vec<_>>(), None)
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
    // Regression (tester): an entry with an unknown key is a malformed
    // move naming the key; RECORD.md gives "the first illegal or malformed
    // entry" exit 1.
    let mut rec: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(path("2p-blue-vs-green.json")).expect("example"),
    )
    .expect("JSON");
    rec["moves"][3]["extra"] = serde_json::json!(1);
    let extra = run(&["verify", "-"], Some(&rec.to_string()));
    assert_eq!(extra.status.code(), Some(1));
    let err = String::from_utf8_lossy(&extra.stderr);
    assert!(
        err.starts_with("move 3 {")
            && err
                .trim_end()
                .ends_with("}: malformed move: unknown key `extra`"),
        "{err}"
    );
    // Regression (fresh-user test): a file that is not a record is named
    // like one that cannot be read, in words.
    let dir = tempfile::tempdir().expect("temp dir");
    let empty = dir.path().join("empty.json");
    std::fs::write(&empty, "").expect("write");
    let utf16 = dir.path().join("utf16.json");
    std::fs::write(&utf16, [0xff, 0xfe, b'{', 0, b'}', 0]).expect("write");
    for (file, words) in [
        (empty.clone(), "the text is empty"),
        (utf16, "not UTF-8 text"),
        (dir.path().to_path_buf(), "a directory, not a record file"),
    ] {
        let out = run(&["verify", &file.to_string_lossy()], None);
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.starts_with(&format!("error: {}: ", file.display())) && err.contains(words),
            "{err}"
        );
    }
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

/// Regression (tester): replay's errors did not name the file (`not valid
/// JSON: …`, `record: unknown key extra`) while verify's did; both now say
/// `error: FILE: …` with the same exit codes.
#[test]
fn replay_errors_name_the_file_like_verify() {
    let dir = tempfile::tempdir().expect("temp dir");
    let not_json = dir.path().join("not-json.json");
    std::fs::write(&not_json, "{\"format\": ").expect("write");
    let mut rec: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(path("2p-blue-vs-green.json")).expect("example"),
    )
    .expect("JSON");
    rec["extra"] = serde_json::json!(1);
    let extra = dir.path().join("extra.json");
    std::fs::write(&extra, rec.to_string()).expect("write");
    for file in [not_json, extra] {
        let file = file.to_string_lossy().to_string();
        let verify = run(&["verify", &file], None);
        let replay = run(&["replay", &file], None);
        assert_eq!(replay.status.code(), Some(2));
        assert_eq!(replay.status.code(), verify.status.code());
        let err = String::from_utf8_lossy(&replay.stderr);
        assert!(err.starts_with(&format!("error: {file}: ")), "{err}");
        assert_eq!(err, String::from_utf8_lossy(&verify.stderr));
    }
    // A move error keeps RECORD.md's form in both.
    let illegal = path("illegal/corner.json");
    let replay = run(&["replay", &illegal], None);
    let err = String::from_utf8_lossy(&replay.stderr);
    assert!(err.starts_with("move 14 "), "{err}");
}

#[test]
fn options_must_be_a_json_object() {
    // Regression: `--options '[]'` was accepted as the defaults.
    let o = sequence("selfplay --players 2 --games 1 --options []");
    assert_ne!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stderr).contains("JSON object"));
    let ok = sequence("selfplay --players 3 --games 2 --options {\"sequence_length\":4}");
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
    let out = sequence("arena --bots cmd:true,greedy --games 2 --out /tmp");
    let stderr = String::from_utf8_lossy(&out.stderr);
    // A program that is not a bot is a refused argument: exit 2 (README).
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("cmd:true") && stderr.contains("crashed"),
        "{stderr}"
    );
}

/// An output folder that cannot be written is refused before any game.
#[test]
fn arena_checks_its_output_folder_first() {
    let t = std::time::Instant::now();
    let out = sequence("arena --bots ismcts:50000it:1t,greedy --games 50 --out /proc/nope");
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
        assert_eq!(out.status.code(), Some(2), "{bots}: {stderr}");
        assert!(stderr.contains("--bots"), "{bots}: {stderr}");
    }
}

/// Arena and hint options that were silently dropped or clamped are
/// refused with a message naming the option.
#[test]
fn arena_and_hint_refuse_meaningless_options() {
    for (args, needle) in [
        (
            &["arena", "--bots", "random,,greedy", "--games", "1"][..],
            "--bots",
        ),
        (
            &["arena", "--bots", "random,", "--games", "1"][..],
            "--bots",
        ),
        (
            &["arena", "--bots", "greedy,Greedy", "--games", "1"][..],
            "--bots",
        ),
        (
            &[
                "arena",
                "--bots",
                "random,greedy",
                "--games",
                "1",
                "--move-time",
                "0",
            ][..],
            "--move-time",
        ),
        (
            &[
                "arena",
                "--bots",
                "random,greedy",
                "--games",
                "1",
                "--jobs",
                "0",
            ][..],
            "--jobs",
        ),
        (
            &[
                "arena",
                "--game",
                "stacks",
                "--bots",
                "random,greedy",
                "--games",
                "1",
                "--teams",
                "2",
            ][..],
            // the engine's refusal (S1), naming the argument
            "--teams 2: Sequence Stacks has no teams (S1)",
        ),
        (
            &["arena", "--bots", "random,greedy", "--games", "4294967295"][..],
            "games",
        ),
    ] {
        let out = run(args, None);
        let stderr = String::from_utf8_lossy(&out.stderr);
        // Every refused argument exits 2, in every command (README).
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
    }
}

/// A bot program that starts a process of its own and then hangs: when the
/// arena stops it, what it started is stopped too (it used to be left
/// running, one per game).
#[cfg(unix)]
#[test]
fn arena_stops_what_a_bot_program_started() {
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir().join(format!("seq-child-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let marker = 900_000 + std::process::id() % 90_000;
    let script = dir.join("bot.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nread hello\necho '{{\"type\":\"hello\",\"name\":\"sleepy\"}}'\nsleep {marker} &\nwhile read line; do sleep 1000; done\n"
        ),
    )
    .expect("script");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let bots = format!("cmd:{},greedy", script.display());
    let out = run(
        &[
            "arena",
            "--bots",
            &bots,
            "--games",
            "1",
            "--move-time",
            "300",
            "--out",
        ][..]
            .iter()
            .copied()
            .chain([dir.to_str().expect("utf-8 path")])
            .collect::<Vec<_>>(),
        None,
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::thread::sleep(std::time::Duration::from_millis(200));
    // Processes whose command line names the marker (from /proc).
    let needle = format!("sleep\0{marker}");
    let left: Vec<String> = std::fs::read_dir("/proc")
        .expect("/proc")
        .flatten()
        .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
        .map(|c| String::from_utf8_lossy(&c).into_owned())
        .filter(|c| c.contains(&needle))
        .collect();
    assert!(left.is_empty(), "still running: {left:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// An unfinished 2-player classic game saved as a file: the first `n`
/// moves of an example record, without its result.
fn unfinished_record(name: &str, n: usize) -> std::path::PathBuf {
    let text = std::fs::read_to_string(examples().join("2p-blue-vs-green.json")).expect("example");
    let mut v: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    let obj = v.as_object_mut().expect("an object");
    obj.remove("result");
    if let Some(moves) = obj.get_mut("moves").and_then(|m| m.as_array_mut()) {
        moves.truncate(n);
    }
    let path = std::env::temp_dir().join(format!("cli-{}-{name}.json", std::process::id()));
    std::fs::write(&path, v.to_string()).expect("write");
    path
}

/// `play` checks its arguments before it needs a terminal: a refusal is
/// printed with exit code 2 (it used to be "needs a terminal", or shown
/// only after Enter on the start screen, or not at all).
#[test]
fn play_refuses_bad_arguments_before_the_terminal() {
    let saved = unfinished_record("play", 6);
    let before = std::fs::read(&saved).expect("saved game");
    let load = saved.to_str().expect("utf-8 path");
    for (args, needle) in [
        (
            &["play", "--options", "{x"][..],
            "--options \"{x\" is not JSON",
        ),
        (&["play", "--options", r#"{"bogus":1}"#][..], "bogus"),
        (&["play", "--game", "stacks", "--teams", "2"][..], "--teams"),
        (
            &["play", "--players", "5"][..],
            "2, 3, 4, 6, 8, 9, 10 or 12 (C3)",
        ),
        (
            &["play", "--load", load, "--players", "4"][..],
            "--players 4",
        ),
        (
            &["play", "--load", load, "--bots", "5,5,5"][..],
            "3 bots for 2 players",
        ),
        (
            &["play", "--load", load, "--bots", "5,5"][..],
            "leaves none to a person",
        ),
        (&["play", "--load", load, "--game", "stacks"][..], "--game"),
    ] {
        let out = run(args, None);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
        assert!(!stderr.contains("needs a terminal"), "{args:?}: {stderr}");
        assert!(!stderr.contains('['), "{args:?}: a debug list: {stderr}");
    }
    // Good arguments get as far as the terminal check.
    let out = run(&["play", "--load", load, "--bots", "4"], None);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("needs a terminal"), "{stderr}");
    assert_eq!(
        std::fs::read(&saved).expect("saved game"),
        before,
        "the saved game was changed"
    );
    let _ = std::fs::remove_file(&saved);
}

/// `hint` exits as `verify` does: 2 for a file that is not a valid record
/// (a truncated one exited 1) or a bad argument, 1 for an illegal move.
#[test]
fn hint_exit_codes_follow_verify() {
    let text = std::fs::read_to_string(examples().join("2p-blue-vs-green.json")).expect("example");
    let cut = std::env::temp_dir().join(format!("cli-{}-cut.json", std::process::id()));
    std::fs::write(&cut, &text[..text.len() / 2]).expect("write");
    let cut = cut.to_str().expect("utf-8 path").to_string();
    let saved = unfinished_record("hint", 6);
    let saved = saved.to_str().expect("utf-8 path").to_string();
    for (args, code) in [
        (vec!["hint", cut.as_str(), "--seat", "0"], 2),
        (vec!["hint", "/nonexistent/game.json", "--seat", "0"], 2),
        (
            vec!["hint", saved.as_str(), "--seat", "0", "--budget", "fast"],
            2,
        ),
        (vec!["hint", saved.as_str(), "--seat", "7"], 2),
        (vec!["hint", &path("illegal/corner.json"), "--seat", "0"], 1),
        (
            vec!["hint", &path("2p-blue-vs-green.json"), "--seat", "0"],
            1,
        ),
        (
            vec!["hint", saved.as_str(), "--seat", "1", "--budget", "300it"],
            0,
        ),
        // Seat 1 is to move.
        (vec!["hint", saved.as_str(), "--seat", "0"], 1),
    ] {
        let out = run(&args, None);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {stderr}");
    }
    let _ = std::fs::remove_file(&cut);
    let _ = std::fs::remove_file(&saved);
}

/// Regression (fresh tester, defect 1e): a Stacks record saved right after
/// a pile-completing move ends inside the open Block window (S5b; no
/// decline is written, RECORD-STACKS.md). `hint --seat` of the seat offered
/// the window advises its Block decision; the completer must wait.
#[test]
fn hint_is_for_the_seat_offered_an_open_block_window() {
    // the 2-player example without its result: its last move (seat 0)
    // completes a pile, and seat 1 is offered the window
    let text = std::fs::read_to_string(examples().join("stacks/2p.json")).expect("example");
    let mut v: serde_json::Value = serde_json::from_str(&text).expect("json");
    v.as_object_mut().expect("object").remove("result");
    let open = std::env::temp_dir().join(format!("cli-{}-window.json", std::process::id()));
    std::fs::write(&open, v.to_string()).expect("write");
    let open = open.to_str().expect("utf-8 path").to_string();
    let out = run(
        &["hint", &open, "--seat", "1", "--json", "--budget", "200it"],
        None,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let hint: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let moves = hint["moves"].as_array().expect("moves");
    assert!(
        moves
            .iter()
            .any(|m| m["move"]["pass"] == serde_json::json!(true)),
        "{hint}"
    );
    assert!(
        moves
            .iter()
            .all(|m| m["move"]["pass"] == serde_json::json!(true)
                || m["move"]["play"] == serde_json::json!("BLOCK")),
        "only the window's answers: {hint}"
    );
    let out = run(&["hint", &open, "--seat", "0"], None);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("seat 1 must decide now"), "{stderr}");
    let _ = std::fs::remove_file(&open);
}

/// Regression (fresh tester, defect 7): `export-static` on a file said
/// "cannot make …: File exists"; it names the path as not a folder
/// (exit 2, a bad argument) and leaves the file alone.
#[test]
fn export_static_refuses_a_file() {
    let file = std::env::temp_dir().join(format!("cli-{}-site", std::process::id()));
    std::fs::write(&file, "mine").expect("write");
    let f = file.to_str().expect("utf-8 path");
    let out = run(&["export-static", f], None);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("is not a folder"), "{stderr}");
    let out = run(&["export-static", f, "--force"], None);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&file).expect("read"), "mine");
    let _ = std::fs::remove_file(&file);
}

/// Zero games, seconds or tables measured nothing and printed zeros (or
/// NaN): refused as bad arguments.
#[test]
fn zero_amounts_are_refused() {
    for (args, needle) in [
        (
            &["selfplay", "--players", "2", "--games", "0"][..],
            "--games",
        ),
        (&["bench", "--seconds", "0"][..], "--seconds"),
        (&["bench", "--seconds", "inf"][..], "--seconds"),
        (&["loadtest", "--tables", "0"][..], "--tables"),
        (&["loadtest", "--seconds", "0"][..], "--seconds"),
    ] {
        let t = std::time::Instant::now();
        let out = run(args, None);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
        assert!(
            t.elapsed() < std::time::Duration::from_secs(5),
            "{args:?} ran first"
        );
    }
}

/// Regression (a fresh user's test): these were refused with exit 1 (or
/// a "builder error") instead of the documented 2 for a refused argument.
#[test]
fn refused_server_arguments_exit_2() {
    for (args, needle) in [
        (&["serve", "--listen", ":8080"][..], "--listen"),
        (&["serve", "--listen", "127.0.0.1"][..], "--listen"),
        (&["serve", "--db", ""][..], "no database named"),
        (&["serve", "--db", "sqlite:"][..], "no database named"),
        (&["loadtest", "--url", "notaurl"][..], "not a server URL"),
    ] {
        let out = run(args, None);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
    }
}

/// Without a terminal the arena's progress bar is hidden; it prints lines
/// instead, so a long run is seen working (it printed nothing for a minute).
#[test]
fn arena_reports_progress_without_a_terminal() {
    let dir = std::env::temp_dir().join(format!("cli-arena-{}", std::process::id()));
    let out = run(
        &[
            "arena",
            "--bots",
            "random,greedy",
            "--games",
            "3",
            "--out",
            dir.to_str().expect("utf-8 path"),
        ],
        None,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("arena: 3 games to play"), "{stderr}");
    assert!(stderr.contains("game 1 done (1/3 after"), "{stderr}");
    assert!(stderr.contains("(3/3 after"), "{stderr}");
    assert!(
        stderr.contains(" won in ") || stderr.contains("drawn in "),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Regression (fresh tester): a table the rules refuse exited 1 in
/// `selfplay` and `bench` but 2 in `play`, and `selfplay` took `--teams` for
/// Sequence Stacks. Every refused argument exits 2.
#[test]
fn refused_tables_exit_2_in_every_command() {
    for args in [
        &["selfplay", "--players", "5", "--games", "1"][..],
        &["bench", "--players", "5", "--seconds", "0.1"][..],
        &[
            "selfplay",
            "--game",
            "stacks",
            "--players",
            "3",
            "--teams",
            "3",
        ][..],
        &["selfplay", "--players", "2", "--options", "{bad"][..],
    ] {
        let out = run(args, None);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
    }
}

/// Regression (fresh tester): Stacks `selfplay` counted declined Block
/// offers as moves (68.0 for a record of 63 moves); it counts the record's
/// moves, as `verify` does.
#[test]
fn selfplay_counts_the_moves_its_records_hold() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let out_dir = dir.path().to_string_lossy().to_string();
    let out = run(
        &[
            "selfplay",
            "--game",
            "stacks",
            "--players",
            "2",
            "--games",
            "3",
            "--seed",
            "5",
            "--out",
            &out_dir,
        ],
        None,
    );
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    let mean: f64 = stdout
        .lines()
        .find_map(|l| l.strip_prefix("mean moves: "))
        .and_then(|m| m.trim().parse().ok())
        .unwrap_or_else(|| panic!("no mean in {stdout}"));
    let mut total = 0usize;
    for i in 1..=3 {
        let text = std::fs::read_to_string(dir.path().join(format!("game-{i:05}.json")))
            .expect("a record");
        let v: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        total += v["moves"].as_array().expect("moves").len();
    }
    assert!(
        (mean - total as f64 / 3.0).abs() < 0.051,
        "{mean} vs {total}/3"
    );
}

/// `serve --print-config`: flags over the environment over the file, each
/// value's source named, secrets redacted; a bad value in the file is
/// refused with exit 2 naming the key and the file (docs/deploy.md
/// "Configuration file and environment").
#[test]
fn serve_settings_come_from_flags_environment_and_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("serve.toml");
    std::fs::write(&file, "rate_limit = 1\nws_rate = 3\ndb_pool = 4\n").expect("write");
    let f = file.to_str().expect("utf-8");
    let out = Command::new(env!("CARGO_BIN_EXE_sequence"))
        .args(["serve", "--print-config", "--rate-limit", "7"])
        .env("SEQUENCE_CONFIG", f)
        .env("SEQUENCE_WS_RATE", "9")
        .env("SEQUENCE_ADMIN_TOKEN", "abcdefabcdefabcdef1234")
        .output()
        .expect("sequence runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    for line in [
        "rate_limit = 7  # --rate-limit",
        "ws_rate = 9  # SEQUENCE_WS_RATE",
        &format!("db_pool = 4  # db_pool in {f}"),
        "idle_timeout = 60  # idle_timeout (default)",
        "admin_token = \"(redacted)\"  # SEQUENCE_ADMIN_TOKEN",
    ] {
        assert!(text.lines().any(|l| l == line), "{line} in:\n{text}");
    }
    assert!(!text.contains("abcdefabcdef"), "{text}");

    std::fs::write(&file, "idle_timeout = \"long\"\n").expect("write");
    let out = run(&["serve", "--config", f], None);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(&format!("idle_timeout in {f}")), "{stderr}");
}

/// `sequence options` lists each game's rule options from the engine, as
/// the server's lobby does (C2, C6a, C7, C8a, C9, C11; S3a–S7).
#[test]
fn options_lists_the_engines_rule_options() {
    let out = sequence("options --game classic");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    for (name, rule) in [
        ("win_sequences", "C9"),
        ("sequence_length", "C11"),
        ("no_play", "C6a"),
        ("default_window", "C8a"),
    ] {
        let line = text
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("no line for {name}: {text}"));
        assert!(line.contains(rule), "{line}");
    }
    let out = sequence("options --game stacks --json");
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let ppc = v
        .as_array()
        .expect("a list")
        .iter()
        .find(|o| o["name"] == "piles_per_colour")
        .expect("piles_per_colour");
    assert_eq!(ppc["rule"], "S3a");
    assert_eq!(ppc["default"], 2);
    assert_eq!(ppc["values"], serde_json::json!([1, 2, 3, 4]));
    assert_eq!(sequence("options --game chess").status.code(), Some(2));
}

/// `sequence puzzles` (issue 25): the same command writes the same puzzles
/// (seeded self-play), each with its position, grade and solution; a count
/// of 0 is refused.
#[test]
fn puzzles_are_reproducible() {
    let once = run(&["puzzles", "--game", "stacks", "--count", "4"], None);
    assert_eq!(
        once.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&once.stderr)
    );
    let twice = run(&["puzzles", "--game", "stacks", "--count", "4"], None);
    assert_eq!(
        once.stdout, twice.stdout,
        "the same command, the same puzzles"
    );
    let v: serde_json::Value = serde_json::from_slice(&once.stdout).expect("JSON");
    let list = v["puzzles"].as_array().expect("puzzles");
    assert_eq!(list.len(), 4);
    for p in list {
        assert!(
            p["view"]["hand"].is_array() && p["solution"]["seat"].is_number(),
            "{p}"
        );
        assert!((1..=3).contains(&p["grade"].as_u64().unwrap_or(0)), "{p}");
    }
    let out = run(&["puzzles", "--count", "0"], None);
    assert_eq!(out.status.code(), Some(2));
    let out = run(&["puzzles", "--quota", "fork"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("give KIND=N"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
