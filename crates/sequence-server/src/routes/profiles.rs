//! Profiles, history and leaderboards (docs/api.md "Profiles"):
//! `GET /api/users/{name}`, `GET /api/users/{name}/games`,
//! `GET /api/users/{name}/vs/{other}`, `GET /api/leaderboard/{kind}` and
//! the archive of the signed-in account's records,
//! `GET /api/account/records`. Public data only: names, results, dates
//! and ratings.

use crate::accounts::{name_key, Account};
use crate::app::App;
use crate::db::{GameFilter, GameSeat, PublicUser, SeatGame};
use crate::error::ApiError;
use crate::ratings::{RatingKind, KINDS, PROVISIONAL_DEVIATION, WENG_LIN_SCALE};
use crate::tables::{now_ms, TableError};
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// Games on a profile page.
pub const RECENT: i64 = 10;
/// Most games one history request lists.
pub const MAX_LIST: i64 = 500;
/// Players on a leaderboard.
pub const BOARD: i64 = 100;
/// A leaderboard lists players active this recently (ms): 30 days.
pub const ACTIVE_MS: i64 = 30 * 24 * 3600 * 1000;

/// The routes.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/users/{name}", get(profile))
        .route("/api/users/{name}/games", get(games))
        .route("/api/users/{name}/vs/{other}", get(head_to_head))
        .route("/api/leaderboard/{kind}", get(leaderboard))
        .route("/api/account/records", get(records))
}

fn db_error(e: crate::db::DbError) -> ApiError {
    ApiError::from(TableError::from(e))
}

/// The live account named `name` (any case), 404 without.
async fn user_named(app: &App, name: &str) -> Result<PublicUser, ApiError> {
    app.db
        .public_user(&name_key(name))
        .await
        .map_err(db_error)?
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::NOT_FOUND,
                format!("no player is named `{}`", crate::limits::echo(name)),
            )
        })
}

/// `them`, an opponent chosen for `user`'s games, unless it is `user`.
///
/// # Errors
/// 400 (code `profile.self_opponent`): a player is never their own
/// opponent (a game where one account held seats on two sides is listed
/// with the other players only).
fn other_than(user: &PublicUser, them: PublicUser) -> Result<PublicUser, ApiError> {
    if them.id == user.id {
        return Err(ApiError::bad(format!(
            "the opponent must be another player than {}",
            user.name
        ))
        .coded("profile.self_opponent"));
    }
    Ok(them)
}

/// A rating as the API shows it: `{kind, rating, deviation, provisional,
/// games}` on the shown scale, rounded.
fn rating_json(kind: RatingKind, r: &crate::ratings::Rating) -> Value {
    let (rating, deviation) = r.shown(kind);
    json!({
        "kind": kind.name(),
        "rating": rating.round(),
        "deviation": deviation.round(),
        "provisional": r.provisional(kind),
        "games": r.games,
    })
}

/// A game of account `me` (its name) from the list, with its partners and
/// opponents by name: the seats of other players only (an account at two
/// seats of one game is neither its own partner nor its own opponent).
fn game_json(g: &SeatGame, seats: &[&GameSeat], me: &str) -> Value {
    let who = |s: &&GameSeat| json!({"name": s.name, "account": s.account, "bot": s.bot, "deleted": s.deleted});
    let others = || {
        seats
            .iter()
            .filter(|s| s.seat != g.seat && s.account.as_deref() != Some(me))
    };
    let partners: Vec<Value> = others().filter(|s| s.side == g.side).map(who).collect();
    let opponents: Vec<Value> = others().filter(|s| s.side != g.side).map(who).collect();
    json!({
        "table": g.table_id,
        "game": g.game_no,
        "kind": g.kind,
        "result": g.result,
        "ended_ms": g.ended_ms,
        "rated": g.rated,
        "left": g.left,
        "moves": g.moves,
        "rating_before": g.rating.map(|r| r.0.round()),
        "rating_after": g.rating.map(|r| r.1.round()),
        "partners": partners,
        "opponents": opponents,
        "replay": format!("/replay/{}?game={}", g.table_id, g.game_no),
        "analysis": format!("/replay/{}?game={}#analysis", g.table_id, g.game_no),
        "record": format!("/api/tables/{}/record?game={}", g.table_id, g.game_no),
    })
}

/// The games `list` of account `me` (its name) with who played them.
async fn games_json(app: &App, list: &[SeatGame], me: &str) -> Result<Vec<Value>, ApiError> {
    let mut tables: Vec<String> = list.iter().map(|g| g.table_id.clone()).collect();
    tables.sort();
    tables.dedup();
    let mut seats: Vec<GameSeat> = vec![];
    for chunk in tables.chunks(500) {
        seats.extend(app.db.seats_of_tables(chunk).await.map_err(db_error)?);
    }
    let mut by_game: HashMap<(&str, i64), Vec<&GameSeat>> = HashMap::new();
    for s in &seats {
        by_game
            .entry((s.table_id.as_str(), s.game_no))
            .or_default()
            .push(s);
    }
    Ok(list
        .iter()
        .map(|g| {
            let seats = by_game
                .get(&(g.table_id.as_str(), g.game_no))
                .map_or(&[][..], |v| &v[..]);
            game_json(g, seats, me)
        })
        .collect())
}

/// Counts per kind, streaks and the rating chart from every result.
fn summary(results: &[crate::db::ResultRow]) -> (Value, Value, Value) {
    let mut stats: BTreeMap<&str, [u64; 4]> = BTreeMap::new();
    let mut history: BTreeMap<&str, Vec<Value>> = BTreeMap::new();
    let (mut current, mut best) = (0u64, 0u64);
    for (kind, result, ended, after) in results {
        let s = stats.entry(kind.as_str()).or_default();
        s[0] += 1;
        match result.as_str() {
            "win" => {
                s[1] += 1;
                current += 1;
                best = best.max(current);
            }
            "loss" => {
                s[2] += 1;
                current = 0;
            }
            _ => {
                s[3] += 1;
                current = 0;
            }
        }
        if let Some(r) = after {
            history
                .entry(kind.as_str())
                .or_default()
                .push(json!([ended, r.round()]));
        }
    }
    let stats: Vec<Value> = KINDS
        .iter()
        .filter_map(|k| {
            stats.get(k.name()).map(|s| {
                json!({"kind": k.name(), "played": s[0], "won": s[1], "lost": s[2], "drawn": s[3]})
            })
        })
        .collect();
    let history: Vec<Value> = history
        .into_iter()
        .map(|(k, points)| json!({"kind": k, "points": points}))
        .collect();
    (
        json!(stats),
        json!({"current": current, "best": best}),
        json!(history),
    )
}

/// `GET /api/users/{name}`: the profile (see docs/api.md).
pub async fn profile(
    State(app): State<Arc<App>>,
    Path(name): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let user = user_named(&app, &name).await?;
    let ratings: Vec<Value> = app
        .db
        .ratings_of(user.id)
        .await
        .map_err(db_error)?
        .iter()
        .filter_map(|(k, r, _)| RatingKind::from_name(k).map(|k| rating_json(k, r)))
        .collect();
    let results = app.db.results_of(user.id).await.map_err(db_error)?;
    let (stats, streak, history) = summary(&results);
    let filter = GameFilter {
        limit: RECENT,
        ..GameFilter::default()
    };
    let recent = app.db.games_of(user.id, &filter).await.map_err(db_error)?;
    Ok(Json(json!({
        "name": user.name,
        "created_ms": user.created_ms,
        "ratings": ratings,
        "stats": stats,
        "streak": streak,
        "history": history,
        "recent": games_json(&app, &recent, &user.name).await?,
    })))
}

/// The query of `GET /api/users/{name}/games`, read as text so that a bad
/// value is named.
#[derive(Deserialize, Default)]
pub struct GamesQuery {
    kind: Option<String>,
    result: Option<String>,
    opponent: Option<String>,
    from: Option<String>,
    to: Option<String>,
    limit: Option<String>,
}

/// A whole number of a query field, 400 naming it.
fn number(field: &str, v: &Option<String>) -> Result<Option<i64>, ApiError> {
    v.as_deref()
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse::<i64>().map_err(|_| {
                ApiError::bad(format!(
                    "query parameter `{field}` must be a whole number (Unix ms or a count), got `{}`",
                    crate::limits::echo(s)
                ))
            })
        })
        .transpose()
}

/// The `limit` of a list: 1 to [`MAX_LIST`], 100 when not given; 400
/// naming it otherwise.
fn limit(v: &Option<String>) -> Result<i64, ApiError> {
    match number("limit", v)? {
        None => Ok(100),
        Some(n) if (1..=MAX_LIST).contains(&n) => Ok(n),
        Some(n) => Err(ApiError::bad(format!(
            "query parameter `limit` must be from 1 to {MAX_LIST}, got `{n}`"
        ))),
    }
}

/// `GET /api/users/{name}/games?kind=&result=&opponent=&from=&to=&limit=`:
/// the account's finished games, newest first (default 100, at most 500).
pub async fn games(
    State(app): State<Arc<App>>,
    Path(name): Path<String>,
    q: Result<Query<GamesQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let Query(q) = q.map_err(|_| ApiError::bad("the query string could not be read"))?;
    let user = user_named(&app, &name).await?;
    let kind = q.kind.filter(|k| !k.is_empty());
    if let Some(k) = &kind {
        if RatingKind::from_name(k).is_none() {
            let names: Vec<&str> = KINDS.iter().map(|k| k.name()).collect();
            return Err(ApiError::bad(format!(
                "query parameter `kind` must be one of {}, got `{}`",
                names.join(", "),
                crate::limits::echo(k)
            )));
        }
    }
    let result = q.result.filter(|r| !r.is_empty());
    if let Some(r) = &result {
        if !["win", "loss", "draw"].contains(&r.as_str()) {
            return Err(ApiError::bad(format!(
                "query parameter `result` must be win, loss or draw, got `{}`",
                crate::limits::echo(r)
            )));
        }
    }
    let opponent = match q.opponent.as_deref().filter(|o| !o.is_empty()) {
        Some(o) => Some(other_than(&user, user_named(&app, o).await?)?.id),
        None => None,
    };
    let filter = GameFilter {
        kind,
        result,
        opponent,
        from_ms: number("from", &q.from)?,
        to_ms: number("to", &q.to)?,
        limit: limit(&q.limit)?,
    };
    let list = app.db.games_of(user.id, &filter).await.map_err(db_error)?;
    Ok(Json(
        json!({"name": user.name, "games": games_json(&app, &list, &user.name).await?}),
    ))
}

/// `GET /api/users/{name}/vs/{other}`: the games of `name` against
/// `other` (on another side): counts per kind and the last ones.
pub async fn head_to_head(
    State(app): State<Arc<App>>,
    Path((name, other)): Path<(String, String)>,
) -> Result<Json<Value>, ApiError> {
    let user = user_named(&app, &name).await?;
    let them = other_than(&user, user_named(&app, &other).await?)?;
    let filter = GameFilter {
        opponent: Some(them.id),
        limit: MAX_LIST,
        ..GameFilter::default()
    };
    let list = app.db.games_of(user.id, &filter).await.map_err(db_error)?;
    let mut counts: BTreeMap<&str, [u64; 3]> = BTreeMap::new();
    for g in &list {
        let c = counts.entry(g.kind.as_str()).or_default();
        match g.result.as_str() {
            "win" => c[0] += 1,
            "loss" => c[1] += 1,
            _ => c[2] += 1,
        }
    }
    let counts: Vec<Value> = counts
        .iter()
        .map(|(k, c)| json!({"kind": k, "won": c[0], "lost": c[1], "drawn": c[2]}))
        .collect();
    let last: Vec<SeatGame> = list.into_iter().take(RECENT as usize).collect();
    Ok(Json(json!({
        "name": user.name,
        "opponent": them.name,
        "counts": counts,
        "games": games_json(&app, &last, &user.name).await?,
    })))
}

/// `GET /api/leaderboard/{kind}`: the best 100 established (not
/// provisional) ratings of players active in the last 30 days.
pub async fn leaderboard(
    State(app): State<Arc<App>>,
    Path(kind): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let Some(k) = RatingKind::from_name(&kind) else {
        let names: Vec<&str> = KINDS.iter().map(|k| k.name()).collect();
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            format!(
                "no leaderboard `{}`: the kinds are {}",
                crate::limits::echo(&kind),
                names.join(", ")
            ),
        ));
    };
    let max_dev = if k.glicko() {
        PROVISIONAL_DEVIATION
    } else {
        PROVISIONAL_DEVIATION / WENG_LIN_SCALE
    };
    let rows = app
        .db
        .leaderboard(k.name(), now_ms() - ACTIVE_MS, max_dev, BOARD)
        .await
        .map_err(db_error)?;
    let players: Vec<Value> = rows
        .iter()
        .enumerate()
        .map(|(i, (name, r))| {
            let mut v = rating_json(k, r);
            if let Some(o) = v.as_object_mut() {
                o.insert("rank".into(), json!(i + 1));
                o.insert("name".into(), json!(name));
                o.remove("kind");
            }
            v
        })
        .collect();
    Ok(Json(json!({"kind": k.name(), "players": players})))
}

/// `GET /api/account/records`: every finished game of the signed-in
/// account as one ZIP archive of records (`TABLE-GAME.json`, the formats
/// of RECORD.md and RECORD-STACKS.md).
pub async fn records(
    State(app): State<Arc<App>>,
    Account(s): Account,
) -> Result<Response, ApiError> {
    let filter = GameFilter {
        limit: i64::MAX,
        ..GameFilter::default()
    };
    let list = app
        .db
        .games_of(s.user_id, &filter)
        .await
        .map_err(db_error)?;
    let mut files = Vec::with_capacity(list.len());
    for g in &list {
        let t = app.open(&g.table_id).await?;
        let game = u32::try_from(g.game_no).ok();
        if let Ok((_, record)) = super::replay::finished_record(&t.core, game) {
            files.push((format!("{}-{}.json", g.table_id, g.game_no), record));
        }
    }
    let zip = tokio::task::spawn_blocking(move || zip_of(&files))
        .await
        .map_err(|e| ApiError::from(TableError::Internal(e.to_string())))?
        .map_err(|e| ApiError::from(TableError::Internal(e)))?;
    let mut r = zip.into_response();
    let h = r.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/zip"),
    );
    if let Ok(v) = HeaderValue::from_str(&format!(
        "attachment; filename=\"sequence-{}.zip\"",
        name_key(&s.name).replace(|c: char| !c.is_ascii_alphanumeric(), "_")
    )) {
        h.insert(header::CONTENT_DISPOSITION, v);
    }
    Ok(r)
}

/// A ZIP archive of `files` (name, JSON), deflated.
fn zip_of(files: &[(String, Value)]) -> Result<Vec<u8>, String> {
    use std::io::Write;
    let mut out = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, record) in files {
        out.start_file(name.as_str(), opts)
            .map_err(|e| e.to_string())?;
        let text = serde_json::to_string_pretty(record).map_err(|e| e.to_string())?;
        out.write_all(text.as_bytes()).map_err(|e| e.to_string())?;
    }
    let cursor = out.finish().map_err(|e| e.to_string())?;
    Ok(cursor.into_inner())
}
