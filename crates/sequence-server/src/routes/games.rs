//! `GET /api/games`: the games the server offers, from their engines:
//! player counts, team counts per player count, rule options with their
//! defaults, the bot levels and their measured Elo (the lobby builds its
//! form from this, never from the rules), and the official classic board
//! (C2; the rules pages draw their pictures on it).

use crate::tables::GameKind;
use axum::Json;
use serde_json::{json, Value};

/// `GET /api/games`.
pub async fn list_games() -> Json<Value> {
    Json(catalogue())
}

/// The body of `GET /api/games` (also written by `sequence export-static`
/// as the file `api/games`).
pub fn catalogue() -> Value {
    let games: Vec<Value> = GameKind::ALL
        .into_iter()
        .map(|k| sequence_bots::rules(k).describe())
        .collect();
    json!({
        "games": games,
        "bots": crate::bots::LEVELS,
        // Measured Elo of each level (classic, 2 players; random = 1000).
        "level_elo": (1..=5u8)
            .filter_map(|n| sequence_bots::level_elo(n).map(|e| (format!("level:{n}"), json!(e))))
            .collect::<serde_json::Map<String, Value>>(),
        "turn_seconds": {"default_public": crate::routes::tables::PUBLIC_TURN_SECONDS, "min": 1, "max": 3600},
        "window_seconds": crate::tables::WINDOW_SECONDS,
        "away_after": crate::tables::AWAY_AFTER,
    })
}
