//! Accounts (docs/api.md "Accounts"): `POST /api/account/signup`,
//! `/signin`, `/signout`, `/signout-everywhere`, `/password`, `/delete`,
//! `/claim`, and `GET /api/account`. The rules (names, passwords,
//! sessions, delays) are [`crate::accounts`]; passkeys, the other way to
//! sign in, are [`super::passkeys`].

use super::extract::ClientAddress;
use crate::accounts::password::{self, check_password};
use crate::accounts::session::{self, clear_cookie, set_cookie, Account};
use crate::accounts::{check_name, name_key, throttle};
use crate::app::App;
use crate::db::DbError;
use crate::error::ApiError;
use crate::input::{self, Hints};
use crate::tables::{now_ms, TableError};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{FromRequest, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;

/// The account routes.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/account", get(me))
        .route("/api/account/signup", post(sign_up))
        .route("/api/account/signin", post(sign_in))
        .route("/api/account/signout", post(sign_out))
        .route("/api/account/signout-everywhere", post(sign_out_everywhere))
        .route("/api/account/password", post(change_password))
        .route("/api/account/delete", post(delete))
        .route("/api/account/claim", post(claim))
}

/// The body of a sign-up or a password sign-in.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    name: String,
    password: String,
}

impl SignedOutBody for Credentials {
    const HINTS: Hints = &[
        ("name", "a string (the user name)"),
        ("password", "a string (the password)"),
    ];
}

/// The answer that is the same for a name no account has and a wrong
/// password.
const WRONG: &str = "wrong user name or password";

pub(super) fn db_error(e: DbError) -> ApiError {
    ApiError::from(TableError::from(e))
}

/// Refuses a sign-up or sign-in whose body is not declared JSON: a form
/// of another site cannot send `application/json` without the browser
/// asking this server first (which it never allows), so no other site
/// can sign a visitor in to an account of its choosing.
fn json_only(headers: &HeaderMap) -> Result<(), ApiError> {
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.trim()
                .to_ascii_lowercase()
                .starts_with("application/json")
        });
    if json {
        Ok(())
    } else {
        Err(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "send the body as JSON with `Content-Type: application/json`",
        ))
    }
}

/// A JSON body of a request made before any session (sign-up, sign-in):
/// what each of its fields must be.
pub trait SignedOutBody: DeserializeOwned {
    /// The hints of [`input::body`].
    const HINTS: Hints;
}

/// The headers and the body (as `T`) of a request made before any
/// session: refused before the body is read when it is not declared JSON
/// ([`json_only`]), then read as [`input::body`] reads it.
pub struct JsonOnly<T>(pub HeaderMap, pub T);

impl<T: SignedOutBody, S: Send + Sync> FromRequest<S> for JsonOnly<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        json_only(req.headers())?;
        let headers = req.headers().clone();
        let body = Bytes::from_request(req, state).await;
        Ok(JsonOnly(headers, input::body(body, T::HINTS)?))
    }
}

/// An answer with `body` that sets (or with `None` removes) the session
/// cookie.
fn with_cookie(status: StatusCode, body: Value, token: Option<&str>, secure: bool) -> Response {
    let cookie = match token {
        Some(t) => set_cookie(t, secure),
        None => clear_cookie(secure),
    };
    let mut r = (status, Json(body)).into_response();
    if let Ok(v) = HeaderValue::from_str(&cookie) {
        r.headers_mut().insert(header::SET_COOKIE, v);
    }
    r.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

/// Starts a session of `user_id` and answers it (`status`, the account,
/// the cookie).
pub(super) async fn start_session(
    app: &App,
    status: StatusCode,
    user_id: i64,
    name: &str,
    headers: &HeaderMap,
) -> Result<Response, ApiError> {
    let (token, hash) = session::new_session_token();
    let csrf = session::new_csrf();
    app.db
        .create_session(&hash, user_id, &csrf, now_ms())
        .await
        .map_err(db_error)?;
    let body = json!({"name": name, "csrf": csrf});
    Ok(with_cookie(
        status,
        body,
        Some(&token),
        session::is_https(None, headers),
    ))
}

/// `POST /api/account/signup`: `{"name", "password"}` → 201 with the
/// account and the session cookie.
pub async fn sign_up(
    State(app): State<Arc<App>>,
    JsonOnly(headers, req): JsonOnly<Credentials>,
) -> Result<Response, ApiError> {
    check_name(&req.name)
        .map_err(|m| ApiError::bad(format!("field `name`: {m}")).coded("account.name"))?;
    check_password(&req.password, &req.name)
        .map_err(|m| ApiError::bad(format!("field `password`: {m}")).coded("account.password"))?;
    let key = name_key(&req.name);
    let taken = || {
        ApiError::new(
            StatusCode::CONFLICT,
            format!(
                "the user name `{}` is taken (or reads like one that is)",
                req.name
            ),
        )
        .coded("account.name_taken")
    };
    if app.db.user_by_key(&key).await.map_err(db_error)?.is_some() {
        return Err(taken());
    }
    let hash = password::hash_async(req.password)
        .await
        .map_err(|m| ApiError::from(TableError::Internal(m)))?;
    let id = match app.db.create_user(&req.name, &key, &hash, now_ms()).await {
        Ok(id) => id,
        Err(DbError::Conflict) => return Err(taken()),
        Err(e) => return Err(db_error(e)),
    };
    tracing::info!(user = id, "account created");
    start_session(&app, StatusCode::CREATED, id, &req.name, &headers).await
}

/// Checks `password` for the account named by `key`, through the
/// sign-in delays of `address`: the account when it matches.
///
/// # Errors
/// 429 with `Retry-After` while the attempt must wait, 401 [`WRONG`]
/// for no such account or a wrong password (the same words and time).
async fn check_credentials(
    app: &App,
    key: &str,
    password: String,
    address: &str,
) -> Result<crate::db::UserRow, ApiError> {
    let keys = throttle::keys(key, address);
    let now = now_ms();
    refuse_while_waiting(app, &keys, now).await?;
    let user = app.db.user_by_key(key).await.map_err(db_error)?;
    let ok = password::verify_async(password, user.as_ref().map(|u| u.password.clone())).await;
    match user {
        Some(u) if ok => {
            let forget = now - throttle::FORGET_MS;
            app.db
                .clear_failures(&keys[1..], forget)
                .await
                .map_err(db_error)?;
            Ok(u)
        }
        _ => {
            count_failure(app, &keys, now).await?;
            Err(ApiError::new(StatusCode::UNAUTHORIZED, WRONG))
        }
    }
}

/// Refuses an attempt (429 with `Retry-After`) while the failed sign-ins
/// of its throttle `keys` ([`throttle::keys`], or just the address's
/// first one when no account is named yet) make it wait.
///
/// # Errors
/// The 429, or the database's error.
pub(super) async fn refuse_while_waiting(
    app: &App,
    keys: &[String],
    now: i64,
) -> Result<(), ApiError> {
    let stored = app.db.failures(keys).await.map_err(db_error)?;
    let count = |i: usize| {
        let k = keys.get(i)?;
        stored.iter().find(|(s, _)| s == k).map(|(_, c)| *c)
    };
    let wait = throttle::wait_ms(now, [count(0), count(1), count(2)]);
    if wait > 0 {
        let secs = (wait as u64).div_ceil(1000);
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!("too many failed sign-ins: wait {secs} s before trying again"),
        )
        .wait(secs));
    }
    Ok(())
}

/// Counts a failed sign-in for each of `keys` at `now`.
///
/// # Errors
/// The database's error.
pub(super) async fn count_failure(app: &App, keys: &[String], now: i64) -> Result<(), ApiError> {
    app.db
        .add_failure(keys, now, now - throttle::FORGET_MS)
        .await
        .map_err(db_error)
}

/// `POST /api/account/signin`: `{"name", "password"}` → 200 with the
/// account and the session cookie; 401 for a wrong name or password (one
/// answer for both), 429 while failed attempts must wait.
pub async fn sign_in(
    State(app): State<Arc<App>>,
    ClientAddress(address): ClientAddress,
    JsonOnly(headers, req): JsonOnly<Credentials>,
) -> Result<Response, ApiError> {
    if req.password.len() > password::MAX_PASSWORD {
        return Err(ApiError::new(StatusCode::UNAUTHORIZED, WRONG));
    }
    let user = check_credentials(&app, &name_key(&req.name), req.password, &address).await?;
    start_session(&app, StatusCode::OK, user.id, &user.name, &headers).await
}

/// `GET /api/account`: the signed-in account (`{"name", "csrf"}`), 401
/// when not signed in.
pub async fn me(Account(s): Account) -> Response {
    let mut r = Json(json!({"name": s.name, "csrf": s.csrf})).into_response();
    r.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

/// `POST /api/account/signout`: ends this session.
pub async fn sign_out(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Account(s): Account,
) -> Result<Response, ApiError> {
    app.db
        .delete_session(&s.token_hash)
        .await
        .map_err(db_error)?;
    Ok(with_cookie(
        StatusCode::OK,
        json!({"signed_out": 1}),
        None,
        session::is_https(None, &headers),
    ))
}

/// `POST /api/account/signout-everywhere`: ends every session of the
/// account, this one too, on every instance.
pub async fn sign_out_everywhere(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Account(s): Account,
) -> Result<Response, ApiError> {
    let n = app
        .db
        .delete_sessions(s.user_id, None)
        .await
        .map_err(db_error)?;
    Ok(with_cookie(
        StatusCode::OK,
        json!({"signed_out": n}),
        None,
        session::is_https(None, &headers),
    ))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PasswordReq {
    password: String,
    new_password: String,
}

pub(super) const PASSWORD_HINTS: Hints = &[
    ("password", "a string (the current password)"),
    ("new_password", "a string (the new password)"),
];

/// `POST /api/account/password`: `{"password", "new_password"}`; the
/// other sessions of the account end.
pub async fn change_password(
    State(app): State<Arc<App>>,
    ClientAddress(address): ClientAddress,
    Account(s): Account,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let req: PasswordReq = input::body(body, PASSWORD_HINTS)?;
    check_password(&req.new_password, &s.name).map_err(|m| {
        ApiError::bad(format!("field `new_password`: {m}")).coded("account.password")
    })?;
    let user = check_credentials(&app, &name_key(&s.name), req.password, &address).await?;
    let hash = password::hash_async(req.new_password)
        .await
        .map_err(|m| ApiError::from(TableError::Internal(m)))?;
    app.db
        .set_password(user.id, &hash)
        .await
        .map_err(db_error)?;
    let ended = app
        .db
        .delete_sessions(user.id, Some(&s.token_hash))
        .await
        .map_err(db_error)?;
    Ok(Json(json!({"changed": true, "signed_out": ended})))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct DeleteReq {
    password: String,
}

pub(super) const DELETE_HINTS: Hints = &[("password", "a string (the password)")];

/// `POST /api/account/delete`: `{"password"}`; the account's games stay,
/// its name becomes "deleted player" and is free again.
pub async fn delete(
    State(app): State<Arc<App>>,
    ClientAddress(address): ClientAddress,
    headers: HeaderMap,
    Account(s): Account,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let req: DeleteReq = input::body(body, DELETE_HINTS)?;
    let user = check_credentials(&app, &name_key(&s.name), req.password, &address).await?;
    app.db
        .delete_user(user.id, now_ms())
        .await
        .map_err(db_error)?;
    tracing::info!(user = user.id, "account deleted");
    Ok(with_cookie(
        StatusCode::OK,
        json!({"deleted": true}),
        None,
        session::is_https(None, &headers),
    ))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ClaimReq {
    seats: Vec<ClaimSeat>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClaimSeat {
    table: String,
    token: String,
}

pub(super) const CLAIM_HINTS: Hints = &[(
    "seats",
    "an array of {\"table\": table id, \"token\": seat token}",
)];

/// Most seats claimed in one request.
pub const MAX_CLAIM: usize = 200;

/// `POST /api/account/claim`: `{"seats": [{"table", "token"}, …]}` — the
/// seats (and finished games) a guest played in this browser become the
/// account's; answers `{"claimed": [true|false, …]}` in order (false: no
/// such table, a token of no seat, or a seat already an account's).
pub async fn claim(
    State(app): State<Arc<App>>,
    Account(s): Account,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let req: ClaimReq = input::body(body, CLAIM_HINTS)?;
    if req.seats.len() > MAX_CLAIM {
        return Err(ApiError::bad(format!(
            "field `seats`: at most {MAX_CLAIM} seats at once"
        )));
    }
    let mut claimed = Vec::with_capacity(req.seats.len());
    for c in &req.seats {
        if !crate::auth::table_id_ok(&c.table) || !crate::auth::well_formed(&c.token) {
            claimed.push(false);
            continue;
        }
        let hash = crate::auth::hash(&c.token);
        let held = match app.open(&c.table).await {
            Ok(t) => t.core.seat_of(&hash).is_some(),
            Err(TableError::NotFound(_)) => false,
            Err(e) => return Err(e.into()),
        };
        let done = app
            .db
            .own_seat(&c.table, &hex::encode(hash), s.user_id, held)
            .await
            .map_err(db_error)?;
        claimed.push(done);
    }
    Ok(Json(json!({"claimed": claimed})))
}
