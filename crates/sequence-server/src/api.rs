//! The HTTP API (docs/api.md): the shared server state [`App`], the
//! commit path every change goes through, and the request handlers.

use crate::auth;
use crate::bots::{self, BotView};
use crate::config::ServerConfig;
use crate::db::{Db, DbError};
use crate::input::{self, ApiPath, Hints};
use crate::limits::{self, echo, AddressLimiter};
use crate::tables::{Core, Event, GameKind, Live, SeatKind, Spec, Status, Table};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{ConnectInfo, Query, Request, State};
use axum::http::{HeaderMap, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use tokio::sync::Mutex;

/// An error answer: a status and `{"error": message}`.
#[derive(Debug, Clone)]
pub struct ApiError {
    /// HTTP status (400, 401, 403, 404, 409, 413, 422, 429, 500).
    pub status: StatusCode,
    /// What was wrong.
    pub message: String,
}

impl ApiError {
    /// An error with `status` and `message`; control and bidi control
    /// characters of outside input quoted in it are written as `\u{…}`
    /// ([`limits::escape_controls`]).
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: limits::escape_controls(&message.into()),
        }
    }

    fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(json!({"error": self.message}))).into_response()
    }
}

impl From<DbError> for ApiError {
    fn from(e: DbError) -> ApiError {
        match e {
            DbError::Conflict => ApiError::new(StatusCode::CONFLICT, e.to_string()),
            e => {
                tracing::error!("{e}");
                ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "database error")
            }
        }
    }
}

/// A table shared between requests.
pub type TableRef = Arc<Mutex<Table>>;

/// The server state shared by every request and connection.
pub struct App {
    /// Storage.
    pub db: Db,
    /// Tables in memory, by id.
    pub tables: std::sync::Mutex<HashMap<String, TableRef>>,
    /// Settings.
    pub cfg: ServerConfig,
    /// Per-address HTTP limiter.
    pub limiter: AddressLimiter,
    next_conn: AtomicU64,
}

impl App {
    /// A server state over `db`.
    pub fn new(db: Db, cfg: ServerConfig) -> App {
        let limiter = AddressLimiter::new(cfg.rate_limit, cfg.rate_burst);
        App {
            db,
            tables: std::sync::Mutex::new(HashMap::new()),
            cfg,
            limiter,
            next_conn: AtomicU64::new(1),
        }
    }

    /// A fresh connection id.
    pub fn conn_id(&self) -> u64 {
        self.next_conn.fetch_add(1, Ordering::Relaxed)
    }

    fn cached(&self, id: &str) -> Option<TableRef> {
        self.tables.lock().ok()?.get(id).cloned()
    }

    /// Every table in memory.
    pub fn all_tables(&self) -> Vec<TableRef> {
        self.tables
            .lock()
            .map(|m| m.values().cloned().collect())
            .unwrap_or_default()
    }

    /// The table `id`, loaded from the database if needed.
    ///
    /// # Errors
    /// 404 when there is no such table.
    pub async fn table(self: &Arc<Self>, id: &str) -> Result<TableRef, ApiError> {
        if !auth::table_id_ok(id) {
            return Err(ApiError::new(
                StatusCode::NOT_FOUND,
                format!("no table `{}` (ids are 16 hex characters)", echo(id)),
            ));
        }
        if let Some(t) = self.cached(id) {
            return Ok(t);
        }
        let stored = self
            .db
            .load(id)
            .await?
            .ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, format!("no table {id}")))?;
        let mut spec: Spec = serde_json::from_str(&stored.spec).map_err(|e| {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("stored table {id}: {e}"),
            )
        })?;
        if spec.options.as_array().is_some_and(Vec::is_empty) {
            // stored before `options` had to be an object: `[]` meant the
            // defaults then
            spec.options = Value::Null;
        }
        let mut core = Core::new(id.to_string(), spec);
        for (seq, data) in &stored.events {
            apply_stored(&mut core, *seq, data)?;
        }
        let mut table = Table::new(core);
        table.reset_deadline();
        let tref = {
            let mut map = self
                .tables
                .lock()
                .map_err(|_| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "lock"))?;
            map.entry(id.to_string())
                .or_insert_with(|| Arc::new(Mutex::new(table)))
                .clone()
        };
        {
            let mut t = tref.lock().await;
            kick_bots(self, &tref, &mut t);
        }
        Ok(tref)
    }

    /// Reads events other server instances appended (shared PostgreSQL).
    ///
    /// # Errors
    /// Database errors.
    pub async fn sync(&self, t: &mut Table) -> Result<bool, ApiError> {
        if !self.db.shared() {
            return Ok(false);
        }
        let evs = self.db.events_since(&t.core.id, t.core.next_seq).await?;
        let changed = !evs.is_empty();
        for (seq, data) in &evs {
            apply_stored(&mut t.core, *seq, data)?;
        }
        if changed {
            t.reset_deadline();
            t.broadcast_views();
        }
        Ok(changed)
    }
}

fn apply_stored(core: &mut Core, seq: i64, data: &str) -> Result<(), ApiError> {
    let ev: Event = serde_json::from_str(data).map_err(|e| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("table {} event {seq} unreadable: {e}", core.id),
        )
    })?;
    if seq != core.next_seq {
        return Err(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("table {} event {seq} out of order", core.id),
        ));
    }
    core.apply(&ev).map_err(|e| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("table {} event {seq} replays wrong: {}", core.id, e.message),
        )
    })
}

/// Applies `events` to a copy of the table's core (starting the game when
/// every seat is filled), appends them to the database, and only once that
/// has committed keeps the new state, broadcasts the views and wakes the
/// bots. Nothing changes on error.
///
/// # Errors
/// The first event's refusal (409/400/422), or a database error.
pub async fn commit(
    app: &Arc<App>,
    tref: &TableRef,
    t: &mut Table,
    mut events: Vec<Event>,
) -> Result<(), ApiError> {
    app.sync(t).await?;
    let mut core = t.core.clone();
    let first = core.next_seq;
    let moves_before = (core.game_no, core.moves);
    for e in &events {
        core.apply(e)?;
    }
    if core.status == Status::Waiting && core.all_filled() {
        let seed: u64 = rand::random();
        let e = Event::Start { seed };
        core.apply(&e)?;
        events.push(e);
    }
    let texts: Vec<String> = events
        .iter()
        .map(|e| serde_json::to_string(e).unwrap_or_default())
        .collect();
    match app
        .db
        .append(&core.id, first, &texts, core.status.name())
        .await
    {
        Ok(()) => {}
        Err(DbError::Conflict) => {
            app.sync(t).await?;
            return Err(DbError::Conflict.into());
        }
        Err(e) => return Err(e.into()),
    }
    if (core.game_no, core.moves) != moves_before {
        if let Some(Event::Move { mv }) = events.first() {
            if let Some(s) = mv.get("seat").and_then(Value::as_u64) {
                if let Some(f) = t.timed_out.get_mut(s as usize) {
                    *f = false;
                }
            }
        }
    }
    t.core = core;
    if (t.core.game_no, t.core.moves) != moves_before || t.deadline.is_none() {
        t.reset_deadline();
    }
    t.broadcast_views();
    kick_bots(app, tref, t);
    Ok(())
}

/// Starts the bot task of a table if a bot is to move and none runs.
pub fn kick_bots(app: &Arc<App>, tref: &TableRef, t: &mut Table) {
    if t.bot_running {
        return;
    }
    let Some(seat) = t.core.to_act() else { return };
    if t.core.seats[seat.index()].kind != SeatKind::Bot {
        return;
    }
    t.bot_running = true;
    let app = app.clone();
    let tref = tref.clone();
    tokio::spawn(async move {
        loop {
            if !app.cfg.bot_delay.is_zero() {
                tokio::time::sleep(app.cfg.bot_delay).await;
            }
            let job = {
                let mut t = tref.lock().await;
                let next = t
                    .core
                    .to_act()
                    .filter(|s| t.core.seats[s.index()].kind == SeatKind::Bot);
                match (next, t.core.live.as_ref()) {
                    (Some(seat), Some(live)) => {
                        let view = match live {
                            Live::Classic(m) => BotView::Classic(
                                Box::new(m.game().view(seat)),
                                m.game().sequence_length(),
                            ),
                            Live::Stacks(m, _) => BotView::Stacks(Box::new(m.game().view(seat))),
                        };
                        let level = t.core.seats[seat.index()]
                            .level
                            .clone()
                            .unwrap_or_else(|| "random".into());
                        let seed = u64::from_str_radix(&t.core.id, 16).unwrap_or(0)
                            ^ ((t.core.game_no as u64) << 32)
                            ^ t.core.moves as u64;
                        Some((seat, view, level, seed, t.core.game_no, t.core.moves))
                    }
                    _ => {
                        t.bot_running = false;
                        None
                    }
                }
            };
            let Some((seat, view, level, seed, game_no, moves)) = job else {
                return;
            };
            let chosen =
                tokio::task::spawn_blocking(move || bots::choose(&level, seat, &view, seed))
                    .await
                    .ok()
                    .flatten();
            let mut t = tref.lock().await;
            if (t.core.game_no, t.core.moves) != (game_no, moves) {
                continue;
            }
            let Some(mv) = chosen else {
                tracing::error!("bot at table {} seat {} found no move", t.core.id, seat.0);
                t.bot_running = false;
                return;
            };
            t.bot_running = false; // commit may restart us; we loop only on failure
            let r = commit(&app, &tref, &mut t, vec![Event::Move { mv }]).await;
            match r {
                Ok(()) => return,
                Err(e) => {
                    tracing::warn!("bot move at table {} refused: {}", t.core.id, e.message);
                    if e.status == StatusCode::CONFLICT {
                        t.bot_running = true;
                        continue;
                    }
                    return;
                }
            }
        }
    });
}

/// The seat a request's bearer token belongs to.
///
/// # Errors
/// 401 for a missing, unreadable, non-`Bearer`, malformed or unknown
/// token, each said in words.
pub fn seat_of(headers: &HeaderMap, core: &Core) -> Result<u8, ApiError> {
    let tok = match headers.get(axum::http::header::AUTHORIZATION) {
        None => auth::bearer_token(None),
        Some(v) => match v.to_str() {
            Ok(text) => auth::bearer_token(Some(text)),
            Err(_) => Err(format!(
                "the Authorization header is not readable text: {}",
                auth::USE_BEARER
            )),
        },
    }
    .map_err(|m| ApiError::new(StatusCode::UNAUTHORIZED, m))?;
    core.seat_of(&auth::hash(tok))
        .ok_or_else(|| ApiError::new(StatusCode::UNAUTHORIZED, "wrong token for this table"))
}

/// The seat whose token is `tok`.
///
/// # Errors
/// 401 for a malformed or unknown token.
pub fn seat_of_token(tok: &str, core: &Core) -> Result<u8, ApiError> {
    if !auth::well_formed(tok) {
        return Err(ApiError::new(StatusCode::UNAUTHORIZED, auth::MALFORMED));
    }
    core.seat_of(&auth::hash(tok))
        .ok_or_else(|| ApiError::new(StatusCode::UNAUTHORIZED, "wrong token for this table"))
}

/// Per-address rate limit middleware (429 when over).
pub async fn rate_limit(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    req: Request,
    next: Next,
) -> Response {
    if !app.limiter.allow(addr.ip()) {
        return ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "rate limit: too many requests from this address",
        )
        .into_response();
    }
    next.run(req).await
}

/// `GET /healthz`.
pub async fn healthz() -> &'static str {
    "ok"
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BotSeat {
    seat: u8,
    level: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateReq {
    game: GameKind,
    players: u8,
    #[serde(default)]
    teams: Option<u8>,
    #[serde(default)]
    options: Option<Value>,
    #[serde(default)]
    bots: Vec<BotSeat>,
    name: String,
    #[serde(default)]
    table_name: Option<String>,
    #[serde(default)]
    turn_seconds: Option<u32>,
}

const CREATE_HINTS: Hints = &[
    ("game", "\"classic\" or \"stacks\""),
    ("players", "a number from 2 to 12"),
    ("teams", "a number of teams (2 or 3) or null"),
    ("options", "an object of rule options"),
    (
        "bots",
        "a list like [{\"seat\": 1, \"level\": \"level:3\"}]",
    ),
    (
        "bots[]",
        "an object like {\"seat\": 1, \"level\": \"level:3\"}",
    ),
    ("bots[].seat", "a seat number from 1 to 11"),
    ("bots[].level", "a bot level such as \"level:3\""),
    ("name", "a string (your name)"),
    ("table_name", "a string or null"),
    (
        "turn_seconds",
        "a whole number of seconds from 1 to 3600, or null",
    ),
];

fn name_of(s: &str, what: &str) -> Result<String, ApiError> {
    let n = limits::clean_text(s, limits::MAX_NAME);
    if n.is_empty() {
        return Err(ApiError::bad(format!("field `{what}`: must not be empty")));
    }
    Ok(n)
}

/// `POST /api/tables`.
pub async fn create_table(
    State(app): State<Arc<App>>,
    body: Result<Bytes, BytesRejection>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let req: CreateReq = input::body(body, CREATE_HINTS)?;
    let name = name_of(&req.name, "name")?;
    if let Some(s) = req.turn_seconds {
        if !(1..=3600).contains(&s) {
            return Err(ApiError::bad("field `turn_seconds`: must be 1 to 3600"));
        }
    }
    let own_name = req
        .table_name
        .as_deref()
        .map(|n| limits::clean_text(n, limits::MAX_NAME))
        .filter(|n| !n.is_empty());
    let spec = Spec {
        game: req.game,
        players: req.players,
        teams: req.teams,
        options: req.options.unwrap_or(Value::Null),
        name: own_name
            .clone()
            .unwrap_or_else(|| format!("{name}'s table")),
        named_after: own_name.is_none().then(|| name.clone()),
        turn_seconds: req.turn_seconds,
        created_ms: crate::tables::now_ms(),
    };
    spec.check().map_err(ApiError::bad)?;
    let (token, hash) = auth::new_token();
    let mut events = vec![Event::Seat {
        seat: 0,
        name,
        token: hex::encode(hash),
    }];
    for b in &req.bots {
        if b.seat == 0 || b.seat >= spec.players {
            return Err(ApiError::bad(format!(
                "bots: {}",
                not_a_bot_seat(b.seat, spec.players)
            )));
        }
        if !bots::level_ok(&b.level) {
            return Err(ApiError::bad(format!(
                "bots: unknown level \"{}\" (the levels are {})",
                echo(&b.level),
                bots::LEVELS.join(", ")
            )));
        }
        if req.bots.iter().filter(|o| o.seat == b.seat).count() > 1 {
            return Err(ApiError::bad(format!(
                "bots: seat {} is listed twice",
                b.seat
            )));
        }
        events.push(Event::Bot {
            seat: b.seat,
            level: b.level.clone(),
        });
    }
    let id = auth::new_table_id();
    let mut core = Core::new(id.clone(), spec.clone());
    for e in &events {
        core.apply(e)?;
    }
    if core.all_filled() {
        let e = Event::Start {
            seed: rand::random(),
        };
        core.apply(&e)?;
        events.push(e);
    }
    let texts: Vec<String> = events
        .iter()
        .map(|e| serde_json::to_string(e).unwrap_or_default())
        .collect();
    let spec_text = serde_json::to_string(&spec).map_err(|e| ApiError::bad(e.to_string()))?;
    app.db
        .create_table(&id, &spec_text, core.status.name(), spec.created_ms, &texts)
        .await?;
    let mut table = Table::new(core);
    table.reset_deadline();
    let tref = Arc::new(Mutex::new(table));
    if let Ok(mut m) = app.tables.lock() {
        m.insert(id.clone(), tref.clone());
    }
    {
        let mut t = tref.lock().await;
        kick_bots(&app, &tref, &mut t);
    }
    tracing::info!(table = %id, "table created");
    Ok((
        StatusCode::CREATED,
        Json(json!({"table": id, "seat": 0, "token": token})),
    ))
}

/// Why `seat` cannot be a bot at a table of `players` seats (seat 0, or
/// no such seat), and which seats can.
fn not_a_bot_seat(seat: u8, players: u8) -> String {
    let why = if seat == 0 {
        "seat 0 is the host's and cannot be a bot".to_string()
    } else {
        format!("there is no seat {seat} at a {players}-seat table")
    };
    let which = match players.saturating_sub(1) {
        0 => "no seat can be a bot".to_string(),
        1 => "bots may sit only in seat 1".to_string(),
        last => format!("bots may sit in seats 1–{last}"),
    };
    format!("{why}; {which}")
}

/// `GET /api/tables`: open tables.
pub async fn list_tables(State(app): State<Arc<App>>) -> Result<Json<Value>, ApiError> {
    let ids = app.db.tables_with_status("waiting", 100).await?;
    let mut out = vec![];
    for id in ids {
        if let Ok(t) = app.table(&id).await {
            let t = t.lock().await;
            if t.core.status == Status::Waiting {
                out.push(t.info());
            }
        }
    }
    Ok(Json(json!({"tables": out})))
}

/// `GET /api/tables/{id}`.
pub async fn get_table(
    State(app): State<Arc<App>>,
    ApiPath(id): ApiPath<String>,
) -> Result<Json<Value>, ApiError> {
    let tref = app.table(&id).await?;
    let mut t = tref.lock().await;
    app.sync(&mut t).await?;
    Ok(Json(t.info()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JoinReq {
    name: String,
    #[serde(default)]
    seat: Option<u8>,
}

const JOIN_HINTS: Hints = &[
    ("name", "a string (your name)"),
    ("seat", "a seat number (0 for the first seat) or null"),
];

/// `POST /api/tables/{id}/join`.
pub async fn join(
    State(app): State<Arc<App>>,
    ApiPath(id): ApiPath<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let req: JoinReq = input::body(body, JOIN_HINTS)?;
    let name = name_of(&req.name, "name")?;
    let tref = app.table(&id).await?;
    let mut t = tref.lock().await;
    app.sync(&mut t).await?;
    let seat = match req.seat {
        Some(s) => s,
        None => t
            .core
            .seats
            .iter()
            .position(|s| matches!(s.kind, SeatKind::Free | SeatKind::Left))
            .map(|i| i as u8)
            .ok_or_else(|| ApiError::new(StatusCode::CONFLICT, "the table is full"))?,
    };
    let (token, hash) = auth::new_token();
    commit(
        &app,
        &tref,
        &mut t,
        vec![Event::Seat {
            seat,
            name,
            token: hex::encode(hash),
        }],
    )
    .await?;
    Ok(Json(json!({"table": id, "seat": seat, "token": token})))
}

/// `POST /api/tables/{id}/leave`.
pub async fn leave(
    State(app): State<Arc<App>>,
    ApiPath(id): ApiPath<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let tref = app.table(&id).await?;
    let mut t = tref.lock().await;
    app.sync(&mut t).await?;
    let seat = seat_of(&headers, &t.core)?;
    commit(&app, &tref, &mut t, vec![Event::Leave { seat }]).await?;
    // close this seat's connections: its token no longer works
    let ids: Vec<u64> = t
        .subs
        .iter()
        .filter(|s| s.seat == Some(seat))
        .map(|s| s.id)
        .collect();
    t.drop_subs(&ids);
    t.broadcast_views();
    Ok(Json(t.info()))
}

/// `GET /api/tables/{id}/view`: the seat's view with a token, else the
/// spectator view.
pub async fn view(
    State(app): State<Arc<App>>,
    ApiPath(id): ApiPath<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let tref = app.table(&id).await?;
    let mut t = tref.lock().await;
    app.sync(&mut t).await?;
    let seat = if headers.contains_key(axum::http::header::AUTHORIZATION) {
        Some(seat_of(&headers, &t.core)?)
    } else {
        None
    };
    Ok(Json(t.view(seat)))
}

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

/// Checks and plays a move for `seat` (shared by HTTP and WebSocket).
///
/// # Errors
/// 409 stale `move_number` / not this seat's turn / seat mismatch; 400
/// malformed; 422 illegal (the engine's message names the rule).
pub async fn play_move(
    app: &Arc<App>,
    tref: &TableRef,
    t: &mut Table,
    seat: u8,
    move_number: u32,
    mut mv: Value,
) -> Result<(), ApiError> {
    app.sync(t).await?;
    if t.core.status != Status::Playing {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            format!(
                "the game is not being played (table is {})",
                t.core.status.name()
            ),
        ));
    }
    if move_number > t.core.moves {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            format!(
                "move_number {move_number} is ahead of the game (at move_number {})",
                t.core.moves
            ),
        ));
    }
    if move_number < t.core.moves {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            format!(
                "stale move_number {move_number}: the game is at move_number {}",
                t.core.moves
            ),
        ));
    }
    let kind = sequence_common::json::kind_of(&mv);
    let o = mv
        .as_object_mut()
        .ok_or_else(|| ApiError::bad(format!("move must be a JSON object {{…}}, not {kind}")))?;
    match o.get("seat") {
        None => {
            o.insert("seat".into(), json!(seat));
        }
        Some(s) if s.as_u64() == Some(seat as u64) => {}
        Some(s) if s.as_u64().is_some() => {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                format!("the move is for seat {s} but the token is seat {seat}"),
            ))
        }
        Some(s) => {
            return Err(ApiError::bad(format!(
                "move.seat must be a number (your seat, {seat}, or left out), got {}",
                shown_value(s)
            )))
        }
    }
    commit(app, tref, t, vec![Event::Move { mv }]).await
}

/// A JSON value of a request for a message: `the string "0"`, `-1`,
/// `[1]` (capped by [`echo`]).
fn shown_value(v: &Value) -> String {
    match v {
        Value::String(s) => format!("the string \"{}\"", echo(s)),
        other => echo(&other.to_string()),
    }
}

/// `POST /api/tables/{id}/moves`.
pub async fn post_move(
    State(app): State<Arc<App>>,
    ApiPath(id): ApiPath<String>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let tref = app.table(&id).await?;
    let mut t = tref.lock().await;
    let seat = seat_of(&headers, &t.core)?;
    let req: MoveReq = input::body(body, MOVE_HINTS)?;
    play_move(&app, &tref, &mut t, seat, req.move_number, req.mv).await?;
    Ok(Json(t.view(Some(seat))))
}

/// `?game=N` of `GET …/record`, read as text so that a bad value gets a
/// message in words.
#[derive(Deserialize)]
pub struct RecordQuery {
    /// An earlier game of the table (1 = first).
    pub game: Option<String>,
}

/// `GET /api/tables/{id}/record`.
pub async fn record(
    State(app): State<Arc<App>>,
    ApiPath(id): ApiPath<String>,
    q: Result<Query<RecordQuery>, axum::extract::rejection::QueryRejection>,
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
    let tref = app.table(&id).await?;
    let mut t = tref.lock().await;
    app.sync(&mut t).await?;
    let current = t.core.game_no;
    match game {
        Some(n) if n >= 1 && (n as usize) <= t.core.finished.len() && n != current => {
            Ok(Json(t.core.finished[n as usize - 1].clone()))
        }
        Some(n) if n != current => Err(ApiError::new(
            StatusCode::NOT_FOUND,
            format!("no game {n} at this table"),
        )),
        _ => t.core.record().map(Json).ok_or_else(|| {
            ApiError::new(
                StatusCode::FORBIDDEN,
                "the record is available once the game is over",
            )
        }),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BotReq {
    level: String,
}

const BOT_HINTS: Hints = &[("level", "a bot level such as \"level:3\"")];

fn host_only(headers: &HeaderMap, core: &Core) -> Result<(), ApiError> {
    if seat_of(headers, core)? != 0 {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "only the host (seat 0) may do this",
        ));
    }
    Ok(())
}

/// `POST /api/tables/{id}/seats/{seat}/bot`.
pub async fn seat_bot(
    State(app): State<Arc<App>>,
    ApiPath((id, seat)): ApiPath<(String, String)>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let tref = app.table(&id).await?;
    let mut t = tref.lock().await;
    app.sync(&mut t).await?;
    let seat = input::seat_param(&seat, t.core.seats.len())?;
    host_only(&headers, &t.core)?;
    let req: BotReq = input::body(body, BOT_HINTS)?;
    if !bots::level_ok(&req.level) {
        return Err(ApiError::bad(format!(
            "field `level`: unknown level \"{}\" ({})",
            echo(&req.level),
            bots::LEVELS.join(", ")
        )));
    }
    let s = t.core.seats.get(seat as usize).ok_or_else(|| {
        ApiError::new(StatusCode::NOT_FOUND, format!("seat {seat} does not exist"))
    })?;
    let may = match s.kind {
        SeatKind::Free | SeatKind::Left | SeatKind::Bot => true,
        SeatKind::Human => {
            t.timed_out[seat as usize]
                || (t.core.status == Status::Playing && t.connected[seat as usize] == 0)
        }
    };
    if seat == 0 {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            not_a_bot_seat(0, t.core.spec.players),
        ));
    }
    if !may {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            format!("seat {seat} is held by a connected person who has not run out of time"),
        ));
    }
    commit(
        &app,
        &tref,
        &mut t,
        vec![Event::Bot {
            seat,
            level: req.level,
        }],
    )
    .await?;
    t.timed_out[seat as usize] = false;
    let ids: Vec<u64> = t
        .subs
        .iter()
        .filter(|s| s.seat == Some(seat))
        .map(|s| s.id)
        .collect();
    t.drop_subs(&ids);
    t.broadcast_views();
    Ok(Json(t.info()))
}

/// `POST /api/tables/{id}/rematch`.
pub async fn rematch(
    State(app): State<Arc<App>>,
    ApiPath(id): ApiPath<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let tref = app.table(&id).await?;
    let mut t = tref.lock().await;
    app.sync(&mut t).await?;
    host_only(&headers, &t.core)?;
    commit(&app, &tref, &mut t, vec![Event::Rematch]).await?;
    Ok(Json(t.info()))
}

/// Marks seats whose turn timer ran out (called every half second).
pub async fn check_timers(app: &Arc<App>) {
    let now = std::time::Instant::now();
    for tref in app.all_tables() {
        let Ok(mut t) = tref.try_lock() else { continue };
        if let Some((at, _, moves)) = t.deadline {
            if at <= now && moves == t.core.moves {
                if let Some(seat) = t.core.to_act() {
                    t.timed_out[seat.index()] = true;
                    t.deadline = None;
                    tracing::info!(table = %t.core.id, seat = seat.0, "turn timer ran out");
                    t.broadcast_views();
                }
            }
        }
    }
}
