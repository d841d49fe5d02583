//! PostgreSQL for the tests that need one: the tests' server
//! (`SEQUENCE_TEST_POSTGRES_URL`, which scripts/test.sh sets) and two
//! server instances sharing a database of one test's own.

use super::{server_on, Server};

/// The URL of the tests' PostgreSQL server, or `None` (the test is left
/// out, saying so with `what`) in quick mode (`SEQUENCE_TEST_QUICK`).
///
/// # Panics
/// Without `SEQUENCE_TEST_POSTGRES_URL` outside quick mode: a test that
/// cannot run fails (scripts/test.sh sets it).
pub fn url(what: &str) -> Option<String> {
    let Ok(url) = std::env::var("SEQUENCE_TEST_POSTGRES_URL") else {
        assert!(
            std::env::var_os("SEQUENCE_TEST_QUICK").is_some(),
            "SEQUENCE_TEST_POSTGRES_URL is not set: scripts/test.sh starts a PostgreSQL of its own and sets it (scripts/test.sh --quick leaves this test out)"
        );
        eprintln!("quick mode: PostgreSQL {what} left out");
        return None;
    };
    Some(url)
}

/// Two server instances (the tests' settings, over temporary folders)
/// sharing the PostgreSQL database `name`, made afresh.
pub struct Pair {
    pub one: Server,
    pub two: Server,
    /// The tests' PostgreSQL server (to drop the database from).
    url: String,
    name: String,
}

impl Pair {
    /// Two instances on a fresh database `name`, or `None` in quick mode
    /// (see [`url`]; `what` names the test left out).
    pub async fn start(name: &str, what: &str) -> Option<Pair> {
        let url = url(what)?;
        let db = sequence_server::db::create_database(&url, name)
            .await
            .expect("create a database");
        let one = server_on(tempfile::tempdir().expect("dir"), db.clone(), 0).await;
        let two = server_on(tempfile::tempdir().expect("dir"), db, 0).await;
        Some(Pair {
            one,
            two,
            url,
            name: name.to_string(),
        })
    }

    /// Stops both instances, closes their pools and drops the database.
    pub async fn stop(self) {
        self.one.running.shutdown().await;
        self.two.running.shutdown().await;
        self.one.running.app.db.close().await;
        self.two.running.app.db.close().await;
        sequence_server::db::drop_database(&self.url, &self.name)
            .await
            .expect("drop the database");
    }
}
