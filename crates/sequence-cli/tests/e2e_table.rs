//! Browser end-to-end tests of the table's defects a new player found
//! (issue 25), in headless Chromium (see `browser/mod.rs` for the rig):
//!
//! * `a_practice_table_answers_a_new_player`: a classic game against a
//!   bot — a card or the board touched out of turn says whose turn it is;
//!   the hint shows its move on the board, in words of advice; "Invite
//!   link copied." goes away by itself; no "·" separator (read as the
//!   Persian zero) in any language; a tab that missed updates re-reads the
//!   game when its move is refused and says so in the player's language.
//! * `a_finished_game_shows_its_time_and_its_analysis_reads_well`: the
//!   end panel of a game against a bot gives its duration; the analysis
//!   graph has axis labels and one curve per side from that side's own
//!   estimates; a worst move's link goes to the position before it and
//!   brings the board into view; the replay of an unfinished game says
//!   why in the page's language only.
//! * `a_completed_stacks_pile_is_not_free_while_its_block_prompt_is_open`.

mod browser;

use browser::*;
use fantoccini::Client;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// The string `key` of language `lang`, read from the server's file.
async fn i18n(c: &Client, lang: &str, key: &str) -> String {
    let (status, strings) = fetch_json(c, &format!("/i18n/{lang}.json"), None).await;
    assert_eq!(status, 200, "i18n/{lang}.json");
    strings[key]
        .as_str()
        .unwrap_or_else(|| panic!("no {key} in {lang}"))
        .to_string()
}

/// The seat token the page keeps for table `id`.
async fn token_of(c: &Client, id: &str) -> String {
    c.execute(
        "return JSON.parse(localStorage.getItem('sequence.seat.' + arguments[0])).token;",
        vec![json!(id)],
    )
    .await
    .expect("read the token")
    .as_str()
    .expect("a token")
    .to_string()
}

/// `(status, body)` of a move sent with `token` from the page's `fetch`
/// (another tab of the same player).
async fn move_elsewhere(c: &Client, id: &str, token: &str, n: &Value, mv: &Value) -> (u64, Value) {
    let r = c
        .execute_async(
            "const [id, token, n, mv, done] = arguments; \
             fetch(`/api/tables/${id}/moves`, {method: 'POST', headers: {'Content-Type': 'application/json', Authorization: `Bearer ${token}`}, body: JSON.stringify({move_number: n, move: mv})}) \
               .then(async (r) => done([r.status, await r.json()]));",
            vec![json!(id), json!(token), n.clone(), mv.clone()],
        )
        .await
        .expect("a move from another tab");
    (r[0].as_u64().unwrap_or(0), r[1].clone())
}

/// The view of seat `token` as the server has it now.
async fn server_view(c: &Client, id: &str, token: &str) -> Value {
    c.execute_async(
        "const [id, token, done] = arguments; \
         fetch(`/api/tables/${id}/view`, {headers: {Authorization: `Bearer ${token}`}}).then((r) => r.json()).then(done);",
        vec![json!(id), json!(token)],
    )
    .await
    .expect("the server's view")
}

/// Whether the page's text (header and main part) has a "·", which in
/// Persian reads as the zero "۰".
const MIDDLE_DOTS: &str = "return [...document.querySelectorAll('header, main')].map((e) => e.innerText).join(' ').includes('\u{00B7}');";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_practice_table_answers_a_new_player() {
    // a slow bot: time to touch the table while it is not our turn
    let Some(rig) = Rig::start_with("table-defects", 1500).await else {
        return;
    };
    let (ann, _) = rig.browser("defects-ann").await;
    ann.goto(&rig.base).await.expect("open the lobby");
    let id = open_new_table(
        &ann,
        &rig.base,
        json!({"game": "classic", "players": 2, "name": "Ann",
               "bots": [{"seat": 1, "level": "level:1"}]}),
    )
    .await;
    wait_for(&ann, ".game.classic").await;

    // Defect 6: the hint shows its move on the board, as advice
    let v = wait_my_turn(&ann).await;
    click(&ann, "#hint").await;
    wait_for(&ann, "#hint-list li").await;
    let first = text_of(&ann, "#hint-list li").await;
    assert!(
        [
            "Place a chip",
            "Remove the chip",
            "Exchange the dead",
            "Discard",
            "Pass"
        ]
        .iter()
        .any(|s| first.starts_with(s)),
        "the hint says what to do, not what was done: {first}"
    );
    assert!(!first.contains("Ann"), "{first}");
    let marks = ann
        .execute(
            "return [[...document.querySelectorAll('.board .space')].filter((g) => g.querySelector('.hint-ring')).map((g) => g.dataset.space), \
             [...document.querySelectorAll('.hand-card.hinted')].map((b) => b.dataset.card)];",
            vec![],
        )
        .await
        .expect("the hint's marks");
    assert_eq!(
        marks[1].as_array().map(Vec::len),
        Some(1),
        "the card to play is marked: {marks}"
    );
    shot(&ann, "hint-on-board").await;
    let best_card = marks[1][0].as_str().unwrap_or_default().to_string();
    let at = v["legal_moves"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|m| m["card"] == best_card.as_str())
        .filter_map(|m| m["at"].as_str().or(m["remove"].as_str()))
        .map(str::to_string)
        .collect::<Vec<_>>();
    if !at.is_empty() {
        let spaces = marks[0].as_array().cloned().unwrap_or_default();
        assert_eq!(spaces.len(), 1, "one space is marked: {marks}");
        assert!(
            at.iter().any(|s| json!(s) == spaces[0]),
            "the marked space {} is one the card can go to ({at:?})",
            spaces[0]
        );
    }

    // Defect 11: touching a card or the board out of turn says why nothing happens
    let n = v["move_number"].as_u64().unwrap_or(0);
    classic_move(&ann, n, false).await;
    wait_move(&ann, n).await;
    let v = view(&ann).await;
    assert_eq!(v["turn"], 1, "the bot's turn: {v}");
    click_live(&ann, ".hand-card").await;
    let note = wait_text(&ann, "#not-your-turn").await;
    assert!(
        note.contains("Bot"),
        "the note names whose turn it is: {note}"
    );
    shot(&ann, "not-your-turn").await;

    // Defect 8: the invite note goes away by itself
    click_live(&ann, "#copy-invite").await;
    let note = c_text(&ann, "#invite-note", 5).await;
    assert!(note.contains("copied") || note.contains("copy"), "{note}");
    until(6, 100, async || {
        let now = text_of(&ann, "#invite-note").await;
        let banner = text_of(&ann, "#banner").await;
        if now.is_empty() && !banner.contains("copied") {
            return Ok(());
        }
        Err(format!("the note stays: {now:?} (banner {banner:?})"))
    })
    .await;

    // Defect 3: no "·" on the table in any language (Persian reads it as ۰)
    for lang in LANGUAGES {
        select_option(&ann, "#lang", lang).await;
        wait_for(&ann, &format!("html[lang=\"{lang}\"]")).await;
        let dots = ann
            .execute(MIDDLE_DOTS, vec![])
            .await
            .expect("read the page");
        assert_eq!(dots, json!(false), "a middle dot on the table in {lang}");
    }

    // Defect 1: a tab that misses updates (its view messages lost) and
    // then moves re-reads the game and says so in its language (Georgian)
    select_option(&ann, "#lang", "ka").await;
    wait_for(&ann, "html[lang=\"ka\"]").await;
    let v = wait_my_turn(&ann).await;
    let n = v["move_number"].as_u64().unwrap_or(0);
    ann.execute(
        "const parse = JSON.parse; window.__dropViews = true; \
         JSON.parse = (s, ...r) => (window.__dropViews && typeof s === 'string' && s.includes('\"type\":\"view\"')) ? parse('{}') : parse(s, ...r);",
        vec![],
    )
    .await
    .expect("lose the page's updates");
    let token = token_of(&ann, &id).await;
    // Ann moves from another tab; the bot answers; this page sees nothing
    let first = v["legal_moves"][0].clone();
    let (st, body) = move_elsewhere(&ann, &id, &token, &v["move_number"], &first).await;
    assert_eq!(st, 200, "{body}");
    let now = until(20, 100, async || {
        let s = server_view(&ann, &id, &token).await;
        if s["turn"] == 0 && s["move_number"].as_u64() >= Some(n + 2) {
            return Ok(s);
        }
        Err(format!("the bot did not answer: {s}"))
    })
    .await;
    let shown = view(&ann).await;
    assert_eq!(
        shown["move_number"], v["move_number"],
        "the page missed the updates"
    );
    // the page still offers its old position: play a move there
    let pick = shown["legal_moves"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|m| m["at"].is_string())
        .cloned()
        .expect("a placement");
    let hand = shown["hand"]
        .as_array()
        .and_then(|h| h.iter().position(|c| *c == pick["card"]))
        .expect("the card in hand");
    let space = pick["at"].as_str().unwrap_or_default();
    let target = format!(".space.target[data-space=\"{space}\"]");
    // a card's click that lands while the page redraws can be repeated by
    // click_live, which takes the choice back: choose until targets show
    for _ in 0..3 {
        click_live(&ann, &format!(".hand-card[data-focus=\"hand-{hand}\"]")).await;
        let shows = ann
            .wait()
            .at_most(Duration::from_secs(5))
            .for_element(fantoccini::Locator::Css(&target))
            .await;
        if shows.is_ok() {
            break;
        }
    }
    click_live(&ann, &target).await;
    let want = i18n(&ann, "ka", "error.moved_on").await;
    until(10, 100, async || {
        let banner = text_of(&ann, "#banner").await;
        let n_shown = view(&ann).await["move_number"].clone();
        if banner == want && n_shown == now["move_number"] {
            return Ok(());
        }
        Err(format!(
            "after the refusal: banner {banner:?}, the page at move {n_shown} (the game at {})",
            now["move_number"]
        ))
    })
    .await;
    shot(&ann, "stale-tab-ka").await;
    let banner = text_of(&ann, "#banner").await;
    assert!(!banner.contains("move_number"), "{banner}");
    let _ = ann.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_shows_its_time_and_its_analysis_reads_well() {
    let Some(rig) = Rig::start("table-end").await else {
        return;
    };
    let (c, _) = rig.browser_sized("end-phone", Some((390, 844))).await;
    c.goto(&rig.base).await.expect("open the lobby");
    wait_for(&c, "#create").await;
    let id = self_playing_game(&c).await;

    // Defect 7: the replay of an unfinished game, in Georgian: no English
    select_option(&c, "#lang", "ka").await;
    wait_for(&c, "html[lang=\"ka\"]").await;
    c.goto(&format!("{}/replay/{id}", rig.base))
        .await
        .expect("open the replay");
    let page = c_text(&c, "#app .card-panel", 10).await;
    let latin: String = page.chars().filter(|ch| ch.is_ascii_alphabetic()).collect();
    assert!(
        latin.is_empty(),
        "English under a Georgian error page: {page:?}"
    );
    shot(&c, "replay-unfinished-ka").await;
    select_option(&c, "#lang", "en").await;
    wait_for(&c, "html[lang=\"en\"]").await;

    // Defect 5: the end panel of a game against a bot says how long it took
    until(90, 250, async || {
        let (_, info) = fetch_json(&c, &format!("/api/tables/{id}"), None).await;
        (info["status"] == "over")
            .then_some(())
            .ok_or_else(|| "the game never ended".to_string())
    })
    .await;
    c.goto(&format!("{}/?table={id}", rig.base))
        .await
        .expect("open the table");
    c_text(&c, "#endgame .end-title", 20).await;
    let facts = c_text(&c, "#endgame .end-facts", 10).await;
    assert!(
        facts.contains("played in"),
        "no duration in the end panel: {facts}"
    );
    shot(&c, "endgame-duration").await;

    // Defect 10: the analysis graph
    c.goto(&format!("{}/replay/{id}?game=1", rig.base))
        .await
        .expect("open the replay");
    wait_for(&c, "#replay-slider").await;
    click(&c, "#analyse").await;
    wait_for(&c, "svg.analysis-graph").await;
    let axes = c
        .execute(
            "return [...document.querySelectorAll('svg.analysis-graph .ana-axis text')].map((e) => e.textContent);",
            vec![],
        )
        .await
        .expect("the axes");
    let axes: Vec<String> = serde_json::from_value(axes).expect("texts");
    for want in ["0%", "50%", "100%", "chance to win", "move"] {
        assert!(
            axes.iter().any(|a| a == want),
            "no axis label {want:?}: {axes:?}"
        );
    }
    // each side's curve goes through its own estimates only (the
    // positions where it is to move), not every position
    let lines = c
        .execute(
            "return [...document.querySelectorAll('svg.analysis-graph .ana-line')].map((p) => (p.getAttribute('d').match(/[ML]/g) || []).length);",
            vec![],
        )
        .await
        .expect("the lines");
    let positions = c
        .execute("return window.sequenceReplay.positions;", vec![])
        .await
        .expect("positions")
        .as_u64()
        .unwrap_or(0);
    let lens: Vec<u64> = serde_json::from_value(lines).expect("counts");
    assert_eq!(lens.len(), 2, "one curve per side");
    // the seats alternate: each curve has about half the positions, not all
    for l in &lens {
        assert!(
            *l < positions && *l * 3 > positions,
            "a curve of {l} points over {positions} positions"
        );
    }
    shot(&c, "analysis-axes").await;
    // the worst move's link: the position before the move, the board in view
    let k = c
        .execute(
            "const b = document.querySelector('#mistakes button[data-k]'); if (!b) return null; \
             window.scrollTo(0, document.body.scrollHeight); b.click(); return Number(b.dataset.k);",
            vec![],
        )
        .await
        .expect("click a worst move");
    let k = k
        .as_u64()
        .expect("the game has a worst move (its analysis is noisy)");
    until(5, 100, async || {
        let r = c
            .execute(
                "const b = document.querySelector('.replay-main .board-wrap').getBoundingClientRect(); \
                 return [window.sequenceReplay.k, Math.round(b.top), innerHeight];",
                vec![],
            )
            .await
            .expect("where the replay is");
        let top = r[1].as_i64().unwrap_or(-1);
        if r[0] == json!(k) && top >= -2 && top < r[2].as_i64().unwrap_or(0) / 2 {
            return Ok(());
        }
        Err(format!("after the worst move's link: {r} (want position {k}, the board at the top)"))
    })
    .await;
    shot(&c, "analysis-worst-move").await;
    let _ = c.close().await;
}

/// Defect 9: while the Block prompt of a pile just completed is open, the
/// pile is shown as completed (with the card that completed it), not as a
/// free place.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_completed_stacks_pile_is_not_free_while_its_block_prompt_is_open() {
    let Some(rig) = Rig::start("table-block").await else {
        return;
    };
    let (a, _) = rig.browser("block-ann").await;
    a.goto(&rig.base).await.expect("open the lobby");
    let deadline = Instant::now() + Duration::from_secs(300);
    'tables: loop {
        assert!(
            Instant::now() < deadline,
            "no Block prompt in the games played"
        );
        open_new_table(
            &a,
            &rig.base,
            json!({"game": "stacks", "players": 2, "name": "Ann", "bots": [{"seat": 1, "level": "random"}]}),
        )
        .await;
        wait_for(&a, ".game.stacks").await;
        loop {
            let Some(v) = playing_view(&a, deadline, "no Block prompt in time").await else {
                continue 'tables;
            };
            let mine =
                v["to_act"] == 0 && v["legal_moves"].as_array().is_some_and(|l| !l.is_empty());
            if !mine {
                tokio::time::sleep(Duration::from_millis(30)).await;
                continue;
            }
            let n = v["move_number"].as_u64().unwrap_or(0);
            if !v["block_window"].is_null() {
                wait_for(&a, ".block-prompt").await;
                let pile = wait_for(&a, ".pile.just-completed").await;
                let text = pile.text().await.unwrap_or_default();
                let label = pile
                    .attr("aria-label")
                    .await
                    .ok()
                    .flatten()
                    .unwrap_or_default();
                assert!(
                    !text.contains("free") && !label.contains("free"),
                    "{text} / {label}"
                );
                assert!(
                    text.contains("completed") && label.contains("completed"),
                    "{text} / {label}"
                );
                shot(&a, "block-prompt-completed-pile").await;
                break 'tables;
            }
            let choice = a.execute(CHOOSE_STACKS, vec![]).await.expect("choose");
            stacks_move(&a, &choice).await;
            wait_move(&a, n).await;
        }
    }
    let _ = a.close().await;
}

/// Issue 25, game feel: with sound on (off by default, remembered) a move
/// is heard (Web Audio, made by the page) and its chip drops in; a
/// reaction of the other player shows beside their seat, and not once
/// reactions are muted at this table; a finished game's end panel gives
/// the running score, and its replay plays itself at the chosen speed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_table_moves_sounds_and_reacts() {
    let Some(rig) = Rig::start("table-feel").await else {
        return;
    };
    let (ann, _) = rig.browser("feel-ann").await;
    let (bob, _) = rig.browser("feel-bob").await;
    ann.goto(&rig.base).await.expect("open the lobby");
    let done = self_playing_game(&ann).await;
    let id = open_new_table(
        &ann,
        &rig.base,
        json!({"game": "classic", "players": 2, "name": "Ann"}),
    )
    .await;
    join_table(&bob, &rig.base, &id, "Bob").await;
    wait_for(&ann, ".game.classic").await;
    wait_for(&bob, ".game.classic").await;
    // sound: off by default, on for Ann
    assert_eq!(text_of(&ann, "#sound").await, "Sound: off");
    click_live(&ann, "#sound").await;
    wait_for(&ann, "#sound[aria-pressed=\"true\"]").await;
    // whoever is to move moves; Ann hears it and sees the chip drop in
    let v = view(&ann).await;
    let n = v["move_number"].as_u64().unwrap_or(0);
    let mover = if v["turn"] == 0 { &ann } else { &bob };
    classic_move(mover, n, false).await;
    let after = wait_move(&ann, n).await;
    let placed = until(5, 30, async || {
        let r = ann
            .execute(
                "return [[...document.querySelectorAll('.board .space')].filter((g) => g.querySelector('.chip.chip-in')).map((g) => g.dataset.space), \
                 (window.sequenceSound || {played: []}).played];",
                vec![],
            )
            .await
            .expect("read the page");
        if r[0].as_array().is_some_and(|a| a.len() == 1) && r[1].as_array().is_some_and(|p| p.contains(&json!("place"))) {
            return Ok(r);
        }
        Err(format!("no animated chip or sound after the move: {r}"))
    })
    .await;
    let last = after["last_move"]["at"].clone();
    assert_eq!(placed[0][0], last, "the chip placed is the one animated");
    shot(&ann, "chip-in").await;

    // reactions: Bob's star shows beside his seat on Ann's page
    click_live(&bob, "#reactions button[data-reaction=\"star\"]").await;
    wait_for(
        &ann,
        ".seat-row[data-seat=\"1\"] .reaction-bubble.reaction-star",
    )
    .await;
    shot(&ann, "reaction").await;
    // muted at this table: the next one is not shown
    click_live(&ann, "#mute-reactions").await;
    wait_for(&ann, "#mute-reactions[aria-pressed=\"true\"]").await;
    tokio::time::sleep(Duration::from_millis(1100)).await;
    click_live(&bob, "#reactions button[data-reaction=\"gg\"]").await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    let shown = ann
        .execute(
            "return document.querySelectorAll('.reaction-bubble').length;",
            vec![],
        )
        .await
        .expect("read the page");
    assert_eq!(shown, json!(0), "a reaction shown while muted");

    // the finished game: its end panel keeps the score, its replay plays
    until(90, 250, async || {
        let (_, info) = fetch_json(&ann, &format!("/api/tables/{done}"), None).await;
        (info["status"] == "over")
            .then_some(())
            .ok_or_else(|| "the game never ended".to_string())
    })
    .await;
    ann.goto(&format!("{}/?table={done}", rig.base))
        .await
        .expect("open the table");
    let series = c_text(&ann, "#endgame #series", 20).await;
    assert!(series.contains("After 1 game"), "{series}");
    ann.goto(&format!("{}/replay/{done}?game=1", rig.base))
        .await
        .expect("open the replay");
    wait_for(&ann, "#replay-slider").await;
    select_option(&ann, "#autoplay-speed", "250").await;
    click_live(&ann, "#autoplay").await;
    wait_for(&ann, "#autoplay[aria-pressed=\"true\"]").await;
    let positions = ann
        .execute("return window.sequenceReplay.positions;", vec![])
        .await
        .expect("positions")
        .as_u64()
        .unwrap_or(0);
    let start = Instant::now();
    until(positions / 2 + 10, 50, async || {
        let k = ann
            .execute("return window.sequenceReplay.k;", vec![])
            .await
            .expect("k");
        (k.as_u64() == Some(positions - 1))
            .then_some(())
            .ok_or_else(|| format!("autoplay at {k} of {positions}"))
    })
    .await;
    let took = start.elapsed();
    assert!(
        took >= Duration::from_millis(250 * (positions - 2)),
        "{positions} positions in {took:?}: faster than the speed chosen"
    );
    wait_for(&ann, "#autoplay[aria-pressed=\"false\"]").await;
    shot(&ann, "replay-autoplay").await;
    let _ = ann.close().await;
    let _ = bob.close().await;
}
