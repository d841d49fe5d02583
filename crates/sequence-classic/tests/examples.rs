//! Every record in `shared/examples/` verifies and matches its
//! `.expected.json`; every record in `shared/examples/illegal/` is refused
//! at the move its `expected.json` names (RECORD.md "Verifying").

use sequence_classic::record::{replay as replay_value, Record};
use sequence_common::record::ReplayError;
use sequence_common::Notation;
use serde_json::Value;
use std::path::PathBuf;

fn examples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/examples")
}

fn read(p: &PathBuf) -> Value {
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

#[test]
fn shared_examples_verify_and_match_expected() {
    let mut n = 0;
    for entry in std::fs::read_dir(examples()).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if !name.ends_with(".json") || name.ends_with(".expected.json") {
            continue;
        }
        let record = read(&path);
        let expected = read(&path.with_file_name(name.replace(".json", ".expected.json")));
        let mut moves = 0;
        let (rec, game) = replay_value(&record, |_, _, _, _| moves += 1)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let got = game.summary(moves);
        for (k, v) in expected.as_object().unwrap() {
            assert_eq!(&got[k], v, "{name}: field {k}");
        }
        // Written back out, the record replays to the same game.
        let (again, game2) = Record::from_json_str(&rec.to_json_string()).unwrap();
        assert_eq!(again, rec, "{name}: round trip");
        assert_eq!(game2.board_rows(), game.board_rows());
        n += 1;
    }
    assert!(n >= 6, "found {n} example records");
}

#[test]
fn shared_illegal_examples_refused_at_the_named_move() {
    let dir = examples().join("illegal");
    let expected = read(&dir.join("expected.json"));
    let mut n = 0;
    for (file, exp) in expected.as_object().unwrap() {
        let record = read(&dir.join(file));
        let err = replay_value(&record, |_, _, _, _| {})
            .map(|_| ())
            .unwrap_err();
        let ReplayError::Move(m) = &err else {
            panic!("{file}: {err}")
        };
        assert_eq!(
            m.index as u64,
            exp["first_illegal_move"].as_u64().unwrap(),
            "{file}: {err}"
        );
        assert_eq!(m.why, exp["why"].as_str().unwrap(), "{file}");
        assert_eq!(err.exit_code(), 1);
        n += 1;
    }
    assert_eq!(n, 7);
}

/// Regression (tester): a move with an unknown key (`"extra":1`) was
/// reported as an illegal move. It is a malformed move naming the key,
/// with its own code; RECORD.md's "Verifying" gives it exit 1 ("the first
/// illegal or malformed entry").
#[test]
fn a_move_with_an_unknown_key_is_a_malformed_move() {
    let mut v = first_example();
    v["moves"][3]["extra"] = Value::from(1);
    let err = err_of(&v);
    let ReplayError::Move(m) = &err else {
        panic!("{err}")
    };
    assert_eq!(m.index, 3);
    assert_eq!(m.why, "malformed move: unknown key `extra`");
    assert_eq!(m.malformed, Some("notation.unknown_key"));
    assert_eq!(m.code(), "record.malformed_move");
    assert_eq!(err.exit_code(), 1);
    // a move the rules refuse keeps its code
    let mut v = first_example();
    v["moves"][3]["seat"] = Value::from(1 - v["moves"][3]["seat"].as_u64().unwrap());
    let ReplayError::Move(m) = err_of(&v) else {
        panic!("a move error")
    };
    assert_eq!((m.malformed, m.code()), (None, "record.illegal_move"));
}

fn first_example() -> Value {
    read(&examples().join("2p-blue-vs-green.json"))
}

fn err_of(v: &Value) -> ReplayError {
    replay_value(v, |_, _, _, _| {}).map(|_| ()).unwrap_err()
}

/// How the first example is refused after `edit`: the exit code and the
/// message.
fn refusal(edit: impl FnOnce(&mut Value)) -> (i32, String) {
    let mut v = first_example();
    edit(&mut v);
    let e = err_of(&v);
    (e.exit_code(), e.to_string())
}

#[test]
fn bad_input_names_the_field() {
    let (code, e) = refusal(|v| v["colour"] = Value::from("blue"));
    assert_eq!(code, 2);
    assert!(e.contains("unknown key `colour`"), "{e}");

    let (code, e) = refusal(|v| v["deck"][3] = Value::from("1X"));
    assert_eq!(code, 2);
    assert!(e.contains("deck") && e.contains("1X"), "{e}");

    let (code, e) = refusal(|v| v["deck"][3] = v["deck"][4].clone());
    assert_eq!(code, 2);
    assert!(e.contains("two standard decks"), "{e}");

    let (code, e) = refusal(|v| v["moves"][2]["at"] = Value::from("k11"));
    assert_eq!(code, 1);
    assert!(e.starts_with("move 2 ") && e.contains("k11"), "{e}");

    let (_, e) = refusal(|v| v["moves"][0]["seat"] = Value::from("one"));
    assert!(e.starts_with("move 0 ") && e.contains("seat"), "{e}");

    let (code, e) = refusal(|v| v["players"] = Value::from(5));
    assert_eq!(code, 2);
    assert!(e.contains("C3"), "{e}");

    // Regression (fresh-user test): `options` must be an object.
    for bad in [Value::Null, serde_json::json!([])] {
        let (code, e) = refusal(|v| v["options"] = bad);
        assert_eq!(code, 2);
        assert!(e.contains("field `options`"), "{e}");
    }

    let mut v = first_example();
    v["result"] = serde_json::json!({"winner": "blue"});
    assert!(matches!(err_of(&v), ReplayError::ResultMismatch(_)));

    let text = std::fs::read_to_string(examples().join("2p-blue-vs-green.json")).unwrap();
    let e = Record::from_json_str(&text[..text.len() / 2])
        .map(|_| ())
        .unwrap_err();
    assert_eq!(e.exit_code(), 2);
    assert!(e.to_string().contains("ends early (line 1, column"), "{e}");

    // Regression (fresh-user test): an empty file, a key written twice, a
    // byte-order mark, two move kinds in one entry, an option of the wrong
    // type.
    let e = Record::from_json_str("").map(|_| ()).unwrap_err();
    assert_eq!(e.exit_code(), 2);
    assert!(e.to_string().contains("empty"), "{e}");
    let dup = text.replacen(r#""players": "#, r#""players": 3, "players": "#, 1);
    assert_ne!(dup, text, "the example names its players");
    let e = Record::from_json_str(&dup).map(|_| ()).unwrap_err();
    assert_eq!(e.exit_code(), 2);
    assert!(e.to_string().contains("duplicate key `players`"), "{e}");
    assert!(Record::from_json_str(&format!("\u{feff}{text}")).is_ok());
    let mut v = first_example();
    v["moves"][0]["remove"] = Value::from("a2");
    let e = err_of(&v).to_string();
    assert!(
        e.starts_with("move 0 ") && e.contains("does not go with"),
        "{e}"
    );
    // Regression (fresh-user test): outside input is quoted cut to 40
    // characters (the server passes these messages on).
    let mut v = first_example();
    v["moves"][0]["card"] = Value::from("y".repeat(5000));
    let e = err_of(&v).to_string();
    assert!(e.contains(&format!("{}…", "y".repeat(40))), "{e}");
    assert!(e.len() < 400, "{}", e.len());
    let mut v = first_example();
    v["moves"][0]["x".repeat(500)] = Value::from(1);
    let e = err_of(&v).to_string();
    assert!(e.contains("unknown key") && e.len() < 800, "{e}");
    let mut v = first_example();
    v["options"] = serde_json::json!({"sequence_length": "5"});
    let e = err_of(&v).to_string();
    assert!(
        e.contains("field `options`: sequence_length must be 5 or 4 (C11), got the string \"5\""),
        "{e}"
    );
}
