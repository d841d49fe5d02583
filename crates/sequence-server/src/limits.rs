//! Rate limits (token buckets per client address and per WebSocket
//! connection) and the text caps for names and chat.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::Instant;
use unicode_segmentation::UnicodeSegmentation;

/// Request bodies and WebSocket frames: at most 16 KiB.
pub const MAX_BODY: usize = 16 * 1024;
/// Names (player and table): at most 32 characters.
pub const MAX_NAME: usize = 32;
/// Chat lines: at most 280 characters.
pub const MAX_CHAT: usize = 280;
/// Values from a request quoted in an error message: at most 40 characters.
pub use sequence_common::json::MAX_ECHO;

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

/// Whether `c` is a bidirectional control (embeddings, overrides,
/// isolates, marks): they could make a name read differently from what it
/// is (U+202E turns `txt.exe` around).
pub fn is_bidi_control(c: char) -> bool {
    matches!(
        c,
        '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}'
    )
}

/// Cleans a name or chat line: control and bidi control characters
/// removed, trimmed, cut to at most `max` characters without splitting a
/// grapheme cluster (an emoji sequence or a letter with its marks stays
/// whole or goes), then HTML-escaped (`& < > " '`).
pub fn clean_text(s: &str, max: usize) -> String {
    let kept: String = s
        .chars()
        .filter(|c| !c.is_control() && !is_bidi_control(*c))
        .collect();
    let mut cut = String::new();
    let mut count = 0;
    for g in kept.trim().graphemes(true) {
        count += g.chars().count();
        if count > max {
            break;
        }
        cut.push_str(g);
    }
    escape_html(cut.trim_end())
}

/// At most [`MAX_ECHO`] characters of a value from a request, for an error
/// message (`…` marks a cut), its control and bidi control characters
/// written as `\u{202e}` (see [`escape_controls`]).
pub fn echo(s: &str) -> String {
    escape_controls(&sequence_common::json::echo(s))
}

/// Whether `c` must not be shown raw in a message: a control character, a
/// bidi control ([`is_bidi_control`]) or a line/paragraph separator.
fn is_unsafe_to_show(c: char) -> bool {
    c.is_control() || is_bidi_control(c) || c == '\u{2028}' || c == '\u{2029}'
}

/// `s` with control characters, bidi controls and line separators written
/// as `\u{…}` (lowercase hex), so that a value quoted back in an error
/// message cannot turn the message around (U+202E) or break its line.
pub fn escape_controls(s: &str) -> String {
    if !s.chars().any(is_unsafe_to_show) {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if is_unsafe_to_show(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
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

    /// Fresh-tester report: names kept U+202E (spoofing) and a cut could
    /// split a family emoji.
    #[test]
    fn bidi_controls_are_removed_and_cuts_keep_graphemes_whole() {
        assert_eq!(clean_text("Ann\u{202E}txt.exe", 32), "Anntxt.exe");
        for c in [
            '\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}', '\u{202E}', '\u{2066}', '\u{2067}',
            '\u{2068}', '\u{2069}', '\u{200E}', '\u{200F}', '\u{061C}',
        ] {
            assert_eq!(clean_text(&format!("a{c}b"), 32), "ab", "{:X}", c as u32);
        }
        // 👨‍👩‍👧‍👦 is 7 chars; 30 letters + it would be 37: the emoji goes whole
        let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466}";
        let name = format!("{}{family}", "a".repeat(30));
        assert_eq!(clean_text(&name, 32), "a".repeat(30));
        let name = format!("{}{family}x", "a".repeat(25));
        assert_eq!(clean_text(&name, 32), format!("{}{family}", "a".repeat(25)));
        // a letter with a combining mark is not split from it
        assert_eq!(
            clean_text(&format!("{}e\u{301}", "a".repeat(31)), 32),
            "a".repeat(31)
        );
        // the zero-width joiner inside emoji is kept
        assert_eq!(clean_text(family, 32), family);
    }

    #[test]
    fn echoes_are_capped() {
        assert_eq!(echo("abc"), "abc");
        assert_eq!(echo(&"x".repeat(40)), "x".repeat(40));
        assert_eq!(echo(&"x".repeat(5000)), format!("{}…", "x".repeat(40)));
    }

    /// Fresh-tester report: `"game":"cla\u202essic"` came back with the
    /// U+202E raw in the error message.
    #[test]
    fn echoes_escape_controls_and_bidi_controls() {
        assert_eq!(echo("cla\u{202e}ssic"), "cla\\u{202e}ssic");
        assert_eq!(
            echo("a\u{7}b\nc\u{2066}d\u{2028}"),
            "a\\u{7}b\\u{a}c\\u{2066}d\\u{2028}"
        );
        assert_eq!(escape_controls("plain ✓ 👨‍👩‍👧"), "plain ✓ 👨‍👩‍👧");
    }
}
