//! Storage of an account's learning progress (migration 0003): the
//! puzzles it solved and the furthest step of each tutorial. Writes only
//! ever add: a solved puzzle stays solved, a step only goes up and a
//! finished tutorial stays finished, so merging a browser's progress in
//! any order, on any instance, loses nothing. The rules around it:
//! [`crate::learn`].

use super::{Db, DbError};
use sqlx::Row;

/// How far an account went in one tutorial.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TutorialRow {
    /// The game (`classic`, `stacks`).
    pub game: String,
    /// The furthest step reached, 1 for the first.
    pub step: i64,
    /// Whether the tutorial was finished at least once.
    pub done: bool,
}

impl Db {
    /// Adds solved puzzles of `game` to account `user` (ids it already
    /// has are kept as they were).
    ///
    /// # Errors
    /// The database error; nothing is added then.
    pub async fn add_solved(
        &self,
        user: i64,
        game: &str,
        ids: &[String],
        now: i64,
    ) -> Result<(), DbError> {
        if ids.is_empty() {
            return Ok(());
        }
        let mut tx = self.pool.begin().await?;
        for id in ids {
            sqlx::query(
                "INSERT INTO puzzles_solved (user_id, game, puzzle_id, solved_ms) \
                 VALUES ($1, $2, $3, $4) ON CONFLICT (user_id, game, puzzle_id) DO NOTHING",
            )
            .bind(user)
            .bind(game)
            .bind(id.as_str())
            .bind(now)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// The solved puzzles of account `user`: `(game, puzzle id)` in order.
    ///
    /// # Errors
    /// The database error.
    pub async fn solved_of(&self, user: i64) -> Result<Vec<(String, String)>, DbError> {
        let rows = sqlx::query(
            "SELECT game, puzzle_id FROM puzzles_solved WHERE user_id = $1 \
             ORDER BY game, puzzle_id",
        )
        .bind(user)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
            .collect()
    }

    /// Records that account `user` reached `step` of `game`'s tutorial
    /// (and finished it when `done`): the stored step becomes the larger
    /// of the two, `done` stays once set.
    ///
    /// # Errors
    /// The database error.
    pub async fn reach_tutorial_step(
        &self,
        user: i64,
        game: &str,
        step: i64,
        done: bool,
        now: i64,
    ) -> Result<(), DbError> {
        sqlx::query(
            "INSERT INTO tutorial_progress (user_id, game, step, done, updated_ms) \
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT (user_id, game) DO UPDATE SET \
             step = CASE WHEN excluded.step > tutorial_progress.step \
                    THEN excluded.step ELSE tutorial_progress.step END, \
             done = CASE WHEN excluded.done > tutorial_progress.done \
                    THEN excluded.done ELSE tutorial_progress.done END, \
             updated_ms = excluded.updated_ms",
        )
        .bind(user)
        .bind(game)
        .bind(step)
        .bind(i64::from(done))
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The tutorials account `user` began, by game.
    ///
    /// # Errors
    /// The database error.
    pub async fn tutorials_of(&self, user: i64) -> Result<Vec<TutorialRow>, DbError> {
        let rows = sqlx::query(
            "SELECT game, step, done FROM tutorial_progress WHERE user_id = $1 ORDER BY game",
        )
        .bind(user)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(TutorialRow {
                    game: r.try_get(0)?,
                    step: r.try_get(1)?,
                    done: r.try_get::<i64, _>(2)? != 0,
                })
            })
            .collect()
    }
}
