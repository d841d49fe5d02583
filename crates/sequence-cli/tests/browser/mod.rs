//! What the browser end-to-end tests share (`tests/e2e_*.rs`): a rig of
//! a `sequence serve`, chromedriver and headless Chromium browsers, and
//! helpers that read the page (`window.sequenceView`), wait for it, click
//! and type, make scripted moves and download records. Chromium and
//! chromedriver come from Debian's `chromium` and `chromium-driver`
//! (`/usr/bin/chromium`, `/usr/bin/chromedriver`, or `$CHROMIUM` /
//! `$CHROMEDRIVER`). Screenshots are saved to `target/e2e-artifacts/` (or
//! `$E2E_ARTIFACTS`).
#![allow(dead_code)]

pub mod layout;
#[allow(unused_imports)]
pub use layout::{check_language, check_learn_language};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// One browser test at a time: each starts a server, chromedriver and
/// browsers, and the CI machine has two cores.
pub static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// The languages of the web UI.
pub const LANGUAGES: [&str; 5] = ["en", "ka", "fa", "uk", "kn"];
pub const ENTER: &str = "\u{E007}";
pub const TAB: &str = "\u{E004}";
pub const HOME: &str = "\u{E011}";
pub const ARROW_RIGHT: &str = "\u{E014}";

pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

pub fn artifacts() -> PathBuf {
    let dir = std::env::var_os("E2E_ARTIFACTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace().join("target/e2e-artifacts"));
    std::fs::create_dir_all(&dir).expect("create the artifacts folder");
    dir
}

pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sequence-e2e-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create a scratch folder");
    dir
}

pub fn find_program(var: &str, candidates: &[&str]) -> Option<PathBuf> {
    if let Some(p) = std::env::var_os(var) {
        return Some(PathBuf::from(p));
    }
    candidates.iter().map(PathBuf::from).find(|p| p.exists())
}

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// A child process killed when dropped.
pub struct Proc(pub Child);

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub fn wait_http(port: u16, path: &str, what: &str, proc: &mut Proc) {
    let start = Instant::now();
    loop {
        if let Ok(Some(status)) = proc.0.try_wait() {
            panic!("{what} exited early with {status}");
        }
        if let Ok(mut s) = TcpStream::connect(("127.0.0.1", port)) {
            let _ = s.set_read_timeout(Some(Duration::from_secs(2)));
            let req =
                format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
            if s.write_all(req.as_bytes()).is_ok() {
                let mut buf = String::new();
                let _ = s.read_to_string(&mut buf);
                if buf.starts_with("HTTP/1.") && buf.contains(" 200 ") {
                    return;
                }
            }
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "{what} did not answer {path} within 30 s"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The pieces of one browser test: server, chromedriver, browsers.
pub struct Rig {
    pub base: String,
    driver_url: String,
    chromium: PathBuf,
    pub server: Option<Proc>,
    _driver: Proc,
    pub dir: PathBuf,
    /// Held while the rig lives ([`SERIAL`]).
    _serial: tokio::sync::MutexGuard<'static, ()>,
}

impl Rig {
    /// A rig for test `name` once no other test holds one; `None` (the
    /// test is left out) in quick mode (`SEQUENCE_TEST_QUICK`).
    ///
    /// # Panics
    /// Without Chromium or chromedriver outside quick mode: a test that
    /// cannot run fails (scripts/test.sh installs them).
    pub async fn start(name: &str) -> Option<Rig> {
        Rig::start_with(name, 0).await
    }

    /// A rig whose server pauses `bot_delay_ms` before each bot move.
    pub async fn start_with(name: &str, bot_delay_ms: u64) -> Option<Rig> {
        Rig::start_args(name, bot_delay_ms, &[]).await
    }

    /// [`Rig::start_with`], the server started with `args` besides.
    pub async fn start_args(name: &str, bot_delay_ms: u64, args: &[&str]) -> Option<Rig> {
        if std::env::var_os("SEQUENCE_TEST_QUICK").is_some() {
            eprintln!("quick mode: browser test {name} left out");
            return None;
        }
        let serial = SERIAL.lock().await;
        let chromium = find_program(
            "CHROMIUM",
            &["/usr/bin/chromium", "/usr/bin/chromium-browser"],
        )
        .expect("chromium not found: scripts/test.sh installs it (apt-get install chromium chromium-driver, or set CHROMIUM); scripts/test.sh --quick leaves the browser tests out");
        let chromedriver = find_program("CHROMEDRIVER", &["/usr/bin/chromedriver"])
            .expect("chromedriver not found: scripts/test.sh installs it (apt-get install chromium-driver, or set CHROMEDRIVER); scripts/test.sh --quick leaves the browser tests out");
        let dir = scratch(name);
        let port = free_port();
        let mut server = Proc(
            Command::new(env!("CARGO_BIN_EXE_sequence"))
                .args(["serve", "--listen", &format!("127.0.0.1:{port}")])
                .arg("--db")
                .arg(dir.join("e2e.db"))
                .args(["--rate-limit", "0", "--bot-delay-ms"])
                .arg(bot_delay_ms.to_string())
                // a cheap analysis (the search's strength is not tested here)
                .args(["--analysis-iterations", "8"])
                .args(args)
                .stdout(Stdio::null())
                .stderr(
                    std::fs::File::create(dir.join("server.log"))
                        .map(Stdio::from)
                        .unwrap_or(Stdio::null()),
                )
                .spawn()
                .expect("start `sequence serve`"),
        );
        wait_http(port, "/healthz", "sequence serve", &mut server);
        let dport = free_port();
        let mut driver = Proc(
            Command::new(&chromedriver)
                .arg(format!("--port={dport}"))
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("start chromedriver"),
        );
        wait_http(dport, "/status", "chromedriver", &mut driver);
        Some(Rig {
            base: format!("http://127.0.0.1:{port}"),
            driver_url: format!("http://127.0.0.1:{dport}"),
            chromium,
            server: Some(server),
            _driver: driver,
            dir,
            _serial: serial,
        })
    }

    /// chromedriver's address (for its commands fantoccini has none of,
    /// e.g. `goog/cdp/execute`).
    pub fn driver_url(&self) -> &str {
        &self.driver_url
    }

    /// A Chrome DevTools command `cmd` with `params` in browser `c`
    /// through chromedriver (`goog/cdp/execute`); its result.
    ///
    /// # Panics
    /// When chromedriver does not answer with JSON.
    pub async fn cdp(&self, c: &Client, cmd: &str, params: Value) -> Value {
        let session = c
            .session_id()
            .await
            .expect("a session")
            .expect("a session id");
        let r: Value = reqwest::Client::new()
            .post(format!(
                "{}/session/{session}/goog/cdp/execute",
                self.driver_url
            ))
            .json(&json!({"cmd": cmd, "params": params}))
            .send()
            .await
            .expect("chromedriver answers")
            .json()
            .await
            .expect("JSON");
        r["value"].clone()
    }

    /// A new browser with its own profile and download folder.
    pub async fn browser(&self, who: &str) -> (Client, PathBuf) {
        self.browser_sized(who, None).await
    }

    /// A new browser whose page is `width`×`height` CSS pixels (a phone
    /// when narrower than 600: touch, mobile viewport), through
    /// chromedriver's device emulation.
    pub async fn browser_sized(&self, who: &str, size: Option<(u32, u32)>) -> (Client, PathBuf) {
        let profile = self.dir.join(format!("profile-{who}"));
        let downloads = self.dir.join(format!("downloads-{who}"));
        std::fs::create_dir_all(&downloads).expect("download folder");
        let caps = json!({
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": self.chromium,
                "args": [
                    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--no-first-run", "--disable-background-networking", "--disable-component-update",
                    "--disable-sync", "--lang=en-US", "--window-size=1300,1000",
                    format!("--user-data-dir={}", profile.display()),
                ],
                "prefs": {
                    "download.default_directory": downloads,
                    "download.prompt_for_download": false,
                    "intl.accept_languages": "en-US,en",
                },
            },
        });
        let mut caps = caps;
        if let Some((width, height)) = size {
            let phone = width < 600;
            caps["goog:chromeOptions"]["mobileEmulation"] = json!({
                "deviceMetrics": {"width": width, "height": height, "pixelRatio": 1.0, "mobile": phone, "touch": phone},
            });
        }
        let Value::Object(caps) = caps else {
            unreachable!()
        };
        let client = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(caps)
            .connect(&self.driver_url)
            .await
            .expect("open a Chromium session");
        (client, downloads)
    }
}

pub async fn shot(c: &Client, name: &str) {
    let png = c.screenshot().await.expect("screenshot");
    let path = artifacts().join(format!("{name}.png"));
    std::fs::write(&path, png).expect("save screenshot");
    eprintln!("screenshot: {}", path.display());
}

pub async fn wait_for(c: &Client, css: &str) -> fantoccini::elements::Element {
    match c
        .wait()
        .at_most(Duration::from_secs(20))
        .for_element(Locator::Css(css))
        .await
    {
        Ok(e) => e,
        Err(e) => {
            // Keep what the page showed, for the artifacts.
            if let Ok(png) = c.screenshot().await {
                let _ = std::fs::write(artifacts().join("failure.png"), png);
            }
            let banner = c
                .execute(
                    "const v = window.sequenceView || {}; return [document.getElementById('banner').textContent, \
                     v.move_number, v.to_act, v.hand, v.legal_moves, \
                     [...document.querySelectorAll('.selected')].map((e) => e.outerHTML.slice(0, 80))];",
                    vec![],
                )
                .await;
            panic!("no element {css} within 20 s: {e} (banner: {banner:?}; see failure.png)")
        }
    }
}

/// The text `css` shows once it is on the page (see [`wait_for`]).
pub async fn wait_text(c: &Client, css: &str) -> String {
    wait_for(c, css).await.text().await.unwrap_or_default()
}

pub async fn view(c: &Client) -> Value {
    c.execute("return window.sequenceView || null;", vec![])
        .await
        .expect("read the view")
}

/// Waits until the view's move number passes `after` (or the game ends).
pub async fn wait_move(c: &Client, after: u64) -> Value {
    wait_reach(c, after + 1).await
}

/// Waits until the view's move number is at least `n` (or the game ends).
pub async fn wait_reach(c: &Client, want: u64) -> Value {
    let after = want.saturating_sub(1);
    let start = Instant::now();
    loop {
        let v = view(c).await;
        let n = v["move_number"].as_u64().unwrap_or(0);
        if n >= want || (!v.is_null() && !is_playing(&v) && v["status"] != "waiting") {
            return v;
        }
        if start.elapsed() > Duration::from_secs(30) {
            let banner = c
                .execute(
                    "return document.getElementById('banner').textContent;",
                    vec![],
                )
                .await;
            panic!("no move after {after} within 30 s (banner: {banner:?})");
        }
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
}

/// Waits until the service worker of the page open in `c` has cached the
/// app (docs/wasm.md "Offline and install"): the cache's name
/// (`sequence-VERSION`).
///
/// # Panics
/// When it has not within a minute.
pub async fn app_cached(c: &Client) -> String {
    let cached = c
        .execute_async(
            "const done = arguments[0]; navigator.serviceWorker.ready.then(async () => { \
               for (let i = 0; i < 600; i++) { \
                 for (const k of await caches.keys()) \
                   if (await (await caches.open(k)).match('/__complete')) return done(k); \
                 await new Promise((r) => setTimeout(r, 100)); } \
               done(null); });",
            vec![],
        )
        .await
        .expect("wait for the service worker");
    match cached.as_str() {
        Some(k) if k.starts_with("sequence-") => k.to_string(),
        _ => panic!("the app shell was not cached: {cached}"),
    }
}

/// Asks `probe` every `every_ms` milliseconds until it answers `Ok`, and
/// gives that answer; after `secs` seconds the test fails with the last
/// `Err` (what was awaited, and what was seen instead).
pub async fn until<T>(
    secs: u64,
    every_ms: u64,
    mut probe: impl AsyncFnMut() -> Result<T, String>,
) -> T {
    let start = Instant::now();
    loop {
        match probe().await {
            Ok(v) => return v,
            Err(why) => assert!(start.elapsed() < Duration::from_secs(secs), "{why}"),
        }
        tokio::time::sleep(Duration::from_millis(every_ms)).await;
    }
}

/// `c`'s view while its game is being played, `None` once it is over;
/// fails the test with `late` once `deadline` has passed.
pub async fn playing_view(c: &Client, deadline: Instant, late: &str) -> Option<Value> {
    let v = view(c).await;
    if !is_playing(&v) {
        return None;
    }
    assert!(Instant::now() < deadline, "{late}");
    Some(v)
}

pub fn is_playing(v: &Value) -> bool {
    v["status"] == "playing"
}

pub async fn click(c: &Client, css: &str) {
    wait_for(c, css)
        .await
        .click()
        .await
        .unwrap_or_else(|e| panic!("click {css}: {e}"));
}

pub async fn select_option(c: &Client, select: &str, value: &str) {
    click(c, &format!("{select} option[value=\"{value}\"]")).await;
}

pub async fn type_into(c: &Client, css: &str, text: &str) {
    let el = wait_for(c, css).await;
    el.clear().await.expect("clear input");
    el.send_keys(text).await.expect("type");
}

/// The classic move the scripted player makes: the legal placement whose
/// best line of five through the space holds most of its own chips (a
/// removal, dead-card exchange or pass when nothing else is legal).
pub const CHOOSE_CLASSIC: &str = r#"
const v = window.sequenceView;
const me = v.team[0].toUpperCase();
const board = v.board;
const own = (r, c) => r >= 0 && r < 10 && c >= 0 && c < 10 && (board[r][c] === '*' || board[r][c].toUpperCase() === me);
const score = (sp) => {
  const c = sp.charCodeAt(0) - 97, r = Number(sp.slice(1)) - 1;
  let best = 0;
  for (const [dr, dc] of [[0,1],[1,0],[1,1],[1,-1]]) {
    for (let k = -4; k <= 0; k++) {
      let n = 0, ok = true;
      for (let i = 0; i < 5; i++) {
        const rr = r + (k + i) * dr, cc = c + (k + i) * dc;
        if (rr < 0 || rr > 9 || cc < 0 || cc > 9) { ok = false; break; }
        const ch = board[rr][cc];
        if (own(rr, cc)) n++; else if (ch !== '.' && !(rr === r && cc === c)) { ok = false; break; }
      }
      if (ok) best = Math.max(best, n);
    }
  }
  return best;
};
let pick = null, bestScore = -1;
for (const m of v.legal_moves) {
  let s = -1;
  if (m.at) s = score(m.at) * 10 + (m.card[0] === 'J' ? 0 : 5);
  else if (m.dead) s = 100;
  else if (m.remove) s = 1;
  else if (m.pass || m.discard) s = 0;
  if (s > bestScore) { bestScore = s; pick = m; }
}
const card = pick.card || pick.dead || pick.discard;
return { move: pick, hand: card ? v.hand.indexOf(card) : -1 };
"#;

/// Makes the Stacks move `choice` (what [`CHOOSE_STACKS`] returned: the
/// move and its hand index, -1 for the discard pile) by clicking: End
/// turn, or the card and then its pile or action.
pub async fn stacks_move(c: &Client, choice: &Value) {
    let m = &choice["move"];
    if m.get("end").is_some() {
        click(c, "#end-turn").await;
        return;
    }
    let hand = choice["hand"].as_i64().unwrap_or(-1);
    if hand < 0 {
        click(c, ".scard.from-discard").await;
    } else {
        click(c, &format!(".scard[data-focus=\"hand-{hand}\"]")).await;
    }
    if let Some(place) = m.get("to").and_then(Value::as_str) {
        click(c, &format!(".pile.target[data-place=\"{place}\"]")).await;
    } else if m.get("discard").is_some() {
        click(c, "[data-focus=\"act-discard\"]").await;
    } else {
        let key = format!(
            "act-{}-{}-{}",
            m["play"].as_str().unwrap_or(""),
            m.get("target").map(|t| t.to_string()).unwrap_or_default(),
            m.get("colour").and_then(Value::as_str).unwrap_or("")
        );
        click(c, &format!("[data-focus=\"{key}\"]")).await;
    }
}

/// Makes one classic move for the seat shown in `c` by clicking (or, when
/// `keyboard`, by keys: Enter on the card, then Enter on the space).
pub async fn classic_move(c: &Client, n: u64, keyboard: bool) {
    let choice = c
        .execute(CHOOSE_CLASSIC, vec![])
        .await
        .expect("choose a move");
    let m = &choice["move"];
    let hand = choice["hand"].as_i64().unwrap_or(-1);
    if m.get("pass").is_some() {
        click(c, "#pass").await;
        return;
    }
    if keyboard && m.get("at").or_else(|| m.get("remove")).is_some() {
        keyboard_move(c, n, hand, m).await;
        return;
    }
    let card = wait_for(c, &format!(".hand-card[data-focus=\"hand-{hand}\"]")).await;
    card.click().await.expect("click a card");
    if m.get("dead").is_some() {
        click(c, "#exchange").await;
    } else if m.get("discard").is_some() {
        click(c, "#discard").await;
    } else {
        let space = m
            .get("at")
            .or_else(|| m.get("remove"))
            .and_then(Value::as_str)
            .expect("a space");
        let el = wait_for(c, &format!(".space.target[data-space=\"{space}\"]")).await;
        el.click().await.expect("click a space");
        // A clicked space keeps no ring (tester's report: it looked like
        // the last-move marker); only keyboard focus draws one.
        let rings = c
            .execute(
                "return [...document.querySelectorAll('.space .focus-ring')].filter((r) => getComputedStyle(r).stroke !== 'none').length;",
                vec![],
            )
            .await
            .expect("read the rings");
        assert_eq!(rings, json!(0), "a focus ring after a click");
        // C8a: when several sequences could be declared the page asks
        // which; take the first choice. Otherwise the move just goes.
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(20) {
            if view(c).await["move_number"].as_u64().unwrap_or(0) > n {
                return;
            }
            if let Ok(b) = c.find(Locator::Css(".choice button")).await {
                b.click().await.expect("choose a sequence");
                return;
            }
            tokio::time::sleep(Duration::from_millis(30)).await;
        }
    }
}

/// What has keyboard focus: its `data-focus` or `space-NAME`.
pub const ACTIVE: &str = "const a = document.activeElement; \
  return a && a.dataset ? (a.dataset.focus || (a.dataset.space ? 'space-' + a.dataset.space : '')) : '';";

pub async fn active(c: &Client) -> String {
    c.execute(ACTIVE, vec![])
        .await
        .expect("read the focus")
        .as_str()
        .unwrap_or_default()
        .to_string()
}

pub async fn press(c: &Client, key: &str) {
    c.active_element()
        .await
        .expect("a focused element")
        .send_keys(key)
        .await
        .expect("a key");
}

/// A classic placement or removal made with the keyboard only (tester's
/// report): the hand is one Tab stop whose cards the arrow keys reach,
/// Enter selects, Tab goes on to the board's first lit space, `n` moves
/// between lit spaces (a visible ring shows which), Enter plays, and focus
/// comes back to the hand, so that Tab goes on from there.
pub async fn keyboard_move(c: &Client, n: u64, hand: i64, m: &Value) {
    let space = m
        .get("at")
        .or_else(|| m.get("remove"))
        .and_then(Value::as_str)
        .expect("a space");
    c.execute(
        "document.querySelector('[data-roving=\"hand\"] [tabindex=\"0\"]').focus();",
        vec![],
    )
    .await
    .expect("focus the hand");
    assert_eq!(
        active(c).await,
        "hand-0",
        "Tab reaches the hand at its first card"
    );
    press(c, ARROW_RIGHT).await;
    assert_eq!(active(c).await, "hand-1", "→ moves to the next card");
    press(c, HOME).await;
    for _ in 0..hand {
        press(c, ARROW_RIGHT).await;
    }
    assert_eq!(active(c).await, format!("hand-{hand}"));
    press(c, ENTER).await;
    wait_for(c, ".space.target").await;
    assert_eq!(
        active(c).await,
        format!("hand-{hand}"),
        "the card keeps focus"
    );
    press(c, TAB).await;
    let first = active(c).await;
    assert!(
        first.starts_with("space-"),
        "Tab after the hand goes to the board: {first}"
    );
    for _ in 0..100 {
        if active(c).await == format!("space-{space}") {
            break;
        }
        press(c, "n").await;
    }
    assert_eq!(
        active(c).await,
        format!("space-{space}"),
        "n reaches every lit space"
    );
    let ring = c
        .execute(
            "return getComputedStyle(document.activeElement.querySelector('.focus-ring')).stroke;",
            vec![],
        )
        .await
        .expect("read the ring");
    assert_eq!(
        ring,
        json!("rgb(0, 0, 0)"),
        "keyboard focus on a lit space shows a black ring"
    );
    press(c, ENTER).await;
    // C8a: a choice of sequences to declare ends the move here
    let chose = until(20, 30, async || {
        if view(c).await["move_number"].as_u64().unwrap_or(0) > n {
            return Ok(false);
        }
        if let Ok(b) = c.find(Locator::Css(".choice button")).await {
            b.click().await.expect("choose a sequence");
            return Ok(true);
        }
        Err("the keyboard move did not go".to_string())
    })
    .await;
    if chose {
        return;
    }
    until(5, 30, async || {
        let focus = active(c).await;
        if focus.starts_with("hand-") {
            return Ok(());
        }
        Err(format!(
            "after a keyboard move focus is back in the hand, not {focus:?}"
        ))
    })
    .await;
}

pub async fn download_record(c: &Client, downloads: &Path) -> PathBuf {
    download_new(c, "#download", downloads).await
}

/// Clicks the link `css` and waits for a JSON file that was not in
/// `downloads` before.
pub async fn download_new(c: &Client, css: &str, downloads: &Path) -> PathBuf {
    let before: Vec<PathBuf> = std::fs::read_dir(downloads)
        .map(|rd| rd.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    click(c, css).await;
    until(20, 100, async || {
        let files = std::fs::read_dir(downloads).into_iter().flatten().flatten();
        files
            .map(|e| e.path())
            .find(|p| {
                p.extension().is_some_and(|x| x == "json")
                    && !before.contains(p)
                    && std::fs::metadata(p).map(|m| m.len() > 0).unwrap_or(false)
            })
            .ok_or_else(|| "the record did not download within 20 s".to_string())
    })
    .await
}

pub fn verify(path: &Path) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_sequence"))
        .arg("verify")
        .arg(path)
        .output()
        .expect("run sequence verify");
    assert!(
        out.status.success(),
        "sequence verify failed ({}): {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("verify prints JSON")
}

/// The Stacks decision the scripted player makes: a pile play when there is
/// one, else an action card (Steal-a-Chip, Skip, Steal-a-Card), else end
/// the turn or discard.
pub const CHOOSE_STACKS: &str = r#"
const v = window.sequenceView;
const L = v.legal_moves;
const pile = L.find((m) => m.to);
const act = L.find((m) => m.play === 'STEAL-CHIP') || L.find((m) => m.play === 'SKIP') || L.find((m) => m.play === 'STEAL-CARD');
const m = pile || act || L.find((m) => m.end) || L.find((m) => m.discard);
const card = m.play || m.discard;
return { move: m, hand: m.from === 'discard' ? -1 : v.hand.indexOf(card) };
"#;

/// Creates a table from the page (API call with the page's fetch; the seat
/// token saved as the UI does) and opens it.
pub async fn open_new_table(c: &Client, base: &str, body: Value) -> String {
    let id = c
        .execute_async(
            "const [body, done] = arguments; \
             fetch('/api/tables', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)}) \
               .then((r) => r.json()).then((r) => { \
                 localStorage.setItem('sequence.seat.' + r.table, JSON.stringify({seat: r.seat, token: r.token})); done(r.table); });",
            vec![body],
        )
        .await
        .expect("create a table");
    let id = id.as_str().expect("a table id").to_string();
    c.goto(&format!("{base}/?table={id}"))
        .await
        .expect("open the table");
    id
}

/// Waits until the seat in `c` may move (and no Block window is open).
pub async fn wait_my_turn(c: &Client) -> Value {
    until(30, 50, async || {
        let v = view(c).await;
        let mine = v["legal_moves"].as_array().is_some_and(|l| !l.is_empty());
        if mine && v["block_window"].is_null() {
            return Ok(v);
        }
        Err(format!("never my turn: {v}"))
    })
    .await
}

/// `GET`s (or with `body`, `POST`s) `path` with the page's `fetch`:
/// `[status, json]`.
pub async fn fetch_json(c: &Client, path: &str, body: Option<Value>) -> (u16, Value) {
    let r = c
        .execute_async(
            "const [path, body, done] = arguments; \
             const init = body === null ? {} : {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)}; \
             fetch(path, init).then(async (r) => done([r.status, await r.json()])).catch((e) => done([0, String(e)]));",
            vec![json!(path), body.unwrap_or(Value::Null)],
        )
        .await
        .expect("fetch");
    (r[0].as_u64().unwrap_or(0) as u16, r[1].clone())
}

/// Joins table `id` from the page as `name` (the token saved as the UI
/// does) and opens it.
pub async fn join_table(c: &Client, base: &str, id: &str, name: &str) {
    c.goto(base).await.expect("open the lobby");
    let (status, r) = fetch_json(
        c,
        &format!("/api/tables/{id}/join"),
        Some(json!({"name": name})),
    )
    .await;
    assert_eq!(status, 200, "join: {r}");
    c.execute(
        "localStorage.setItem('sequence.seat.' + arguments[0], JSON.stringify({seat: arguments[1], token: arguments[2]}));",
        vec![json!(id), r["seat"].clone(), r["token"].clone()],
    )
    .await
    .expect("save the seat");
    c.goto(&format!("{base}/?table={id}"))
        .await
        .expect("open the table");
}

/// The log entries of table `id` (the server's, through the page).
pub async fn server_log(c: &Client, id: &str) -> Vec<Value> {
    let (status, r) = fetch_json(c, &format!("/api/tables/{id}/log"), None).await;
    assert_eq!(status, 200, "{r}");
    r["log"].as_array().cloned().unwrap_or_default()
}

/// The text of `css` once it is on the page and not empty (waiting up to `secs`).
pub async fn c_text(c: &Client, css: &str, secs: u64) -> String {
    // the element may be on the page before its text is filled in (the
    // end panel exists before the finished game's view arrives)
    until(secs, 100, async || {
        let e = c
            .find(Locator::Css(css))
            .await
            .map_err(|_| format!("no {css} within {secs} s"))?;
        match e.text().await {
            Ok(t) if !t.trim().is_empty() => Ok(t),
            _ => Err(format!("{css} still empty after {secs} s")),
        }
    })
    .await
}

/// Sends `key` to the page (its body when nothing else has focus).
pub async fn press_on_page(c: &Client, key: &str) {
    c.find(Locator::Css("body"))
        .await
        .expect("the page")
        .send_keys(key)
        .await
        .expect("a key");
}

/// Clicks `css` on a page that redraws while it is clicked (bots moving):
/// an element replaced between finding and clicking is found again.
pub async fn click_live(c: &Client, css: &str) {
    let mut last = String::new();
    for _ in 0..20 {
        match wait_for(c, css).await.click().await {
            Ok(()) => return,
            Err(e) => last = e.to_string(),
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("click {css}: {last}");
}

/// How many elements match `css` now.
pub async fn count(c: &Client, css: &str) -> u64 {
    c.execute(
        "return document.querySelectorAll(arguments[0]).length;",
        vec![json!(css)],
    )
    .await
    .expect("count")
    .as_u64()
    .unwrap_or(0)
}

/// The text of the first `css` now (read in the page: no stale element
/// on a page that redraws).
pub async fn text_of(c: &Client, css: &str) -> String {
    c.execute(
        "const e = document.querySelector(arguments[0]); return e ? e.textContent : '';",
        vec![json!(css)],
    )
    .await
    .expect("read the page")
    .as_str()
    .unwrap_or_default()
    .to_string()
}

/// Creates a 2-player classic table on the page whose person times out
/// every turn (1 s) against a bot, so that it plays itself to the end;
/// gives its id.
pub async fn self_playing_game(c: &Client) -> String {
    let (status, r) = fetch_json(
        c,
        "/api/tables",
        Some(
            json!({"game": "classic", "players": 2, "name": "Ann", "turn_seconds": 1,
                    "bots": [{"seat": 1, "level": "level:1"}],
                    "options": {"sequence_length": 4, "win_sequences": 1}}),
        ),
    )
    .await;
    assert_eq!(status, 201, "{r}");
    c.execute(
        "localStorage.setItem('sequence.seat.' + arguments[0], JSON.stringify({seat: 0, token: arguments[1]}));",
        vec![r["table"].clone(), r["token"].clone()],
    )
    .await
    .expect("save the seat");
    r["table"].as_str().expect("an id").to_string()
}

/// Signs up as `name` on the account page of `c` and waits for the
/// profile the page then opens.
pub async fn sign_up_in_browser(c: &Client, base: &str, name: &str) {
    c.goto(&format!("{base}/account"))
        .await
        .expect("open the account page");
    type_into(c, "#signup-name", name).await;
    type_into(c, "#signup-password", "a long enough password").await;
    click(c, "#signup-go").await;
    let shown = until(20, 50, async || {
        let t = text_of(c, "#profile-name").await;
        if t == name {
            Ok(t)
        } else {
            Err(format!("no profile of {name} after signing up (saw {t:?})"))
        }
    })
    .await;
    assert_eq!(shown, name);
    let link = wait_text(c, "#account-link").await;
    assert_eq!(link, name, "the header names the account");
}
