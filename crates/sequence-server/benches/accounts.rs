//! The figures of accounts (docs/accounts.md), measured on SQLite:
//! `cargo bench -p sequence-server --bench accounts [-- ROUNDS]`.
//!
//! * a profile (`GET /api/users/NAME`) of a player with 1,000 finished
//!   games, and the leaderboard (`GET /api/leaderboard/classic-1v1`) over
//!   100,000 rated players active in the last 30 days: HTTP requests to a
//!   server in this process, p50 and p99 over ROUNDS requests each;
//! * what a rating update adds to the commit of the move that ends a
//!   game: appends of one event with and without a rated game's end
//!   ([`sequence_server::db::Append::finish`]), alternating, medians.

use sequence_server::db::{Append, Db};
use sequence_server::ratings::RatingKind;
use sequence_server::results::{GameEnd, SeatEnd, SeatResult};
use std::time::{Duration, Instant};

const PW_HASH: &str = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaA";

fn quantiles(v: &mut [f64]) -> (f64, f64) {
    v.sort_by(f64::total_cmp);
    let at = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
    (at(0.5), at(0.99))
}

/// Rows inserted `chunk` at a time: `sql` is the insert up to VALUES,
/// `row(i)` the values of row `i` as SQL text (numbers and quoted names
/// made here, no outside input).
async fn bulk(db: &Db, sql: &str, n: usize, row: impl Fn(usize) -> String) {
    let pool = db.pool_for_benches();
    for start in (0..n).step_by(500) {
        let rows: Vec<String> = (start..n.min(start + 500)).map(&row).collect();
        sqlx::query(&format!("{sql} VALUES {}", rows.join(", ")))
            .execute(pool)
            .await
            .expect("bulk insert");
    }
}

/// 100,000 rated players, one of them with 1,000 finished games against
/// the others.
async fn seed(db: &Db, now: i64) {
    let players = 100_000;
    bulk(
        db,
        "INSERT INTO users (id, name, name_key, password, created_ms)",
        players,
        |i| {
            let key = sequence_server::accounts::name_key(&format!("p{i}"));
            format!("({}, 'p{i}', '{key}', '{PW_HASH}', {now})", i + 1)
        },
    )
    .await;
    bulk(
        db,
        "INSERT INTO ratings (user_id, kind, rating, deviation, volatility, games, updated_ms)",
        players,
        |i| {
            let r = 1000.0 + (i * 7919 % 1500) as f64;
            format!(
                "({}, 'classic-1v1', {r}, 60.0, 0.06, 30, {})",
                i + 1,
                now - (i as i64 % 40) * 86_400_000
            )
        },
    )
    .await;
    let games = 1000;
    bulk(
        db,
        "INSERT INTO games (table_id, game_no, kind, rated, ended_ms, moves)",
        games,
        |g| {
            format!(
                "('t{g:015}', 1, 'classic-1v1', 1, {}, 60)",
                now - g as i64 * 60_000
            )
        },
    )
    .await;
    bulk(db, "INSERT INTO game_seats (table_id, game_no, seat, side, name, bot, token_hash, user_id, result, left_game, ended_ms, kind, rating_before, rating_after, deviation_after)", 2 * games, |k| {
        let (g, seat) = (k / 2, k % 2);
        let user = if seat == 0 { 1 } else { 2 + g % 50 };
        let result = if (g + seat) % 2 == 0 { "win" } else { "loss" };
        format!(
            "('t{g:015}', 1, {seat}, {seat}, 'p{}', 0, NULL, {user}, '{result}', 0, {}, 'classic-1v1', 1500.0, 1510.0, 80.0)",
            user - 1,
            now - g as i64 * 60_000
        )
    })
    .await;
}

async fn requests(http: &reqwest::Client, url: &str, rounds: usize) -> (f64, f64) {
    let mut ms = Vec::with_capacity(rounds);
    for _ in 0..rounds {
        let t = Instant::now();
        let r = http.get(url).send().await.expect("request");
        assert_eq!(r.status().as_u16(), 200, "{url}");
        let _ = r.bytes().await.expect("body");
        ms.push(t.elapsed().as_secs_f64() * 1e3);
    }
    quantiles(&mut ms)
}

/// The end of a rated game `game_no` of table `t` between users 1 and 2.
fn rated_end(game_no: u32, now: i64) -> GameEnd {
    let seat = |s: u8| SeatEnd {
        seat: s,
        side: s,
        name: format!("p{s}"),
        bot: false,
        token_hash: Some(format!("{:064}", s)),
        left: false,
        result: if s == 0 {
            SeatResult::Win
        } else {
            SeatResult::Loss
        },
        place: 1 + s as usize,
    };
    GameEnd {
        table_id: "commit0000000000".into(),
        game_no,
        kind: RatingKind::Classic1v1,
        rated: true,
        ended_ms: now,
        moves: 60,
        seats: vec![seat(0), seat(1)],
    }
}

async fn commit_cost(db: &Db, rounds: usize, now: i64) -> (f64, f64) {
    let id = "commit0000000000";
    db.create_table(id, "{}", "playing", now, &["\"start\"".to_string()], None)
        .await
        .expect("table");
    for s in 0..2 {
        db.own_seat(id, &format!("{:064}", s), s + 1, true)
            .await
            .expect("owner");
    }
    let (mut with, mut without) = (vec![], vec![]);
    let events = vec!["{\"t\":\"rematch\"}".to_string()];
    for i in 0..2 * rounds {
        let end = rated_end(i as u32 + 1, now);
        let a = Append {
            id,
            first_seq: 1 + i as i64,
            events: &events,
            status: "over",
            clock_ms: now,
            timed_out: 0,
            finish: (i % 2 == 0).then_some(&end),
        };
        let t = Instant::now();
        db.append(&a).await.expect("append");
        let ms = t.elapsed().as_secs_f64() * 1e3;
        if i % 2 == 0 {
            with.push(ms)
        } else {
            without.push(ms)
        }
    }
    (quantiles(&mut with).0, quantiles(&mut without).0)
}

fn main() {
    let rounds: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(200);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let dir = tempfile::tempdir().expect("temp dir");
        let file = dir.path().join("bench.db").to_string_lossy().to_string();
        let now = sequence_server::tables::now_ms();
        {
            let db = Db::open(&file).await.expect("open");
            let t = Instant::now();
            seed(&db, now).await;
            println!("seeded 100,000 rated players and 1,000 games in {:.1} s", t.elapsed().as_secs_f64());
            let (w, wo) = commit_cost(&db, rounds, now).await;
            println!(
                "final move's commit (SQLite, {rounds} each, alternating): median {w:.3} ms with a rated game's end, {wo:.3} ms without: +{:.3} ms",
                w - wo
            );
            db.close().await;
            db.unlock();
        }
        let cfg = sequence_server::ServerConfig {
            db: file,
            rate_limit: 0,
            rate_burst: 0,
            bot_delay: Duration::ZERO,
            ..sequence_server::ServerConfig::default()
        };
        let running = sequence_server::start(cfg, "127.0.0.1:0").await.expect("server");
        let base = format!("http://{}", running.addr);
        let http = reqwest::Client::new();
        let (p50, p99) = requests(&http, &format!("{base}/api/users/p0"), rounds).await;
        println!("profile with 1,000 finished games: p50 {p50:.1} ms, p99 {p99:.1} ms ({rounds} requests)");
        let (p50, p99) = requests(&http, &format!("{base}/api/leaderboard/classic-1v1"), rounds).await;
        println!("leaderboard over 100,000 rated players: p50 {p50:.1} ms, p99 {p99:.1} ms ({rounds} requests)");
        running.abort();
    });
}
