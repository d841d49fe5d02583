//! Learning progress of an account (docs/api.md "Learning progress"):
//! `GET /api/account/progress` (the signed-in account's solved puzzles
//! and tutorial steps), `POST /api/account/progress` (a browser's
//! progress merged in: never lost, see [`crate::learn`]) and the public
//! counts on a profile, `GET /api/users/{name}/progress`.

use crate::accounts::{name_key, Account};
use crate::app::App;
use crate::db::DbError;
use crate::error::ApiError;
use crate::input::{self, Hints};
use crate::learn::{catalogue, check, ProgressIn};
use crate::tables::{now_ms, TableError};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{json, Map, Value};
use std::sync::Arc;

/// The routes.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/account/progress", get(mine).post(merge))
        .route("/api/users/{name}/progress", get(public))
}

const HINTS: Hints = &[
    (
        "puzzles",
        "an object of solved puzzle ids by game: {\"classic\": [\"classic-2-44-win\", …]}",
    ),
    (
        "tutorials",
        "an object by game: {\"stacks\": {\"step\": furthest step reached, \"done\": true|false}}",
    ),
    ("step", "a whole number: the furthest step reached"),
    ("done", "true or false: whether the tutorial was finished"),
];

fn db_error(e: DbError) -> ApiError {
    ApiError::from(TableError::from(e))
}

fn no_store(body: Value) -> Response {
    let mut r = Json(body).into_response();
    r.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

/// The stored progress of account `user`: every game of the catalogue,
/// `puzzles` as id lists (`full`) or `{"solved", "total"}` counts,
/// `tutorials` as `{"step", "steps", "done"}`.
async fn progress_of(app: &App, user: i64, full: bool) -> Result<Value, ApiError> {
    let cat = catalogue();
    let solved = app.db.solved_of(user).await.map_err(db_error)?;
    let tutorials = app.db.tutorials_of(user).await.map_err(db_error)?;
    let mut puzzles = Map::new();
    for (game, known) in &cat.puzzles {
        // in byte order, whatever the database's collation
        let mut ids: Vec<&String> = solved
            .iter()
            .filter(|(g, id)| g == game && known.contains(id))
            .map(|(_, id)| id)
            .collect();
        ids.sort_unstable();
        let v = if full {
            json!(ids)
        } else {
            json!({"solved": ids.len(), "total": known.len()})
        };
        puzzles.insert(game.clone(), v);
    }
    let mut tuts = Map::new();
    for (game, steps) in &cat.tutorial_steps {
        let row = tutorials.iter().find(|t| &t.game == game);
        tuts.insert(
            game.clone(),
            json!({
                "step": row.map_or(0, |t| t.step.min(*steps)),
                "steps": steps,
                "done": row.is_some_and(|t| t.done),
            }),
        );
    }
    Ok(json!({"puzzles": puzzles, "tutorials": tuts}))
}

/// `GET /api/account/progress`: `{"puzzles": {game: [id, …]},
/// "tutorials": {game: {"step", "steps", "done"}}}` of the signed-in
/// account; 401 when not signed in.
pub async fn mine(State(app): State<Arc<App>>, Account(s): Account) -> Result<Response, ApiError> {
    Ok(no_store(progress_of(&app, s.user_id, true).await?))
}

/// `POST /api/account/progress`: a browser's progress (`{"puzzles": {game:
/// [id, …]}, "tutorials": {game: {"step", "done"}}}`, each part optional)
/// merged into the signed-in account's; answers the merged progress as
/// `GET` does, with `ignored`: the ids of no shipped puzzle (not stored).
///
/// # Errors
/// 400 naming the field (a game with no puzzles or tutorial, a step out
/// of range, too many ids), 401 when not signed in, 403 without the CSRF
/// token.
pub async fn merge(
    State(app): State<Arc<App>>,
    Account(s): Account,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let req: ProgressIn = input::body(body, HINTS)?;
    let checked = check(req, catalogue()).map_err(ApiError::bad)?;
    let now = now_ms();
    for (game, ids) in &checked.puzzles {
        app.db
            .add_solved(s.user_id, game, ids, now)
            .await
            .map_err(db_error)?;
    }
    for (game, step, done) in &checked.tutorials {
        app.db
            .reach_tutorial_step(s.user_id, game, *step, *done, now)
            .await
            .map_err(db_error)?;
    }
    let mut out = progress_of(&app, s.user_id, true).await?;
    out["ignored"] = json!(checked.ignored);
    Ok(no_store(out))
}

/// `GET /api/users/{name}/progress`: the public counts of a player's
/// learning: `{"name", "puzzles": {game: {"solved", "total"}},
/// "tutorials": {game: {"step", "steps", "done"}}}`; 404 for no such
/// player.
pub async fn public(
    State(app): State<Arc<App>>,
    Path(name): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let user = app
        .db
        .public_user(&name_key(&name))
        .await
        .map_err(db_error)?
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::NOT_FOUND,
                format!("no player is named `{}`", crate::limits::echo(&name)),
            )
        })?;
    let mut out = progress_of(&app, user.id, false).await?;
    out["name"] = json!(user.name);
    Ok(Json(out))
}
