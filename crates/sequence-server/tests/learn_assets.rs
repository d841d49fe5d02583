//! Checks of the learning pages' files that need no browser (issue 25):
//! the rules help and the table's "?" have their own language files
//! (web/i18n/learn/<lang>.json); every language has exactly the English
//! keys with the same `{placeholders}`, written in its own script (no
//! English left), every key the scripts of web/js/learn ask for exists and
//! every key is used, and each rules section cites the rules it explains.

use crate::i18n_files;

use i18n_files::{languages_in, placeholders, strings_in, web};
use serde_json::{Map, Value};
use std::collections::BTreeSet;

fn strings(lang: &str) -> Map<String, Value> {
    strings_in("learn", lang)
}

fn learn_scripts() -> Vec<(String, String)> {
    let mut out = vec![];
    for e in std::fs::read_dir(web().join("js/learn")).expect("web/js/learn") {
        let p = e.expect("dir entry").path();
        if p.extension().is_some_and(|x| x == "js") {
            let name = p
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            out.push((name, std::fs::read_to_string(&p).expect("read a script")));
        }
    }
    assert!(out.len() >= 4, "the learning modules are there");
    out
}

/// Double-quoted string literals of a script.
fn literals(src: &str) -> BTreeSet<String> {
    src.split('"')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

#[test]
fn every_language_has_the_english_keys_and_placeholders() {
    let langs = languages_in("learn", 80, "the pages' strings");
    let en = &langs[0].1;
    for (lang, m) in &langs {
        for (k, v) in m {
            let s = v
                .as_str()
                .unwrap_or_else(|| panic!("{lang}: {k} is not a string"));
            assert!(!s.trim().is_empty(), "{lang}: {k} is empty");
            assert_eq!(
                placeholders(s),
                placeholders(en[k].as_str().unwrap_or_default()),
                "{lang}: {k} has other placeholders than English"
            );
        }
    }
}

/// Nothing is left in English: outside its placeholders, every string of
/// ka, fa, uk and kn is written in the language's script, and holds no
/// English word (a run of four or more Latin letters).
#[test]
fn translations_are_written_in_their_scripts() {
    for lang in ["ka", "fa", "uk", "kn"] {
        let script: fn(char) -> bool = match lang {
            "ka" => |c| ('\u{10A0}'..='\u{10FF}').contains(&c),
            "fa" => |c| ('\u{0600}'..='\u{06FF}').contains(&c),
            "uk" => |c| ('\u{0400}'..='\u{04FF}').contains(&c),
            _ => |c| ('\u{0C80}'..='\u{0CFF}').contains(&c),
        };
        for (k, v) in strings(lang) {
            let mut s = v.as_str().unwrap_or_default().to_string();
            for p in placeholders(&s) {
                s = s.replace(&format!("{{{p}}}"), " ");
            }
            assert!(
                s.chars().any(script),
                "{lang}: {k} is not in the language's script: {s}"
            );
            let mut run = 0;
            for c in s.chars() {
                run = if c.is_ascii_alphabetic() { run + 1 } else { 0 };
                assert!(run < 4, "{lang}: {k} holds a Latin word: {s}");
            }
            // Persian writes its own digits
            if lang == "fa" {
                assert!(
                    !s.chars().any(|c| c.is_ascii_digit()),
                    "fa: {k} has Latin digits: {s}"
                );
            }
        }
    }
}

/// Every key the learning scripts name exists, and every key is used.
#[test]
fn every_key_is_used_and_exists() {
    let en = strings("en");
    let mut named = BTreeSet::new();
    for (name, src) in learn_scripts() {
        for lit in literals(&src) {
            // `lt("help.c.lit")` and the section tables' keys ("c.goal.p1")
            let keyish = lit.contains('.')
                && !lit.contains(' ')
                && lit
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '_');
            let own = ["learn.", "help.", "tut.", "puzzle.", "c.", "s."]
                .iter()
                .any(|p| lit.starts_with(p));
            // a literal ending in a dot is a prefix (below)
            if keyish && own && !lit.ends_with('.') {
                assert!(
                    en.contains_key(&lit),
                    "{name} names the missing key {lit:?}"
                );
                named.insert(lit);
            }
        }
        // keys made from a literal prefix and a variable
        for prefix in literals(&src).into_iter().filter(|l| l.ends_with('.')) {
            named.extend(en.keys().filter(|k| k.starts_with(&prefix)).cloned());
        }
    }
    let unused: Vec<_> = en.keys().filter(|k| !named.contains(*k)).collect();
    assert!(unused.is_empty(), "keys no script uses: {unused:?}");
}

/// Each section of the rules pages names the rules (ids of RULES.md) it
/// explains, and together they cite C1–C9 and S1–S7.
#[test]
fn the_rules_pages_cite_every_rule() {
    let src = std::fs::read_to_string(web().join("js/learn/rules.js")).expect("rules.js");
    let mut cited = BTreeSet::new();
    for line in src.lines().filter(|l| l.contains("section(\"")) {
        let ids: Vec<&str> = line
            .split('"')
            .skip(1)
            .step_by(2)
            .filter(|s| {
                s.len() == 2
                    && (s.starts_with('C') || s.starts_with('S'))
                    && s[1..].chars().all(|c| c.is_ascii_digit())
            })
            .collect();
        assert!(!ids.is_empty(), "a section without rule ids: {line}");
        cited.extend(ids.into_iter().map(str::to_string));
    }
    for id in (1..=9)
        .map(|n| format!("C{n}"))
        .chain((1..=7).map(|n| format!("S{n}")))
    {
        assert!(cited.contains(&id), "no section explains {id}");
    }
}
