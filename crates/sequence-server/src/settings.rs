//! `sequence serve`'s settings from four places, the first that sets a
//! key winning: command-line flags, then environment variables
//! (`SEQUENCE_RATE_LIMIT` for `rate_limit`), then a TOML file
//! (`--config FILE`), then the defaults (docs/deploy.md "Configuration").
//! Read with figment; a bad value is refused with its key and where it
//! came from (`--rate-limit`, `SEQUENCE_RATE_LIMIT`, `rate_limit in
//! /etc/sequence/serve.toml`).

use crate::config::Limits;
use crate::{analysis, db};
use figment::providers::{Env, Format, Serialized, Toml};
use figment::value::{Dict, Map};
use figment::{Figment, Metadata, Profile, Provider, Source};
use serde::{Deserialize, Serialize};
use std::ops::RangeInclusive;
use std::path::PathBuf;
use std::time::Duration;

/// The prefix of the environment variables that set a key
/// (`SEQUENCE_` + the key in capitals).
pub const ENV_PREFIX: &str = "SEQUENCE_";

/// Every key of [`ServeSettings`], in the order `--print-config` writes
/// them; the file's keys, the flags' names (`-` for `_`) and the
/// environment variables' names (upper case, after [`ENV_PREFIX`]).
pub const KEYS: [&str; 22] = [
    "listen",
    "db",
    "db_pool",
    "lease_ms",
    "rate_limit",
    "rate_burst",
    "ws_rate",
    "ws_burst",
    "max_connections",
    "max_connections_per_address",
    "header_timeout",
    "body_timeout",
    "hello_timeout",
    "idle_timeout",
    "bot_delay_ms",
    "analysis_iterations",
    "metrics_listen",
    "log_format",
    "admin_token",
    "passkey_origin",
    "passkey_rp_id",
    "config",
];

/// `sequence serve`'s flags as given: each `None` (or `false`) when
/// absent, which leaves the key to the environment, the `--config` file or
/// the default ([`ServeFlags::load`]). The command line is read into this
/// by the `sequence` binary; the keys are those of [`ServeSettings`] (its
/// docs and `sequence serve --help` say what each means), checked as
/// [`ServeFlags::load`] says.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ServeFlags {
    /// `--config FILE`: a TOML file of settings (else `SEQUENCE_CONFIG`).
    #[serde(skip)]
    pub config: Option<PathBuf>,
    /// `--listen HOST:PORT`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub listen: Option<String>,
    /// `--db`: an SQLite file path or a `postgres://` URL.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub db: Option<String>,
    /// `--rate-limit`: HTTP requests per second per client address.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rate_limit: Option<u32>,
    /// `--rate-burst`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rate_burst: Option<u32>,
    /// `--bot-delay-ms`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bot_delay_ms: Option<u64>,
    /// `--db-pool` ([`DB_POOL_RANGE`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub db_pool: Option<u32>,
    /// `--lease-ms` ([`LEASE_MS_RANGE`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lease_ms: Option<u64>,
    /// `--analysis-iterations`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub analysis_iterations: Option<u64>,
    /// `--max-connections`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_connections: Option<usize>,
    /// `--max-connections-per-address`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_connections_per_address: Option<usize>,
    /// `--header-timeout`, seconds ([`TIMEOUT_RANGE`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub header_timeout: Option<u64>,
    /// `--body-timeout`, seconds ([`TIMEOUT_RANGE`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body_timeout: Option<u64>,
    /// `--hello-timeout`, seconds ([`TIMEOUT_RANGE`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hello_timeout: Option<u64>,
    /// `--idle-timeout`, seconds ([`IDLE_TIMEOUT_RANGE`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub idle_timeout: Option<u64>,
    /// `--ws-rate`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ws_rate: Option<u32>,
    /// `--ws-burst`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ws_burst: Option<u32>,
    /// `--metrics-listen HOST:PORT`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metrics_listen: Option<String>,
    /// `--log-format`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub log_format: Option<LogFormat>,
    /// `--admin-token` (at least 16 characters).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub admin_token: Option<String>,
    /// `--passkey-origin`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub passkey_origin: Option<String>,
    /// `--passkey-rp-id`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub passkey_rp_id: Option<String>,
}

/// The database `serve`, `backup` and `restore` use when none is given.
pub const DEFAULT_DB: &str = "sequence.db";

/// `db_pool`: PostgreSQL connections per server (a range of `i64`, as
/// clap's parser of a `u32` takes).
pub const DB_POOL_RANGE: RangeInclusive<i64> = 2..=1000;
/// `lease_ms`: milliseconds a server's heartbeat stays good.
pub const LEASE_MS_RANGE: RangeInclusive<u64> = 300..=600_000;
/// `header_timeout`, `body_timeout`, `hello_timeout`: seconds.
pub const TIMEOUT_RANGE: RangeInclusive<u64> = 1..=3600;
/// `idle_timeout`: seconds.
pub const IDLE_TIMEOUT_RANGE: RangeInclusive<u64> = 3..=86_400;

/// How `serve` writes its log (`--log-format`, `log_format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    /// Lines of text (`RUST_LOG` sets the level: `RUST_LOG=info`).
    Text,
    /// One JSON object a line.
    Json,
}

/// The settings `serve` runs with, whichever of flags, environment, file
/// and defaults gave each (units as the flags: milliseconds where the key
/// ends in `_ms`, seconds for the timeouts).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[allow(missing_docs)] // each field is the flag of the same name (`sequence serve --help`)
pub struct ServeSettings {
    pub listen: String,
    pub db: String,
    pub db_pool: u32,
    pub lease_ms: u64,
    pub rate_limit: u32,
    pub rate_burst: u32,
    pub ws_rate: u32,
    pub ws_burst: u32,
    pub max_connections: usize,
    pub max_connections_per_address: usize,
    pub header_timeout: u64,
    pub body_timeout: u64,
    pub hello_timeout: u64,
    pub idle_timeout: u64,
    pub bot_delay_ms: u64,
    pub analysis_iterations: u64,
    pub metrics_listen: Option<String>,
    pub log_format: LogFormat,
    pub admin_token: Option<String>,
    pub passkey_origin: Option<String>,
    pub passkey_rp_id: Option<String>,
}

impl Default for ServeSettings {
    fn default() -> Self {
        let limits = Limits::default();
        ServeSettings {
            listen: "127.0.0.1:8080".into(),
            db: DEFAULT_DB.into(),
            db_pool: 16,
            lease_ms: 3000,
            rate_limit: 20,
            rate_burst: 60,
            ws_rate: limits.ws_rate,
            ws_burst: limits.ws_burst,
            max_connections: limits.max_connections,
            max_connections_per_address: limits.max_per_address,
            header_timeout: limits.header_timeout.as_secs(),
            body_timeout: limits.body_timeout.as_secs(),
            hello_timeout: limits.hello_timeout.as_secs(),
            idle_timeout: limits.idle_timeout.as_secs(),
            bot_delay_ms: 500,
            analysis_iterations: analysis::ITERATIONS.1,
            metrics_listen: None,
            log_format: LogFormat::Text,
            admin_token: None,
            passkey_origin: None,
            passkey_rp_id: None,
        }
    }
}

/// A setting refused: the key, where its value came from and why
/// (`rate_limit in /etc/sequence.toml: invalid type: found string "x",
/// expected u32`).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct SettingsError(pub String);

/// [`ServeSettings`] with where each key's value came from.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The settings.
    pub settings: ServeSettings,
    /// Per key of [`KEYS`] (but `config`): `flag --x`, `environment
    /// SEQUENCE_X`, `file PATH` or `default`.
    pub sources: Vec<(&'static str, String)>,
    /// The settings file read, if any.
    pub file: Option<PathBuf>,
}

/// A provider under a name of ours (so that a value's source tells the
/// flags from the defaults).
struct Named<P>(&'static str, P);

impl<P: Provider> Provider for Named<P> {
    fn metadata(&self) -> Metadata {
        Metadata::named(self.0)
    }
    fn data(&self) -> Result<Map<Profile, Dict>, figment::Error> {
        self.1.data()
    }
}

const FLAGS: &str = "flag";
const DEFAULTS: &str = "default";

impl ServeFlags {
    /// The settings these flags, the environment and the `--config` file
    /// (or `SEQUENCE_CONFIG`) give, checked.
    ///
    /// # Errors
    /// The file cannot be read or is not TOML, a key is unknown, or a value
    /// has the wrong type or is out of range: the message names the key and
    /// its source.
    pub fn load(&self) -> Result<Loaded, SettingsError> {
        self.load_with(|name| std::env::var(name).ok())
    }

    /// [`ServeFlags::load`] with the environment's `SEQUENCE_CONFIG` read
    /// through `env` (the other variables are read by figment).
    fn load_with(&self, env: impl Fn(&str) -> Option<String>) -> Result<Loaded, SettingsError> {
        let file = self.config.clone().or_else(|| {
            env(&format!("{ENV_PREFIX}CONFIG"))
                .filter(|p| !p.is_empty())
                .map(PathBuf::from)
        });
        let mut fig = Figment::from(Named(
            DEFAULTS,
            Serialized::defaults(ServeSettings::default()),
        ));
        if let Some(path) = &file {
            check_file(path)?;
            fig = fig.merge(Toml::file_exact(path));
        }
        let keys: Vec<&str> = KEYS.iter().copied().filter(|k| *k != "config").collect();
        fig = fig
            .merge(Env::prefixed(ENV_PREFIX).only(&keys))
            .merge(Named(FLAGS, Serialized::defaults(self)));
        let settings: ServeSettings = fig.extract().map_err(|e| {
            let key = e.path.join(".");
            let from = e
                .metadata
                .as_ref()
                .map_or_else(|| "the settings".to_string(), |m| describe(m, &key));
            SettingsError(format!("{from}: {}", e.kind))
        })?;
        let sources = keys
            .iter()
            .map(|k| {
                let from = fig
                    .find_metadata(k)
                    .map_or_else(|| DEFAULTS.to_string(), |m| describe(m, k));
                (*k, from)
            })
            .collect::<Vec<_>>();
        let loaded = Loaded {
            settings,
            sources,
            file,
        };
        loaded.check()?;
        Ok(loaded)
    }
}

/// `path` exists, is TOML and holds only known keys.
fn check_file(path: &std::path::Path) -> Result<(), SettingsError> {
    let shown = path.display();
    let text = std::fs::read_to_string(path)
        .map_err(|e| SettingsError(format!("cannot read the settings file {shown}: {e}")))?;
    let table: toml::Table = toml::from_str(&text)
        .map_err(|e| SettingsError(format!("{shown} is not a TOML settings file: {e}")))?;
    for key in table.keys() {
        if !KEYS.contains(&key.as_str()) || key == "config" {
            return Err(SettingsError(format!(
                "unknown key `{key}` in {shown} (known: {})",
                KEYS[..KEYS.len() - 1].join(", ")
            )));
        }
    }
    Ok(())
}

/// Where `key`'s value came from, in words: `--rate-limit`,
/// `SEQUENCE_RATE_LIMIT`, `rate_limit in FILE`, `rate_limit (default)`.
fn describe(meta: &Metadata, key: &str) -> String {
    match (&*meta.name, &meta.source) {
        (FLAGS, _) => format!("--{}", key.replace('_', "-")),
        (DEFAULTS, _) => format!("{key} (default)"),
        (_, Some(Source::File(path))) => format!("{key} in {}", path.display()),
        (name, _) if name.contains("environment") => {
            format!("{ENV_PREFIX}{}", key.to_ascii_uppercase())
        }
        (name, _) => format!("{key} ({name})"),
    }
}

impl Loaded {
    /// Where `key` came from ([`Loaded::sources`]).
    fn from<'a>(&'a self, key: &'a str) -> &'a str {
        self.sources
            .iter()
            .find(|(k, _)| *k == key)
            .map_or(key, |(_, s)| s.as_str())
    }

    /// The checks of the flags' own parsers, for every source.
    fn check(&self) -> Result<(), SettingsError> {
        let s = &self.settings;
        let bad = |key: &str, why: String| Err(SettingsError(format!("{}: {why}", self.from(key))));
        if let Err(why) = listen_address(&s.listen) {
            return bad("listen", why);
        }
        if let Some(Err(why)) = s.metrics_listen.as_deref().map(listen_address) {
            return bad("metrics_listen", why);
        }
        if let Err(why) = database_name(&s.db) {
            return bad("db", why);
        }
        let refusals = [
            ("db_pool", outside(i64::from(s.db_pool), &DB_POOL_RANGE)),
            ("lease_ms", outside(s.lease_ms, &LEASE_MS_RANGE)),
            ("header_timeout", outside(s.header_timeout, &TIMEOUT_RANGE)),
            ("body_timeout", outside(s.body_timeout, &TIMEOUT_RANGE)),
            ("hello_timeout", outside(s.hello_timeout, &TIMEOUT_RANGE)),
            ("idle_timeout", outside(s.idle_timeout, &IDLE_TIMEOUT_RANGE)),
        ];
        for (key, why) in refusals {
            if let Some(why) = why {
                return bad(key, why);
            }
        }
        if s.admin_token
            .as_ref()
            .is_some_and(|t| !t.is_empty() && t.trim().chars().count() < 16)
        {
            return bad(
                "admin_token",
                "give at least 16 characters (a random one: openssl rand -hex 16)".into(),
            );
        }
        let origin = s.passkey_origin.as_deref().filter(|t| !t.is_empty());
        let rp_id = s.passkey_rp_id.as_deref().filter(|t| !t.is_empty());
        if let Err(why) = crate::accounts::passkeys::check_settings(origin, None) {
            return bad("passkey_origin", why);
        }
        if let Err(why) = crate::accounts::passkeys::check_settings(origin, rp_id) {
            return bad("passkey_rp_id", why);
        }
        Ok(())
    }

    /// The settings as TOML for `--print-config`: every key with its value
    /// (secrets redacted: the admin token, a database password) and where
    /// it came from as a comment; a file that `--config` reads as it is.
    pub fn to_toml(&self) -> String {
        let mut shown = self.settings.clone();
        if shown.admin_token.is_some() {
            shown.admin_token = Some(REDACTED.into());
        }
        shown.db = redact_db(&shown.db);
        let table = toml::Table::try_from(&shown).unwrap_or_default();
        let mut out = String::from("# sequence serve: the settings that apply\n");
        if let Some(f) = &self.file {
            out += &format!("# settings file: {}\n", f.display());
        }
        for (key, from) in &self.sources {
            match table.get(*key) {
                Some(v) => out += &format!("{key} = {v}  # {from}\n"),
                None => out += &format!("# {key} is not set  ({from})\n"),
            }
        }
        out
    }

    /// The [`Limits`] these settings give.
    pub fn limits(&self) -> Limits {
        self.settings.limits()
    }
}

/// What `--print-config` shows for a secret.
pub const REDACTED: &str = "(redacted)";

/// `db` with a password in it replaced by [`REDACTED`]: the one of a
/// `postgres://user:PASSWORD@host/db` URL and a `password=` parameter.
pub fn redact_db(db: &str) -> String {
    if !db::target::is_postgres(db) {
        return db.to_string();
    }
    let mut out = db.to_string();
    if let Some(scheme_end) = out.find("://") {
        let rest = &out[scheme_end + 3..];
        let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
        if let Some(at) = rest[..authority_end].rfind('@') {
            if let Some(colon) = rest[..at].find(':') {
                let start = scheme_end + 3 + colon + 1;
                out.replace_range(start..scheme_end + 3 + at, REDACTED);
            }
        }
    }
    if let Some(p) = out.find("password=") {
        let start = p + "password=".len();
        let end = out[start..].find('&').map_or(out.len(), |e| start + e);
        out.replace_range(start..end, REDACTED);
    }
    out
}

impl ServeSettings {
    /// The [`Limits`] these settings give.
    pub fn limits(&self) -> Limits {
        let secs = Duration::from_secs;
        Limits {
            max_connections: self.max_connections,
            max_per_address: self.max_connections_per_address,
            header_timeout: secs(self.header_timeout),
            body_timeout: secs(self.body_timeout),
            hello_timeout: secs(self.hello_timeout),
            idle_timeout: secs(self.idle_timeout),
            ws_rate: self.ws_rate,
            ws_burst: self.ws_burst,
        }
    }
}

/// Why `value` is refused when it is outside `range` (the words of the
/// flags' own parsers: `1 is not in 2..=1000`).
fn outside<T: PartialOrd + std::fmt::Display>(
    value: T,
    range: &RangeInclusive<T>,
) -> Option<String> {
    (!range.contains(&value))
        .then(|| format!("{value} is not in {}..={}", range.start(), range.end()))
}

/// `listen`, `metrics_listen`: a HOST:PORT address (a host and a port
/// both given), so that `:8080` or `127.0.0.1` is refused as an argument
/// (exit 2; the `sequence` binary's parser of `--listen`).
///
/// # Errors
/// The message says what a HOST:PORT address is.
pub fn listen_address(s: &str) -> Result<String, String> {
    match s.rsplit_once(':') {
        Some((host, port)) if !host.trim().is_empty() && port.parse::<u16>().is_ok() => {
            Ok(s.to_string())
        }
        _ => Err(format!(
            "{s:?} is not HOST:PORT with both given (e.g. 127.0.0.1:8080, [::1]:8080)"
        )),
    }
}

/// `db`: refuses a name that names nothing (`''`, `sqlite:`) as an
/// argument (exit 2; the `sequence` binary's parser of `--db`).
///
/// # Errors
/// [`db::DbError::NoName`]'s message.
pub fn database_name(s: &str) -> Result<String, String> {
    let pg = db::target::is_postgres(s);
    if s.trim().is_empty() || (!pg && db::target::sqlite_path(s).trim().is_empty()) {
        return Err(db::DbError::NoName.to_string());
    }
    Ok(s.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The flags of `args` (`--config`, `--rate-limit`, `--db`: those the
    /// tests give).
    fn flags(args: &[&str]) -> ServeFlags {
        let mut flags = ServeFlags::default();
        for pair in args.chunks(2) {
            let value = pair[1].to_string();
            match pair[0] {
                "--config" => flags.config = Some(value.into()),
                "--rate-limit" => flags.rate_limit = Some(value.parse().expect("a number")),
                "--db" => flags.db = Some(value),
                other => panic!("no flag {other} in these tests"),
            }
        }
        flags
    }

    // `Jail`'s closure returns figment's own (large) error type.
    #[allow(clippy::result_large_err)]
    fn load(args: &[&str], env: &[(&str, &str)]) -> Result<Loaded, SettingsError> {
        let flags = flags(args);
        // `Jail` sets the environment for its closure only (and one at a
        // time), then restores it.
        let mut out = None;
        figment::Jail::expect_with(|jail| {
            jail.clear_env();
            for (k, v) in env {
                jail.set_env(k, v);
            }
            out = Some(flags.load_with(|k| std::env::var(k).ok()));
            Ok(())
        });
        out.expect("ran")
    }

    /// The defaults are the documented defaults of [`Limits`].
    #[test]
    fn defaults_are_the_limits_defaults() {
        let l = load(&[], &[]).expect("defaults load");
        assert_eq!(l.settings, ServeSettings::default());
        assert_eq!(l.limits(), Limits::default());
        assert!(l.sources.iter().all(|(_, s)| s.ends_with("(default)")));
    }

    /// Flags > environment > file > defaults, key by key.
    #[test]
    fn flags_beat_the_environment_which_beats_the_file() {
        let dir = tempfile::tempdir().expect("temp dir");
        let file = dir.path().join("serve.toml");
        std::fs::write(
            &file,
            "rate_limit = 1\nrate_burst = 2\nws_rate = 3\nlog_format = \"json\"\n",
        )
        .expect("write");
        let f = file.to_str().expect("utf-8");
        let l = load(
            &["--config", f, "--rate-limit", "7"],
            &[("SEQUENCE_RATE_LIMIT", "8"), ("SEQUENCE_RATE_BURST", "9")],
        )
        .expect("loads");
        let s = &l.settings;
        assert_eq!((s.rate_limit, s.rate_burst, s.ws_rate), (7, 9, 3));
        assert_eq!(s.log_format, LogFormat::Json);
        assert_eq!(s.ws_burst, ServeSettings::default().ws_burst);
        assert_eq!(l.from("rate_limit"), "--rate-limit");
        assert_eq!(l.from("rate_burst"), "SEQUENCE_RATE_BURST");
        assert_eq!(l.from("ws_rate"), format!("ws_rate in {f}"));
        assert_eq!(l.from("ws_burst"), "ws_burst (default)");
    }

    /// A bad value names its key and where it came from.
    #[test]
    fn bad_values_name_the_key_and_the_source() {
        let dir = tempfile::tempdir().expect("temp dir");
        let file = dir.path().join("serve.toml");
        let f = file.to_str().expect("utf-8").to_string();
        type Case<'a> = (&'a str, &'a [(&'a str, &'a str)], String);
        let cases: [Case; 7] = [
            ("rate_limit = \"many\"\n", &[], format!("rate_limit in {f}")),
            (
                "db_pool = 1\n",
                &[],
                format!("db_pool in {f}: 1 is not in 2..=1000"),
            ),
            (
                "rate_limt = 3\n",
                &[],
                format!("unknown key `rate_limt` in {f}"),
            ),
            (
                "",
                &[("SEQUENCE_IDLE_TIMEOUT", "1")],
                "SEQUENCE_IDLE_TIMEOUT: 1".into(),
            ),
            (
                "",
                &[("SEQUENCE_LISTEN", ":80")],
                "SEQUENCE_LISTEN: \":80\" is not".into(),
            ),
            (
                "passkey_origin = \"https://127.0.0.1:8443\"\n",
                &[],
                format!("passkey_origin in {f}: passkeys need a page opened at a domain"),
            ),
            (
                "passkey_origin = \"https://play.example.org\"\n",
                &[("SEQUENCE_PASSKEY_RP_ID", "other.org")],
                "SEQUENCE_PASSKEY_RP_ID: the passkey RP id \"other.org\"".into(),
            ),
        ];
        for (text, env, needle) in cases {
            std::fs::write(&file, text).expect("write");
            let e = load(&["--config", &f], env).expect_err(text);
            assert!(e.to_string().starts_with(&needle), "{e} / {needle}");
        }
        let e = load(&[], &[("SEQUENCE_ADMIN_TOKEN", "short")]).expect_err("short token");
        assert!(
            e.to_string()
                .starts_with("SEQUENCE_ADMIN_TOKEN: give at least 16"),
            "{e}"
        );
        let e = load(&["--config", "/nonexistent/serve.toml"], &[]).expect_err("no file");
        assert!(e.to_string().contains("/nonexistent/serve.toml"), "{e}");
    }

    /// `--print-config` hides the admin token and a database password.
    #[test]
    fn printed_settings_redact_secrets() {
        let l = load(
            &[
                "--db",
                "postgres://seq:hunter2secret@db:5432/seq?password=other",
            ],
            &[("SEQUENCE_ADMIN_TOKEN", "0123456789abcdef0123")],
        )
        .expect("loads");
        let text = l.to_toml();
        assert!(
            !text.contains("hunter2secret") && !text.contains("other"),
            "{text}"
        );
        assert!(!text.contains("0123456789abcdef"), "{text}");
        assert!(
            text.contains("admin_token = \"(redacted)\"  # SEQUENCE_ADMIN_TOKEN"),
            "{text}"
        );
        assert!(
            text.contains(
                "db = \"postgres://seq:(redacted)@db:5432/seq?password=(redacted)\"  # --db"
            ),
            "{text}"
        );
        // What it prints (but the redacted values) reads back as a file.
        let table: toml::Table = toml::from_str(&text).expect("TOML");
        assert_eq!(
            table.get("rate_limit").and_then(|v| v.as_integer()),
            Some(20)
        );
    }
}
