//! The API routes' rate limit: the middleware [`rate_limit`] over the
//! per-address buckets of [`crate::limits`].

use crate::app::App;
use crate::error::ApiError;
use crate::limits::{checks_seat, Ask};
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::net::SocketAddr;
use std::sync::Arc;

/// The per-address limit of the API routes ([`crate::limits::AddressLimiter`]): a
/// request over it is answered 429 with `Retry-After` (the seconds until
/// the address may ask again). A WebSocket upgrade counts as
/// [`Ask::Upgrade`], a request with a seat token as [`Ask::Seat`]; a 2xx
/// answer to one on a route that checks the token ([`checks_seat`])
/// gives the seat its own allowance at this address.
pub async fn rate_limit(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    req: Request,
    next: Next,
) -> Response {
    let ip = addr.ip();
    let seat = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .map(|t| app.limiter.seat_key(t.trim()));
    let upgrade = req
        .headers()
        .get(header::UPGRADE)
        .is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"websocket"));
    let ask = match seat {
        _ if upgrade => Ask::Upgrade,
        Some(k) => Ask::Seat(k),
        None => Ask::Api,
    };
    if let Err(wait) = app.limiter.check(ip, ask) {
        let what = if upgrade {
            "WebSocket connections"
        } else {
            "requests"
        };
        return ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!("rate limit: too many {what} from this address"),
        )
        .wait(wait.as_secs_f64().ceil() as u64)
        .into_response();
    }
    let checks = seat.is_some() && checks_seat(req.method(), req.uri().path());
    let r = next.run(req).await;
    if let (true, Some(k)) = (checks && r.status().is_success(), seat) {
        app.limiter.seat_acted(ip, k);
    }
    r
}
