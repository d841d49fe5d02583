//! The browser engine's figures (issue 27; docs/wasm.md "Figures"), a
//! bench command, not a test:
//!
//! ```sh
//! cargo bench -p sequence --bench wasm_figures
//! ```
//!
//! It starts `sequence serve`, chromedriver and headless Chromium (as the
//! browser tests do) and prints, as a table and as JSON in
//! `target/wasm-figures.json`:
//! * the module's size raw and compressed (gzip -9, brotli when the
//!   `brotli` command is there);
//! * the time from the start of the page's loading to the first playable
//!   move of a practice game in the browser (the hand and the lit spaces
//!   drawn), cold (a new profile, the HTTP cache and the service worker
//!   emptied) and from the service worker's cache,
//!   the median of 5 loads each;
//! * random games per second (classic, 2 players, as `sequence bench`
//!   plays them) in the page and natively (the same code,
//!   `sequence_wasm::session::random_games`), the median of 5 runs of
//!   4,000 games after a warm-up of 10,000;
//! * a level-5 bot's move time in the page, from 10 positions of classic
//!   2-player games (median and largest).

#[path = "../tests/browser/mod.rs"]
mod browser;

use browser::*;
use fantoccini::Client;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn compressed(path: &std::path::Path, cmd: &str, args: &[&str]) -> Option<usize> {
    let out = std::process::Command::new(cmd)
        .args(args)
        .arg(path)
        .output()
        .ok()?;
    out.status.success().then_some(out.stdout.len())
}

/// Milliseconds from the start of loading `url` to the first playable
/// move of its practice table (hand and lit spaces drawn).
async fn first_move_ms(c: &Client, url: &str) -> f64 {
    c.goto(url).await.expect("open the table");
    let ms = until(30, 5, async || {
        let v = c
            .execute(
                "const v = window.sequenceView; \
                 return v && (v.legal_moves || []).length && document.querySelector('.hand-card') \
                   ? performance.now() : null;",
                vec![],
            )
            .await
            .map_err(|e| e.to_string())?;
        v.as_f64().ok_or_else(|| "no playable move yet".to_string())
    })
    .await;
    ms
}

/// Games in one timed run of random games (page and native alike); at
/// 400 the runs took a few milliseconds and read the page's coarse clock.
const GAMES: u32 = 4_000;
/// Games played before the timed runs (the page's optimising compiler).
const WARMUP: u32 = 10_000;

const PAGE_BENCH: &str = r#"
const done = arguments[arguments.length - 1];
const [GAMES, WARMUP] = arguments;
(async () => {
  const m = await import('/wasm/sequence.js');
  await m.default();
  // a warm-up first: the browser compiles the module in tiers, and the
  // first short runs measured the baseline compiler, not the engine
  m.randomGames('classic', 2, WARMUP, 99);
  const runs = [];
  for (let k = 0; k < 5; k++) {
    const t = performance.now();
    const [finished] = m.randomGames('classic', 2, GAMES, k + 1);
    runs.push(finished / ((performance.now() - t) / 1000));
  }
  const bot = [];
  for (let seed = 1; seed <= 10; seed++) {
    const g = new m.Game('classic', 2, 0, 'null', seed);
    for (let i = 0; i < 20 + seed; i++) {
      const s = g.toAct();
      const legal = JSON.parse(g.legalMoves(s));
      g.play(JSON.stringify(legal[(i * 7 + seed) % legal.length]));
    }
    const s = g.toAct();
    const t = performance.now();
    g.botMove(s, 'level:5', seed);
    bot.push(performance.now() - t);
    g.free();
  }
  return { random: runs, bot };
})().then(done, (e) => done({ error: String(e && e.stack || e) }));
"#;

/// The module's size in bytes: raw, gzip -9, brotli -q 11 (when there).
fn module_sizes() -> (u64, Option<usize>, Option<usize>) {
    let wasm = workspace().join("crates/sequence-server/web/wasm/sequence_bg.wasm");
    let raw = std::fs::metadata(&wasm).expect("the module").len();
    let gz = compressed(&wasm, "gzip", &["-9c"]);
    let br = compressed(&wasm, "brotli", &["-c", "-q", "11"]);
    (raw, gz, br)
}

/// A practice table (classic, 2 players, a level-1 bot) made in the page
/// open in `c`: its address.
async fn practice_table(rig: &Rig, c: &Client) -> String {
    c.goto(&format!("{}/", rig.base))
        .await
        .expect("open the lobby");
    c.execute("localStorage.setItem('sequence.botDelayMs', '0');", vec![])
        .await
        .expect("bot delay");
    let id = c
        .execute_async(
            "const done = arguments[0]; import('/js/practice/local.js').then(async (l) => { \
               const r = await l.create({game: 'classic', players: 2, name: 'Ann', bots: [{seat: 1, level: 'level:1'}]}); \
               localStorage.setItem('sequence.seat.' + r.table, JSON.stringify({seat: 0, token: 'local'})); done(r.table); });",
            vec![],
        )
        .await
        .expect("a practice table");
    format!("{}/?table={}", rig.base, id.as_str().expect("an id"))
}

/// Milliseconds to the first playable move, 5 loads each: cold (a new
/// browser profile, the HTTP cache, the service worker and its caches
/// emptied) and then from the service worker's cache.
async fn first_moves(rig: &Rig) -> (Vec<f64>, Vec<f64>) {
    let (mut cold, mut cached) = (vec![], vec![]);
    for k in 0..5 {
        let (c, _) = rig.browser(&format!("cold{k}")).await;
        let url = practice_table(rig, &c).await;
        c.execute_async(
            "const done = arguments[0]; (async () => { \
               for (const r of await navigator.serviceWorker.getRegistrations()) await r.unregister(); \
               for (const k of await caches.keys()) await caches.delete(k); })().then(done, done);",
            vec![],
        )
        .await
        .expect("clear caches");
        rig.cdp(&c, "Network.clearBrowserCache", json!({})).await;
        cold.push(first_move_ms(&c, &url).await);
        // the service worker caches the app; then a load from its cache
        app_cached(&c).await;
        cached.push(first_move_ms(&c, &url).await);
        c.close().await.expect("close");
    }
    (cold, cached)
}

/// Random games per second in the page (5 runs) and level-5 move times
/// in the page (10 positions), in milliseconds.
async fn page_figures(rig: &Rig) -> (Vec<f64>, Vec<f64>) {
    let (c, _) = rig.browser("bench").await;
    c.goto(&format!("{}/", rig.base))
        .await
        .expect("open the page");
    c.update_timeouts(fantoccini::wd::TimeoutConfiguration::new(
        Some(Duration::from_secs(600)),
        Some(Duration::from_secs(60)),
        Some(Duration::ZERO),
    ))
    .await
    .expect("script timeout");
    let page = c
        .execute_async(PAGE_BENCH, vec![json!(GAMES), json!(WARMUP)])
        .await
        .expect("the page's figures");
    assert!(page.get("error").is_none(), "{page}");
    c.close().await.expect("close");
    let floats = |v: &Value| -> Vec<f64> {
        v.as_array()
            .map(|a| a.iter().filter_map(Value::as_f64).collect())
            .unwrap_or_default()
    };
    (floats(&page["random"]), floats(&page["bot"]))
}

/// Random games per second natively with the page's code: a warm-up of
/// [`WARMUP`] games, then 5 runs of [`GAMES`].
fn native_random() -> Vec<f64> {
    sequence_wasm::session::random_games("classic", 2, WARMUP, 99).expect("a table");
    (0..5)
        .map(|k| {
            let t = Instant::now();
            let (finished, _) =
                sequence_wasm::session::random_games("classic", 2, GAMES, k + 1).expect("a table");
            f64::from(finished) / t.elapsed().as_secs_f64()
        })
        .collect()
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let (raw, gz, br) = module_sizes();
    let Some(rig) = Rig::start("wasm-figures").await else {
        eprintln!("SEQUENCE_TEST_QUICK is set: no browser figures");
        return;
    };
    let (cold, cached) = first_moves(&rig).await;
    let (page, bot) = page_figures(&rig).await;
    let (page_random, bot_median) = (median(page.clone()), median(bot.clone()));
    let bot_max = bot.iter().copied().fold(0.0, f64::max);
    let native = native_random();
    let native_random = median(native.clone());

    let figures = json!({
        "module_bytes": raw,
        "module_gzip_bytes": gz,
        "module_brotli_bytes": br,
        "first_move_cold_ms": median(cold.clone()),
        "first_move_cached_ms": median(cached.clone()),
        "first_move_cold_all_ms": cold,
        "first_move_cached_all_ms": cached,
        "random_games_per_s_page": page_random,
        "random_games_per_s_page_all": page,
        "random_games_per_s_native": native_random,
        "random_games_per_s_native_all": native,
        "page_vs_native": page_random / native_random,
        "level5_move_ms_median": bot_median,
        "level5_move_ms_max": bot_max,
        "level5_move_ms_all": bot,
    });
    println!("| figure | value |\n|---|---|");
    println!("| module, raw | {raw} bytes |");
    if let Some(g) = gz {
        println!("| module, gzip -9 | {g} bytes |");
    }
    if let Some(b) = br {
        println!("| module, brotli -q 11 | {b} bytes |");
    }
    let (cold, cached) = (median(cold), median(cached));
    println!("| first playable move, cold (median of 5) | {cold:.0} ms |");
    println!("| first playable move, service worker cache (median of 5) | {cached:.0} ms |");
    println!("| random games/s, page (classic 2p, median of 5) | {page_random:.0} |");
    println!("| random games/s, native (same code) | {native_random:.0} |");
    println!("| page / native | {:.2} |", page_random / native_random);
    println!(
        "| level-5 move in the page, median of 10 (max) | {bot_median:.0} ms ({bot_max:.0} ms) |"
    );
    let out = workspace().join("target/wasm-figures.json");
    std::fs::write(
        &out,
        serde_json::to_string_pretty(&figures).unwrap_or_default(),
    )
    .expect("write the figures");
    println!("(also in {})", out.display());
}
