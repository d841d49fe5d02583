//! `GET /api/tables/{id}/record`: the record of a finished game.

use crate::app::App;
use crate::error::ApiError;
use crate::input::ApiPath;
use crate::limits::echo;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::Json;
use serde::Deserialize;
use serde_json::Value;
use std::sync::Arc;

/// `?game=N` of `GET …/record`, read as text so that a bad value gets a
/// message in words.
#[derive(Deserialize)]
pub struct RecordQuery {
    /// An earlier game of the table (1 = first).
    pub game: Option<String>,
}

/// `GET /api/tables/{id}/record`: the current game's record once it is
/// over, or an earlier game's (`?game=N`).
pub async fn record(
    State(app): State<Arc<App>>,
    ApiPath(id): ApiPath<String>,
    q: Result<Query<RecordQuery>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let Query(q) =
        q.map_err(|_| ApiError::bad("the query string could not be read (expected ?game=N)"))?;
    let game = match q.game.as_deref() {
        None => None,
        Some(g) => Some(g.parse::<u32>().ok().filter(|&n| n >= 1).ok_or_else(|| {
            ApiError::bad(format!(
                "query parameter `game` must be a whole number ≥ 1, got `{}`",
                echo(g)
            ))
        })?),
    };
    let t = app.open(&id).await?;
    // an earlier game's record also while the table waits after a
    // rematch (the game number moves on when the next game starts)
    let (_, record) = super::replay::finished_record(&t.core, game)?;
    Ok(Json(record))
}
