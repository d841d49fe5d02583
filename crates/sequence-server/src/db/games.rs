//! Finished games and ratings, written by the append writer in the
//! transaction of the move that ends a game ([`record_game`]): the game
//! row's primary key `(table_id, game_no)` makes it exactly once, and the
//! ratings of its players are read and written in that transaction
//! (PostgreSQL: their rows locked, in account order), so two instances
//! ending games of the same player at once never lose an update.

use super::DbError;
use crate::ratings::{rate, Rating, RatingKind};
use crate::results::GameEnd;
use sqlx::{AnyConnection, Row};
use std::collections::BTreeMap;

/// The accounts of a table's seats, by seat token hash.
async fn owners(conn: &mut AnyConnection, table: &str) -> Result<Vec<(String, i64)>, DbError> {
    let rows = sqlx::query("SELECT token_hash, user_id FROM seat_owners WHERE table_id = $1")
        .bind(table)
        .fetch_all(&mut *conn)
        .await?;
    rows.iter()
        .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
        .collect::<Result<_, sqlx::Error>>()
        .map_err(DbError::from)
}

/// The rating of `user` in `kind` (its start when it has none); on
/// PostgreSQL its row is made if missing and locked until the commit.
async fn rating_of(
    conn: &mut AnyConnection,
    pg: bool,
    user: i64,
    kind: RatingKind,
    now: i64,
) -> Result<Rating, DbError> {
    let start = Rating::initial(kind);
    if pg {
        sqlx::query(
            "INSERT INTO ratings (user_id, kind, rating, deviation, volatility, games, \
             updated_ms) VALUES ($1, $2, $3, $4, $5, 0, $6) ON CONFLICT (user_id, kind) DO NOTHING",
        )
        .bind(user)
        .bind(kind.name())
        .bind(start.rating)
        .bind(start.deviation)
        .bind(start.volatility)
        .bind(now)
        .execute(&mut *conn)
        .await?;
    }
    let lock = if pg { " FOR UPDATE" } else { "" };
    let row = sqlx::query(&format!(
        "SELECT rating, deviation, volatility, games FROM ratings \
         WHERE user_id = $1 AND kind = $2{lock}"
    ))
    .bind(user)
    .bind(kind.name())
    .fetch_optional(&mut *conn)
    .await?;
    match row {
        None => Ok(start),
        Some(r) => Ok(super::profiles::rating_at(&r, 0)?),
    }
}

/// Stores `user`'s new rating in `kind`.
async fn store_rating(
    conn: &mut AnyConnection,
    user: i64,
    kind: RatingKind,
    r: &Rating,
    now: i64,
) -> Result<(), DbError> {
    sqlx::query(
        "INSERT INTO ratings (user_id, kind, rating, deviation, volatility, games, updated_ms) \
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (user_id, kind) DO UPDATE SET \
         rating = $3, deviation = $4, volatility = $5, games = $6, updated_ms = $7",
    )
    .bind(user)
    .bind(kind.name())
    .bind(r.rating)
    .bind(r.deviation)
    .bind(r.volatility)
    .bind(r.games)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// The rating change of a rated game: per seat, the shown rating before
/// and `(rating, deviation)` shown after; the new ratings are stored.
async fn apply_ratings(
    conn: &mut AnyConnection,
    pg: bool,
    end: &GameEnd,
    users: &[i64],
) -> Result<Vec<(f64, f64, f64)>, DbError> {
    let kind = end.kind;
    let mut by_user = BTreeMap::new();
    // in account order: two transactions lock the same rows in one order
    let mut ids = users.to_vec();
    ids.sort_unstable();
    for id in ids {
        by_user.insert(id, rating_of(conn, pg, id, kind, end.ended_ms).await?);
    }
    let mut sides: BTreeMap<u8, (Vec<usize>, usize)> = BTreeMap::new();
    for (i, s) in end.seats.iter().enumerate() {
        let e = sides.entry(s.side).or_insert((vec![], s.place));
        e.0.push(i);
    }
    let input: Vec<(Vec<Rating>, usize)> = sides
        .values()
        .map(|(seats, place)| (seats.iter().map(|&i| by_user[&users[i]]).collect(), *place))
        .collect();
    let output = rate(kind, &input);
    let mut shown = vec![(0.0, 0.0, 0.0); end.seats.len()];
    for ((seats, _), new) in sides.values().zip(&output) {
        for (&i, r) in seats.iter().zip(new) {
            let before = by_user[&users[i]].shown(kind).0;
            let (after, dev) = r.shown(kind);
            shown[i] = (before, after, dev);
            store_rating(conn, users[i], kind, r, end.ended_ms).await?;
        }
    }
    Ok(shown)
}

/// Writes a finished game (`games`, `game_seats`) and, when it is rated,
/// its players' new ratings, inside the caller's transaction. A game
/// already stored is left as it is. It is rated when the table is
/// ([`GameEnd::rated`]) and every seat belongs to a different account.
///
/// # Errors
/// The database error (the caller's transaction then fails whole).
pub(super) async fn record_game(
    conn: &mut AnyConnection,
    pg: bool,
    end: &GameEnd,
) -> Result<(), DbError> {
    let new = sqlx::query(
        "INSERT INTO games (table_id, game_no, kind, rated, ended_ms, moves) \
         VALUES ($1, $2, $3, 0, $4, $5) ON CONFLICT (table_id, game_no) DO NOTHING",
    )
    .bind(end.table_id.as_str())
    .bind(i64::from(end.game_no))
    .bind(end.kind.name())
    .bind(end.ended_ms)
    .bind(i64::from(end.moves))
    .execute(&mut *conn)
    .await?
    .rows_affected();
    if new == 0 {
        return Ok(());
    }
    let owned = owners(conn, &end.table_id).await?;
    let user_of = |h: &Option<String>| {
        h.as_ref()
            .and_then(|h| owned.iter().find(|(t, _)| t == h).map(|(_, u)| *u))
    };
    let users: Vec<Option<i64>> = end.seats.iter().map(|s| user_of(&s.token_hash)).collect();
    let all: Vec<i64> = users.iter().flatten().copied().collect();
    let mut distinct = all.clone();
    distinct.sort_unstable();
    distinct.dedup();
    let rated = end.rated && all.len() == end.seats.len() && distinct.len() == all.len();
    let shown = if rated {
        sqlx::query("UPDATE games SET rated = 1 WHERE table_id = $1 AND game_no = $2")
            .bind(end.table_id.as_str())
            .bind(i64::from(end.game_no))
            .execute(&mut *conn)
            .await?;
        Some(apply_ratings(conn, pg, end, &all).await?)
    } else {
        None
    };
    for (i, s) in end.seats.iter().enumerate() {
        let r = shown.as_ref().map(|v| v[i]);
        sqlx::query(
            "INSERT INTO game_seats (table_id, game_no, seat, side, name, bot, token_hash, \
             user_id, result, left_game, ended_ms, kind, rating_before, rating_after, \
             deviation_after) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, \
             $14, $15)",
        )
        .bind(end.table_id.as_str())
        .bind(i64::from(end.game_no))
        .bind(i64::from(s.seat))
        .bind(i64::from(s.side))
        .bind(s.name.as_str())
        .bind(i64::from(s.bot))
        .bind(s.token_hash.as_deref())
        .bind(users[i])
        .bind(s.result.name())
        .bind(i64::from(s.left))
        .bind(end.ended_ms)
        .bind(end.kind.name())
        .bind(r.map(|x| x.0))
        .bind(r.map(|x| x.1))
        .bind(r.map(|x| x.2))
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}
