//! Storage of accounts (migration 0002): users, sessions, failed
//! sign-ins and the seats that belong to an account. What the columns
//! mean: `migrations/0002_accounts.sql`; the rules around them (names,
//! passwords, delays): [`crate::accounts`].

use super::{conflict, Db, DbError};
use sqlx::Row;

/// A user found by name or session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserRow {
    /// The account's id.
    pub id: i64,
    /// Its name as chosen.
    pub name: String,
    /// Its password's Argon2id hash (PHC string).
    pub password: String,
}

/// A live session: its account and CSRF token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionRow {
    /// The account's id.
    pub user_id: i64,
    /// The account's name.
    pub name: String,
    /// The token every change this session authorises must carry.
    pub csrf: String,
    /// When the session was last seen (Unix ms).
    pub seen_ms: i64,
}

/// Failed sign-ins of one throttle key: `(failures, last failure Unix ms)`.
pub type Failures = (i64, i64);

impl Db {
    /// Creates an account; its id.
    ///
    /// # Errors
    /// [`DbError::Conflict`] when the name's key is taken, else the
    /// database error.
    pub async fn create_user(
        &self,
        name: &str,
        key: &str,
        password: &str,
        now: i64,
    ) -> Result<i64, DbError> {
        let row = sqlx::query(
            "INSERT INTO users (name, name_key, password, created_ms) VALUES ($1, $2, $3, $4) \
             RETURNING id",
        )
        .bind(name)
        .bind(key)
        .bind(password)
        .bind(now)
        .fetch_one(&self.pool)
        .await
        .map_err(conflict)?;
        Ok(row.try_get(0)?)
    }

    /// The live account whose name folds to `key`.
    ///
    /// # Errors
    /// The database error.
    pub async fn user_by_key(&self, key: &str) -> Result<Option<UserRow>, DbError> {
        let row = sqlx::query(
            "SELECT id, name, password FROM users WHERE name_key = $1 AND deleted_ms IS NULL",
        )
        .bind(key)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| user_row(&r)).transpose()
    }

    /// The live account of id `id`.
    ///
    /// # Errors
    /// The database error.
    pub async fn user_by_id(&self, id: i64) -> Result<Option<UserRow>, DbError> {
        let row = sqlx::query(
            "SELECT id, name, password FROM users WHERE id = $1 AND deleted_ms IS NULL",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| user_row(&r)).transpose()
    }

    /// Replaces an account's password hash.
    ///
    /// # Errors
    /// The database error.
    pub async fn set_password(&self, id: i64, password: &str) -> Result<(), DbError> {
        sqlx::query("UPDATE users SET password = $1 WHERE id = $2")
            .bind(password)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Deletes an account in one transaction: its name, name key and
    /// password are emptied (the name is free again), its sessions,
    /// ratings, learning progress and passkeys removed; its games stay,
    /// shown as played by "deleted player".
    ///
    /// # Errors
    /// The database error.
    pub async fn delete_user(&self, id: i64, now: i64) -> Result<(), DbError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "UPDATE users SET name = NULL, name_key = NULL, password = NULL, deleted_ms = $1 \
             WHERE id = $2",
        )
        .bind(now)
        .bind(id)
        .execute(&mut *tx)
        .await?;
        for sql in [
            "DELETE FROM sessions WHERE user_id = $1",
            "DELETE FROM ratings WHERE user_id = $1",
            "DELETE FROM puzzles_solved WHERE user_id = $1",
            "DELETE FROM tutorial_progress WHERE user_id = $1",
            "DELETE FROM passkeys WHERE user_id = $1",
            "DELETE FROM passkey_ceremonies WHERE user_id = $1",
        ] {
            sqlx::query(sql).bind(id).execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Stores a new session of `user_id`.
    ///
    /// # Errors
    /// The database error.
    pub async fn create_session(
        &self,
        token_hash: &str,
        user_id: i64,
        csrf: &str,
        now: i64,
    ) -> Result<(), DbError> {
        sqlx::query(
            "INSERT INTO sessions (token_hash, user_id, csrf, created_ms, seen_ms) \
             VALUES ($1, $2, $3, $4, $4)",
        )
        .bind(token_hash)
        .bind(user_id)
        .bind(csrf)
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The session of a cookie token's hash, with its live account.
    ///
    /// # Errors
    /// The database error.
    pub async fn session(&self, token_hash: &str) -> Result<Option<SessionRow>, DbError> {
        let row = sqlx::query(
            "SELECT s.user_id, u.name, s.csrf, s.seen_ms FROM sessions s \
             JOIN users u ON u.id = s.user_id \
             WHERE s.token_hash = $1 AND u.deleted_ms IS NULL",
        )
        .bind(token_hash)
        .fetch_optional(&self.pool)
        .await?;
        let Some(r) = row else { return Ok(None) };
        Ok(Some(row!(r => SessionRow { user_id, name, csrf, seen_ms })))
    }

    /// Notes that a session was used at `now`.
    ///
    /// # Errors
    /// The database error.
    pub async fn touch_session(&self, token_hash: &str, now: i64) -> Result<(), DbError> {
        sqlx::query("UPDATE sessions SET seen_ms = $1 WHERE token_hash = $2")
            .bind(now)
            .bind(token_hash)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Ends one session.
    ///
    /// # Errors
    /// The database error.
    pub async fn delete_session(&self, token_hash: &str) -> Result<(), DbError> {
        sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
            .bind(token_hash)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Ends every session of an account but `keep` (a token hash; `None`:
    /// all of them); how many ended.
    ///
    /// # Errors
    /// The database error.
    pub async fn delete_sessions(&self, user_id: i64, keep: Option<&str>) -> Result<u64, DbError> {
        let done = sqlx::query("DELETE FROM sessions WHERE user_id = $1 AND token_hash <> $2")
            .bind(user_id)
            .bind(keep.unwrap_or(""))
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }

    /// Failed sign-ins of each of `keys` (a key with none is left out).
    ///
    /// # Errors
    /// The database error.
    pub async fn failures(&self, keys: &[String]) -> Result<Vec<(String, Failures)>, DbError> {
        let marks: Vec<String> = (1..=keys.len()).map(|i| format!("${i}")).collect();
        let sql = format!(
            "SELECT key, failures, last_ms FROM sign_in_failures WHERE key IN ({})",
            marks.join(", ")
        );
        let mut q = sqlx::query(&sql);
        for k in keys {
            q = q.bind(k.as_str());
        }
        let rows = q.fetch_all(&self.pool).await?;
        rows.iter()
            .map(|r| Ok((r.try_get(0)?, (r.try_get(1)?, r.try_get(2)?))))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(DbError::from)
    }

    /// Counts one more failed sign-in for each of `keys` at `now`; a key
    /// whose last failure is older than `forget_before` starts again at 1.
    ///
    /// # Errors
    /// The database error.
    pub async fn add_failure(
        &self,
        keys: &[String],
        now: i64,
        forget_before: i64,
    ) -> Result<(), DbError> {
        let mut tx = self.pool.begin().await?;
        for k in keys {
            sqlx::query(
                "INSERT INTO sign_in_failures (key, failures, last_ms) VALUES ($1, 1, $2) \
                 ON CONFLICT (key) DO UPDATE SET failures = CASE \
                 WHEN sign_in_failures.last_ms < $3 THEN 1 \
                 ELSE sign_in_failures.failures + 1 END, last_ms = $2",
            )
            .bind(k.as_str())
            .bind(now)
            .bind(forget_before)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Forgets the failed sign-ins of `keys`, and every key whose last
    /// failure is older than `forget_before`.
    ///
    /// # Errors
    /// The database error.
    pub async fn clear_failures(&self, keys: &[String], forget_before: i64) -> Result<(), DbError> {
        for k in keys {
            sqlx::query("DELETE FROM sign_in_failures WHERE key = $1")
                .bind(k.as_str())
                .execute(&self.pool)
                .await?;
        }
        sqlx::query("DELETE FROM sign_in_failures WHERE last_ms < $1")
            .bind(forget_before)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Gives the seat of table `table_id` whose token hashes to
    /// `token_hash` to an account, and the finished games played with
    /// that token; whether anything was claimed. A seat that belongs to
    /// an account already stays its.
    ///
    /// # Errors
    /// The database error.
    pub async fn own_seat(
        &self,
        table_id: &str,
        token_hash: &str,
        user_id: i64,
        seat_held: bool,
    ) -> Result<bool, DbError> {
        let mut tx = self.pool.begin().await?;
        let mut claimed = 0;
        if seat_held {
            claimed += sqlx::query(
                "INSERT INTO seat_owners (table_id, token_hash, user_id) VALUES ($1, $2, $3) \
                 ON CONFLICT (table_id, token_hash) DO NOTHING",
            )
            .bind(table_id)
            .bind(token_hash)
            .bind(user_id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        }
        claimed += sqlx::query(
            "UPDATE game_seats SET user_id = $1 \
             WHERE table_id = $2 AND token_hash = $3 AND user_id IS NULL",
        )
        .bind(user_id)
        .bind(table_id)
        .bind(token_hash)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        tx.commit().await?;
        Ok(claimed > 0)
    }
}

/// `(id, name, password)` of a live user.
fn user_row(r: &sqlx::any::AnyRow) -> Result<UserRow, DbError> {
    Ok(row!(r => UserRow { id, name, password }))
}
