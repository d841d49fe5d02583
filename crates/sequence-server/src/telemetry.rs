//! What a server measures, for Prometheus (`GET /metrics`, docs/deploy.md
//! "Metrics and readiness"): the recorder of the `metrics` crate,
//! exported in the Prometheus text format by `metrics-exporter-prometheus`.
//!
//! Counters and histograms are recorded where things happen (the move
//! path, the append writer, the cluster's tasks, the HTTP layer); gauges
//! of what a server holds (tables, sockets, the analysis queue, the pool,
//! the lease) are read from [`App`] when the page is asked for. The
//! recorder is global to the process: several servers in one process
//! (tests) add up their counters. Every name is in [`NAMES`], and each is
//! present on the page from the start (a counter at 0), so that dashboards
//! and alerts find them before the first event.

use metrics::{counter, gauge, histogram, Unit};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use std::sync::OnceLock;
use std::time::Duration;

/// Moves accepted and stored (HTTP, WebSocket, bots and stand-ins).
pub const MOVES_ACCEPTED: &str = "sequence_moves_accepted_total";
/// Moves of players refused, by `code` (the engine's code such as
/// `C6.space_taken`, or the kind of refusal: `stale`, `conflict`,
/// `unavailable`, …).
pub const MOVES_REFUSED: &str = "sequence_moves_refused_total";
/// Seconds from a player's move reaching the server to its views being
/// queued to every socket of the table (stored durably in between).
pub const MOVE_PUSH: &str = "sequence_move_push_seconds";
/// HTTP answers by `status` (the listener's own refusals included).
pub const HTTP_RESPONSES: &str = "sequence_http_responses_total";
/// Connections refused by the listener before any request, by `status`
/// (503: too many connections; 429: too many from one address).
pub const CONNECTIONS_REFUSED: &str = "sequence_connections_refused_total";
/// Tables in memory.
pub const TABLES_IN_MEMORY: &str = "sequence_tables_in_memory";
/// Tables this instance owns (runs their bots and turn clocks).
pub const TABLES_OWNED: &str = "sequence_tables_owned";
/// Open table WebSockets.
pub const WEBSOCKETS: &str = "sequence_websockets";
/// Bot moves being computed now.
pub const BOTS_THINKING: &str = "sequence_bots_thinking";
/// Analyses and hints waiting for the search worker.
pub const ANALYSIS_QUEUE: &str = "sequence_analysis_queue";
/// Appends written per group commit (one transaction).
pub const APPEND_BATCH: &str = "sequence_db_append_batch_size";
/// Seconds one group commit takes, from taking a connection to the commit.
pub const COMMIT_SECONDS: &str = "sequence_db_commit_seconds";
/// Seconds the append writer waited for a database connection.
pub const POOL_WAIT: &str = "sequence_db_pool_wait_seconds";
/// Requests that found no free database connection in time (a 503).
pub const POOL_TIMEOUTS: &str = "sequence_db_pool_timeouts_total";
/// Connections of the database pool, open.
pub const POOL_CONNECTIONS: &str = "sequence_db_pool_connections";
/// Connections of the database pool, open and idle.
pub const POOL_IDLE: &str = "sequence_db_pool_idle";
/// Seconds from another instance's commit to its notification arriving
/// here (PostgreSQL; clocks of the machines must agree).
pub const NOTIFY_LAG: &str = "sequence_notify_lag_seconds";
/// Notifications of other instances received.
pub const NOTIFICATIONS: &str = "sequence_notifications_total";
/// 1 while the notification listener is connected (PostgreSQL).
pub const NOTIFY_LISTENING: &str = "sequence_notify_listening";
/// Seconds since this instance last renewed its lease (PostgreSQL; 0 on
/// SQLite).
pub const LEASE_AGE: &str = "sequence_lease_age_seconds";
/// 1 while this instance's lease is current (renewed within the lease).
pub const LEASE_HELD: &str = "sequence_lease_held";
/// Heartbeats that failed (the database could not be reached).
pub const HEARTBEAT_FAILURES: &str = "sequence_heartbeat_failures_total";
/// Tables taken over from instances whose lease ran out.
pub const TAKEOVERS: &str = "sequence_tables_taken_over_total";
/// Times this instance found itself taken for dead (its tables taken).
pub const LEASE_LOST: &str = "sequence_lease_lost_total";
/// 1 when this instance is ready (as `/readyz`, checked at each scrape).
pub const READY: &str = "sequence_ready";

/// Every metric a server exports.
pub const NAMES: [&str; 25] = [
    MOVES_ACCEPTED,
    MOVES_REFUSED,
    MOVE_PUSH,
    HTTP_RESPONSES,
    CONNECTIONS_REFUSED,
    TABLES_IN_MEMORY,
    TABLES_OWNED,
    WEBSOCKETS,
    BOTS_THINKING,
    ANALYSIS_QUEUE,
    APPEND_BATCH,
    COMMIT_SECONDS,
    POOL_WAIT,
    POOL_TIMEOUTS,
    POOL_CONNECTIONS,
    POOL_IDLE,
    NOTIFY_LAG,
    NOTIFICATIONS,
    NOTIFY_LISTENING,
    LEASE_AGE,
    LEASE_HELD,
    HEARTBEAT_FAILURES,
    TAKEOVERS,
    LEASE_LOST,
    READY,
];

/// Buckets of the latency histograms, in seconds.
const SECONDS_BUCKETS: [f64; 14] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

/// Buckets of [`APPEND_BATCH`].
const BATCH_BUCKETS: [f64; 10] = [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 512.0];

static HANDLE: OnceLock<Option<PrometheusHandle>> = OnceLock::new();

/// Installs the process's recorder (once; later calls do nothing) and
/// puts every metric of [`NAMES`] on the page. `None` when another
/// recorder was installed first (a program embedding the server): the
/// page then says so.
pub fn install() -> Option<&'static PrometheusHandle> {
    HANDLE
        .get_or_init(|| {
            let built = PrometheusBuilder::new()
                .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), &SECONDS_BUCKETS)
                .and_then(|b| {
                    b.set_buckets_for_metric(Matcher::Full(APPEND_BATCH.into()), &BATCH_BUCKETS)
                })
                .and_then(|b| b.install_recorder());
            match built {
                Ok(handle) => {
                    describe();
                    Some(handle)
                }
                Err(e) => {
                    tracing::warn!("metrics: cannot install the recorder ({e}); /metrics is empty");
                    None
                }
            }
        })
        .as_ref()
}

/// What a metric is, for its description.
#[derive(Clone, Copy)]
enum Kind {
    Counter,
    Gauge,
    Histogram,
}

/// Every metric's kind, unit and description (`# HELP`), in the order
/// they are described.
const HELP: [(&str, Kind, Option<Unit>, &str); 25] = {
    use Kind::{Counter, Gauge, Histogram};
    [
        (MOVES_ACCEPTED, Counter, None, "Moves accepted and stored"),
        (
            MOVES_REFUSED,
            Counter,
            None,
            "Moves of players refused, by code",
        ),
        (
            MOVE_PUSH,
            Histogram,
            Some(Unit::Seconds),
            "A move's arrival to its views queued to every socket",
        ),
        (HTTP_RESPONSES, Counter, None, "HTTP answers by status"),
        (
            CONNECTIONS_REFUSED,
            Counter,
            None,
            "Connections refused by the listener, by status",
        ),
        (TABLES_IN_MEMORY, Gauge, None, "Tables in memory"),
        (
            TABLES_OWNED,
            Gauge,
            None,
            "Tables this instance owns (bots, turn clocks)",
        ),
        (WEBSOCKETS, Gauge, None, "Open table WebSockets"),
        (BOTS_THINKING, Gauge, None, "Bot moves being computed"),
        (
            ANALYSIS_QUEUE,
            Gauge,
            None,
            "Analyses and hints waiting for the search worker",
        ),
        (APPEND_BATCH, Histogram, None, "Appends per group commit"),
        (
            COMMIT_SECONDS,
            Histogram,
            Some(Unit::Seconds),
            "Group commit duration",
        ),
        (
            POOL_WAIT,
            Histogram,
            Some(Unit::Seconds),
            "Append writer's wait for a connection",
        ),
        (
            POOL_TIMEOUTS,
            Counter,
            None,
            "Waits for a database connection that timed out",
        ),
        (
            POOL_CONNECTIONS,
            Gauge,
            None,
            "Database pool connections open",
        ),
        (POOL_IDLE, Gauge, None, "Database pool connections idle"),
        (
            NOTIFY_LAG,
            Histogram,
            Some(Unit::Seconds),
            "Another instance's commit to its notification here",
        ),
        (
            NOTIFICATIONS,
            Counter,
            None,
            "Notifications of other instances received",
        ),
        (
            NOTIFY_LISTENING,
            Gauge,
            None,
            "1 while the notification listener is connected",
        ),
        (
            LEASE_AGE,
            Gauge,
            Some(Unit::Seconds),
            "Seconds since the lease was last renewed",
        ),
        (
            LEASE_HELD,
            Gauge,
            None,
            "1 while this instance's lease is current",
        ),
        (HEARTBEAT_FAILURES, Counter, None, "Heartbeats that failed"),
        (
            TAKEOVERS,
            Counter,
            None,
            "Tables taken over from instances whose lease ran out",
        ),
        (
            LEASE_LOST,
            Counter,
            None,
            "Times this instance was taken for dead",
        ),
        (
            READY,
            Gauge,
            None,
            "1 when this instance is ready (as /readyz)",
        ),
    ]
};

/// Descriptions (`# HELP`) and a first value of every metric.
fn describe() {
    metrics::with_recorder(|r| {
        for (name, kind, unit, text) in HELP {
            let (name, text) = (name.into(), text.into());
            match kind {
                Kind::Counter => r.describe_counter(name, unit, text),
                Kind::Gauge => r.describe_gauge(name, unit, text),
                Kind::Histogram => r.describe_histogram(name, unit, text),
            }
        }
    });
    for name in [
        MOVES_ACCEPTED,
        HTTP_RESPONSES,
        CONNECTIONS_REFUSED,
        POOL_TIMEOUTS,
        NOTIFICATIONS,
        HEARTBEAT_FAILURES,
        TAKEOVERS,
        LEASE_LOST,
    ] {
        counter!(name).absolute(0);
    }
    counter!(MOVES_REFUSED, "code" => "none").absolute(0);
    gauge!(BOTS_THINKING).set(0.0);
}

/// Counts a player's move: accepted, or refused with `code`; an accepted
/// one's time from arrival to push goes in [`MOVE_PUSH`].
pub fn move_done(result: Result<Duration, &'static str>) {
    match result {
        Ok(took) => {
            counter!(MOVES_ACCEPTED).increment(1);
            histogram!(MOVE_PUSH).record(took.as_secs_f64());
        }
        Err(code) => counter!(MOVES_REFUSED, "code" => code).increment(1),
    }
}

/// Counts a bot's (or a stand-in's) move stored.
pub fn bot_move() {
    counter!(MOVES_ACCEPTED).increment(1);
}

/// A group commit of `appends` that took `took` after waiting `waited`
/// for a connection.
pub fn group_commit(appends: usize, waited: Duration, took: Duration) {
    histogram!(APPEND_BATCH).record(appends as f64);
    histogram!(POOL_WAIT).record(waited.as_secs_f64());
    histogram!(COMMIT_SECONDS).record(took.as_secs_f64());
}
