//! Tables into memory: loading a stored table (replaying its events,
//! deciding who runs its bots and clock, reading its chat), opening one for
//! a request, and creating one.

use super::change::event_texts;
use super::sync::{apply_stored, set_clock};
use super::{kick_bots, App, OpenTable, TableRef};
use crate::limits::echo;
use crate::tables::{Core, Event, Spec, Table, TableError};
use serde_json::Value;
use std::sync::Arc;
use std::time::Instant;
use tokio::sync::Mutex;

/// The table `id` rebuilt from its stored `spec` (JSON) and its events
/// (`(seq, JSON)` in order): the one way a stored table is read (loading
/// it, checking a backup).
///
/// # Errors
/// [`TableError::Internal`] naming the table and the event that does not
/// read or replay.
pub fn core_of(id: &str, spec: &str, events: &[(i64, String)]) -> Result<Core, TableError> {
    let mut spec: Spec = serde_json::from_str(spec)
        .map_err(|e| TableError::Internal(format!("stored table {id}: {e}")))?;
    if spec.options.as_array().is_some_and(Vec::is_empty) {
        // stored before `options` had to be an object: `[]` meant the
        // defaults then
        spec.options = Value::Null;
    }
    let mut core = Core::new(id.to_string(), spec);
    for (seq, data) in events {
        apply_stored(&mut core, *seq, data)?;
    }
    Ok(core)
}

impl App {
    /// The table `id`, loaded from the database if needed (its bots move
    /// again if this instance runs them).
    ///
    /// # Errors
    /// [`TableError::NotFound`] when there is no such table; a stored table
    /// that does not replay is [`TableError::Internal`].
    pub async fn table(self: &Arc<Self>, id: &str) -> Result<TableRef, TableError> {
        if !crate::auth::table_id_ok(id) {
            return Err(TableError::NotFound(format!(
                "no table `{}` (ids are 16 hex characters)",
                echo(id)
            )));
        }
        if let Some(t) = self.cached(id) {
            return Ok(t);
        }
        let stored = self
            .db
            .load(id)
            .await?
            .ok_or_else(|| TableError::NotFound(format!("no table {id}")))?;
        let core = core_of(id, &stored.spec, &stored.events)?;
        let owned = self.decide_owner(id, stored.owner.as_deref()).await?;
        let mut table = Table::new(core);
        table.cluster.owned = owned;
        set_clock(&mut table, stored.clock_ms);
        table.cluster.last_used = Some(Instant::now());
        let ours = Arc::new(Mutex::new(table));
        let mut guard = ours.clone().lock_owned().await;
        let tref = {
            let mut map = self
                .tables
                .lock()
                .map_err(|_| TableError::Internal("lock".into()))?;
            map.entry(id.to_string()).or_insert(ours.clone()).clone()
        };
        if !Arc::ptr_eq(&tref, &ours) {
            return Ok(tref); // another request loaded it first
        }
        if let Err(e) = self.after_load(&tref, &mut guard).await {
            drop(guard);
            if let Ok(mut m) = self.tables.lock() {
                m.remove(id);
            }
            return Err(e);
        }
        kick_bots(self, &tref, &mut guard);
        Ok(tref)
    }

    /// What a freshly loaded table reads besides its events, once it is in
    /// memory (notes arriving now wait for its lock): the chat, and with
    /// PostgreSQL the events committed since it was read (their notes came
    /// before it was in memory) and the WebSockets of other instances.
    pub(super) async fn after_load(
        self: &Arc<Self>,
        tref: &TableRef,
        t: &mut Table,
    ) -> Result<(), TableError> {
        let lines = self.db.chat_since(&t.core.id, 0).await?;
        t.cluster.chat_next = lines.last().map_or(1, |(seq, _)| seq + 1);
        for (_, line) in lines {
            if let Ok(v) = serde_json::from_str::<Value>(&line) {
                t.chat.push_back(v);
            }
        }
        while t.chat.len() > 50 {
            t.chat.pop_front();
        }
        if self.db.shared() {
            self.sync(tref, t).await?;
            for (instance, seat, conns) in self.db.presence(&t.core.id, &self.cluster.me).await? {
                t.cluster.set_remote(&instance, seat, conns, 0);
            }
        }
        Ok(())
    }

    /// Whether this instance runs the bots and clock of table `id`, whose
    /// stored owner is `owner`: always with SQLite; with PostgreSQL when it
    /// owns it, or claims it because it has no owner or its owner is dead.
    async fn decide_owner(&self, id: &str, owner: Option<&str>) -> Result<bool, TableError> {
        if !self.db.shared() || self.cluster.owns(id) {
            return Ok(true);
        }
        let me = &self.cluster.me;
        if owner == Some(me.as_str()) {
            self.cluster.add_owned(id);
            return Ok(true);
        }
        let lease = self.cluster.cfg.lease.as_millis() as i64;
        if self.db.claim(id, me, lease).await? {
            tracing::info!(table = %id, "claimed a table whose owner is gone");
            self.cluster.add_owned(id);
            return Ok(true);
        }
        Ok(false)
    }

    /// The table `id` found ([`App::table`]), locked, and up to date with
    /// what other server instances wrote ([`App::sync`]).
    ///
    /// # Errors
    /// As [`App::table`] and [`App::sync`].
    pub async fn open(self: &Arc<Self>, id: &str) -> Result<OpenTable, TableError> {
        let tref = self.table(id).await?;
        let mut table = tref.clone().lock_owned().await;
        table.cluster.last_used = Some(Instant::now());
        self.sync(&tref, &mut table).await?;
        Ok(OpenTable {
            tref,
            table,
            synced: true,
        })
    }

    /// The table `id` found and locked for a change (a move): as this
    /// instance knows it, read again only when it may lag (notifications
    /// not arriving, a commit of unknown outcome). The commit checks that
    /// nothing was stored meanwhile.
    ///
    /// # Errors
    /// As [`App::open`].
    pub async fn open_for_change(self: &Arc<Self>, id: &str) -> Result<OpenTable, TableError> {
        let tref = self.table(id).await?;
        let mut table = tref.clone().lock_owned().await;
        table.cluster.last_used = Some(Instant::now());
        let synced = self.may_lag(&table);
        if synced {
            self.sync(&tref, &mut table).await?;
        }
        Ok(OpenTable {
            tref,
            table,
            synced,
        })
    }

    /// Creates a table of `spec` from its first `events` (the host's seat
    /// and any bots), starting its game at once when every seat is filled;
    /// returns its id once it is stored. This instance owns it.
    ///
    /// # Errors
    /// The first event's refusal, or a database error.
    pub async fn create_table(
        self: &Arc<Self>,
        spec: Spec,
        mut events: Vec<Event>,
    ) -> Result<String, TableError> {
        let id = crate::auth::new_table_id();
        let mut core = Core::new(id.clone(), spec.clone());
        // a table whose other seats are all bots starts now: its start
        // time is known (the end panel's duration)
        core.live_clock = true;
        for e in &events {
            core.apply(e)?;
        }
        if core.all_filled() {
            let e = Event::Start {
                seed: crate::tables::tutorial::start_seed(&core.spec, core.game_no),
            };
            core.apply(&e)?;
            events.push(e);
        }
        let spec_text =
            serde_json::to_string(&spec).map_err(|e| TableError::Invalid(e.to_string()))?;
        let shared = self.db.shared();
        self.db
            .create_table(
                &id,
                &spec_text,
                core.status.name(),
                spec.created_ms,
                &event_texts(&events)?,
                shared.then_some(self.cluster.me.as_str()),
            )
            .await?;
        if shared {
            self.cluster.add_owned(&id);
        }
        let mut table = Table::new(core);
        table.cluster.owned = true;
        table.cluster.chat_next = 1;
        table.cluster.last_used = Some(Instant::now());
        set_clock(&mut table, Some(spec.created_ms));
        let tref = Arc::new(Mutex::new(table));
        if let Ok(mut m) = self.tables.lock() {
            m.insert(id.clone(), tref.clone());
        }
        {
            let mut t = tref.lock().await;
            kick_bots(self, &tref, &mut t);
        }
        tracing::info!(table = %id, "table created");
        Ok(id)
    }
}
