//! A table's games move by move: `GET /api/tables/{id}/log` (the move
//! log, public: every move is), `GET /api/tables/{id}/replay` (every
//! position of a finished game), and its analysis
//! (`POST`/`GET /api/tables/{id}/analysis`), which runs the search on the
//! worker thread ([`crate::analysis`]) and is stored with the table.

use super::extract::{GameAt, GameParam};
use crate::analysis::{self, Progress, Refusal};
use crate::app::App;
use crate::error::ApiError;
use crate::input::{self, ApiPath, Hints};
use crate::tables::{Event, Status, TableError};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{ConnectInfo, State};
use axum::http::StatusCode;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::Arc;

/// The record of finished game `game` (default: the current one).
///
/// # Errors
/// 404 no such game; 403 a game still being played (or not started).
pub(crate) fn finished_record(
    core: &crate::tables::Core,
    game: Option<u32>,
) -> Result<(u32, Value), TableError> {
    let n = game.unwrap_or(core.game_no);
    if n == 0 && game.is_none() {
        return Err(TableError::Forbidden(
            "no game has started yet: records and replays open once a game is over".into(),
        ));
    }
    if n == 0 || n > core.game_no {
        return Err(TableError::NotFound(format!("no game {n} at this table")));
    }
    if n == core.game_no && core.live.is_some() {
        return core.record().map(|r| (n, r)).ok_or_else(|| {
            TableError::Forbidden(
                "the game is not over: its replay and analysis open once it ends (hidden cards \
                 stay hidden until then)"
                    .into(),
            )
        });
    }
    core.finished
        .get(n as usize - 1)
        .cloned()
        .map(|r| (n, r))
        .ok_or_else(|| TableError::NotFound(format!("no game {n} at this table")))
}

/// `GET /api/tables/{id}/log?game=N`: the move log of a game (default:
/// the current one, also while it is played — moves are public).
pub async fn log(GameAt { t, game, .. }: GameAt) -> Result<Json<Value>, ApiError> {
    let n = game.unwrap_or(t.core.game_no);
    let log = t
        .core
        .log_of(n)
        .ok_or_else(|| TableError::NotFound(format!("no game {n} at this table")))?;
    Ok(Json(json!({"game_no": n, "log": log})))
}

/// `GET /api/tables/{id}/replay?game=N`: every position of a finished
/// game (default: the current one once over), its log, the table's info
/// and the stored analysis if there is one.
pub async fn replay(
    State(app): State<Arc<App>>,
    GameAt { id, t, game }: GameAt,
) -> Result<Json<Value>, ApiError> {
    let (n, record) = finished_record(&t.core, game)?;
    let kind = t.core.spec.game;
    let log = t.core.log_of(n).unwrap_or_default();
    let times = t
        .core
        .times
        .get(n as usize - 1)
        .copied()
        .unwrap_or((None, None));
    let analysis = t.core.analyses.get(&n).cloned();
    let info = t.info();
    drop(t);
    let progress = app.worker.progress(&(id, n));
    let record2 = record.clone();
    let positions = replayed(n, "replay", move || {
        sequence_bots::replay::positions_of(kind, &record2)
    })
    .await?;
    Ok(Json(json!({
        "game": kind,
        "game_no": n,
        "table": info,
        "result": record.get("result"),
        "dealer": record.get("dealer"),
        "started_ms": times.0,
        "ended_ms": times.1,
        "log": log,
        "positions": positions["positions"],
        "extras": positions["extras"],
        "analysis": analysis,
        "progress": progress.map(|p| p.to_json()),
    })))
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct AnalysisReq {
    #[serde(default)]
    iterations: Option<u64>,
}

pub(super) const ANALYSIS_HINTS: Hints = &[(
    "iterations",
    "a whole number of search iterations per position (at most 20000)",
)];

/// `GET /api/tables/{id}/analysis?game=N`: the stored analysis (`status`
/// `done`), where a running one stands (`queued`, `running`), or
/// `none`; 404 for a game the table never had (as `POST`, record and
/// replay answer).
pub async fn get_analysis(
    State(app): State<Arc<App>>,
    GameAt { id, t, game }: GameAt,
) -> Result<Json<Value>, ApiError> {
    let n = game.unwrap_or(t.core.game_no);
    if game.is_some_and(|g| g > t.core.game_no) {
        return Err(TableError::NotFound(format!("no game {n} at this table")).into());
    }
    if let Some(a) = t.core.analyses.get(&n) {
        return Ok(Json(done(n, a)));
    }
    drop(t);
    Ok(Json(match app.worker.progress(&(id, n)) {
        Some(p) => progress_of(&p, n),
        None => json!({"status": "none", "game_no": n}),
    }))
}

/// `POST /api/tables/{id}/analysis?game=N`: analyses a finished game
/// (never one being played: 403), one analysis at a time per client
/// (429), stored once done. `iterations` (per position) is 1 to the
/// server's most (400 otherwise, checked first); a stored analysis at
/// least as deep as the one asked for is answered at once (200), a
/// shallower one is replaced by the new one once that is done.
pub async fn post_analysis(
    State(app): State<Arc<App>>,
    ApiPath(id): ApiPath<String>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    GameParam(game): GameParam,
    body: Result<Bytes, BytesRejection>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let empty = body
        .as_ref()
        .is_ok_and(|b| b.iter().all(u8::is_ascii_whitespace));
    let req: AnalysisReq = if empty {
        AnalysisReq::default()
    } else {
        input::body(body, ANALYSIS_HINTS)?
    };
    let most = app.cfg.analysis_iterations.min(analysis::ITERATIONS.1);
    let default = analysis::ITERATIONS.0.min(most);
    if let Some(i) = req.iterations.filter(|i| !(1..=most).contains(i)) {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("`iterations`: {i} is not 1 to {most} (search iterations per position)"),
        ));
    }
    let t = app.open(&id).await?;
    let (n, record) = finished_record(&t.core, game)?;
    let positions = record["moves"].as_array().map_or(1, Vec::len) as u64 + 1;
    let iterations = req
        .iterations
        .unwrap_or(default)
        .min((analysis::TOTAL_ITERATIONS / positions).max(1));
    if let Some(a) = t.core.analyses.get(&n) {
        if depth(a) >= iterations {
            return Ok((StatusCode::OK, Json(done(n, a))));
        }
    }
    let kind = t.core.spec.game;
    drop(t);
    let key = (id.clone(), n);
    if let Some(p) = app.worker.progress(&key) {
        return Ok((StatusCode::ACCEPTED, Json(progress_of(&p, n))));
    }
    let client = addr.ip();
    if let Some((other, g)) = app.worker.in_flight(client) {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "one analysis at a time: game {g} of table {other} is still being analysed for you"
            ),
        ));
    }
    let seed = u64::from_str_radix(&id, 16).unwrap_or(0) ^ u64::from(n);
    let job = replayed(n, "analysis", move || {
        sequence_bots::replay::analysis_of(kind, &record, iterations, seed)
    })
    .await?;
    let total = job.total();
    let rx = app.worker.submit(key.clone(), client, job).map_err(|r| {
        ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            match r {
                Refusal::Busy => "one analysis at a time: another is still running for you",
                Refusal::Full => "the server is analysing many games: try again in a minute",
            },
        )
    })?;
    let store = app.clone();
    tokio::spawn(async move {
        let Ok(result) = rx.await else {
            store.worker.stored(&key);
            return;
        };
        match store.open(&id).await {
            Ok(mut t) => {
                // a deeper one stored meanwhile stays
                if t.core
                    .analyses
                    .get(&n)
                    .is_none_or(|a| depth(a) < depth(&result))
                {
                    if let Err(e) = t
                        .commit(&store, vec![Event::Analysis { game: n, result }])
                        .await
                    {
                        tracing::warn!(table = %id, "analysis of game {n} not stored: {e}");
                    }
                }
            }
            Err(e) => tracing::warn!(table = %id, "analysis of game {n} not stored: {e}"),
        }
        store.worker.stored(&key);
    });
    let mut v = progress_of(&Progress::Queued, n);
    v["total"] = json!(total);
    v["iterations"] = json!(iterations);
    Ok((StatusCode::ACCEPTED, Json(v)))
}

/// The search iterations per position of an analysis (0 when it does
/// not say).
fn depth(analysis: &Value) -> u64 {
    analysis["iterations"].as_u64().unwrap_or(0)
}

/// A stored analysis of game `n` as the analysis routes answer it.
fn done(n: u32, analysis: &Value) -> Value {
    json!({"status": "done", "game_no": n, "analysis": analysis})
}

/// Where the analysis of game `n` stands (`queued`, `running`).
fn progress_of(p: &Progress, n: u32) -> Value {
    let mut v = p.to_json();
    v["game_no"] = json!(n);
    v
}

/// Runs `work` on game `n`'s record (a replay, an analysis: `what`) on a
/// blocking thread.
///
/// # Errors
/// 500 when the task fails or the record does not replay.
async fn replayed<T: Send + 'static, E: std::fmt::Display + Send + 'static>(
    n: u32,
    what: &str,
    work: impl FnOnce() -> Result<T, E> + Send + 'static,
) -> Result<T, TableError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| TableError::Internal(format!("{what}: {e}")))?
        .map_err(|e| TableError::Internal(format!("the record of game {n} does not replay: {e}")))
}

/// Whether the table's game is being played (for hints).
pub(crate) fn playing(core: &crate::tables::Core) -> Result<(), TableError> {
    if core.status != Status::Playing {
        return Err(TableError::conflict(format!(
            "the game is not being played (table is {})",
            core.status.name()
        )));
    }
    Ok(())
}
