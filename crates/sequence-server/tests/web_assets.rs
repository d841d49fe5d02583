//! Checks of the web UI's files (crates/sequence-server/web/) that need no
//! browser: every language file has exactly the English keys with the same
//! `{placeholders}`, every key the code asks for exists, every module the
//! code imports exists, and the Persian file is the only right-to-left one.

use serde_json::{Map, Value};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const LANGUAGES: [&str; 5] = ["en", "ka", "fa", "uk", "kn"];

fn web() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("web")
}

fn strings(lang: &str) -> Map<String, Value> {
    let path = web().join(format!("i18n/{lang}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    match serde_json::from_str(&text) {
        Ok(Value::Object(m)) => m,
        other => panic!("{}: not a JSON object: {other:?}", path.display()),
    }
}

fn placeholders(s: &str) -> BTreeSet<String> {
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

fn strip_placeholders(s: &str) -> String {
    let mut out = s.to_string();
    for p in placeholders(s) {
        out = out.replace(&format!("{{{p}}}"), "");
    }
    out
}

fn scripts() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(web().join("js")).expect("web/js") {
        let p = e.expect("dir entry").path();
        if p.extension().is_some_and(|x| x == "js") {
            let name = p
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            out.push((name, std::fs::read_to_string(&p).expect("read a script")));
        }
    }
    assert!(out.len() >= 8, "the UI's modules are there");
    out
}

/// String literals passed to `t(...)`: `t("a.b"` at the start of a call.
fn literal_keys(src: &str) -> BTreeSet<String> {
    let mut keys = BTreeSet::new();
    for (i, _) in src.match_indices("t(\"") {
        let before = src[..i].chars().last();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.') {
            continue;
        }
        let rest = &src[i + 3..];
        if let Some(end) = rest.find('"') {
            keys.insert(rest[..end].to_string());
        }
    }
    keys
}

#[test]
fn every_language_has_the_english_keys_and_placeholders() {
    let en = strings("en");
    assert!(
        en.len() > 150,
        "English has the UI's strings ({})",
        en.len()
    );
    for lang in LANGUAGES {
        let m = strings(lang);
        let missing: Vec<_> = en.keys().filter(|k| !m.contains_key(*k)).collect();
        let extra: Vec<_> = m.keys().filter(|k| !en.contains_key(*k)).collect();
        assert!(
            missing.is_empty() && extra.is_empty(),
            "{lang}: missing {missing:?}, unknown {extra:?}"
        );
        for (k, v) in &m {
            let s = v
                .as_str()
                .unwrap_or_else(|| panic!("{lang}: {k} is not a string"));
            assert!(!s.trim().is_empty(), "{lang}: {k} is empty");
            let want = placeholders(en[k].as_str().unwrap_or_default());
            assert_eq!(
                placeholders(s),
                want,
                "{lang}: {k} has other placeholders than English"
            );
        }
    }
}

#[test]
fn translations_are_written_in_their_scripts() {
    // A key left in English would show Latin letters where the language's
    // own script is expected.
    let script = |lang: &str| -> fn(char) -> bool {
        match lang {
            "ka" => |c| ('\u{10A0}'..='\u{10FF}').contains(&c),
            "fa" => |c| ('\u{0600}'..='\u{06FF}').contains(&c),
            "uk" => |c| ('\u{0400}'..='\u{04FF}').contains(&c),
            "kn" => |c| ('\u{0C80}'..='\u{0CFF}').contains(&c),
            _ => |_| true,
        }
    };
    for lang in ["ka", "fa", "uk", "kn"] {
        let m = strings(lang);
        let ok = script(lang);
        let long_latin: Vec<_> = m
            .iter()
            .filter(|(k, _)| {
                !k.starts_with("rank.") && !k.starts_with("game.") && *k != "app.title"
            })
            .filter(|(_, v)| {
                let s = strip_placeholders(v.as_str().unwrap_or_default());
                s.chars().filter(|c| c.is_alphabetic()).count() > 3 && !s.chars().any(ok)
            })
            .map(|(k, _)| k.clone())
            .collect();
        assert!(
            long_latin.is_empty(),
            "{lang}: untranslated strings {long_latin:?}"
        );
    }
}

#[test]
fn every_key_the_code_uses_exists() {
    let en = strings("en");
    let mut used = BTreeSet::new();
    for (name, src) in scripts() {
        for k in literal_keys(&src) {
            assert!(en.contains_key(&k), "{name} uses the missing key {k:?}");
            used.insert(k);
        }
    }
    assert!(used.len() > 100, "the scan finds the keys ({})", used.len());
}

#[test]
fn imports_and_page_references_exist() {
    for (name, src) in scripts() {
        for line in src.lines().filter(|l| l.starts_with("import ")) {
            let Some(start) = line.find("\"./") else {
                continue;
            };
            let rest = &line[start + 3..];
            let file = &rest[..rest.find('"').expect("closing quote")];
            assert!(
                web().join("js").join(file).exists(),
                "{name} imports missing {file}"
            );
        }
    }
    let html = std::fs::read_to_string(web().join("index.html")).expect("index.html");
    for r in ["style.css", "js/main.js"] {
        assert!(
            html.contains(r) && web().join(r).exists(),
            "index.html uses {r}"
        );
    }
    for lang in LANGUAGES {
        assert!(
            html.contains(&format!("value=\"{lang}\"")),
            "the language menu offers {lang}"
        );
    }
    let i18n = std::fs::read_to_string(web().join("js/i18n.js")).expect("i18n.js");
    assert!(
        i18n.contains("const RTL = new Set([\"fa\"])"),
        "Persian is laid out right to left"
    );
}

/// The Content-Security-Policy allows no inline script or style: the page
/// has neither, and no script writes a `style` attribute or an inline
/// event handler into markup.
#[test]
fn the_ui_needs_no_inline_script_or_style() {
    let html = std::fs::read_to_string(web().join("index.html")).expect("index.html");
    assert!(!html.contains("<style"), "inline <style> in index.html");
    assert!(!html.contains("style="), "style attribute in index.html");
    let mut rest = html.as_str();
    while let Some(i) = rest.find("<script") {
        let tag_end = rest[i..].find('>').map_or(rest.len(), |j| i + j);
        assert!(
            rest[i..tag_end].contains("src="),
            "inline script: {}",
            &rest[i..tag_end]
        );
        rest = &rest[tag_end..];
    }
    for (name, code) in scripts() {
        for bad in [
            "style=",
            "setAttribute(\"style\"",
            "onclick=",
            "onload=",
            "eval(",
        ] {
            assert!(!code.contains(bad), "{name} contains {bad}");
        }
    }
}
