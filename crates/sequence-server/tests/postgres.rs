//! PostgreSQL: runs only when `SEQUENCE_TEST_POSTGRES_URL` is set (e.g.
//! `postgres://sequence:sequence@127.0.0.1/sequence_test`). Two server
//! instances share one database: a move made on one is seen by the other,
//! a stale move on the other is refused, and a game played alternately on
//! both ends with a record that replays.

use crate::common;

use serde_json::json;

/// An instance on the database `url` with the tests' settings.
async fn on(url: &str) -> common::Server {
    let dir = tempfile::tempdir().expect("temp dir");
    common::server_on(dir, url.to_string(), 0).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_share_one_postgres_database() {
    let Some(url) = common::postgres::url("test") else {
        return;
    };
    let a = on(&url).await;
    let b = on(&url).await;
    let (id, host) = a.create(json!({"game": "classic", "players": 2, "name": "Ann", "options": {"sequence_length": 4, "win_sequences": 1}})).await;
    let (_, guest) = b.join(&id, "Bob").await; // joined through the other instance
    let tokens = [host, guest];
    // a socket on instance b hears about moves made on instance a
    let mut watch = b.ws(&id, None).await;
    {
        let v = a.view(&id, Some(&tokens[0])).await;
        let t = if v["legal_moves"].as_array().unwrap().is_empty() {
            &tokens[1]
        } else {
            &tokens[0]
        };
        let v = a.view(&id, Some(t)).await;
        let mv = v["legal_moves"][0].clone();
        let (st, _) = a.play(&id, Some(t), 0, &mv).await;
        assert_eq!(st, 200);
        loop {
            let v = watch.expect("view").await;
            if v["view"]["move_number"] == 1 {
                break;
            }
        }
    }
    let mut rng = sequence_common::rng::game_rng(3);
    let mut i = 0usize;
    loop {
        let (this, other) = if i.is_multiple_of(2) {
            (&a, &b)
        } else {
            (&b, &a)
        };
        i += 1;
        let mut acted = false;
        for t in &tokens {
            let v = this.view(&id, Some(t)).await;
            if v["table"]["status"] == "over" {
                let (st, rec) = other.get(&format!("/api/tables/{id}/record"), None).await;
                assert_eq!(st, 200, "{rec}");
                let (r, _) = sequence_classic::record::Record::from_json_str(&rec.to_string())
                    .expect("replays");
                assert_eq!(r.moves.len() as u64, v["move_number"].as_u64().unwrap());
                return;
            }
            let Some(mv) = common::moves::random_legal(&v, &mut rng) else {
                continue;
            };
            let n = v["move_number"].as_u64().unwrap();
            let (st, body) = this.play(&id, Some(t), n, &mv).await;
            assert_eq!(st, 200, "{body}");
            // the other instance sees it, and refuses the same move again
            let ov = other.view(&id, Some(t)).await;
            assert_eq!(ov["move_number"].as_u64(), Some(n + 1));
            assert_eq!(ov["hand"], body["hand"]);
            let (st, _) = other.play(&id, Some(t), n, &mv).await;
            assert_eq!(st, 409);
            acted = true;
        }
        assert!(acted || i < 3, "someone could move");
        assert!(i < 3000, "game ends");
    }
}
