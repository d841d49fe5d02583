//! Accounts (docs/api.md "Accounts"): sign up, in, out, out everywhere,
//! change password, delete; session cookies and their CSRF token; the
//! delays of failed sign-ins; seats of a signed-in player and of a guest
//! who signs up later. On PostgreSQL (`SEQUENCE_TEST_POSTGRES_URL`), a
//! session signed out everywhere stops working on every instance.

use crate::common;

use common::accounts::{Browser, PW};
use serde_json::json;

#[tokio::test]
async fn sign_up_in_out_with_cookies() {
    let s = common::server(0).await;
    let mut a = Browser::new(&s);
    let (st, body) = a.sign_up("Ann", PW).await;
    assert_eq!(st, 201, "{body}");
    assert_eq!(body["name"], "Ann");
    let set = a.set_cookie.clone().expect("a cookie");
    assert!(set.starts_with("sequence_session="), "{set}");
    for attr in ["HttpOnly", "SameSite=Lax", "Path=/"] {
        assert!(set.contains(attr), "{set}");
    }
    assert!(!set.contains("Secure"), "plain http: {set}");
    let (st, me) = a.get("/api/account").await;
    assert_eq!((st, &me["name"]), (200, &json!("Ann")));
    // names are unique without case and confusables; names and passwords checked
    let mut b = Browser::new(&s);
    // each refusal has a code the pages translate (docs/api.md)
    for (taken, status, code) in [
        ("ann", 409, "account.name_taken"),
        ("ANN", 409, "account.name_taken"),
        ("аnn", 400, "account.name"),
    ] {
        let (st, body) = b.sign_up(taken, PW).await;
        assert_eq!(
            (st, &body["code"]),
            (status, &json!(code)),
            "{taken}: {body}"
        );
    }
    let (st, body) = b.sign_up("a b", PW).await;
    assert_eq!((st, &body["code"]), (400, &json!("account.name")));
    assert!(common::error_of(&body).contains("U+0020"), "{body}");
    let (st, body) = b.sign_up("ab", PW).await;
    assert_eq!((st, &body["code"]), (400, &json!("account.name")), "{body}");
    let (st, body) = b.sign_up("Bob", "short").await;
    assert_eq!((st, &body["code"]), (400, &json!("account.password")));
    assert!(
        !body.to_string().contains("short\""),
        "the password is not echoed: {body}"
    );
    // signing out ends the session; its cookie no longer works
    let old = a.cookie.clone();
    let (st, _) = a.post("/api/account/signout", &json!({})).await;
    assert_eq!(st, 200);
    assert!(a.set_cookie.as_deref().unwrap_or("").contains("Max-Age=0"));
    assert_eq!(a.get("/api/account").await.0, 401);
    a.cookie = old;
    assert_eq!(a.get("/api/account").await.0, 401, "the old cookie is dead");
    // signing in again
    let (st, body) = a.sign_in("ANN", PW).await;
    assert_eq!((st, &body["name"]), (200, &json!("Ann")), "{body}");
    // behind an https proxy the cookie is Secure
    let r = s
        .http
        .post(format!("{}/api/account/signin", s.base))
        .header("x-forwarded-proto", "https")
        .json(&json!({"name": "Ann", "password": PW}))
        .send()
        .await
        .expect("request");
    let sc = r.headers()["set-cookie"]
        .to_str()
        .expect("text")
        .to_string();
    assert!(sc.ends_with("; Secure"), "{sc}");
    // a form of another site cannot sign anyone in: JSON only
    let r = s
        .http
        .post(format!("{}/api/account/signin", s.base))
        .header("content-type", "application/x-www-form-urlencoded")
        .body("name=Ann&password=x")
        .send()
        .await
        .expect("request");
    assert_eq!(r.status().as_u16(), 415);
    s.running.abort();
}

#[tokio::test]
async fn wrong_password_and_no_such_user_get_one_answer() {
    let s = common::server(0).await;
    Browser::signed_up(&s.base, "Cleo").await;
    let mut b = Browser::new(&s);
    let wrong = b.sign_in("Cleo", "not the password").await;
    let nobody = b.sign_in("Nobody", "not the password").await;
    assert_eq!(wrong.0, 401);
    assert_eq!(wrong, nobody);
    assert!(b.cookie.is_none());
    s.running.abort();
}

#[tokio::test]
async fn cookie_changes_need_the_csrf_token() {
    let s = common::server(0).await;
    let mut a = Browser::signed_up(&s.base, "Dora").await;
    let create = json!({"game": "classic", "players": 2, "name": "whoever"});
    for path in [
        "/api/tables",
        "/api/account/signout",
        "/api/account/signout-everywhere",
        "/api/account/claim",
    ] {
        let (st, body) = a.post_bare(path, &create).await;
        assert_eq!(st, 403, "{path}: {body}");
        assert!(common::error_of(&body).contains("CSRF"), "{body}");
    }
    assert_eq!(a.get("/api/account").await.0, 200, "still signed in");
    // with the token: the seat takes the account's name
    let (id, _) = a.create(&create).await;
    let (_, info) = s.get(&format!("/api/tables/{id}"), None).await;
    assert_eq!(info["seats"][0]["name"], "Dora", "{info}");
    // a guest's requests are as before
    let (id2, _) = s.host("classic", 2).await;
    let (seat, token) = s.join(&id2, "Guest").await;
    assert_eq!((seat, token.len()), (1, 32));
    s.running.abort();
}

#[tokio::test]
async fn password_change_and_sign_out_everywhere_end_other_sessions() {
    let s = common::server(0).await;
    let mut a = Browser::new(&s);
    let mut b = Browser::new(&s);
    let mut c = Browser::new(&s);
    assert_eq!(a.sign_up("Emil", PW).await.0, 201);
    assert_eq!(b.sign_in("emil", PW).await.0, 200);
    assert_eq!(c.sign_in("emil", PW).await.0, 200);
    let (st, body) = a
        .post(
            "/api/account/password",
            &json!({"password": "wrong one!", "new_password": "another password"}),
        )
        .await;
    assert_eq!(st, 401, "{body}");
    let (st, body) = a
        .post(
            "/api/account/password",
            &json!({"password": PW, "new_password": "another password"}),
        )
        .await;
    assert_eq!((st, &body["signed_out"]), (200, &json!(2)), "{body}");
    assert_eq!(a.get("/api/account").await.0, 200);
    assert_eq!(b.get("/api/account").await.0, 401);
    assert_eq!(b.sign_in("emil", PW).await.0, 401);
    assert_eq!(b.sign_in("emil", "another password").await.0, 200);
    let (st, body) = b.post("/api/account/signout-everywhere", &json!({})).await;
    assert_eq!((st, &body["signed_out"]), (200, &json!(2)), "{body}");
    assert_eq!(a.get("/api/account").await.0, 401);
    assert_eq!(b.get("/api/account").await.0, 401);
    s.running.abort();
}

#[tokio::test]
async fn a_deleted_account_frees_its_name() {
    let s = common::server(0).await;
    let mut a = Browser::signed_up(&s.base, "Fay").await;
    let (st, _) = a
        .post("/api/account/delete", &json!({"password": "nope nope"}))
        .await;
    assert_eq!(st, 401);
    let (st, body) = a
        .post("/api/account/delete", &json!({"password": PW}))
        .await;
    assert_eq!(st, 200, "{body}");
    assert!(a.cookie.is_none());
    let mut b = Browser::new(&s);
    assert_eq!(b.sign_in("Fay", PW).await.0, 401);
    assert_eq!(b.sign_up("fay", PW).await.0, 201, "the name is free again");
    s.running.abort();
}

/// 10,000 wrong passwords from one address are slowed (refused with 429
/// and `Retry-After` after the first few, without checking them) and the
/// owner still signs in at once from another address.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_wrong_passwords_never_locks_out_the_owner() {
    let s = common::server(0).await;
    Browser::signed_up(&s.base, "Gus").await;
    let url = format!("{}/api/account/signin", s.base);
    let mut heard = 0;
    let mut slowed = 0;
    let mut tasks = tokio::task::JoinSet::new();
    for k in 0..10_000u32 {
        let (http, url) = (s.http.clone(), url.clone());
        tasks.spawn(async move {
            let r = http
                .post(&url)
                .json(&json!({"name": "Gus", "password": format!("guess {k}")}))
                .send()
                .await
                .expect("request");
            let retry = r.headers().get("retry-after").is_some();
            (r.status().as_u16(), retry)
        });
        if tasks.len() >= 32 {
            let (st, retry) = tasks.join_next().await.expect("task").expect("joined");
            match st {
                401 => heard += 1,
                429 if retry => slowed += 1,
                other => panic!("status {other}"),
            }
        }
    }
    while let Some(r) = tasks.join_next().await {
        let (st, _) = r.expect("joined");
        if st == 401 {
            heard += 1;
        } else {
            slowed += 1;
        }
    }
    assert!(heard < 100, "{heard} guesses were checked");
    assert_eq!(heard + slowed, 10_000);
    // the flooding address waits, even with the right password
    let mut flooder = Browser::new(&s);
    assert_eq!(flooder.sign_in("Gus", PW).await.0, 429);
    // the owner, from another address, signs in at once
    let http = reqwest::Client::builder()
        .local_address(std::net::IpAddr::from([127, 0, 0, 2]))
        .build()
        .expect("client");
    let mut elsewhere = Browser::new(&s);
    elsewhere.http = http;
    let (st, body) = elsewhere.sign_in("Gus", PW).await;
    assert_eq!(st, 200, "{body}");
    s.running.abort();
}

/// A guest's seats (a table playing, a table over) become theirs when
/// they sign up in the same browser and send the seat tokens it kept; a
/// token of no seat claims nothing; a seat taken while signed in is
/// the account's at once.
#[tokio::test]
async fn a_guest_who_signs_up_keeps_their_seats() {
    let s = common::server(0).await;
    let (id, host) = s.host("classic", 2).await;
    let (_, guest) = s.join(&id, "Hal").await;
    let mut b = Browser::signed_up(&s.base, "Hal").await;
    let (st, body) = b
        .post(
            "/api/account/claim",
            &json!({"seats": [
                {"table": id, "token": guest},
                {"table": id, "token": "0123456789abcdef0123456789abcdef"},
                {"table": "0123456789abcdef", "token": guest},
                {"table": "nope", "token": guest},
            ]}),
        )
        .await;
    assert_eq!(st, 200, "{body}");
    assert_eq!(body["claimed"], json!([true, false, false, false]));
    // a seat belongs to one account: another cannot claim it
    let mut c = Browser::signed_up(&s.base, "Ida").await;
    let (_, body) = c
        .post(
            "/api/account/claim",
            &json!({"seats": [{"table": id, "token": guest}]}),
        )
        .await;
    assert_eq!(body["claimed"], json!([false]));
    // the guest seat token still plays
    let v = s.view(&id, Some(&host)).await;
    assert_eq!(v["table"]["status"], "playing");
    s.running.abort();
}

/// Two instances on one PostgreSQL: a session made on one works on the
/// other, and signing out everywhere on one ends it on the other at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_out_everywhere_reaches_every_instance() {
    let Some(pg) = common::postgres::Pair::start("seq_accounts_instances", "accounts test").await
    else {
        return;
    };
    let (one, two) = (&pg.one, &pg.two);
    let mut a = Browser::signed_up(&one.base, "Joan").await;
    let mut b = Browser::signed_in(&two.base, "joan").await;
    // the first browser's cookie works on the second instance too
    let mut a_there = Browser::new(two);
    a_there.cookie = a.cookie.clone();
    assert_eq!(a_there.get("/api/account").await.0, 200);
    let (st, _) = b.post("/api/account/signout-everywhere", &json!({})).await;
    assert_eq!(st, 200);
    assert_eq!(
        a.get("/api/account").await.0,
        401,
        "ended on the first instance"
    );
    assert_eq!(a_there.get("/api/account").await.0, 401);
    pg.stop().await;
}
