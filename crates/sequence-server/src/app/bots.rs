//! The bots' moves of a table: which bot (or the stand-in of a person
//! away) is to move and the job that computes its move. The task that
//! runs the jobs and commits their moves is the change path's
//! ([`super::change::kick_bots`]).

use crate::tables::{Auto, SeatKind, Table};
use sequence_common::Seat;

/// A bot's move to compute: for which seat, at which move of which game,
/// and whether it plays for a person (a seat away, a timeout).
pub(super) struct BotJob {
    pub(super) seat: Seat,
    pub(super) choose: crate::bots::BotMove,
    pub(super) game_no: u32,
    pub(super) moves: u32,
    pub(super) auto: Option<Auto>,
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
    let view = live.view(Some(seat));
    let owes = live
        .penalty_owed()
        .is_some_and(|o| o.seats.first() == Some(&seat));
    let choose: crate::bots::BotMove = if owes {
        // the table-talk penalty (C10): a card to discard
        let entry = sequence_bots::penalty_discard(view.as_ref(), seed);
        Box::new(move || entry)
    } else {
        let level = level.to_string();
        Box::new(move || crate::bots::choose(&level, view.as_ref(), seed))
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
pub(super) fn next_bot_job(t: &mut Table) -> Option<BotJob> {
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
