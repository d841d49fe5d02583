//! The screen shell, once for both games: [`GameScreen<G>`] driven by code
//! that knows only the game interface plays games of either kind to their
//! end; a hot-seat classic game is played by keys through the app; a bot
//! reply of the wrong game is refused like an illegal one.

mod common;

use common::*;
use crossterm::event::KeyCode;
use sequence_common::record::{Match, Record};
use sequence_common::AnyMove;
use sequence_common::{Rules, Seat};
use sequence_tui::bots::{BotPool, BotReply};
use sequence_tui::ui::Seen;
use sequence_tui::{App, GameKind, GameScreen, SeatKind, TuiGame};

/// A screen of `players` bots of level 1 and 2 dealt from `seed`.
fn bots_only<G: TuiGame>(players: u8, seed: u64) -> GameScreen<G> {
    let config = G::table(players, None, G::Options::default()).expect("a table");
    let seats = (0..players).map(|i| SeatKind::Bot(1 + i % 2)).collect();
    GameScreen::new(Match::<G>::new(config, seed), seats)
}

/// Lets the bots of `s` play to the end through the shell's job / reply
/// path, saving midway; checks what the screen says and that the record
/// (saved and final) replays to the same game.
fn bots_to_the_end<G: TuiGame>(players: u8, seed: u64) {
    let mut s = bots_only::<G>(players, seed);
    let mut pool = BotPool::new(seed);
    let mut midway = None;
    while let Some(job) = s.bot_job() {
        assert!(s.bot_job().is_none(), "one job at a time");
        assert_eq!(s.seen(), Seen::Bot(job.seat));
        let reply = pool.decide(&job);
        s.bot_reply(reply);
        if s.game().ply() == 20 {
            midway = s.game_match().to_json();
        }
        assert!(s.game().ply() < 20_000, "the game does not end");
    }
    let kind = G::KIND;
    assert_eq!(s.seen(), Seen::Over, "{kind}");
    assert!(s.game().is_over(), "{kind}");
    let result = s.result_text().expect("a result");
    assert_eq!(s.log().last(), Some(&result), "{kind}");
    assert!(s.message.starts_with(&result), "{kind}: {}", s.message);
    assert!(
        s.log().first().is_some_and(|l| l.contains("deals")),
        "{kind}: {:?}",
        s.log().first()
    );
    // Every move is in the log (a declined Block is not written).
    assert!(s.log().len() > s.game_match().moves(), "{kind}");
    let text = text(&render_screen(&mut s, 100, 30));
    assert!(
        text.contains("Game over") && text.contains(&result),
        "{text}"
    );
    let (_, replayed) = Record::<G>::from_json_str(
        &s.game_match()
            .record()
            .expect("dealt from a seed")
            .to_json_string(),
    )
    .expect("replays");
    assert_eq!(replayed.outcome(), s.game().outcome(), "{kind}");
    // The game saved midway resumes where it was, and plays on to an end.
    let saved = midway.expect("20 moves were played");
    let written = saved["moves"].as_array().map_or(0, Vec::len);
    let m = Match::<G>::from_record_json(&saved, seed).expect("resumes");
    assert_eq!(m.moves(), written, "{kind}");
    let mut resumed = GameScreen::new(m, s.seats().to_vec());
    assert!(resumed.log()[0].starts_with("Resumed after"), "{kind}");
    while let Some(job) = resumed.bot_job() {
        let reply = pool.decide(&job);
        resumed.bot_reply(reply);
    }
    assert!(resumed.game().is_over(), "{kind}");
}

/// Draws a game screen alone into a `w` × `h` TestBackend.
fn render_screen<G: TuiGame>(s: &mut GameScreen<G>, w: u16, h: u16) -> ratatui::buffer::Buffer {
    let backend = ratatui::backend::TestBackend::new(w, h);
    let mut t = ratatui::Terminal::new(backend).expect("test backend");
    t.draw(|f| s.draw(f, f.area())).expect("draw");
    t.backend().buffer().clone()
}

#[test]
fn bots_play_both_games_to_the_end_through_one_shell() {
    for seed in [1, 2] {
        bots_to_the_end::<sequence_classic::Game>(2, seed);
        bots_to_the_end::<sequence_classic::Game>(3, seed);
        bots_to_the_end::<sequence_stacks::Game>(3, seed);
        bots_to_the_end::<sequence_stacks::Game>(4, seed);
    }
}

/// A move of the other game, or of the wrong seat, is refused like an
/// illegal one: the first legal move is played and the log says so.
#[test]
fn a_bot_reply_of_the_wrong_game_is_replaced() {
    let mut s = bots_only::<sequence_stacks::Game>(2, 4);
    let job = s.bot_job().expect("a bot to act");
    let ply = s.game().ply();
    s.bot_reply(BotReply {
        id: job.id,
        seat: job.seat,
        choice: Some(AnyMove::of::<sequence_classic::Game>(
            sequence_classic::Move::Pass,
        )),
    });
    assert_eq!(s.game().ply(), ply + 1);
    assert!(
        s.log()
            .iter()
            .any(|l| l.contains("gave no legal decision; its first legal decision is played")),
        "{:?}",
        s.log()
    );
    // A reply for a seat that is not to act is refused the same way.
    let job = s.bot_job().expect("a bot to act");
    let first = s.legal()[0];
    let other = Seat(1 - job.seat.0);
    s.bot_reply(BotReply {
        id: job.id,
        seat: other,
        choice: Some(AnyMove::of::<sequence_stacks::Game>(first)),
    });
    assert_eq!(s.game().ply(), ply + 1, "{:?}", s.message);
    assert!(s.message.starts_with("Not allowed"), "{}", s.message);
}

/// Two people share the keyboard for a classic game, typed to its end: each
/// turn starts on the "pass the device" screen with no hand shown, Enter
/// shows the hand of the person to play, the move is typed.
#[test]
fn hot_seat_classic_game_typed_to_the_end() {
    let setup = table(
        GameKind::Classic,
        vec![SeatKind::Human, SeatKind::Human],
        17,
    );
    let mut app = App::new_game(setup, std::env::temp_dir().join("hot-seat.json")).expect("deal");
    let mut rng = sequence_common::rng::game_rng(17);
    let mut turns = 0;
    while !app.is_over() {
        let seat = app.classic().expect("classic").game().turn();
        assert_eq!(app.seen(), Some(Seen::PassDevice(seat)));
        let t = text(&render(&mut app, 100, 30));
        assert!(
            t.contains("Pass the device to") && t.contains("(hidden)") && !t.contains("Hand of"),
            "{t}"
        );
        app.handle_key(key(KeyCode::Enter));
        assert_eq!(app.seen(), Some(Seen::Human(seat)));
        let t = text(&render(&mut app, 100, 30));
        assert!(t.contains(&format!("Hand of P{}", seat.0 + 1)), "{t}");
        // One move of the turn (a dead card is exchanged and the same
        // person plays on).
        loop {
            let g = app.classic().expect("classic").game();
            let mv = g.random_move(&mut rng).expect("the game goes on");
            type_move(&mut app, mv);
            let g = app.classic().expect("classic").game();
            if g.is_over() || g.turn() != seat {
                break;
            }
        }
        turns += 1;
        assert!(turns < 500, "the game does not end");
    }
    let c = app.classic().expect("classic");
    let result = c.result_text().expect("a result");
    assert_eq!(c.log().last(), Some(&result));
    let t = text(&render(&mut app, 100, 30));
    assert!(t.contains("Game over") && t.contains(&result), "{t}");
    let (_, g) =
        Record::<sequence_classic::Game>::from_json_str(&app.record_text().expect("a record"))
            .expect("replays");
    assert_eq!(
        g.outcome(),
        app.classic().expect("classic").game().outcome()
    );
}
