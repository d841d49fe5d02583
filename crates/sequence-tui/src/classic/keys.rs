//! The keys and clicks of a classic turn, read into a move (C6: choose a
//! card, choose a space, confirm; exchange a dead card; C8a: choose which
//! spaces form a sequence when there is a choice).

use super::{ClassicScreen, DeclareChoice};
use crate::game::Key;
use crossterm::event::{KeyCode, KeyEvent};
use sequence_classic::{Declaration, Move, Seat, Space};

/// The message for a typed space whose column is past `j`, e.g. `k11`.
fn bad_space_message(typed: &str) -> String {
    if typed.len() == 1 {
        format!("No column {typed}: columns are a to j (type a space like e5).")
    } else {
        format!("No space {typed}: columns are a to j, rows 1 to 10.")
    }
}

/// A card key while a bot thinks or after the end: that card is selected.
pub(super) fn idle_key(s: &mut ClassicScreen, key: KeyEvent) -> bool {
    if let KeyCode::Char(ch @ '1'..='9') = key.code {
        s.select(ch as usize - '1' as usize);
        return true;
    }
    false
}

/// A key of the person to move for `seat`.
pub(super) fn key(s: &mut ClassicScreen, seat: Seat, key: KeyEvent) -> Key<Move> {
    // A C8a choice is open: digits or arrows choose, Enter confirms.
    if let Some(d) = &mut s.ui.declare {
        match key.code {
            KeyCode::Up | KeyCode::Left => {
                d.index = (d.index + d.choices.len() - 1) % d.choices.len()
            }
            KeyCode::Down | KeyCode::Right | KeyCode::Tab => {
                d.index = (d.index + 1) % d.choices.len()
            }
            KeyCode::Char(ch @ '1'..='9') => {
                let i = ch as usize - '1' as usize;
                if i < d.choices.len() {
                    d.index = i;
                }
            }
            KeyCode::Enter => {
                let mv = Move::Place {
                    card: d.card,
                    at: d.at,
                    declare: Some(Declaration::new(&d.choices[d.index])),
                };
                s.ui.declare = None;
                return Key::Play(mv);
            }
            KeyCode::Esc => {
                s.ui.declare = None;
                s.message = "Placement cancelled.".into();
            }
            _ => return Key::Unused,
        }
        return Key::Used;
    }
    // Typing a space such as `e5` or `j10`.
    if let Some((col, first)) = s.ui.typing {
        if let KeyCode::Char(ch @ '0'..='9') = key.code {
            type_row(s, col, first, ch as u8 - b'0');
            return Key::Used;
        }
        s.ui.typing = None;
    }
    // Digits after a column past `j` belong to that (bad) space.
    if let Some(typed) = &mut s.ui.bad_space {
        if let KeyCode::Char(ch @ '0'..='9') = key.code {
            if typed.len() < 3 {
                typed.push(ch);
                s.message = bad_space_message(typed);
                return Key::Used;
            }
        }
        s.ui.bad_space = None;
    }
    match key.code {
        KeyCode::Char(ch @ 'a'..='j') => {
            let col = ch as u8 - b'a';
            s.ui.typing = Some((col, None));
            set_cursor(s, s.ui.cursor.row(), col);
            s.message = format!("Space {ch}…: type the row (1-10).");
        }
        // Not a column, and not a key of its own (n, x here; q, s, u
        // for the app): the start of a space that does not exist.
        KeyCode::Char(ch @ 'k'..='z') if !matches!(ch, 'n' | 'q' | 's' | 'u' | 'x') => {
            let typed = ch.to_string();
            s.message = bad_space_message(&typed);
            s.ui.bad_space = Some(typed);
        }
        KeyCode::Char(ch @ '1'..='9') => s.select(ch as usize - '1' as usize),
        KeyCode::Tab => {
            let n = s.game().hand(seat).len().max(1);
            s.select((s.ui.selected + 1) % n);
        }
        KeyCode::BackTab => {
            let n = s.game().hand(seat).len().max(1);
            s.select((s.ui.selected + n - 1) % n);
        }
        KeyCode::Up => move_cursor(s, -1, 0),
        KeyCode::Down => move_cursor(s, 1, 0),
        KeyCode::Left => move_cursor(s, 0, -1),
        KeyCode::Right => move_cursor(s, 0, 1),
        KeyCode::Char('n') => s.jump_to_target(true),
        KeyCode::Char('x') => return exchange_dead(s),
        KeyCode::Enter | KeyCode::Char(' ') => return confirm(s, seat),
        _ => return Key::Unused,
    }
    Key::Used
}

/// The row digit `d` of a space being typed in column `col`; `first` is a
/// `1` typed before (which may become `10`).
fn type_row(s: &mut ClassicScreen, col: u8, first: Option<u8>, d: u8) {
    let letter = (b'a' + col) as char;
    match (first, d) {
        (None, 1) => {
            set_cursor(s, 0, col);
            s.ui.typing = Some((col, Some(1)));
        }
        (None, 0) => {
            s.ui.typing = None;
            s.message = format!("No space {letter}0: rows are 1 to 10.");
        }
        (None, d) => {
            set_cursor(s, d - 1, col);
            s.ui.typing = None;
        }
        (Some(1), 0) => {
            set_cursor(s, 9, col);
            s.ui.typing = None;
        }
        (Some(_), d) => {
            // `a11` is not a space (it used to select card 1).
            s.ui.typing = None;
            s.message = format!("No space {letter}1{d}: rows are 1 to 10.");
        }
    }
}

fn move_cursor(s: &mut ClassicScreen, dr: i8, dc: i8) {
    let r = (s.ui.cursor.row() as i8 + dr).rem_euclid(10) as u8;
    let c = (s.ui.cursor.col() as i8 + dc).rem_euclid(10) as u8;
    set_cursor(s, r, c);
}

fn set_cursor(s: &mut ClassicScreen, row: u8, col: u8) {
    if let Some(sp) = Space::new(row, col) {
        s.ui.cursor = sp;
    }
}

/// `x`: exchange the selected card if it is dead (C6).
fn exchange_dead(s: &mut ClassicScreen) -> Key<Move> {
    let Some(c) = s.selected_card() else {
        return Key::Used;
    };
    if !s.game().is_dead(c) {
        s.message = format!(
            "{} is not dead: a dead card has both its spaces covered (C6).",
            c.pretty()
        );
        return Key::Used;
    }
    Key::Play(Move::Dead { card: c })
}

/// Enter: the selected card on the cursor's space (a pass or a discard when
/// no card can be played, C6a); a line with several ways to count opens
/// the C8a choice first.
fn confirm(s: &mut ClassicScreen, seat: Seat) -> Key<Move> {
    let legal = s.legal();
    if legal == [Move::Pass] {
        return Key::Play(Move::Pass);
    }
    let Some(card) = s.selected_card() else {
        return Key::Used;
    };
    if legal.iter().all(|m| matches!(m, Move::Discard { .. })) {
        return Key::Play(Move::Discard { card });
    }
    if s.game().is_dead(card) {
        s.message = s.instruction();
        return Key::Used;
    }
    let at = s.ui.cursor;
    let mv = if card.is_one_eyed_jack() {
        Move::Remove { card, at }
    } else {
        Move::place(card, at)
    };
    if let Err(e) = s.game().check(seat, mv) {
        s.message = format!("{} on {at}: {e}", card.pretty());
        return Key::Used;
    }
    if let Move::Place { .. } = mv {
        if let Some(c) = s.game().completions_at(at) {
            let choices = c.all_choices();
            if choices.len() > 1 {
                s.message = "Several ways to count the sequence (C8a): choose one (1-9 or arrows) and press Enter."
                    .into();
                s.ui.declare = Some(DeclareChoice {
                    card,
                    at,
                    choices,
                    index: 0,
                });
                return Key::Used;
            }
        }
    }
    Key::Play(mv)
}

/// A click on the board moves the cursor (a second click on the same space
/// confirms); on the hand it selects a card.
pub(super) fn click(s: &mut ClassicScreen, seat: Seat, column: u16, row: u16) -> Key<Move> {
    let b = s.ui.board_inner;
    if column >= b.x + 3 && column < b.x + 3 + 50 && row > b.y && row <= b.y + 10 {
        let col = ((column - b.x - 3) / 5) as u8;
        if let Some(sp) = Space::new((row - b.y - 1) as u8, col) {
            if sp == s.ui.cursor && s.ui.declare.is_none() {
                return confirm(s, seat);
            }
            s.ui.cursor = sp;
            return Key::Used;
        }
    }
    let h = s.ui.hand_area;
    if column >= h.x && column < h.x + h.width && row > h.y && row < h.y + h.height {
        s.select((row - h.y - 1) as usize);
        return Key::Used;
    }
    Key::Unused
}
