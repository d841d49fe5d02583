//! Layout and language checks of a page, shared by the browser tests:
//! nothing overlaps or sticks out, the fonts of the language's script
//! load, and (learning pages) no English words are left in another
//! language. Each check saves a screenshot `PAGE-LANG-SIZE.png`.

use super::{select_option, shot, wait_for};
use fantoccini::Client;
use serde_json::{json, Value};
use std::time::Duration;

/// Problems of the page's layout, in words (none: an empty list): the page
/// wider than the screen, an element sticking out of it sideways, two
/// pieces of text or controls on top of each other, and (`pairs`) any of
/// the named parts overlapping (e.g. the hand and the board).
pub const LAYOUT_PROBLEMS: &str = r#"
const pairs = arguments[0];
const out = [];
const vw = document.documentElement.clientWidth;
const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (el.className && el.className.baseVal === undefined && el.className ? '.' + String(el.className).trim().split(/\s+/).join('.') : '') + ' "' + (el.textContent || '').trim().slice(0, 30) + '"';
if (document.documentElement.scrollWidth > vw + 1) out.push('the page is ' + document.documentElement.scrollWidth + ' px wide on a ' + vw + ' px screen');
const shown = (el) => {
  if (el.closest('[hidden], .sr-only, [aria-hidden="true"]')) return false;
  // inside a closed <details>, or otherwise not rendered
  if (el.checkVisibility && !el.checkVisibility()) return false;
  const r = el.getBoundingClientRect();
  const cs = getComputedStyle(el);
  if (cs.position === 'absolute' && cs.clip !== 'auto') return false;
  return r.width > 1 && r.height > 1 && cs.visibility !== 'hidden';
};
// what a scrolling box (a move log) hides of its content is not drawn:
// each box is cut to its scrolling ancestors
const cut = (el, rects) => {
  for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
    const cs = getComputedStyle(a);
    if (cs.overflowX === 'visible' && cs.overflowY === 'visible') continue;
    const c = a.getBoundingClientRect();
    rects = rects.map((r) => {
      const left = Math.max(r.left, c.left), right = Math.min(r.right, c.right);
      const top = Math.max(r.top, c.top), bottom = Math.min(r.bottom, c.bottom);
      return { left, right, top, bottom };
    }).filter((r) => r.right - r.left > 1 && r.bottom - r.top > 1);
  }
  return rects;
};
const boxes = [];
for (const el of document.querySelectorAll('header *, main *')) {
  if (!shown(el)) continue;
  if (!cut(el, [el.getBoundingClientRect()]).length) continue;
  const r = el.getBoundingClientRect();
  if (r.left < -1 || r.right > vw + 1) out.push(name(el) + ' sticks out of the screen (' + Math.round(r.left) + '…' + Math.round(r.right) + ')');
  const text = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
  // an inline element that wraps has one box per line
  if (text || el.matches('button, input, select, .hand-card, .scard, .pile, .mini-card')) boxes.push([el, cut(el, [...el.getClientRects()])]);
}
const meet = (ra, rb) => Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left) > 2 && Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top) > 2;
for (let i = 0; i < boxes.length; i++) {
  for (let j = i + 1; j < boxes.length; j++) {
    const [a, ra] = boxes[i], [b, rb] = boxes[j];
    if (a.contains(b) || b.contains(a)) continue;
    if (ra.some((x) => rb.some((y) => meet(x, y)))) out.push(name(a) + ' overlaps ' + name(b));
  }
}
for (const [x, y] of pairs) {
  const a = document.querySelector(x), b = document.querySelector(y);
  if (!a || !b) { out.push('missing ' + (a ? y : x)); continue; }
  const ra = a.getBoundingClientRect(), rb = b.getBoundingClientRect();
  if (Math.min(ra.right, rb.right) > Math.max(ra.left, rb.left) && Math.min(ra.bottom, rb.bottom) > Math.max(ra.top, rb.top)) out.push(x + ' overlaps ' + y);
}
return out.slice(0, 20);
"#;

/// Whether the page has loaded (status "loaded") a font face of the page
/// whose unicode-range holds the character `arguments[0]`, and names the
/// faces that failed.
pub const FONT_LOADED: &str = r#"
const cp = arguments[0].codePointAt(0);
const covers = (range) => range.split(',').some((part) => {
  const [a, b] = part.trim().replace(/^U\+/i, '').split('-');
  const lo = parseInt(a, 16), hi = parseInt(b || a, 16);
  return cp >= lo && cp <= hi;
});
return document.fonts.ready.then(() => {
  const faces = [...document.fonts];
  return {
    loaded: faces.some((f) => f.status === 'loaded' && covers(f.unicodeRange)),
    failed: faces.filter((f) => f.status === 'error').map((f) => f.unicodeRange.slice(0, 30)),
  };
});
"#;

/// The pages (names' beginnings) that show no card: their fonts are
/// checked without a suit.
const PAGES_WITHOUT_CARDS: &[&str] = &["lobby", "profile", "passkeys"];

/// Switches the page to `lang` from the menu and checks that its fonts
/// are there (a letter of its script has a loaded face of the page, none
/// failed) and that nothing overlaps; saves `NAME-LANG-SIZE.png`.
pub async fn check_language(c: &Client, page: &str, size: &str, lang: &str, pairs: Value) {
    select_option(c, "#lang", lang).await;
    wait_for(c, &format!("html[lang=\"{lang}\"]")).await;
    // a letter of the language's own script, and on a table a card suit
    let letter = match lang {
        "ka" => "ა",
        "fa" => "ا",
        "uk" => "ї",
        "kn" => "ಕ",
        _ => "a",
    };
    let mut samples = vec![letter];
    // the pages without cards: the lobby (of the server or a static
    // build) and the account pages
    if !PAGES_WITHOUT_CARDS.iter().any(|p| page.starts_with(p)) {
        samples.push("♠");
    }
    for sample in samples {
        let f = c
            .execute(
                &format!("return (async () => {{ {FONT_LOADED} }})();")
                    .replace("arguments[0]", &format!("{sample:?}")),
                vec![],
            )
            .await
            .expect("read the fonts");
        assert_eq!(
            f["loaded"],
            json!(true),
            "{page} in {lang} at {size}: no font of the page was loaded for {sample} ({f})"
        );
        assert_eq!(
            f["failed"],
            json!([]),
            "{page} in {lang}: fonts that failed to load"
        );
    }
    tokio::time::sleep(Duration::from_millis(150)).await;
    let problems = c
        .execute(LAYOUT_PROBLEMS, vec![pairs])
        .await
        .expect("check the layout");
    shot(c, &format!("{page}-{lang}-{size}")).await;
    assert_eq!(
        problems,
        json!([]),
        "{page} in {lang} at {size} (see {page}-{lang}-{size}.png)"
    );
}

/// Latin words (four letters or more) in the text of `arguments[0]` (a
/// CSS selector), once the names in `arguments[1]` (the games' names,
/// which stay in Latin letters, and players' names) are taken out: what a
/// page left untranslated.
pub const LATIN_WORDS: &str = r#"
let text = [...document.querySelectorAll(arguments[0])].map((e) => e.innerText).join('\n');
for (const name of [...arguments[1]].sort((a, b) => b.length - a.length)) text = text.split(name).join(' ');
return text.match(/[A-Za-z]{4,}/g) || [];
"#;

/// Checks `page` in `lang` as [`check_language`] does, and that the text
/// of `css` holds no English outside English.
pub async fn check_learn_language(c: &Client, page: &str, size: &str, lang: &str, css: &str) {
    // the learning words load after the language is switched
    select_option(c, "#lang", lang).await;
    wait_for(c, &format!("[data-learn-lang=\"{lang}\"]")).await;
    check_language(c, page, size, lang, json!([])).await;
    if lang == "en" {
        return;
    }
    let names = c
        .execute(
            "return [document.querySelector('#brand').textContent, 'Sequence Stacks', 'Sequence', 'Ann', 'Bot'];",
            vec![],
        )
        .await
        .expect("the names");
    let words = c
        .execute(LATIN_WORDS, vec![json!(css), names])
        .await
        .expect("read the text");
    assert_eq!(
        words,
        json!([]),
        "{page} in {lang} at {size}: untranslated words (see {page}-{lang}-{size}.png)"
    );
}
