//! Hidden information: many random games played through the HTTP API and
//! the WebSocket. Every message each seat and a spectator receive is
//! checked against the true game state at its move number (rebuilt from the
//! server's event log): a seat's `hand` is exactly its hand, every card
//! named anywhere in a message is in the seat's own hand or public (discard
//! piles, piles, last move), spectators get no hand, the seed of the game
//! is never sent and no token appears in anything sent over the WebSocket.

use crate::common;

use common::{server, Server, Ws};
use rand::seq::IndexedRandom;
use rand::Rng;
use sequence_common::Rules;
use sequence_common::Seat;
use sequence_server::tables::{Core, Event, Spec};
use serde_json::{json, Value};
use std::collections::{HashMap, HashSet};

/// What a seat may know after `k` moves: its hand (sorted) and every card
/// it may see.
struct Truth {
    hands: Vec<Vec<String>>,
    public: HashSet<String>,
}

fn truth_of(core: &Core) -> Truth {
    let live = core.live.as_ref().expect("game").as_any();
    if let Some(m) = live.downcast_ref::<sequence_classic::record::Match>() {
        let g = m.game();
        let players = g.players();
        let mut public = HashSet::new();
        for s in 0..players {
            public.extend(g.discard_pile(Seat(s)).map(|c| c.to_string()));
        }
        if let Some((_, mv)) = g.last_move() {
            public.extend(
                sequence_classic::record::move_to_json(Seat(0), &mv, 5)
                    .as_object()
                    .unwrap()
                    .values()
                    .filter_map(|v| v.as_str().map(String::from)),
            );
        }
        let hands = (0..players)
            .map(|s| {
                let mut h: Vec<String> = g.hand(Seat(s)).iter().map(|c| c.to_string()).collect();
                h.sort();
                h
            })
            .collect();
        Truth { hands, public }
    } else if let Some(m) = live.downcast_ref::<sequence_stacks::Match>() {
        let g = m.game();
        let v = serde_json::to_value(g.view(Seat(0))).unwrap();
        let mut public = HashSet::new();
        for k in ["discard_piles", "piles", "completed", "action_discards"] {
            collect_strings(&v[k], &mut public);
        }
        // cards the engine marks as known to be in a hand (taken from a
        // discard pile everyone saw)
        for s in 0..g.players() {
            let vs = serde_json::to_value(g.view(Seat(s))).unwrap();
            collect_strings(&vs["known_in_hands"], &mut public);
        }
        if let Some((s, d)) = Rules::last_move(g) {
            collect_strings(
                &sequence_stacks::notation::decision_json(s, &d),
                &mut public,
            );
        }
        let hands = (0..g.players())
            .map(|s| {
                let mut h: Vec<String> = g
                    .hand(Seat(s))
                    .iter()
                    .map(|c| c.code().to_string())
                    .collect();
                h.sort();
                h
            })
            .collect();
        Truth { hands, public }
    } else {
        panic!("a table plays classic or Stacks")
    }
}

fn collect_strings(v: &Value, out: &mut HashSet<String>) {
    match v {
        Value::String(s) => {
            out.insert(s.clone());
        }
        Value::Array(a) => a.iter().for_each(|x| collect_strings(x, out)),
        Value::Object(o) => o.values().for_each(|x| collect_strings(x, out)),
        _ => {}
    }
}

fn is_card(kind: &str, s: &str) -> bool {
    if kind == "classic" {
        s.parse::<sequence_classic::Card>().is_ok()
    } else {
        s.len() >= 2 && s.parse::<sequence_stacks::Card>().is_ok()
    }
}

/// One client: a seat (or spectator) reading its WebSocket and, for seats,
/// moving at random by HTTP (even seats) or WebSocket (odd seats).
async fn client(
    s: &Server,
    id: String,
    seat: Option<u8>,
    token: Option<String>,
    seed: u64,
) -> Vec<(Option<u8>, String)> {
    let mut ws: Ws = s.ws(&id, token.as_deref()).await;
    let mut rng = sequence_common::rng::game_rng(seed);
    let mut got = vec![];
    let mut acted = None;
    let mut last_view: Option<Value> = None;
    while let Some((text, v)) = ws.next().await {
        got.push((seat, text));
        let view = if v["type"] == "error" {
            // the per-connection rate limit: wait and try again; a retry
            // of an old view may be stale (409)
            assert!(v["status"] == 429 || v["status"] == 409, "{v}");
            if v["status"] == 409 {
                continue;
            }
            tokio::time::sleep(std::time::Duration::from_millis(300)).await;
            acted = None;
            match last_view.clone() {
                Some(l) => l,
                None => continue,
            }
        } else if v["type"] == "view" {
            last_view = Some(v["view"].clone());
            v["view"].clone()
        } else {
            continue;
        };
        if view["table"]["status"] == "over" {
            break;
        }
        let legal = view["legal_moves"].as_array().cloned().unwrap_or_default();
        let n = view["move_number"].as_u64().unwrap_or(0);
        if legal.is_empty() || acted == Some(n) {
            continue;
        }
        acted = Some(n);
        let mv = legal.choose(&mut rng).unwrap().clone();
        if rng.random_bool(0.1) {
            ws.send(json!({"type": "chat", "text": format!("<i>move {n}</i>")}))
                .await;
        }
        if seat.unwrap_or(0).is_multiple_of(2) {
            let (st, body) = s
                .post_move(&id, token.as_deref(), json!({"move_number": n, "move": mv}))
                .await;
            assert_eq!(st, 200, "{body}");
        } else {
            ws.send(json!({"type": "move", "move_number": n, "move": mv}))
                .await;
        }
    }
    got
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_message_leaks_hidden_information() {
    let s = std::sync::Arc::new(server(0).await);
    let mut rng = sequence_common::rng::game_rng(2024);
    let mut checked = 0usize;
    for game in 0..10u64 {
        let stacks = game % 3 == 2;
        let players: u8 = if stacks {
            rng.random_range(2..=3)
        } else {
            [2u8, 3, 4][rng.random_range(0..3)]
        };
        let bot = players > 2 && rng.random_bool(0.5);
        let mut body = json!({"game": if stacks {"stacks"} else {"classic"}, "players": players, "name": "p0"});
        if !stacks {
            body["options"] = json!({"sequence_length": 4, "win_sequences": 1});
        }
        if bot {
            body["bots"] = json!([{"seat": players - 1, "level": "random"}]);
        }
        let (id, host) = s.create(body).await;
        let mut tokens = vec![host];
        let humans = if bot { players - 1 } else { players };
        let mut tasks = vec![];
        // the host and a spectator listen before the others join
        for (seat, tok) in [(Some(0u8), Some(tokens[0].clone())), (None, None)] {
            let s2 = s.clone();
            let id2 = id.clone();
            tasks.push(tokio::spawn(async move {
                client(&s2, id2, seat, tok, game * 31 + seat.map_or(99, u64::from)).await
            }));
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        for i in 1..humans {
            let (seat, tok) = s.join(&id, &format!("p{i}")).await;
            tokens.push(tok.clone());
            let s2 = s.clone();
            let id2 = id.clone();
            tasks.push(tokio::spawn(async move {
                client(&s2, id2, Some(seat), Some(tok), game * 31 + seat as u64).await
            }));
        }
        let mut messages = vec![];
        for t in tasks {
            messages.extend(t.await.expect("client"));
        }
        // the truth at every move number, from the server's own event log
        let stored = s.running.app.db.load(&id).await.unwrap().unwrap();
        let spec: Spec = serde_json::from_str(&stored.spec).unwrap();
        let mut core = Core::new(id.clone(), spec);
        let mut truth: HashMap<u64, Truth> = HashMap::new();
        let mut seed = None;
        for (_, data) in &stored.events {
            let ev: Event = serde_json::from_str(data).unwrap();
            if let Event::Start { seed: sd } = ev {
                seed = Some(sd);
            }
            core.apply(&ev).unwrap();
            if core.live.is_some() && matches!(ev, Event::Start { .. } | Event::Move { .. }) {
                truth.insert(core.moves as u64, truth_of(&core));
            }
        }
        let seed = seed.expect("game started").to_string();
        let kind = if stacks { "stacks" } else { "classic" };
        assert!(core.record().is_some(), "game {game} finished");
        for (seat, text) in &messages {
            for t in &tokens {
                assert!(
                    !text.contains(t.as_str()),
                    "a token was sent over the WebSocket: {text}"
                );
            }
            assert!(!text.contains("seed"), "{text}");
            let v: Value = serde_json::from_str(text).unwrap();
            if v["type"] != "view" {
                continue;
            }
            let view = &v["view"];
            if view["status"] == "waiting" {
                assert!(view.get("hand").is_none());
                continue;
            }
            let over = view["table"]["status"] == "over";
            if !over {
                assert!(
                    !text.contains(&seed),
                    "the seed of an unfinished game was sent: {text}"
                );
            }
            let k = view["move_number"].as_u64().unwrap();
            let tr = truth
                .get(&k)
                .unwrap_or_else(|| panic!("no state for move {k}"));
            let mut seen = HashSet::new();
            let mut body = view.clone();
            body.as_object_mut().unwrap().remove("table"); // names are not cards
                                                           // The move log is history: every card it names must have been
                                                           // public at some move up to this one (played, discarded, taken
                                                           // from a discard pile), never a card only a hand held.
            if let Some(log) = body.as_object_mut().unwrap().remove("log") {
                let mut logged = HashSet::new();
                collect_strings(&log, &mut logged);
                for c in logged.iter().filter(|c| is_card(kind, c)) {
                    assert!(
                        truth.iter().any(|(m, t)| *m <= k && t.public.contains(c)),
                        "the move log named card {c}, never public up to move {k}: {text}"
                    );
                }
            }
            collect_strings(&body, &mut seen);
            match seat {
                Some(s) => {
                    let mut hand: Vec<String> = view["hand"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|c| c.as_str().unwrap().to_string())
                        .collect();
                    hand.sort();
                    assert_eq!(hand, tr.hands[*s as usize], "seat {s} hand at move {k}");
                    for c in seen.iter().filter(|c| is_card(kind, c)) {
                        assert!(
                            tr.hands[*s as usize].contains(c) || tr.public.contains(c),
                            "seat {s} was sent card {c} it may not see at move {k}: {text}"
                        );
                    }
                }
                None => {
                    assert!(view.get("hand").is_none(), "spectator got a hand: {text}");
                    assert_eq!(view["legal_moves"], json!([]));
                    for c in seen.iter().filter(|c| is_card(kind, c)) {
                        assert!(
                            tr.public.contains(c),
                            "spectator was sent card {c} at move {k}: {text}"
                        );
                    }
                }
            }
            checked += 1;
        }
    }
    assert!(checked > 500, "checked {checked} views");
}
