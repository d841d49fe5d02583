//! Checks of the account pages' files that need no browser: their own
//! language files (web/i18n/accounts/<lang>.json) have exactly the English
//! keys with the same `{placeholders}`, in each language's own words (no
//! English left but names), and every key the scripts of web/js/accounts
//! ask for with `at("…")` exists.

use crate::i18n_files;

use i18n_files::{placeholders, strings_in, web, LANGUAGES};
use serde_json::{Map, Value};
use std::collections::BTreeSet;

fn strings(lang: &str) -> Map<String, Value> {
    strings_in("accounts", lang)
}

#[test]
fn every_language_has_the_english_keys_and_placeholders() {
    let en = strings("en");
    assert!(en.len() > 50, "{} keys", en.len());
    for lang in LANGUAGES {
        let m = strings(lang);
        let keys = |m: &Map<String, Value>| m.keys().cloned().collect::<BTreeSet<_>>();
        assert_eq!(keys(&m), keys(&en), "{lang}: the keys differ from English");
        for (k, v) in &m {
            let v = v.as_str().unwrap_or_else(|| panic!("{lang}: {k} is text"));
            let e = en[k].as_str().unwrap_or_default();
            assert_eq!(placeholders(v), placeholders(e), "{lang}: {k}");
            if lang != "en" && lang != "uk" {
                // written in the language's own script: no English word
                // left (names of the games and placeholders aside)
                let rest = v
                    .replace("Sequence", "")
                    .replace("Stacks", "")
                    .chars()
                    .filter(|c| c.is_ascii_alphabetic())
                    .count();
                let named: usize = placeholders(v).iter().map(|p| p.len()).sum();
                assert!(rest <= named, "{lang}: {k} = {v:?} has English left");
            }
        }
    }
}

#[test]
fn every_key_the_scripts_ask_for_exists() {
    let en = strings("en");
    let dir = web().join("js/accounts");
    let mut asked = BTreeSet::new();
    for e in std::fs::read_dir(&dir).expect("web/js/accounts") {
        let p = e.expect("entry").path();
        let src = std::fs::read_to_string(&p).expect("read");
        for (i, _) in src.match_indices("at(\"") {
            let before = src[..i].chars().last();
            if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.') {
                continue;
            }
            let rest = &src[i + 4..];
            if let Some(end) = rest.find('"') {
                asked.insert(rest[..end].to_string());
            }
        }
    }
    assert!(asked.len() > 40, "{asked:?}");
    let missing: Vec<_> = asked.iter().filter(|k| !en.contains_key(*k)).collect();
    assert!(missing.is_empty(), "keys the scripts ask for: {missing:?}");
    // the keys built at run time: every kind of game and result
    for k in [
        "classic-1v1",
        "classic-teams",
        "classic-3sides",
        "stacks-1v1",
        "stacks-multi",
    ] {
        assert!(en.contains_key(&format!("kind.{k}")), "{k}");
    }
    for r in ["win", "loss", "draw"] {
        assert!(en.contains_key(&format!("result.{r}")), "{r}");
    }
}
