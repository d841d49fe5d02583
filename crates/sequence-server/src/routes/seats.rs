//! Seats: `POST /api/tables/{id}/join`, `POST /api/tables/{id}/leave`,
//! `POST /api/tables/{id}/seats/{seat}/bot`.

use super::extract::name_of;
use super::extract::SeatAt;
use super::host_only;
use crate::accounts::{Session, Signed};
use crate::app::App;
use crate::auth::{self, SeatToken};
use crate::bots;
use crate::error::ApiError;
use crate::input::{self, ApiPath, Hints};
use crate::limits::echo;
use crate::tables::{Event, SeatKind, Status, Table, TableError};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::State;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct JoinReq {
    /// A guest's name; signed in, the account's name is used instead.
    #[serde(default)]
    name: String,
    #[serde(default)]
    seat: Option<u8>,
}

pub(super) const JOIN_HINTS: Hints = &[
    ("name", "a string (your name; left out when signed in)"),
    ("seat", "a seat number (0 for the first seat) or null"),
];

/// `POST /api/tables/{id}/join`: takes the seat asked for, or the lowest
/// free or left one.
///
/// Signed in (a session cookie with its CSRF token), the seat takes the
/// account's name and belongs to the account.
pub async fn join(
    State(app): State<Arc<App>>,
    ApiPath(id): ApiPath<String>,
    Signed(signed): Signed,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let req: JoinReq = input::body(body, JOIN_HINTS)?;
    let name = match &signed {
        Some(s) => name_of(&s.name, "name")?,
        None => name_of(&req.name, "name")?,
    };
    let mut t = app.open(&id).await?;
    let seat = match req.seat {
        Some(s) => s,
        None => t
            .core
            .seats
            .iter()
            .position(|s| matches!(s.kind, SeatKind::Free | SeatKind::Left))
            .map(|i| i as u8)
            .ok_or(TableError::TableFull)?,
    };
    let (token, hash) = auth::new_token();
    t.commit(
        &app,
        vec![Event::Seat {
            seat,
            name,
            token: hex::encode(hash),
            account: signed.as_ref().map(|s| s.user_id),
        }],
    )
    .await?;
    drop(t);
    own_seat(&app, &id, &hash, signed.as_ref()).await?;
    Ok(Json(json!({"table": id, "seat": seat, "token": token})))
}

/// Gives the seat whose token hashes to `hash` to the signed-in account,
/// if any.
///
/// # Errors
/// The database error.
pub(super) async fn own_seat(
    app: &App,
    table: &str,
    hash: &[u8; 32],
    signed: Option<&Session>,
) -> Result<(), ApiError> {
    if let Some(s) = signed {
        app.db
            .own_seat(table, &hex::encode(hash), s.user_id, true)
            .await
            .map_err(TableError::from)?;
    }
    Ok(())
}

/// Closes the connections of `seat` (its token no longer works) and tells
/// everyone.
fn disconnect(t: &mut Table, seat: u8) {
    let ids: Vec<u64> = t
        .subs
        .iter()
        .filter(|s| s.seat == Some(seat))
        .map(|s| s.id)
        .collect();
    t.drop_subs(&ids);
    t.broadcast_views();
}

/// `POST /api/tables/{id}/leave`.
pub async fn leave(
    State(app): State<Arc<App>>,
    SeatAt { mut t, seat, .. }: SeatAt,
) -> Result<Json<Value>, ApiError> {
    t.commit(&app, vec![Event::Leave { seat }]).await?;
    disconnect(&mut t, seat);
    Ok(Json(t.info()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct BotReq {
    level: String,
}

pub(super) const BOT_HINTS: Hints = &[("level", "a bot level such as \"level:3\"")];

/// Whether the host may give `seat` to a bot now: it is free, left or a
/// bot's, or its person ran out of time or (while playing) is not
/// connected.
///
/// # Errors
/// 409 for seat 0 or a seat held by a connected person in time.
fn may_be_bot(t: &Table, seat: u8) -> Result<(), TableError> {
    let s = t
        .core
        .seats
        .get(seat as usize)
        .ok_or_else(|| TableError::NotFound(format!("seat {seat} does not exist")))?;
    let i = seat as usize;
    let may = match s.kind {
        SeatKind::Free | SeatKind::Left | SeatKind::Bot => true,
        SeatKind::Human => {
            t.core.timeouts.get(i).is_some_and(|&n| n > 0)
                || t.core.away.get(i).copied().unwrap_or(false)
                || (t.core.status == Status::Playing && !t.seat_connected(i))
        }
    };
    if seat == 0 {
        return Err(TableError::conflict(bots::not_a_bot_seat(
            0,
            t.core.spec.players,
        )));
    }
    if !may {
        return Err(TableError::conflict(format!(
            "seat {seat} is held by a connected person who has not run out of time"
        )));
    }
    Ok(())
}

/// `POST /api/tables/{id}/seats/{seat}/bot` (host only).
pub async fn seat_bot(
    State(app): State<Arc<App>>,
    ApiPath((id, seat)): ApiPath<(String, String)>,
    token: SeatToken,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let mut t = app.open(&id).await?;
    let seat = input::seat_param(&seat, t.core.seats.len())?;
    host_only(&token, &t.core)?;
    let req: BotReq = input::body(body, BOT_HINTS)?;
    if !bots::level_ok(&req.level) {
        return Err(ApiError::bad(format!(
            "field `level`: unknown level \"{}\" ({})",
            echo(&req.level),
            bots::LEVELS.join(", ")
        )));
    }
    may_be_bot(&t, seat)?;
    t.commit(
        &app,
        vec![Event::Bot {
            seat,
            level: req.level,
        }],
    )
    .await?;
    disconnect(&mut t, seat);
    Ok(Json(t.info()))
}

/// `POST /api/tables/{id}/back`: the person of a seat marked away (after
/// timeouts in a row) is back; a bot no longer plays for it. Any of the
/// seat's own moves does the same. 200 `TableInfo`.
pub async fn back(
    State(app): State<Arc<App>>,
    SeatAt { mut t, seat, .. }: SeatAt,
) -> Result<Json<Value>, ApiError> {
    let i = seat as usize;
    let marked = t.core.away.get(i).copied().unwrap_or(false)
        || t.core.timeouts.get(i).is_some_and(|&n| n > 0);
    if marked {
        t.commit(&app, vec![Event::Back { seat }]).await?;
    }
    Ok(Json(t.info()))
}
