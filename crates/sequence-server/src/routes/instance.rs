//! `GET /api/instance`: this server instance, for operators, load tools
//! and tests (docs/api.md "Several instances").

use crate::app::App;
use crate::error::ApiError;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// `?table=ID` of `GET /api/instance`.
#[derive(Deserialize)]
pub struct InstanceQuery {
    /// A table: the answer says whether this instance runs its bots and
    /// clock.
    pub table: Option<String>,
}

/// `GET /api/instance`: the instance id, the database kind, whether
/// notifications from other instances arrive, tables in memory and owned,
/// open WebSockets, notification counts; with `?table=ID` whether this
/// instance owns that table (runs its bots and turn clock).
pub async fn instance(
    State(app): State<Arc<App>>,
    q: Result<Query<InstanceQuery>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let Query(q) =
        q.map_err(|_| ApiError::bad("the query string could not be read (expected ?table=ID)"))?;
    let c = &app.cluster;
    let shared = app.db.shared();
    let in_memory = app.tables.lock().map(|m| m.len()).unwrap_or(0);
    let n = &c.notes;
    let mut out = json!({
        "instance": c.me,
        "database": if shared { "postgresql" } else { "sqlite" },
        "listening": shared && c.listening.load(Ordering::Relaxed),
        "tables_in_memory": in_memory,
        "tables_owned": if shared { c.owned_count() } else { in_memory },
        "websockets": c.sockets.load(Ordering::Relaxed),
        "notifications": {
            "received": n.received.load(Ordering::Relaxed),
            "malformed": n.malformed.load(Ordering::Relaxed),
            "not_here": n.not_here.load(Ordering::Relaxed),
            "listener_connects": n.connects.load(Ordering::Relaxed),
        },
    });
    if let Some(id) = q.table {
        let owns = if shared {
            c.owns(&id)
        } else {
            crate::auth::table_id_ok(&id)
        };
        out["owns"] = json!(owns);
    }
    Ok(Json(out))
}
