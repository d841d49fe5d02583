//! The web UI's language files as the asset tests read them: the main
//! files (web/i18n/<lang>.json) and those of the account and learning
//! pages (web/i18n/accounts/, web/i18n/learn/).
#![allow(dead_code)]

use serde_json::{Map, Value};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The UI's languages, English first.
pub const LANGUAGES: [&str; 5] = ["en", "ka", "fa", "uk", "kn"];

/// The folder of the web assets.
pub fn web() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("web")
}

/// The strings of `lang` in the language files' folder `folder` under
/// web/i18n (`""` for the main files); panics naming the file when it
/// cannot be read or is not a JSON object.
pub fn strings_in(folder: &str, lang: &str) -> Map<String, Value> {
    let path = web().join("i18n").join(folder).join(format!("{lang}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    match serde_json::from_str(&text) {
        Ok(Value::Object(m)) => m,
        other => panic!("{}: not a JSON object: {other:?}", path.display()),
    }
}

/// The strings of every language in `folder` (as [`strings_in`]), in the
/// order of [`LANGUAGES`], English first, after checking that English has
/// more than `least` of them (`what` names them in the failure) and that
/// every language has exactly English's keys.
pub fn languages_in(
    folder: &str,
    least: usize,
    what: &str,
) -> Vec<(&'static str, Map<String, Value>)> {
    let en = strings_in(folder, "en");
    assert!(en.len() > least, "English has {what} ({})", en.len());
    LANGUAGES
        .iter()
        .map(|&lang| {
            let m = strings_in(folder, lang);
            let missing: Vec<_> = en.keys().filter(|k| !m.contains_key(*k)).collect();
            let extra: Vec<_> = m.keys().filter(|k| !en.contains_key(*k)).collect();
            assert!(
                missing.is_empty() && extra.is_empty(),
                "{lang}: missing {missing:?}, unknown {extra:?}"
            );
            (lang, m)
        })
        .collect()
}

/// The `{name}` placeholders of a string (names of letters, digits and
/// `_`; other braces are text).
pub fn placeholders(s: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = s;
    while let Some(i) = rest.find('{') {
        rest = &rest[i + 1..];
        if let Some(j) = rest.find('}') {
            let name = &rest[..j];
            if !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                out.insert(name.to_string());
            }
            rest = &rest[j + 1..];
        }
    }
    out
}
