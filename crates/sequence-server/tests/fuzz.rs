//! Fuzzing on arbitrary bytes (proptest): parsing WebSocket messages,
//! moves and records, and applying arbitrary move JSON to live tables,
//! never panics and never changes a table on refusal.

use proptest::prelude::*;
use sequence_server::error::status_of;
use sequence_server::tables::{Core, Event, GameKind, Spec, Table};
use sequence_server::ws::parse_client;
use serde_json::{json, Value};

fn table(game: GameKind) -> Core {
    let mut c = Core::new("00000000000000aa".into(), Spec::plain(game, 2, "t"));
    for s in 0..2u8 {
        c.apply(&Event::Bot {
            seat: s,
            level: "random".into(),
        })
        .unwrap();
    }
    c.apply(&Event::Start { seed: 5 }).unwrap();
    c
}

/// JSON values shaped like moves: objects with move keys and odd values.
fn move_like() -> impl Strategy<Value = Value> {
    let key = prop::sample::select(vec![
        "seat", "card", "at", "remove", "dead", "pass", "discard", "declare", "play", "to", "from",
        "target", "colour", "end", "x",
    ]);
    let val = prop_oneof![
        any::<i64>().prop_map(|n| json!(n)),
        any::<bool>().prop_map(|b| json!(b)),
        "[A-Z0-9a-z\\-]{0,10}".prop_map(|s| json!(s)),
        prop::sample::select(vec![
            "7H",
            "JD",
            "JS",
            "e5",
            "a1",
            "j10",
            "B3",
            "WILD-RED",
            "SKIP",
            "blue-a",
            "discard",
            "STEAL-CHIP",
            "red"
        ])
        .prop_map(|s| json!(s)),
        Just(json!([["a1", "a5"]])),
        Just(Value::Null),
    ];
    prop::collection::vec((key, val), 0..6)
        .prop_map(|kv| Value::Object(kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect()))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn ws_messages_from_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = parse_client(&text);
    }

    #[test]
    fn ws_json_messages_never_panic(ty in prop::sample::select(vec!["hello", "move", "chat", "ping", "x"]), extra in move_like()) {
        let mut v = extra.clone();
        v["type"] = json!(ty);
        let _ = parse_client(&v.to_string());
        let m = json!({"type": "move", "move_number": 3, "move": extra});
        let _ = parse_client(&m.to_string());
    }

    #[test]
    fn records_from_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = sequence_classic::record::Record::from_json_str(&text);
        let _ = sequence_stacks::Record::from_json_str(&text);
    }

    #[test]
    fn moves_from_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        if let Ok(v) = serde_json::from_slice::<Value>(&bytes) {
            let _ = sequence_classic::record::move_from_json(&v, 5);
            let _ = sequence_stacks::record::input_from_json(&v);
        }
    }

    #[test]
    fn arbitrary_moves_on_live_tables_are_refused_cleanly(mv in move_like(), stacks in any::<bool>()) {
        let mut c = table(if stacks { GameKind::Stacks } else { GameKind::Classic });
        let before = (c.moves, c.next_seq, c.to_act());
        let mut copy = c.clone();
        match copy.apply(&Event::Move {
            mv: mv.clone().into(),
        }) {
            Ok(()) => {
                prop_assert_eq!(copy.moves, before.0 + 1);
            }
            Err(e) => {
                let status = status_of(&e);
                prop_assert!([400u16, 409, 422].contains(&status.as_u16()), "{} {}", status, e);
                prop_assert!(!e.message().is_empty());
                // a refused move changes nothing
                prop_assert_eq!((copy.moves, copy.next_seq, copy.to_act()), before);
                // (`table.now_ms` is the server's clock, for countdowns)
                let view = |core: &Core| {
                    let mut v = Table::new(core.clone()).view(Some(0));
                    v["table"]["now_ms"] = Value::Null;
                    v
                };
                prop_assert_eq!(view(&copy), view(&c));
            }
        }
        c.apply(&Event::Rematch).unwrap_err();
    }
}
