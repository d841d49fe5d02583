//! The bots' task of a table: while a bot (or the stand-in of a person
//! away) is to move, compute its move off the table's lock and commit it.

use super::{commit, App, TableRef};
use crate::tables::{Auto, Event, SeatKind, Table, TableError};
use sequence_common::Seat;
use std::sync::Arc;
use std::time::Duration;

/// A bot's move to compute: for which seat, at which move of which game,
/// and whether it plays for a person (a seat away, a timeout).
pub(super) struct BotJob {
    seat: Seat,
    pub(super) choose: crate::tables::BotMove,
    game_no: u32,
    moves: u32,
    auto: Option<Auto>,
}

/// The level of the bot that plays for a person: a timeout's one move,
/// and every move of a seat away (docs/api.md "Turn timer").
pub const STAND_IN_LEVEL: &str = "level:2";

/// The job of the bot that plays `seat`'s move now: the seat's own bot,
/// or for a person the stand-in bot (`auto` says why).
pub(super) fn bot_job(c: &crate::tables::Core, seat: Seat, auto: Option<Auto>) -> Option<BotJob> {
    let s = c.seats.get(seat.index())?;
    let level = match auto {
        None => s.level.as_deref().unwrap_or("random"),
        Some(_) => STAND_IN_LEVEL,
    };
    let tutorial = c
        .spec
        .tutorial
        .as_deref()
        .and_then(crate::tables::tutorial::find);
    let seed = match tutorial {
        // the tutorial's bot plays the same moves every time
        Some(t) if c.game_no == 1 => crate::tables::tutorial::bot_seed(t.seed, c.moves),
        _ => {
            u64::from_str_radix(&c.id, 16).unwrap_or(0)
                ^ ((c.game_no as u64) << 32)
                ^ c.moves as u64
        }
    };
    let live = c.live.as_deref()?;
    let game = crate::tables::game_of(live.kind());
    let choose = if c.penalty.first() == Some(&seat.0) {
        // the table-talk penalty (C10): a card to discard
        let mv = game.penalty_move(live, seat, seed);
        Box::new(move || mv) as crate::tables::BotMove
    } else {
        game.bot_move(live, seat, level, seed)
    };
    Some(BotJob {
        seat,
        choose,
        game_no: c.game_no,
        moves: c.moves,
        auto,
    })
}

/// The move a bot must make at `t` now, if a bot is to move (a bot's
/// seat, or a person's marked away) and this instance runs the table's
/// bots; else marks the bot task stopped.
fn next_bot_job(t: &mut Table) -> Option<BotJob> {
    let job = (|| {
        if !t.cluster.owned {
            return None;
        }
        let c = &t.core;
        let seat = c.to_act()?;
        if !c.bot_plays(seat) {
            return None;
        }
        let is_bot = c.seats.get(seat.index())?.kind == SeatKind::Bot;
        bot_job(c, seat, (!is_bot).then_some(Auto::Away))
    })();
    if job.is_none() {
        t.bot_running = false;
    }
    job
}

/// Starts the bot task of a table if a bot is to move, this instance runs
/// the table's bots (it owns the table) and no task runs.
pub fn kick_bots(app: &Arc<App>, tref: &TableRef, t: &mut Table) {
    if t.bot_running || !t.cluster.owned || app.cluster.stopped() {
        return;
    }
    let Some(seat) = t.core.to_act() else { return };
    if !t.core.bot_plays(seat) {
        return;
    }
    t.bot_running = true;
    // on at every log level (see routes::health::request_span)
    let span = tracing::error_span!("bots", table = %t.core.id);
    tokio::spawn(tracing::Instrument::instrument(
        run_bots(app.clone(), tref.clone()),
        span,
    ));
}

/// The bot task: while a bot is to move, waits the bot delay, computes its
/// move on a blocking thread (without the table's lock) and commits it.
/// It ends when the table has no bot to move, this instance no longer
/// owns the table, or the server stops; a database that cannot be reached
/// is waited for.
async fn run_bots(app: Arc<App>, tref: TableRef) {
    let mut backoff = Duration::from_millis(250);
    loop {
        if !app.cfg.bot_delay.is_zero() {
            tokio::time::sleep(app.cfg.bot_delay).await;
        }
        if app.cluster.stopped() {
            tref.lock().await.bot_running = false;
            return;
        }
        let Some(job) = next_bot_job(&mut *tref.lock().await) else {
            return;
        };
        let thinking = metrics::gauge!(crate::telemetry::BOTS_THINKING);
        thinking.increment(1.0);
        let chosen = tokio::task::spawn_blocking(job.choose).await.ok().flatten();
        thinking.decrement(1.0);
        let mut t = tref.lock().await;
        if app.cluster.stopped() || !t.cluster.owned {
            t.bot_running = false;
            return;
        }
        if (t.core.game_no, t.core.moves) != (job.game_no, job.moves) {
            continue;
        }
        let Some(mv) = chosen else {
            tracing::error!(
                "bot at table {} seat {} found no move",
                t.core.id,
                job.seat.0
            );
            t.bot_running = false;
            return;
        };
        t.bot_running = false; // commit may restart us; we loop only on a conflict or an outage
        let event = match job.auto {
            None => Event::Move { mv },
            Some(auto) => Event::Auto { mv, auto },
        };
        match commit(&app, &tref, &mut t, vec![event]).await {
            Ok(()) => {
                crate::telemetry::bot_move();
                return;
            }
            Err(e) if e.is_conflict() => {
                tracing::debug!("bot move at table {} lost a race: {e}", t.core.id);
                t.bot_running = true;
                continue;
            }
            Err(TableError::Unavailable(_)) => {
                tracing::warn!(
                    "bot move at table {}: the database cannot be reached; retrying",
                    t.core.id
                );
                t.bot_running = true;
                drop(t);
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(Duration::from_secs(2));
                continue;
            }
            Err(e) => {
                tracing::warn!("bot move at table {} refused: {e}", t.core.id);
                return;
            }
        }
    }
}
