//! What server instances share through the database: instances and
//! their leases, table ownership, the chat, who is connected.

use super::{conflict, notify_in, read_rows, text0, Db, DbError, PresenceRow, CHANNEL, CHAT_KEPT};
use crate::notes::Note;
use sqlx::Row;

impl Db {
    // --- instances and table ownership -------------------------------

    /// The database's clock in Unix ms, as SQL (every instance's leases
    /// are timed by the one clock of the database).
    fn now_sql(&self) -> &'static str {
        if self.pg {
            "(EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT"
        } else {
            "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)"
        }
    }

    /// The registered instances (`sequence admin leases`): id, pid, host,
    /// start, the age of its last heartbeat in ms (by the database's
    /// clock) and how many unfinished tables it owns, by id.
    ///
    /// # Errors
    /// The database error.
    pub async fn instances(&self) -> Result<Vec<InstanceRow>, DbError> {
        let now = self.now_sql();
        let rows = sqlx::query(&format!(
            "SELECT i.id, i.pid, i.host, i.started_ms, {now} - i.heartbeat_ms, \
             (SELECT count(*) FROM game_tables g WHERE g.owner = i.id \
              AND g.status IN ('waiting', 'playing')) \
             FROM instances i ORDER BY i.id"
        ))
        .fetch_all(&self.pool)
        .await?;
        let mut out = Vec::with_capacity(rows.len());
        for r in rows {
            out.push(
                row!(r => InstanceRow { id, pid, host, started_ms, heartbeat_age_ms, tables }),
            );
        }
        Ok(out)
    }

    /// Registers (or renews) instance `me`, running on `host`.
    ///
    /// # Errors
    /// The database error.
    pub async fn register(&self, me: &str, host: &str) -> Result<(), DbError> {
        let now = self.now_sql();
        sqlx::query(&format!(
            "INSERT INTO instances (id, pid, host, started_ms, heartbeat_ms) \
             VALUES ($1, $2, $3, {now}, {now}) \
             ON CONFLICT (id) DO UPDATE SET heartbeat_ms = excluded.heartbeat_ms"
        ))
        .bind(me)
        .bind(std::process::id() as i64)
        .bind(host)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Renews instance `me`'s lease and lists the other instances whose
    /// heartbeat is more than `lease_ms` old (dead: take their tables
    /// over), in one statement on PostgreSQL — the one query an idle
    /// instance makes per heartbeat. `None` when `me`'s row is gone (other
    /// instances took it for dead and took its tables over).
    ///
    /// # Errors
    /// The database error.
    pub async fn heartbeat(&self, me: &str, lease_ms: i64) -> Result<Option<Vec<String>>, DbError> {
        let now = self.now_sql();
        let renew = format!("UPDATE instances SET heartbeat_ms = {now} WHERE id = $1");
        if !self.pg {
            let n = sqlx::query(&renew)
                .bind(me)
                .execute(&self.pool)
                .await?
                .rows_affected();
            return if n == 1 {
                Ok(Some(self.expired_instances(me, lease_ms).await?))
            } else {
                Ok(None)
            };
        }
        let row = sqlx::query(&format!(
            "WITH hb AS ({renew} RETURNING id) SELECT (SELECT COUNT(*) FROM hb), \
             (SELECT string_agg(id, ' ') FROM instances WHERE heartbeat_ms < {now} - $2 \
             AND id <> $1)"
        ))
        .bind(me)
        .bind(lease_ms)
        .fetch_one(&self.pool)
        .await?;
        if row.try_get::<i64, _>(0)? != 1 {
            return Ok(None);
        }
        let dead: Option<String> = row.try_get(1)?;
        Ok(Some(
            dead.unwrap_or_default()
                .split_whitespace()
                .map(str::to_string)
                .collect(),
        ))
    }

    /// Instances but `me` whose last heartbeat is more than `lease_ms` old.
    ///
    /// # Errors
    /// The database error.
    pub async fn expired_instances(&self, me: &str, lease_ms: i64) -> Result<Vec<String>, DbError> {
        let rows = self
            .fetch(
                sqlx::query(&format!(
                    "SELECT id FROM instances WHERE heartbeat_ms < {} - $1 AND id <> $2",
                    self.now_sql()
                ))
                .bind(lease_ms)
                .bind(me),
            )
            .await?;
        read_rows(&rows, text0)
    }

    /// Takes over at most `limit` tables of the dead instance `dead` for
    /// `me`: their ids and whether they are unfinished (those have bots or
    /// clocks to run). Instances taking over together share the tables
    /// out: a row another is changing is waited for and then left alone if
    /// it has a new owner. Call it until it returns none.
    ///
    /// # Errors
    /// The database error.
    pub async fn take_over(
        &self,
        dead: &str,
        me: &str,
        limit: i64,
    ) -> Result<Vec<(String, bool)>, DbError> {
        // the outer `owner = $2` is checked again on a row that was locked
        // by another writer (a move being stored, another instance taking
        // it over): a row is never skipped, and never taken twice
        let sql = "UPDATE game_tables SET owner = $1 WHERE owner = $2 AND id IN \
                   (SELECT id FROM game_tables WHERE owner = $2 LIMIT $3) RETURNING id, status";
        let rows = self
            .fetch(sqlx::query(sql).bind(me).bind(dead).bind(limit))
            .await?;
        read_rows(&rows, |r| {
            Ok((text0(r)?, r.try_get::<String, _>(1)? != "over"))
        })
    }

    /// Forgets instance `gone` once its tables are taken over
    /// ([`Db::take_over`] until none is left): its presence rows and its
    /// row go. Returns the tables where it held WebSockets (their views
    /// change).
    ///
    /// # Errors
    /// The database error.
    pub async fn forget_instance(&self, gone: &str) -> Result<Vec<String>, DbError> {
        let mut tx = self.pool.begin().await?;
        let rows = sqlx::query("SELECT DISTINCT table_id FROM presence WHERE instance = $1")
            .bind(gone)
            .fetch_all(&mut *tx)
            .await?;
        let tables = read_rows(&rows, text0)?;
        sqlx::query("DELETE FROM presence WHERE instance = $1")
            .bind(gone)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM instances WHERE id = $1")
            .bind(gone)
            .execute(&mut *tx)
            .await?;
        if self.pg {
            let note = Note::Gone {
                instance: gone.to_string(),
            };
            notify_in(&mut tx, &note.payload()).await?;
        }
        tx.commit().await?;
        Ok(tables)
    }

    /// Claims table `id` for `me` if it has no owner or its owner's
    /// heartbeat is more than `lease_ms` old; whether `me` owns it now.
    ///
    /// # Errors
    /// The database error.
    pub async fn claim(&self, id: &str, me: &str, lease_ms: i64) -> Result<bool, DbError> {
        let row = sqlx::query(&format!(
            "UPDATE game_tables SET owner = $1 WHERE id = $2 AND (owner IS NULL OR owner = $1 \
             OR owner NOT IN (SELECT id FROM instances WHERE heartbeat_ms >= {} - $3)) \
             RETURNING id",
            self.now_sql()
        ))
        .bind(me)
        .bind(id)
        .bind(lease_ms)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.is_some())
    }

    /// Tables owned by `me`.
    ///
    /// # Errors
    /// The database error.
    pub async fn owned_by(&self, me: &str) -> Result<Vec<String>, DbError> {
        let rows = self
            .fetch(sqlx::query("SELECT id FROM game_tables WHERE owner = $1").bind(me))
            .await?;
        read_rows(&rows, text0)
    }

    /// A stopping instance lets go of its tables (others take them at
    /// once) and of its presence rows.
    ///
    /// # Errors
    /// The database error.
    pub async fn release(&self, me: &str) -> Result<(), DbError> {
        sqlx::query("UPDATE instances SET heartbeat_ms = 0 WHERE id = $1")
            .bind(me)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    // --- turn clock, chat, presence (shared between instances) ---------

    /// Stores a chat line (JSON) of table `id` under the table's next chat
    /// number, keeps the last [`CHAT_KEPT`], and tells every instance (the
    /// one sending it included: each shows lines in this order). Returns
    /// the line's number.
    ///
    /// # Errors
    /// The database error; [`DbError::Conflict`] for no such table.
    pub async fn add_chat(&self, id: &str, line: &str) -> Result<i64, DbError> {
        let mut tx = self.pool.begin().await?;
        let row = sqlx::query(
            "UPDATE game_tables SET chat_seq = chat_seq + 1 WHERE id = $1 RETURNING chat_seq",
        )
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(row) = row else {
            tx.rollback().await?;
            return Err(DbError::Conflict);
        };
        let seq: i64 = row.try_get(0)?;
        sqlx::query("INSERT INTO chat (table_id, seq, line) VALUES ($1, $2, $3)")
            .bind(id)
            .bind(seq)
            .bind(line)
            .execute(&mut *tx)
            .await
            .map_err(conflict)?;
        sqlx::query("DELETE FROM chat WHERE table_id = $1 AND seq <= $2")
            .bind(id)
            .bind(seq - CHAT_KEPT)
            .execute(&mut *tx)
            .await?;
        if self.pg {
            notify_in(&mut tx, &Note::chat(id, seq, line).payload()).await?;
        }
        tx.commit().await?;
        Ok(seq)
    }

    /// The chat lines of table `id` numbered from `from`, in order.
    ///
    /// # Errors
    /// The database error.
    pub async fn chat_since(&self, id: &str, from: i64) -> Result<Vec<(i64, String)>, DbError> {
        self.numbered_since(
            "SELECT seq, line FROM chat WHERE table_id = $1 AND seq >= $2 ORDER BY seq",
            id,
            from,
        )
        .await
    }

    /// Sets how many WebSockets instance `me` holds for each seat of
    /// `seats` (`(table, seat, conns, version)`: `version` orders the
    /// updates of one instance), all in one transaction, and tells the
    /// other instances.
    ///
    /// # Errors
    /// The database error.
    pub async fn set_presence(&self, me: &str, seats: &[PresenceRow]) -> Result<(), DbError> {
        if seats.is_empty() {
            return Ok(());
        }
        let mut tx = self.pool.begin().await?;
        for (id, seat, conns, version) in seats {
            let sql = if *conns == 0 {
                "DELETE FROM presence WHERE table_id = $1 AND instance = $2 AND seat = $3 \
                 AND $4 >= 0"
            } else {
                "INSERT INTO presence (table_id, instance, seat, conns) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (table_id, instance, seat) DO UPDATE SET conns = excluded.conns"
            };
            sqlx::query(sql)
                .bind(id.as_str())
                .bind(me)
                .bind(*seat as i64)
                .bind(*conns as i64)
                .execute(&mut *tx)
                .await?;
            if self.pg {
                let note = Note::Presence {
                    id: id.clone(),
                    instance: me.to_string(),
                    seat: *seat,
                    conns: *conns,
                    version: *version,
                };
                notify_in(&mut tx, &note.payload()).await?;
            }
        }
        tx.commit().await?;
        Ok(())
    }

    /// WebSockets per seat held by other instances than `me` for table
    /// `id`: `(instance, seat, conns)`.
    ///
    /// # Errors
    /// The database error.
    pub async fn presence(&self, id: &str, me: &str) -> Result<Vec<(String, u8, u32)>, DbError> {
        let rows = self.fetch(sqlx::query(
            "SELECT instance, seat, conns FROM presence WHERE table_id = $1 AND instance <> $2",
        ).bind(id).bind(me)).await?;
        read_rows(&rows, |r| {
            Ok((
                text0(r)?,
                r.try_get::<i64, _>(1)?.clamp(0, 255) as u8,
                r.try_get::<i64, _>(2)?.clamp(0, u32::MAX as i64) as u32,
            ))
        })
    }

    /// Sends a notification on [`CHANNEL`] (PostgreSQL; nothing on SQLite).
    ///
    /// # Errors
    /// The database error.
    pub async fn notify(&self, payload: &str) -> Result<(), DbError> {
        if self.pg {
            sqlx::query("SELECT 1 FROM (SELECT pg_notify($1, $2)) AS n")
                .bind(CHANNEL)
                .bind(payload)
                .execute(&self.pool)
                .await?;
        }
        Ok(())
    }

    /// Queries run on this handle's pool (for tests and figures): one
    /// `SELECT 1`, to tell whether the database answers.
    ///
    /// # Errors
    /// The database error.
    pub async fn ping(&self) -> Result<(), DbError> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }
}

/// A registered server instance ([`Db::instances`]).
#[derive(Debug, Clone, serde::Serialize)]
pub struct InstanceRow {
    /// Its id.
    pub id: String,
    /// Its process id.
    pub pid: i64,
    /// Its machine.
    pub host: String,
    /// When it registered (Unix ms).
    pub started_ms: i64,
    /// Milliseconds since its last heartbeat.
    pub heartbeat_age_ms: i64,
    /// Unfinished tables it owns.
    pub tables: i64,
}
