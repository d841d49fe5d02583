//! Extractors that handlers share: the game a query names (`?game=N`),
//! the table a URL names (found, locked and caught up with the database),
//! with the game of its query, the seat of the request's token there,
//! and the address a request came from.
//!
//! The table extractors lock the table, so they serve handlers that read
//! no body: a handler with a body reads it first and opens the table
//! itself, so that a slow client never holds a table's lock.

use crate::app::{App, OpenTable};
use crate::auth::SeatToken;
use crate::error::ApiError;
use crate::input::ApiPath;
use crate::limits::{self, client_key, echo};
use axum::extract::{ConnectInfo, FromRequestParts, Query};
use axum::http::request::Parts;
use serde::Deserialize;
use std::net::SocketAddr;
use std::sync::Arc;

/// `?game=N`, read as text so that a bad value gets a message in words.
#[derive(Deserialize)]
struct GameQuery {
    /// A game of the table (1 = first).
    game: Option<String>,
}

/// The game a request names with `?game=N` (`None`: the table's current
/// game). Refused with 400 when the query is not `?game=N` with `N` ≥ 1.
#[derive(Debug, Clone, Copy)]
pub struct GameParam(pub Option<u32>);

impl<S: Send + Sync> FromRequestParts<S> for GameParam {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let Query(q) = Query::<GameQuery>::from_request_parts(parts, state)
            .await
            .map_err(|_| ApiError::bad("the query string could not be read (expected ?game=N)"))?;
        let Some(g) = q.game else {
            return Ok(GameParam(None));
        };
        match g.parse::<u32>() {
            Ok(n) if n >= 1 => Ok(GameParam(Some(n))),
            _ => Err(ApiError::bad(format!(
                "query parameter `game` must be a whole number ≥ 1, got `{}`",
                echo(&g)
            ))),
        }
    }
}

/// The table of the URL's `{id}`, opened with [`App::open`]: 400 for a
/// path that cannot be read, 404 for no such table.
pub struct TableAt {
    /// The table id of the URL.
    pub id: String,
    /// The table, locked.
    pub t: OpenTable,
}

impl FromRequestParts<Arc<App>> for TableAt {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<Self, ApiError> {
        let ApiPath(id) = ApiPath::<String>::from_request_parts(parts, app).await?;
        let t = app.open(&id).await?;
        Ok(TableAt { id, t })
    }
}

/// The table of the URL's `{id}` and the game its query names
/// ([`GameParam`]): read in that order (a path that cannot be read, then a
/// bad query, then no such table).
pub struct GameAt {
    /// The table id of the URL.
    pub id: String,
    /// The table, locked.
    pub t: OpenTable,
    /// The game of `?game=N` (`None`: the table's current game).
    pub game: Option<u32>,
}

impl FromRequestParts<Arc<App>> for GameAt {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<Self, ApiError> {
        let ApiPath(id) = ApiPath::<String>::from_request_parts(parts, app).await?;
        let GameParam(game) = GameParam::from_request_parts(parts, app).await?;
        let t = app.open(&id).await?;
        Ok(GameAt { id, t, game })
    }
}

/// The seat of the request's token at the table of the URL ([`TableAt`]);
/// 401 for a token that holds no seat there.
pub struct SeatAt {
    /// The table id of the URL.
    pub id: String,
    /// The table, locked.
    pub t: OpenTable,
    /// The token's seat.
    pub seat: u8,
}

impl FromRequestParts<Arc<App>> for SeatAt {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<Self, ApiError> {
        let Ok(token) = SeatToken::from_request_parts(parts, app).await;
        let TableAt { id, t } = TableAt::from_request_parts(parts, app).await?;
        let seat = t.core.seat_of_token(&token)?;
        Ok(SeatAt { id, t, seat })
    }
}

/// The address the request came from as the sign-in delays count it
/// ([`client_key`]), as text.
pub struct ClientAddress(pub String);

impl<S: Send + Sync> FromRequestParts<S> for ClientAddress {
    type Rejection = <ConnectInfo<SocketAddr> as FromRequestParts<S>>::Rejection;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let ConnectInfo(addr) = ConnectInfo::<SocketAddr>::from_request_parts(parts, state).await?;
        Ok(ClientAddress(client_key(addr.ip()).to_string()))
    }
}

/// A person's name from a request: cleaned, capped, not empty.
///
/// # Errors
/// 400 naming the field when nothing is left.
pub(crate) fn name_of(s: &str, what: &str) -> Result<String, ApiError> {
    let n = limits::clean_text(s, limits::MAX_NAME);
    if n.is_empty() {
        return Err(
            ApiError::bad(format!("field `{what}` is missing or empty")).coded("name.empty")
        );
    }
    Ok(n)
}
