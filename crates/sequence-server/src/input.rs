//! Reading requests: JSON bodies, path parameters, query strings and the
//! seat token, with every failure turned into an [`ApiError`] whose
//! message names the field and what it must be, in words ("players must
//! be a number from 2 to 12, got the string \"2\"") rather than the
//! parser's Rust vocabulary.
//!
//! Also the last line of defence: [`json_errors`] turns any error answer
//! that is not JSON yet (a rejection of axum's own) into `{"error": …}`.

use crate::auth::SeatToken;
use crate::error::ApiError;
use crate::limits::{self, echo};
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, PathRejection};
use axum::extract::{FromRequestParts, Path};
use axum::http::request::Parts;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use sequence_common::json::{describe, kind_of, plain_expected};
use serde::de::DeserializeOwned;
use std::convert::Infallible;

pub use sequence_common::json::Hints;

/// Reads a JSON object body into `T`, mapping every failure to a 400 (413
/// when too large) naming what was wrong; `hints` say what each field must
/// be.
///
/// # Errors
/// The body is too large, not JSON, not an object, or a field is missing,
/// unknown or of the wrong kind.
pub fn body<T: DeserializeOwned>(
    body: Result<Bytes, BytesRejection>,
    hints: Hints,
) -> Result<T, ApiError> {
    let bytes = body.map_err(|r| {
        let status = r.status();
        if status == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(
                status,
                format!("request body over {} bytes", limits::MAX_BODY),
            )
        } else if let Some(t) = crate::listener::body::is_body_timeout(&r) {
            ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                format!(
                    "the request body did not arrive within {} s of its headers",
                    t.as_secs_f64()
                ),
            )
        } else {
            ApiError::new(status, "the request body could not be read")
        }
    })?;
    object(&bytes, "the body", hints).map_err(|m| ApiError::new(StatusCode::BAD_REQUEST, m))
}

/// Reads `bytes` as a JSON object into `T` (`what` is "the body" or "a
/// message"); the error message names what was wrong.
///
/// # Errors
/// The message, as for [`body`].
pub fn object<T: DeserializeOwned>(bytes: &[u8], what: &str, hints: Hints) -> Result<T, String> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(format!("{what} is empty: it must be a JSON object"));
    }
    let text = std::str::from_utf8(bytes).map_err(|_| format!("{what} is not UTF-8 text"))?;
    // strict: a key written twice is refused (which value counts is
    // ambiguous)
    let v = sequence_common::json::parse_strict(text).map_err(|m| format!("{what} is {m}"))?;
    if !v.is_object() {
        return Err(format!(
            "{what} must be a JSON object {{…}}, not {}",
            kind_of(&v)
        ));
    }
    serde_path_to_error::deserialize(v).map_err(|e| describe(&e, hints))
}

/// A path parameter extractor whose failures are [`ApiError`]s (400 with
/// the parameter named) instead of axum's text answers.
#[derive(Debug)]
pub struct ApiPath<T>(pub T);

impl<T, S> FromRequestParts<S> for ApiPath<T>
where
    T: DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match Path::<T>::from_request_parts(parts, state).await {
            Ok(Path(v)) => Ok(ApiPath(v)),
            Err(r) => Err(path_error(&r)),
        }
    }
}

fn path_error(r: &PathRejection) -> ApiError {
    use axum::extract::path::ErrorKind;
    let PathRejection::FailedToDeserializePathParams(e) = r else {
        return ApiError::new(r.status(), "the URL path could not be read");
    };
    let msg = match e.kind() {
        ErrorKind::InvalidUtf8InPathParam { key } => {
            format!("the {key} in the URL is not valid UTF-8")
        }
        ErrorKind::ParseErrorAtKey {
            key,
            value,
            expected_type,
        } => format!(
            "the {key} in the URL must be {}, got `{}`",
            plain_expected(&format!(", expected {expected_type}")),
            echo(value)
        ),
        ErrorKind::ParseErrorAtIndex {
            value,
            expected_type,
            ..
        }
        | ErrorKind::ParseError {
            value,
            expected_type,
        } => format!(
            "a part of the URL must be {}, got `{}`",
            plain_expected(&format!(", expected {expected_type}")),
            echo(value)
        ),
        _ => "the URL path could not be read".to_string(),
    };
    ApiError::new(e.status(), msg)
}

/// The seat token of a request: its `Authorization: Bearer` header, read
/// but not yet matched to a seat (the one extractor of seat tokens; see
/// [`crate::tables::Core::seat_of_token`]). Never refuses by itself: a
/// missing or bad header is refused (401) only where a seat is needed, and
/// after the table is found.
impl<S: Send + Sync> FromRequestParts<S> for SeatToken {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Infallible> {
        Ok(match parts.headers.get(header::AUTHORIZATION) {
            None => SeatToken::Missing,
            Some(v) => match v.to_str() {
                Ok(text) => SeatToken::from_header(text),
                Err(_) => SeatToken::unreadable_header(),
            },
        })
    }
}

/// The seat number of a URL (`…/seats/{seat}/…`) at a table of `players`
/// seats.
///
/// # Errors
/// 400 when it is not a number, 404 when there is no such seat.
pub fn seat_param(raw: &str, players: usize) -> Result<u8, ApiError> {
    let last = players.saturating_sub(1);
    if raw.is_empty() || !raw.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("seat must be a number 0–{last}, got `{}`", echo(raw)),
        ));
    }
    match raw.parse::<u8>() {
        Ok(s) if (s as usize) < players => Ok(s),
        _ => Err(ApiError::new(
            StatusCode::NOT_FOUND,
            format!(
                "seat {} does not exist (this table has seats 0–{last})",
                echo(raw)
            ),
        )),
    }
}

/// Turns an error answer that is not JSON (one of axum's own rejections:
/// a missing WebSocket upgrade, an unusual method …) into `{"error": …}`
/// with the same status.
pub async fn json_errors(resp: Response) -> Response {
    let status = resp.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return resp;
    }
    let is_json = resp
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if is_json {
        return resp;
    }
    let (parts, body) = resp.into_parts();
    if status == StatusCode::PAYLOAD_TOO_LARGE {
        // tower-http's refusal of a declared length over the cap
        let too_big = format!("request body over {} bytes", limits::MAX_BODY);
        return ApiError::new(status, too_big).into_response();
    }
    let text = axum::body::to_bytes(body, limits::MAX_BODY)
        .await
        .ok()
        .map(|b| String::from_utf8_lossy(&b).trim().to_string())
        .filter(|t| !t.is_empty())
        .unwrap_or_else(|| {
            status
                .canonical_reason()
                .unwrap_or("request refused")
                .to_string()
        });
    let mut out = ApiError::new(status, text).into_response();
    for (k, v) in &parts.headers {
        if k != header::CONTENT_TYPE && k != header::CONTENT_LENGTH {
            out.headers_mut().insert(k.clone(), v.clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Req {
        players: u8,
        #[serde(default)]
        n: Option<u32>,
        #[serde(default)]
        bots: Vec<Bot>,
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Bot {
        seat: u8,
    }

    const HINTS: Hints = &[
        ("players", "a number from 2 to 12"),
        ("bots[].seat", "a seat number"),
    ];

    fn err(body: &str) -> String {
        object::<Req>(body.as_bytes(), "the body", HINTS).unwrap_err()
    }

    #[test]
    fn messages_name_the_field_in_words() {
        assert_eq!(
            err(r#"{"players":"2"}"#),
            "players must be a number from 2 to 12, got the string \"2\""
        );
        assert_eq!(
            err(r#"{"players":2,"n":-1}"#),
            "n must be a whole number ≥ 0, got -1"
        );
        assert_eq!(err("[]"), "the body must be a JSON object {…}, not a list");
        assert_eq!(err(""), "the body is empty: it must be a JSON object");
        assert_eq!(
            err(r#"{"players":2,"bots":[{"seat":"x"}]}"#),
            "bots[0].seat must be a seat number, got the string \"x\""
        );
        assert_eq!(
            err(r#"{"n":1}"#),
            "field `players` is missing: it must be a number from 2 to 12"
        );
        assert!(err(r#"{"players":2,"zz":1}"#).starts_with("unknown field `zz`"));
        assert!(err("{").starts_with("the body is not valid JSON"));
        for m in [
            err(r#"{"players":"2"}"#),
            err(r#"{"players":2,"n":-1}"#),
            err("[]"),
        ] {
            for rust in ["u8", "u32", "struct", "invalid type"] {
                assert!(!m.contains(rust), "{m}");
            }
        }
        let long = format!(r#"{{"players":"{}"}}"#, "x".repeat(5000));
        assert!(err(&long).chars().count() < 120);
    }

    #[test]
    fn seat_params_are_checked() {
        assert_eq!(seat_param("3", 4).map_err(|e| e.status), Ok(3));
        let e = seat_param("abc", 12).unwrap_err();
        assert_eq!(e.status, StatusCode::BAD_REQUEST);
        assert_eq!(e.message, "seat must be a number 0–11, got `abc`");
        let e = seat_param("999", 4).unwrap_err();
        assert_eq!(e.status, StatusCode::NOT_FOUND);
        assert!(e.message.contains("0–3"), "{}", e.message);
        assert_eq!(
            seat_param("4", 4).unwrap_err().status,
            StatusCode::NOT_FOUND
        );
    }
}
