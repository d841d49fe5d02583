//! Storage of passkeys and of their ceremonies (migration 0004). What the
//! columns mean: `migrations/*/0004_passkeys.sql`; the rules around them:
//! [`crate::accounts::passkeys`].

use super::{conflict, Db, DbError};
use sqlx::Row;

/// A stored passkey.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PasskeyRow {
    /// The credential id (hex).
    pub id: String,
    /// The account's id.
    pub user_id: i64,
    /// The account's name (for a sign-in).
    pub user_name: String,
    /// The account's WebAuthn user handle (a UUID).
    pub handle: String,
    /// The name the person gave it.
    pub name: String,
    /// webauthn-rs's `Passkey` (public key, counter) as JSON.
    pub passkey: String,
    /// When it was added (Unix ms).
    pub created_ms: i64,
    /// When it last signed in (Unix ms), if ever.
    pub used_ms: Option<i64>,
}

/// A ceremony taken by its finish.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CeremonyRow {
    /// `add` or `signin`.
    pub kind: String,
    /// The account adding a passkey (`None` for a sign-in).
    pub user_id: Option<i64>,
    /// The state as JSON ([`crate::accounts::passkeys::Ceremony`]).
    pub state: String,
    /// When it expires (Unix ms).
    pub expires_ms: i64,
}

const COLUMNS: &str =
    "p.id, p.user_id, u.name, p.handle, p.name, p.passkey, p.created_ms, p.used_ms";

fn passkey_row(r: &sqlx::any::AnyRow) -> Result<PasskeyRow, DbError> {
    Ok(row!(r => PasskeyRow { id, user_id, user_name, handle, name, passkey, created_ms, used_ms }))
}

impl Db {
    /// The passkeys of a live account, oldest first.
    ///
    /// # Errors
    /// The database error.
    pub async fn passkeys_of(&self, user_id: i64) -> Result<Vec<PasskeyRow>, DbError> {
        let sql = format!(
            "SELECT {COLUMNS} FROM passkeys p JOIN users u ON u.id = p.user_id \
             WHERE p.user_id = $1 AND u.deleted_ms IS NULL ORDER BY p.created_ms, p.id"
        );
        let rows = sqlx::query(&sql)
            .bind(user_id)
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(passkey_row).collect()
    }

    /// The passkey of credential id `id` (hex), if a live account has it.
    ///
    /// # Errors
    /// The database error.
    pub async fn passkey(&self, id: &str) -> Result<Option<PasskeyRow>, DbError> {
        let sql = format!(
            "SELECT {COLUMNS} FROM passkeys p JOIN users u ON u.id = p.user_id \
             WHERE p.id = $1 AND u.deleted_ms IS NULL"
        );
        let row = sqlx::query(&sql)
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| passkey_row(&r)).transpose()
    }

    /// Stores a new passkey of `user_id` (`row.user_name` is not stored).
    ///
    /// # Errors
    /// [`DbError::Conflict`] when the credential id is registered already
    /// (to any account), else the database error.
    pub async fn add_passkey(&self, row: &PasskeyRow) -> Result<(), DbError> {
        sqlx::query(
            "INSERT INTO passkeys (id, user_id, handle, name, passkey, created_ms) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(row.id.as_str())
        .bind(row.user_id)
        .bind(row.handle.as_str())
        .bind(row.name.as_str())
        .bind(row.passkey.as_str())
        .bind(row.created_ms)
        .execute(&self.pool)
        .await
        .map_err(conflict)?;
        Ok(())
    }

    /// Notes a sign-in with passkey `id` at `now`, with its updated JSON
    /// (counter) when it changed.
    ///
    /// # Errors
    /// The database error.
    pub async fn passkey_used(
        &self,
        id: &str,
        passkey: Option<&str>,
        now: i64,
    ) -> Result<(), DbError> {
        sqlx::query(
            "UPDATE passkeys SET used_ms = $1, passkey = COALESCE($2, passkey) WHERE id = $3",
        )
        .bind(now)
        .bind(passkey)
        .bind(id)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Removes passkey `id` of `user_id`; whether there was one.
    ///
    /// # Errors
    /// The database error.
    pub async fn remove_passkey(&self, user_id: i64, id: &str) -> Result<bool, DbError> {
        let done = sqlx::query("DELETE FROM passkeys WHERE user_id = $1 AND id = $2")
            .bind(user_id)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() > 0)
    }

    /// Stores a ceremony begun (`id` its token), and removes those that
    /// expired before `now`.
    ///
    /// # Errors
    /// The database error.
    pub async fn begin_ceremony(
        &self,
        id: &str,
        row: &CeremonyRow,
        now: i64,
    ) -> Result<(), DbError> {
        sqlx::query("DELETE FROM passkey_ceremonies WHERE expires_ms < $1")
            .bind(now)
            .execute(&self.pool)
            .await?;
        sqlx::query(
            "INSERT INTO passkey_ceremonies (id, kind, user_id, state, expires_ms) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(id)
        .bind(row.kind.as_str())
        .bind(row.user_id)
        .bind(row.state.as_str())
        .bind(row.expires_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Takes (removes and answers) ceremony `id`: each is finished at
    /// most once, on whichever instance.
    ///
    /// # Errors
    /// The database error.
    pub async fn take_ceremony(&self, id: &str) -> Result<Option<CeremonyRow>, DbError> {
        let row = sqlx::query(
            "DELETE FROM passkey_ceremonies WHERE id = $1 \
             RETURNING kind, user_id, state, expires_ms",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        let Some(r) = row else { return Ok(None) };
        Ok(Some(
            row!(r => CeremonyRow { kind, user_id, state, expires_ms }),
        ))
    }
}
