//! `GET /api/tables/{id}/record`: the record of a finished game.

use super::extract::GameAt;
use crate::error::ApiError;
use axum::Json;
use serde_json::Value;

/// `GET /api/tables/{id}/record`: the current game's record once it is
/// over, or an earlier game's (`?game=N`).
pub async fn record(GameAt { t, game, .. }: GameAt) -> Result<Json<Value>, ApiError> {
    // an earlier game's record also while the table waits after a
    // rematch (the game number moves on when the next game starts)
    let (_, record) = super::replay::finished_record(&t.core, game)?;
    Ok(Json(record))
}
