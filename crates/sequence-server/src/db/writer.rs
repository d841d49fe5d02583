//! The append writer: group commit of every append waiting, one
//! transaction for many moves ([`super::Db::append`]).

use super::{conflict, event_rows, AnyQuery, DbError, CHANNEL};
use sqlx::{AnyConnection, AnyPool};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;
use tokio::sync::{mpsc, oneshot};

/// Most appends written in one transaction.
pub(super) const MAX_GROUP: usize = 512;

/// An append waiting for the writer ([`Db::append`]).
pub(super) struct Pending {
    pub(super) id: String,
    pub(super) first_seq: i64,
    pub(super) events: Vec<String>,
    pub(super) status: String,
    pub(super) clock_ms: i64,
    pub(super) timed_out: i64,
    /// The game the append ends, written with it.
    pub(super) finish: Option<crate::results::GameEnd>,
    /// The notification (PostgreSQL), sent when the append commits.
    pub(super) payload: String,
    pub(super) reply: oneshot::Sender<Result<(), DbError>>,
}

/// Counts of the append writer.
#[derive(Debug, Default)]
pub(super) struct GroupCounts {
    pub(super) commits: AtomicU64,
    pub(super) appends: AtomicU64,
}

/// The append writer: takes every append waiting (up to [`MAX_GROUP`],
/// one per table: a second one of a table waits for the next group),
/// writes them in one transaction in table order, and answers each after
/// the commit. When the transaction fails for another reason than the
/// database being unavailable (a deadlock with another instance's
/// takeover, an unexpected error), each append is written again in a
/// transaction of its own, so that one cannot fail the others.
pub(super) async fn write_appends(
    pool: AnyPool,
    pg: bool,
    mut queue: mpsc::UnboundedReceiver<Pending>,
    counts: Arc<GroupCounts>,
) {
    let mut group: Vec<Pending> = Vec::with_capacity(MAX_GROUP);
    // appends of a table that already has one in the group: the next group
    let mut later: Vec<Pending> = Vec::new();
    loop {
        group.append(&mut later);
        if group.is_empty() {
            if queue.recv_many(&mut group, MAX_GROUP).await == 0 {
                return;
            }
        } else {
            while group.len() < MAX_GROUP {
                match queue.try_recv() {
                    Ok(p) => group.push(p),
                    Err(_) => break,
                }
            }
        }
        // stable: two appends of one table keep their order
        group.sort_by(|a, b| a.id.cmp(&b.id));
        let mut i = 1;
        while i < group.len() {
            if group[i].id == group[i - 1].id {
                later.push(group.remove(i));
            } else {
                i += 1;
            }
        }
        let written = write_group(&pool, pg, &group).await;
        let answers: Vec<Result<(), DbError>> = match written {
            Ok(done) => {
                counts.commits.fetch_add(1, Ordering::Relaxed);
                counts
                    .appends
                    .fetch_add(group.len() as u64, Ordering::Relaxed);
                done.into_iter().map(appended).collect()
            }
            Err(DbError::Unavailable(m)) => group
                .iter()
                .map(|_| Err(DbError::Unavailable(m.clone())))
                .collect(),
            Err(e) if group.len() == 1 => vec![Err(e)],
            Err(e) => {
                tracing::debug!(
                    appends = group.len(),
                    "a group commit failed ({e}); writing its appends one by one"
                );
                let mut out = Vec::with_capacity(group.len());
                for p in &group {
                    let one = write_group(&pool, pg, std::slice::from_ref(p)).await;
                    out.push(one.and_then(|d| appended(d[0])));
                }
                out
            }
        };
        for (p, answer) in group.drain(..).zip(answers) {
            // a caller that stopped waiting: its table catches up later
            let _ = p.reply.send(answer);
        }
    }
}

/// `sql` (an update of the table row as in [`append_in`]) with `p`'s
/// values bound to `$1`–`$6`.
fn bind_update<'q>(sql: &'q str, p: &'q Pending) -> AnyQuery<'q> {
    sqlx::query(sql)
        .bind(p.first_seq + p.events.len() as i64)
        .bind(p.status.as_str())
        .bind(p.clock_ms)
        .bind(p.timed_out)
        .bind(p.id.as_str())
        .bind(p.first_seq)
}

/// `q` with `(seq, data)` of each of `p`'s events bound next.
fn bind_events<'q>(mut q: AnyQuery<'q>, p: &'q Pending) -> AnyQuery<'q> {
    for (i, e) in p.events.iter().enumerate() {
        q = q.bind(p.first_seq + i as i64).bind(e.as_str());
    }
    q
}

/// `Ok` for an append written, [`DbError::Conflict`] for one refused.
fn appended(written: bool) -> Result<(), DbError> {
    if written {
        Ok(())
    } else {
        Err(DbError::Conflict)
    }
}

/// Writes `group` in one transaction: whether each append was written
/// (`false`: its table's next event was no longer its `first_seq`).
/// Its batch size, wait for a connection and duration go to the
/// metrics.
async fn write_group(pool: &AnyPool, pg: bool, group: &[Pending]) -> Result<Vec<bool>, DbError> {
    let start = Instant::now();
    let mut tx = pool.begin().await?;
    let waited = start.elapsed();
    let mut done = Vec::with_capacity(group.len());
    for p in group {
        let written = append_in(&mut tx, pg, p).await?;
        if let (true, Some(end)) = (written, &p.finish) {
            super::games::record_game(&mut tx, pg, end).await?;
        }
        done.push(written);
    }
    tx.commit().await?;
    crate::telemetry::group_commit(group.len(), waited, start.elapsed());
    Ok(done)
}

/// Writes one append inside a transaction: the table row is updated only
/// if its `next_seq` is still the append's `first_seq` (a racing writer
/// holds the row's lock until it commits, and the check is made again on
/// the row it wrote), and only then are the events inserted. PostgreSQL
/// does both, and queues the notification, in one statement; SQLite (one
/// instance, in-process) in two.
async fn append_in(conn: &mut AnyConnection, pg: bool, p: &Pending) -> Result<bool, DbError> {
    let n = p.events.len() as i64;
    let update = "UPDATE game_tables SET next_seq = $1, status = $2, clock_ms = $3, \
                  timed_out = $4 WHERE id = $5 AND next_seq = $6";
    if pg {
        let sql = format!(
            "WITH u AS ({update} RETURNING id, pg_notify($7, $8)) \
             INSERT INTO events (table_id, seq, data) SELECT u.id, v.seq, v.data \
             FROM u, (VALUES {}) AS v(seq, data)",
            value_rows(9, p.events.len())
        );
        let q = bind_update(&sql, p).bind(CHANNEL).bind(p.payload.as_str());
        let inserted = bind_events(q, p)
            .execute(&mut *conn)
            .await
            .map_err(conflict)?
            .rows_affected();
        return Ok(inserted == n as u64);
    }
    if bind_update(update, p)
        .execute(&mut *conn)
        .await?
        .rows_affected()
        == 0
    {
        return Ok(false);
    }
    let sql = format!(
        "INSERT INTO events (table_id, seq, data) VALUES {}",
        event_rows(p.events.len())
    );
    bind_events(sqlx::query(&sql).bind(p.id.as_str()), p)
        .execute(&mut *conn)
        .await
        .map_err(conflict)?;
    Ok(true)
}

/// `($FROM, $FROM+1), ($FROM+2, $FROM+3), …`: `n` rows of two values.
fn value_rows(from: usize, n: usize) -> String {
    (0..n)
        .map(|i| format!("(${}, ${})", from + 2 * i, from + 1 + 2 * i))
        .collect::<Vec<_>>()
        .join(", ")
}
