//! The server's commands' arguments: `sequence serve` (read into the
//! server's [`ServeFlags`]), `sequence backup` and `sequence restore`
//! (into its [`BackupConfig`] and [`RestoreConfig`]).

use clap::Args;
use sequence_server::backup::{BackupConfig, RestoreConfig};
use sequence_server::settings::{self, DEFAULT_DB};
use sequence_server::{LogFormat, ServeFlags};
use std::path::PathBuf;

/// `sequence serve`: the flags. Each is optional: an absent flag leaves
/// the key to the environment, the `--config` file or the default
/// (`--print-config` shows what applies and where it came from).
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// A TOML file of settings (keys as the flags with `_` for `-`, e.g.
    /// `rate_limit = 0`); flags and `SEQUENCE_…` environment variables
    /// override it. Also `SEQUENCE_CONFIG`.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Print the settings that apply (secrets redacted), each with where it
    /// came from, and exit.
    #[arg(long)]
    pub print_config: bool,
    /// Address to listen on [default: 127.0.0.1:8080].
    #[arg(long, value_parser = settings::listen_address)]
    pub listen: Option<String>,
    /// Database: an SQLite file path (WAL mode; one server) or a
    /// `postgres://` URL (several servers may share it: docs/deploy.md)
    /// [default: sequence.db].
    #[arg(long, value_parser = settings::database_name)]
    pub db: Option<String>,
    /// HTTP requests per second allowed per client address (0: no limit)
    /// [default: 20].
    #[arg(long)]
    pub rate_limit: Option<u32>,
    /// Burst size of the per-address rate limit [default: 60].
    #[arg(long)]
    pub rate_burst: Option<u32>,
    /// Pause before each bot move, in milliseconds [default: 500].
    #[arg(long)]
    pub bot_delay_ms: Option<u64>,
    /// PostgreSQL: connections to the database per server (2–1000)
    /// [default: 16].
    #[arg(long, value_parser = clap::value_parser!(u32).range(settings::DB_POOL_RANGE))]
    pub db_pool: Option<u32>,
    /// PostgreSQL: a server whose heartbeat is older than this many
    /// milliseconds is taken for dead and its tables' bots and turn clocks
    /// move to the others (it renews every third of it; 300–600000)
    /// [default: 3000].
    #[arg(long, value_parser = clap::value_parser!(u64).range(settings::LEASE_MS_RANGE))]
    pub lease_ms: Option<u64>,
    /// Search iterations per position of a finished game's analysis (the
    /// most a request may ask for; each position's search runs on one
    /// low-priority thread) [default: 20000].
    #[arg(long)]
    pub analysis_iterations: Option<u64>,
    /// Open connections in all (WebSockets included); over it a new one
    /// is answered 503 (0: as many as the file descriptor limit allows)
    /// [default: 10000].
    #[arg(long)]
    pub max_connections: Option<usize>,
    /// Open connections from one client address (an IPv6 /64); over it a
    /// new one is answered 429 (0: no cap; behind a reverse proxy)
    /// [default: 1000].
    #[arg(long)]
    pub max_connections_per_address: Option<usize>,
    /// Seconds for a request's line and headers to arrive (and how long
    /// an idle keep-alive connection stays open; 1–3600) [default: 10].
    #[arg(long, value_parser = clap::value_parser!(u64).range(settings::TIMEOUT_RANGE))]
    pub header_timeout: Option<u64>,
    /// Seconds for a request's body to arrive after its headers (then
    /// 408; 1–3600) [default: 10].
    #[arg(long, value_parser = clap::value_parser!(u64).range(settings::TIMEOUT_RANGE))]
    pub body_timeout: Option<u64>,
    /// Seconds for a WebSocket's `hello` to arrive after the upgrade
    /// (1–3600) [default: 10].
    #[arg(long, value_parser = clap::value_parser!(u64).range(settings::TIMEOUT_RANGE))]
    pub hello_timeout: Option<u64>,
    /// Seconds a connection may leave unread what it is sent, or send
    /// nothing; WebSockets are pinged every third of it (3–86400)
    /// [default: 60].
    #[arg(long, value_parser = clap::value_parser!(u64).range(settings::IDLE_TIMEOUT_RANGE))]
    pub idle_timeout: Option<u64>,
    /// WebSocket upgrades per second from one client address, counted
    /// apart from API requests (0: no limit) [default: 50].
    #[arg(long)]
    pub ws_rate: Option<u32>,
    /// Burst of `--ws-rate` [default: 500].
    #[arg(long)]
    pub ws_burst: Option<u32>,
    /// Serve `GET /metrics` (Prometheus), `/readyz` and `/healthz` on this
    /// private address too, e.g. 127.0.0.1:9464; the public address never
    /// serves /metrics (docs/deploy.md "Metrics and readiness").
    #[arg(long, value_parser = settings::listen_address)]
    pub metrics_listen: Option<String>,
    /// Log lines as JSON objects (one a line, with the request id and the
    /// table id of the request's span) instead of text [default: text].
    #[arg(long, value_enum)]
    pub log_format: Option<LogFormatArg>,
    /// The token of the operators' API (`sequence admin`; at least 16
    /// characters); better given in the environment
    /// (`SEQUENCE_ADMIN_TOKEN`) or the `--config` file than on the command
    /// line, where other users of the machine can read it. None: the API
    /// is off.
    #[arg(long)]
    pub admin_token: Option<String>,
    /// Passkeys: the origin the pages are served from, as the browser
    /// sees it (`https://play.example.org`; behind a reverse proxy, the
    /// proxy's). None: each request's own (its Host header; https when it
    /// came over https or the proxy says so).
    #[arg(long, value_name = "ORIGIN")]
    pub passkey_origin: Option<String>,
    /// Passkeys: the relying party id, the origin's host or a parent
    /// domain of it (`example.org`); a passkey works only there. None:
    /// the origin's host.
    #[arg(long, value_name = "DOMAIN")]
    pub passkey_rp_id: Option<String>,
}

impl ServeArgs {
    /// The flags given, for [`ServeFlags::load`].
    pub fn flags(&self) -> ServeFlags {
        ServeFlags {
            config: self.config.clone(),
            listen: self.listen.clone(),
            db: self.db.clone(),
            rate_limit: self.rate_limit,
            rate_burst: self.rate_burst,
            bot_delay_ms: self.bot_delay_ms,
            db_pool: self.db_pool,
            lease_ms: self.lease_ms,
            analysis_iterations: self.analysis_iterations,
            max_connections: self.max_connections,
            max_connections_per_address: self.max_connections_per_address,
            header_timeout: self.header_timeout,
            body_timeout: self.body_timeout,
            hello_timeout: self.hello_timeout,
            idle_timeout: self.idle_timeout,
            ws_rate: self.ws_rate,
            ws_burst: self.ws_burst,
            metrics_listen: self.metrics_listen.clone(),
            log_format: self.log_format.map(LogFormat::from),
            admin_token: self.admin_token.clone(),
            passkey_origin: self.passkey_origin.clone(),
            passkey_rp_id: self.passkey_rp_id.clone(),
        }
    }
}

/// `--log-format`: how `serve` writes its log ([`LogFormat`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormatArg {
    /// Lines of text (`RUST_LOG` sets the level: `RUST_LOG=info`).
    Text,
    /// One JSON object a line.
    Json,
}

impl From<LogFormatArg> for LogFormat {
    fn from(f: LogFormatArg) -> Self {
        match f {
            LogFormatArg::Text => LogFormat::Text,
            LogFormatArg::Json => LogFormat::Json,
        }
    }
}

/// `sequence backup`: a consistent copy of a live SQLite database.
#[derive(Debug, Args)]
pub struct BackupArgs {
    /// The SQLite database (a server may be serving it).
    #[arg(long, default_value = DEFAULT_DB)]
    pub db: String,
    /// The new file to write the copy to.
    #[arg(long)]
    pub out: PathBuf,
    /// Leave out reading the copy back (every table and record checked).
    #[arg(long)]
    pub no_check: bool,
}

impl From<BackupArgs> for BackupConfig {
    fn from(a: BackupArgs) -> Self {
        BackupConfig {
            db: a.db,
            out: a.out,
            check: !a.no_check,
        }
    }
}

/// `sequence restore`: a checked backup in place of a database.
#[derive(Debug, Args)]
pub struct RestoreArgs {
    /// The backup (a file `sequence backup` wrote).
    #[arg(long)]
    pub from: PathBuf,
    /// The SQLite database to restore into (no server may be using it).
    #[arg(long, default_value = DEFAULT_DB)]
    pub db: String,
    /// Replace an existing database.
    #[arg(long)]
    pub force: bool,
}

impl From<RestoreArgs> for RestoreConfig {
    fn from(a: RestoreArgs) -> Self {
        RestoreConfig {
            from: a.from,
            db: a.db,
            force: a.force,
        }
    }
}
