//! The web UI: files of `crates/sequence-server/web/` embedded in the
//! binary, `index.html` at `/` (and at the page's own routes: `/replay/ID`,
//! `/u/NAME`, `/leaderboard`, `/account`, `/games`),
//! others by path with their content type.

use axum::http::{header, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use include_dir::{include_dir, Dir};

static WEB: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/web");

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
