//! `sequence play`'s arguments as `app_from_config` reads them: every one is
//! checked before a screen opens, and `--load` keeps the saved table
//! (regressions from a fresh user's test).

mod common;

use common::*;
use sequence_tui::bots::BotPool;
use sequence_tui::{app_from_config, App, GameKind, PlayConfig, SeatKind, Setup};
use std::path::PathBuf;

fn args() -> PlayConfig {
    PlayConfig {
        seed: Some(5),
        pause: 0,
        ..PlayConfig::default()
    }
}

/// A saved, unfinished 2-player classic game (a person and a level-3 bot,
/// a few moves in), as a file.
fn saved_game(name: &str, options: Option<&str>) -> PathBuf {
    let path = std::env::temp_dir().join(format!("play-args-{}-{name}.json", std::process::id()));
    let setup = Setup {
        game: GameKind::Classic,
        players: 2,
        teams: None,
        seats: vec![SeatKind::Bot(3), SeatKind::Bot(3)],
        seed: 9,
        options: options.map(String::from),
    };
    let mut app = App::new_game(setup, path.clone()).expect("deal");
    let mut pool = BotPool::new(9);
    for _ in 0..4 {
        let job = app.bot_job().expect("a bot to move");
        let r = pool.decide(&job);
        app.bot_reply(r);
    }
    std::fs::write(&path, app.record_text().expect("a record")).expect("write the record");
    path
}

fn load_err(path: &std::path::Path, f: impl FnOnce(&mut PlayConfig)) -> String {
    let mut a = args();
    a.load = Some(path.to_path_buf());
    f(&mut a);
    match app_from_config(&a) {
        Ok(_) => panic!("accepted"),
        Err(e) => format!("{e:#}"),
    }
}

#[test]
fn load_refuses_arguments_that_change_the_saved_table() {
    let path = saved_game("table", None);
    // Regression: --players 4 was ignored and the game resumed as 2 players.
    let e = load_err(&path, |a| a.players = Some(4));
    assert!(
        e.contains("--players 4") && e.contains("has 2 players"),
        "{e}"
    );
    let e = load_err(&path, |a| a.game = Some("stacks".into()));
    assert!(e.contains("--game stacks") && e.contains("classic"), "{e}");
    let e = load_err(&path, |a| a.teams = Some(3));
    assert!(e.contains("--teams 3") && e.contains("has 2 teams"), "{e}");
    let e = load_err(&path, |a| {
        a.options = Some(r#"{"sequence_length":4}"#.into())
    });
    assert!(e.contains("--options") && e.contains("options {}"), "{e}");
    let e = load_err(&path, |a| a.options = Some("{x".into()));
    assert!(e.contains("not JSON"), "{e}");
    // Repeating the record's values is fine.
    let mut a = args();
    a.load = Some(path.clone());
    a.players = Some(2);
    a.teams = Some(2);
    a.game = Some("classic".into());
    a.options = Some("{}".into());
    let (app, _) = app_from_config(&a).expect("the same table");
    assert_eq!(app.seats(), [SeatKind::Human, SeatKind::Bot(1)]);
    let _ = std::fs::remove_file(&path);
}

#[test]
fn load_keeps_a_seat_for_the_person() {
    let path = saved_game("bots", None);
    // Regression: --bots 5,5,5 on a 2-player game gave the person's seat to
    // a bot, which then played the whole game into the file.
    let e = load_err(&path, |a| a.bots = Some("5,5,5".into()));
    assert!(e.contains("3 bots for 2 players"), "{e}");
    let e = load_err(&path, |a| a.bots = Some("5,5".into()));
    assert!(e.contains("leaves none to a person"), "{e}");
    let mut a = args();
    a.load = Some(path.clone());
    a.bots = Some("5".into());
    let (app, _) = app_from_config(&a).expect("load");
    assert_eq!(app.seats(), [SeatKind::Human, SeatKind::Bot(5)]);
    // Bots only, when asked for in so many words.
    a.bots = Some("4,5".into());
    a.humans = Some(0);
    let (app, _) = app_from_config(&a).expect("load");
    assert_eq!(app.seats(), [SeatKind::Bot(4), SeatKind::Bot(5)]);
    let _ = std::fs::remove_file(&path);
}

#[test]
fn load_without_bots_says_the_bots_are_level_one() {
    let path = saved_game("level", Some(r#"{"sequence_length":4}"#));
    let mut a = args();
    a.load = Some(path.clone());
    a.options = Some(r#"{"sequence_length":4}"#.into());
    let (mut app, _) = app_from_config(&a).expect("load");
    assert_eq!(app.seats(), [SeatKind::Human, SeatKind::Bot(1)]);
    let t = text(&render(&mut app, 100, 30));
    assert!(t.contains("bots play at level 1"), "{t}");
    assert!(t.contains("--bots"), "{t}");
    let _ = std::fs::remove_file(&path);
}

#[test]
fn new_game_arguments_are_checked_before_the_start_screen() {
    // Regression: these were reported only after Enter on the start screen
    // (or, for Stacks teams, not at all).
    for (f, needle) in [
        (
            Box::new(|a: &mut PlayConfig| a.options = Some("{x".into()))
                as Box<dyn Fn(&mut PlayConfig)>,
            "not JSON",
        ),
        (
            Box::new(|a: &mut PlayConfig| a.options = Some(r#"{"bogus":1}"#.into())),
            "bogus",
        ),
        (
            Box::new(|a: &mut PlayConfig| {
                a.game = Some("stacks".into());
                a.teams = Some(2);
            }),
            "--teams",
        ),
        (
            Box::new(|a: &mut PlayConfig| a.players = Some(5)),
            "2, 3, 4, 6, 8, 9, 10 or 12",
        ),
        (
            Box::new(|a: &mut PlayConfig| {
                a.players = Some(2);
                a.bots = Some("3,3".into());
            }),
            "--humans 0",
        ),
    ] {
        let mut a = args();
        f(&mut a);
        match app_from_config(&a) {
            Ok(_) => panic!("accepted ({needle})"),
            Err(e) => assert!(format!("{e:#}").contains(needle), "{e:#}"),
        }
    }
    let mut a = args();
    a.humans = Some(2);
    a.bots = Some("4".into());
    let (app, _) = app_from_config(&a).expect("a start screen");
    assert!(app.on_start_screen());
    assert_eq!(
        app.seats(),
        [SeatKind::Human, SeatKind::Human, SeatKind::Bot(4)]
    );
}

/// A refusal on the start screen is shown whole, wrapped inside the box
/// (it was cut off at the box's edge).
#[test]
fn start_screen_messages_wrap_inside_the_box() {
    let setup = Setup {
        game: GameKind::Classic,
        players: 2,
        teams: None,
        seats: vec![SeatKind::Human, SeatKind::Bot(1)],
        seed: 1,
        // Made here without the command line's checks: a stand-in for any
        // long refusal of a table chosen on the screen.
        options: Some(r#"{"bogus":1}"#.into()),
    };
    let mut app = App::start(setup, std::env::temp_dir().join("wrap.json"));
    app.handle_key(key(crossterm::event::KeyCode::Enter));
    assert!(app.on_start_screen(), "the table is refused");
    let b = render(&mut app, 100, 40);
    let t = lines(&b).join(" ");
    let squeezed: String = t.split_whitespace().collect::<Vec<_>>().join(" ");
    // The whole message is on screen (it was cut at the border).
    assert!(squeezed.contains("unknown field `bogus`"), "{t}");
    assert!(squeezed.contains("`default_window`"), "{t}");
}
