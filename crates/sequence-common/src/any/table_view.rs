//! A seat's view at a table ([`super::AnyGame::table_view`]): the engine's
//! view with the table facts the rules give (the table-talk penalty being
//! paid and who may move, C10; the Block window's deadline, S5b; the end
//! screen's facts), around the fields the table keeps of its own (a move
//! count, a log), which it passes in with its clock and status
//! ([`TableContext`]).

use super::AnyGame;
use crate::seat::Seat;
use serde_json::{json, Map, Value};

/// What a table knows beside the game, for [`super::AnyGame::table_view`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TableContext {
    /// The table's own fields (the server's `move_number`, `log`,
    /// `log_size`), placed right after the engine's view and its extras.
    pub fields: Map<String, Value>,
    /// When the open window asked out of turn closes by itself, Unix ms
    /// (the Stacks Block window, S5b; [`crate::TableFacts::window_view`]).
    pub deadline_ms: Option<i64>,
    /// The game is being played: a table-talk penalty being paid (C10) is
    /// shown, and only the seat owing a discard moves.
    pub playing: bool,
    /// The game is over: the end screen's facts per side (`final_sides`,
    /// [`crate::TableFacts::final_sides`]).
    pub over: bool,
    /// The table was closed (by its operators): nobody moves any more
    /// (`legal_moves` empty).
    pub closed: bool,
}

/// [`super::AnyGame::table_view`] of `live`, the game's window facts
/// written by `window` (the engine's [`crate::TableFacts::window_view`]).
pub(super) fn table_view(
    live: &dyn AnyGame,
    seat: Option<Seat>,
    ctx: &TableContext,
    window: impl FnOnce(&mut Map<String, Value>),
) -> Value {
    let mut v = live.view_json(seat);
    live.decorate_view(&mut v);
    let Some(o) = v.as_object_mut() else {
        return v;
    };
    o.extend(ctx.fields.clone());
    window(o);
    if ctx.over {
        o.insert("final_sides".into(), live.final_sides());
    }
    if let Some(owed) = live.penalty_owed().filter(|_| ctx.playing) {
        // the table-talk penalty (C10): the seat that owes a discard
        // chooses one of its cards; nobody else moves
        let pending: Vec<u8> = owed.seats.iter().map(|s| s.0).collect();
        o.insert(
            "penalty".into(),
            json!({"team": live.side_json(owed.team), "pending": pending}),
        );
        let choices: Vec<Value> = match owed.seats.first() {
            Some(&first) if seat == Some(first) => live.penalty_moves(first),
            _ => vec![],
        };
        o.insert("legal_moves".into(), json!(choices));
    }
    if ctx.closed {
        o.insert("legal_moves".into(), json!([]));
    }
    v
}
