//! Rendering tests of the classic screen with ratatui's TestBackend: board
//! labels and corners, the hand with dead cards marked, highlights of the
//! playable spaces and of removable chips, the hot-seat screen that hides
//! hands, and the message for a terminal that is too small.

mod common;

use common::*;
use crossterm::event::KeyCode;
use ratatui::style::{Color, Modifier};
use sequence_classic::{Card, Move, Seat, Space};
use sequence_tui::bots::BotPool;
use sequence_tui::ui::Seen;
use sequence_tui::{App, GameKind, SeatKind};

fn new_app(seed: u64, seats: Vec<SeatKind>) -> App {
    App::new_game(
        table(GameKind::Classic, seats, seed),
        std::env::temp_dir().join("tui-render-test.json"),
    )
    .expect("deal")
}

/// The screen cell (column, row) of a board space: the board block starts
/// at row 1 (after the title), its inner area at (1, 2); a row label takes
/// 3 columns, each space 5.
fn cell_xy(s: Space) -> (u16, u16) {
    (1 + 3 + 5 * s.col() as u16, 2 + 1 + s.row() as u16)
}

fn cell_text(b: &ratatui::buffer::Buffer, s: Space) -> String {
    let (x, y) = cell_xy(s);
    (x..x + 4).map(|i| b[(i, y)].symbol().to_string()).collect()
}

#[test]
fn board_shows_card_labels_corners_and_coordinates() {
    let mut app = new_app(3, vec![SeatKind::Human, SeatKind::Bot(1)]);
    let b = render(&mut app, 100, 30);
    let t = text(&b);
    assert!(t.contains(" SEQUENCE "), "{t}");
    // C2 row 1 and row 10: corners and the spade / diamond runs.
    for (sp, want) in [
        ("a1", "**"),
        ("b1", "2♠"),
        ("j1", "**"),
        ("e5", "5♥"),
        ("a10", "**"),
        ("b10", "A♦"),
        ("i9", "3♥"),
    ] {
        let s: Space = sp.parse().unwrap();
        assert!(
            cell_text(&b, s).starts_with(want),
            "{sp}: {:?}",
            cell_text(&b, s)
        );
    }
    let l = lines(&b);
    assert!(
        l[2].contains("a    b    c    d    e    f    g    h    i    j"),
        "{}",
        l[2]
    );
    assert!(l[12].contains("10 **"), "{}", l[12]);
    // Both teams' sequences and the draw pile (104 - 2×7 = 90).
    assert!(t.contains("Draw pile: 90 cards"), "{t}");
    assert!(t.contains("Sequences (need 2)"), "{t}");
}

#[test]
fn hand_is_listed_and_playable_spaces_are_highlighted() {
    let mut app = new_app(11, vec![SeatKind::Human, SeatKind::Bot(1)]);
    let mut pool = BotPool::new(11);
    run_bots(&mut app, &mut pool);
    let c = app.classic().unwrap();
    let seat = c.viewer().unwrap();
    let hand: Vec<Card> = c.game().hand(seat).to_vec();
    // Choose the first non-jack card: its free spaces are highlighted.
    let i = hand
        .iter()
        .position(|c| !c.is_jack())
        .expect("a plain card");
    app.handle_key(ch((b'1' + i as u8) as char));
    let b = render(&mut app, 100, 30);
    let t = text(&b);
    for (k, card) in hand.iter().enumerate() {
        assert!(
            t.contains(&format!("{} {}", k + 1, card.pretty())),
            "card {k} {card} missing:\n{t}"
        );
    }
    let c = app.classic().unwrap();
    let card = c.selected_card().unwrap();
    assert_eq!(card, hand[i]);
    let targets = c.game().targets(card);
    assert!(targets.count() > 0);
    for s in Space::all() {
        let cell = cell_text(&b, s);
        let (x, y) = cell_xy(s);
        if targets.contains(s) {
            assert_eq!(
                cell.chars().nth(2),
                Some('+'),
                "{s} should be marked playable: {cell:?}"
            );
            assert_eq!(b[(x, y)].bg, Color::Yellow, "{s} should be highlighted");
        } else {
            assert_ne!(
                cell.chars().nth(2),
                Some('+'),
                "{s} is not playable: {cell:?}"
            );
        }
    }
    // The cursor sits on a playable space, shown reversed.
    let (x, y) = cell_xy(c.cursor());
    assert!(targets.contains(c.cursor()));
    assert!(b[(x, y)].modifier.contains(Modifier::REVERSED));
    // ... and is named in words on the board's border (fresh-user test: a
    // text capture could not tell where it was).
    let top: String = (0..b.area.width).map(|x| b[(x, 0)].symbol()).collect();
    assert!(
        lines(&b)
            .iter()
            .any(|l| l.contains(&format!("Board · cursor {}", c.cursor()))),
        "{top}"
    );
}

/// Plays random legal moves for both seats until `pred` holds at seat 0's
/// turn (searching a few seeds), then returns the app.
fn find_position(pred: impl Fn(&App) -> bool) -> App {
    for seed in 1..60u64 {
        let mut app = new_app(seed, vec![SeatKind::Human, SeatKind::Bot(1)]);
        let mut rng = sequence_common::rng::game_rng(seed);
        for _ in 0..200 {
            let mut pool = BotPool::new(seed);
            run_bots(&mut app, &mut pool);
            if app.is_over() {
                break;
            }
            if pred(&app) {
                return app;
            }
            // Seat 0 plays a random legal move by keys: choose the card and
            // type the space.
            let c = app.classic().unwrap();
            let mv = c.game().random_move(&mut rng).expect("the game goes on");
            let hand = c.game().hand(Seat(0)).to_vec();
            match mv {
                Move::Place { card, at, .. } | Move::Remove { card, at } => {
                    let i = hand.iter().position(|h| *h == card).unwrap();
                    type_str(&mut app, &format!("{}{}\n", i + 1, at));
                    // A C8a choice, if offered: take the first.
                    if app.classic().unwrap().game().turn() == Seat(0) && !app.is_over() {
                        app.handle_key(key(KeyCode::Enter));
                    }
                }
                Move::Dead { card } => {
                    let i = hand.iter().position(|h| *h == card).unwrap();
                    type_str(&mut app, &format!("{}x", i + 1));
                }
                Move::Pass | Move::Discard { .. } => {
                    app.handle_key(key(KeyCode::Enter));
                }
            }
        }
    }
    panic!("no position found");
}

#[test]
fn dead_cards_are_marked_in_the_hand() {
    let mut app = find_position(|a| {
        let c = a.classic().unwrap();
        c.seen() == Seen::Human(Seat(0))
            && c.game().hand(Seat(0)).iter().any(|k| c.game().is_dead(*k))
    });
    let c = app.classic().unwrap();
    let hand = c.game().hand(Seat(0)).to_vec();
    let dead_flags: Vec<bool> = hand.iter().map(|k| c.game().is_dead(*k)).collect();
    let dead = dead_flags.iter().position(|d| *d).unwrap();
    let b = render(&mut app, 100, 30);
    let l = lines(&b);
    let row = l
        .iter()
        .position(|x| x.contains(&format!("{} {}", dead + 1, hand[dead].pretty())))
        .expect("dead card listed");
    assert!(l[row].contains("DEAD (x)"), "{}", l[row]);
    // Styled crossed out as well.
    let col = l[row]
        .find(&hand[dead].pretty())
        .map(|p| l[row][..p].chars().count())
        .unwrap() as u16;
    assert!(b[(col, row as u16)]
        .modifier
        .contains(Modifier::CROSSED_OUT));
    // Live cards are not marked.
    for (k, card) in hand.iter().enumerate() {
        if !dead_flags[k] {
            let r = l
                .iter()
                .find(|x| x.contains(&format!("{} {}", k + 1, card.pretty())))
                .unwrap();
            assert!(!r.contains("DEAD"), "{r}");
        }
    }
    // x exchanges it (C6): the card leaves the hand and the log says so.
    let before = hand.len();
    type_str(&mut app, &format!("{}x", dead + 1));
    let c = app.classic().unwrap();
    assert!(
        c.log().last().unwrap().contains("exchanges dead card"),
        "{:?}",
        c.log()
    );
    assert_eq!(c.game().hand(Seat(0)).len(), before);
    assert_eq!(
        c.game().turn(),
        Seat(0),
        "a dead-card exchange does not end the turn"
    );
}

#[test]
fn one_eyed_jack_highlights_removable_chips() {
    let mut app = find_position(|a| {
        let c = a.classic().unwrap();
        c.seen() == Seen::Human(Seat(0))
            && c.game()
                .hand(Seat(0))
                .iter()
                .any(|k| k.is_one_eyed_jack() && c.game().targets(*k).count() > 0)
    });
    let c = app.classic().unwrap();
    let hand = c.game().hand(Seat(0)).to_vec();
    let j = hand.iter().position(|k| k.is_one_eyed_jack()).unwrap();
    app.handle_key(ch((b'1' + j as u8) as char));
    let b = render(&mut app, 100, 30);
    let c = app.classic().unwrap();
    let targets = c.game().targets(hand[j]);
    for s in Space::all() {
        let cell = cell_text(&b, s);
        if targets.contains(s) {
            assert_eq!(cell.chars().nth(2), Some('x'), "{s}: {cell:?}");
            assert_eq!(
                cell.chars().nth(3),
                Some('G'),
                "{s} holds green's chip: {cell:?}"
            );
        } else {
            assert_ne!(cell.chars().nth(2), Some('x'), "{s}: {cell:?}");
        }
    }
}

#[test]
fn last_move_is_marked() {
    let mut app = new_app(5, vec![SeatKind::Human, SeatKind::Bot(1)]);
    let c = app.classic().unwrap();
    // Seat 0 moves first? Play whatever the cursor offers for card 1.
    if c.seen() == Seen::Human(Seat(0)) {
        let card = c.game().hand(Seat(0))[0];
        let at = c.game().targets(card).iter().next();
        if let Some(at) = at {
            type_str(&mut app, &format!("1{at}\n"));
        }
    }
    let mut pool = BotPool::new(5);
    run_bots(&mut app, &mut pool);
    let c = app.classic().unwrap();
    let (_, last) = c.game().last_move().unwrap();
    let at = match last {
        Move::Place { at, .. } | Move::Remove { at, .. } => at,
        _ => return,
    };
    let b = render(&mut app, 100, 30);
    let (x, y) = cell_xy(at);
    assert_eq!(b[(x, y)].bg, Color::DarkGray, "last move highlighted");
    assert!(
        text(&b).contains("green plays"),
        "the bot's move is in the log"
    );
}

#[test]
fn small_terminal_gets_a_message() {
    let mut app = new_app(1, vec![SeatKind::Human, SeatKind::Bot(1)]);
    let b = render(&mut app, 60, 20);
    let t = text(&b);
    assert!(t.contains("Terminal too small"), "{t}");
    assert!(t.contains("60×20 now, 80×24 needed"), "{t}");
    assert!(!t.contains("Board"), "no broken board: {t}");
    // Exactly 80×24 is enough.
    let t = text(&render(&mut app, 80, 24));
    assert!(t.contains("Board") && !t.contains("too small"), "{t}");
}

#[test]
fn hot_seat_hides_hands_between_people() {
    let mut app = new_app(9, vec![SeatKind::Human, SeatKind::Human]);
    let first = app.classic().unwrap().game().turn();
    assert_eq!(app.seen(), Some(Seen::PassDevice(first)));
    let t = text(&render(&mut app, 100, 30));
    assert!(t.contains("Pass the device to"), "{t}");
    assert!(t.contains("(hidden)"), "{t}");
    app.handle_key(key(KeyCode::Enter));
    assert_eq!(app.seen(), Some(Seen::Human(first)));
    let c = app.classic().unwrap();
    let card = c.game().hand(first)[0];
    let t = text(&render(&mut app, 100, 30));
    assert!(t.contains(&format!("1 {}", card.pretty())), "{t}");
    // Play the first legal placement of card 1 (or pass).
    let c = app.classic().unwrap();
    let hand = c.game().hand(first).to_vec();
    let (i, at) = hand
        .iter()
        .enumerate()
        .find_map(|(i, k)| {
            c.game()
                .targets(*k)
                .iter()
                .next()
                .filter(|_| !k.is_one_eyed_jack())
                .map(|s| (i, s))
        })
        .unwrap();
    type_str(&mut app, &format!("{}{at}\n", i + 1));
    let next = app.classic().unwrap().game().turn();
    assert_ne!(next, first);
    assert_eq!(app.seen(), Some(Seen::PassDevice(next)));
    let t = text(&render(&mut app, 100, 30));
    assert!(
        t.contains("(hidden)"),
        "the next person's hand stays hidden: {t}"
    );
    let other_hand = app.classic().unwrap().game().hand(next).to_vec();
    assert!(
        !t.contains(&format!("1 {}", other_hand[0].pretty())) || t.contains("(hidden)"),
        "no hand shown before Enter"
    );
    assert!(!t.contains("Hand of"), "{t}");
}

#[test]
fn rules_and_no_undo_pages() {
    let mut app = new_app(2, vec![SeatKind::Human, SeatKind::Bot(1)]);
    app.handle_key(ch('?'));
    let t = text(&render(&mut app, 100, 30));
    assert!(
        t.contains("C6") && t.contains("C8a") && t.contains("one-eyed"),
        "{t}"
    );
    app.handle_key(ch(' '));
    app.handle_key(ch('u'));
    let t = text(&render(&mut app, 100, 30));
    assert!(
        t.contains("There is no undo") && t.contains("draw pile"),
        "{t}"
    );
}

#[test]
fn mouse_selects_a_card_and_plays_on_a_clicked_space() {
    use crossterm::event::{KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
    let click = |x: u16, y: u16| MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: x,
        row: y,
        modifiers: KeyModifiers::NONE,
    };
    let mut app = new_app(21, vec![SeatKind::Human, SeatKind::Bot(1)]);
    let mut pool = BotPool::new(21);
    run_bots(&mut app, &mut pool);
    render(&mut app, 100, 30);
    let c = app.classic().unwrap();
    let hand = c.game().hand(Seat(0)).to_vec();
    let i = hand
        .iter()
        .position(|k| !k.is_jack() && c.game().targets(*k).count() > 0)
        .unwrap();
    // The hand box starts below the table box on the right; find its row by
    // the card's label.
    let b = render(&mut app, 100, 30);
    let l = lines(&b);
    let row = l
        .iter()
        .position(|x| x.contains(&format!("{} {}", i + 1, hand[i].pretty())))
        .unwrap() as u16;
    app.handle_mouse(click(60, row));
    let c = app.classic().unwrap();
    assert_eq!(c.selected_card(), Some(hand[i]));
    let target = c.game().targets(hand[i]).iter().next().unwrap();
    let (x, y) = cell_xy(target);
    let ply = c.game().ply();
    app.handle_mouse(click(x, y));
    app.handle_mouse(click(x, y));
    let c = app.classic().unwrap();
    assert_eq!(c.game().ply(), ply + 1, "two clicks on a space play there");
    assert_eq!(c.game().chip_at(target), Some(c.game().team_of(Seat(0))));
}

/// The screen `t` names every seat of `players` as `P1`, `P2`, … followed
/// by `after`; a missing one is reported as `what` it is.
fn assert_names_every_seat(t: &str, players: u8, after: &str, what: &str) {
    for s in 1..=players {
        assert!(
            t.contains(&format!("P{s}{after}")),
            "{players} players: {what}P{s} missing:\n{t}"
        );
    }
}

#[test]
fn every_table_size_fits_the_smallest_terminal() {
    for players in [2u8, 3, 4, 6, 8, 9, 10, 12] {
        let mut app = new_app(players as u64, person_and_bots(players));
        let mut pool = BotPool::new(1);
        run_bots(&mut app, &mut pool);
        let t = text(&render(&mut app, 80, 24));
        let c = app.classic().unwrap();
        let hand = c.game().hand(Seat(0)).to_vec();
        assert!(t.contains("Hand of P1"), "{players} players:\n{t}");
        for (i, k) in hand.iter().enumerate() {
            assert!(
                t.contains(&format!("{} {}", i + 1, k.pretty())),
                "{players} players, card {k}:\n{t}"
            );
        }
        assert_names_every_seat(&t, players, "", "discard top of ");
    }
    for players in 2u8..=6 {
        let setup = table(GameKind::Stacks, person_and_bots(players), 3);
        let mut app = App::new_game(setup, std::env::temp_dir().join("fit.json")).unwrap();
        let mut pool = BotPool::new(3);
        run_bots(&mut app, &mut pool);
        if app.is_over() {
            continue;
        }
        let t = text(&render(&mut app, 80, 24));
        assert!(
            t.contains("Hand of P1") && t.contains("red-b"),
            "{players} players:\n{t}"
        );
        assert_names_every_seat(&t, players, " ", "");
    }
}

/// Regression: typing a space that does not exist (`k11`) did nothing at
/// all, or its digits chose cards; now the message line names it.
#[test]
fn a_typed_space_that_does_not_exist_is_named() {
    let mut app = new_app(11, vec![SeatKind::Human, SeatKind::Bot(1)]);
    let mut pool = BotPool::new(11);
    run_bots(&mut app, &mut pool);
    let before = app.classic().unwrap().selected_card();
    for (typed, want) in [
        ("k11", "No space k11: columns are a to j, rows 1 to 10."),
        ("z", "No column z: columns are a to j"),
        ("a0", "No space a0: rows are 1 to 10."),
        ("c13", "No space c13: rows are 1 to 10."),
    ] {
        type_str(&mut app, typed);
        let t = text(&render(&mut app, 100, 30));
        assert!(t.contains(want), "{typed}: {t}");
        let c = app.classic().unwrap();
        assert_eq!(c.selected_card(), before, "{typed} chose a card");
        assert_eq!(c.seen(), Seen::Human(Seat(0)), "{typed}");
    }
    // The cursor stays put for `k11` (there is no column to move to).
    let cursor = app.classic().unwrap().cursor();
    type_str(&mut app, "k11");
    assert_eq!(app.classic().unwrap().cursor(), cursor);
    // A good space still moves the cursor.
    type_str(&mut app, "j10");
    let c = app.classic().unwrap();
    assert_eq!(c.cursor(), "j10".parse::<Space>().unwrap());
    assert_eq!(c.selected_card(), before);
}

/// Regression (fresh-user test): on the end screen a card key replaced the
/// result with "No card can be played … (C6a)" (advice computed for a game
/// that is over), and the header counted one move past the last.
#[test]
fn the_end_screen_keeps_its_result_and_counts_the_moves_played() {
    let path = shared_example("2p-blue-vs-green.json");
    let text = std::fs::read_to_string(&path).expect("example record");
    // The game one move before green's win; the bot (greedy) takes the win.
    let mut v: serde_json::Value = serde_json::from_str(&text).expect("json");
    let moves = v["moves"].as_array().expect("moves").len();
    v["moves"].as_array_mut().expect("moves").pop();
    v.as_object_mut().expect("object").remove("result");
    let save = std::env::temp_dir().join(format!("end-{}.json", std::process::id()));
    let mut app = App::load(
        &v.to_string(),
        vec![SeatKind::Human, SeatKind::Bot(2)],
        1,
        save,
    )
    .expect("the game loads");
    let mut pool = BotPool::new(1);
    run_bots(&mut app, &mut pool);
    assert_eq!(app.classic().expect("classic").seen(), Seen::Over);
    let before = app.classic().expect("classic").message.clone();
    assert!(before.contains("wins"), "{before}");
    for c in ['2', '1', '3'] {
        app.handle_key(ch(c));
    }
    assert_eq!(app.classic().expect("classic").message, before);
    let b = render(&mut app, 120, 40);
    let all = lines(&b).join("\n");
    assert!(all.contains(&format!("move {moves} ·")), "{all}");
}
