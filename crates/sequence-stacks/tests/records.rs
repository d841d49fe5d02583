//! Record reading is strict (RECORD-STACKS.md): malformed files are
//! refused with exit code 2 naming the field; a malformed or illegal move
//! is a move error (exit 1) at its index; reshuffles must hold exactly the
//! cards shuffled in (S6).

use sequence_common::record::ReplayError;
use sequence_stacks::record::{replay, verify};
use sequence_stacks::{Match, Options};
use serde_json::{json, Value};

fn example(name: &str) -> Value {
    let p = format!(
        "{}/../../../shared/examples/stacks/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    serde_json::from_str(&std::fs::read_to_string(&p).expect("example")).expect("json")
}

fn malformed(v: &Value) -> String {
    match replay(v) {
        Err(e @ ReplayError::Malformed(_)) => {
            assert_eq!(e.exit_code(), 2);
            e.to_string()
        }
        Err(e) => panic!("expected malformed, got {e}"),
        Ok(_) => panic!("accepted"),
    }
}

fn move_error(v: &Value) -> (usize, String) {
    match replay(v) {
        Err(ReplayError::Move(m)) => (m.index, m.why),
        Err(e) => panic!("expected a move error, got {e}"),
        Ok(_) => panic!("accepted"),
    }
}

#[test]
fn header_errors_are_malformed_and_name_the_field() {
    let good = example("3p.json");
    let mut v = good.clone();
    v["colour"] = json!(1);
    assert!(malformed(&v).contains("unknown key `colour`"));
    let mut v = good.clone();
    v["deck"].as_array_mut().unwrap().pop();
    assert!(malformed(&v).contains("field `deck`"));
    let mut v = good.clone();
    v["deck"][0] = json!("B1");
    v["deck"][1] = json!("B1");
    let m = malformed(&v);
    assert!(m.contains("field `deck`"), "{m}");
    let mut v = good.clone();
    v["deck"][3] = json!("B7");
    assert!(malformed(&v).contains("field `deck`[3]"));
    let mut v = good.clone();
    v["players"] = json!(7);
    assert!(malformed(&v).contains("players"));
    let mut v = good.clone();
    v["options"] = json!({"no_such_option": true});
    assert!(malformed(&v).contains("field `options`"));
    let mut v = good.clone();
    v["dealer"] = json!(3);
    assert!(malformed(&v).contains("dealer"));
    let mut v = good.clone();
    v["format"] = json!("sequence-record/1");
    assert!(malformed(&v).contains("format"));
    let mut v = good;
    v.as_object_mut().unwrap().remove("moves");
    assert!(malformed(&v).contains("moves"));
}

#[test]
fn malformed_move_entries_are_move_errors_at_their_index() {
    let good = example("2p.json");
    for (bad, what) in [
        (json!({"seat": 0, "play": "B9", "to": "blue-a"}), "play"),
        (json!({"seat": 0, "play": "B1", "to": "green-a"}), "to"),
        (json!({"seat": 0, "play": "B1"}), "to"),
        (json!({"seat": 0, "discard": "R1", "extra": 1}), "extra"),
        (json!({"play": "SKIP"}), "seat"),
        (
            json!({"seat": 0, "play": "STEAL-CHIP", "target": 1}),
            "colour",
        ),
        (json!({"seat": 0, "end": false}), "end"),
        (json!({"seat": 0}), "play"),
        (json!({"seat": 9, "end": true}), "seat 9"),
        (
            json!({"seat": 0, "play": "BLOCK", "from": "discard"}),
            "from the hand",
        ),
    ] {
        let mut v = good.clone();
        v["moves"][5] = bad.clone();
        let (i, why) = move_error(&v);
        assert_eq!(i, 5, "{bad}: {why}");
        assert!(why.contains(what), "{bad}: {why}");
    }
}

#[test]
fn result_must_match_the_replay() {
    let mut v = example("2p.json");
    v["result"] = json!({"winner": 1});
    let e = replay(&v).unwrap_err();
    assert!(matches!(e, ReplayError::ResultMismatch(_)), "{e}");
    assert_eq!(e.exit_code(), 1);
    // Without `result`, fine: its last move completes a pile, and a record
    // that does not say the game ended ends inside that Block window (S5b,
    // nothing is written until someone blocks or plays on), so no winner yet.
    v.as_object_mut().unwrap().remove("result");
    assert_eq!(verify(&v).unwrap()["winner"], json!(null));
    v["result"] = json!({"winner": 0});
    assert_eq!(verify(&v).unwrap()["winner"], json!(0));
}

#[test]
fn s6_reshuffles_recorded_and_checked() {
    let good = example("4p.json");
    assert!(verify(&good).is_ok());
    // Missing reshuffle: a move error where the draw pile ran out.
    let mut v = good.clone();
    v.as_object_mut().unwrap().remove("reshuffles");
    let (_, why) = move_error(&v);
    assert!(why.contains("reshuffles") && why.contains("S6"), "{why}");
    // A reshuffle that is not a permutation of the cards shuffled in.
    let mut v = good.clone();
    let r = v["reshuffles"][0].as_array_mut().unwrap();
    let swap_to = if r[0] == json!("SKIP") { "B1" } else { "SKIP" };
    r[0] = json!(swap_to);
    let (_, why) = move_error(&v);
    assert!(why.contains("not a permutation"), "{why}");
    // An extra, unused reshuffle.
    let mut v = good;
    let extra = v["reshuffles"][0].clone();
    v["reshuffles"].as_array_mut().unwrap().push(extra);
    assert!(matches!(replay(&v), Err(ReplayError::ResultMismatch(_))));
}

#[test]
fn moves_after_the_end_are_refused() {
    let mut v = example("3p.json");
    v["moves"]
        .as_array_mut()
        .unwrap()
        .push(json!({"seat": 0, "end": true}));
    let (i, why) = move_error(&v);
    assert_eq!(i, 61);
    assert!(why.contains("over"), "{why}");
}

#[test]
fn match_records_options_that_differ_from_the_defaults() {
    let o = Options::from_json(&json!({"block_window": "next_player"})).unwrap();
    let m = Match::new(sequence_stacks::Config::new(5, o).unwrap(), 9);
    let j = m.record().expect("dealt from a seed").to_json();
    assert_eq!(j["options"], json!({"block_window": "next_player"}));
    assert_eq!(j["deck"].as_array().unwrap().len(), 120);
    assert_eq!(j["format"], json!("sequence-stacks-record/1"));
    assert!(sequence_stacks::Config::new(7, Options::default()).is_err());
}

/// Regression (fresh-user test): keys of two kinds of move in one entry are
/// named as a combination, not as "unknown"; a key written twice, an empty
/// text and an option of the wrong type are refused with words.
#[test]
fn mixed_moves_duplicate_keys_and_wrong_types_are_explained() {
    let good = example("3p.json");
    let mut v = good.clone();
    v["moves"][1]["target"] = json!(0);
    let (i, why) = move_error(&v);
    assert_eq!(i, 1);
    assert!(
        why.contains("`target` does not go with `play: BW`"),
        "{why}"
    );
    let mut v = good.clone();
    v["moves"][0]["end"] = json!(true);
    let (_, why) = move_error(&v);
    assert!(why.contains("does not go with `discard`"), "{why}");
    let mut v = good.clone();
    v["moves"][0]["bogus"] = json!(true);
    let (_, why) = move_error(&v);
    assert_eq!(why, "malformed move: unknown key `bogus`");
    match replay(&v) {
        Err(ReplayError::Move(m)) => assert_eq!(m.code(), "record.malformed_move"),
        Err(e) => panic!("expected a move error, got {e}"),
        Ok(_) => panic!("accepted"),
    }

    let text = good.to_string();
    let dup = text.replacen(r#""players":"#, r#""players":4,"players":"#, 1);
    assert_ne!(dup, text);
    let e = sequence_stacks::Record::from_json_str(&dup)
        .map(|_| ())
        .unwrap_err();
    assert_eq!(e.exit_code(), 2);
    assert!(e.to_string().contains("duplicate key `players`"), "{e}");
    let e = sequence_stacks::Record::from_json_str("  ")
        .map(|_| ())
        .unwrap_err();
    assert!(e.to_string().contains("empty"), "{e}");

    let mut v = good.clone();
    v["options"] = json!({"piles_per_colour": "2"});
    let m = malformed(&v);
    assert!(
        m.contains("piles_per_colour must be 1, 2, 3 or 4 (S3a), got the string \"2\"")
            && !m.contains("u8"),
        "{m}"
    );
}
