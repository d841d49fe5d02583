//! Every record in shared/examples/stacks verifies and matches its
//! `.expected.json`; every record in examples/stacks/illegal is refused at
//! the index its expected.json gives (RECORD-STACKS.md).

use sequence_common::record::ReplayError;
use sequence_stacks::record::{replay, verify};
use serde_json::Value;
use std::path::PathBuf;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/examples/stacks")
}

fn read(p: &std::path::Path) -> Value {
    let text = std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn examples_verify_and_match_expected() {
    let mut n = 0;
    for entry in std::fs::read_dir(dir()).expect("examples/stacks") {
        let p = entry.expect("entry").path();
        let name = p
            .file_name()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_string();
        if !name.ends_with(".json") || name.ends_with(".expected.json") {
            continue;
        }
        let expected = read(&p.with_file_name(name.replace(".json", ".expected.json")));
        let got = verify(&read(&p)).unwrap_or_else(|e| panic!("{name}: {e}"));
        for (k, v) in expected.as_object().expect("object") {
            assert_eq!(got.get(k), Some(v), "{name}: field {k}: got {got}");
        }
        n += 1;
    }
    assert!(n >= 4, "only {n} examples found");
}

#[test]
fn illegal_examples_refused_at_their_index() {
    let exp = read(&dir().join("illegal/expected.json"));
    let exp = exp.as_object().expect("object");
    assert!(exp.len() >= 6);
    for (name, e) in exp {
        let want_index = e["first_illegal_move"].as_u64().expect("index") as usize;
        let want_why = e["why"].as_str().expect("why");
        match replay(&read(&dir().join("illegal").join(name))) {
            Err(ReplayError::Move(m)) => {
                assert_eq!(m.index, want_index, "{name}: {m}");
                assert_eq!(m.why, want_why, "{name}: {m}");
            }
            Err(other) => panic!("{name}: expected a move error, got {other}"),
            Ok(_) => panic!("{name}: accepted"),
        }
    }
}
