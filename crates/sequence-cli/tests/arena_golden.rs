//! `sequence arena` on fixed seeds writes what it wrote before, byte for
//! byte (issue 23: "`sequence arena` JSON/CSV byte-identical on fixed
//! seeds"). Short runs of the built-in bots — random, greedy with and
//! without random moves, the search bot on a tiny iteration budget; classic
//! with 2 players and with 4 in two teams, Stacks with 2 and 4 players;
//! plain and `--duplicate` games; `--jobs 1` and `--jobs 2` — and each
//! run's JSON on stdout, `arena.csv` and `arena.svg` are compared with
//! `tests/fixtures/arena/CASE.{json,csv,svg}`. A case run with several
//! `--jobs` values must give the same bytes with each.
//!
//! The arena writes no measurement of time into any of the three (the
//! progress lines on stderr have times and are not compared), so nothing
//! is left out of the comparison. Every budget is in iterations, so the
//! bots play alike on any machine and under any load. The outputs hold
//! totals only (wins, Elo, intervals), so each case has enough games for
//! its totals to move when play changes: every classic case here changes
//! with the legal-move order of 9e3881a, the search case also with the
//! flat search of 1d43bd4, the duplicate cases with b6441e0's intervals.
//!
//! Issue 23's refactor (typed effects, one `AnyGame`, live bots apart from
//! the lab, the command line's own arena output) was checked against
//! 35f1d98, the commit before it: `stacks-4p` and `stacks-search` give
//! these bytes there too, and every other difference since was traced to
//! a deliberate change of play outside the refactor: the classic legal-move
//! order (9e3881a) and random-move sampling (80b3e14, a299c00), the flat
//! search as classic `ismcts`'s default (merge 1d43bd4), the duplicate
//! intervals (b6441e0); `--duplicate` is younger than 35f1d98.
//!
//! A deliberate change of a bot, an engine or the arena's output records
//! the files again: `SEQUENCE_GOLDEN_WRITE=1 cargo test -p sequence --test
//! arena_golden`; say in the commit why they changed.

#[path = "../../sequence-server/tests/common/golden.rs"]
mod golden;

use std::path::{Path, PathBuf};
use std::process::Command;

/// One arena run: the golden files' name, the arguments after `sequence
/// arena` (with `--format json`; `--out` and `--jobs` are added), and the
/// `--jobs` values it is run with.
struct Case {
    name: &'static str,
    args: &'static str,
    jobs: &'static [usize],
}

const CASES: &[Case] = &[
    Case {
        name: "classic-random-greedy",
        args: "--bots random,greedy:90% --games 30 --seed 7",
        jobs: &[1],
    },
    Case {
        name: "classic-greedy-blunders",
        args: "--bots greedy:30%,greedy --games 30 --seed 11",
        jobs: &[1, 2],
    },
    Case {
        name: "classic-search",
        args: "--bots ismcts:20it:1t,greedy:50% --games 10 --seed 5",
        jobs: &[1],
    },
    Case {
        name: "classic-4p-teams",
        args: "--bots random,greedy:20%,greedy --players 4 --teams 2 --games 24 --seed 8",
        jobs: &[2],
    },
    Case {
        name: "classic-duplicate",
        args: "--bots greedy:30%,greedy --games 12 --seed 2 --duplicate",
        jobs: &[1],
    },
    Case {
        name: "stacks-4p",
        args: "--game stacks --players 4 --bots random,greedy:50%,greedy --games 12 --seed 4",
        jobs: &[1],
    },
    Case {
        name: "stacks-search",
        args: "--game stacks --bots ismcts:30it:1t,greedy --games 10 --seed 5",
        jobs: &[1],
    },
    Case {
        name: "stacks-duplicate",
        args: "--game stacks --bots greedy:30%,greedy --games 12 --seed 6 --duplicate",
        jobs: &[1, 2],
    },
];

/// The three outputs compared: the golden file's extension and the file
/// the run wrote (`None`: stdout).
const OUTPUTS: [(&str, Option<&str>); 3] = [
    ("json", None),
    ("csv", Some("arena.csv")),
    ("svg", Some("arena.svg")),
];

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/arena")
}

/// Runs `case` with `jobs` into `out`; its JSON, CSV and SVG in the order
/// of [`OUTPUTS`].
fn run(case: &Case, jobs: usize, out: &Path) -> Vec<Vec<u8>> {
    let jobs = jobs.to_string();
    let mut args: Vec<&str> = vec!["arena"];
    args.extend(case.args.split_whitespace());
    args.extend(["--format", "json", "--jobs", &jobs]);
    args.extend(["--out", out.to_str().expect("a UTF-8 temporary path")]);
    let o = Command::new(env!("CARGO_BIN_EXE_sequence"))
        .args(&args)
        .output()
        .expect("sequence runs");
    assert!(
        o.status.success(),
        "sequence {}: {:?}\n{}",
        args.join(" "),
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    OUTPUTS
        .iter()
        .map(|(_, file)| match file {
            None => o.stdout.clone(),
            Some(f) => std::fs::read(out.join(f)).expect("the arena's file"),
        })
        .collect()
}

/// Every case's outputs equal its golden files byte for byte, with every
/// `--jobs` value it lists. All differences are reported, not the first.
#[test]
fn arena_outputs_match_the_golden_files() {
    let write = golden::writing();
    let tmp = tempfile::tempdir().expect("temp dir");
    let mut failures = Vec::new();
    for case in CASES {
        for (k, &jobs) in case.jobs.iter().enumerate() {
            let out = tmp.path().join(format!("{}-j{jobs}", case.name));
            let got = run(case, jobs, &out);
            for ((ext, _), bytes) in OUTPUTS.iter().zip(&got) {
                let path = golden_dir().join(format!("{}.{ext}", case.name));
                // Recording: the first --jobs value writes, the others are
                // compared with what it wrote.
                if write && k == 0 {
                    std::fs::create_dir_all(golden_dir()).expect("fixtures folder");
                    std::fs::write(&path, bytes).expect("write a golden file");
                    continue;
                }
                let want = std::fs::read(&path).unwrap_or_else(|e| {
                    panic!(
                        "{}: {e} (SEQUENCE_GOLDEN_WRITE=1 records it)",
                        path.display()
                    )
                });
                if *bytes != want {
                    failures.push(format!(
                        "{} --jobs {jobs}: {}.{ext} differs at {}",
                        case.args,
                        case.name,
                        golden::first_difference(bytes, &want)
                    ));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "arena output differs from tests/fixtures/arena:\n{}",
        failures.join("\n")
    );
}

/// Every file in `tests/fixtures/arena` is a case's: a case removed takes
/// its golden files with it. (Not while recording: the folder is being
/// written.)
#[test]
fn every_golden_file_belongs_to_a_case() {
    if golden::writing() {
        return;
    }
    let names: Vec<String> = CASES
        .iter()
        .flat_map(|c| {
            OUTPUTS
                .iter()
                .map(move |(ext, _)| format!("{}.{ext}", c.name))
        })
        .collect();
    let dir = std::fs::read_dir(golden_dir()).expect("tests/fixtures/arena");
    for entry in dir {
        let name = entry.expect("entry").file_name();
        let name = name.to_string_lossy();
        assert!(
            names.iter().any(|n| *n == name),
            "tests/fixtures/arena/{name} belongs to no case"
        );
    }
}
