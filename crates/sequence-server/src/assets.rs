//! The web UI: files of `crates/sequence-server/web/` embedded in the
//! binary, `index.html` at `/` (and at the page's own routes: `/replay/ID`,
//! `/u/NAME`, `/leaderboard`, `/account`, `/games`),
//! others by path with their content type, and `/precache.json`: what the
//! service worker (`web/sw.js`) keeps for offline use, and its version.

use axum::http::{header, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use include_dir::{include_dir, Dir};

static WEB: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/web");

/// Every embedded file as `(path, contents)`, paths relative to the web
/// root (`js/main.js`), in a stable order.
pub fn files() -> Vec<(String, &'static [u8])> {
    fn walk(d: &'static Dir<'static>, out: &mut Vec<(String, &'static [u8])>) {
        for f in d.files() {
            out.push((f.path().to_string_lossy().replace('\\', "/"), f.contents()));
        }
        for sub in d.dirs() {
            walk(sub, out);
        }
    }
    let mut out = vec![];
    walk(&WEB, &mut out);
    out.sort();
    out
}

/// What the service worker caches for offline use (docs/wasm.md):
/// `{"version", "files"}` — every file of the web UI but the service
/// worker itself and the build notes, the page at `/`, and the games'
/// catalogue `/api/games` (the lobby's form); `version` is the first 16
/// hex digits of the SHA-256 over every file's path and contents, so it
/// changes with any file.
pub fn precache() -> serde_json::Value {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    let mut list = vec!["/".to_string(), "/api/games".to_string()];
    for (path, contents) in files() {
        h.update(path.as_bytes());
        h.update([0]);
        h.update(contents);
        if path != "sw.js" && !path.ends_with("BUILD.json") && !path.ends_with(".txt") {
            list.push(format!("/{path}"));
        }
    }
    let version: String = h.finalize()[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    serde_json::json!({"version": version, "files": list})
}

/// Whether `path` is one of the page's own routes: `/replay/ID`, a
/// profile `/u/NAME`, `/leaderboard` (`/leaderboard/KIND`), `/account`,
/// `/games`.
fn is_page(path: &str) -> bool {
    let one = |prefix: &str| {
        path.strip_prefix(prefix)
            .is_some_and(|rest| !rest.is_empty() && !rest.contains('/'))
    };
    one("replay/")
        || one("u/")
        || one("leaderboard/")
        || ["leaderboard", "account", "games"].contains(&path)
}

/// Serves an embedded file for `uri` (404 JSON error when there is none).
pub async fn serve(uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    if path == "precache.json" {
        static LIST: std::sync::OnceLock<String> = std::sync::OnceLock::new();
        let body = LIST.get_or_init(|| precache().to_string()).clone();
        return (
            [
                (header::CONTENT_TYPE, "application/json".to_string()),
                (header::CACHE_CONTROL, "no-cache".to_string()),
            ],
            body,
        )
            .into_response();
    }
    // the page's own routes (`/replay/ID`): the page decides what to show
    let path = if is_page(path) { "" } else { path };
    let path = if path.is_empty() || path.ends_with('/') {
        format!("{path}index.html")
    } else {
        path.to_string()
    };
    match WEB.get_file(&path) {
        Some(f) => {
            let mime = mime_guess::from_path(&path).first_or_octet_stream();
            let mut ct = mime.essence_str().to_string();
            if ct.starts_with("text/") || ct == "application/javascript" || ct == "application/json"
            {
                ct.push_str("; charset=utf-8");
            }
            (
                [
                    (header::CONTENT_TYPE, ct),
                    (header::CACHE_CONTROL, "no-cache".to_string()),
                ],
                f.contents(),
            )
                .into_response()
        }
        None => crate::error::ApiError::new(
            StatusCode::NOT_FOUND,
            format!("no such path: /{}", crate::limits::echo(&path)),
        )
        .into_response(),
    }
}
