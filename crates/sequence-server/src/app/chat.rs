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

/// Posts a chat line of `seat` (already cleaned): stored (the last 50 of
/// a table are kept), then shown. With PostgreSQL every instance shows it
/// when the notification comes, so that all show the lines of a table in
/// one order.
///
/// # Errors
/// A database error.
pub async fn post_chat(
    app: &Arc<App>,
    tref: &TableRef,
    seat: u8,
    text: String,
) -> Result<(), TableError> {
    let mut t = tref.lock().await;
    let line = chat_line(&t, seat, text);
    let seq = app.db.add_chat(&t.core.id, &line.to_string()).await?;
    let listening = app.cluster.listening.load(Ordering::Relaxed);
    if !app.db.shared() || (!listening && seq == t.cluster.chat_next) {
        t.cluster.chat_next = seq + 1;
        deliver_chat(&mut t, line);
    }
    Ok(())
}
