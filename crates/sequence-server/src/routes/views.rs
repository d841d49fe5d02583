//! `GET /api/tables/{id}/view`: a seat's view with its token, else the
//! spectator view.

use super::extract::TableAt;
use crate::auth::SeatToken;
use crate::error::ApiError;
use axum::Json;
use serde_json::Value;

/// `GET /api/tables/{id}/view`: the seat's view with a token (a wrong one
/// is refused, never taken for a spectator), else the spectator view.
pub async fn view(TableAt { t, .. }: TableAt, token: SeatToken) -> Result<Json<Value>, ApiError> {
    let seat = if token.is_missing() {
        None
    } else {
        Some(t.core.seat_of_token(&token)?)
    };
    Ok(Json(t.view(seat)))
}
