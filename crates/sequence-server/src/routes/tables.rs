//! Tables: `POST /api/tables` (create), `GET /api/tables` (open tables),
//! `GET /api/tables/{id}` (info), `POST /api/tables/{id}/rematch`.

use super::extract::{name_of, TableAt};
use super::host_only;
use crate::accounts::Signed;
use crate::app::App;
use crate::auth::{self, SeatToken};
use crate::bots;
use crate::error::ApiError;
use crate::input::{self, ApiPath, Hints};
use crate::limits::{self, echo};
use crate::tables::{now_ms, Event, GameKind, Spec, Status};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BotSeat {
    seat: u8,
    level: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct CreateReq {
    game: GameKind,
    players: u8,
    #[serde(default)]
    teams: Option<u8>,
    #[serde(default)]
    options: Option<Value>,
    #[serde(default)]
    bots: Vec<BotSeat>,
    /// A guest's name; signed in, the account's name is used instead.
    #[serde(default)]
    name: String,
    #[serde(default)]
    table_name: Option<String>,
    /// Absent: the default ([`PUBLIC_TURN_SECONDS`] at a public table
    /// waiting for people, else none); `null`: no timer.
    #[serde(default, deserialize_with = "present")]
    turn_seconds: Option<Option<u32>>,
    #[serde(default)]
    private: bool,
    /// A tutorial's name: a private practice table against its bot, dealt
    /// as the tutorial says (the other fields but `game` and `name` are
    /// then the tutorial's).
    #[serde(default)]
    tutorial: Option<String>,
    /// Rated or casual (absent: rated unless a bot plays).
    #[serde(default)]
    rated: Option<bool>,
}

/// The turn timer of a public table (listed in the lobby, a seat waiting
/// for someone) created without one: strangers should not wait forever.
pub const PUBLIC_TURN_SECONDS: u32 = 60;

/// A field that may be `null`: present (`Some(None)` for `null`) or
/// absent (`None`, through `#[serde(default)]`).
fn present<'de, D, T>(d: D) -> Result<Option<Option<T>>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(d).map(Some)
}

pub(super) const CREATE_HINTS: Hints = &[
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
    ("name", "a string (your name; left out when signed in)"),
    ("table_name", "a string or null"),
    (
        "turn_seconds",
        "a whole number of seconds from 1 to 3600, or null",
    ),
    ("private", "true or false"),
    ("tutorial", "a tutorial's name such as \"classic\", or null"),
    ("rated", "true (rated) or false (casual), or null"),
];

/// Makes `req` the table of tutorial `name` (issue 25): two players, the
/// tutorial's bot in seat 1, its rule options, private, no turn timer.
///
/// # Errors
/// 400 for an unknown tutorial or one of another game.
fn tutorial_table(req: &mut CreateReq, name: &str) -> Result<(), ApiError> {
    let Some(t) = crate::tables::tutorial::find(name) else {
        return Err(ApiError::bad(format!(
            "field `tutorial`: no tutorial \"{}\" (the tutorials are {})",
            echo(name),
            crate::tables::tutorial::TUTORIALS
                .map(|t| t.name)
                .join(", ")
        )));
    };
    if t.game != req.game {
        return Err(ApiError::bad(format!(
            "field `tutorial`: the tutorial \"{name}\" is a game of {}",
            t.game.name()
        )));
    }
    req.players = 2;
    req.teams = None;
    req.options = Some(t.options());
    req.bots = vec![BotSeat {
        seat: 1,
        level: t.level.to_string(),
    }];
    req.turn_seconds = Some(None);
    req.private = true;
    req.rated = Some(false);
    Ok(())
}

/// The events that seat the bots a new table asks for.
fn bot_events(bots_req: &[BotSeat], players: u8) -> Result<Vec<Event>, ApiError> {
    let mut events = vec![];
    for b in bots_req {
        if b.seat == 0 || b.seat >= players {
            return Err(ApiError::bad(format!(
                "bots: {}",
                bots::not_a_bot_seat(b.seat, players)
            )));
        }
        if !bots::level_ok(&b.level) {
            return Err(ApiError::bad(format!(
                "bots: unknown level \"{}\" (the levels are {})",
                echo(&b.level),
                bots::LEVELS.join(", ")
            )));
        }
        if bots_req.iter().filter(|o| o.seat == b.seat).count() > 1 {
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
    Ok(events)
}

/// `POST /api/tables`.
pub async fn create_table(
    State(app): State<Arc<App>>,
    Signed(signed): Signed,
    body: Result<Bytes, BytesRejection>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let mut req: CreateReq = input::body(body, CREATE_HINTS)?;
    if let Some(name) = req.tutorial.clone() {
        tutorial_table(&mut req, &name)?;
    }
    let name = match &signed {
        Some(s) => name_of(&s.name, "name")?,
        None => name_of(&req.name, "name")?,
    };
    if let Some(Some(s)) = req.turn_seconds {
        if !(1..=3600).contains(&s) {
            return Err(ApiError::bad("field `turn_seconds`: must be 1 to 3600"));
        }
    }
    let awaits_people = req.bots.len() + 1 < usize::from(req.players);
    let turn_seconds = match req.turn_seconds {
        Some(t) => t,
        None if !req.private && awaits_people => Some(PUBLIC_TURN_SECONDS),
        None => None,
    };
    let mut options = req.options.unwrap_or(Value::Null);
    sequence_bots::rules(req.game).prepare_options(&mut options, rand::random());
    let own_name = req
        .table_name
        .as_deref()
        .map(|n| limits::clean_text(n, limits::MAX_NAME))
        .filter(|n| !n.is_empty());
    let spec = Spec {
        game: req.game,
        players: req.players,
        teams: req.teams,
        options,
        name: own_name
            .clone()
            .unwrap_or_else(|| format!("{name}'s table")),
        named_after: own_name.is_none().then(|| name.clone()),
        turn_seconds,
        private: req.private,
        created_ms: now_ms(),
        tutorial: req.tutorial.clone(),
        rated: req.rated,
    };
    spec.check().map_err(ApiError::bad)?;
    let (token, hash) = auth::new_token();
    let mut events = vec![Event::Seat {
        seat: 0,
        name,
        token: hex::encode(hash),
        account: signed.as_ref().map(|s| s.user_id),
    }];
    events.extend(bot_events(&req.bots, spec.players)?);
    let id = app.create_table(spec, events).await?;
    super::seats::own_seat(&app, &id, &hash, signed.as_ref()).await?;
    Ok((
        StatusCode::CREATED,
        Json(json!({"table": id, "seat": 0, "token": token})),
    ))
}

/// `GET /api/tables`: the public tables waiting for players and the
/// public games being played (to watch), newest first, at most 100 in all.
pub async fn list_tables(State(app): State<Arc<App>>) -> Result<Json<Value>, ApiError> {
    let mut ids = vec![];
    for status in ["waiting", "playing"] {
        ids.extend(
            app.db
                .tables_with_status(status, 100)
                .await
                .map_err(crate::tables::TableError::from)?,
        );
    }
    let mut out: Vec<(i64, Value)> = vec![];
    for id in ids {
        if let Ok(t) = app.table(&id).await {
            let t = t.lock().await;
            let listed = matches!(t.core.status, Status::Waiting | Status::Playing);
            if listed && !t.core.spec.private {
                out.push((t.core.spec.created_ms, t.info()));
            }
        }
    }
    out.sort_by_key(|t| std::cmp::Reverse(t.0));
    out.truncate(100);
    let tables: Vec<Value> = out.into_iter().map(|(_, v)| v).collect();
    Ok(Json(json!({"tables": tables})))
}

/// `GET /api/tables/{id}`.
pub async fn get_table(TableAt { t, .. }: TableAt) -> Result<Json<Value>, ApiError> {
    Ok(Json(t.info()))
}

/// `POST /api/tables/{id}/rematch`.
pub async fn rematch(
    State(app): State<Arc<App>>,
    TableAt { mut t, .. }: TableAt,
    token: SeatToken,
) -> Result<Json<Value>, ApiError> {
    host_only(&token, &t.core)?;
    t.commit(&app, vec![Event::Rematch]).await?;
    Ok(Json(t.info()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PenaltyReq {
    team: Value,
}

pub(super) const PENALTY_HINTS: Hints = &[("team", "a team's colour, such as \"green\"")];

/// `POST /api/tables/{id}/penalty` (host): the table-talk penalty (C10)
/// for a team of two or more: each of its members discards a card of their
/// choice and plays on one card short. 200 `TableInfo`.
pub async fn penalty(
    State(app): State<Arc<App>>,
    ApiPath(id): ApiPath<String>,
    token: SeatToken,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let mut t = app.open(&id).await?;
    host_only(&token, &t.core)?;
    let req: PenaltyReq = input::body(body, PENALTY_HINTS)?;
    let rules = t.core.spec.rules();
    if let Some(why) = rules.no_penalty() {
        return Err(crate::tables::TableError::conflict(why).into());
    }
    let teams = t.core.spec.team_count().unwrap_or(0);
    let team = (0..teams)
        .find(|&n| rules.side_json(n) == req.team)
        .ok_or_else(|| {
            ApiError::bad(format!(
                "field `team`: {} is not a team of this table",
                echo(&req.team.to_string())
            ))
        })?;
    t.commit(&app, vec![Event::Penalty { team }]).await?;
    Ok(Json(t.info()))
}
