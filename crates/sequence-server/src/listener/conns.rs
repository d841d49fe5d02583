//! Open connections counted per client address and in all: a connection
//! over a cap is answered at once (429 for the address's cap, 503 for the
//! server's, each with `Retry-After` and a JSON `{"error": …}`) and
//! closed, before anything of it is read.

use super::canned;
use crate::error::ApiError;
use crate::limits::client_key;
use axum::http::StatusCode;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Seconds a refused client is told to wait (`Retry-After`).
pub const RETRY_AFTER: u64 = 5;
/// Refused connections being answered at once; more are closed without
/// an answer (a flood of them must not cost more than the refusal).
const MAX_REFUSING: usize = 256;
/// How long a refused connection is kept to deliver the answer (and read
/// what the client still sends, so that the close does not reset the
/// answer away).
const REFUSAL_LINGER: Duration = Duration::from_secs(1);

/// The open connections of a server, in all and per client address
/// ([`client_key`]).
#[derive(Debug)]
pub struct Connections {
    max_total: usize,
    max_per_address: usize,
    open: Mutex<Open>,
    refusing: AtomicUsize,
    last_warning: Mutex<Option<Instant>>,
}

#[derive(Debug, Default)]
struct Open {
    total: usize,
    per_address: HashMap<IpAddr, usize>,
}

/// Why a connection was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// Its address holds its cap of open connections (429).
    Address(usize),
    /// The server holds its cap of open connections (503).
    Full(usize),
}

impl Refusal {
    /// The refusal as an error answer.
    pub fn error(self) -> ApiError {
        match self {
            Refusal::Address(n) => ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!("too many open connections from this address (at most {n})"),
            ),
            Refusal::Full(n) => ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!("the server holds as many connections as it takes ({n}); try again soon"),
            ),
        }
        .wait(RETRY_AFTER)
    }
}

/// One admitted connection: counted until dropped (an upgraded WebSocket
/// keeps it).
#[derive(Debug)]
pub struct Slot {
    conns: Arc<Connections>,
    ip: IpAddr,
}

impl Drop for Slot {
    fn drop(&mut self) {
        if let Ok(mut open) = self.conns.open.lock() {
            open.total = open.total.saturating_sub(1);
            if let Some(n) = open.per_address.get_mut(&self.ip) {
                *n -= 1;
                if *n == 0 {
                    open.per_address.remove(&self.ip);
                }
            }
        }
    }
}

impl Connections {
    /// At most `max_total` open connections in all and `max_per_address`
    /// from one address (0: no cap).
    pub fn new(max_total: usize, max_per_address: usize) -> Arc<Connections> {
        Arc::new(Connections {
            max_total: if max_total == 0 {
                usize::MAX
            } else {
                max_total
            },
            max_per_address: if max_per_address == 0 {
                usize::MAX
            } else {
                max_per_address
            },
            open: Mutex::default(),
            refusing: AtomicUsize::new(0),
            last_warning: Mutex::new(None),
        })
    }

    /// Counts a new connection from `ip`, or says why it is refused.
    ///
    /// # Errors
    /// The address or the server holds its cap.
    pub fn admit(self: &Arc<Self>, ip: IpAddr) -> Result<Slot, Refusal> {
        let ip = client_key(ip);
        let mut open = self.open.lock().map_err(|_| Refusal::Full(0))?;
        if open.total >= self.max_total {
            return Err(Refusal::Full(self.max_total));
        }
        let n = open.per_address.entry(ip).or_insert(0);
        if *n >= self.max_per_address {
            return Err(Refusal::Address(self.max_per_address));
        }
        *n += 1;
        open.total += 1;
        Ok(Slot {
            conns: self.clone(),
            ip,
        })
    }

    /// Open connections now: in all, and from `ip`.
    pub fn open(&self, ip: IpAddr) -> (usize, usize) {
        self.open.lock().map_or((0, 0), |o| {
            (
                o.total,
                o.per_address.get(&client_key(ip)).copied().unwrap_or(0),
            )
        })
    }

    /// Answers a refused connection in the background (or closes it at
    /// once when many are being answered already).
    pub fn refuse(self: &Arc<Self>, mut tcp: TcpStream, why: Refusal) {
        self.warn(why);
        let status = match why {
            Refusal::Address(_) => "429",
            Refusal::Full(_) => "503",
        };
        metrics::counter!(crate::telemetry::CONNECTIONS_REFUSED, "status" => status).increment(1);
        if self.refusing.fetch_add(1, Ordering::Relaxed) >= MAX_REFUSING {
            self.refusing.fetch_sub(1, Ordering::Relaxed);
            return;
        }
        let me = self.clone();
        tokio::spawn(async move {
            let answer = canned(&why.error());
            let _ = tokio::time::timeout(REFUSAL_LINGER, async {
                tcp.write_all(&answer).await?;
                tcp.shutdown().await?;
                let mut buf = [0u8; 4096];
                let mut read = 0;
                while read < 64 * 1024 {
                    match tcp.read(&mut buf).await? {
                        0 => break,
                        n => read += n,
                    }
                }
                Ok::<_, std::io::Error>(())
            })
            .await;
            me.refusing.fetch_sub(1, Ordering::Relaxed);
        });
    }

    /// A warning in the log, at most one every 10 seconds.
    fn warn(&self, why: Refusal) {
        let Ok(mut last) = self.last_warning.lock() else {
            return;
        };
        if last.is_none_or(|t| t.elapsed() >= Duration::from_secs(10)) {
            *last = Some(Instant::now());
            tracing::warn!("refusing connections: {}", why.error().message);
        } else {
            tracing::debug!("refused a connection: {}", why.error().message);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_per_address_and_in_all() {
        let c = Connections::new(3, 2);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        let s1 = c.admit(a).expect("first");
        let _s2 = c.admit(a).expect("second");
        assert_eq!(c.admit(a).unwrap_err(), Refusal::Address(2));
        let _s3 = c.admit(b).expect("another address");
        assert_eq!(c.admit(b).unwrap_err(), Refusal::Full(3));
        assert_eq!(c.open(a), (3, 2));
        drop(s1);
        assert_eq!(c.open(a), (2, 1));
        let _s4 = c.admit(a).expect("room again");
        let e = Refusal::Address(2).error();
        assert_eq!(e.status, StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(e.retry_after, Some(RETRY_AFTER));
        assert_eq!(Refusal::Full(3).error().status.as_u16(), 503);
        let unlimited = Connections::new(0, 0);
        let slots: Vec<Slot> = (0..5000)
            .map(|_| unlimited.admit(a).expect("no cap"))
            .collect();
        assert_eq!(unlimited.open(a), (5000, 5000));
        drop(slots);
        assert_eq!(unlimited.open(a), (0, 0));
    }
}
