//! Passkeys (WebAuthn), a second way to sign in, through `webauthn-rs`'s
//! passkey API: a signed-in person adds passkeys to their account (each
//! named by them), anyone signs in with one without typing a name (a
//! discoverable credential: the authenticator answers the account's user
//! handle). The HTTP routes are [`crate::routes::passkeys`]
//! (docs/api.md "Passkeys"); storage is [`crate::db`] (migration 0004).
//!
//! What is stored per passkey is public: its credential id, its public
//! key (COSE), its signature counter and backup flags (webauthn-rs's
//! `Passkey` as JSON), the account's user handle (a random UUID, the
//! same for every passkey of an account), a name and two times. The
//! private key never leaves the authenticator.
//!
//! A ceremony (begin → the browser asks the authenticator → finish) keeps
//! its state, the challenge, in the database between the two requests
//! ([`Ceremony`]), so that the finish may reach another instance; it
//! expires after [`crate::config::ServerConfig::passkey_ceremony`] and is
//! used once (the finish takes it, whatever the outcome).
//!
//! The relying party ([`RelyingParty`]): the origin the pages are served
//! from and its host as the RP id, either configured (`passkey_origin`,
//! `passkey_rp_id`; docs/deploy.md "Passkeys") or read from each begin
//! request (its `Host` and, behind a proxy, `X-Forwarded-Proto`). A
//! passkey works only at the RP id it was made for, and WebAuthn wants a
//! domain: `http://localhost:8080` works, `http://127.0.0.1:8080` does
//! not (the begin is refused in words).

use crate::config::ServerConfig;
use axum::http::{header, HeaderMap};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use webauthn_rs::prelude::{
    CreationChallengeResponse, DiscoverableAuthentication, PasskeyRegistration,
    RequestChallengeResponse, Url, Webauthn, WebauthnBuilder,
};

/// Most passkeys of one account.
pub const MAX_PASSKEYS: usize = 20;
/// Most characters of a passkey's name.
pub const MAX_NAME: usize = 40;
/// The relying party's name the authenticator may show.
pub const RP_NAME: &str = "Sequence";

/// Where passkeys are bound: the origin of the pages and the RP id (that
/// origin's host, or a parent domain of it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RelyingParty {
    /// The RP id: a domain (`localhost`, `play.example.org`).
    pub id: String,
    /// The origin: `scheme://host[:port]`, no path.
    pub origin: String,
}

impl RelyingParty {
    /// The webauthn-rs handle of this relying party.
    ///
    /// # Errors
    /// The origin is not a URL with a domain, or the id is not that
    /// domain or a parent of it: in words.
    pub fn webauthn(&self) -> Result<Webauthn, String> {
        let origin = Url::parse(&self.origin)
            .map_err(|e| format!("the origin {:?} is not a URL: {e}", self.origin))?;
        if origin.domain().is_none() {
            return Err(format!(
                "passkeys need a page opened at a domain name, not at an IP address ({}): \
                 open it at http://localhost:PORT, or set passkey_origin",
                self.origin
            ));
        }
        WebauthnBuilder::new(&self.id, &origin)
            .and_then(|b| b.rp_name(RP_NAME).build())
            .map_err(|_| {
                format!(
                    "the passkey RP id {:?} is not the host of {} nor a parent domain of it",
                    self.id, self.origin
                )
            })
    }
}

/// The relying party of a begin request: the configured origin and RP
/// id, else the request's own origin (`Host`, https when the request
/// came over it) and its host.
///
/// # Errors
/// No `Host`, an IP address, or a configuration that does not hold: in
/// words (the message of a 400).
pub fn relying_party(cfg: &ServerConfig, headers: &HeaderMap) -> Result<RelyingParty, String> {
    let origin = match &cfg.passkey_origin {
        Some(o) => o.trim_end_matches('/').to_string(),
        None => {
            let host = headers
                .get(header::HOST)
                .and_then(|v| v.to_str().ok())
                .filter(|h| !h.is_empty())
                .ok_or("the request has no Host header: passkeys need the page's origin")?;
            let https = crate::accounts::session::is_https(None, headers);
            format!("{}://{host}", if https { "https" } else { "http" })
        }
    };
    let url =
        Url::parse(&origin).map_err(|e| format!("the origin {origin:?} is not a URL: {e}"))?;
    let host = url.host_str().unwrap_or_default().to_string();
    let rp = RelyingParty {
        id: cfg.passkey_rp_id.clone().unwrap_or(host),
        origin: url.origin().ascii_serialization(),
    };
    rp.webauthn()?;
    Ok(rp)
}

/// Checks the passkey settings (`passkey_origin`, `passkey_rp_id`) at
/// start: an origin `http(s)://domain[:port]` without a path, and an RP
/// id that is its host or a parent domain of it.
///
/// # Errors
/// What is wrong, in words.
pub fn check_settings(origin: Option<&str>, rp_id: Option<&str>) -> Result<(), String> {
    let Some(origin) = origin else {
        return match rp_id {
            Some(id) if id.is_empty() || id.contains([':', '/', ' ']) => Err(format!(
                "{id:?} is not a domain (such as example.org: no scheme, port or path)"
            )),
            _ => Ok(()),
        };
    };
    let url = Url::parse(origin).map_err(|e| format!("{origin:?} is not a URL: {e}"))?;
    if !matches!(url.scheme(), "http" | "https") || url.path().len() > 1 || url.query().is_some() {
        return Err(format!(
            "{origin:?} is not an origin such as https://play.example.org (http or https, no path)"
        ));
    }
    let id = rp_id.map_or_else(
        || url.host_str().unwrap_or_default().to_string(),
        Into::into,
    );
    RelyingParty {
        id,
        origin: url.origin().ascii_serialization(),
    }
    .webauthn()
    .map(drop)
}

/// Checks a passkey's name: 1 to [`MAX_NAME`] characters once trimmed,
/// no control or bidi control characters; the trimmed name.
///
/// # Errors
/// What is wrong, in words.
pub fn check_name(name: &str) -> Result<String, String> {
    let name = name.trim();
    let n = name.chars().count();
    if n == 0 || n > MAX_NAME {
        return Err(format!(
            "a passkey's name has 1 to {MAX_NAME} characters, not {n}"
        ));
    }
    if let Some(c) = name
        .chars()
        .find(|&c| c.is_control() || crate::limits::is_bidi_control(c))
    {
        return Err(format!(
            "a passkey's name has no control characters (U+{:04X})",
            c as u32
        ));
    }
    Ok(name.to_string())
}

/// What a ceremony is for (the `kind` column).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A signed-in account adds a passkey.
    Add,
    /// Someone signs in with a passkey.
    SignIn,
}

impl Kind {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Add => "add",
            Kind::SignIn => "signin",
        }
    }
}

/// The state of a ceremony between its begin and its finish, stored as
/// JSON (the challenge is in webauthn-rs's part).
#[derive(Debug, Serialize, Deserialize)]
pub struct Ceremony {
    /// The relying party the begin used; the finish checks against it.
    pub rp: RelyingParty,
    /// What webauthn-rs keeps.
    pub state: CeremonyState,
}

/// webauthn-rs's state of a ceremony.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CeremonyState {
    /// Adding a passkey for the account whose user handle is `handle`.
    Add {
        /// The account's user handle (a UUID).
        handle: String,
        /// webauthn-rs's registration state.
        reg: PasskeyRegistration,
    },
    /// Signing in with a discoverable passkey.
    SignIn {
        /// webauthn-rs's authentication state.
        auth: DiscoverableAuthentication,
    },
}

/// The options of `navigator.credentials.create()` for adding a passkey:
/// webauthn-rs's, asking for a discoverable credential (resident key
/// required), so that it signs in without a user name. (webauthn-rs
/// asks for none by default; the finish does not check it.)
pub fn creation_options(ccr: &CreationChallengeResponse) -> Value {
    let mut v = serde_json::to_value(ccr).unwrap_or_default();
    if let Some(sel) = v
        .get_mut("publicKey")
        .and_then(|p| p.get_mut("authenticatorSelection"))
        .and_then(Value::as_object_mut)
    {
        sel.insert("residentKey".into(), "required".into());
        sel.insert("requireResidentKey".into(), true.into());
    }
    v
}

/// The options of `navigator.credentials.get()` for signing in: the
/// page asks on a button press (a modal request), not as a conditional
/// (autofill) one, so webauthn-rs's `mediation` is left out.
pub fn request_options(rcr: &RequestChallengeResponse) -> Value {
    let mut v = serde_json::to_value(rcr).unwrap_or_default();
    if let Some(o) = v.as_object_mut() {
        o.remove("mediation");
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(host: &str, proto: Option<&str>) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::HOST, HeaderValue::from_str(host).expect("host"));
        if let Some(p) = proto {
            h.insert(
                "x-forwarded-proto",
                HeaderValue::from_str(p).expect("proto"),
            );
        }
        h
    }

    #[test]
    fn the_relying_party_is_the_pages_host_unless_configured() {
        let cfg = ServerConfig::default();
        let rp = relying_party(&cfg, &headers("localhost:8080", None)).expect("localhost");
        assert_eq!(rp.id, "localhost");
        assert_eq!(rp.origin, "http://localhost:8080");
        let rp = relying_party(&cfg, &headers("play.example.org", Some("https"))).expect("proxy");
        assert_eq!(rp.origin, "https://play.example.org");
        let e = relying_party(&cfg, &headers("127.0.0.1:8080", None)).expect_err("an IP");
        assert!(e.contains("not at an IP address"), "{e}");
        assert!(relying_party(&cfg, &HeaderMap::new()).is_err());
        let cfg = ServerConfig {
            passkey_origin: Some("https://play.example.org/".into()),
            passkey_rp_id: Some("example.org".into()),
            ..ServerConfig::default()
        };
        // configured: the request's Host does not matter
        let rp = relying_party(&cfg, &headers("127.0.0.1:8080", None)).expect("configured");
        assert_eq!(
            (rp.id.as_str(), rp.origin.as_str()),
            ("example.org", "https://play.example.org")
        );
    }

    #[test]
    fn settings_are_checked() {
        assert_eq!(check_settings(None, None), Ok(()));
        assert_eq!(
            check_settings(Some("https://play.example.org"), None),
            Ok(())
        );
        assert_eq!(
            check_settings(Some("https://play.example.org"), Some("example.org")),
            Ok(())
        );
        let e = check_settings(Some("https://play.example.org"), Some("other.org")).unwrap_err();
        assert!(e.contains("not the host"), "{e}");
        assert!(check_settings(Some("https://127.0.0.1"), None).is_err());
        assert!(check_settings(Some("https://example.org/play"), None).is_err());
        assert!(check_settings(Some("ftp://example.org"), None).is_err());
        assert!(check_settings(None, Some("https://example.org")).is_err());
    }

    #[test]
    fn names_are_checked() {
        assert_eq!(check_name("  My phone "), Ok("My phone".into()));
        assert!(check_name("   ").is_err());
        assert!(check_name(&"x".repeat(41)).unwrap_err().contains("not 41"));
        assert!(check_name("a\u{202e}b").unwrap_err().contains("U+202E"));
    }
}
