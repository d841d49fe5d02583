//! Operators' routes and layers (docs/deploy.md "Metrics and
//! readiness"): `GET /healthz` (liveness: the process answers),
//! `GET /readyz` (readiness: the database answers and, with PostgreSQL,
//! the instance's lease is current), `GET /metrics` (Prometheus text
//! format, served only where [`crate::config::ServerConfig::metrics`]
//! allows it), the count of answers by status, and the span of each
//! request in the logs (its request id and table id).

use crate::app::App;
use crate::error::ApiError;
use crate::telemetry;
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use metrics::gauge;
use serde_json::json;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

/// How long `/readyz` waits for the database's answer.
pub const READY_WAIT: Duration = Duration::from_secs(1);

/// The header that carries a request's id (set by the server when the
/// request has none, e.g. from nginx's `$request_id`; sent back in the
/// answer).
pub const REQUEST_ID: &str = "x-request-id";

/// `GET /healthz`: the process answers (liveness).
pub async fn healthz() -> &'static str {
    "ok"
}

/// `GET /readyz`: 200 `{"ready": true}` when this instance can serve
/// (the database answers `SELECT 1` within [`READY_WAIT`]; with
/// PostgreSQL its lease was renewed within the lease time and it is not
/// stopping); else 503 `{"error": …}` naming every reason, with
/// `Retry-After`.
pub async fn readyz(State(app): State<Arc<App>>) -> Response {
    let reasons = not_ready(&app).await;
    metrics::gauge!(telemetry::READY).set(f64::from(u8::from(reasons.is_empty())));
    if reasons.is_empty() {
        Json(json!({"ready": true})).into_response()
    } else {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("not ready: {}", reasons.join("; ")),
        )
        .into_response()
    }
}

/// Why this instance should get no traffic now (empty: ready).
async fn not_ready(app: &App) -> Vec<String> {
    let mut reasons = Vec::new();
    if app.cluster.stopped() {
        reasons.push("the server is stopping".to_string());
    }
    match tokio::time::timeout(READY_WAIT, app.db.ping()).await {
        Ok(Ok(())) => {}
        Ok(Err(e)) => reasons.push(format!("the database cannot be reached ({e})")),
        Err(_) => reasons.push(format!(
            "the database did not answer within {} ms",
            READY_WAIT.as_millis()
        )),
    }
    if app.db.shared() {
        let age = app.cluster.lease_age();
        let lease = app.cluster.cfg.lease;
        if age > lease {
            reasons.push(format!(
                "no lease heartbeat for {} ms (the lease is {} ms): other instances may take \
                 this one's tables",
                age.as_millis(),
                lease.as_millis()
            ));
        }
    }
    reasons
}

/// `GET /metrics`: every metric in the Prometheus text format.
/// [`telemetry::READY`] is checked as `/readyz` does first.
pub async fn metrics(State(app): State<Arc<App>>) -> Response {
    let ready = not_ready(&app).await.is_empty();
    metrics::gauge!(telemetry::READY).set(f64::from(u8::from(ready)));
    let page = metrics_page(&app);
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/plain; version=0.0.4; charset=utf-8"),
        )],
        page,
    )
        .into_response()
}

/// Counts every answer by status ([`telemetry::HTTP_RESPONSES`]).
pub async fn count_responses(req: Request, next: Next) -> Response {
    let r = next.run(req).await;
    metrics::counter!(telemetry::HTTP_RESPONSES, "status" => status_label(r.status())).increment(1);
    r
}

/// A status as a label value without allocating for the usual ones.
fn status_label(s: StatusCode) -> &'static str {
    match s.as_u16() {
        101 => "101",
        200 => "200",
        201 => "201",
        204 => "204",
        304 => "304",
        400 => "400",
        401 => "401",
        403 => "403",
        404 => "404",
        405 => "405",
        408 => "408",
        409 => "409",
        413 => "413",
        422 => "422",
        429 => "429",
        500 => "500",
        503 => "503",
        n if n < 400 => "other_ok",
        n if n < 500 => "other_4xx",
        _ => "other_5xx",
    }
}

/// The span of one request, for every log line written while it is
/// served (and by its WebSocket's tasks): method, path, its request id
/// ([`REQUEST_ID`], at most 64 printable characters of it) and, for
/// `/api/tables/{id}/…` and `/api/admin/tables/{id}/…`, the table id;
/// and `forwarded_for`, the `X-Forwarded-For` a reverse proxy set (at
/// most 100 characters). It is on at every log level.
pub fn request_span<B>(req: &axum::http::Request<B>) -> tracing::Span {
    let path = req.uri().path();
    let request_id: String = req
        .headers()
        .get(REQUEST_ID)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .chars()
        .filter(|c| c.is_ascii_graphic())
        .take(64)
        .collect();
    let table = path
        .strip_prefix("/api/tables/")
        .or_else(|| path.strip_prefix("/api/admin/tables/"))
        .and_then(|rest| rest.split('/').next())
        .filter(|id| crate::auth::table_id_ok(id))
        .unwrap_or("");
    // Behind a reverse proxy: the client's address as the proxy says
    // (logged only; the limits never trust it).
    let forwarded_for: String = req
        .headers()
        .get("x-forwarded-for")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .chars()
        .filter(|c| c.is_ascii_graphic() || *c == ' ')
        .take(100)
        .collect();
    // at ERROR level, the span is on at every log level (`warn` by
    // default): the lines a request writes carry it whatever RUST_LOG says
    tracing::error_span!(
        "request",
        method = %req.method(),
        path = %path.chars().take(200).collect::<String>(),
        request_id = %request_id,
        table = %table,
        forwarded_for = %forwarded_for,
    )
}

/// The page of `GET /metrics`: gauges read from `app` now, then every
/// metric in the Prometheus text format (version 0.0.4).
fn metrics_page(app: &App) -> String {
    let Some(handle) = telemetry::install() else {
        return "# another metrics recorder was installed in this process\n".into();
    };
    let c = &app.cluster;
    let shared = app.db.shared();
    let in_memory = app.tables.lock().map(|m| m.len()).unwrap_or(0);
    gauge!(telemetry::TABLES_IN_MEMORY).set(in_memory as f64);
    gauge!(telemetry::TABLES_OWNED).set(if shared { c.owned_count() } else { in_memory } as f64);
    gauge!(telemetry::WEBSOCKETS).set(c.sockets.load(Ordering::Relaxed) as f64);
    gauge!(telemetry::ANALYSIS_QUEUE).set(app.worker.queued() as f64);
    let (open, idle) = app.db.pool_state();
    gauge!(telemetry::POOL_CONNECTIONS).set(open as f64);
    gauge!(telemetry::POOL_IDLE).set(idle as f64);
    gauge!(telemetry::NOTIFY_LISTENING).set(f64::from(u8::from(
        shared && c.listening.load(Ordering::Relaxed),
    )));
    let age = if shared {
        c.lease_age()
    } else {
        Duration::ZERO
    };
    gauge!(telemetry::LEASE_AGE).set(age.as_secs_f64());
    gauge!(telemetry::LEASE_HELD).set(f64::from(u8::from(!shared || age < c.cfg.lease)));
    handle.run_upkeep();
    handle.render()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_are_labelled_without_unbounded_values() {
        assert_eq!(status_label(StatusCode::SERVICE_UNAVAILABLE), "503");
        assert_eq!(status_label(StatusCode::OK), "200");
        assert_eq!(status_label(StatusCode::IM_A_TEAPOT), "other_4xx");
        assert_eq!(status_label(StatusCode::BAD_GATEWAY), "other_5xx");
    }
}
