//! Drawing helpers shared by both games' screens.

use ratatui::layout::{Alignment, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use ratatui::Frame;
use sequence_common::Seat;

/// Smallest terminal width the game screens are drawn in (columns).
pub const MIN_W: u16 = 80;
/// Smallest terminal height the game screens are drawn in (rows).
pub const MIN_H: u16 = 24;

/// What a game screen shows now.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Seen {
    /// A person at the keyboard decides for this seat; its hand is shown.
    Human(Seat),
    /// A person must take the device first: no hand is shown (hot seat).
    PassDevice(Seat),
    /// A bot decides for this seat.
    Bot(Seat),
    /// The game has ended.
    Over,
}

/// A rectangle of `w` × `h` centred in `area` (clipped to it).
pub fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    }
}

/// `text` split into lines of at most `width` characters, at spaces where
/// possible (a longer word is cut).
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut out = vec![];
    let mut line = String::new();
    for word in text.split(' ') {
        let mut word = word.to_string();
        loop {
            let used = line.chars().count();
            let len = word.chars().count();
            let gap = usize::from(used > 0);
            if used + gap + len <= width {
                if gap == 1 {
                    line.push(' ');
                }
                line.push_str(&word);
                break;
            }
            if used > 0 {
                out.push(std::mem::take(&mut line));
                continue;
            }
            // A word longer than a line: cut it.
            let head: String = word.chars().take(width).collect();
            word = word.chars().skip(width).collect();
            out.push(head);
        }
    }
    if !line.is_empty() || out.is_empty() {
        out.push(line);
    }
    out
}

/// Draws a bordered box with `title` and `lines` in the middle of `area`,
/// clearing what is under it.
pub fn popup(f: &mut Frame, area: Rect, title: &str, lines: Vec<Line>) {
    let w = lines
        .iter()
        .map(|l| l.width() as u16)
        .max()
        .unwrap_or(10)
        .max(title.len() as u16 + 4)
        + 4;
    let h = lines.len() as u16 + 2;
    let r = centered(area, w, h);
    f.render_widget(Clear, r);
    let block = Block::default()
        .borders(Borders::ALL)
        .title(format!(" {title} "))
        .title_style(Style::new().add_modifier(Modifier::BOLD));
    f.render_widget(
        Paragraph::new(lines)
            .block(block)
            .alignment(Alignment::Center),
        r,
    );
}

/// A full-screen text page (rules summary, explanations) with a closing
/// hint.
pub fn page(f: &mut Frame, area: Rect, title: &str, text: &[&str]) {
    f.render_widget(Clear, area);
    let mut lines: Vec<Line> = text.iter().map(|l| Line::from(*l)).collect();
    lines.push(Line::from(""));
    lines.push(Line::from("Press any key to go back."));
    let block = Block::default()
        .borders(Borders::ALL)
        .title(format!(" {title} "));
    f.render_widget(
        Paragraph::new(lines)
            .block(block)
            .wrap(Wrap { trim: false }),
        area,
    );
}

/// The message shown instead of a broken screen when the terminal is
/// smaller than [`MIN_W`] × [`MIN_H`].
pub fn too_small(f: &mut Frame, area: Rect) {
    let text = vec![
        Line::from("Terminal too small"),
        Line::from(format!(
            "{}×{} now, {}×{} needed.",
            area.width, area.height, MIN_W, MIN_H
        )),
        Line::from("Enlarge the window (or zoom out)."),
        Line::from("q quits."),
    ];
    f.render_widget(Clear, area);
    f.render_widget(
        Paragraph::new(text)
            .wrap(Wrap { trim: true })
            .alignment(Alignment::Center),
        area,
    );
}

/// Why there is no undo (`u`).
pub const NO_UNDO: &[&str] = &[
    "There is no undo.",
    "",
    "After each move a card is drawn from the face-down draw pile (classic",
    "C6 step 3; in Stacks S4 draws and S5 steals reveal cards too). Once you",
    "have seen that card, taking the move back would let you choose again",
    "knowing hidden information; the bots could not be given the same",
    "chance. As at the table, a card laid is played.",
];

#[cfg(test)]
mod tests {
    use super::wrap;

    #[test]
    fn wrap_keeps_every_word_within_the_width() {
        assert_eq!(wrap("a bb ccc", 4), vec!["a bb", "ccc"]);
        assert_eq!(wrap("abcdefghij", 4), vec!["abcd", "efgh", "ij"]);
        assert_eq!(wrap("", 4), vec![""]);
        let text =
            "--options: unknown field `bogus`, expected one of `win_sequences`, `sequence_length`";
        let lines = wrap(text, 20);
        assert!(lines.iter().all(|l| l.chars().count() <= 20), "{lines:?}");
        assert_eq!(lines.join(" "), text);
    }
}
