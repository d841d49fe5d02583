//! A table's chat: lines stored, kept for newcomers and sent to everyone.

use super::{App, TableRef};
use crate::tables::{now_ms, Table, TableError};
use serde_json::{json, Value};
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// Adds a chat line of `seat` (already cleaned) to the table and sends it
/// to everyone; the last 50 lines are kept for newcomers.
pub fn chat(t: &mut Table, seat: u8, text: String) {
    let line = chat_line(t, seat, text);
    deliver_chat(t, line);
}

/// The chat message of `seat` saying `text`.
fn chat_line(t: &Table, seat: u8, text: String) -> Value {
    let name = t.core.seats.get(seat as usize).and_then(|s| s.name.clone());
    json!({"type": "chat", "seat": seat, "name": name, "text": text, "at": now_ms()})
}

/// Shows a chat line: kept for newcomers (the last 50) and sent to every
/// connection.
pub(super) fn deliver_chat(t: &mut Table, line: Value) {
    t.chat.push_back(line.clone());
    while t.chat.len() > 50 {
        t.chat.pop_front();
    }
    t.broadcast(&line);
}

/// What became of a chat line ([`post_chat`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Posted {
    /// Stored, and shown (or to be shown when the notification comes).
    Stored,
    /// Refused: the seat used its chat allowance
    /// ([`crate::limits::CHAT_RATE`]); it may post again after this long.
    TooSoon(std::time::Duration),
}

/// Posts a chat line of `seat` (already cleaned) if the seat's chat
/// allowance lets it: stored (the last 50 of a table are kept), then
/// shown. The table is locked only to take the allowance and to show the
/// line, not during the write, so a move never waits for chat; lines of
/// a table are stored and shown one at a time, in one order. With
/// PostgreSQL every instance shows it when the notification comes, so
/// that all show the lines of a table in one order.
///
/// # Errors
/// A database error.
pub async fn post_chat(
    app: &Arc<App>,
    tref: &TableRef,
    seat: u8,
    text: String,
) -> Result<Posted, TableError> {
    let (id, line, order) = {
        let mut t = tref.lock().await;
        if let Err(wait) = t.chat_limit.take(seat) {
            return Ok(Posted::TooSoon(wait));
        }
        let line = chat_line(&t, seat, text);
        (t.core.id.clone(), line, t.chat_order.clone())
    };
    let _order = order.lock().await;
    let seq = app.db.add_chat(&id, &line.to_string()).await?;
    let listening = app.cluster.listening.load(Ordering::Relaxed);
    let mut t = tref.lock().await;
    if !app.db.shared() || (!listening && seq == t.cluster.chat_next) {
        t.cluster.chat_next = seq + 1;
        deliver_chat(&mut t, line);
    }
    Ok(Posted::Stored)
}
