//! Checks of the web UI's files (crates/sequence-server/web/) that need no
//! browser: every language file has exactly the English keys with the same
//! `{placeholders}`, every key the code asks for exists, every module the
//! code imports exists, and the Persian file is the only right-to-left one.
//! Strings with a count are plural objects (`{"one": …, "other": …}`) with
//! the forms each language needs, looked up with `tn(key, count, …)`.

use serde_json::{Map, Value};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const LANGUAGES: [&str; 5] = ["en", "ka", "fa", "uk", "kn"];

/// The CLDR plural categories of whole numbers in each language (what
/// `Intl.PluralRules(lang).select(n)` gives), plus `other`, the fallback.
fn plural_forms(lang: &str) -> &'static [&'static str] {
    match lang {
        "uk" => &["one", "few", "many", "other"],
        _ => &["one", "other"],
    }
}

/// The texts of a value: a string, or each form of a plural object.
fn forms(v: &Value) -> Vec<&str> {
    match v {
        Value::String(s) => vec![s.as_str()],
        Value::Object(m) => m.values().filter_map(Value::as_str).collect(),
        _ => vec![],
    }
}

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
    keys_of_calls(src, "t")
}

/// String literals passed to `f(...)` (`f` = `t` or `tn`).
fn keys_of_calls(src: &str, f: &str) -> BTreeSet<String> {
    let mut keys = BTreeSet::new();
    let call = format!("{f}(\"");
    for (i, _) in src.match_indices(&call) {
        let before = src[..i].chars().last();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.') {
            continue;
        }
        let rest = &src[i + call.len()..];
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
            if let Some(en_forms) = en[k].as_object() {
                // a plural string: the forms of this language, each with
                // no other placeholders than English's `other`
                let o = v
                    .as_object()
                    .unwrap_or_else(|| panic!("{lang}: {k} must have plural forms"));
                let keys: Vec<&str> = o.keys().map(String::as_str).collect();
                let mut want_keys = plural_forms(lang).to_vec();
                want_keys.sort_unstable();
                let mut got_keys = keys.clone();
                got_keys.sort_unstable();
                assert_eq!(got_keys, want_keys, "{lang}: {k} plural forms");
                let other = placeholders(en_forms["other"].as_str().unwrap_or_default());
                for (cat, f) in o {
                    let f = f
                        .as_str()
                        .unwrap_or_else(|| panic!("{lang}: {k}.{cat} is not a string"));
                    assert!(!f.trim().is_empty(), "{lang}: {k}.{cat} is empty");
                    assert!(
                        placeholders(f).is_subset(&other),
                        "{lang}: {k}.{cat} has other placeholders than English"
                    );
                }
                assert_eq!(
                    placeholders(o["other"].as_str().unwrap_or_default()),
                    other,
                    "{lang}: {k}.other has other placeholders than English"
                );
                continue;
            }
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
                forms(v).iter().any(|f| {
                    let s = strip_placeholders(f);
                    s.chars().filter(|c| c.is_alphabetic()).count() > 3 && !s.chars().any(ok)
                })
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
            assert!(
                en[&k].is_string(),
                "{name} uses the plural key {k:?} with t(): use tn(key, count, …)"
            );
            used.insert(k);
        }
        for k in keys_of_calls(&src, "tn") {
            assert!(
                en.get(&k).is_some_and(Value::is_object),
                "{name} uses tn() with {k:?}, which has no plural forms"
            );
            used.insert(k);
        }
    }
    assert!(used.len() > 100, "the scan finds the keys ({})", used.len());
}

/// Fresh-tester report: "1 cards" (no singular). Counted strings have
/// plural forms, and the code picks them with `tn`.
#[test]
fn counted_strings_have_plural_forms() {
    let en = strings("en");
    for k in [
        "table.cards_in_hand",
        "stacks.pile_top",
        "stacks.chips_of",
        "stacks.skips",
        "hand.pick_space",
        "hand.pick_chip",
    ] {
        let o = en[k]
            .as_object()
            .unwrap_or_else(|| panic!("{k} has no plural forms"));
        assert_ne!(o["one"], o["other"], "{k}");
    }
    assert_eq!(en["table.cards_in_hand"]["one"], "{n} card");
    let i18n = std::fs::read_to_string(web().join("js/i18n.js")).expect("i18n.js");
    assert!(
        i18n.contains("export function tn(") && i18n.contains("Intl.PluralRules"),
        "i18n.js picks plural forms by the language's rules"
    );
}

/// Fresh-tester report: a table without a name was titled "NAME's table"
/// in English in every language. The server sends the creator's name as
/// `named_after` and the UI words the title with `table.default_name`.
#[test]
fn a_default_table_title_is_translated() {
    for lang in LANGUAGES {
        let m = strings(lang);
        let s = m
            .get("table.default_name")
            .and_then(Value::as_str)
            .unwrap_or_default();
        assert!(s.contains("{name}"), "{lang}: {s}");
    }
    let uses: Vec<String> = scripts()
        .into_iter()
        .filter(|(_, src)| src.contains("named_after"))
        .map(|(n, _)| n)
        .collect();
    assert!(!uses.is_empty(), "the UI reads named_after");
    for (name, src) in scripts() {
        assert!(
            !src.contains("unescapeText(info.name)") && !src.contains("unescapeText(tb.name)"),
            "{name} shows a table's name without tableTitle()"
        );
    }
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
