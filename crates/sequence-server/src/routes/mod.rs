//! The HTTP API (docs/api.md), one file per resource: [`games`] (what
//! the server offers), [`tables`] (create, list, info, rematch),
//! [`seats`] (join, leave, a seat for a bot, back from away), [`moves`]
//! (and hints), [`views`], [`records`], [`replay`] (move logs, replays,
//! analyses); [`extract`] holds the extractors they share (the game of a
//! query, the table of a URL, the seat of a token); the table WebSocket is
//! [`crate::ws`]. Handlers read the request ([`crate::input`]), act
//! through [`crate::app`] and the table core, and answer refusals as
//! [`ApiError`]s.

pub mod account;
pub mod admin;
pub mod extract;
pub mod games;
pub mod health;
pub mod instance;
pub mod learn;
pub mod moves;
pub mod passkeys;
pub mod profiles;
pub mod rate_limit;
pub mod records;
pub mod replay;
pub mod seats;
pub mod tables;
pub mod views;

use crate::app::App;
use crate::error::ApiError;
use crate::{assets, input, limits, ws};
use axum::extract::DefaultBodyLimit;
use axum::http::{header, HeaderName, HeaderValue, StatusCode};
use axum::routing::{get, post};
use axum::Router;
use std::sync::Arc;
use tower_http::set_header::SetResponseHeaderLayer;

/// The HTTP router over a server state.
pub fn router(app: Arc<App>) -> Router {
    let api = Router::new()
        .route(
            "/api/tables",
            post(tables::create_table).get(tables::list_tables),
        )
        .route("/api/games", get(games::list_games))
        .route("/api/tables/{id}", get(tables::get_table))
        .route("/api/tables/{id}/join", post(seats::join))
        .route("/api/tables/{id}/leave", post(seats::leave))
        .route("/api/tables/{id}/view", get(views::view))
        .route("/api/tables/{id}/moves", post(moves::post_move))
        .route("/api/tables/{id}/record", get(records::record))
        .route("/api/tables/{id}/seats/{seat}/bot", post(seats::seat_bot))
        .route("/api/tables/{id}/rematch", post(tables::rematch))
        .route("/api/tables/{id}/back", post(seats::back))
        .route("/api/tables/{id}/penalty", post(tables::penalty))
        .route("/api/tables/{id}/hint", post(moves::hint))
        .route("/api/tables/{id}/log", get(replay::log))
        .route("/api/tables/{id}/replay", get(replay::replay))
        .route(
            "/api/tables/{id}/analysis",
            get(replay::get_analysis).post(replay::post_analysis),
        )
        .route("/api/tables/{id}/ws", get(ws::handler))
        .route("/api/instance", get(instance::instance))
        .route("/api/admin/tables", get(admin::tables))
        .route("/api/admin/tables/{id}/close", post(admin::close))
        .route(
            "/api/admin/tables/{id}/seats/{seat}/name",
            post(admin::rename),
        )
        .route("/api/admin/leases", get(admin::leases))
        .merge(account::routes())
        .merge(passkeys::routes())
        .merge(profiles::routes())
        .merge(learn::routes())
        .layer(axum::middleware::from_fn_with_state(
            app.clone(),
            rate_limit::rate_limit,
        ));
    let app_router = Router::new()
        .route("/healthz", get(health::healthz))
        .route("/readyz", get(health::readyz))
        .merge(api)
        .fallback(assets::serve)
        .method_not_allowed_fallback(|| async {
            ApiError::new(
                StatusCode::METHOD_NOT_ALLOWED,
                "method not allowed for this path",
            )
        })
        // a declared Content-Length over the cap: 413 before the body is read
        .layer(tower_http::limit::RequestBodyLimitLayer::new(
            limits::MAX_BODY,
        ))
        .layer(axum::middleware::map_response(input::json_errors));
    with_ops_layers(
        with_security_headers(app_router).layer(DefaultBodyLimit::max(limits::MAX_BODY)),
    )
    .with_state(app)
}

/// The router of the private metrics listener
/// ([`crate::config::ServerConfig::metrics_listen`]): `GET /metrics`,
/// `/readyz` and `/healthz`, nothing else.
pub fn metrics_router(app: Arc<App>) -> Router {
    Router::new()
        .route("/metrics", get(health::metrics))
        .route("/readyz", get(health::readyz))
        .route("/healthz", get(health::healthz))
        .with_state(app)
}

/// The layers every request passes first: its request id (the client's
/// or proxy's [`health::REQUEST_ID`], else a fresh UUID, sent back in the
/// answer), its span in the logs ([`health::request_span`]) and the count
/// of answers by status.
fn with_ops_layers<S: Clone + Send + Sync + 'static>(r: Router<S>) -> Router<S> {
    use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
    let id = HeaderName::from_static(health::REQUEST_ID);
    r.layer(axum::middleware::from_fn(health::count_responses))
        .layer(tower_http::trace::TraceLayer::new_for_http().make_span_with(health::request_span))
        .layer(PropagateRequestIdLayer::new(id.clone()))
        .layer(SetRequestIdLayer::new(id, MakeRequestUuid))
}

/// The Content-Security-Policy of every answer: the web UI loads its
/// scripts, styles, translations and WebSocket from this origin only (no
/// inline script or style), its icon is a `data:` image, and no other site
/// may frame it. `'wasm-unsafe-eval'` lets the page compile the
/// WebAssembly engine (`web/wasm/`, docs/wasm.md), and only that: it
/// allows no `eval` of JavaScript.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; \
    script-src 'self' 'wasm-unsafe-eval'; \
    style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; \
    object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Security headers on every answer (set where a handler has not):
/// [`CONTENT_SECURITY_POLICY`], `X-Content-Type-Options: nosniff`,
/// `X-Frame-Options: DENY`, `Referrer-Policy: no-referrer`.
fn with_security_headers<S: Clone + Send + Sync + 'static>(r: Router<S>) -> Router<S> {
    let set = |name: HeaderName, value: &'static str| {
        SetResponseHeaderLayer::if_not_present(name, HeaderValue::from_static(value))
    };
    r.layer(set(
        header::CONTENT_SECURITY_POLICY,
        CONTENT_SECURITY_POLICY,
    ))
    .layer(set(header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
    .layer(set(header::X_FRAME_OPTIONS, "DENY"))
    .layer(set(header::REFERRER_POLICY, "no-referrer"))
}

/// Refuses a request of a seat other than the host (seat 0).
///
/// # Errors
/// 401 as [`crate::tables::Core::seat_of_token`], 403 for another seat.
fn host_only(token: &crate::auth::SeatToken, core: &crate::tables::Core) -> Result<(), ApiError> {
    if core.seat_of_token(token)? != 0 {
        return Err(crate::tables::TableError::Forbidden(
            "only the host (seat 0) may do this".into(),
        )
        .into());
    }
    Ok(())
}

/// The routes whose JSON request body [`read_body`] reads: table
/// creation, join, a bot for a seat, a move, a penalty, an analysis.
pub const BODIES: [&str; 6] = ["create", "join", "bot", "move", "penalty", "analysis"];

/// Reads `bytes` as the JSON body of the request `route` (one of
/// [`BODIES`]) the way its handler does, before any table is touched: the
/// entry of the fuzz targets (fuzz/).
///
/// # Errors
/// The 400 message the handler answers; an unknown `route` is named.
pub fn read_body(route: &str, bytes: &[u8]) -> Result<(), String> {
    use input::object;
    const BODY: &str = "the body";
    match route {
        "create" => object::<tables::CreateReq>(bytes, BODY, tables::CREATE_HINTS).map(drop),
        "join" => object::<seats::JoinReq>(bytes, BODY, seats::JOIN_HINTS).map(drop),
        "bot" => object::<seats::BotReq>(bytes, BODY, seats::BOT_HINTS).map(drop),
        "move" => object::<crate::app::MoveRequest>(bytes, BODY, moves::MOVE_HINTS).map(drop),
        "penalty" => object::<tables::PenaltyReq>(bytes, BODY, tables::PENALTY_HINTS).map(drop),
        "analysis" => object::<replay::AnalysisReq>(bytes, BODY, replay::ANALYSIS_HINTS).map(drop),
        other => Err(format!("no route {other:?} reads a body")),
    }
}
