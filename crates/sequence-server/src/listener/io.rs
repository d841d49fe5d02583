//! The socket of one connection as hyper sees it: idle timeouts on
//! reading and writing (tokio-io-timeout), the connection's [`Slot`] in
//! the count of open connections, and hyper's own refusals of malformed
//! requests rewritten into the documented `{"error": …}` answers.
//!
//! hyper answers a request it cannot parse by itself (400, 414, 431) with
//! an empty body and no content type, and offers no hook to change that
//! answer. It writes it only at the start of a message (after everything
//! before was flushed) and then closes the connection; every answer of
//! the server's own routes of status 400 or more has a content type. So a
//! message that starts with such a status line and has no content type
//! is hyper's, and is replaced whole.

use super::conns::Slot;
use super::{canned, MAX_HEAD};
use crate::error::ApiError;
use crate::limits::echo;
use axum::http::StatusCode;
use std::io;
use std::pin::Pin;
use std::task::{ready, Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio_io_timeout::TimeoutStream;

/// Request bytes kept to name what was malformed in a refused request.
const KEEP: usize = 16 * 1024;

/// The preface an HTTP/2 client sends first ("prior knowledge"): hyper's
/// HTTP/1.1 server closes on it without an answer, so the connection
/// answers 505 with the documented JSON body itself.
const H2_PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

/// One connection's socket (see the module documentation).
pub struct Conn {
    io: Pin<Box<TimeoutStream<TcpStream>>>,
    _slot: Slot,
    /// Still HTTP (not upgraded to a WebSocket).
    http: bool,
    /// The next write starts a message: everything before was flushed.
    at_start: bool,
    /// Request bytes read since the last answer began (at most [`KEEP`]).
    head: Vec<u8>,
    /// The answer that replaces one of hyper's, and how much of it is
    /// written.
    replacement: Option<(Vec<u8>, usize)>,
}

impl Conn {
    /// `tcp`, counted by `slot`, closed when a read or a write stays
    /// blocked for `idle`.
    pub fn new(tcp: TcpStream, slot: Slot, idle: Duration) -> Conn {
        let mut io = TimeoutStream::new(tcp);
        io.set_read_timeout(Some(idle));
        io.set_write_timeout(Some(idle));
        Conn {
            io: Box::pin(io),
            _slot: slot,
            http: true,
            at_start: true,
            head: Vec::new(),
            replacement: None,
        }
    }

    /// Writes what is left of the replacement answer.
    fn drive(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let Some((bytes, done)) = &mut self.replacement else {
            return Poll::Ready(Ok(()));
        };
        while *done < bytes.len() {
            let n = ready!(self.io.as_mut().poll_write(cx, &bytes[*done..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            *done += n;
        }
        Poll::Ready(Ok(()))
    }
}

impl AsyncRead for Conn {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        if self.replacement.is_some() {
            // the HTTP/2 preface was answered: hyper reads the end
            ready!(self.drive(cx))?;
            return Poll::Ready(Ok(()));
        }
        let before = buf.filled().len();
        ready!(self.io.as_mut().poll_read(cx, buf))?;
        if self.http && self.head.len() < KEEP {
            let new = &buf.filled()[before..];
            let room = KEEP - self.head.len();
            self.head.extend_from_slice(&new[..new.len().min(room)]);
            if self.at_start && self.head.starts_with(H2_PREFACE) {
                buf.set_filled(before);
                self.replacement = Some((h2_refusal(), 0));
                ready!(self.drive(cx))?;
            }
        }
        Poll::Ready(Ok(()))
    }
}

impl AsyncWrite for Conn {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        if self.replacement.is_some() {
            // hyper closes after its refusal: nothing more is sent
            ready!(self.drive(cx))?;
            return Poll::Ready(Ok(buf.len()));
        }
        if self.http && self.at_start {
            if let Some(answer) = replacement(buf, &self.head) {
                self.replacement = Some((answer, 0));
                if let Poll::Ready(Err(e)) = self.drive(cx) {
                    return Poll::Ready(Err(e));
                }
                return Poll::Ready(Ok(buf.len()));
            }
            if buf.starts_with(b"HTTP/1.1 101 ") {
                self.http = false;
                // a WebSocket from now on: its request's bytes are never
                // looked at again (freed, not kept for the socket's life)
                self.head = Vec::new();
            }
            self.head.clear();
        }
        let n = ready!(self.io.as_mut().poll_write(cx, buf))?;
        self.at_start = false;
        Poll::Ready(Ok(n))
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.drive(cx))?;
        ready!(self.io.as_mut().poll_flush(cx))?;
        self.at_start = true;
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.drive(cx))?;
        self.io.as_mut().poll_shutdown(cx)
    }
}

/// The answer to an HTTP/2 client that skipped the upgrade: 505 with the
/// documented JSON body.
fn h2_refusal() -> Vec<u8> {
    canned(&ApiError::new(
        StatusCode::HTTP_VERSION_NOT_SUPPORTED,
        "HTTP/2 is not spoken here: send HTTP/1.1 (a proxy in front may speak HTTP/2 to clients)",
    ))
}

/// The answer replacing `out` when it is one of hyper's own refusals (a
/// status of 400 or more without a content type), naming what was wrong
/// with the request `request` (its first bytes).
pub fn replacement(out: &[u8], request: &[u8]) -> Option<Vec<u8>> {
    if !(out.starts_with(b"HTTP/1.1 ") || out.starts_with(b"HTTP/1.0 ")) {
        return None;
    }
    let code: u16 = std::str::from_utf8(out.get(9..12)?).ok()?.parse().ok()?;
    let status = StatusCode::from_u16(code).ok()?;
    if code < 400 {
        return None;
    }
    let end = out
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or(out.len());
    let head = out[..end].to_ascii_lowercase();
    if head.windows(13).any(|w| w == b"content-type:") {
        return None;
    }
    let message = match status {
        StatusCode::BAD_REQUEST => malformed(request),
        StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE => format!(
            "request headers too large (at most {} KiB and 100 headers)",
            MAX_HEAD / 1024
        ),
        StatusCode::URI_TOO_LONG => "request URI too long".to_string(),
        s => format!(
            "request refused: {}",
            s.canonical_reason().unwrap_or("malformed")
        ),
    };
    Some(canned(&ApiError::new(status, message)))
}

/// What is wrong with a request hyper could not read, in words (`head` is
/// its first bytes).
pub fn malformed(head: &[u8]) -> String {
    let mut headers = [httparse::EMPTY_HEADER; 100];
    let mut req = httparse::Request::new(&mut headers);
    if let Err(e) = req.parse(head) {
        return format!("malformed request: {e} (not an HTTP/1.1 request line and headers)");
    }
    let values = |name: &str| -> Vec<String> {
        req.headers
            .iter()
            .filter(|h| h.name.eq_ignore_ascii_case(name))
            .map(|h| String::from_utf8_lossy(h.value).trim().to_string())
            .collect()
    };
    let te = values("transfer-encoding");
    if let Some(last) = te.last() {
        if req.version == Some(0) {
            return "malformed request: Transfer-Encoding is not allowed in HTTP/1.0".into();
        }
        let chunked = last
            .rsplit(',')
            .next()
            .is_some_and(|c| c.trim().eq_ignore_ascii_case("chunked"));
        if !chunked {
            return format!(
                "Transfer-Encoding `{}` is not accepted: send the body with Content-Length, \
                 or chunked as the last coding",
                echo(last)
            );
        }
    }
    let cl = values("content-length");
    let numbers: Vec<Option<u64>> = cl
        .iter()
        .flat_map(|v| v.split(','))
        .map(|v| v.trim().parse().ok())
        .collect();
    if numbers.iter().any(Option::is_none) || numbers.windows(2).any(|w| w[0] != w[1]) {
        return format!(
            "Content-Length must be one whole number, got `{}`",
            echo(&cl.join(", "))
        );
    }
    "malformed request: the request line or a header could not be read".into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn body_of(answer: &[u8]) -> (String, Value) {
        let text = String::from_utf8(answer.to_vec()).expect("text");
        let (head, body) = text.split_once("\r\n\r\n").expect("head and body");
        (head.to_string(), serde_json::from_str(body).expect("JSON"))
    }

    #[test]
    fn hypers_empty_refusals_are_replaced_with_json() {
        let hyper = b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\ndate: x\r\n\r\n";
        let req = b"GET /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n";
        let out = replacement(hyper, req).expect("replaced");
        let (head, v) = body_of(&out);
        assert!(head.starts_with("HTTP/1.1 400 Bad Request\r\n"), "{head}");
        assert!(head.contains("content-type: application/json"), "{head}");
        assert!(head.contains("connection: close"), "{head}");
        let e = v["error"].as_str().expect("error");
        assert!(
            e.contains("Transfer-Encoding `gzip` is not accepted"),
            "{e}"
        );
        let big = b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\n\r\n";
        let (_, v) = body_of(&replacement(big, b"GET / HTTP/1.1\r\n").expect("replaced"));
        assert!(v["error"]
            .as_str()
            .expect("error")
            .contains("headers too large"));
    }

    #[test]
    fn the_servers_own_answers_pass() {
        let ours = b"HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}";
        assert!(replacement(ours, b"").is_none());
        let ok = b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n";
        assert!(replacement(ok, b"").is_none());
        assert!(replacement(b"{\"HTTP/1.1 400\"}", b"").is_none());
    }

    #[test]
    fn malformed_requests_are_named() {
        let m = malformed(b"GET / HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n");
        assert!(m.contains("Content-Length must be one whole number"), "{m}");
        let m = malformed(b"GET / HTTP/1.1\r\nContent-Length: x\r\n\r\n");
        assert!(m.contains("got `x`"), "{m}");
        let m = malformed(b"GET / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n");
        assert!(m.contains("HTTP/1.0"), "{m}");
        let m = malformed(b"GET / HTTP/1.1\r\nBad Header: x\r\n\r\n");
        assert!(
            m.starts_with("malformed request: invalid header name"),
            "{m}"
        );
        let m = malformed(b"GET / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n");
        assert!(m.contains("the request line or a header"), "{m}");
    }
}
