//! Passkeys (docs/api.md "Passkeys"), with a software authenticator
//! (tests/common/passkey.rs) in place of the browser's: an account adds,
//! lists and removes passkeys; anyone signs in with one and gets the
//! session a password gives. Refused: an answer to another challenge or
//! from another origin, a finished or expired ceremony, another
//! account's ceremony, passkey or user handle, a removed passkey, a
//! deleted account's, changes without the CSRF token, a page at an IP
//! address; failures are slowed as a password's. On PostgreSQL
//! (`SEQUENCE_TEST_POSTGRES_URL`), each ceremony begins on one instance
//! and finishes on another.

use crate::common;
#[path = "common/passkey.rs"]
mod soft;

use common::accounts::Browser;
use serde_json::{json, Value};
use soft::SoftPasskey;
use std::time::Duration;

const PW: &str = "correct horse battery";

/// The server's address as a page must be opened for passkeys: at
/// `localhost` (an IP address is no RP id).
fn localhost(base: &str) -> String {
    base.replace("127.0.0.1", "localhost")
}

/// Adds a passkey named `name` to the account signed in at `b`.
async fn add(b: &mut Browser, name: &str) -> SoftPasskey {
    let (st, begun) = b.post("/api/account/passkeys/add/begin", &json!({})).await;
    assert_eq!(st, 200, "{begun}");
    let sel = &begun["options"]["publicKey"]["authenticatorSelection"];
    assert_eq!(sel["residentKey"], "required", "{begun}");
    assert_eq!(sel["userVerification"], "required", "{begun}");
    let (key, credential) = SoftPasskey::create(&begun["options"], &b.base);
    let body = json!({"ceremony": begun["ceremony"], "name": name, "credential": credential});
    let (st, added) = b.post("/api/account/passkeys/add/finish", &body).await;
    assert_eq!(st, 201, "{added}");
    assert_eq!(added["name"], name);
    assert_eq!(added["id"], hex::encode(&key.cred_id));
    key
}

/// Begins a passkey sign-in at `b`: `(ceremony, options)`.
async fn begin_sign_in(b: &mut Browser) -> (Value, Value) {
    let (st, begun) = b
        .post_bare("/api/account/passkey-signin/begin", &json!({}))
        .await;
    assert_eq!(st, 200, "{begun}");
    (begun["ceremony"].clone(), begun["options"].clone())
}

/// Signs in at `b` with `key`: `(status, body)`.
async fn sign_in(b: &mut Browser, key: &mut SoftPasskey) -> (u16, Value) {
    let (ceremony, options) = begin_sign_in(b).await;
    let origin = b.base.clone();
    let credential = key.get(&options, &origin);
    b.post_bare(
        "/api/account/passkey-signin/finish",
        &json!({"ceremony": ceremony, "credential": credential}),
    )
    .await
}

fn code(v: &Value) -> &str {
    v["code"].as_str().unwrap_or_default()
}

#[tokio::test]
async fn add_list_sign_in_and_remove_a_passkey() {
    let s = common::server(0).await;
    let base = localhost(&s.base);
    let mut a = Browser::at(&base);
    assert_eq!(a.sign_up("Ann", PW).await.0, 201);
    let mut key = add(&mut a, "My laptop").await;
    let (st, list) = a.get("/api/account/passkeys").await;
    assert_eq!(st, 200);
    let list = list["passkeys"].as_array().expect("a list").clone();
    assert_eq!(list.len(), 1, "{list:?}");
    assert_eq!(list[0]["name"], "My laptop");
    assert!(list[0]["used_ms"].is_null());
    // a second browser signs in with it: no user name asked, the options
    // name no credential (the authenticator offers what it holds)
    let mut b = Browser::at(&base);
    let (_, options) = begin_sign_in(&mut b).await;
    assert_eq!(
        options["publicKey"]["allowCredentials"],
        json!([]),
        "{options}"
    );
    assert_eq!(options["publicKey"]["rpId"], "localhost");
    assert!(
        options.get("mediation").is_none(),
        "a modal request: {options}"
    );
    let (st, body) = sign_in(&mut b, &mut key).await;
    assert_eq!(st, 200, "{body}");
    assert_eq!(body["name"], "Ann");
    // the same session cookie as a password sign-in
    let set = b.set_cookie.clone().expect("a cookie");
    for attr in ["sequence_session=", "HttpOnly", "SameSite=Lax", "Path=/"] {
        assert!(set.contains(attr), "{set}");
    }
    let (st, me) = b.get("/api/account").await;
    assert_eq!((st, &me["name"]), (200, &json!("Ann")));
    // signed in with a passkey, changes need the CSRF token as ever
    let (st, _) = b.post_bare("/api/account/signout", &json!({})).await;
    assert_eq!(st, 403);
    let (_, list) = b.get("/api/account/passkeys").await;
    assert!(list["passkeys"][0]["used_ms"].as_i64().is_some(), "{list}");
    // twice, the counter going up
    let mut c = Browser::at(&base);
    assert_eq!(sign_in(&mut c, &mut key).await.0, 200);
    // removed, it signs in no more
    let id = hex::encode(&key.cred_id);
    let (st, body) = a
        .post("/api/account/passkeys/remove", &json!({"id": id}))
        .await;
    assert_eq!((st, &body["removed"]), (200, &json!(true)), "{body}");
    let (_, list) = a.get("/api/account/passkeys").await;
    assert_eq!(list["passkeys"], json!([]));
    let mut d = Browser::at(&base);
    let (st, body) = sign_in(&mut d, &mut key).await;
    assert_eq!((st, code(&body)), (401, "passkey.unknown"), "{body}");
    assert!(d.cookie.is_none());
    let (st, _) = a
        .post("/api/account/passkeys/remove", &json!({"id": id}))
        .await;
    assert_eq!(st, 404, "removed already");
    s.running.abort();
}

#[tokio::test]
async fn answers_to_another_challenge_or_origin_and_used_ceremonies_are_refused() {
    let s = common::server(0).await;
    let base = localhost(&s.base);
    let mut a = Browser::at(&base);
    assert_eq!(a.sign_up("Bea", PW).await.0, 201);
    let mut key = add(&mut a, "phone").await;
    let handle = key.handle.clone();
    let mut b = Browser::at(&base);
    let finish = |ceremony: &Value, credential: Value| json!({"ceremony": ceremony, "credential": credential});
    // a challenge of another ceremony
    let (ceremony, _) = begin_sign_in(&mut b).await;
    let (_, other) = begin_sign_in(&mut b).await;
    let other_challenge = other["publicKey"]["challenge"].as_str().expect("challenge");
    let wrong = key.answer(other_challenge, &base, &handle);
    let (st, body) = b
        .post_bare(
            "/api/account/passkey-signin/finish",
            &finish(&ceremony, wrong),
        )
        .await;
    assert_eq!((st, code(&body)), (401, "passkey.refused"), "{body}");
    assert!(common::error_of(&body).contains("challenge"), "{body}");
    // the ceremony is used up, whatever the outcome
    let (st, body) = b
        .post_bare(
            "/api/account/passkey-signin/finish",
            &finish(&ceremony, key.get(&other, &base)),
        )
        .await;
    assert_eq!((st, code(&body)), (400, "passkey.expired"), "{body}");
    // another origin (a look-alike site) answering the right challenge
    let (ceremony, options) = begin_sign_in(&mut b).await;
    let evil = base.replace("localhost", "evil.localhost");
    let (st, body) = b
        .post_bare(
            "/api/account/passkey-signin/finish",
            &finish(&ceremony, key.get(&options, &evil)),
        )
        .await;
    assert_eq!((st, code(&body)), (401, "passkey.refused"), "{body}");
    assert!(common::error_of(&body).contains("origin"), "{body}");
    // a copy of the key whose counter is behind (a cloned authenticator)
    let (ceremony, options) = begin_sign_in(&mut b).await;
    let behind = key.counter;
    assert_eq!(sign_in(&mut b, &mut key).await.0, 200);
    b.cookie = None;
    key.counter = behind - 1;
    let (st, body) = b
        .post_bare(
            "/api/account/passkey-signin/finish",
            &finish(&ceremony, key.get(&options, &base)),
        )
        .await;
    assert_eq!((st, code(&body)), (401, "passkey.refused"), "{body}");
    key.counter = behind + 5;
    // a ceremony token no begin answered
    let (st, body) = b
        .post_bare(
            "/api/account/passkey-signin/finish",
            &finish(
                &json!("0123456789abcdef0123456789abcdef"),
                key.get(&options, &base),
            ),
        )
        .await;
    assert_eq!((st, code(&body)), (400, "passkey.expired"), "{body}");
    // a well-made answer still signs in, and none of the above did
    assert!(b.cookie.is_none());
    assert_eq!(sign_in(&mut b, &mut key).await.0, 200);
    s.running.abort();
}

/// A ceremony's lifetime in [`an_expired_ceremony_is_refused`] (time
/// enough for one in time on a busy machine), and a finish after it.
const LIFETIME: Duration = Duration::from_millis(1500);
const LATE: Duration = Duration::from_millis(2000);

#[tokio::test]
async fn an_expired_ceremony_is_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("test.db").to_string_lossy().to_string();
    let s = common::server_with(dir, db, |c| {
        c.passkey_ceremony = LIFETIME;
    })
    .await;
    let base = localhost(&s.base);
    let mut a = Browser::at(&base);
    assert_eq!(a.sign_up("Cid", PW).await.0, 201);
    // adding: the finish comes too late
    let (_, begun) = a.post("/api/account/passkeys/add/begin", &json!({})).await;
    let (_, credential) = SoftPasskey::create(&begun["options"], &base);
    tokio::time::sleep(LATE).await;
    let body = json!({"ceremony": begun["ceremony"], "name": "late", "credential": credential});
    let (st, body) = a.post("/api/account/passkeys/add/finish", &body).await;
    assert_eq!((st, code(&body)), (400, "passkey.expired"), "{body}");
    assert!(common::error_of(&body).contains("expired"), "{body}");
    let (_, list) = a.get("/api/account/passkeys").await;
    assert_eq!(list["passkeys"], json!([]), "nothing added");
    // signing in: the same
    let mut key = add(&mut a, "in time").await;
    let mut b = Browser::at(&base);
    let (ceremony, options) = begin_sign_in(&mut b).await;
    tokio::time::sleep(LATE).await;
    let credential = key.get(&options, &base);
    let (st, body) = b
        .post_bare(
            "/api/account/passkey-signin/finish",
            &json!({"ceremony": ceremony, "credential": credential}),
        )
        .await;
    assert_eq!((st, code(&body)), (400, "passkey.expired"), "{body}");
    assert!(b.cookie.is_none());
    s.running.abort();
}

#[tokio::test]
async fn another_accounts_ceremony_passkey_or_handle_is_refused() {
    let s = common::server(0).await;
    let base = localhost(&s.base);
    let mut ann = Browser::at(&base);
    let mut bob = Browser::at(&base);
    assert_eq!(ann.sign_up("Anna", PW).await.0, 201);
    assert_eq!(bob.sign_up("Boris", PW).await.0, 201);
    let mut anns = add(&mut ann, "Anna's key").await;
    let mut bobs = add(&mut bob, "Boris's key").await;
    // Boris finishes a ceremony Anna began
    let (_, begun) = ann
        .post("/api/account/passkeys/add/begin", &json!({}))
        .await;
    let (_, credential) = SoftPasskey::create(&begun["options"], &base);
    let body = json!({"ceremony": begun["ceremony"], "name": "stolen", "credential": credential});
    let (st, body) = bob.post("/api/account/passkeys/add/finish", &body).await;
    assert_eq!(st, 403, "{body}");
    // Anna's passkey (its credential id) cannot be added to Boris's account
    let (_, begun) = bob
        .post("/api/account/passkeys/add/begin", &json!({}))
        .await;
    let (_, credential) = SoftPasskey::create_with_id(&begun["options"], &base, &anns.cred_id);
    let body = json!({"ceremony": begun["ceremony"], "name": "copy", "credential": credential});
    let (st, body) = bob.post("/api/account/passkeys/add/finish", &body).await;
    assert_eq!((st, code(&body)), (409, "passkey.taken"), "{body}");
    // Anna's passkey answering with Boris's user handle
    let mut x = Browser::at(&base);
    let (ceremony, options) = begin_sign_in(&mut x).await;
    let challenge = options["publicKey"]["challenge"]
        .as_str()
        .expect("challenge");
    let forged = anns.answer(challenge, &base, &bobs.handle.clone());
    let (st, body) = x
        .post_bare(
            "/api/account/passkey-signin/finish",
            &json!({"ceremony": ceremony, "credential": forged}),
        )
        .await;
    assert_eq!((st, code(&body)), (401, "passkey.unknown"), "{body}");
    // Boris cannot remove Anna's passkey
    let (st, _) = bob
        .post(
            "/api/account/passkeys/remove",
            &json!({"id": hex::encode(&anns.cred_id)}),
        )
        .await;
    assert_eq!(st, 404);
    // each key signs in as its own account
    let (st, body) = sign_in(&mut x, &mut anns).await;
    assert_eq!((st, &body["name"]), (200, &json!("Anna")), "{body}");
    let mut y = Browser::at(&base);
    let (st, body) = sign_in(&mut y, &mut bobs).await;
    assert_eq!((st, &body["name"]), (200, &json!("Boris")), "{body}");
    s.running.abort();
}

#[tokio::test]
async fn changes_need_the_csrf_token_and_a_domain() {
    let s = common::server(0).await;
    let base = localhost(&s.base);
    let mut a = Browser::at(&base);
    assert_eq!(a.sign_up("Dita", PW).await.0, 201);
    for path in [
        "/api/account/passkeys/add/begin",
        "/api/account/passkeys/add/finish",
        "/api/account/passkeys/remove",
    ] {
        let (st, body) = a.post_bare(path, &json!({})).await;
        assert_eq!(st, 403, "{path}: {body}");
        assert!(common::error_of(&body).contains("CSRF"), "{body}");
    }
    // not signed in: no passkeys to list or add
    let mut guest = Browser::at(&base);
    assert_eq!(guest.get("/api/account/passkeys").await.0, 401);
    assert_eq!(
        guest
            .post("/api/account/passkeys/add/begin", &json!({}))
            .await
            .0,
        401
    );
    // a sign-in takes JSON only (no other site's form can start one)
    let r = reqwest::Client::new()
        .post(format!("{base}/api/account/passkey-signin/begin"))
        .header("content-type", "text/plain")
        .body("{}")
        .send()
        .await
        .expect("request");
    assert_eq!(r.status().as_u16(), 415);
    // a page at an IP address has no RP id: refused in words
    let mut ip = Browser::at(&s.base);
    let (st, body) = ip
        .post_bare("/api/account/passkey-signin/begin", &json!({}))
        .await;
    assert_eq!((st, code(&body)), (400, "passkey.origin"), "{body}");
    assert!(common::error_of(&body).contains("localhost"), "{body}");
    s.running.abort();
}

#[tokio::test]
async fn deleting_the_account_or_signing_out_everywhere_reaches_passkeys() {
    let s = common::server(0).await;
    let base = localhost(&s.base);
    let mut a = Browser::at(&base);
    assert_eq!(a.sign_up("Ezra", PW).await.0, 201);
    let mut key = add(&mut a, "tablet").await;
    let mut b = Browser::at(&base);
    assert_eq!(sign_in(&mut b, &mut key).await.0, 200);
    // signing out everywhere ends the passkey's session too
    let (st, _) = a.post("/api/account/signout-everywhere", &json!({})).await;
    assert_eq!(st, 200);
    assert_eq!(b.get("/api/account").await.0, 401);
    // the passkey still signs in afterwards
    assert_eq!(sign_in(&mut b, &mut key).await.0, 200);
    let (st, body) = b
        .post("/api/account/delete", &json!({"password": PW}))
        .await;
    assert_eq!(st, 200, "{body}");
    let mut c = Browser::at(&base);
    let (st, body) = sign_in(&mut c, &mut key).await;
    assert_eq!((st, code(&body)), (401, "passkey.unknown"), "{body}");
    // a new account of the same name does not inherit it
    let mut d = Browser::at(&base);
    assert_eq!(d.sign_up("Ezra", PW).await.0, 201);
    let (_, list) = d.get("/api/account/passkeys").await;
    assert_eq!(list["passkeys"], json!([]));
    s.running.abort();
}

#[tokio::test]
async fn failed_passkey_sign_ins_are_slowed_like_passwords() {
    let s = common::server(0).await;
    let base = localhost(&s.base);
    let mut a = Browser::at(&base);
    assert_eq!(a.sign_up("Fay", PW).await.0, 201);
    // a passkey no account has, ten times from this address
    let mut b = Browser::at(&base);
    let mut stranger = SoftPasskey::stranger("localhost");
    for i in 0..10 {
        let (st, body) = sign_in(&mut b, &mut stranger).await;
        assert_eq!(
            (st, code(&body)),
            (401, "passkey.unknown"),
            "try {i}: {body}"
        );
    }
    let (st, body) = b
        .post_bare("/api/account/passkey-signin/begin", &json!({}))
        .await;
    assert_eq!(st, 429, "{body}");
    assert!(common::error_of(&body).contains("wait"), "{body}");
    s.running.abort();
}

/// Two instances on one PostgreSQL: every ceremony begins on one and
/// finishes on the other; a passkey removed on one signs in on neither.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ceremonies_finish_on_another_instance() {
    let Ok(url) = std::env::var("SEQUENCE_TEST_POSTGRES_URL") else {
        assert!(
            std::env::var_os("SEQUENCE_TEST_QUICK").is_some(),
            "SEQUENCE_TEST_POSTGRES_URL is not set: scripts/test.sh starts a PostgreSQL of its own and sets it (scripts/test.sh --quick leaves this test out)"
        );
        eprintln!("quick mode: PostgreSQL passkey test left out");
        return;
    };
    let name = "seq_passkeys_instances";
    let _ = sequence_server::db::drop_database(&url, name).await;
    let db = sequence_server::db::create_database(&url, name)
        .await
        .expect("create a database");
    let one = common::server_on(tempfile::tempdir().expect("dir"), db.clone(), 0).await;
    let two = common::server_on(tempfile::tempdir().expect("dir"), db.clone(), 0).await;
    let (base1, base2) = (localhost(&one.base), localhost(&two.base));
    let mut a = Browser::at(&base1);
    assert_eq!(a.sign_up("Gus", PW).await.0, 201);
    // add: begun on one, finished on two (the cookie works on both)
    let (st, begun) = a.post("/api/account/passkeys/add/begin", &json!({})).await;
    assert_eq!(st, 200, "{begun}");
    // the page's origin is the first instance's: the finish on the
    // second checks against what the begin stored
    let (mut key, credential) = SoftPasskey::create(&begun["options"], &base1);
    a.base = base2.clone();
    let body = json!({"ceremony": begun["ceremony"], "name": "shared", "credential": credential});
    let (st, body) = a.post("/api/account/passkeys/add/finish", &body).await;
    assert_eq!(st, 201, "{body}");
    // sign-in: begun on two, finished on one
    let mut b = Browser::at(&base2);
    let (ceremony, options) = begin_sign_in(&mut b).await;
    let credential = key.get(&options, &base2);
    b.base = base1.clone();
    let (st, body) = b
        .post_bare(
            "/api/account/passkey-signin/finish",
            &json!({"ceremony": ceremony, "credential": credential}),
        )
        .await;
    assert_eq!((st, &body["name"]), (200, &json!("Gus")), "{body}");
    // a ceremony finishes once, whichever instance is asked first
    let (st, body) = b
        .post_bare(
            "/api/account/passkey-signin/finish",
            &json!({"ceremony": ceremony, "credential": key.get(&options, &base2)}),
        )
        .await;
    assert_eq!((st, code(&body)), (400, "passkey.expired"), "{body}");
    // removed on one: refused on two
    let (st, _) = a
        .post(
            "/api/account/passkeys/remove",
            &json!({"id": hex::encode(&key.cred_id)}),
        )
        .await;
    assert_eq!(st, 200);
    let mut c = Browser::at(&base1);
    let (ceremony, options) = begin_sign_in(&mut c).await;
    c.base = base2.clone();
    let credential = key.get(&options, &base1);
    let (st, body) = c
        .post_bare(
            "/api/account/passkey-signin/finish",
            &json!({"ceremony": ceremony, "credential": credential}),
        )
        .await;
    assert_eq!((st, code(&body)), (401, "passkey.unknown"), "{body}");
    one.running.shutdown().await;
    two.running.shutdown().await;
    one.running.app.db.close().await;
    two.running.app.db.close().await;
    sequence_server::db::drop_database(&url, name)
        .await
        .expect("drop the database");
}
