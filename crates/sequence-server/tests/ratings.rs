//! Ratings, history and leaderboards (docs/api.md "Profiles"): a rated
//! game between two accounts changes both ratings once, by Glicko-2, in
//! the transaction of its last move; casual tables, games with a bot and
//! games with a guest change none; a player who leaves a rated game
//! loses it; profiles list the games with their opponents, filters and
//! head-to-head work; the archive holds every record. On PostgreSQL
//! (`SEQUENCE_TEST_POSTGRES_URL`): games ended at the same time on two
//! instances, by the same players, each count exactly once.

use crate::common;

use common::accounts::{play_out, Browser, PW};
use serde_json::{json, Value};
use skillratings::glicko2::{glicko2, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

/// A short classic game for two (one sequence of four wins), rated or not.
fn classic2(rated: Option<bool>) -> Value {
    let mut v = json!({"game": "classic", "players": 2, "name": "x",
        "options": {"sequence_length": 4, "win_sequences": 1}});
    if let Some(r) = rated {
        v["rated"] = json!(r);
    }
    v
}

/// Two browsers with accounts `a` and `b`.
async fn two(base: &str, a: &str, b: &str) -> (Browser, Browser) {
    (
        Browser::signed_up(base, a).await,
        Browser::signed_up(base, b).await,
    )
}

/// Two accounts `a` and `b` seated at a new two-player classic table
/// (`rated` as in [`classic2`]): their browsers, the table's id and their
/// seat tokens (`a` at seat 0).
async fn seated(
    base: &str,
    a: &str,
    b: &str,
    rated: Option<bool>,
) -> (Browser, Browser, String, String, String) {
    let (mut x, mut y) = two(base, a, b).await;
    let (id, t0) = x.create(&classic2(rated)).await;
    let t1 = y.join(&id).await;
    (x, y, id, t0, t1)
}

/// `GET /api/account/records` as `who` (200): the ZIP archive of its
/// games' records.
async fn records(s: &common::Server, who: &Browser) -> zip::ZipArchive<std::io::Cursor<Vec<u8>>> {
    let zip = s
        .http
        .get(format!("{}/api/account/records", s.base))
        .header("cookie", who.cookie.clone().expect("cookie"))
        .send()
        .await
        .expect("archive");
    assert_eq!(zip.status().as_u16(), 200);
    let bytes = zip.bytes().await.expect("bytes");
    zip::ZipArchive::new(std::io::Cursor::new(bytes.to_vec())).expect("a zip")
}

fn rating_of(profile: &Value, kind: &str) -> Option<Value> {
    profile["ratings"]
        .as_array()?
        .iter()
        .find(|r| r["kind"] == kind)
        .cloned()
}

#[tokio::test]
async fn a_rated_game_changes_both_ratings_once_by_glicko2() {
    let s = common::server(0).await;
    let (mut ann, mut bob) = two(&s.base, "Ann", "Bob").await;
    let (id, t0) = ann.create(&classic2(None)).await;
    let (_, info) = s.get(&format!("/api/tables/{id}"), None).await;
    assert_eq!(info["rated"], true, "rated by default without bots");
    let t1 = bob.join(&id).await;
    play_out(&s, &id, &[Some(t0), Some(t1)], 3).await;
    let (_, a) = ann.get("/api/users/ann").await;
    let (_, b) = bob.get("/api/users/BOB").await;
    let (ra, rb) = (
        rating_of(&a, "classic-1v1").expect("Ann rated"),
        rating_of(&b, "classic-1v1").expect("Bob rated"),
    );
    assert_eq!(
        (ra["games"].clone(), rb["games"].clone()),
        (json!(1), json!(1))
    );
    let g = &a["recent"][0];
    assert_eq!(g["table"], id.as_str());
    assert_eq!(g["rated"], true);
    assert_eq!(g["opponents"][0]["name"], "Bob");
    assert_eq!(g["opponents"][0]["account"], "Bob");
    assert_eq!(g["replay"], format!("/replay/{id}?game=1"));
    let ann_won = g["result"] == "win";
    assert_eq!(
        b["recent"][0]["result"],
        if ann_won { "loss" } else { "win" }
    );
    // Glicko-2 from the start (1500 / 350 / 0.06) for both
    let start = Glicko2Rating::new();
    let (w, l) = glicko2(&start, &start, &Outcomes::WIN, &Glicko2Config::new());
    let (win, loss) = if ann_won { (&ra, &rb) } else { (&rb, &ra) };
    assert_eq!(win["rating"], json!(w.rating.round()), "{win}");
    assert_eq!(loss["rating"], json!(l.rating.round()), "{loss}");
    assert_eq!(win["deviation"], json!(w.deviation.round()));
    assert_eq!(win["provisional"], true);
    assert_eq!(g["rating_before"], 1500.0);
    // streaks, counts, the chart's point
    let won = if ann_won { &a } else { &b };
    assert_eq!(won["streak"], json!({"current": 1, "best": 1}));
    assert_eq!(
        won["stats"][0],
        json!({"kind": "classic-1v1", "played": 1, "won": 1, "lost": 0, "drawn": 0})
    );
    assert_eq!(won["history"][0]["points"][0][1], json!(w.rating.round()));
    // viewing the table again, reloading it or a rematch's waiting does not rate it again
    let (_, _) = s.get(&format!("/api/tables/{id}"), None).await;
    let (_, a2) = ann.get("/api/users/Ann").await;
    assert_eq!(rating_of(&a2, "classic-1v1").expect("rated")["games"], 1);
    // filters and head-to-head
    let (st, l) = ann
        .get("/api/users/Ann/games?kind=classic-1v1&opponent=bob")
        .await;
    assert_eq!(st, 200, "{l}");
    assert_eq!(l["games"].as_array().expect("games").len(), 1);
    let other = if ann_won { "loss" } else { "win" };
    let (_, l) = ann
        .get(&format!("/api/users/Ann/games?result={other}"))
        .await;
    assert_eq!(l["games"], json!([]));
    let (_, l) = ann.get("/api/users/Ann/games?from=1&to=2").await;
    assert_eq!(l["games"], json!([]));
    let (st, l) = ann.get("/api/users/Ann/games?kind=chess").await;
    assert_eq!(st, 400, "{l}");
    for bad in ["0", "501", "-1", "x"] {
        let (st, l) = ann.get(&format!("/api/users/Ann/games?limit={bad}")).await;
        assert_eq!(st, 400, "limit={bad}: {l}");
        assert!(l.to_string().contains("`limit`"), "{l}");
    }
    for good in ["1", "500"] {
        let (st, l) = ann.get(&format!("/api/users/Ann/games?limit={good}")).await;
        assert_eq!((st, l["games"].as_array().map(Vec::len)), (200, Some(1)));
    }
    let (_, h) = ann.get("/api/users/Ann/vs/Bob").await;
    let c = &h["counts"][0];
    assert_eq!(
        c["won"].as_u64().unwrap_or(9) + c["lost"].as_u64().unwrap_or(9),
        1,
        "{h}"
    );
    // provisional players are not on the leaderboard
    let (st, board) = ann.get("/api/leaderboard/classic-1v1").await;
    assert_eq!((st, &board["players"]), (200, &json!([])));
    assert_eq!(ann.get("/api/leaderboard/chess").await.0, 404);
    assert_eq!(ann.get("/api/users/Nobody").await.0, 404);
    // the archive holds the record
    let mut archive = records(&s, &ann).await;
    assert_eq!(archive.len(), 1);
    let file = archive.by_index(0).expect("file");
    assert_eq!(file.name(), format!("{id}-1.json"));
    let record: Value = serde_json::from_reader(file).expect("a record");
    assert!(record["moves"].as_array().is_some_and(|m| !m.is_empty()));
    s.running.abort();
}

#[tokio::test]
async fn casual_bot_and_guest_games_change_no_rating() {
    let s = common::server(0).await;
    // casual by the host's choice
    let (mut cy, _di, id, t0, t1) = seated(&s.base, "Cyd", "Dina", Some(false)).await;
    play_out(&s, &id, &[Some(t0), Some(t1)], 5).await;
    // a bot at the table
    let mut with_bot = classic2(None);
    with_bot["bots"] = json!([{"seat": 1, "level": "random"}]);
    let (id2, t0) = cy.create(&with_bot).await;
    let (_, info) = s.get(&format!("/api/tables/{id2}"), None).await;
    assert_eq!(info["rated"], false);
    play_out(&s, &id2, &[Some(t0), None], 6).await;
    // a guest opponent: the table says casual as soon as the guest sits
    let (id3, t0) = cy.create(&classic2(None)).await;
    let (_, guest) = s.join(&id3, "Guest").await;
    let (_, info) = s.get(&format!("/api/tables/{id3}"), None).await;
    assert_eq!(info["rated"], false, "a guest at a seat: {info}");
    play_out(&s, &id3, &[Some(t0), Some(guest)], 7).await;
    let (_, p) = cy.get("/api/users/Cyd").await;
    assert_eq!(p["ratings"], json!([]), "{p}");
    let recent = p["recent"].as_array().expect("recent");
    assert_eq!(recent.len(), 3);
    assert!(recent.iter().all(|g| g["rated"] == false));
    assert_eq!(recent[1]["opponents"][0]["bot"], true);
    assert_eq!(recent[0]["opponents"][0]["name"], "Guest");
    assert_eq!(recent[0]["opponents"][0]["account"], Value::Null);
    s.running.abort();
}

/// A player who leaves a rated game (a bot stands in for them) loses it,
/// whoever wins on the board.
#[tokio::test]
async fn leaving_a_rated_game_loses_it() {
    let s = common::server(0).await;
    let (mut eve, mut fox, id, t0, t1) = seated(&s.base, "Eve", "Fox", None).await;
    let (st, body) = s
        .post(&format!("/api/tables/{id}/leave"), &t1, json!({}))
        .await;
    assert_eq!(st, 200, "{body}");
    let (st, body) = s.seat_bot(&id, 1, &t0, "random").await;
    assert_eq!(st, 200, "{body}");
    play_out(&s, &id, &[Some(t0), None], 8).await;
    let (_, e) = eve.get("/api/users/Eve").await;
    let (_, f) = fox.get("/api/users/Fox").await;
    assert_eq!(e["recent"][0]["result"], "win", "{e}");
    assert_eq!(f["recent"][0]["result"], "loss");
    assert_eq!(f["recent"][0]["left"], true);
    let (re, rf) = (
        rating_of(&e, "classic-1v1").expect("rated"),
        rating_of(&f, "classic-1v1").expect("rated"),
    );
    assert!(re["rating"].as_f64() > Some(1500.0) && rf["rating"].as_f64() < Some(1500.0));
    s.running.abort();
}

/// A deleted account's games stay, played by "deleted player".
#[tokio::test]
async fn a_deleted_players_games_stay() {
    let s = common::server(0).await;
    let (mut gil, mut hank, id, t0, t1) = seated(&s.base, "Gil", "Hank", None).await;
    play_out(&s, &id, &[Some(t0), Some(t1)], 9).await;
    let (st, _) = hank
        .post("/api/account/delete", &json!({"password": PW}))
        .await;
    assert_eq!(st, 200);
    let (_, g) = gil.get("/api/users/Gil").await;
    assert_eq!(
        g["recent"][0]["opponents"][0]["name"], "deleted player",
        "{g}"
    );
    assert_eq!(g["recent"][0]["opponents"][0]["account"], Value::Null);
    // flagged, so that pages say it in their language
    assert_eq!(g["recent"][0]["opponents"][0]["deleted"], true);
    assert_eq!(gil.get("/api/users/Hank").await.0, 404);
    s.running.abort();
}

/// One account at both seats of a game (a casual game, docs/accounts.md):
/// the game is one entry on its profile (played once, a draw, in
/// `recent` once) and one file in the archive, which once failed with
/// "Duplicate filename".
#[tokio::test]
async fn one_account_at_two_seats_counts_the_game_once() {
    let s = common::server(0).await;
    let mut mo = Browser::signed_up(&s.base, "Moss").await;
    let mut ids = vec![];
    for seed in 10..12 {
        let (id, t0) = mo.create(&classic2(None)).await;
        let (_, info) = s.get(&format!("/api/tables/{id}"), None).await;
        assert_eq!(info["rated"], true, "one account waiting: {info}");
        let t1 = mo.join(&id).await;
        // the table says what the stored game will be: casual (it once
        // said rated while the game was stored casual)
        let (_, info) = s.get(&format!("/api/tables/{id}"), None).await;
        assert_eq!(info["rated"], false, "one account at both seats: {info}");
        assert_eq!(s.view(&id, Some(&t0)).await["table"]["rated"], false);
        play_out(&s, &id, &[Some(t0), Some(t1)], seed).await;
        ids.push(id);
    }
    let (st, p) = mo.get("/api/users/Moss").await;
    assert_eq!(st, 200, "{p}");
    assert_eq!(
        p["stats"][0],
        json!({"kind": "classic-1v1", "played": 2, "won": 0, "lost": 0, "drawn": 2}),
        "{p}"
    );
    let recent = p["recent"].as_array().expect("recent");
    assert_eq!(recent.len(), 2, "{p}");
    assert!(recent.iter().all(|g| g["result"] == "draw"), "{p}");
    assert!(recent.iter().all(|g| g["rated"] == false), "casual: {p}");
    // never its own opponent (nor partner): it played nobody else
    for g in recent {
        assert_eq!(g["opponents"], json!([]), "{g}");
        assert_eq!(g["partners"], json!([]), "{g}");
    }
    assert_eq!(p["ratings"], json!([]));
    for path in [
        "/api/users/Moss/vs/moss",
        "/api/users/Moss/games?opponent=Moss",
    ] {
        let (st, body) = mo.get(path).await;
        assert_eq!(st, 400, "{path}: {body}");
        assert_eq!(body["code"], "profile.self_opponent", "{path}: {body}");
    }
    let (_, l) = mo.get("/api/users/Moss/games?result=draw").await;
    assert_eq!(l["games"].as_array().map(Vec::len), Some(2), "{l}");
    let (_, l) = mo.get("/api/users/Moss/games?result=win").await;
    assert_eq!(l["games"], json!([]), "{l}");
    let mut archive = records(&s, &mo).await;
    let mut names: Vec<String> = (0..archive.len())
        .map(|i| archive.by_index(i).expect("file").name().to_string())
        .collect();
    names.sort();
    let mut want: Vec<String> = ids.iter().map(|id| format!("{id}-1.json")).collect();
    want.sort();
    assert_eq!(names, want);
    s.running.abort();
}

/// Two instances on one PostgreSQL: the same four players end 12 rated
/// games at once, half on each instance; each game is stored once and
/// every player's rating counts each of their games exactly once (no
/// update lost between instances), seen at once on both instances.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_ended_on_two_instances_count_once() {
    let Some(pg) = common::postgres::Pair::start("seq_ratings_instances", "ratings test").await
    else {
        return;
    };
    let (one, two_) = (&pg.one, &pg.two);
    let names = ["Ivy", "Jack", "Kim", "Lou"];
    let mut people = vec![];
    for (i, n) in names.iter().enumerate() {
        let b = Browser::signed_up(if i % 2 == 0 { &one.base } else { &two_.base }, n).await;
        people.push(b);
    }
    let mut games = vec![];
    for g in 0..12usize {
        let (x, y) = (g % 4, (g + 1 + g / 4) % 4);
        let (x, y) = if x == y { (x, (y + 1) % 4) } else { (x, y) };
        let (id, t0) = people[x].create(&classic2(None)).await;
        let t1 = people[y].join(&id).await;
        games.push((id, t0, t1, x, y));
    }
    let mut tasks = tokio::task::JoinSet::new();
    for (g, (id, t0, t1, _, _)) in games.iter().cloned().enumerate() {
        let s = if g % 2 == 0 {
            one.base.clone()
        } else {
            two_.base.clone()
        };
        tasks.spawn(async move {
            play_out(&s, &id, &[Some(t0), Some(t1)], g as u64).await;
        });
    }
    while let Some(r) = tasks.join_next().await {
        r.expect("a game played out");
    }
    for (i, n) in names.iter().enumerate() {
        let played = games.iter().filter(|g| g.3 == i || g.4 == i).count();
        for base in [&one.base, &two_.base] {
            let (_, p) = Browser::at(base).get(&format!("/api/users/{n}")).await;
            let r = rating_of(&p, "classic-1v1").expect("rated");
            assert_eq!(r["games"], json!(played), "{n} on {base}: {p}");
            assert_eq!(p["stats"][0]["played"], json!(played));
        }
    }
    pg.stop().await;
}

/// Signed in, a table is created and joined without a name (the
/// account's is used, whatever a name sent says); a guest still needs one
/// (400, code `name.empty`).
#[tokio::test]
async fn signed_in_players_need_no_name_and_guests_do() {
    let s = common::server(0).await;
    let (mut ann, mut bob) = two(&s.base, "Ann", "Bob").await;
    let mut body = classic2(None);
    body.as_object_mut().expect("object").remove("name");
    let (id, _) = ann.create(&body).await;
    let (st, b) = bob
        .post(&format!("/api/tables/{id}/join"), &json!({}))
        .await;
    assert_eq!(st, 200, "{b}");
    let (_, info) = s.get(&format!("/api/tables/{id}"), None).await;
    assert_eq!(info["seats"][0]["name"], "Ann", "{info}");
    assert_eq!(info["seats"][1]["name"], "Bob", "{info}");
    assert_eq!(info["named_after"], "Ann", "{info}");
    assert_eq!(info["rated"], true, "two accounts: {info}");
    // a name sent while signed in is not used
    let (id, _) = ann.create(&classic2(None)).await;
    let (_, info) = s.get(&format!("/api/tables/{id}"), None).await;
    assert_eq!(info["seats"][0]["name"], "Ann", "{info}");
    // a guest without a name
    let (st, b) = s.try_create(body.clone()).await;
    assert_eq!((st, &b["code"]), (400, &json!("name.empty")), "{b}");
    let mut guest = Browser::at(&s.base);
    for name in [json!({}), json!({"name": "  "})] {
        let (st, b) = guest.post(&format!("/api/tables/{id}/join"), &name).await;
        assert_eq!((st, &b["code"]), (400, &json!("name.empty")), "{name}: {b}");
    }
    s.running.abort();
}

/// A seat someone else took first is refused with code `seat.taken`,
/// saying that seats are numbered from 0 (the second seat is seat 1); a
/// join without a seat at a full table with `seat.table_full`.
#[tokio::test]
async fn a_seat_taken_first_is_refused_with_its_code() {
    let s = common::server(0).await;
    let (id, _) = s.host("classic", 3).await;
    let (seat, _) = s.join(&id, "Ada").await;
    assert_eq!(seat, 1);
    let mut late = Browser::at(&s.base);
    let (st, b) = late
        .post(
            &format!("/api/tables/{id}/join"),
            &json!({"name": "Bea", "seat": 1}),
        )
        .await;
    assert_eq!((st, &b["code"]), (409, &json!("seat.taken")), "{b}");
    assert_eq!(
        b["error"], "seat 1 is taken (seats are numbered from 0): choose another",
        "{b}"
    );
    let (seat, _) = s.join(&id, "Bea").await;
    assert_eq!(seat, 2);
    let (st, b) = late
        .post(&format!("/api/tables/{id}/join"), &json!({"name": "Cy"}))
        .await;
    assert_eq!((st, &b["code"]), (409, &json!("seat.table_full")), "{b}");
    s.running.abort();
}
