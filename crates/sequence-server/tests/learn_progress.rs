//! Learning progress in an account (docs/api.md "Learning progress"):
//! puzzles solved and tutorial steps merged from several browsers — a
//! union of solved puzzles, the furthest step, "finished" kept — never
//! lost; the CSRF token needed; bad fields refused naming them; ids of no
//! shipped puzzle left out; the public counts on a profile; gone with a
//! deleted account. The same on SQLite and on PostgreSQL
//! (`SEQUENCE_TEST_POSTGRES_URL`, two instances sharing one database).

use crate::common;

use common::accounts::{Browser, PW};
use serde_json::{json, Value};

const PATH: &str = "/api/account/progress";

/// The first `n` shipped puzzle ids of `game`, in order.
fn shipped(game: &str, n: usize) -> Vec<String> {
    let ids = &sequence_server::learn::catalogue().puzzles[game];
    ids.iter().take(n).cloned().collect()
}

fn ids(v: &Value) -> Vec<&str> {
    v.as_array()
        .expect("a list of ids")
        .iter()
        .map(|x| x.as_str().expect("an id"))
        .collect()
}

/// The whole exchange; `two` is the base URL a second browser uses (the
/// same server, or another instance on the same database).
async fn progress_is_merged_never_lost(one: &str, two: &str) {
    let c = shipped("classic", 3);
    let (c1, c2, c3) = (c[0].as_str(), c[1].as_str(), c[2].as_str());
    let s1 = shipped("stacks", 1)[0].clone();
    let mut guest = Browser::at(one);
    assert_eq!(guest.get(PATH).await.0, 401, "not signed in");
    let mut a = Browser::at(one);
    let (st, body) = a.sign_up("Lena", PW).await;
    assert_eq!(st, 201, "{body}");
    let (st, p) = a.get(PATH).await;
    assert_eq!(st, 200, "{p}");
    assert_eq!(p["puzzles"], json!({"classic": [], "stacks": []}));
    let steps = p["tutorials"]["stacks"]["steps"].as_i64().expect("steps");
    assert!(steps >= 5, "{p}");
    assert_eq!(p["tutorials"]["classic"]["step"], 0);
    assert_eq!(p["tutorials"]["classic"]["done"], false);

    // a change carries the CSRF token
    let first = json!({
        "puzzles": {"classic": [c3, c1, "classic-999", c1]},
        "tutorials": {"stacks": {"step": 4}}
    });
    let (st, body) = a
        .send(reqwest::Method::POST, PATH, Some(&first), false)
        .await;
    assert_eq!(st, 403, "{body}");
    let (st, p) = a.post(PATH, &first).await;
    assert_eq!(st, 200, "{p}");
    assert_eq!(ids(&p["puzzles"]["classic"]), [c1, c3]);
    assert_eq!(p["ignored"], json!(["classic-999"]), "no such puzzle");
    assert_eq!(p["tutorials"]["stacks"]["step"], 4);

    // another browser signs in (maybe at another instance) with progress
    // of its own: the union, the furthest step, "finished" kept
    let mut b = Browser::signed_in(two, "lena").await;
    let second = json!({
        "puzzles": {"classic": [c2, c3], "stacks": [s1]},
        "tutorials": {"stacks": {"step": 2, "done": false}, "classic": {"step": 3, "done": true}}
    });
    let (st, p) = b.post(PATH, &second).await;
    assert_eq!(st, 200, "{p}");
    assert_eq!(ids(&p["puzzles"]["classic"]), [c1, c2, c3]);
    assert_eq!(ids(&p["puzzles"]["stacks"]), [s1.as_str()]);
    assert_eq!(p["tutorials"]["stacks"]["step"], 4, "never goes back");
    assert_eq!(p["tutorials"]["classic"]["done"], true);
    assert_eq!(p["ignored"], json!([]));
    // the first browser sees it all; a later "not done" keeps it done
    let (st, p) = a
        .post(
            PATH,
            &json!({"tutorials": {"classic": {"step": 1, "done": false}}}),
        )
        .await;
    assert_eq!(st, 200, "{p}");
    assert_eq!(
        p["tutorials"]["classic"],
        json!({"step": 3, "steps": p["tutorials"]["classic"]["steps"], "done": true})
    );
    let (_, again) = a.get(PATH).await;
    assert_eq!(again["puzzles"], p["puzzles"]);

    // bad input is refused naming the field, and nothing is stored
    for (bad, words) in [
        (json!({"puzzles": {"chess": ["x"]}}), "`chess`"),
        (
            json!({"tutorials": {"stacks": {"step": steps + 1}}}),
            "tutorials.stacks.step",
        ),
        (
            json!({"tutorials": {"stacks": {"step": -1}}}),
            "tutorials.stacks.step",
        ),
        (json!({"puzzles": {"classic": [1]}}), "puzzles"),
        (json!({"solved": []}), "solved"),
    ] {
        let (st, body) = a.post(PATH, &bad).await;
        assert_eq!(st, 400, "{bad}: {body}");
        assert!(common::error_of(&body).contains(words), "{bad}: {body}");
    }
    let many: Vec<String> = (0..1001).map(|i| format!("classic-{i:03}")).collect();
    let (st, body) = a.post(PATH, &json!({"puzzles": {"classic": many}})).await;
    assert!(st == 400 || st == 413, "{st} {body}");
    let (_, after) = a.get(PATH).await;
    assert_eq!(after["puzzles"], p["puzzles"], "nothing stored");

    // the profile shows the counts (to anyone)
    let (st, public) = guest.get("/api/users/LENA/progress").await;
    assert_eq!(st, 200, "{public}");
    assert_eq!(public["name"], "Lena");
    assert_eq!(public["puzzles"]["classic"]["solved"], 3);
    assert_eq!(public["puzzles"]["stacks"]["solved"], 1);
    assert!(public["puzzles"]["classic"]["total"].as_u64() >= Some(200));
    assert_eq!(public["tutorials"]["stacks"]["step"], 4);
    assert_eq!(guest.get("/api/users/nobody_x/progress").await.0, 404);

    // a deleted account's progress goes with it
    let (st, body) = a
        .post("/api/account/delete", &json!({"password": PW}))
        .await;
    assert_eq!(st, 200, "{body}");
    assert_eq!(guest.get("/api/users/Lena/progress").await.0, 404);
    let mut c = Browser::signed_up(one, "Lena").await;
    let (_, fresh) = c.get(PATH).await;
    assert_eq!(fresh["puzzles"], json!({"classic": [], "stacks": []}));
    assert_eq!(fresh["tutorials"]["stacks"]["step"], 0);
}

#[tokio::test]
async fn progress_on_sqlite() {
    let s = common::server(0).await;
    progress_is_merged_never_lost(&s.base, &s.base).await;
    s.running.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn progress_on_postgres_across_instances() {
    let Some(pg) = common::postgres::Pair::start("seq_learn_progress", "progress test").await
    else {
        return;
    };
    progress_is_merged_never_lost(&pg.one.base, &pg.two.base).await;
    pg.stop().await;
}
