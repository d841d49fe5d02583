//! Rate limits (token buckets per client address and per WebSocket
//! connection) and the text caps for names and chat.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::Instant;

/// Request bodies and WebSocket frames: at most 16 KiB.
pub const MAX_BODY: usize = 16 * 1024;
/// Names (player and table): at most 32 characters.
pub const MAX_NAME: usize = 32;
/// Chat lines: at most 280 characters.
pub const MAX_CHAT: usize = 280;

/// A token bucket: `rate` tokens per second, at most `burst` stored.
#[derive(Debug, Clone)]
pub struct Bucket {
    tokens: f64,
    last: Instant,
}

impl Bucket {
    /// A full bucket.
    pub fn new(burst: f64) -> Bucket {
        Bucket {
            tokens: burst,
            last: Instant::now(),
        }
    }

    /// Takes one token if there is one.
    pub fn take(&mut self, rate: f64, burst: f64) -> bool {
        let now = Instant::now();
        let dt = now.duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + dt * rate).min(burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// Per-address limiter for HTTP requests (`rate` per second, `burst`);
/// `rate == 0` turns it off.
#[derive(Debug)]
pub struct AddressLimiter {
    rate: f64,
    burst: f64,
    buckets: Mutex<HashMap<IpAddr, Bucket>>,
}

impl AddressLimiter {
    /// A limiter allowing `rate` requests per second with bursts of `burst`.
    pub fn new(rate: u32, burst: u32) -> AddressLimiter {
        AddressLimiter {
            rate: rate as f64,
            burst: burst.max(1) as f64,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Whether a request from `addr` may go on now.
    pub fn allow(&self, addr: IpAddr) -> bool {
        if self.rate <= 0.0 {
            return true;
        }
        let Ok(mut map) = self.buckets.lock() else {
            return true;
        };
        if map.len() > 100_000 {
            let burst = self.burst;
            let rate = self.rate;
            map.retain(|_, b| b.clone().take(rate, burst) && b.tokens + 1.0 < burst);
        }
        map.entry(addr)
            .or_insert_with(|| Bucket::new(self.burst))
            .take(self.rate, self.burst)
    }
}

/// Cleans a name or chat line: control characters removed, trimmed, cut
/// to `max` characters, then HTML-escaped (`& < > " '`).
pub fn clean_text(s: &str, max: usize) -> String {
    let cut: String = s
        .chars()
        .filter(|c| !c.is_control())
        .collect::<String>()
        .trim()
        .chars()
        .take(max)
        .collect();
    escape_html(&cut)
}

/// HTML-escapes `& < > " '`.
pub fn escape_html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bucket_refuses_after_burst() {
        let l = AddressLimiter::new(1, 3);
        let a: IpAddr = "127.0.0.9".parse().unwrap();
        assert!(l.allow(a) && l.allow(a) && l.allow(a));
        assert!(!l.allow(a));
        let b: IpAddr = "127.0.0.10".parse().unwrap();
        assert!(l.allow(b));
        let off = AddressLimiter::new(0, 0);
        assert!((0..1000).all(|_| off.allow(a)));
    }

    #[test]
    fn text_is_capped_and_escaped() {
        assert_eq!(clean_text("  <b>x</b>\u{7}  ", 32), "&lt;b&gt;x&lt;/b&gt;");
        assert_eq!(clean_text(&"é".repeat(50), 32).chars().count(), 32);
        assert_eq!(clean_text("a'\"&", 10), "a&#39;&quot;&amp;");
    }
}
