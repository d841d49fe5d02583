//! The listener: accepts connections and serves them with hyper
//! (HTTP/1.1, WebSocket upgrades), holding slow and hostile clients to
//! the [`Limits`] (docs/deploy.md, "Limits against slow and hostile
//! clients"):
//!
//! * open connections are counted per client address and in all
//!   ([`conns`]); one over a cap is answered at once, 429 or 503 with
//!   `Retry-After`, and closed;
//! * a request's line and headers must arrive within the header timeout
//!   (hyper's `header_read_timeout`, which also ends idle keep-alive
//!   connections), its body within the body timeout ([`body`], 408);
//! * a connection whose reads or writes stay blocked for the idle timeout
//!   is closed ([`io`]): a client that reads nothing of what it is sent
//!   (a WebSocket is pinged, so a live one always answers);
//! * hyper's own refusals of malformed requests get the documented JSON
//!   body ([`io`]); a declared body over 16 KiB is answered 413 before
//!   it is read (tower-http's `RequestBodyLimit`, in [`crate::routes`]).

pub mod body;
pub mod conns;
pub mod io;

use crate::config::Limits;
use crate::error::ApiError;
use axum::extract::ConnectInfo;
use axum::http::Request;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tower::ServiceExt;

/// The most a request's line and headers may take; more is answered 431
/// (the read buffer of a connection holds at most twice this).
pub const MAX_HEAD: usize = 64 * 1024;
/// File descriptors kept free of connections (the database, files, the
/// analysis workers).
const FD_RESERVE: u64 = 128;

/// Serves `router` on `listener` under `limits` until the task is
/// dropped. Each connection runs on a task of its own.
pub async fn serve(listener: TcpListener, router: Router, limits: Limits) {
    let total = cap_total(limits.max_connections);
    let conns = conns::Connections::new(total, limits.max_per_address);
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_header_size(MAX_HEAD)
        .max_buf_size(2 * MAX_HEAD)
        .writev(false);
    let http = Arc::new(http);
    loop {
        let (tcp, remote) = match listener.accept().await {
            Ok(c) => c,
            Err(e) => {
                // out of file descriptors or a connection reset before
                // it was taken: wait a little rather than spin
                tracing::warn!("cannot accept a connection: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let slot = match conns.admit(remote.ip()) {
            Ok(slot) => slot,
            Err(why) => {
                conns.refuse(tcp, why);
                continue;
            }
        };
        let _ = tcp.set_nodelay(true);
        let io = TokioIo::new(io::Conn::new(tcp, slot, limits.idle_timeout));
        let (router, http, body_timeout) = (router.clone(), http.clone(), limits.body_timeout);
        tokio::spawn(async move {
            let svc = hyper::service::service_fn(move |req: Request<Incoming>| {
                let (mut parts, incoming) = req.into_parts();
                parts.extensions.insert(ConnectInfo(remote));
                let b = axum::body::Body::new(body::DeadlineBody::new(incoming, body_timeout));
                router.clone().oneshot(Request::from_parts(parts, b))
            });
            if let Err(e) = http.serve_connection(io, svc).with_upgrades().await {
                tracing::debug!(%remote, "connection ended: {e}");
            }
        });
    }
}

/// The cap of open connections in all: `max` (0: none) lowered to fit
/// under the process's file descriptor limit.
fn cap_total(max: usize) -> usize {
    let fds = fd_limit().saturating_sub(FD_RESERVE).max(16) as usize;
    let cap = if max == 0 { fds } else { max.min(fds) };
    if cap < max {
        tracing::warn!(
            "at most {cap} open connections (not {max}): the file descriptor limit is {}",
            fd_limit()
        );
    }
    cap
}

/// The process's file descriptor limit (its soft limit).
pub fn fd_limit() -> u64 {
    let mut r = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit with a valid pointer to a local struct.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut r) } != 0 {
        return 1024;
    }
    #[allow(clippy::unnecessary_cast)]
    let n = r.rlim_cur as u64;
    n
}

/// Raises the file descriptor limit to its hard limit (a server holds a
/// socket per connection); returns the new limit.
pub fn raise_fd_limit() -> u64 {
    let mut r = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit/setrlimit with a valid pointer to a local struct.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut r) == 0 {
            r.rlim_cur = r.rlim_max;
            libc::setrlimit(libc::RLIMIT_NOFILE, &r);
        }
    }
    fd_limit()
}

/// A whole HTTP/1.1 answer of `e` (for a connection refused before
/// hyper serves it, or one of hyper's own refusals): its JSON body, a
/// content type, `Retry-After` when it has one, and `Connection: close`.
pub fn canned(e: &ApiError) -> Vec<u8> {
    let body = serde_json::Value::Object(e.body()).to_string();
    let mut head = format!(
        "HTTP/1.1 {} {}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
         connection: close\r\ncache-control: no-store\r\nx-content-type-options: nosniff\r\n\
         content-security-policy: {}\r\n",
        e.status.as_u16(),
        e.status.canonical_reason().unwrap_or(""),
        body.len(),
        crate::CONTENT_SECURITY_POLICY,
    );
    if let Some(s) = e.retry_after {
        head.push_str(&format!("retry-after: {s}\r\n"));
    }
    head.push_str("\r\n");
    let mut out = head.into_bytes();
    out.extend_from_slice(body.as_bytes());
    out
}
