//! The operators' API under `/api/admin/` (`sequence admin`,
//! docs/deploy.md "Administration"): every request carries
//! `Authorization: Bearer ADMIN_TOKEN`, the token the server was started
//! with (`--admin-token` or `SEQUENCE_ADMIN_TOKEN`); without one the
//! whole API answers 404.
//!
//! * `GET /api/admin/tables`: the tables in memory here, with their
//!   seats and WebSockets;
//! * `POST /api/admin/tables/{id}/close` `{"reason"}`: closes a table;
//!   its players see the reason (in the table info of every view, and a
//!   `closed` message on the WebSocket);
//! * `POST /api/admin/tables/{id}/seats/{seat}/name` `{"name"}`: renames
//!   the person at a seat (`null`: a neutral `Player N`);
//! * `GET /api/admin/leases`: the instances and their leases.

use super::extract::name_of;
use crate::app::App;
use crate::error::ApiError;
use crate::input::{self, ApiPath, Hints};
use crate::tables::{Event, TableError};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;

/// Refuses a request without the admin token (404 when the server has
/// none: the API is off).
///
/// # Errors
/// 404 without an admin token configured; 401 without or with a wrong
/// token.
fn admin_only(app: &App, headers: &HeaderMap) -> Result<(), ApiError> {
    let Some(want) = app.cfg.admin_token.as_deref() else {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "the admin API is off: start the server with --admin-token (or SEQUENCE_ADMIN_TOKEN)",
        ));
    };
    let given = headers
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|h| h.to_str().ok())
        .and_then(|h| h.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, t)| t.trim());
    match given {
        Some(t) if crate::auth::same(&crate::auth::hash(t), &crate::auth::hash(want)) => Ok(()),
        Some(_) => Err(ApiError::new(StatusCode::UNAUTHORIZED, "wrong admin token")),
        None => Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "missing admin token: use `Authorization: Bearer <admin token>`",
        )),
    }
}

/// `GET /api/admin/tables`: `{"instance", "websockets", "tables": [{"id",
/// "name", "game", "status", "closed", "game_no", "move_number", "seats":
/// [{"seat", "name", "kind", "connected"}], "sockets": [{"conn", "seat"}]}]}`
/// for every table in memory here, by id.
pub async fn tables(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    admin_only(&app, &headers)?;
    let mut out = Vec::new();
    for tref in app.all_tables() {
        let t = tref.lock().await;
        let info = t.info();
        let seats: Vec<Value> = info["seats"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|s| json!({"seat": s["seat"], "name": s["name"], "kind": s["kind"], "connected": s["connected"]}))
            .collect();
        let sockets: Vec<Value> = t
            .subs
            .iter()
            .map(|s| json!({"conn": s.id, "seat": s.seat}))
            .collect();
        out.push(json!({
            "id": t.core.id,
            "name": info["name"],
            "game": info["game"],
            "status": t.core.status.name(),
            "closed": t.core.closed,
            "game_no": t.core.game_no,
            "move_number": t.core.moves,
            "seats": seats,
            "sockets": sockets,
        }));
    }
    out.sort_by(|a, b| a["id"].as_str().cmp(&b["id"].as_str()));
    Ok(Json(json!({
        "instance": app.cluster.me,
        "websockets": app.cluster.sockets.load(std::sync::atomic::Ordering::Relaxed),
        "tables": out,
    })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CloseReq {
    reason: String,
}

const CLOSE_HINTS: Hints = &[("reason", "a string shown to the table's players")];

/// `POST /api/admin/tables/{id}/close` `{"reason": …}`: closes the table
/// (an [`Event::Close`], stored): no move, seat or rematch is taken any
/// more, its players are sent their views (the table info has `"closed":
/// reason`) and a `{"type": "closed", "reason"}` message. 200 the table
/// info; 409 for a table closed already.
pub async fn close(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    ApiPath(id): ApiPath<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    admin_only(&app, &headers)?;
    let req: CloseReq = input::body(body, CLOSE_HINTS)?;
    let reason = crate::limits::escape_controls(req.reason.trim());
    if reason.is_empty() {
        return Err(ApiError::bad(
            "reason must say why (it is shown to the players)",
        ));
    }
    let mut t = app.open(&id).await?;
    t.commit(&app, vec![Event::Close { reason }]).await?;
    t.reset_deadline();
    let msg = json!({"type": "closed", "reason": t.core.closed});
    t.broadcast(&msg);
    tracing::warn!(
        table = %id,
        reason = t.core.closed.as_deref().unwrap_or(""),
        "table closed by the operators"
    );
    Ok(Json(t.info()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NameReq {
    name: Option<String>,
}

const NAME_HINTS: Hints = &[("name", "a string (the new name), or null for `Player N`")];

/// `POST /api/admin/tables/{id}/seats/{seat}/name` `{"name": …}`: the
/// person at `seat` is renamed (`null`: `Player N`, N = seat + 1); an
/// [`Event::Rename`], stored and shown at once. 200 the table info; 409
/// for a seat no person holds.
pub async fn rename(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    ApiPath((id, seat)): ApiPath<(String, u8)>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    admin_only(&app, &headers)?;
    let req: NameReq = input::body(body, NAME_HINTS)?;
    let name = match req.name {
        Some(n) => name_of(&n, "name")?,
        None => format!("Player {}", u16::from(seat) + 1),
    };
    let mut t = app.open(&id).await?;
    t.commit(
        &app,
        vec![Event::Rename {
            seat,
            name: name.clone(),
        }],
    )
    .await?;
    tracing::warn!(table = %id, seat, %name, "player renamed by the operators");
    Ok(Json(t.info()))
}

/// `GET /api/admin/leases`: `{"instance", "database", "lease_ms",
/// "instances": [{"id", "pid", "host", "started_ms", "heartbeat_age_ms",
/// "tables"}]}` (PostgreSQL: every registered instance; SQLite: none, this
/// one serves alone and owns every table).
pub async fn leases(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    admin_only(&app, &headers)?;
    let shared = app.db.shared();
    let rows = if shared {
        app.db.instances().await.map_err(TableError::from)?
    } else {
        vec![]
    };
    Ok(Json(json!({
        "instance": app.cluster.me,
        "database": if shared { "postgresql" } else { "sqlite" },
        "lease_ms": app.cluster.cfg.lease.as_millis() as u64,
        "lease_age_ms": app.cluster.lease_age().as_millis() as u64,
        "instances": rows,
    })))
}
