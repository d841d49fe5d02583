//! `POST /api/tables/{id}/moves`: a seat's move; `POST …/hint`: the
//! search's advice in a practice game.

use super::extract::SeatAt;
use crate::analysis;
use crate::app::{App, MoveRequest};
use crate::auth::SeatToken;
use crate::error::ApiError;
use crate::input::{self, ApiPath, Hints};
use crate::tables::{SeatKind, TableError};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::State;
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::Value;
use std::sync::Arc;

pub(super) const MOVE_HINTS: Hints = &[
    (
        "move_number",
        "a whole number from 0 to 4294967295 (the view's move_number)",
    ),
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
) -> Result<Response, ApiError> {
    let mut t = app.open_for_change(&id).await?;
    let seat = t.seat_of_token(&app, &token).await?;
    let req: MoveRequest = input::body(body, MOVE_HINTS)?;
    let view = t.play_move(&app, seat, req).await?;
    Ok(json_text(view.view_bytes()))
}

/// A 200 answer whose body is `json`, JSON text already written (as
/// [`Json`] answers it).
fn json_text(json: Bytes) -> Response {
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        json,
    )
        .into_response()
}

/// `POST /api/tables/{id}/hint`: the search's best moves for the seat
/// that must decide, with their chances to win (as `sequence hint`), in a
/// practice game only: every other seat a bot (403 otherwise: never a
/// hint in a game with other people).
pub async fn hint(
    State(app): State<Arc<App>>,
    SeatAt { id, t, seat }: SeatAt,
) -> Result<Json<Value>, ApiError> {
    let practice = t
        .core
        .seats
        .iter()
        .enumerate()
        .all(|(i, s)| i == seat as usize || s.kind == SeatKind::Bot);
    if !practice {
        return Err(TableError::Forbidden(
            "hints are for practice games only (every other seat a bot)".into(),
        )
        .into());
    }
    super::replay::playing(&t.core)?;
    let n = t.core.moves;
    let seed = u64::from_str_radix(&id, 16).unwrap_or(0) ^ u64::from(n);
    let job = t
        .core
        .live
        .as_deref()
        .filter(|_| t.core.to_act() == Some(sequence_common::Seat(seat)))
        .and_then(|l| {
            let iterations = analysis::HINT_ITERATIONS.min(app.cfg.analysis_iterations);
            let ask = sequence_bots::replay::HintAsk {
                iterations,
                top: 5,
                seed,
            };
            sequence_bots::replay::table_hint(l, sequence_common::Seat(seat), ask)
        })
        .ok_or_else(|| TableError::conflict("it is not your turn: a hint is for your own move"))?;
    drop(t);
    let mut out = app
        .worker
        .hint(job)
        .await
        .ok_or_else(|| TableError::Internal("the hint could not be computed".into()))?;
    out["move_number"] = serde_json::json!(n);
    Ok(Json(out))
}
