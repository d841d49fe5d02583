//! Checks of the web UI's files (crates/sequence-server/web/) that need no
//! browser: every language file has exactly the English keys with the same
//! `{placeholders}`, every key the code asks for exists, every module the
//! code imports exists, and the Persian file is the only right-to-left one.
//! Strings with a count are plural objects (`{"one": …, "other": …}`) with
//! the forms each language needs, looked up with `tn(key, count, …)`.

use crate::common;
use crate::i18n_files;

use i18n_files::{languages_in, placeholders, strings_in, web, LANGUAGES};
use serde_json::{Map, Value};
use std::collections::BTreeSet;
use std::path::Path;

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

fn strings(lang: &str) -> Map<String, Value> {
    strings_in("", lang)
}

fn strip_placeholders(s: &str) -> String {
    let mut out = s.to_string();
    for p in placeholders(s) {
        out = out.replace(&format!("{{{p}}}"), "");
    }
    out
}

/// Every script of web/js and its folders (`learn/help.js`), by its path
/// under web/js.
fn scripts() -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut dirs = vec![web().join("js")];
    while let Some(dir) = dirs.pop() {
        for e in std::fs::read_dir(&dir).expect("web/js") {
            let p = e.expect("dir entry").path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "js") {
                let name = p
                    .strip_prefix(web().join("js"))
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                out.push((name, std::fs::read_to_string(&p).expect("read a script")));
            }
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
    let langs = languages_in("", 150, "the UI's strings");
    let en = &langs[0].1;
    for (lang, m) in &langs {
        for (k, v) in m {
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
            let Some(start) = line.find("\"./").or_else(|| line.find("\"../")) else {
                continue;
            };
            let rest = &line[start + 1..];
            let file = &rest[..rest.find('"').expect("closing quote")];
            // relative to the importing script's folder
            let folder = Path::new(&name).parent().unwrap_or(Path::new(""));
            assert!(
                web().join("js").join(folder).join(file).exists(),
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

// ---- Fonts (issue "The table people choose": every language must show on
// a computer with no font for its script) ----

/// One `@font-face` of web/fonts/fonts.css.
struct Face {
    file: String,
    weight: u32,
    /// The characters its `unicode-range` gives it.
    range: BTreeSet<u32>,
}

/// `U+0020-007E, U+00A0` → the code points.
fn unicode_range(s: &str) -> BTreeSet<u32> {
    let mut out = BTreeSet::new();
    for part in s.split(',') {
        let part = part.trim();
        let hex = part
            .strip_prefix("U+")
            .unwrap_or_else(|| panic!("unicode-range part {part:?}"));
        let (a, b) = hex.split_once('-').unwrap_or((hex, hex));
        let a = u32::from_str_radix(a, 16).expect("hex");
        let b = u32::from_str_radix(b, 16).expect("hex");
        assert!(a <= b, "unicode-range {part}");
        out.extend(a..=b);
    }
    out
}

/// The value of `name: value;` inside a CSS block.
fn css_value<'a>(block: &'a str, name: &str) -> Option<&'a str> {
    let i = block.find(&format!("{name}:"))?;
    let rest = &block[i + name.len() + 1..];
    Some(rest[..rest.find(';')?].trim())
}

fn faces() -> Vec<Face> {
    let css = std::fs::read_to_string(web().join("fonts/fonts.css")).expect("fonts/fonts.css");
    let mut out = vec![];
    for block in css.split("@font-face {").skip(1) {
        let block = &block[..block.find('}').expect("a closed @font-face")];
        assert_eq!(
            css_value(block, "font-family"),
            Some("\"Sequence UI\""),
            "{block}"
        );
        let src = css_value(block, "src").expect("src");
        let file = src
            .strip_prefix("url(\"")
            .and_then(|s| s.split_once("\")"))
            .map(|(f, _)| f.to_string())
            .unwrap_or_else(|| panic!("src {src}"));
        assert!(src.ends_with("format(\"woff2\")"), "{src}");
        out.push(Face {
            file,
            weight: css_value(block, "font-weight")
                .and_then(|w| w.parse().ok())
                .expect("a single font-weight"),
            range: unicode_range(css_value(block, "unicode-range").expect("unicode-range")),
        });
    }
    assert!(
        out.len() >= 6,
        "fonts.css declares the fonts ({})",
        out.len()
    );
    out
}

/// A variable-length number of WOFF2's table directory (UIntBase128).
fn base128(data: &[u8], at: &mut usize) -> u32 {
    let mut v: u32 = 0;
    for i in 0..5 {
        let b = data[*at];
        *at += 1;
        assert!(!(i == 0 && b == 0x80), "UIntBase128 with a leading zero");
        v = (v << 7) | u32::from(b & 0x7f);
        if b & 0x80 == 0 {
            return v;
        }
    }
    panic!("UIntBase128 longer than 5 bytes")
}

/// The characters a WOFF2 font maps to glyphs: its `cmap` table, found
/// in the table directory and cut from the Brotli-compressed table data.
fn woff2_characters(data: &[u8]) -> BTreeSet<u32> {
    let be16 = |i: usize| u16::from_be_bytes([data[i], data[i + 1]]);
    let be32 = |i: usize| u32::from_be_bytes([data[i], data[i + 1], data[i + 2], data[i + 3]]);
    assert_eq!(&data[..4], b"wOF2", "a WOFF2 file");
    assert_ne!(&data[4..8], b"ttcf", "a single font, not a collection");
    let tables = be16(12);
    let compressed = be32(20) as usize;
    let mut at = 48;
    let mut offset = 0usize;
    let mut cmap = None;
    for _ in 0..tables {
        let flags = data[at];
        at += 1;
        let known = flags & 0x3f;
        let tag: [u8; 4] = if known == 63 {
            at += 4;
            data[at - 4..at].try_into().expect("4 bytes")
        } else {
            // the WOFF2 known-table index: cmap is 0, glyf 10, loca 11
            match known {
                0 => *b"cmap",
                10 => *b"glyf",
                11 => *b"loca",
                _ => *b"    ",
            }
        };
        let version = flags >> 6;
        let length = base128(data, &mut at) as usize;
        let transformed = if &tag == b"glyf" || &tag == b"loca" {
            version == 0
        } else {
            version != 0
        };
        let stored = if transformed {
            base128(data, &mut at) as usize
        } else {
            length
        };
        if &tag == b"cmap" {
            assert!(!transformed, "cmap is stored as it is");
            cmap = Some((offset, length));
        }
        offset += stored;
    }
    let mut tables_data = vec![];
    std::io::Read::read_to_end(
        &mut brotli_decompressor::Decompressor::new(&data[at..at + compressed], 4096),
        &mut tables_data,
    )
    .expect("the table data decompresses");
    assert_eq!(tables_data.len(), offset, "the tables' lengths add up");
    let (start, len) = cmap.expect("a cmap table");
    let table =
        ttf_parser::cmap::Table::parse(&tables_data[start..start + len]).expect("a readable cmap");
    let mut out = BTreeSet::new();
    for sub in table.subtables {
        if sub.is_unicode() {
            sub.codepoints(|c| {
                if sub.glyph_index(c).is_some_and(|g| g.0 != 0) {
                    out.insert(c);
                }
            });
        }
    }
    out
}

fn show(c: u32) -> String {
    format!(
        "U+{c:04X} {:?}",
        char::from_u32(c).map(String::from).unwrap_or_default()
    )
}

/// Each font file has a glyph for every character its `unicode-range`
/// claims (so the browser never picks it for a character it lacks), is
/// small, and has its OFL licence beside it.
#[test]
fn each_font_has_what_its_range_claims_and_its_licence() {
    let mut total = 0;
    for face in faces() {
        let path = web().join("fonts").join(&face.file);
        let data = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        total += data.len();
        assert!(
            data.len() < 40_000,
            "{} is {} bytes: subset it (tools/subset_fonts.py)",
            face.file,
            data.len()
        );
        let has = woff2_characters(&data);
        let lacks: Vec<String> = face.range.difference(&has).map(|&c| show(c)).collect();
        assert!(lacks.is_empty(), "{} lacks {lacks:?}", face.file);
        let stem = face.file.rsplit_once('-').map_or("", |(s, _)| s);
        let licence = std::fs::read_to_string(web().join(format!("fonts/{stem}.LICENSE.txt")))
            .unwrap_or_else(|e| panic!("{}: no licence beside it: {e}", face.file));
        assert!(
            licence.contains("SIL Open Font License, Version 1.1"),
            "{}: the licence is the OFL",
            face.file
        );
    }
    assert!(total < 200_000, "the fonts weigh {total} bytes in all");
    let css = std::fs::read_to_string(web().join("style.css")).expect("style.css");
    assert!(
        css.contains("@import url(\"fonts/fonts.css\");")
            && css.contains("font-family: \"Sequence UI\""),
        "style.css loads the fonts and uses them first"
    );
}

/// Every character of every language file (and of the page, its scripts
/// and styles: language names, card suits, symbols) has a font of the
/// page at the normal weight, and every letter also at bold: no language
/// shows empty boxes on a computer without fonts for its script.
#[test]
fn every_character_of_the_ui_has_a_font() {
    let faces = faces();
    let at = |weight: u32, c: u32| {
        faces
            .iter()
            .any(|f| f.weight == weight && f.range.contains(&c))
    };
    let mut texts: Vec<(String, String)> = LANGUAGES
        .iter()
        .map(|lang| {
            let text: Vec<String> = strings(lang)
                .values()
                .flat_map(|v| forms(v).into_iter().map(str::to_string))
                .collect();
            (format!("i18n/{lang}.json"), text.join("\n"))
        })
        .collect();
    // the learning and account pages' own language files
    let own = LANGUAGES.iter().flat_map(|l| {
        [
            format!("i18n/learn/{l}.json"),
            format!("i18n/accounts/{l}.json"),
        ]
    });
    for file in own {
        texts.push((
            file.clone(),
            std::fs::read_to_string(web().join(&file)).expect("read"),
        ));
    }
    for file in ["index.html", "style.css", "learn.css", "accounts.css"] {
        texts.push((
            file.into(),
            std::fs::read_to_string(web().join(file)).expect("read"),
        ));
    }
    texts.extend(scripts().into_iter().map(|(n, s)| (format!("js/{n}"), s)));
    let mut checked = BTreeSet::new();
    for (file, text) in &texts {
        for ch in text.chars().filter(|c| !c.is_control()) {
            let c = u32::from(ch);
            checked.insert(c);
            assert!(
                at(400, c),
                "{file}: no font of fonts.css has {} (run tools/subset_fonts.py)",
                show(c)
            );
            if ch.is_alphabetic() {
                assert!(at(700, c), "{file}: no bold font has {}", show(c));
            }
        }
    }
    // the scripts of the five languages are among them
    for (script, first, last) in [
        ("Georgian", 0x10D0, 0x10FA),
        ("Persian", 0x0627, 0x064A),
        ("Ukrainian", 0x0410, 0x044F),
        ("Kannada", 0x0C95, 0x0CB9),
    ] {
        assert!(
            checked.iter().any(|c| (first..=last).contains(c)),
            "no {script} letters checked"
        );
    }
}

/// The server sends the fonts with their type (`font/woff2`, which the
/// page's `font-src 'self'` allows) and the bytes of the files.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_serves_the_fonts() {
    let s = common::server(0).await;
    for face in faces() {
        let r = s
            .raw(reqwest::Method::GET, &format!("/fonts/{}", face.file))
            .await;
        assert_eq!(r.status(), 200, "{}", face.file);
        assert_eq!(r.headers()["content-type"], "font/woff2", "{}", face.file);
        let body = r.bytes().await.expect("body");
        let file = std::fs::read(web().join("fonts").join(&face.file)).expect("font file");
        assert!(body[..] == file[..], "{} is served as it is", face.file);
    }
    let r = s.raw(reqwest::Method::GET, "/fonts/fonts.css").await;
    assert_eq!(r.headers()["content-type"], "text/css; charset=utf-8");
}

/// The page takes a seat's team (C3) and the sequences needed to win (C9)
/// from the server (the table info's `team`, the view's `win_sequences`),
/// never from the rules; and the table page stays split into small
/// modules (it was one 330-line closure).
#[test]
fn the_ui_does_not_work_out_teams_or_the_win_from_the_rules() {
    for (name, src) in scripts() {
        for bad in [
            "% teams",
            "% v.teams",
            "teams === 3 ? 1 : 2",
            "teams === 3 ? 1",
            "TEAM_COLOURS",
        ] {
            assert!(
                !src.contains(bad),
                "{name} works a rule out itself ({bad}): use the server's data"
            );
        }
    }
    let all: String = scripts().into_iter().map(|(_, s)| s).collect();
    assert!(all.contains("seat.team") || all.contains(".team)") || all.contains("s.team"));
    assert!(all.contains("win_sequences"));
    let table = std::fs::read_to_string(web().join("js/table.js")).expect("table.js");
    assert!(
        table.lines().count() < 200,
        "js/table.js has {} lines: keep state, panels and actions in their modules",
        table.lines().count()
    );
    for module in [
        "table-state.js",
        "table-actions.js",
        "table-panels.js",
        "focus.js",
        "join.js",
    ] {
        assert!(
            table.contains(&format!("\"./{module}\"")),
            "table.js uses {module}"
        );
    }
}

/// Issue 13: refusals appear in the player's language. Every code a
/// refused move can carry (the engines' move errors, the notation's, the
/// table-talk penalty's; read from their sources, so that a new code
/// without words fails here) has words in every language file.
#[test]
fn every_refusal_code_has_words_in_every_language() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut codes = BTreeSet::new();
    for file in [
        "sequence-classic/src/moves.rs",
        "sequence-stacks/src/moves.rs",
        "sequence-common/src/notation.rs",
        "sequence-server/src/tables/live.rs",
        "sequence-server/src/tables/mod.rs",
        "sequence-server/src/routes/account.rs",
        // refusals of seats, names and profiles (issue 24)
        "sequence-server/src/tables/error.rs",
        "sequence-server/src/routes/tables.rs",
        "sequence-server/src/routes/extract.rs",
        "sequence-server/src/routes/profiles.rs",
        // passkeys
        "sequence-server/src/routes/passkeys.rs",
    ] {
        let text = std::fs::read_to_string(crates.join(file)).expect(file);
        // `=> "C6.corner"` arms and `code: "C10.no_penalty"` fields
        for part in text.split('"').skip(1).step_by(2) {
            let Some((rule, name)) = part.split_once('.') else {
                continue;
            };
            let rule_like = ["notation", "account", "seat", "name", "profile", "passkey"]
                .contains(&rule)
                || (rule.len() >= 2
                    && (rule.starts_with('C') || rule.starts_with('S'))
                    && rule[1..].chars().all(|c| c.is_ascii_alphanumeric()));
            if rule_like
                && !name.is_empty()
                && name.chars().all(|c| c.is_ascii_lowercase() || c == '_')
            {
                codes.insert(part.to_string());
            }
        }
    }
    assert!(codes.len() > 40, "codes found: {codes:?}");
    for c in [
        "seat.taken",
        "seat.table_full",
        "name.empty",
        "profile.self_opponent",
        "passkey.unknown",
        "passkey.expired",
    ] {
        assert!(codes.contains(c), "{c} is found in the sources: {codes:?}");
    }
    for lang in ["en", "fa", "ka", "kn", "uk"] {
        let s = strings(lang);
        let missing: Vec<&String> = codes
            .iter()
            .filter(|c| !s.contains_key(&format!("code.{c}")))
            .collect();
        assert!(missing.is_empty(), "{lang}: no words for {missing:?}");
    }
}

/// Issue 24 (a fresh tester): a jack's name says its kind ("jack of clubs,
/// two-eyed"), so a text that says the kind itself ("…, a two-eyed jack")
/// names the card by `{jack}` (the name without its kind), never by
/// `{card}`: the tutorial once said "Choose the jack of clubs, two-eyed,
/// a two-eyed jack". Checked in every language file (main, account and
/// learning pages) with the stem of each language's words for the kinds.
#[test]
fn a_jacks_kind_is_said_once() {
    for lang in i18n_files::LANGUAGES {
        let main = strings(lang);
        let stems: Vec<String> = ["card.one_eyed", "card.two_eyed"]
            .iter()
            .map(|k| {
                let w: Vec<char> = main[*k].as_str().expect(k).chars().collect();
                w[..w.len() - 2].iter().collect()
            })
            .collect();
        for folder in ["", "accounts", "learn"] {
            for (k, v) in i18n_files::strings_in(folder, lang) {
                let text = v.to_string();
                let kind = stems.iter().find(|s| text.contains(s.as_str()));
                if let (true, Some(stem)) = (text.contains("{card}"), kind) {
                    panic!("{lang} {folder}/{k}: says the kind ({stem}…) and names the card by {{card}}, which says it again: {text}");
                }
            }
        }
    }
}

/// Regression (tester): the replay's analysis note said "The server's
/// search …" though a static build (docs/deploy.md) runs the analysis in
/// the browser; the note now names no place, in every language.
#[test]
fn the_analysis_note_is_true_in_a_static_build_too() {
    for (lang, server) in [
        ("en", "server"),
        ("fa", "سرور"),
        ("ka", "სერვერ"),
        ("kn", "ಸರ್ವರ್"),
        ("uk", "сервер"),
    ] {
        let s = strings(lang);
        let note = s["analysis.explain"].as_str().expect("analysis.explain");
        assert!(!note.to_lowercase().contains(server), "{lang}: {note}");
    }
}

/// Tester's finding (Persian): lists of cards, a move's notes on the
/// last-move line and in the log, and a card's spoken name were joined
/// with the Latin comma; a chance was "۵۰%" and a provisional rating
/// "۱٬۶۶۲?". Lists go through i18n.js's `list` (the Persian comma "،",
/// U+060C, in Persian), percentages through `num(…, { style: "percent" })`
/// and a "?" through the language's own sign: no script writes a comma,
/// a percent sign or a question mark of its own into the page's text.
#[test]
fn lists_and_signs_follow_the_language() {
    let i18n = std::fs::read_to_string(web().join("js/i18n.js")).expect("i18n.js");
    assert!(
        i18n.contains("export function list(") && i18n.contains("fa: \"\\u060c \""),
        "i18n.js joins lists with the Persian comma in Persian"
    );
    let mut seen = 0;
    for (name, src) in scripts() {
        if name == "i18n.js" {
            continue;
        }
        seen += 1;
        for bad in [
            "join(\", \")",
            "+= \", \"",
            "+ \", \"",
            "\", \" +",
            "}%`",
            "? \"?\"",
            ": \"?\"",
        ] {
            assert!(
                !src.contains(bad),
                "{name} writes `{bad}`: use list(), num(n, {{ style: \"percent\" }}) or t(\"sign.unknown\")"
            );
        }
    }
    assert!(seen > 20, "the scripts were read ({seen})");
    for lang in LANGUAGES {
        let want = if lang == "fa" { "؟" } else { "?" };
        assert_eq!(strings(lang)["sign.unknown"], want, "{lang}");
        let acc = strings_in("accounts", lang);
        assert_eq!(acc["prof.provisional_mark"], want, "{lang}");
    }
}
