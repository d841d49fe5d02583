//! Error answers of the HTTP layer: [`ApiError`], a status with
//! `{"error": message}` (and `"code"` for a refused move). The table
//! core's [`TableError`] becomes an HTTP status here and only here
//! ([`ApiError::from`]).

use crate::limits;
use crate::tables::TableError;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use sequence_common::PlayError;
use serde_json::{json, Map, Value};

/// An error answer: a status, `{"error": message}`, for a malformed or
/// illegal move the engine's stable `code` (`notation.missing`,
/// `C6.space_taken`), and for a move made for another position the
/// table's `move_number`. Every 429 and 503 has `Retry-After` (seconds):
/// [`ApiError::retry_after`] when the refusal knows how long to wait, else
/// 1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// HTTP status (400, 401, 403, 404, 405, 409, 413, 422, 429, 500, 503).
    pub status: StatusCode,
    /// The stable code of a refused move, for clients to translate.
    pub code: Option<&'static str>,
    /// The table's `move_number` when a move came for another position
    /// (a 409 of a stale move or a lost race).
    pub move_number: Option<u32>,
    /// What was wrong.
    pub message: String,
    /// Seconds to wait before asking again (`Retry-After`), when known; a
    /// 429 or 503 without it says 1.
    pub retry_after: Option<u64>,
    /// The same wait in milliseconds, when known that finely
    /// ([`ApiError::wait_for`]); a WebSocket refusal says it as
    /// `retry_after_ms`.
    pub retry_after_ms: Option<u64>,
}

impl ApiError {
    /// An error with `status` and `message`; control and bidi control
    /// characters of outside input quoted in it are written as `\u{…}`
    /// ([`limits::escape_controls`]).
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code: None,
            move_number: None,
            message: limits::escape_controls(&message.into()),
            retry_after: None,
            retry_after_ms: None,
        }
    }

    /// The same refusal, telling the client to wait `secs` seconds
    /// (`Retry-After`, at least 1).
    pub fn wait(mut self, secs: u64) -> ApiError {
        self.retry_after = Some(secs.max(1));
        self
    }

    /// The same refusal, telling the client to wait `d`: `Retry-After` in
    /// whole seconds (rounded up, at least 1) and, over a WebSocket,
    /// `retry_after_ms` (rounded up, at least 1).
    pub fn wait_for(self, d: std::time::Duration) -> ApiError {
        let ms = (d.as_micros().div_ceil(1000) as u64).max(1);
        ApiError {
            retry_after_ms: Some(ms),
            ..self.wait(ms.div_ceil(1000))
        }
    }

    /// Milliseconds to wait before asking again, for a 429 or 503 (or any
    /// refusal that says how long): [`ApiError::retry_after_ms`], else
    /// `Retry-After`'s seconds, else 1 s.
    pub fn retry_ms(&self) -> Option<u64> {
        let busy = matches!(
            self.status,
            StatusCode::SERVICE_UNAVAILABLE | StatusCode::TOO_MANY_REQUESTS
        );
        match (self.retry_after_ms, self.retry_after) {
            (Some(ms), _) => Some(ms),
            (None, Some(s)) => Some(s * 1000),
            (None, None) => busy.then_some(1000),
        }
    }

    /// A 400.
    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// This refusal with a stable `code` for clients to translate (the
    /// account refusals: `account.name`, `account.name_taken`,
    /// `account.password`).
    pub fn coded(mut self, code: &'static str) -> ApiError {
        self.code = Some(code);
        self
    }

    /// The body: `{"error": …}`, with `"code"` when there is one.
    pub fn body(&self) -> Map<String, Value> {
        let mut o = Map::new();
        o.insert("error".into(), json!(self.message));
        if let Some(c) = self.code {
            o.insert("code".into(), json!(c));
        }
        if let Some(n) = self.move_number {
            o.insert("move_number".into(), json!(n));
        }
        o
    }

    /// The WebSocket message of this refusal:
    /// `{"type": "error", "status": 422, "error": …, "code": …}`; a 429 or
    /// 503 also has `retry_after_ms` ([`ApiError::retry_ms`]), as HTTP has
    /// `Retry-After`.
    pub fn ws_message(&self) -> String {
        let mut o = Map::new();
        o.insert("type".into(), json!("error"));
        o.insert("status".into(), json!(self.status.as_u16()));
        o.extend(self.body());
        if let Some(ms) = self.retry_ms() {
            o.insert("retry_after_ms".into(), json!(ms));
        }
        Value::Object(o).to_string()
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut r = (self.status, Json(Value::Object(self.body()))).into_response();
        let busy = matches!(
            self.status,
            StatusCode::SERVICE_UNAVAILABLE | StatusCode::TOO_MANY_REQUESTS
        );
        if busy || self.retry_after.is_some() {
            let secs = self.retry_after.unwrap_or(1);
            r.headers_mut()
                .insert(axum::http::header::RETRY_AFTER, secs.into());
        }
        r
    }
}

/// The HTTP status of each refusal of the table core: the one place where
/// a [`TableError`] gets a status.
pub fn status_of(e: &TableError) -> StatusCode {
    match e {
        TableError::Invalid(_) | TableError::Refused(PlayError::Malformed { .. }) => {
            StatusCode::BAD_REQUEST
        }
        TableError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
        TableError::Forbidden(_) => StatusCode::FORBIDDEN,
        TableError::NotFound(_) => StatusCode::NOT_FOUND,
        TableError::Conflict(_)
        | TableError::Stale { .. }
        | TableError::Refused(PlayError::NotNow { .. })
        | TableError::SeatTaken(_)
        | TableError::TableFull => StatusCode::CONFLICT,
        TableError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
        TableError::Refused(PlayError::Illegal { .. }) => StatusCode::UNPROCESSABLE_ENTITY,
        TableError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

impl From<TableError> for ApiError {
    fn from(e: TableError) -> ApiError {
        ApiError {
            code: e.code(),
            move_number: e.move_number(),
            ..ApiError::new(status_of(&e), e.message().into_owned())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_get_their_status_and_moves_their_code() {
        let cases = [
            (TableError::Invalid("x".into()), 400, None),
            (
                TableError::malformed(
                    "notation.missing",
                    "malformed move: field `card` is missing",
                ),
                400,
                Some("notation.missing"),
            ),
            (TableError::Unauthorized("x".into()), 401, None),
            (TableError::Forbidden("x".into()), 403, None),
            (TableError::NotFound("x".into()), 404, None),
            (TableError::Conflict("x".into()), 409, None),
            (
                TableError::illegal("C6.space_taken", "illegal move: space e5 is taken (C6)"),
                422,
                Some("C6.space_taken"),
            ),
            (TableError::Internal("x".into()), 500, None),
            (TableError::SeatTaken(1), 409, Some("seat.taken")),
            (TableError::TableFull, 409, Some("seat.table_full")),
        ];
        for (e, status, code) in cases {
            let a = ApiError::from(e.clone());
            assert_eq!(a.status.as_u16(), status, "{e:?}");
            assert_eq!(a.code, code);
            assert_eq!(a.message, e.message());
            let body = a.body();
            assert_eq!(body.get("code").and_then(Value::as_str), code);
            let ws: Value = serde_json::from_str(&a.ws_message()).expect("JSON");
            assert_eq!(ws["type"], "error");
            assert_eq!(ws["status"], status);
            assert_eq!(ws["error"], e.message().as_ref());
        }
    }

    /// Finding of the hostile-client review: 429 answers had no
    /// `Retry-After`.
    #[test]
    fn busy_answers_say_when_to_retry() {
        let retry = |e: ApiError| {
            e.into_response()
                .headers()
                .get(axum::http::header::RETRY_AFTER)
                .map(|v| v.to_str().expect("text").to_string())
        };
        let many = ApiError::new(StatusCode::TOO_MANY_REQUESTS, "slow down");
        assert_eq!(retry(many.clone()).as_deref(), Some("1"));
        assert_eq!(retry(many.wait(7)).as_deref(), Some("7"));
        let down = ApiError::from(TableError::Unavailable("db".into()));
        assert_eq!(retry(down).as_deref(), Some("1"));
        assert_eq!(retry(ApiError::bad("x")), None);
    }

    /// A WebSocket refusal for a rate limit says when to retry, in ms.
    #[test]
    fn websocket_refusals_say_when_to_retry() {
        let ms = |e: &ApiError| {
            let v: Value = serde_json::from_str(&e.ws_message()).expect("JSON");
            v.get("retry_after_ms")
                .map(|x| x.as_u64().expect("a number"))
        };
        let many = ApiError::new(StatusCode::TOO_MANY_REQUESTS, "slow down");
        assert_eq!(ms(&many), Some(1000));
        let exact = many
            .clone()
            .wait_for(std::time::Duration::from_micros(1_200_300));
        assert_eq!(ms(&exact), Some(1201));
        assert_eq!(exact.retry_after, Some(2), "Retry-After rounds up");
        let tiny = many.wait_for(std::time::Duration::ZERO);
        assert_eq!((ms(&tiny), tiny.retry_after), (Some(1), Some(1)));
        assert_eq!(
            ms(&ApiError::from(TableError::Unavailable("db".into()))),
            Some(1000)
        );
        assert_eq!(ms(&ApiError::bad("x")), None);
    }

    #[test]
    fn controls_in_messages_are_written_out() {
        let a = ApiError::from(TableError::Invalid("cla\u{202e}ssic".into()));
        assert_eq!(a.message, "cla\\u{202e}ssic");
    }
}
