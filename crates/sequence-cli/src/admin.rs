//! `sequence admin …`: the operators' API of a running server
//! (docs/deploy.md "Administration"), with the server's admin token.
//! Prints the server's JSON answer; exit 1 with its error otherwise.

use clap::{Args, Subcommand};

/// `sequence admin`.
#[derive(Debug, Args)]
pub struct AdminArgs {
    /// The server's address.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    pub server: String,
    /// The admin token the server was started with (default: the
    /// environment's `SEQUENCE_ADMIN_TOKEN`).
    #[arg(long)]
    pub token: Option<String>,
    /// What to do.
    #[command(subcommand)]
    pub action: Action,
}

/// An operators' action.
#[derive(Debug, Subcommand)]
pub enum Action {
    /// The tables in memory at the server, their seats and WebSockets.
    Tables,
    /// Close a table: nothing more happens at it; its players see the reason.
    Close {
        /// The table id.
        table: String,
        /// Why (shown to the players).
        #[arg(long)]
        reason: String,
    },
    /// Rename the person at a seat (an abusive name).
    Rename {
        /// The table id.
        table: String,
        /// The seat (0 = the first).
        seat: u8,
        /// The new name.
        #[arg(long, conflicts_with = "remove", required_unless_present = "remove")]
        name: Option<String>,
        /// Replace the name by a neutral `Player N`.
        #[arg(long)]
        remove: bool,
    },
    /// The server instances and their leases.
    Leases,
}

/// The method, path and body of an action.
fn request(a: &Action) -> (reqwest::Method, String, Option<serde_json::Value>) {
    use serde_json::json;
    match a {
        Action::Tables => (reqwest::Method::GET, "/api/admin/tables".into(), None),
        Action::Leases => (reqwest::Method::GET, "/api/admin/leases".into(), None),
        Action::Close { table, reason } => (
            reqwest::Method::POST,
            format!("/api/admin/tables/{table}/close"),
            Some(json!({ "reason": reason })),
        ),
        Action::Rename {
            table, seat, name, ..
        } => (
            reqwest::Method::POST,
            format!("/api/admin/tables/{table}/seats/{seat}/name"),
            Some(json!({ "name": name })),
        ),
    }
}

/// Runs `sequence admin`.
///
/// # Errors
/// The server cannot be reached, or refuses (its error and status).
pub fn run(a: AdminArgs) -> anyhow::Result<()> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let token = match a.token.clone() {
        Some(t) => t,
        None => std::env::var("SEQUENCE_ADMIN_TOKEN").map_err(|_| {
            anyhow::anyhow!("no admin token: set SEQUENCE_ADMIN_TOKEN or give --token")
        })?,
    };
    rt.block_on(async {
        let (method, path, body) = request(&a.action);
        let url = format!("{}{path}", a.server.trim_end_matches('/'));
        let mut req = reqwest::Client::new()
            .request(method, &url)
            .bearer_auth(token.trim())
            .timeout(std::time::Duration::from_secs(30));
        if let Some(b) = body {
            req = req.json(&b);
        }
        let r = req
            .send()
            .await
            .map_err(|e| anyhow::anyhow!("cannot reach {}: {e}", a.server))?;
        let status = r.status();
        let text = r.text().await?;
        let v: serde_json::Value = serde_json::from_str(&text)
            .map_err(|_| anyhow::anyhow!("{status} from {url}: {text}"))?;
        if !status.is_success() {
            let why = v["error"].as_str().unwrap_or(&text);
            anyhow::bail!("{status}: {why}");
        }
        println!("{}", serde_json::to_string_pretty(&v)?);
        Ok(())
    })
}
