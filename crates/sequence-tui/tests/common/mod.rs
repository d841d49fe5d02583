//! Helpers shared by the TUI tests: keys, rendering into a TestBackend and
//! running bots synchronously.
#![allow(dead_code)]

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::Terminal;
use sequence_common::Seat;
use sequence_tui::bots::BotPool;
use sequence_tui::ui::Seen;
use sequence_tui::{App, Effect, GameKind, SeatKind, Setup};

pub fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

pub fn ch(c: char) -> KeyEvent {
    key(KeyCode::Char(c))
}

/// Presses each character of `s` (`\n` = Enter).
pub fn type_str(app: &mut App, s: &str) -> Vec<Effect> {
    let mut out = vec![];
    for c in s.chars() {
        let k = if c == '\n' {
            key(KeyCode::Enter)
        } else {
            ch(c)
        };
        out.extend(app.handle_key(k));
    }
    out
}

/// Draws the app into a `w` × `h` TestBackend and returns the buffer.
pub fn render(app: &mut App, w: u16, h: u16) -> Buffer {
    let mut t = Terminal::new(TestBackend::new(w, h)).expect("test backend");
    t.draw(|f| app.draw(f)).expect("draw");
    t.backend().buffer().clone()
}

/// The buffer as lines of text (wide symbols take one cell each here).
pub fn lines(b: &Buffer) -> Vec<String> {
    let a = b.area;
    (0..a.height)
        .map(|y| {
            (0..a.width)
                .map(|x| b[(x, y)].symbol().to_string())
                .collect::<String>()
        })
        .collect()
}

pub fn text(b: &Buffer) -> String {
    lines(b).join("\n")
}

/// Lets the bots move until a person must act or the game ends.
pub fn run_bots(app: &mut App, pool: &mut BotPool) -> usize {
    let mut n = 0;
    while let Some(job) = app.bot_job() {
        let r = pool.decide(&job);
        app.bot_reply(r);
        n += 1;
        assert!(n < 100_000, "bots never stop");
    }
    n
}

/// A file of the project's shared examples (`shared/examples/NAME`), found
/// above this crate: `../../../shared` from the main checkout, one level
/// further up from a worktree.
pub fn shared_example(name: &str) -> std::path::PathBuf {
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    here.ancestors()
        .map(|dir| dir.join("shared/examples").join(name))
        .find(|p| p.exists())
        .unwrap_or_else(|| here.join("../../../shared/examples").join(name))
}

/// A table of `game` with one player per seat of `seats` (default teams,
/// the official rules), dealt from `seed`.
pub fn table(game: GameKind, seats: Vec<SeatKind>, seed: u64) -> Setup {
    Setup {
        game,
        players: seats.len() as u8,
        teams: None,
        seats,
        seed,
        options: None,
    }
}

/// A person at seat 0 and level-1 bots at the other seats.
pub fn person_and_bots(players: u8) -> Vec<SeatKind> {
    let mut seats = vec![SeatKind::Human];
    seats.extend(std::iter::repeat_n(SeatKind::Bot(1), players as usize - 1));
    seats
}

/// Lets the bots move; then whether the person at seat 0 must act (`false`
/// once the game is over).
pub fn persons_turn(app: &mut App, pool: &mut BotPool) -> bool {
    run_bots(app, pool);
    if app.is_over() {
        return false;
    }
    assert_eq!(app.seen(), Some(Seen::Human(Seat(0))));
    true
}

/// Types the classic move `mv` for the person at the keyboard: card
/// number, space, Enter (and Enter again for a C8a choice); `x` for a dead
/// card.
pub fn type_move(app: &mut App, mv: sequence_classic::Move) -> Vec<Effect> {
    use sequence_classic::Move;
    let c = app.classic().unwrap();
    let seat = c.game().turn();
    let hand = c.game().hand(seat).to_vec();
    let ply = c.game().ply();
    let idx = |card| hand.iter().position(|h| *h == card).expect("card in hand") + 1;
    let out = match mv {
        Move::Place { card, at, .. } | Move::Remove { card, at } => {
            type_str(app, &format!("{}{at}\n", idx(card)))
        }
        Move::Dead { card } => type_str(app, &format!("{}x", idx(card))),
        Move::Discard { card } => type_str(app, &format!("{}\n", idx(card))),
        Move::Pass => type_str(app, "\n"),
    };
    if app.classic().unwrap().game().ply() == ply {
        // The C8a choice was offered: take the first (Enter).
        app.handle_key(key(KeyCode::Enter));
    }
    assert_eq!(
        app.classic().unwrap().game().ply(),
        ply + 1,
        "the typed move {mv:?} was not played"
    );
    out
}
