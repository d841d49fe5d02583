//! Passkeys in the browser (issue 24, docs/web.md "Passkeys"): headless
//! Chromium with its virtual authenticator (Chrome DevTools'
//! `WebAuthn.addVirtualAuthenticator`: CTAP2, built in, resident keys,
//! user verification that succeeds) through chromedriver. A person signs
//! up with a password, adds a passkey on the account page, signs out,
//! signs in with the passkey (no user name typed) and sees their profile;
//! removes it and sees the passkey sign-in refused in words. A browser
//! without WebAuthn and a user who does not confirm are told so. The page
//! is opened at `localhost`: WebAuthn wants a domain as the relying
//! party, never an IP address.
//!
//! Screenshots (`passkeys-*.png` in `target/e2e-artifacts/`): the
//! account page with its passkeys and the sign-in form with the passkey
//! button, at 1440×900 and on a 390×844 phone.

mod browser;

use browser::*;
use fantoccini::Client;
use serde_json::{json, Value};

/// The English words of the server's refusal `code.passkey.unknown`.
fn unknown_words() -> String {
    let path = workspace().join("crates/sequence-server/web/i18n/en.json");
    let en: Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("en.json")).expect("JSON");
    en["code.passkey.unknown"]
        .as_str()
        .expect("words for passkey.unknown")
        .to_string()
}

/// An account-page word in English.
fn words(key: &str) -> String {
    let path = workspace().join("crates/sequence-server/web/i18n/accounts/en.json");
    let en: Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("accounts/en.json"))
            .expect("JSON");
    en[key].as_str().expect(key).to_string()
}

/// Gives browser `c` Chromium's virtual authenticator (a platform one
/// that holds resident keys and verifies its user): its id.
async fn virtual_authenticator(rig: &Rig, c: &Client) -> String {
    rig.cdp(c, "WebAuthn.enable", json!({"enableUI": false}))
        .await;
    let added = rig
        .cdp(
            c,
            "WebAuthn.addVirtualAuthenticator",
            json!({"options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": true,
                "hasUserVerification": true,
                "isUserVerified": true,
                "automaticPresenceSimulation": true,
            }}),
        )
        .await;
    added["authenticatorId"]
        .as_str()
        .unwrap_or_else(|| panic!("no virtual authenticator: {added}"))
        .to_string()
}

/// The credentials the virtual authenticator `id` of `c` holds.
async fn held(rig: &Rig, c: &Client, id: &str) -> Vec<Value> {
    let r = rig
        .cdp(c, "WebAuthn.getCredentials", json!({"authenticatorId": id}))
        .await;
    r["credentials"].as_array().cloned().unwrap_or_default()
}

/// Waits until `css` shows `want`.
async fn wait_words(c: &Client, css: &str, want: &str) {
    until(20, 50, async || {
        let t = text_of(c, css).await;
        if t.contains(want) {
            Ok(())
        } else {
            Err(format!("{css} says {t:?}, not {want:?}"))
        }
    })
    .await;
}

/// Makes the virtual authenticator `id` of `c` verify its user, or fail to.
async fn verified(rig: &Rig, c: &Client, id: &str, yes: bool) {
    rig.cdp(
        c,
        "WebAuthn.setUserVerified",
        json!({"authenticatorId": id, "isUserVerified": yes}),
    )
    .await;
}

/// Signs out from the account page and opens it again, signed out.
async fn sign_out(c: &Client, base: &str) {
    c.goto(&format!("{base}/account"))
        .await
        .expect("account page");
    click(c, "#signout").await;
    // the page signs out, then opens the lobby
    until(20, 50, async || {
        let url = c.current_url().await.map_err(|e| e.to_string())?;
        if url.path() == "/" {
            Ok(())
        } else {
            Err(format!("still at {url} after signing out"))
        }
    })
    .await;
    c.goto(&format!("{base}/account"))
        .await
        .expect("account page");
    let (st, _) = fetch_json(c, "/api/account", None).await;
    assert_eq!(st, 401, "signed out");
    wait_for(c, "#passkey-signin").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_passkey_is_added_signs_in_and_once_removed_is_refused() {
    let Some(rig) = Rig::start("passkeys").await else {
        return;
    };
    let base = rig.base.replace("127.0.0.1", "localhost");
    let (c, _) = rig.browser_sized("pk-desk", Some((1440, 900))).await;
    c.goto(&base).await.expect("open the lobby");
    let authenticator = virtual_authenticator(&rig, &c).await;
    sign_up_in_browser(&c, &base, "Pia").await;

    // the account page: no passkey yet; add one, named
    c.goto(&format!("{base}/account"))
        .await
        .expect("account page");
    wait_words(&c, "#passkey-list", &words("pk.none")).await;
    type_into(&c, "#passkey-name", "Work laptop").await;
    click(&c, "#passkey-add").await;
    wait_words(&c, "#passkey-note", &words("pk.added")).await;
    wait_words(&c, "#passkey-list", "Work laptop").await;
    let creds = held(&rig, &c, &authenticator).await;
    assert_eq!(creds.len(), 1, "{creds:?}");
    assert_eq!(
        creds[0]["isResidentCredential"], true,
        "a discoverable passkey"
    );
    shot(&c, "passkeys-account-1440").await;

    // the same device cannot add a second passkey of this account
    type_into(&c, "#passkey-name", "Again").await;
    click(&c, "#passkey-add").await;
    wait_words(&c, "#passkey-note", &words("pk.already")).await;

    // signed out, the passkey signs in with no user name typed; first
    // the user does not confirm it is them, and is told so
    sign_out(&c, &base).await;
    shot(&c, "passkeys-sign-in-1440").await;
    verified(&rig, &c, &authenticator, false).await;
    click(&c, "#passkey-signin").await;
    wait_words(&c, "#passkey-signin-note", &words("pk.cancelled")).await;
    verified(&rig, &c, &authenticator, true).await;
    click(&c, "#passkey-signin").await;
    let shown = until(20, 50, async || {
        let t = text_of(&c, "#profile-name").await;
        if t == "Pia" {
            Ok(t)
        } else {
            let note = text_of(&c, "#passkey-signin-note").await;
            Err(format!(
                "no profile after the passkey sign-in (note {note:?})"
            ))
        }
    })
    .await;
    assert_eq!(shown, "Pia");
    assert_eq!(wait_text(&c, "#account-link").await, "Pia");
    let (st, me) = fetch_json(&c, "/api/account", None).await;
    assert_eq!((st, &me["name"]), (200, &json!("Pia")), "{me}");
    c.goto(&format!("{base}/account"))
        .await
        .expect("account page");
    wait_words(&c, "#passkey-list", "Work laptop").await;
    assert!(
        !text_of(&c, "#passkey-list")
            .await
            .contains(&words("pk.never_used")),
        "the list says when it was used"
    );

    // removed, it signs in no more: refused in words, still signed out
    click(&c, ".passkey-remove").await;
    wait_words(&c, "#passkey-note", &words("pk.removed")).await;
    wait_words(&c, "#passkey-list", &words("pk.none")).await;
    sign_out(&c, &base).await;
    click(&c, "#passkey-signin").await;
    wait_words(&c, "#passkey-signin-note", &unknown_words()).await;
    let (st, _) = fetch_json(&c, "/api/account", None).await;
    assert_eq!(st, 401, "the removed passkey did not sign in");

    // a browser without WebAuthn is told so
    c.execute("window.PublicKeyCredential = undefined;", vec![])
        .await
        .expect("hide WebAuthn");
    click(&c, "#passkey-signin").await;
    wait_words(&c, "#passkey-signin-note", &words("pk.unsupported")).await;
    c.close().await.expect("close");

    // the same pages on a phone (the account from above, signed in by
    // password; a passkey added there)
    let (p, _) = rig.browser_sized("pk-phone", Some((390, 844))).await;
    p.goto(&base).await.expect("open the lobby");
    virtual_authenticator(&rig, &p).await;
    p.goto(&format!("{base}/account"))
        .await
        .expect("account page");
    wait_for(&p, "#passkey-signin").await;
    shot(&p, "passkeys-sign-in-390").await;
    type_into(&p, "#signin-name", "Pia").await;
    type_into(&p, "#signin-password", "a long enough password").await;
    click(&p, "#signin-go").await;
    until(20, 50, async || {
        let t = text_of(&p, "#profile-name").await;
        if t == "Pia" {
            Ok(())
        } else {
            Err(format!(
                "no profile after signing in by password (saw {t:?})"
            ))
        }
    })
    .await;
    p.goto(&format!("{base}/account"))
        .await
        .expect("account page");
    type_into(&p, "#passkey-name", "Phone").await;
    click(&p, "#passkey-add").await;
    wait_words(&p, "#passkey-list", "Phone").await;
    shot(&p, "passkeys-account-390").await;
    // nothing wider than the phone's screen
    let wide = p
        .execute(
            "return document.documentElement.scrollWidth <= window.innerWidth + 1;",
            vec![],
        )
        .await
        .expect("measure");
    assert_eq!(wide, json!(true), "the account page fits the phone");
    // the passkeys in every language (Persian right to left): fonts,
    // nothing overlapping or sticking out
    for lang in LANGUAGES {
        check_language(&p, "passkeys-account", "390x844", lang, json!([])).await;
    }
    select_option(&p, "#lang", "en").await;
    p.close().await.expect("close");
}
