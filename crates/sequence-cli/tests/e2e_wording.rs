//! What the page says, in headless Chromium (see `browser/mod.rs`):
//!
//! * `persian_lists_and_numbers_use_persian_signs`: in Persian a move's
//!   notes on the last-move line and in the log, and a card with its kind,
//!   are joined with the Persian comma "،" (U+060C), never the Latin one; a
//!   chance is "۵۰٪" (tester's finding: "," and Latin signs inside Persian
//!   lines).
//! * `a_replay_of_no_game_offers_no_table`: `/replay/abc` (no such table)
//!   says the game is not found and offers the lobby, not a link to a table
//!   that does not exist; a game number a table never had still offers
//!   its table.

mod browser;

use browser::*;
use fantoccini::Client;
use serde_json::{json, Value};

/// What the page's own modules say in the language shown: an entry of
/// the move log with notes, the last-move line, a jack's name and a
/// chance in percent.
const SAID: &str = r#"
const done = arguments[arguments.length - 1];
Promise.all([import('/js/movelog.js'), import('/js/cards.js'), import('/js/i18n.js')]).then(([log, cards, i18n]) => {
  const who = () => 'Ann';
  const entry = { i: 4, seat: 0, move: { card: 'JH', remove: 'd4' }, removed: 'green', reshuffled: true, won: 0 };
  done({
    lang: i18n.language(),
    entry: log.entryText(entry, 'classic', who),
    last: log.lastMoveLine([entry], 'classic', who).textContent,
    jack: cards.cardName('JS'),
    chance: i18n.num(0.5, { style: 'percent' }),
  });
}, (e) => done({ error: String(e) }));
"#;

async fn said(c: &Client) -> Value {
    c.execute_async(SAID, vec![])
        .await
        .expect("the page's words")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn persian_lists_and_numbers_use_persian_signs() {
    let Some(rig) = Rig::start("wording-fa").await else {
        return;
    };
    let (c, _) = rig.browser("fa").await;
    c.goto(&rig.base).await.expect("open the lobby");
    wait_for(&c, "#create").await;
    let en = said(&c).await;
    assert_eq!(en["lang"], "en", "{en}");
    let last = en["last"].as_str().unwrap_or_default();
    assert!(last.contains(", "), "English keeps its comma: {en}");
    assert_eq!(en["chance"], "50%", "{en}");

    select_option(&c, "#lang", "fa").await;
    wait_for(&c, "html[lang=\"fa\"]").await;
    let fa = said(&c).await;
    assert_eq!(fa["lang"], "fa", "{fa}");
    for part in ["entry", "last", "jack"] {
        let text = fa[part].as_str().unwrap_or_default();
        assert!(text.contains('\u{060c}'), "{part} in Persian: {text}");
        assert!(
            !text.contains(','),
            "{part} in Persian has a Latin comma: {text}"
        );
    }
    // the three notes of the move: a chip removed, the reshuffle, the win
    let entry = fa["entry"].as_str().unwrap_or_default();
    assert_eq!(entry.matches('\u{060c}').count(), 3, "{entry}");
    assert_eq!(fa["chance"], "۵۰٪", "{fa}");
    c.close().await.expect("close");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replay_of_no_game_offers_no_table() {
    let Some(rig) = Rig::start("wording-replay").await else {
        return;
    };
    let (c, _) = rig.browser("replay").await;
    c.goto(&format!("{}/replay/abc", rig.base))
        .await
        .expect("open the replay");
    let said = wait_text(&c, "#replay-missing h2").await;
    assert_eq!(said, "There is no such game.");
    assert_eq!(count(&c, "#replay-to-table").await, 0, "no table to go to");
    click(&c, "#replay-to-lobby").await;
    wait_for(&c, "#create").await;
    assert_eq!(c.current_url().await.expect("url").path(), "/");

    // in Persian too
    c.execute("localStorage.setItem('sequence.lang', 'fa');", vec![])
        .await
        .expect("choose Persian");
    c.goto(&format!("{}/replay/abc", rig.base))
        .await
        .expect("open the replay");
    let said = wait_text(&c, "#replay-missing h2").await;
    assert_eq!(said, "چنین بازی‌ای وجود ندارد.");
    assert_eq!(count(&c, "#replay-to-table").await, 0);
    c.execute("localStorage.setItem('sequence.lang', 'en');", vec![])
        .await
        .expect("back to English");

    // an id that is no game id (fresh tester: /replay/xyz showed the lobby
    // without a word), and an invite link with a mistyped table id
    c.goto(&format!("{}/replay/xyz", rig.base))
        .await
        .expect("open the replay");
    let said = wait_text(&c, "#replay-missing h2").await;
    assert_eq!(said, "There is no such game.");
    assert_eq!(count(&c, "#replay-to-table").await, 0);
    c.goto(&format!("{}/?table=zzz", rig.base))
        .await
        .expect("open the table");
    let said = wait_text(&c, "#table-missing h2").await;
    assert_eq!(said, "There is no such table.");
    click(&c, "#table-to-lobby").await;
    wait_for(&c, "#create").await;

    // a table that exists, asked for a game it never had: its table is offered
    let id = open_new_table(
        &c,
        &rig.base,
        json!({"game": "classic", "players": 2, "name": "Ann"}),
    )
    .await;
    wait_for(&c, ".game, .waiting").await;
    c.goto(&format!("{}/replay/{id}?game=7", rig.base))
        .await
        .expect("open the replay");
    let said = wait_text(&c, "#replay-missing h2").await;
    assert_eq!(said, "There is no such game.");
    click(&c, "#replay-to-table").await;
    wait_for(&c, ".game, .waiting").await;
    c.close().await.expect("close");
}
