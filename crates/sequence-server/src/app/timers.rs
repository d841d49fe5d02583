//! The turn timers: the server answers for a seat whose time ran out.

use super::bots::{bot_job, BotJob, STAND_IN_LEVEL};
use super::{commit, App, TableRef};
use crate::tables::{Auto, Event, SeatKind, StoredMove, Table};
use serde_json::Value;
use std::sync::Arc;

/// Plays for seats whose time ran out (called five times a second) at the
/// tables whose clock this instance runs (it owns them): see [`run_out`].
/// The move is stored like any other, so every instance shows it and it
/// is stored once.
pub async fn check_timers(app: &Arc<App>) {
    let now = std::time::Instant::now();
    for tref in app.all_tables() {
        let Ok(mut t) = tref.try_lock() else { continue };
        if !t.cluster.owned {
            continue;
        }
        if let Some((at, _, moves)) = t.deadline {
            if at <= now && moves == t.core.moves {
                t.deadline = None;
                run_out(app, &tref, &mut t);
            }
        }
    }
}

/// The seat to act at `t` ran out of time: the server answers for it.
/// In a window asked out of turn (the Stacks Block window) it gives the
/// default answer (no Block). On the turn of a seat whose person left the
/// table, nobody took the seat in the turn's time: a level-2 bot takes it
/// for the rest of the game (as the host could give it), so the game goes
/// on without being played, or won, in the name of someone gone. On a
/// person's turn a level-2 bot plays this one move for the seat (the seat
/// stays its person's; the log says so), and after
/// [`crate::tables::AWAY_AFTER`] timeouts in a row the seat is away: a bot
/// plays it until its person acts again.
pub fn run_out(app: &Arc<App>, tref: &TableRef, t: &mut Table) {
    let Some(seat) = t.core.to_act() else { return };
    tracing::info!(table = %t.core.id, seat = seat.0, "turn timer ran out");
    let at = (t.core.game_no, t.core.moves);
    let window = t.core.live.as_ref().is_some_and(|l| l.in_window());
    let left = t
        .core
        .seats
        .get(seat.index())
        .is_some_and(|s| s.kind == SeatKind::Left);
    if left && !window {
        let (app, tref) = (app.clone(), tref.clone());
        tokio::spawn(async move {
            let mut t = tref.lock().await;
            let still_left = t
                .core
                .seats
                .get(seat.index())
                .is_some_and(|s| s.kind == SeatKind::Left);
            if (t.core.game_no, t.core.moves) != at || !still_left {
                return; // someone took the seat meanwhile
            }
            let bot = Event::Bot {
                seat: seat.0,
                level: STAND_IN_LEVEL.to_string(),
            };
            if let Err(e) = commit(&app, &tref, &mut t, vec![bot]).await {
                tracing::warn!("a bot for the left seat at table {}: {e}", t.core.id);
                t.reset_deadline();
            }
        });
        return;
    }
    // the default answer of a window, or a bot to choose the move
    let answer: Result<Value, BotJob> = if window {
        match t.core.live.as_ref().and_then(|l| l.window_default(seat)) {
            Some(mv) => Ok(mv),
            None => return,
        }
    } else {
        match bot_job(&t.core, seat, Some(Auto::Timeout)) {
            Some(job) => Err(job),
            None => return,
        }
    };
    let (app, tref) = (app.clone(), tref.clone());
    tokio::spawn(async move {
        let event = match answer {
            Ok(mv) => Event::Auto {
                mv: mv.into(),
                auto: Auto::Window,
            },
            Err(job) => {
                let chosen = tokio::task::spawn_blocking(job.choose).await.ok().flatten();
                let Some(mv) = chosen.and_then(StoredMove::of_entry) else {
                    return;
                };
                Event::Auto {
                    mv,
                    auto: Auto::Timeout,
                }
            }
        };
        let mut t = tref.lock().await;
        if (t.core.game_no, t.core.moves) != at {
            return; // the seat moved after all
        }
        if let Err(e) = commit(&app, &tref, &mut t, vec![event]).await {
            tracing::warn!(
                "move for a seat out of time at table {} refused: {e}",
                t.core.id
            );
            t.reset_deadline();
        }
    });
}
