//! Helpers of the scale-out tests (several instances on one PostgreSQL):
//! a database of each test's own beside `SEQUENCE_TEST_POSTGRES_URL`
//! (dropped at the end), server instances on it, and views and records
//! read from every instance.
#![allow(dead_code)]

use crate::common::Server;
use sequence_server::{start_with, ClusterConfig, ServerConfig};
use serde_json::Value;
use std::time::Duration;

/// A PostgreSQL database of one test's own.
pub struct PgDb {
    base: String,
    name: String,
    /// Its URL.
    pub url: String,
}

impl PgDb {
    /// A fresh database named after `tag`, or `None` (the test is left
    /// out) in quick mode (`SEQUENCE_TEST_QUICK`) without
    /// `SEQUENCE_TEST_POSTGRES_URL`.
    ///
    /// # Panics
    /// Without `SEQUENCE_TEST_POSTGRES_URL` outside quick mode: a test
    /// that cannot run fails (scripts/test.sh sets it).
    pub async fn fresh(tag: &str) -> Option<PgDb> {
        let base = crate::common::postgres::url(&format!("test {tag}"))?;
        let name = format!(
            "seqtest_{tag}_{}_{:x}",
            std::process::id(),
            rand::random::<u32>()
        );
        let url = sequence_server::db::create_database(&base, &name)
            .await
            .expect("a test database (the user must be allowed to create databases)");
        Some(PgDb { base, name, url })
    }

    /// `N` instances on this database with cluster settings `cfg`.
    pub async fn instances<const N: usize>(&self, cfg: ClusterConfig) -> [Server; N] {
        let mut out = Vec::with_capacity(N);
        for _ in 0..N {
            out.push(instance(&self.url, cfg.clone()).await);
        }
        out.try_into()
            .unwrap_or_else(|_: Vec<Server>| unreachable!("{N} instances"))
    }

    /// The URL of the server's own database (to manage this one from).
    pub fn base_url(&self) -> String {
        self.base.clone()
    }

    /// The database's name.
    pub fn name(&self) -> String {
        self.name.clone()
    }

    /// Drops the database.
    pub async fn drop_db(self) {
        if let Err(e) = sequence_server::db::drop_database(&self.base, &self.name).await {
            eprintln!("cannot drop test database {}: {e}", self.name);
        }
    }
}

/// Cluster settings for tests: a short lease, small pools (several
/// instances and tests share one PostgreSQL's connections).
pub fn quick() -> ClusterConfig {
    ClusterConfig {
        heartbeat: Duration::from_millis(250),
        lease: Duration::from_millis(1000),
        pool_size: 4,
        ..ClusterConfig::default()
    }
}

/// An instance on `url` (no rate limit, bots without delay).
pub async fn instance(url: &str, ccfg: ClusterConfig) -> Server {
    let cfg = ServerConfig {
        db: url.to_string(),
        rate_limit: 0,
        rate_burst: 1,
        bot_delay: Duration::ZERO,
        ..ServerConfig::default()
    };
    let running = start_with(cfg, ccfg, "127.0.0.1:0")
        .await
        .expect("an instance on PostgreSQL");
    let base = format!("http://{}", running.addr);
    Server {
        running,
        dir: tempfile::tempdir().expect("temp dir"),
        base,
        http: reqwest::Client::builder()
            .pool_max_idle_per_host(64)
            .build()
            .expect("client"),
    }
}

/// A move without the fields a record may leave out or add (`declare`).
pub fn bare(mut m: Value) -> Value {
    if let Some(o) = m.as_object_mut() {
        o.remove("declare");
    }
    m
}

/// Checks a finished game's record with its engine (replays it).
pub fn verify_record(game: &str, rec: &Value) {
    match game {
        "classic" => {
            sequence_common::record::verify::<sequence_classic::Game>(rec)
                .unwrap_or_else(|e| panic!("classic record does not replay: {e}"));
        }
        _ => {
            sequence_common::record::verify::<sequence_stacks::Game>(rec)
                .unwrap_or_else(|e| panic!("stacks record does not replay: {e}"));
        }
    }
}
