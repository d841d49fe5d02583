//! Passkeys (docs/api.md "Passkeys"): a signed-in account lists, adds
//! and removes its passkeys (`GET /api/account/passkeys`, `POST
//! …/passkeys/add/begin`, `…/add/finish`, `…/passkeys/remove`); anyone
//! signs in with one (`POST /api/account/passkey-signin/begin`,
//! `…/finish`), which starts the same session as a password. The rules
//! are [`crate::accounts::passkeys`]; sign-in failures count and wait as
//! a password's do ([`crate::accounts::throttle`]).

use super::account::{
    count_failure, db_error, refuse_while_waiting, start_session, JsonOnly, SignedOutBody,
};
use super::extract::ClientAddress;
use crate::accounts::passkeys::{
    self as pk, Ceremony, CeremonyState, Kind, RelyingParty, MAX_PASSKEYS,
};
use crate::accounts::{name_key, session::Account, throttle};
use crate::app::App;
use crate::db::{CeremonyRow, DbError, PasskeyRow};
use crate::error::ApiError;
use crate::input::{self, Hints};
use crate::tables::{now_ms, TableError};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;
use webauthn_rs::prelude::{Passkey, PublicKeyCredential, RegisterPublicKeyCredential, Uuid};

/// The passkey routes.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/account/passkeys", get(list))
        .route("/api/account/passkeys/add/begin", post(add_begin))
        .route("/api/account/passkeys/add/finish", post(add_finish))
        .route("/api/account/passkeys/remove", post(remove))
        .route("/api/account/passkey-signin/begin", post(sign_in_begin))
        .route("/api/account/passkey-signin/finish", post(sign_in_finish))
}

/// The answer to a passkey that no live account has (or no longer has).
const UNKNOWN: &str = "this passkey is not one of an account here (or it was removed)";

fn internal(e: impl std::fmt::Display) -> ApiError {
    ApiError::from(TableError::Internal(e.to_string()))
}

fn no_store(mut r: Response) -> Response {
    r.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

/// The relying party of a begin request, or a 400 in words.
fn relying_party(app: &App, headers: &HeaderMap) -> Result<RelyingParty, ApiError> {
    pk::relying_party(&app.cfg, headers).map_err(|m| ApiError::bad(m).coded("passkey.origin"))
}

/// Stores a ceremony begun and answers `{"ceremony", "options"}`.
async fn begin(
    app: &App,
    kind: Kind,
    user_id: Option<i64>,
    ceremony: &Ceremony,
    options: Value,
) -> Result<Response, ApiError> {
    let (token, _) = crate::auth::new_token();
    let now = now_ms();
    let row = CeremonyRow {
        kind: kind.as_str().into(),
        user_id,
        state: serde_json::to_string(ceremony).map_err(internal)?,
        expires_ms: now + app.cfg.passkey_ceremony.as_millis() as i64,
    };
    app.db
        .begin_ceremony(&token, &row, now)
        .await
        .map_err(db_error)?;
    Ok(no_store(
        Json(json!({"ceremony": token, "options": options})).into_response(),
    ))
}

/// Takes the ceremony `token` of `kind` (of account `user_id` when
/// adding): its state.
///
/// # Errors
/// 400 `passkey.expired` for a token of no ceremony (never begun,
/// finished already, removed) or one that expired, 403 for a ceremony of
/// another account or kind.
async fn take(
    app: &App,
    token: &str,
    kind: Kind,
    user_id: Option<i64>,
) -> Result<Ceremony, ApiError> {
    let expired = |why: &str| ApiError::bad(format!("{why}: begin again")).coded("passkey.expired");
    let Some(row) = app.db.take_ceremony(token).await.map_err(db_error)? else {
        return Err(expired(
            "no passkey request has this `ceremony` (it was finished already, or it expired)",
        ));
    };
    if row.kind != kind.as_str() || row.user_id != user_id {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "this passkey request was begun for another purpose or another account",
        ));
    }
    if row.expires_ms < now_ms() {
        let secs = app.cfg.passkey_ceremony.as_secs();
        return Err(expired(&format!(
            "this passkey request expired ({secs} s after it began)"
        )));
    }
    serde_json::from_str(&row.state).map_err(internal)
}

/// `GET /api/account/passkeys`: `{"passkeys": [{"id", "name",
/// "created_ms", "used_ms"}]}`, oldest first.
pub async fn list(State(app): State<Arc<App>>, Account(s): Account) -> Result<Response, ApiError> {
    let rows = app.db.passkeys_of(s.user_id).await.map_err(db_error)?;
    let list: Vec<Value> = rows
        .iter()
        .map(|p| json!({"id": p.id, "name": p.name, "created_ms": p.created_ms, "used_ms": p.used_ms}))
        .collect();
    Ok(no_store(Json(json!({"passkeys": list})).into_response()))
}

/// A body that must be the empty object `{}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Empty {}

impl SignedOutBody for Empty {
    const HINTS: Hints = &[];
}

/// `POST /api/account/passkeys/add/begin` (cookie + CSRF): `{}` →
/// `{"ceremony", "options"}`, the options for
/// `navigator.credentials.create()` (a discoverable credential, user
/// verification required; the account's passkeys excluded).
pub async fn add_begin(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Account(s): Account,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let _: Empty = input::body(body, Empty::HINTS)?;
    let rp = relying_party(&app, &headers)?;
    let have = app.db.passkeys_of(s.user_id).await.map_err(db_error)?;
    if have.len() >= MAX_PASSKEYS {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            format!("an account has at most {MAX_PASSKEYS} passkeys: remove one first"),
        )
        .coded("passkey.too_many"));
    }
    let handle = have
        .first()
        .map_or_else(|| Uuid::new_v4().to_string(), |p| p.handle.clone());
    let uuid = Uuid::parse_str(&handle).map_err(internal)?;
    let exclude = have
        .iter()
        .filter_map(|p| serde_json::from_str::<Passkey>(&p.passkey).ok())
        .map(|p| p.cred_id().clone())
        .collect();
    let wa = rp.webauthn().map_err(internal)?;
    let (ccr, reg) = wa
        .start_passkey_registration(uuid, &s.name, &s.name, Some(exclude))
        .map_err(internal)?;
    let options = pk::creation_options(&ccr);
    let ceremony = Ceremony {
        rp,
        state: CeremonyState::Add { handle, reg },
    };
    begin(&app, Kind::Add, Some(s.user_id), &ceremony, options).await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct AddReq {
    ceremony: String,
    name: String,
    credential: RegisterPublicKeyCredential,
}

pub(super) const ADD_HINTS: Hints = &[
    ("ceremony", "a string (the `ceremony` the begin answered)"),
    ("name", "a string (the passkey's name, 1 to 40 characters)"),
    (
        "credential",
        "the credential navigator.credentials.create() made, as JSON (binary as base64url)",
    ),
];

/// `POST /api/account/passkeys/add/finish` (cookie + CSRF): `{"ceremony",
/// "name", "credential"}` → 201 `{"id", "name", "created_ms"}`.
pub async fn add_finish(
    State(app): State<Arc<App>>,
    Account(s): Account,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let req: AddReq = input::body(body, ADD_HINTS)?;
    let name = pk::check_name(&req.name)
        .map_err(|m| ApiError::bad(format!("field `name`: {m}")).coded("passkey.name"))?;
    let Ceremony { rp, state } = take(&app, &req.ceremony, Kind::Add, Some(s.user_id)).await?;
    let CeremonyState::Add { handle, reg } = state else {
        return Err(internal("an add ceremony without its registration state"));
    };
    let wa = rp.webauthn().map_err(internal)?;
    let passkey = wa
        .finish_passkey_registration(&req.credential, &reg)
        .map_err(|e| {
            ApiError::bad(format!("the new passkey was not accepted: {e}")).coded("passkey.refused")
        })?;
    let now = now_ms();
    let row = PasskeyRow {
        id: hex::encode(passkey.cred_id()),
        user_id: s.user_id,
        user_name: s.name.clone(),
        handle,
        name,
        passkey: serde_json::to_string(&passkey).map_err(internal)?,
        created_ms: now,
        used_ms: None,
    };
    match app.db.add_passkey(&row).await {
        Ok(()) => {}
        Err(DbError::Conflict) => {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "this passkey is registered already (to this account or another)",
            )
            .coded("passkey.taken"))
        }
        Err(e) => return Err(db_error(e)),
    }
    tracing::info!(user = s.user_id, "passkey added");
    Ok(no_store(
        (
            StatusCode::CREATED,
            Json(json!({"id": row.id, "name": row.name, "created_ms": now})),
        )
            .into_response(),
    ))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RemoveReq {
    id: String,
}

pub(super) const REMOVE_HINTS: Hints = &[("id", "a string (the passkey's `id` as listed)")];

/// `POST /api/account/passkeys/remove` (cookie + CSRF): `{"id"}` → 200
/// `{"removed": true}`; 404 for an id that is not one of the account's
/// passkeys. A removed passkey signs in no more.
pub async fn remove(
    State(app): State<Arc<App>>,
    Account(s): Account,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let req: RemoveReq = input::body(body, REMOVE_HINTS)?;
    if !app
        .db
        .remove_passkey(s.user_id, &req.id)
        .await
        .map_err(db_error)?
    {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            format!(
                "field `id`: `{}` is not one of your passkeys",
                crate::limits::echo(&req.id)
            ),
        ));
    }
    tracing::info!(user = s.user_id, "passkey removed");
    Ok(Json(json!({"removed": true})))
}

/// `POST /api/account/passkey-signin/begin`: `{}` (as JSON) →
/// `{"ceremony", "options"}`, the options for
/// `navigator.credentials.get()` (no credential named: the authenticator
/// offers the passkeys it holds for this site). 429 while this address's
/// failed sign-ins make it wait.
pub async fn sign_in_begin(
    State(app): State<Arc<App>>,
    ClientAddress(address): ClientAddress,
    JsonOnly(headers, Empty {}): JsonOnly<Empty>,
) -> Result<Response, ApiError> {
    refuse_while_waiting(&app, &address_key(&address), now_ms()).await?;
    let rp = relying_party(&app, &headers)?;
    let wa = rp.webauthn().map_err(internal)?;
    let (rcr, auth) = wa.start_discoverable_authentication().map_err(internal)?;
    let options = pk::request_options(&rcr);
    let ceremony = Ceremony {
        rp,
        state: CeremonyState::SignIn { auth },
    };
    begin(&app, Kind::SignIn, None, &ceremony, options).await
}

/// The throttle key of an address alone (the first of
/// [`throttle::keys`]).
fn address_key(address: &str) -> [String; 1] {
    let [a, _, _] = throttle::keys("", address);
    [a]
}

/// The body of a passkey sign-in's finish.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SignInReq {
    ceremony: String,
    credential: PublicKeyCredential,
}

impl SignedOutBody for SignInReq {
    const HINTS: Hints = &[
        ("ceremony", "a string (the `ceremony` the begin answered)"),
        (
            "credential",
            "the credential navigator.credentials.get() answered, as JSON (binary as base64url)",
        ),
    ];
}

/// `POST /api/account/passkey-signin/finish`: `{"ceremony",
/// "credential"}` → 200 `{"name", "csrf"}` and the session cookie, as a
/// password sign-in; 401 `passkey.unknown` for a passkey no account has
/// (or a removed one), 401 `passkey.refused` for an answer that does not
/// verify; each counts as a failed sign-in (429 while they make the
/// address or the account wait).
pub async fn sign_in_finish(
    State(app): State<Arc<App>>,
    ClientAddress(address): ClientAddress,
    JsonOnly(headers, req): JsonOnly<SignInReq>,
) -> Result<Response, ApiError> {
    let now = now_ms();
    let alone = address_key(&address);
    refuse_while_waiting(&app, &alone, now).await?;
    let Ceremony { rp, state } = take(&app, &req.ceremony, Kind::SignIn, None).await?;
    let CeremonyState::SignIn { auth } = state else {
        return Err(internal(
            "a sign-in ceremony without its authentication state",
        ));
    };
    let wa = rp.webauthn().map_err(internal)?;
    let unknown = || ApiError::new(StatusCode::UNAUTHORIZED, UNKNOWN).coded("passkey.unknown");
    let found = match wa.identify_discoverable_authentication(&req.credential) {
        Ok((handle, cred_id)) => app
            .db
            .passkey(&hex::encode(cred_id))
            .await
            .map_err(db_error)?
            .filter(|row| row.handle == handle.to_string()),
        Err(_) => None,
    };
    let Some(row) = found else {
        count_failure(&app, &alone, now).await?;
        return Err(unknown());
    };
    let keys = throttle::keys(&name_key(&row.user_name), &address);
    refuse_while_waiting(&app, &keys, now).await?;
    let mut passkey: Passkey = serde_json::from_str(&row.passkey).map_err(internal)?;
    let result = match wa.finish_discoverable_authentication_v2(&req.credential, auth, &passkey) {
        Ok(r) => r,
        Err(e) => {
            count_failure(&app, &keys, now).await?;
            return Err(ApiError::new(
                StatusCode::UNAUTHORIZED,
                format!("the passkey's answer did not verify: {e}"),
            )
            .coded("passkey.refused"));
        }
    };
    let changed = passkey.update_credential(&result) == Some(true);
    let json = if changed {
        Some(serde_json::to_string(&passkey).map_err(internal)?)
    } else {
        None
    };
    app.db
        .passkey_used(&row.id, json.as_deref(), now)
        .await
        .map_err(db_error)?;
    app.db
        .clear_failures(&keys[1..], now - throttle::FORGET_MS)
        .await
        .map_err(db_error)?;
    tracing::info!(user = row.user_id, "signed in with a passkey");
    start_session(&app, StatusCode::OK, row.user_id, &row.user_name, &headers).await
}
