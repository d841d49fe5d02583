//! Rate limits (token buckets per client address and per WebSocket
//! connection; the routes' middleware is `routes::rate_limit`) and the
//! text caps for names and chat.

use axum::http::Method;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};
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

    /// Adds what `rate` earned since the last call, up to `burst`.
    fn refill(&mut self, rate: f64, burst: f64) {
        let now = Instant::now();
        let dt = now.duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + dt * rate).min(burst);
    }

    /// Takes one token if there is one.
    pub fn take(&mut self, rate: f64, burst: f64) -> bool {
        self.refill(rate, burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    /// How long until a token is there at `rate` (after a refill).
    pub fn wait(&self, rate: f64) -> Duration {
        Duration::from_secs_f64(((1.0 - self.tokens).max(0.0) / rate.max(1e-9)).min(3600.0))
    }
}

/// Chat lines one seat of a table may post per second, and the burst:
/// one allowance for all the seat's WebSockets, so reconnecting does not
/// refill it (docs/api.md).
pub const CHAT_RATE: f64 = 1.0;
/// See [`CHAT_RATE`].
pub const CHAT_BURST: f64 = 8.0;

/// The chat allowance of each seat of a table ([`CHAT_RATE`],
/// [`CHAT_BURST`]), kept in memory by the instance holding the table.
#[derive(Debug, Default)]
pub struct ChatLimit {
    seats: Vec<Bucket>,
}

impl ChatLimit {
    /// Takes one line of `seat`'s allowance.
    ///
    /// # Errors
    /// How long until the seat may post again, when it has none left.
    pub fn take(&mut self, seat: u8) -> Result<(), Duration> {
        let i = seat as usize;
        if self.seats.len() <= i {
            self.seats.resize_with(i + 1, || Bucket::new(CHAT_BURST));
        }
        let b = &mut self.seats[i];
        if b.take(CHAT_RATE, CHAT_BURST) {
            Ok(())
        } else {
            Err(b.wait(CHAT_RATE))
        }
    }
}

/// A rate: `per_sec` tokens a second, bursts of `burst`; `per_sec == 0`
/// is no limit.
#[derive(Debug, Clone, Copy)]
struct Rate {
    per_sec: f64,
    burst: f64,
}

impl Rate {
    fn new(per_sec: u32, burst: u32) -> Rate {
        Rate {
            per_sec: per_sec as f64,
            burst: burst.max(1) as f64,
        }
    }

    fn off(self) -> bool {
        self.per_sec <= 0.0
    }

    fn times(self, k: f64) -> Rate {
        Rate {
            per_sec: self.per_sec * k,
            burst: self.burst * k,
        }
    }
}

/// What a request asks of its address's allowance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ask {
    /// An API request without a seat this address has seen act.
    Api,
    /// A WebSocket upgrade: counted apart from API requests.
    Upgrade,
    /// An API request carrying a seat token ([`AddressLimiter::seat_key`]);
    /// once the seat has acted from this address it has an allowance of
    /// its own, before that it counts as [`Ask::Api`].
    Seat(u64),
}

/// All requests of one address together, seats included, may be at most
/// this many times the per-address API rate.
pub const ADDRESS_CEILING: f64 = 10.0;
/// Seats with an allowance of their own per address (more fall back to
/// the address's API allowance).
pub const SEATS_PER_ADDRESS: usize = 256;
/// Addresses remembered before idle ones are forgotten.
const MAX_CLIENTS: usize = 100_000;

/// The buckets of one client address.
#[derive(Debug)]
struct Client {
    /// API requests of no established seat.
    api: Bucket,
    /// WebSocket upgrades.
    upgrades: Bucket,
    /// Every API request of the address (the ceiling).
    all: Bucket,
    /// Seats that acted from this address, each with its own bucket.
    seats: HashMap<u64, Bucket>,
}

impl Client {
    fn new(api: Rate, ws: Rate) -> Client {
        Client {
            api: Bucket::new(api.burst),
            upgrades: Bucket::new(ws.burst),
            all: Bucket::new(api.times(ADDRESS_CEILING).burst),
            seats: HashMap::new(),
        }
    }
}

/// Per-address limiter of HTTP requests, telling a flood from many
/// people behind one address (a school's or an office's NAT):
///
/// * API requests: `rate` per second with bursts of `burst` per address;
/// * a seat that acted from the address (a request with its token was
///   answered 2xx on a route that checks the token) gets an allowance of
///   its own of the same size, up to [`SEATS_PER_ADDRESS`] seats; all API
///   requests of the address together stay under [`ADDRESS_CEILING`]
///   times the API allowance;
/// * WebSocket upgrades: `ws_rate`/`ws_burst` per address, apart from the
///   API requests (the messages of each WebSocket have their own limit).
///
/// A rate of 0 turns that limit off. Addresses are [`client_key`]s.
#[derive(Debug)]
pub struct AddressLimiter {
    api: Rate,
    ws: Rate,
    keys: std::collections::hash_map::RandomState,
    clients: Mutex<HashMap<IpAddr, Client>>,
}

impl AddressLimiter {
    /// A limiter allowing `rate` API requests per second with bursts of
    /// `burst`, and WebSocket upgrades at the default allowance
    /// ([`crate::config::Limits`]).
    pub fn new(rate: u32, burst: u32) -> AddressLimiter {
        let d = crate::config::Limits::default();
        AddressLimiter::with_upgrades(rate, burst, d.ws_rate, d.ws_burst)
    }

    /// A limiter of `rate`/`burst` API requests and `ws_rate`/`ws_burst`
    /// WebSocket upgrades per second and address.
    pub fn with_upgrades(rate: u32, burst: u32, ws_rate: u32, ws_burst: u32) -> AddressLimiter {
        AddressLimiter {
            api: Rate::new(rate, burst),
            ws: Rate::new(ws_rate, ws_burst),
            keys: Default::default(),
            clients: Mutex::new(HashMap::new()),
        }
    }

    /// The key of a seat token in this limiter (a keyed hash: the token
    /// itself is not kept).
    pub fn seat_key(&self, token: &str) -> u64 {
        use std::hash::BuildHasher;
        self.keys.hash_one(token)
    }

    /// Whether a request from `addr` asking `ask` may go on now; `Err`
    /// holds how long to wait.
    pub fn check(&self, addr: IpAddr, ask: Ask) -> Result<(), Duration> {
        let off = match ask {
            Ask::Upgrade => self.ws.off(),
            _ => self.api.off(),
        };
        if off {
            return Ok(());
        }
        let addr = client_key(addr);
        let Ok(mut map) = self.clients.lock() else {
            return Ok(());
        };
        if map.len() >= MAX_CLIENTS && !map.contains_key(&addr) {
            self.forget_idle(&mut map);
        }
        let (api, ws) = (self.api, self.ws);
        let c = map.entry(addr).or_insert_with(|| Client::new(api, ws));
        match ask {
            Ask::Upgrade => take(&mut [(&mut c.upgrades, ws)]),
            Ask::Seat(k) if c.seats.contains_key(&k) => {
                let all = api.times(ADDRESS_CEILING);
                let seat = c.seats.get_mut(&k).expect("checked");
                take(&mut [(seat, api), (&mut c.all, all)])
            }
            Ask::Api | Ask::Seat(_) => {
                let all = api.times(ADDRESS_CEILING);
                take(&mut [(&mut c.api, api), (&mut c.all, all)])
            }
        }
    }

    /// Whether a request from `addr` may go on now (an [`Ask::Api`]).
    pub fn allow(&self, addr: IpAddr) -> bool {
        self.check(addr, Ask::Api).is_ok()
    }

    /// Seat `key` acted from `addr`: from now on its requests there have
    /// an allowance of their own (while the address has fewer than
    /// [`SEATS_PER_ADDRESS`]; an idle seat makes room for a new one).
    pub fn seat_acted(&self, addr: IpAddr, key: u64) {
        if self.api.off() {
            return;
        }
        let Ok(mut map) = self.clients.lock() else {
            return;
        };
        let api = self.api;
        let Some(c) = map.get_mut(&client_key(addr)) else {
            return;
        };
        if c.seats.contains_key(&key) {
            return;
        }
        if c.seats.len() >= SEATS_PER_ADDRESS {
            let idle = c.seats.iter_mut().find_map(|(k, b)| {
                b.refill(api.per_sec, api.burst);
                (b.tokens >= api.burst).then_some(*k)
            });
            match idle {
                Some(k) => c.seats.remove(&k),
                None => return,
            };
        }
        c.seats.insert(key, Bucket::new(api.burst));
    }

    /// Forgets the addresses whose buckets are all full again (nothing
    /// to remember about them).
    fn forget_idle(&self, map: &mut HashMap<IpAddr, Client>) {
        let (api, ws) = (self.api, self.ws);
        let all = api.times(ADDRESS_CEILING);
        map.retain(|_, c| {
            c.api.refill(api.per_sec, api.burst);
            c.upgrades.refill(ws.per_sec, ws.burst);
            c.all.refill(all.per_sec, all.burst);
            c.api.tokens < api.burst || c.upgrades.tokens < ws.burst || c.all.tokens < all.burst
        });
    }
}

/// Whether `method path` is a route that refuses a token of no seat
/// (401): a 2xx answer to it proves the token holds a seat. Routes that
/// ignore the token are not (a made-up token would pass them).
pub fn checks_seat(method: &Method, path: &str) -> bool {
    let Some(rest) = path.strip_prefix("/api/tables/") else {
        return false;
    };
    let parts: Vec<&str> = rest.split('/').collect();
    matches!(
        (method.as_str(), parts.as_slice()),
        ("GET", [_, "view"])
            | (
                "POST",
                [
                    _,
                    "moves" | "hint" | "leave" | "back" | "penalty" | "rematch"
                ]
            )
            | ("POST", [_, "seats", _, "bot"])
    )
}

/// Takes one token of every bucket, or none when one of them is empty
/// (then how long until each has one again). A rate of 0 is no limit.
fn take(buckets: &mut [(&mut Bucket, Rate)]) -> Result<(), Duration> {
    let mut wait = Duration::ZERO;
    for (b, r) in buckets.iter_mut() {
        if r.off() {
            continue;
        }
        b.refill(r.per_sec, r.burst);
        if b.tokens < 1.0 {
            wait = wait.max(b.wait(r.per_sec));
        }
    }
    if wait > Duration::ZERO {
        return Err(wait);
    }
    for (b, r) in buckets.iter_mut() {
        if !r.off() {
            b.tokens -= 1.0;
        }
    }
    Ok(())
}

/// The address a client is counted under: an IPv4 address (an
/// IPv4-mapped IPv6 one as IPv4), an IPv6 address by its /64 (one
/// household or host usually has a whole /64).
pub fn client_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6(std::net::Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
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
    fn chat_allowance_is_per_seat_and_says_when_to_retry() {
        let mut c = ChatLimit::default();
        for _ in 0..CHAT_BURST as usize {
            assert!(c.take(2).is_ok());
        }
        let wait = c.take(2).expect_err("the burst is spent");
        assert!(
            wait > Duration::ZERO && wait <= Duration::from_secs(1),
            "{wait:?}"
        );
        // another seat of the table has its own allowance
        assert!(c.take(0).is_ok());
    }

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

    /// Finding of the hostile-client review: WebSocket upgrades counted
    /// against the API limit, so one NAT address could open only ~70.
    #[test]
    fn upgrades_count_apart_from_api_requests() {
        let l = AddressLimiter::with_upgrades(1, 3, 1, 100);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        assert!((0..3).all(|_| l.check(a, Ask::Api).is_ok()));
        let wait = l.check(a, Ask::Api).unwrap_err();
        assert!(wait > Duration::from_millis(900) && wait <= Duration::from_secs(1));
        assert!((0..100).all(|_| l.check(a, Ask::Upgrade).is_ok()));
        assert!(l.check(a, Ask::Upgrade).is_err());
    }

    #[test]
    fn seats_that_acted_have_their_own_allowance_under_a_ceiling() {
        let l = AddressLimiter::with_upgrades(1, 2, 0, 0);
        let a: IpAddr = "10.0.0.2".parse().unwrap();
        let (s1, s2) = (l.seat_key("a".repeat(32).as_str()), l.seat_key("b"));
        assert_ne!(s1, s2);
        // before it acted, a seat draws on the address's allowance
        assert!(l.check(a, Ask::Seat(s1)).is_ok() && l.check(a, Ask::Seat(s2)).is_ok());
        assert!(l.check(a, Ask::Seat(s1)).is_err());
        assert!(l.check(a, Ask::Api).is_err());
        l.seat_acted(a, s1);
        l.seat_acted(a, s2);
        assert!(l.check(a, Ask::Seat(s1)).is_ok() && l.check(a, Ask::Seat(s1)).is_ok());
        assert!(l.check(a, Ask::Seat(s1)).is_err());
        assert!(l.check(a, Ask::Seat(s2)).is_ok());
        assert!(
            l.check(a, Ask::Api).is_err(),
            "the address's own allowance is spent"
        );
        // the ceiling: 10 × burst 2 = 20 requests of the address in all
        let mut ok = 5; // 2 of the address, 3 of the seats so far
        for i in 0..1000u64 {
            let k = 1000 + i;
            l.seat_acted(a, k);
            while l.check(a, Ask::Seat(k)).is_ok() {
                ok += 1;
            }
        }
        assert!((20..=21).contains(&ok), "{ok} requests passed the ceiling");
    }

    #[test]
    fn ipv6_counts_by_its_64_and_mapped_ipv4_as_ipv4() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::9".parse().unwrap();
        assert_eq!(client_key(a), client_key(b));
        let c: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_ne!(client_key(a), client_key(c));
        let m: IpAddr = "::ffff:10.1.2.3".parse().unwrap();
        assert_eq!(client_key(m), "10.1.2.3".parse::<IpAddr>().unwrap());
    }

    #[test]
    fn routes_that_check_the_token() {
        let (get, post) = (Method::GET, Method::POST);
        assert!(checks_seat(&get, "/api/tables/abc/view"));
        assert!(checks_seat(&post, "/api/tables/abc/moves"));
        assert!(checks_seat(&post, "/api/tables/abc/seats/2/bot"));
        assert!(!checks_seat(&get, "/api/tables/abc"));
        assert!(!checks_seat(&post, "/api/tables/abc/join"));
        assert!(!checks_seat(&get, "/api/tables/abc/log"));
        assert!(!checks_seat(&post, "/api/tables"));
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
