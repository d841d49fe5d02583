//! Several instances on one PostgreSQL (runs only when
//! `SEQUENCE_TEST_POSTGRES_URL` is set; each test makes a database of its
//! own): two and three instances, over a thousand races each of different
//! legal moves with the same `move_number` for the same seat sent at the
//! same moment to different instances. Exactly one is accepted every
//! time, the others get 409 with the table's `move_number`; the finished
//! games' records are the same on every instance, replay with the
//! engines and hold every accepted move at its place; WebSockets on every
//! instance see every move.

use crate::cluster;
use crate::common;

use cluster::{bare, instance, quick, verify_record, PgDb};
use common::Server;
use futures_util::future::join_all;
use rand::seq::IndexedRandom;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// What one table's races came to.
#[derive(Default)]
struct Outcome {
    races: usize,
    games: usize,
}

/// The token of the seat to act at table `id` (read on `s`), its view.
async fn to_act(s: &Server, id: &str, tokens: &[String]) -> Option<(usize, Value)> {
    for (i, t) in tokens.iter().enumerate() {
        let v = s.view(id, Some(t)).await;
        if v["table"]["status"] != "playing" {
            return None;
        }
        if !v["legal_moves"].as_array().is_none_or(Vec::is_empty) {
            return Some((i, v));
        }
    }
    None
}

/// Races at one table until `target` races are run in all (counted in
/// `done`), finished games checked on every instance.
async fn race_table(
    servers: Arc<Vec<Server>>,
    game: &'static str,
    seed: u64,
    done: Arc<AtomicUsize>,
    target: usize,
) -> Outcome {
    let n = servers.len();
    let body = if game == "classic" {
        json!({"game": "classic", "players": 2, "name": "Ann", "options": {"sequence_length": 4, "win_sequences": 1}})
    } else {
        json!({"game": "stacks", "players": 2, "name": "Ann"})
    };
    let (id, host) = servers[0].create(body).await;
    // the second seat is taken on another instance: its token works
    // everywhere at once
    let (_, guest) = servers[1 % n].join(&id, "Bob").await;
    let tokens = vec![host, guest];
    let mut rng = sequence_common::rng::game_rng(seed);
    let mut out = Outcome::default();
    // accepted moves of the current game, by move number
    let mut accepted: BTreeMap<u64, Value> = BTreeMap::new();
    let mut game_no = 1u64;
    let mut turn = 0usize;
    while done.load(Ordering::Relaxed) < target {
        turn += 1;
        let reader = &servers[turn % n];
        let Some((seat, v)) = to_act(reader, &id, &tokens).await else {
            // over: the record is the same on every instance
            let mut records = vec![];
            for s in servers.iter() {
                let (st, rec) = s
                    .call(
                        "GET",
                        &format!("/api/tables/{id}/record?game={game_no}"),
                        None,
                        None,
                    )
                    .await;
                assert_eq!(st, 200, "{rec}");
                records.push(rec);
            }
            for r in &records[1..] {
                assert_eq!(
                    r, &records[0],
                    "table {id}: records differ between instances"
                );
            }
            verify_record(game, &records[0]);
            // every accepted move at its place, nothing else (a declined
            // Block, `pass`, is not a record entry)
            let moves: Vec<Value> = records[0]["moves"]
                .as_array()
                .expect("moves")
                .iter()
                .map(|m| bare(m.clone()))
                .collect();
            let expected: Vec<Value> = accepted
                .values()
                .filter(|m| m.get("pass").is_none())
                .map(|m| bare(m.clone()))
                .collect();
            assert_eq!(
                moves, expected,
                "table {id} game {game_no}: the accepted moves"
            );
            out.games += 1;
            accepted.clear();
            game_no += 1;
            let (st, e) = servers[turn % n]
                .at("POST", &id, "rematch", Some(&tokens[0]), None)
                .await;
            assert_eq!(st, 200, "rematch: {e}");
            continue;
        };
        let number = v["move_number"].as_u64().expect("move_number");
        let legal = v["legal_moves"].as_array().expect("legal moves").clone();
        // different legal moves when there are enough, one per instance
        let mut picks: Vec<Value> = legal.choose_multiple(&mut rng, n).cloned().collect();
        while picks.len() < n {
            picks.push(picks[0].clone());
        }
        let token = &tokens[seat];
        let sends = servers
            .iter()
            .zip(&picks)
            .map(|(s, mv)| s.play(&id, Some(token), number, mv));
        let answers = join_all(sends).await;
        let winners: Vec<usize> = answers
            .iter()
            .enumerate()
            .filter(|(_, (st, _))| *st == 200)
            .map(|(i, _)| i)
            .collect();
        assert_eq!(
            winners.len(),
            1,
            "table {id} move {number}: exactly one of the racing moves is accepted: {answers:?}"
        );
        for (i, (st, body)) in answers.iter().enumerate() {
            if i == winners[0] {
                assert_eq!(body["move_number"].as_u64(), Some(number + 1), "{body}");
                continue;
            }
            assert_eq!(*st, 409, "the loser gets 409: {body}");
            assert!(
                body["move_number"].as_u64().is_some_and(|m| m > number),
                "the loser is told the table's move_number: {body}"
            );
        }
        accepted.insert(number, picks[winners[0]].clone());
        out.races += 1;
        done.fetch_add(1, Ordering::Relaxed);
    }
    // the unfinished game: the same on every instance
    let views: Vec<Value> = join_all(servers.iter().map(|s| s.view(&id, None))).await;
    for v in &views[1..] {
        for k in [
            "move_number",
            "board",
            "last_move",
            "draw_pile",
            "discard_piles",
        ] {
            assert_eq!(v.get(k), views[0].get(k), "table {id}: {k} differs");
        }
    }
    out
}

async fn races(instances: usize, tables: usize, target: usize) {
    let Some(db) = PgDb::fresh(&format!("races{instances}")).await else {
        return;
    };
    let mut servers = vec![];
    for _ in 0..instances {
        servers.push(instance(&db.url, quick()).await);
    }
    let servers = Arc::new(servers);
    // a spectator on every instance watches table 0's moves
    let done = Arc::new(AtomicUsize::new(0));
    let mut tasks = vec![];
    for i in 0..tables {
        let game = if i % 2 == 0 { "classic" } else { "stacks" };
        tasks.push(tokio::spawn(race_table(
            servers.clone(),
            game,
            1000 + i as u64,
            done.clone(),
            target,
        )));
    }
    let mut races = 0;
    let mut games = 0;
    for t in tasks {
        let o = t.await.expect("a table's races");
        races += o.races;
        games += o.games;
    }
    eprintln!("{instances} instances: {races} races, {games} finished games checked");
    assert!(races >= target, "{races} races");
    assert!(games >= 2, "games finished and were checked: {games}");
    for s in servers.iter() {
        s.running.abort();
    }
    db.drop_db().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_instances_accept_exactly_one_of_racing_moves() {
    races(2, 12, 1000).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn three_instances_accept_exactly_one_of_racing_moves() {
    races(3, 12, 1000).await;
}

/// WebSockets on every instance see the moves made on any instance, and a
/// seat taken on one instance can say hello on another at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sockets_on_every_instance_see_every_move() {
    let Some(db) = PgDb::fresh("push").await else {
        return;
    };
    let [a, b, c] = db.instances(quick()).await;
    let servers = [&a, &b, &c];
    let (id, host) = a.host("stacks", 2).await;
    let (_, guest) = b.join(&id, "Bob").await;
    // the guest's token, issued by b, works on c's WebSocket at once
    let mut gws = c.ws(&id, Some(&guest)).await;
    assert_eq!(gws.expect("welcome").await["seat"], 1);
    let mut watchers = vec![];
    for s in servers {
        watchers.push(s.ws(&id, None).await);
    }
    let tokens = [host, guest];
    let mut rng = sequence_common::rng::game_rng(5);
    let mut last = 0;
    for k in 0..40 {
        let s = servers[k % 3];
        let Some((seat, v)) = to_act(s, &id, &tokens).await else {
            break;
        };
        let mv = v["legal_moves"]
            .as_array()
            .and_then(|l| l.choose(&mut rng))
            .cloned()
            .expect("a legal move");
        let n = v["move_number"].as_u64().expect("move_number");
        let (st, body) = servers[(k + 1) % 3]
            .play(&id, Some(&tokens[seat]), n, mv)
            .await;
        assert_eq!(st, 200, "{body}");
        last = n + 1;
    }
    assert!(last > 10);
    for w in watchers.iter_mut() {
        loop {
            let v = w.expect("view").await;
            if v["view"]["move_number"].as_u64() == Some(last) {
                break;
            }
        }
    }
    // the guest's socket on c saw the last move too, and the host shows
    // as connected on every instance (the guest's socket is on c)
    loop {
        let v = gws.expect("view").await;
        if v["view"]["move_number"].as_u64() == Some(last) {
            break;
        }
    }
    for s in servers {
        let mut seen = false;
        for _ in 0..50 {
            let (_, info) = s
                .call("GET", &format!("/api/tables/{id}"), None, None)
                .await;
            if info["seats"][1]["connected"] == true {
                seen = true;
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        assert!(seen, "seat 1's socket on c shows on {}", s.base);
    }
    for s in servers {
        s.running.abort();
    }
    db.drop_db().await;
}
