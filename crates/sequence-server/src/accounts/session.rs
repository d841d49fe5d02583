//! Sessions as cookies: a signed-in browser holds `sequence_session`
//! (64 hex characters, 256 random bits; `HttpOnly`, `SameSite=Lax`,
//! `Path=/`, `Secure` when the request came over https), the database
//! holds its SHA-256 with the account and a CSRF token. Every instance
//! reads sessions from the database, so signing out (everywhere) ends
//! them on every instance at once.
//!
//! A request that a session cookie authorises and that changes anything
//! (any method but GET and HEAD) must carry the session's CSRF token in
//! the `X-CSRF-Token` header, else it is refused (403) — whatever
//! `SameSite` a browser applies.

use crate::app::App;
use crate::db::SessionRow;
use crate::error::ApiError;
use crate::tables::now_ms;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, Method, StatusCode};
use rand::RngCore;
use std::sync::Arc;

/// The session cookie's name.
pub const COOKIE: &str = "sequence_session";
/// The header of the CSRF token.
pub const CSRF_HEADER: &str = "x-csrf-token";
/// A session unused this long ends (ms): 30 days.
pub const IDLE_MS: i64 = 30 * 24 * 3600 * 1000;
/// How often a session's last use is written (ms): hourly.
const TOUCH_MS: i64 = 3600 * 1000;

/// A signed-in request's session.
#[derive(Debug, Clone)]
pub struct Session {
    /// The account's id.
    pub user_id: i64,
    /// The account's name.
    pub name: String,
    /// The session's CSRF token.
    pub csrf: String,
    /// The SHA-256 (hex) of the cookie's token.
    pub token_hash: String,
}

/// A fresh session token (64 hex characters) and its SHA-256 (hex).
pub fn new_session_token() -> (String, String) {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    let token = hex::encode(bytes);
    let hash = hex::encode(crate::auth::hash(&token));
    (token, hash)
}

/// A fresh CSRF token (32 hex characters).
pub fn new_csrf() -> String {
    crate::auth::new_token().0
}

/// The session token of a request's `Cookie` headers, if well formed.
pub fn cookie_token(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|c| c.trim().split_once('='))
        .find(|(k, _)| *k == COOKIE)
        .map(|(_, v)| v.trim().to_string())
        .filter(|t| t.len() == 64 && t.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// Whether the request came over https (directly or, behind a reverse
/// proxy, as `X-Forwarded-Proto: https` or `Forwarded: proto=https`).
pub fn is_https(parts_uri_scheme: Option<&str>, headers: &HeaderMap) -> bool {
    let said = |name: &str, want: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.to_ascii_lowercase().contains(want))
    };
    parts_uri_scheme == Some("https")
        || said("x-forwarded-proto", "https")
        || said("forwarded", "proto=https")
}

/// The `Set-Cookie` value that holds `token` (30 days).
pub fn set_cookie(token: &str, secure: bool) -> String {
    format!(
        "{COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax; Max-Age={}{}",
        IDLE_MS / 1000,
        if secure { "; Secure" } else { "" }
    )
}

/// The `Set-Cookie` value that removes the session cookie.
pub fn clear_cookie(secure: bool) -> String {
    format!(
        "{COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0{}",
        if secure { "; Secure" } else { "" }
    )
}

/// Whether two tokens are equal, without an early exit.
fn same_text(a: &str, b: &str) -> bool {
    a.len() == b.len() && crate::auth::same(&crate::auth::hash(a), &crate::auth::hash(b))
}

/// The session of a request, if it has a live one; for a change (not GET
/// or HEAD) its CSRF token must be in `X-CSRF-Token`.
///
/// # Errors
/// 403 for a change without the session's CSRF token, 503 when the
/// database cannot be reached.
pub async fn session_of(app: &App, parts: &Parts) -> Result<Option<Session>, ApiError> {
    let Some(token) = cookie_token(&parts.headers) else {
        return Ok(None);
    };
    let hash = hex::encode(crate::auth::hash(&token));
    let found = app
        .db
        .session(&hash)
        .await
        .map_err(crate::tables::TableError::from)?;
    let Some(SessionRow {
        user_id,
        name,
        csrf,
        seen_ms,
    }) = found
    else {
        return Ok(None);
    };
    let now = now_ms();
    if now - seen_ms > IDLE_MS {
        let _ = app.db.delete_session(&hash).await;
        return Ok(None);
    }
    if !matches!(parts.method, Method::GET | Method::HEAD) {
        let given = parts
            .headers
            .get(CSRF_HEADER)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        if !same_text(given.trim(), &csrf) {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "missing or wrong CSRF token: a change made while signed in carries the \
                 X-CSRF-Token header that GET /api/account answers",
            ));
        }
    }
    if now - seen_ms > TOUCH_MS {
        let _ = app.db.touch_session(&hash, now).await;
    }
    Ok(Some(Session {
        user_id,
        name,
        csrf,
        token_hash: hash,
    }))
}

/// The signed-in account of a request, if any ([`session_of`]): routes
/// that guests use too (creating and joining tables).
pub struct Signed(pub Option<Session>);

impl FromRequestParts<Arc<App>> for Signed {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<Self, ApiError> {
        session_of(app, parts).await.map(Signed)
    }
}

/// The signed-in account of a request that needs one: 401 without.
pub struct Account(pub Session);

impl FromRequestParts<Arc<App>> for Account {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<Self, ApiError> {
        match session_of(app, parts).await? {
            Some(s) => Ok(Account(s)),
            None => Err(ApiError::new(
                StatusCode::UNAUTHORIZED,
                "not signed in: sign in first (POST /api/account/signin)",
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn the_cookie_is_read_among_others_and_checked() {
        let (t, h) = new_session_token();
        assert_eq!(t.len(), 64);
        assert_eq!(h, hex::encode(crate::auth::hash(&t)));
        let mut headers = HeaderMap::new();
        let v = format!("theme=dark; {COOKIE}={t}; lang=fa");
        headers.insert(header::COOKIE, HeaderValue::from_str(&v).expect("header"));
        assert_eq!(cookie_token(&headers), Some(t.clone()));
        headers.insert(
            header::COOKIE,
            HeaderValue::from_static("sequence_session=xyz"),
        );
        assert_eq!(cookie_token(&headers), None);
    }

    #[test]
    fn cookies_are_http_only_lax_and_secure_over_https() {
        let c = set_cookie("abc", false);
        assert!(c.contains("HttpOnly") && c.contains("SameSite=Lax") && !c.contains("Secure"));
        assert!(set_cookie("abc", true).ends_with("; Secure"));
        assert!(clear_cookie(false).contains("Max-Age=0"));
        let mut h = HeaderMap::new();
        assert!(!is_https(None, &h));
        h.insert("x-forwarded-proto", HeaderValue::from_static("https"));
        assert!(is_https(None, &h));
    }
}
