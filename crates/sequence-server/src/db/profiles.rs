//! Reading what accounts played: public users, ratings, finished games
//! (filtered), the seats of those games, head-to-head counts and the
//! leaderboards. Only public data: names, results, ratings and dates.

use super::{Db, DbError};
use crate::accounts::DELETED_NAME;
use crate::ratings::Rating;
use sqlx::any::AnyRow;
use sqlx::Row;

/// An account as profiles show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicUser {
    /// Its id.
    pub id: i64,
    /// Its name.
    pub name: String,
    /// When it was made (Unix ms).
    pub created_ms: i64,
}

/// A finished game from one account's seat.
#[derive(Debug, Clone, PartialEq)]
pub struct SeatGame {
    /// The table.
    pub table_id: String,
    /// The game's number at the table.
    pub game_no: i64,
    /// Its rating kind's name.
    pub kind: String,
    /// `win`, `loss` or `draw`.
    pub result: String,
    /// When it ended (Unix ms).
    pub ended_ms: i64,
    /// Whether it was rated.
    pub rated: bool,
    /// The account's seat.
    pub seat: i64,
    /// The account's side.
    pub side: i64,
    /// The account left it.
    pub left: bool,
    /// Its shown rating before and after (rated games).
    pub rating: Option<(f64, f64)>,
    /// Moves made.
    pub moves: i64,
}

/// A seat of a finished game, for naming opponents and partners.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameSeat {
    /// The table.
    pub table_id: String,
    /// The game's number.
    pub game_no: i64,
    /// The seat.
    pub seat: i64,
    /// Its side.
    pub side: i64,
    /// The name to show: the account's, "deleted player", or the name
    /// played under (guests, bots).
    pub name: String,
    /// The account's name, when an account played it (for a link).
    pub account: Option<String>,
    /// A bot played it.
    pub bot: bool,
    /// An account played it that was deleted since (`name` is
    /// [`DELETED_NAME`]; pages say it in their language).
    pub deleted: bool,
    /// Its result.
    pub result: String,
}

/// Which of an account's games to list ([`Db::games_of`]).
#[derive(Debug, Clone, Default)]
pub struct GameFilter {
    /// One rating kind's name.
    pub kind: Option<String>,
    /// `win`, `loss` or `draw`.
    pub result: Option<String>,
    /// Only games against this account (on another side).
    pub opponent: Option<i64>,
    /// Ended at or after (Unix ms).
    pub from_ms: Option<i64>,
    /// Ended before (Unix ms).
    pub to_ms: Option<i64>,
    /// At most this many (newest first).
    pub limit: i64,
}

/// A result of an account, oldest first ([`Db::results_of`]): kind,
/// result, end, shown rating after (rated games).
pub type ResultRow = (String, String, i64, Option<f64>);

/// A leaderboard row: name, rating, deviation (stored units), games.
pub type BoardRow = (String, Rating);

/// Keeps one row of `me` (the account's lowest seat) per game: an
/// account at two seats of one game has one entry for it.
const FIRST_SEAT: &str = "me.seat = (SELECT MIN(x.seat) FROM game_seats x \
     WHERE x.table_id = me.table_id AND x.game_no = me.game_no AND x.user_id = me.user_id)";

/// The account's result of the game of row `me`: its seat's, or `draw`
/// when its seats' results differ (it sat on two sides: one won, one
/// lost; such a game is casual, docs/accounts.md).
const RESULT: &str = "CASE WHEN EXISTS (SELECT 1 FROM game_seats y \
     WHERE y.table_id = me.table_id AND y.game_no = me.game_no AND y.user_id = me.user_id \
     AND y.result <> me.result) THEN 'draw' ELSE me.result END";

/// A value bound to a query built at run time.
enum Arg {
    I(i64),
    S(String),
}

/// The rating in the four columns of `r` from `first` on: rating,
/// deviation, volatility, games (the stored units of the `ratings` table).
pub(super) fn rating_at(r: &AnyRow, first: usize) -> Result<Rating, sqlx::Error> {
    Ok(Rating {
        rating: r.try_get(first)?,
        deviation: r.try_get(first + 1)?,
        volatility: r.try_get(first + 2)?,
        games: r.try_get(first + 3)?,
    })
}

fn seat_game(r: &AnyRow) -> Result<SeatGame, sqlx::Error> {
    let before: Option<f64> = r.try_get(9)?;
    let after: Option<f64> = r.try_get(10)?;
    Ok(SeatGame {
        table_id: r.try_get(0)?,
        game_no: r.try_get(1)?,
        kind: r.try_get(2)?,
        result: r.try_get(3)?,
        ended_ms: r.try_get(4)?,
        rated: r.try_get::<i64, _>(5)? != 0,
        seat: r.try_get(6)?,
        side: r.try_get(7)?,
        left: r.try_get::<i64, _>(8)? != 0,
        rating: before.zip(after),
        moves: r.try_get(11)?,
    })
}

impl Db {
    /// The live account whose name folds to `key`.
    ///
    /// # Errors
    /// The database error.
    pub async fn public_user(&self, key: &str) -> Result<Option<PublicUser>, DbError> {
        let row = sqlx::query(
            "SELECT id, name, created_ms FROM users WHERE name_key = $1 AND deleted_ms IS NULL",
        )
        .bind(key)
        .fetch_optional(&self.pool)
        .await?;
        let Some(r) = row else { return Ok(None) };
        Ok(Some(row!(r => PublicUser { id, name, created_ms })))
    }

    /// An account's ratings: `(kind, rating, last change Unix ms)`.
    ///
    /// # Errors
    /// The database error.
    pub async fn ratings_of(&self, user: i64) -> Result<Vec<(String, Rating, i64)>, DbError> {
        let rows = sqlx::query(
            "SELECT kind, rating, deviation, volatility, games, updated_ms FROM ratings \
             WHERE user_id = $1 ORDER BY kind",
        )
        .bind(user)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get(0)?, rating_at(r, 1)?, r.try_get(5)?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(DbError::from)
    }

    /// Every result of an account, one per game, oldest first (for
    /// counts, streaks and the rating chart).
    ///
    /// # Errors
    /// The database error.
    pub async fn results_of(&self, user: i64) -> Result<Vec<ResultRow>, DbError> {
        let sql = format!(
            "SELECT me.kind, {RESULT}, me.ended_ms, me.rating_after FROM game_seats me \
             WHERE me.user_id = $1 AND {FIRST_SEAT} ORDER BY me.ended_ms, me.table_id, me.game_no"
        );
        let rows = sqlx::query(&sql).bind(user).fetch_all(&self.pool).await?;
        rows.iter()
            .map(|r| Ok((r.try_get(0)?, r.try_get(1)?, r.try_get(2)?, r.try_get(3)?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(DbError::from)
    }

    /// An account's finished games that pass `f`, one row per game (its
    /// lowest seat there), newest first.
    ///
    /// # Errors
    /// The database error.
    pub async fn games_of(&self, user: i64, f: &GameFilter) -> Result<Vec<SeatGame>, DbError> {
        let mut sql = format!(
            "SELECT me.table_id, me.game_no, me.kind, {RESULT}, me.ended_ms, g.rated, me.seat, \
             me.side, me.left_game, me.rating_before, me.rating_after, g.moves \
             FROM game_seats me JOIN games g ON g.table_id = me.table_id \
             AND g.game_no = me.game_no WHERE me.user_id = $1 AND {FIRST_SEAT}"
        );
        let mut args = vec![Arg::I(user)];
        let mut and = |cond: &str, a: Arg, args: &mut Vec<Arg>| {
            args.push(a);
            sql.push_str(&cond.replace('?', &format!("${}", args.len())));
        };
        if let Some(k) = &f.kind {
            and(" AND me.kind = ?", Arg::S(k.clone()), &mut args);
        }
        if let Some(r) = &f.result {
            and(&format!(" AND {RESULT} = ?"), Arg::S(r.clone()), &mut args);
        }
        if let Some(o) = f.opponent {
            and(
                " AND EXISTS (SELECT 1 FROM game_seats o WHERE o.table_id = me.table_id \
                 AND o.game_no = me.game_no AND o.side <> me.side AND o.user_id = ?)",
                Arg::I(o),
                &mut args,
            );
        }
        if let Some(t) = f.from_ms {
            and(" AND me.ended_ms >= ?", Arg::I(t), &mut args);
        }
        if let Some(t) = f.to_ms {
            and(" AND me.ended_ms < ?", Arg::I(t), &mut args);
        }
        and(
            " ORDER BY me.ended_ms DESC, me.table_id, me.game_no LIMIT ?",
            Arg::I(f.limit),
            &mut args,
        );
        let mut q = sqlx::query(&sql);
        for a in args {
            q = match a {
                Arg::I(i) => q.bind(i),
                Arg::S(s) => q.bind(s),
            };
        }
        let rows = q.fetch_all(&self.pool).await?;
        rows.iter()
            .map(seat_game)
            .collect::<Result<_, _>>()
            .map_err(DbError::from)
    }

    /// Every seat of the games of `tables` (ids, at most 500), for naming
    /// who played each game.
    ///
    /// # Errors
    /// The database error.
    pub async fn seats_of_tables(&self, tables: &[String]) -> Result<Vec<GameSeat>, DbError> {
        if tables.is_empty() {
            return Ok(vec![]);
        }
        let marks: Vec<String> = (1..=tables.len()).map(|i| format!("${i}")).collect();
        let sql = format!(
            "SELECT s.table_id, s.game_no, s.seat, s.side, s.name, s.bot, s.result, u.name, \
             u.deleted_ms, s.user_id FROM game_seats s LEFT JOIN users u ON u.id = s.user_id \
             WHERE s.table_id IN ({}) ORDER BY s.table_id, s.game_no, s.seat",
            marks.join(", ")
        );
        let mut q = sqlx::query(&sql);
        for t in tables {
            q = q.bind(t.as_str());
        }
        let rows = q.fetch_all(&self.pool).await?;
        rows.iter()
            .map(|r| {
                let played: String = r.try_get(4)?;
                let account: Option<String> = r.try_get(7)?;
                let deleted = r.try_get::<Option<i64>, _>(8)?.is_some();
                let had_user = r.try_get::<Option<i64>, _>(9)?.is_some();
                let deleted = deleted || (had_user && account.is_none());
                let name = match (&account, deleted) {
                    (_, true) => DELETED_NAME.to_string(),
                    (Some(a), _) => a.clone(),
                    (None, _) => played,
                };
                Ok(GameSeat {
                    table_id: r.try_get(0)?,
                    game_no: r.try_get(1)?,
                    seat: r.try_get(2)?,
                    side: r.try_get(3)?,
                    name,
                    account,
                    bot: r.try_get::<i64, _>(5)? != 0,
                    deleted,
                    result: r.try_get(6)?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(DbError::from)
    }

    /// The top `limit` ratings of `kind` changed at or after `since_ms`
    /// with a deviation (stored units) of at most `max_deviation`, best
    /// first.
    ///
    /// # Errors
    /// The database error.
    pub async fn leaderboard(
        &self,
        kind: &str,
        since_ms: i64,
        max_deviation: f64,
        limit: i64,
    ) -> Result<Vec<BoardRow>, DbError> {
        let rows = sqlx::query(
            "SELECT u.name, r.rating, r.deviation, r.volatility, r.games FROM ratings r \
             JOIN users u ON u.id = r.user_id WHERE r.kind = $1 AND r.updated_ms >= $2 \
             AND r.deviation <= $3 ORDER BY r.rating DESC LIMIT $4",
        )
        .bind(kind)
        .bind(since_ms)
        .bind(max_deviation)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get(0)?, rating_at(r, 1)?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(DbError::from)
    }

    /// Finished games of a table `(game_no, kind, rated)` as stored.
    ///
    /// # Errors
    /// The database error.
    pub async fn stored_games(&self, table: &str) -> Result<Vec<(i64, String, bool)>, DbError> {
        let rows =
            sqlx::query("SELECT game_no, kind, rated FROM games WHERE table_id = $1 ORDER BY 1")
                .bind(table)
                .fetch_all(&self.pool)
                .await?;
        rows.iter()
            .map(|r| Ok((r.try_get(0)?, r.try_get(1)?, r.try_get::<i64, _>(2)? != 0)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(DbError::from)
    }
}
