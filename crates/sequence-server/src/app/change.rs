//! The change path: a seat's token, committing events (check against a
//! copy, append, then keep and publish), playing a move, and the bots'
//! task that commits their moves after a change ([`kick_bots`]).

use super::bots::next_bot_job;
use super::{App, TableRef};
use crate::db::{Append, DbError};
use crate::limits::echo;
use crate::tables::{now_ms, Event, Status, StoredMove, Table, TableError, ViewMessage};
use sequence_common::PlayError;
use serde::Deserialize;
use serde_json::Value;
use std::sync::Arc;
use std::time::Duration;

/// The seat of `token` at `t`, catching up once before refusing a token
/// this instance does not know.
///
/// # Errors
/// As [`crate::tables::Core::seat_of_token`].
pub async fn seat_of_token(
    app: &Arc<App>,
    tref: &TableRef,
    t: &mut Table,
    token: &crate::auth::SeatToken,
) -> Result<u8, TableError> {
    seat_of_token_syncing(app, tref, t, token, &mut false).await
}

/// [`seat_of_token`], setting `synced` when it caught up.
///
/// # Errors
/// As [`crate::tables::Core::seat_of_token`].
pub(super) async fn seat_of_token_syncing(
    app: &Arc<App>,
    tref: &TableRef,
    t: &mut Table,
    token: &crate::auth::SeatToken,
    synced: &mut bool,
) -> Result<u8, TableError> {
    match t.core.seat_of_token(token) {
        Err(TableError::Unauthorized(_)) if token.token().is_ok() && app.db.shared() => {
            *synced = true;
            app.sync(tref, t).await?;
            t.core.seat_of_token(token)
        }
        r => r,
    }
}

/// The events as stored (JSON text).
///
/// # Errors
/// An event that cannot be written (never for events the core built).
pub(super) fn event_texts(events: &[Event]) -> Result<Vec<String>, TableError> {
    events
        .iter()
        .map(|e| {
            serde_json::to_string(e)
                .map_err(|err| TableError::Internal(format!("an event cannot be stored: {err}")))
        })
        .collect()
}

/// Applies `events` to a copy of the table's core (starting the game when
/// every seat is filled) and appends them to the database at the table's
/// next event number; only once that has committed keeps the new state,
/// broadcasts the views and wakes the bots. Nothing changes on error.
///
/// # Errors
/// The first event's refusal, or a database error:
/// [`TableError::Conflict`] when another writer (a server instance)
/// stored a change first — the table is then brought up to date, so a
/// caller may check again and retry; [`TableError::Unavailable`] when the
/// database cannot be reached (the table is read again before its next
/// change, since the commit may or may not have happened).
pub async fn commit(
    app: &Arc<App>,
    tref: &TableRef,
    t: &mut Table,
    events: Vec<Event>,
) -> Result<(), TableError> {
    store(app, tref, t, events, false).await?;
    t.broadcast_views();
    kick_bots(app, tref, t);
    Ok(())
}

/// [`commit`], answering the view of seat `seat` after the change: the
/// one its connections were sent (computed once); `synced`: the request
/// already caught up with the database (not again).
///
/// # Errors
/// As [`commit`].
async fn commit_answering(
    app: &Arc<App>,
    tref: &TableRef,
    t: &mut Table,
    events: Vec<Event>,
    seat: u8,
    synced: bool,
) -> Result<ViewMessage, TableError> {
    store(app, tref, t, events, synced).await?;
    let view = t.broadcast_views_answering(seat);
    kick_bots(app, tref, t);
    Ok(view)
}

/// The change of [`commit`] up to its publication: applies `events` to a
/// copy of the core (starting the game when every seat is filled),
/// appends them and keeps the new state and its clock.
///
/// # Errors
/// As [`commit`].
async fn store(
    app: &Arc<App>,
    tref: &TableRef,
    t: &mut Table,
    mut events: Vec<Event>,
    synced: bool,
) -> Result<(), TableError> {
    if !synced && app.may_lag(t) {
        app.sync(tref, t).await?;
    }
    let mut core = t.core.clone();
    let first = core.next_seq;
    let moves_before = (core.game_no, core.moves);
    for e in &events {
        core.apply(e)?;
    }
    if core.status == Status::Waiting && core.all_filled() {
        // a tutorial's first game is always the same deal
        let seed = crate::tables::tutorial::start_seed(&core.spec, core.game_no);
        let e = Event::Start { seed };
        core.apply(&e)?;
        events.push(e);
    }
    let moved = (core.game_no, core.moves) != moves_before;
    let restart_clock = moved || t.deadline.is_none();
    let clock_ms = if restart_clock {
        now_ms()
    } else {
        t.cluster.clock_ms
    };
    let texts = event_texts(&events)?;
    let finish = crate::results::game_end(&t.core, &core, clock_ms);
    let append = Append {
        id: &core.id,
        first_seq: first,
        events: &texts,
        status: core.status.name(),
        clock_ms,
        timed_out: 0,
        finish: finish.as_ref(),
    };
    // the append is written even if this request stops waiting for it
    // (a client that went away): until the answer comes the table may lag
    t.cluster.stale = true;
    match app.db.append(&append).await {
        Ok(()) => t.cluster.stale = false,
        Err(DbError::Conflict) => {
            app.sync(tref, t).await?;
            return Err(DbError::Conflict.into());
        }
        Err(e) => return Err(e.into()),
    }
    t.core = core;
    t.cluster.clock_ms = clock_ms;
    if restart_clock {
        t.reset_deadline_from(clock_ms);
    }
    Ok(())
}

/// How many times a move is checked again after losing a race to a change
/// that was not a move (a seat taken, a bot, …).
const MOVE_RETRIES: usize = 4;

/// Checks and plays a move for `seat` (shared by HTTP and WebSocket) and
/// answers the seat's new `view` message (the one its connections were
/// sent, the same bytes): the
/// game must be on, `move_number` the table's, the move an object for
/// this seat (its `seat` may be left out). The checks are made against
/// the latest stored state: when another change was stored first the
/// table catches up and the move is checked again. `synced`: the request
/// already caught up with the database (opening the table, finding the
/// seat); the move then catches up only after losing a race.
///
/// # Errors
/// [`TableError::Stale`] (409, with the table's `move_number`) for a stale
/// or early `move_number` — also after losing a race to another move —,
/// a game not being played (over, or not started) or not this seat's
/// turn; [`TableError::Conflict`] for a move for another seat; [`TableError::Refused`] for a move
/// that cannot be read or one the rules refuse
/// (both with the engine's code).
///
/// Counted in the metrics ([`crate::telemetry::move_done`]): accepted
/// with its time to the push, or refused with its code.
pub async fn play_move(
    app: &Arc<App>,
    tref: &TableRef,
    t: &mut Table,
    synced: bool,
    seat: u8,
    req: MoveRequest,
) -> Result<ViewMessage, TableError> {
    let start = std::time::Instant::now();
    let answer = try_play_move(app, tref, t, synced, seat, req).await;
    crate::telemetry::move_done(match &answer {
        Ok(_) => Ok(start.elapsed()),
        Err(e) => Err(e.label()),
    });
    answer
}

/// [`play_move`] without the metrics.
async fn try_play_move(
    app: &Arc<App>,
    tref: &TableRef,
    t: &mut Table,
    mut synced: bool,
    seat: u8,
    req: MoveRequest,
) -> Result<ViewMessage, TableError> {
    let MoveRequest { move_number, mv } = req;
    // a move for a position this instance has not seen yet (made at
    // another instance, its notification still on the way) is checked
    // after catching up
    if !synced && (app.may_lag(t) || check_move_number(t, move_number).is_err()) {
        app.sync(tref, t).await?;
        synced = true;
    }
    check_move_number(t, move_number)?;
    // read once, by the engine, however many times it is checked
    let mv = {
        let live = t
            .core
            .live
            .as_deref()
            .ok_or_else(|| t.core.stale("no game"))?;
        SeatMove::new(seat, mv)?.read(live)
    };
    for _ in 0..MOVE_RETRIES {
        // the table may have moved on while this request caught up
        check_move_number(t, move_number)?;
        let before = t.core.next_seq;
        let events = vec![Event::Move { mv: mv.clone() }];
        let answer = commit_answering(app, tref, t, events, seat, synced).await;
        // a commit that fails has caught up (a race lost) or gives up
        synced = true;
        match answer {
            Ok(view) => return Ok(view),
            // another change was stored first; the table caught up: check again
            Err(e) if e.is_conflict() && t.core.next_seq != before => continue,
            // refused by the rules or not this seat's turn (the core's
            // Stale): when another instance may have changed the table
            // meanwhile, the refusal stands only if the table is still
            // where it was
            Err(
                e @ (TableError::Stale { .. } | TableError::Refused(PlayError::Illegal { .. })),
            ) if app.db.shared() && app.sync(tref, t).await? => {
                tracing::debug!("a move refused on a table that changed elsewhere: {e}");
                continue;
            }
            Err(e) => return Err(e),
        }
    }
    check_move_number(t, move_number)?;
    Err(t
        .core
        .stale("the table kept changing while the move was being stored; retry"))
}

/// A move as a request brings it, over HTTP (`POST …/moves`, its body) or
/// the WebSocket (a `move` message): the `move_number` of the position it
/// was made for and the move (a JSON object in record format, read by
/// [`SeatMove::new`]).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// Must equal the table's `move_number`.
    pub move_number: u32,
    /// The move.
    #[serde(rename = "move")]
    pub mv: Value,
}

/// A seat's move read once from a request: a JSON object in record
/// format for the seat of the request's token (its `seat` may be left
/// out: the engine reads it as the token's, [`StoredMove::read`]).
#[derive(Debug, Clone, PartialEq)]
pub struct SeatMove {
    seat: u8,
    record: Value,
}

impl SeatMove {
    /// Takes `mv` as a move of `seat`.
    ///
    /// # Errors
    /// [`TableError::Refused`] (`notation.not_an_object`, or the code
    /// of a bad `seat` field) for a move that is not an object or whose
    /// `seat` is not a number; [`TableError::Conflict`] for a move for
    /// another seat than the token's.
    pub fn new(seat: u8, mv: Value) -> Result<SeatMove, TableError> {
        let kind = sequence_common::json::kind_of(&mv);
        let o = mv.as_object().ok_or_else(|| {
            TableError::malformed(
                sequence_common::NotationError::NotAnObject.code(),
                format!("move must be a JSON object {{…}}, not {kind}"),
            )
        })?;
        match o.get("seat") {
            None => {}
            Some(s) if s.as_u64() == Some(seat as u64) => {}
            Some(s) if s.as_u64().is_some() => {
                return Err(TableError::conflict(format!(
                    "the move is for seat {s} but the token is seat {seat}"
                )))
            }
            Some(s) => {
                return Err(TableError::malformed(
                    sequence_common::NotationError::field("seat", "").code(),
                    format!(
                        "move.seat must be a number (your seat, {seat}, or left out), got {}",
                        shown_value(s)
                    ),
                ))
            }
        }
        Ok(SeatMove { seat, record: mv })
    }

    /// The move as the request sent it (record format; its `seat` may be
    /// left out).
    pub fn record(&self) -> &Value {
        &self.record
    }

    /// The move as the engine of `live` reads it for the token's seat, to
    /// store ([`StoredMove::read`]).
    pub fn read(self, live: &dyn sequence_common::AnyGame) -> StoredMove {
        StoredMove::read(self.seat, self.record, live)
    }
}

/// Refuses a move when the game is not on or `move_number` is not the
/// table's (whose turn it is the core checks when the move is applied).
fn check_move_number(t: &Table, move_number: u32) -> Result<(), TableError> {
    let core = &t.core;
    core.check_playing()?;
    if move_number > core.moves {
        return Err(core.stale(format!(
            "move_number {move_number} is ahead of the game (at move_number {})",
            core.moves
        )));
    }
    if move_number < core.moves {
        return Err(core.stale(format!(
            "stale move_number {move_number}: the game is at move_number {}",
            core.moves
        )));
    }
    Ok(())
}

/// A JSON value of a request for a message: `the string "0"`, `-1`,
/// `[1]` (capped by [`echo`]).
fn shown_value(v: &Value) -> String {
    match v {
        Value::String(s) => format!("the string \"{}\"", echo(s)),
        other => echo(&other.to_string()),
    }
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
        let Some(mv) = chosen.and_then(StoredMove::of_entry) else {
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_seat_move_is_read_once_for_the_token_seat() {
        let m = SeatMove::new(2, json!({"pass": true})).expect("a move");
        assert_eq!(m.record(), &json!({"pass": true}));
        // read by the engine for the token's seat, and stored with it
        let live = sequence_bots::rules(sequence_common::GameKind::Stacks)
            .deal(
                sequence_common::TableSetup {
                    players: 3,
                    teams: None,
                    options: &Value::Null,
                },
                1,
            )
            .expect("a table");
        let stored = m.read(live.as_ref());
        assert_eq!(stored.seat(), Some(sequence_common::Seat(2)));
        assert_eq!(Value::from(stored), json!({"pass": true, "seat": 2}));
        let m = SeatMove::new(2, json!({"seat": 2, "pass": true})).expect("a move");
        assert_eq!(m.record(), &json!({"seat": 2, "pass": true}));
        let e = SeatMove::new(2, json!({"seat": 1, "pass": true})).unwrap_err();
        assert!(matches!(e, TableError::Conflict(_)), "{e}");
        assert_eq!(
            e.to_string(),
            "the move is for seat 1 but the token is seat 2"
        );
        let e = SeatMove::new(2, json!({"seat": "2"})).unwrap_err();
        assert!(
            e.to_string().contains(
                "move.seat must be a number (your seat, 2, or left out), got the string \"2\""
            ),
            "{e}"
        );
        let e = SeatMove::new(0, json!([1])).unwrap_err();
        assert_eq!(e.code(), Some("notation.not_an_object"), "{e}");
    }
}
