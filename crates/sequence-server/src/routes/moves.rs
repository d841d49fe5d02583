//! `POST /api/tables/{id}/moves`: a seat's move.

use crate::app::App;
use crate::auth::SeatToken;
use crate::error::ApiError;
use crate::input::{self, ApiPath, Hints};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::State;
use axum::Json;
use serde::Deserialize;
use serde_json::Value;
use std::sync::Arc;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveReq {
    move_number: u32,
    #[serde(rename = "move")]
    mv: Value,
}

const MOVE_HINTS: Hints = &[
    ("move_number", "a whole number ≥ 0 (the view's move_number)"),
    ("move", "a move object"),
];

/// `POST /api/tables/{id}/moves`: plays the move and answers the seat's
/// new view. A refused move is 400 (malformed) or 422 (illegal) with the
/// engine's `code`, or 409 (not now: stale `move_number`, not this seat's
/// turn).
pub async fn post_move(
    State(app): State<Arc<App>>,
    ApiPath(id): ApiPath<String>,
    token: SeatToken,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let mut t = app.open_for_change(&id).await?;
    let seat = t.seat_of_token(&app, &token).await?;
    let req: MoveReq = input::body(body, MOVE_HINTS)?;
    t.play_move(&app, seat, req.move_number, req.mv).await?;
    Ok(Json(t.view(Some(seat))))
}
