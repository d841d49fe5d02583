//! Whole games played through the keyboard: the person's keys are scripted
//! (a simple strategy picks a legal move, which is then typed as a player
//! would type it), the bots answer through the same job/reply path the
//! terminal uses. Classic is played to a win; Stacks to its end. Saving,
//! quitting and resuming are checked on the way.

mod common;

use common::*;
use crossterm::event::KeyCode;
use sequence_classic::{Game, Move, MoveList, Seat, Space, Status};
use sequence_tui::bots::BotPool;
use sequence_tui::ui::Seen;
use sequence_tui::{App, Effect, GameKind, SeatKind, Setup};

/// A one-ply score: longest own line through the space (corners count),
/// big bonus for a line of 5; jacks cost a little; a removal scores the
/// opponent's line it breaks.
fn score(g: &Game, seat: Seat, mv: &Move) -> i32 {
    let team = g.team_of(seat);
    let line = |own: &dyn Fn(Space) -> bool, at: Space| -> i32 {
        let mut best = 0;
        let mut total = 0;
        for (dr, dc) in [(0i8, 1i8), (1, 0), (1, 1), (1, -1)] {
            let mut run = 1;
            for sign in [1i8, -1] {
                let (mut r, mut c) = (at.row() as i8, at.col() as i8);
                loop {
                    r += dr * sign;
                    c += dc * sign;
                    let Some(s) = (0..10)
                        .contains(&r)
                        .then_some(())
                        .and((0..10).contains(&c).then_some(()))
                        .and(Space::new(r as u8, c as u8))
                    else {
                        break;
                    };
                    if own(s) {
                        run += 1;
                    } else {
                        break;
                    }
                }
            }
            best = best.max(run);
            total += run * run;
        }
        if best >= 5 {
            1000 + total
        } else {
            total
        }
    };
    match *mv {
        Move::Place { card, at, .. } => {
            let own = |s: Space| s.is_corner() || g.chip_at(s) == Some(team);
            let theirs = |s: Space| s.is_corner() || g.chip_at(s).is_some_and(|t| t != team);
            line(&own, at) + line(&theirs, at) * 3 / 4 - if card.is_jack() { 12 } else { 0 }
        }
        Move::Remove { at, .. } => {
            let Some(t) = g.chip_at(at) else { return 0 };
            let theirs = |s: Space| s.is_corner() || g.chip_at(s) == Some(t);
            line(&theirs, at) / 2 - 10
        }
        Move::Dead { .. } => 5000,
        _ => 0,
    }
}

fn classic_setup(seed: u64) -> Setup {
    table(
        GameKind::Classic,
        vec![SeatKind::Human, SeatKind::Bot(1)],
        seed,
    )
}

#[test]
fn classic_game_played_by_keys_to_a_win() {
    let seed = 2026;
    let dir = std::env::temp_dir().join(format!("sequence-tui-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let save = dir.join("classic.json");
    let mut app = App::new_game(classic_setup(seed), save.clone()).unwrap();
    let mut pool = BotPool::new(seed);
    let mut human_moves = 0;
    let mut saved_midway = None;
    while persons_turn(&mut app, &mut pool) {
        let c = app.classic().unwrap();
        let mut l = MoveList::new();
        c.game().legal_moves(&mut l);
        let g = c.game();
        let mv = *l.iter().max_by_key(|m| score(g, Seat(0), m)).unwrap();
        type_move(&mut app, mv);
        human_moves += 1;
        if human_moves == 10 {
            // `s` saves the record of the unfinished game.
            let eff = app.handle_key(ch('s'));
            let [Effect::Save { path, text }] = eff.as_slice() else {
                panic!("{eff:?}")
            };
            assert_eq!(path, &save);
            saved_midway = Some((text.clone(), app.classic().unwrap().game().board_rows()));
        }
        // The screen renders at every step without panicking.
        render(&mut app, 100, 30);
        assert!(human_moves < 200, "the game does not end");
    }
    let c = app.classic().unwrap();
    let Status::Won(team) = c.game().status() else {
        panic!("not a win: {:?}", c.game().status())
    };
    // A win (not a draw), announced in words for the winning colour.
    let colour = team.colour();
    let winner = format!("{}{}", colour[..1].to_uppercase(), &colour[1..]);
    assert!(
        c.log()
            .last()
            .unwrap()
            .contains(&format!("{winner} wins with 2 sequences")),
        "{:?}",
        c.log().last()
    );
    let t = text(&render(&mut app, 100, 30));
    assert!(
        t.contains("Game over") && t.contains(&format!("{winner} wins")),
        "{t}"
    );
    // The finished record replays to the same result.
    let record = app.record_text().unwrap();
    let (_, replayed) = sequence_classic::record::Record::from_json_str(&record).unwrap();
    assert_eq!(replayed.status(), Status::Won(team));
    assert_eq!(
        replayed.board_rows(),
        app.classic().unwrap().game().board_rows()
    );
    // q asks first; y saves and quits.
    assert!(app.handle_key(ch('q')).is_empty());
    assert!(text(&render(&mut app, 100, 30)).contains("Quit the game?"));
    let eff = app.handle_key(ch('y'));
    assert!(
        matches!(eff.as_slice(), [Effect::Save { .. }, Effect::Quit]),
        "{eff:?}"
    );

    // The game saved midway resumes at the same position and plays on.
    let (text_mid, board_mid) = saved_midway.unwrap();
    std::fs::write(&save, &text_mid).unwrap();
    let mut resumed = App::load(
        &text_mid,
        vec![SeatKind::Human, SeatKind::Bot(1)],
        5,
        save.clone(),
    )
    .unwrap();
    let c = resumed.classic().unwrap();
    assert_eq!(c.game().board_rows(), board_mid);
    assert!(c.log()[0].contains("Resumed after"), "{:?}", c.log());
    run_bots(&mut resumed, &mut pool);
    assert_eq!(resumed.seen(), Some(Seen::Human(Seat(0))));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn illegal_keys_do_not_change_the_game() {
    let mut app =
        App::new_game(classic_setup(4), std::env::temp_dir().join("unused.json")).unwrap();
    let mut pool = BotPool::new(4);
    run_bots(&mut app, &mut pool);
    let c = app.classic().unwrap();
    let hand = c.game().hand(Seat(0)).to_vec();
    let ply = c.game().ply();
    // A plain card on a corner, then on a space that shows another card.
    let i = hand.iter().position(|k| !k.is_jack()).unwrap() + 1;
    type_str(&mut app, &format!("{i}a1\n"));
    let c = app.classic().unwrap();
    assert_eq!(c.game().ply(), ply);
    assert!(c.message.contains("(C6)"), "{}", c.message);
    // Garbage keys are ignored.
    type_str(&mut app, "zk0!");
    assert_eq!(app.classic().unwrap().game().ply(), ply);
}

#[test]
fn loading_bad_records_names_the_problem() {
    let p = std::env::temp_dir().join("bad.json");
    let e = App::load("{not json", vec![], 1, p.clone())
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("JSON") || e.contains("json"), "{e}");
    let e = App::load(
        r#"{"format":"sequence-record/1","players":5}"#,
        vec![],
        1,
        p,
    )
    .err()
    .unwrap()
    .to_string();
    assert!(!e.is_empty());
}

#[test]
fn start_screen_changes_the_table_and_deals() {
    let setup = Setup::from_args("classic", None, None, Some("2"), None, Some(3), None).unwrap();
    assert_eq!(setup.seats, vec![SeatKind::Human, SeatKind::Bot(2)]);
    let mut app = App::start(setup, std::env::temp_dir().join("x.json"));
    let t = text(&render(&mut app, 100, 30));
    assert!(
        t.contains("New game") && t.contains("Sequence (classic)"),
        "{t}"
    );
    // Players: 2 → 3 (C3), then Enter deals a 3-player game.
    app.handle_key(key(KeyCode::Down));
    app.handle_key(key(KeyCode::Right));
    let t = text(&render(&mut app, 100, 30));
    assert!(t.contains("‹ 3 ›"), "{t}");
    app.handle_key(key(KeyCode::Enter));
    let c = app.classic().expect("a classic game");
    assert_eq!(c.game().players(), 3);
    // Game: classic → Stacks.
    let mut app = App::start(
        Setup::from_args("classic", None, None, None, None, Some(3), None).unwrap(),
        "x.json".into(),
    );
    app.handle_key(key(KeyCode::Right));
    app.handle_key(key(KeyCode::Enter));
    assert!(app.stacks().is_some());
}

// ----- Stacks ---------------------------------------------------------------

use sequence_stacks::Decision;

/// The person's turn in Stacks by keys: answer a Block window with `b` when
/// holding a Block, else `n`; play any pile card (choose the card, ↓ to the
/// action, Enter); else a Steal-a-Chip; else discard the first card.
fn stacks_turn(app: &mut App) {
    let s = app.stacks().unwrap();
    let legal = s.legal();
    if s.game().block_offer().is_some() {
        let k = if legal.contains(&Decision::Block) {
            'b'
        } else {
            'n'
        };
        app.handle_key(ch(k));
        return;
    }
    if legal.contains(&Decision::End) {
        app.handle_key(ch('e'));
        return;
    }
    let n = s.hand().len();
    let picks: Vec<char> = (0..n.min(9))
        .map(|i| (b'1' + i as u8) as char)
        .chain(['d'])
        .collect();
    for want in [0, 1] {
        for &p in &picks {
            app.handle_key(ch(p));
            let opts = app.stacks().unwrap().options();
            let hit = opts.iter().position(|d| match want {
                0 => matches!(d, Decision::Pile { .. }),
                _ => matches!(d, Decision::StealChip { .. }),
            });
            if let Some(k) = hit {
                for _ in 0..k {
                    app.handle_key(key(KeyCode::Down));
                }
                app.handle_key(key(KeyCode::Enter));
                return;
            }
        }
    }
    app.handle_key(ch('1'));
    let opts = app.stacks().unwrap().options();
    let k = opts
        .iter()
        .position(|d| matches!(d, Decision::Discard { .. }))
        .expect("a discard");
    for _ in 0..k {
        app.handle_key(key(KeyCode::Down));
    }
    app.handle_key(key(KeyCode::Enter));
}

#[test]
fn stacks_game_played_by_keys_to_its_end() {
    let seed = 77;
    let setup = table(GameKind::Stacks, person_and_bots(3), seed);
    let mut app = App::new_game(setup, std::env::temp_dir().join("s.json")).unwrap();
    let mut pool = BotPool::new(seed);
    let mut steps = 0;
    let mut saw_window = false;
    let mut saw_piles = false;
    while persons_turn(&mut app, &mut pool) {
        let s = app.stacks().unwrap();
        if s.game().block_offer().is_some() && !saw_window {
            saw_window = true;
            let t = text(&render(&mut app, 100, 30));
            assert!(t.contains("Block it (S5)?") && t.contains("b block"), "{t}");
        }
        let before = app.stacks().unwrap().game().clone();
        stacks_turn(&mut app);
        let s = app.stacks().unwrap();
        assert_ne!(s.game(), &before, "the typed decision was played");
        if !saw_piles && s.game().places().any(|p| !s.game().pile(p).is_empty()) {
            saw_piles = true;
            let t = text(&render(&mut app, 100, 30));
            assert!(t.contains("Piles") && t.contains("of 5)"), "{t}");
        }
        steps += 1;
        assert!(steps < 20_000, "the game does not end");
    }
    let s = app.stacks().unwrap();
    let last = s.log().last().unwrap().clone();
    assert!(last.contains("wins") || last.contains("Draw"), "{last}");
    let (_, replayed) =
        sequence_stacks::Record::from_json_str(&app.record_text().unwrap()).unwrap();
    assert_eq!(replayed.status(), s.game().status());
    assert!(saw_piles);
}

#[test]
fn stacks_screen_shows_piles_hand_chips_and_hides_other_hands() {
    let setup = table(GameKind::Stacks, vec![SeatKind::Human, SeatKind::Human], 5);
    let mut app = App::new_game(setup, std::env::temp_dir().join("s2.json")).unwrap();
    let first = app.stacks().unwrap().game().turn();
    assert_eq!(app.seen(), Some(Seen::PassDevice(first)));
    let t = text(&render(&mut app, 100, 30));
    assert!(
        t.contains("Pass the device to") && t.contains("(hidden)"),
        "{t}"
    );
    app.handle_key(key(KeyCode::Enter));
    let t = text(&render(&mut app, 100, 30));
    for p in ["blue-a", "blue-b", "red-a", "red-b"] {
        assert!(t.contains(p), "{p} missing: {t}");
    }
    assert!(t.contains(&format!("Hand of P{}", first.0 + 1)), "{t}");
    let hand = app.stacks().unwrap().hand();
    assert_eq!(hand.len(), 5);
    for (i, c) in hand.iter().enumerate() {
        assert!(t.contains(&format!("{} {c}", i + 1)), "{t}");
    }
    assert!(t.contains("B0 R0"), "chips per player: {t}");
    assert!(t.contains("supply B20 R20"), "{t}");
    // End the turn with a discard: the next person gets the pass screen.
    stacks_turn_discard(&mut app);
    while app.stacks().unwrap().game().turn() == first && !app.is_over() {
        stacks_turn_discard(&mut app);
    }
    assert!(matches!(app.seen(), Some(Seen::PassDevice(_))));
    assert!(text(&render(&mut app, 100, 30)).contains("(hidden)"));
}

fn stacks_turn_discard(app: &mut App) {
    if app.seen().is_some_and(|s| matches!(s, Seen::PassDevice(_))) {
        app.handle_key(key(KeyCode::Enter));
    }
    app.handle_key(ch('1'));
    let opts = app.stacks().unwrap().options();
    let k = opts
        .iter()
        .position(|d| matches!(d, Decision::Discard { .. }))
        .unwrap();
    for _ in 0..k {
        app.handle_key(key(KeyCode::Down));
    }
    app.handle_key(key(KeyCode::Enter));
}

#[test]
fn faulty_or_stale_bot_replies_cannot_corrupt_the_game() {
    use sequence_common::AnyMove;
    use sequence_tui::bots::BotReply;
    // The bot moves first in this deal when seat 1 follows the dealer.
    let mut setup = classic_setup(12);
    setup.seats = vec![SeatKind::Bot(1), SeatKind::Bot(1)];
    let mut app = App::new_game(setup, std::env::temp_dir().join("f.json")).unwrap();
    let job = app.bot_job().expect("a bot is to move");
    assert!(app.bot_job().is_none(), "one job at a time");
    let ply = app.classic().unwrap().game().ply();
    // A stale id is ignored.
    app.bot_reply(BotReply {
        id: job.id + 100,
        seat: job.seat,
        choice: Some(AnyMove::of::<sequence_classic::Game>(Move::Pass)),
    });
    assert_eq!(app.classic().unwrap().game().ply(), ply);
    // An illegal move is replaced by a legal one and said so in the log.
    app.bot_reply(BotReply {
        id: job.id,
        seat: job.seat,
        choice: Some(AnyMove::of::<sequence_classic::Game>(Move::Pass)),
    });
    let c = app.classic().unwrap();
    assert_eq!(c.game().ply(), ply + 1);
    assert!(
        c.log().iter().any(|l| l.contains("gave no legal move")),
        "{:?}",
        c.log()
    );
    assert_ne!(c.game().last_move().unwrap().1, Move::Pass);
}

/// A line of six (C8a): the player chooses which five spaces count.
#[test]
fn a_line_of_six_offers_the_c8a_choice() {
    use sequence_classic::record::Record;
    use sequence_classic::{Card, Config, Options};
    let c = |s: &str| s.parse::<Card>().unwrap();
    let sp = |s: &str| s.parse::<Space>().unwrap();
    // Seat 1 deals, so seat 0 gets the even cards and plays first.
    let dealt = [
        "6C", "9H", "5C", "8H", "4C", "8D", "3C", "QD", "AH", "KD", "2C", "2H", "AC", "3H",
    ];
    let mut deck: Vec<Card> = dealt.iter().map(|s| c(s)).collect();
    let mut rest: Vec<Card> = Card::double_deck().to_vec();
    for d in &deck {
        let i = rest.iter().position(|x| x == d).unwrap();
        rest.remove(i);
    }
    deck.extend(rest);
    let plays = [
        (0, "6C", "a2"),
        (1, "9H", "e7"),
        (0, "5C", "b2"),
        (1, "8H", "d7"),
        (0, "4C", "c2"),
        (1, "8D", "h4"),
        (0, "3C", "d2"),
        (1, "QD", "h7"),
        (0, "AH", "f2"),
        (1, "KD", "h8"),
    ];
    let record = Record {
        config: Config::new(2, Some(2), Options::default()).unwrap(),
        dealer: Seat(1),
        deck,
        reshuffles: vec![],
        moves: plays
            .iter()
            .map(|(s, k, at)| (Seat(*s), Move::place(c(k), sp(at))))
            .collect(),
        penalties: vec![],
        result: None,
    };
    let text_in = record.to_json_string();
    let mut app = App::load(
        &text_in,
        vec![SeatKind::Human, SeatKind::Bot(1)],
        1,
        std::env::temp_dir().join("c8a.json"),
    )
    .unwrap();
    assert_eq!(app.seen(), Some(Seen::Human(Seat(0))));
    let hand = app.classic().unwrap().game().hand(Seat(0)).to_vec();
    let i = hand.iter().position(|k| *k == c("2C")).unwrap();
    type_str(&mut app, &format!("{}e2\n", i + 1));
    // Not played yet: the choice is on screen.
    assert_eq!(app.classic().unwrap().game().ply(), 10);
    let t = text(&render(&mut app, 100, 30));
    assert!(
        t.contains("Sequence (C8a)") && t.contains("a2-e2") && t.contains("b2-f2"),
        "{t}"
    );
    type_str(&mut app, "2\n");
    let g = app.classic().unwrap().game();
    assert_eq!(g.ply(), 11);
    let seqs: Vec<_> = g.sequences().collect();
    assert_eq!(seqs.len(), 1);
    assert_eq!(seqs[0].1.start, sp("b2"), "the chosen window counts");
    assert!(!g.locked().contains(sp("a2")) && g.locked().contains(sp("f2")));
    // The record keeps the declaration.
    assert!(app
        .record_text()
        .unwrap()
        .contains(r#""declare":[["b2","f2"]]"#));
}

#[test]
fn a_finished_game_is_not_resumed() {
    let mut seats_bots = classic_setup(8);
    seats_bots.seats = vec![SeatKind::Bot(1), SeatKind::Bot(1)];
    let mut app2 = App::new_game(seats_bots, std::env::temp_dir().join("g.json")).unwrap();
    let mut pool = BotPool::new(8);
    run_bots(&mut app2, &mut pool);
    assert!(app2.is_over());
    let text = app2.record_text().unwrap();
    let e = App::load(&text, vec![SeatKind::Human], 1, "g.json".into())
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("has already ended") && (e.contains(" won") || e.contains("drawn")),
        "{e}"
    );
    // A Stacks game saved midway resumes with the same hand.
    let setup = table(GameKind::Stacks, person_and_bots(3), 31);
    let mut st = App::new_game(setup, std::env::temp_dir().join("s3.json")).unwrap();
    run_bots(&mut st, &mut pool);
    for _ in 0..3 {
        if st.is_over() {
            break;
        }
        stacks_turn(&mut st);
        run_bots(&mut st, &mut pool);
    }
    let saved = st.record_text().unwrap();
    let resumed = App::load(
        &saved,
        vec![SeatKind::Human, SeatKind::Bot(1), SeatKind::Bot(1)],
        2,
        "s3.json".into(),
    )
    .unwrap();
    let (a, b) = (st.stacks().unwrap(), resumed.stacks().unwrap());
    assert_eq!(a.hand(), b.hand());
    assert_eq!(a.game().to_act(), b.game().to_act());
    assert!(b.log()[0].starts_with("Resumed after"), "{:?}", b.log());
}
