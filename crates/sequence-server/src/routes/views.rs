//! `GET /api/tables/{id}/view`: a seat's view with its token, else the
//! spectator view.

use crate::app::App;
use crate::auth::SeatToken;
use crate::error::ApiError;
use crate::input::ApiPath;
use axum::extract::State;
use axum::Json;
use serde_json::Value;
use std::sync::Arc;

/// `GET /api/tables/{id}/view`: the seat's view with a token (a wrong one
/// is refused, never taken for a spectator), else the spectator view.
pub async fn view(
    State(app): State<Arc<App>>,
    ApiPath(id): ApiPath<String>,
    token: SeatToken,
) -> Result<Json<Value>, ApiError> {
    let t = app.open(&id).await?;
    let seat = if token.is_missing() {
        None
    } else {
        Some(t.core.seat_of_token(&token)?)
    };
    Ok(Json(t.view(seat)))
}
