//! Keeping tables in memory up to date with the database: what other
//! server instances changed (notes, catching up after lost notes), and
//! ownership of tables moving between instances.

use super::chat::deliver_chat;
use super::{kick_bots, App, TableRef};
use crate::cluster::Note;
use crate::tables::{now_ms, Core, Event, Table, TableError};
use serde_json::Value;
use std::sync::atomic::Ordering;
use std::sync::Arc;

impl App {
    /// Whether table `t` may lag the database: a commit of unknown outcome,
    /// or (PostgreSQL) notifications not arriving.
    pub(super) fn may_lag(&self, t: &Table) -> bool {
        t.cluster.stale || (self.db.shared() && !self.cluster.listening.load(Ordering::Relaxed))
    }

    /// Reads the events appended since this instance last did (other
    /// instances on a shared PostgreSQL; on SQLite only after a commit of
    /// unknown outcome) and applies them; whether any came.
    ///
    /// # Errors
    /// Database errors; a stored event that does not replay.
    pub async fn sync(
        self: &Arc<Self>,
        tref: &TableRef,
        t: &mut Table,
    ) -> Result<bool, TableError> {
        if !self.db.shared() && !t.cluster.stale {
            return Ok(false);
        }
        let c = self.db.catch_up(&t.core.id, t.core.next_seq).await?;
        t.cluster.stale = false;
        if c.events.is_empty() {
            return Ok(false);
        }
        for (seq, data) in &c.events {
            if let Err(e) = apply_stored(&mut t.core, *seq, data) {
                t.cluster.stale = true;
                return Err(e);
            }
        }
        self.after_change_elsewhere(tref, t, c.clock_ms);
        Ok(true)
    }

    /// After events committed elsewhere were applied: the shared turn
    /// clock, everyone's views, the bots.
    pub(super) fn after_change_elsewhere(
        self: &Arc<Self>,
        tref: &TableRef,
        t: &mut Table,
        clock_ms: Option<i64>,
    ) {
        if clock_ms.is_some_and(|c| c != t.cluster.clock_ms) || t.deadline.is_none() {
            set_clock(t, clock_ms);
        }
        t.broadcast_views();
        kick_bots(self, tref, t);
    }

    /// Brings every table in memory up to date (after the notification
    /// listener reconnected: notes sent meanwhile were lost): one query per
    /// 500 tables finds those that changed; they, and the chat of the
    /// tables someone watches, are read again.
    pub async fn catch_up_all(self: &Arc<Self>) {
        let ids = self.table_ids();
        if ids.is_empty() {
            return;
        }
        let stored = match self.db.next_seqs(&ids).await {
            Ok(s) => s,
            Err(e) => {
                tracing::warn!("cannot catch up after reconnecting: {e}");
                for tref in self.all_tables() {
                    tref.lock().await.cluster.stale = true;
                }
                return;
            }
        };
        let mut behind = 0usize;
        for (id, next, _) in stored {
            let Some(tref) = self.cached(&id) else {
                continue;
            };
            let mut t = tref.lock().await;
            if next > t.core.next_seq {
                behind += 1;
                if let Err(e) = self.sync(&tref, &mut t).await {
                    tracing::warn!(table = %id, "cannot catch up: {e}");
                    t.cluster.stale = true;
                }
            }
            if !t.subs.is_empty() {
                self.catch_up_chat(&mut t).await;
            }
        }
        if behind > 0 {
            tracing::info!(tables = behind, "caught up tables changed elsewhere");
        }
    }

    /// Reads and shows the chat lines of `t` this instance has not shown.
    pub(super) async fn catch_up_chat(&self, t: &mut Table) {
        match self.db.chat_since(&t.core.id, t.cluster.chat_next).await {
            Ok(lines) => {
                for (seq, line) in lines {
                    if seq >= t.cluster.chat_next {
                        t.cluster.chat_next = seq + 1;
                        if let Ok(v) = serde_json::from_str::<Value>(&line) {
                            deliver_chat(t, v);
                        }
                    }
                }
            }
            Err(e) => tracing::warn!(table = %t.core.id, "cannot read the chat: {e}"),
        }
    }

    /// Applies a notification of another instance (or of this one, which
    /// it already applied) to the table in memory; a table not in memory
    /// is left alone, unless this instance owns it and it changed (its
    /// bots may have to move).
    pub async fn apply_note(self: &Arc<Self>, note: Note) {
        let id = match note.table() {
            Some(id) => id.to_string(),
            None => {
                if let Note::Gone { instance } = &note {
                    for tref in self.all_tables() {
                        let mut t = tref.lock().await;
                        if t.cluster.drop_instance(instance) {
                            t.broadcast_views();
                        }
                    }
                }
                return;
            }
        };
        let Some(tref) = self.cached(&id) else {
            if matches!(note, Note::Events { .. }) && self.cluster.owns(&id) {
                if let Err(e) = self.table(&id).await {
                    tracing::warn!(table = %id, "cannot load an owned table that changed: {e}");
                }
            } else {
                self.cluster.notes.not_here.fetch_add(1, Ordering::Relaxed);
                tracing::debug!(table = %id, "notification about a table not in memory here: ignored");
            }
            return;
        };
        let mut t = tref.lock().await;
        match note {
            Note::Events {
                first,
                last,
                at_ms,
                data,
                ..
            } => {
                if t.core.next_seq > last {
                    return; // applied already (this instance's own change, or read)
                }
                if t.core.next_seq == first && !data.is_empty() {
                    for (i, d) in data.iter().enumerate() {
                        if let Err(e) = apply_stored(&mut t.core, first + i as i64, d) {
                            tracing::warn!(table = %id, "notified event does not apply: {e}");
                            t.cluster.stale = true;
                            break;
                        }
                    }
                    if !t.cluster.stale {
                        self.after_change_elsewhere(&tref, &mut t, Some(at_ms));
                        return;
                    }
                }
                // notes were lost, or the events did not fit: read them
                if let Err(e) = self.sync(&tref, &mut t).await {
                    tracing::warn!(table = %id, "cannot catch up: {e}");
                    t.cluster.stale = true;
                }
            }
            Note::Chat { seq, line, .. } => {
                if seq < t.cluster.chat_next {
                    return;
                }
                match line.and_then(|l| serde_json::from_str::<Value>(&l).ok()) {
                    Some(v) if seq == t.cluster.chat_next => {
                        t.cluster.chat_next = seq + 1;
                        deliver_chat(&mut t, v);
                    }
                    _ => self.catch_up_chat(&mut t).await,
                }
            }
            Note::Presence {
                instance,
                seat,
                conns,
                version,
                ..
            } => {
                if instance != self.cluster.me
                    && t.cluster.set_remote(&instance, seat, conns, version)
                {
                    t.broadcast_views();
                }
            }
            Note::Gone { .. } => {}
        }
    }

    /// After another instance took this one for dead (and its tables
    /// over): this instance runs the bots and clocks of no table but
    /// those the database says it owns.
    pub async fn lost_ownership(self: &Arc<Self>) {
        let owned = match self.db.owned_by(&self.cluster.me).await {
            Ok(o) => o,
            Err(e) => {
                tracing::warn!("cannot read which tables this instance owns: {e}");
                vec![]
            }
        };
        self.cluster.set_owned(owned);
        for tref in self.all_tables() {
            let mut t = tref.lock().await;
            t.cluster.owned = self.cluster.owns(&t.core.id);
        }
    }

    /// A table in memory that this instance has just taken over: its bots
    /// go on (its clock runs from the shared start of the turn).
    pub async fn resume_owned(self: &Arc<Self>, tref: &TableRef, t: &mut Table) {
        if let Err(e) = self.sync(tref, t).await {
            tracing::warn!(table = %t.core.id, "cannot catch up a table taken over: {e}");
            t.cluster.stale = true;
        }
        kick_bots(self, tref, t);
    }
}

pub(super) fn apply_stored(core: &mut Core, seq: i64, data: &str) -> Result<(), TableError> {
    let ev: Event = serde_json::from_str(data).map_err(|e| {
        TableError::Internal(format!("table {} event {seq} unreadable: {e}", core.id))
    })?;
    if seq != core.next_seq {
        return Err(TableError::Internal(format!(
            "table {} event {seq} out of order",
            core.id
        )));
    }
    core.apply(&ev).map_err(|e| {
        TableError::Internal(format!("table {} event {seq} replays wrong: {e}", core.id))
    })
}

/// Sets the turn clock of `t` from the shared start of the turn
/// (`clock_ms`, when the change that restarted it was committed, here or
/// at another instance; now when unknown).
pub(super) fn set_clock(t: &mut Table, clock_ms: Option<i64>) {
    let clock = clock_ms.unwrap_or_else(now_ms);
    t.cluster.clock_ms = clock;
    t.reset_deadline_from(clock);
}
