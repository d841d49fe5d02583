//! Helpers shared by the TUI tests: keys, rendering into a TestBackend and
//! running bots synchronously.
#![allow(dead_code)]

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::Terminal;
use sequence_tui::bots::BotPool;
use sequence_tui::{App, Effect};

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
