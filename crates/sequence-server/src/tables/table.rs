//! A table in memory ([`Table`]): the durable [`Core`] plus the live state
//! around it (connections, chat, turn timer), and the views sent to seats
//! and spectators.

use super::{now_ms, Core, SeatKind, Status, LOG_TAIL, WINDOW_SECONDS};
use axum::extract::ws::Utf8Bytes;
use sequence_common::{Seat, TableContext};
use serde_json::{json, Map, Value};
use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Instant;
use tokio::sync::mpsc;

/// The text of a WebSocket frame queued for connections: one allocation
/// shared by every connection it is queued for (a clone is a count, so a
/// frame queued for many connections is written once), and one pointer
/// wide, so that a connection's queue, whose slots tokio allocates 32 at a
/// time, is small (issue 26: memory per socket).
#[derive(Clone, Debug)]
pub struct Frame(Arc<Utf8Bytes>);

impl Frame {
    /// The text, for a WebSocket message (sharing the frame's bytes).
    pub fn text(&self) -> Utf8Bytes {
        Utf8Bytes::clone(&self.0)
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }
}

impl From<String> for Frame {
    fn from(text: String) -> Frame {
        Frame(Arc::new(text.into()))
    }
}

/// A live WebSocket subscriber of a table.
pub struct Sub {
    /// Connection id.
    pub id: u64,
    /// The seat, `None` for a spectator.
    pub seat: Option<u8>,
    /// Where to send text frames.
    pub tx: mpsc::Sender<Frame>,
}

/// A seat's `view` message as it was pushed (`{"type":"view","view":…}`),
/// to answer the move's request with the same bytes.
#[derive(Clone, Debug)]
pub struct ViewMessage(Frame);

/// What the `view` message's text starts with.
const VIEW_PREFIX: &str = r#"{"type":"view","view":"#;

impl ViewMessage {
    /// The frame to push.
    pub fn frame(&self) -> &Frame {
        &self.0
    }

    /// The view alone (the JSON object inside the message).
    pub fn view_json(&self) -> &str {
        let s = self.0.as_str();
        &s[VIEW_PREFIX.len()..s.len() - 1]
    }

    /// [`ViewMessage::view_json`] as bytes sharing the message's.
    pub fn view_bytes(&self) -> axum::body::Bytes {
        let len = self.0.as_str().len();
        axum::body::Bytes::from(self.0.text()).slice(VIEW_PREFIX.len()..len - 1)
    }
}

/// A table in memory: durable core plus live state.
pub struct Table {
    /// Durable state.
    pub core: Core,
    /// WebSocket subscribers.
    pub subs: Vec<Sub>,
    /// Recent chat lines (at most 50).
    pub chat: VecDeque<Value>,
    /// Each seat's chat allowance (one for all its connections).
    pub chat_limit: crate::limits::ChatLimit,
    /// Each seat's allowance of quick reactions (the chat's rate, an
    /// allowance of its own).
    pub reaction_limit: crate::limits::ChatLimit,
    /// Held while a chat line is stored and shown, so that lines are shown
    /// in the order they were stored without holding the table (a move
    /// never waits for a chat line's write).
    pub chat_order: std::sync::Arc<tokio::sync::Mutex<()>>,
    /// Open connections per seat.
    pub connected: Vec<u32>,
    /// Turn deadline: when, in Unix ms, and for which move number.
    pub deadline: Option<(Instant, i64, u32)>,
    /// Whether a bot task is running for this table.
    pub bot_running: bool,
    /// Its part in a cluster of instances (ownership, other instances'
    /// WebSockets, chat position): see [`crate::cluster`].
    pub cluster: crate::cluster::TableCluster,
}

impl Table {
    /// Wraps a core.
    pub fn new(mut core: Core) -> Table {
        let n = core.seats.len();
        core.live_clock = true;
        Table {
            core,
            subs: vec![],
            chat: VecDeque::new(),
            chat_limit: Default::default(),
            reaction_limit: Default::default(),
            chat_order: Default::default(),
            connected: vec![0; n],
            deadline: None,
            bot_running: false,
            cluster: Default::default(),
        }
    }

    /// Whether a WebSocket holds `seat`, here or at another instance.
    pub fn seat_connected(&self, seat: usize) -> bool {
        self.connected.get(seat).is_some_and(|&c| c > 0) || self.cluster.remote_connected(seat)
    }

    /// Public table info (see docs/api.md "Table info").
    pub fn info(&self) -> Value {
        let c = &self.core;
        let (teams, seat_teams) = match c.spec.seat_teams() {
            Some((n, seats)) => (Some(n), seats),
            None => (None, vec![]),
        };
        let seats: Vec<Value> = c
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| {
                json!({
                    "seat": i,
                    "name": s.name,
                    "kind": s.kind.name(),
                    "level": s.level,
                    "connected": s.kind == SeatKind::Bot || self.seat_connected(i),
                    "team": seat_teams.get(i),
                    "timed_out": c.timeouts.get(i).is_some_and(|&n| n > 0),
                    "timeouts": c.timeouts.get(i).copied().unwrap_or(0),
                    "away": c.away.get(i).copied().unwrap_or(false),
                })
            })
            .collect();
        let mut info = json!({
            "id": c.id,
            "name": c.spec.name,
            "named_after": c.spec.named_after,
            "game": c.spec.game,
            "players": c.spec.players,
            "teams": teams,
            "options": if c.spec.options.is_null() { json!({}) } else { c.spec.options.clone() },
            "status": c.status.name(),
            "game_no": c.game_no,
            "turn_seconds": c.spec.turn_seconds,
            "deadline_ms": self.deadline.map(|d| d.1),
            "deadline_seat": self.deadline.and_then(|_| c.to_act()).map(|s| s.0),
            "private": c.spec.private,
            "rated": c.rated_now(),
            "started_ms": c.times.last().and_then(|t| t.0),
            "ended_ms": c.times.last().and_then(|t| t.1),
            "now_ms": now_ms(),
            "host": 0,
            "seats": seats,
            "results": c.results(),
        });
        if let (Some(reason), Some(o)) = (&c.closed, info.as_object_mut()) {
            o.insert("closed".into(), json!(reason));
        }
        // a tutorial's table says which (issue 25); other tables as before
        if let (Some(t), Some(o)) = (&c.spec.tutorial, info.as_object_mut()) {
            o.insert("tutorial".into(), json!(t));
        }
        info
    }

    /// The view of `seat` (`None`: spectator), with the table info: the
    /// engine's view of the seat or of a spectator (the engine decides what
    /// each may see), `move_number` the moves this table accepted.
    pub fn view(&self, seat: Option<u8>) -> Value {
        let (mut v, log) = self.view_of_game(seat);
        if let Some(o) = v.as_object_mut() {
            if let (Some(from), Some(slot)) = (log, o.get_mut("log")) {
                *slot = Value::Array(super::core::log_values(&self.core.log[from..]));
            }
            o.insert("table".into(), self.info());
        }
        v
    }

    /// [`Table::view`] as JSON text, its `table` field written from
    /// `info` (the table info's JSON text, the same for every seat) and
    /// its move log from the entries' own text: the same text as
    /// `Table::view(seat).to_string()`.
    pub fn view_text(&self, seat: Option<u8>, info: &str) -> String {
        let mut out = Vec::with_capacity(4096);
        self.write_view(seat, info, &mut out);
        String::from_utf8(out).unwrap_or_default()
    }

    /// Writes [`Table::view_text`] at the end of `out`.
    fn write_view(&self, seat: Option<u8>, info: &str, out: &mut Vec<u8>) {
        let (v, log) = self.view_of_game(seat);
        let Some(o) = v.as_object() else {
            // writing JSON into a Vec cannot fail
            let _ = serde_json::to_writer(out, &v);
            return;
        };
        // `{"k":v,…,"log":[ENTRY,…],…,"table":INFO}`, written as
        // `Value::to_string` writes an object (keys in order, no spaces)
        out.push(b'{');
        for (i, (k, val)) in o.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            let _ = serde_json::to_writer(&mut *out, k);
            out.push(b':');
            match log {
                Some(from) if k == "log" => {
                    out.push(b'[');
                    for (j, e) in self.core.log[from..].iter().enumerate() {
                        if j > 0 {
                            out.push(b',');
                        }
                        out.extend_from_slice(e.text().as_bytes());
                    }
                    out.push(b']');
                }
                _ => {
                    let _ = serde_json::to_writer(&mut *out, val);
                }
            }
        }
        if !o.is_empty() {
            out.push(b',');
        }
        out.extend_from_slice(br#""table":"#);
        out.extend_from_slice(info.as_bytes());
        out.push(b'}');
    }

    /// The `view` message of `seat` (`None`: a spectator), its table
    /// info's text `info`: the view written once, after the message's
    /// start.
    fn view_message_of(&self, seat: Option<u8>, info: &str) -> ViewMessage {
        let mut out = Vec::with_capacity(4096);
        out.extend_from_slice(VIEW_PREFIX.as_bytes());
        self.write_view(seat, info, &mut out);
        out.push(b'}');
        ViewMessage(String::from_utf8(out).unwrap_or_default().into())
    }

    /// [`Table::view`] without its `table` field, its `log` field (when it
    /// has one) holding `null` in place of the log's entries from the
    /// index returned on (the newest [`LOG_TAIL`]).
    fn view_of_game(&self, seat: Option<u8>) -> (Value, Option<usize>) {
        let c = &self.core;
        let Some(live) = c.live.as_ref() else {
            let v =
                json!({"game": c.spec.game, "seat": seat, "status": "waiting", "move_number": 0});
            return (v, None);
        };
        // the table's own facts; what the rules give of the table (the
        // penalty being paid, C10; the window's deadline, S5b; the end's
        // facts) is the engine's
        let mut fields = Map::new();
        fields.insert("move_number".into(), json!(c.moves));
        fields.insert("log".into(), Value::Null);
        fields.insert("log_size".into(), json!(c.log.len()));
        let ctx = TableContext {
            fields,
            deadline_ms: self.deadline.map(|d| d.1),
            playing: c.status == Status::Playing,
            over: c.status == Status::Over,
            closed: c.status == Status::Closed,
        };
        let v = live.table_view(seat.map(Seat), &ctx);
        (v, Some(c.log.len().saturating_sub(LOG_TAIL)))
    }

    /// The `view` message of `seat` (`None`: a spectator).
    pub fn view_message(&self, seat: Option<u8>) -> ViewMessage {
        self.view_message_of(seat, &self.info().to_string())
    }

    /// Sends every subscriber its view; drops subscribers whose queue is
    /// full or closed.
    pub fn broadcast_views(&mut self) {
        self.push_views(None);
    }

    /// [`Table::broadcast_views`], answering the view of `seat` as pushed:
    /// each view is computed and written once, for the pushes and the
    /// answer alike.
    pub fn broadcast_views_answering(&mut self, seat: u8) -> ViewMessage {
        self.push_views(Some(seat))
            .unwrap_or_else(|| self.view_message(Some(seat)))
    }

    /// Pushes the views, each seat's (and the spectators') written once
    /// whatever its number of connections, the table info once for all;
    /// the message of `keep` if one of its connections got it.
    fn push_views(&mut self, keep: Option<u8>) -> Option<ViewMessage> {
        if self.subs.is_empty() {
            return None;
        }
        let n = self.core.seats.len();
        let info = self.info().to_string();
        let mut cache: Vec<Option<ViewMessage>> = vec![None; n + 1];
        let mut dead = vec![];
        for i in 0..self.subs.len() {
            let seat = self.subs[i].seat;
            let k = seat.map_or(n, |s| s as usize);
            let msg = match &cache[k] {
                Some(m) => m,
                None => cache[k].insert(self.view_message_of(seat, &info)),
            };
            if self.subs[i].tx.try_send(msg.frame().clone()).is_err() {
                dead.push(self.subs[i].id);
            }
        }
        if !dead.is_empty() {
            self.drop_subs(&dead);
        }
        keep.and_then(|s| cache.get_mut(s as usize).and_then(Option::take))
    }

    /// Sends one message to every subscriber.
    pub fn broadcast(&mut self, msg: &Value) {
        let text: Frame = msg.to_string().into();
        let dead: Vec<u64> = self
            .subs
            .iter()
            .filter(|s| s.tx.try_send(text.clone()).is_err())
            .map(|s| s.id)
            .collect();
        if !dead.is_empty() {
            self.drop_subs(&dead);
        }
    }

    /// Removes subscribers (their connections close).
    pub fn drop_subs(&mut self, ids: &[u64]) {
        let mut i = 0;
        while i < self.subs.len() {
            if ids.contains(&self.subs[i].id) {
                let s = self.subs.swap_remove(i);
                if let Some(seat) = s.seat {
                    self.connected[seat as usize] = self.connected[seat as usize].saturating_sub(1);
                }
            } else {
                i += 1;
            }
        }
    }

    /// Resets the clock after a change: the seat to act gets
    /// `turn_seconds` (none without a timer), or when it is asked out of
    /// turn (the Stacks Block window) [`WINDOW_SECONDS`] (or the turn
    /// timer if shorter). Seats a bot plays (bots, seats away) get none.
    pub fn reset_deadline(&mut self) {
        self.reset_deadline_from(now_ms());
    }

    /// Resets the turn timer as of `clock_ms` (Unix ms: when the change
    /// that restarted it was committed, here or at another instance).
    pub fn reset_deadline_from(&mut self, clock_ms: i64) {
        self.deadline = None;
        let Some(seat) = self.core.to_act() else {
            return;
        };
        if self.core.bot_plays(seat) {
            return;
        }
        let window = self.core.live.as_ref().is_some_and(|l| l.in_window());
        let turn = self.core.spec.turn_seconds;
        let secs = if window {
            turn.map_or(WINDOW_SECONDS, |t| t.min(WINDOW_SECONDS))
        } else {
            match turn {
                Some(t) => t,
                None => return,
            }
        };
        let d = std::time::Duration::from_secs(secs as u64);
        let at_ms = clock_ms + d.as_millis() as i64;
        let left = std::time::Duration::from_millis(at_ms.saturating_sub(now_ms()).max(0) as u64);
        self.deadline = Some((Instant::now() + left, at_ms, self.core.moves));
    }
}
