//! Drawing the classic table: the board with its markers, the sequences per
//! team, the draw pile and discard tops, the hand, and the C8a choice on
//! the prompt line.

use super::ClassicScreen;
use crate::game::Areas;
use crate::ui::Seen;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use ratatui::Frame;
use sequence_classic::{Bitboard, Game, Move, Seat, Space, Team};

/// Colour of a team's chips on screen.
pub fn team_color(t: Team) -> Color {
    match t.0 {
        0 => Color::Blue,
        1 => Color::Green,
        _ => Color::Red,
    }
}

/// The board and the log on the left, the table and the hand on the
/// right; the end of the game is shown over the board.
pub(super) fn table(s: &mut ClassicScreen, f: &mut Frame, body: Rect) -> Areas {
    let [left, right] =
        Layout::horizontal([Constraint::Length(55), Constraint::Min(25)]).areas(body);
    let [board, log] = Layout::vertical([Constraint::Length(13), Constraint::Min(3)]).areas(left);
    draw_board(s, f, board);
    draw_side(s, f, right);
    Areas {
        log,
        end: Some(board),
    }
}

/// What a space shows besides its card and chip.
struct Marks {
    /// The selected card's spaces (a person is to move).
    targets: Bitboard,
    /// The last move's space.
    last: Option<Space>,
    /// Chips of sequences.
    locked: Bitboard,
    /// The cursor, while a person is to move.
    cursor: Option<Space>,
}

fn draw_board(s: &mut ClassicScreen, f: &mut Frame, area: Rect) {
    let human = matches!(s.seen(), Seen::Human(_));
    let selected = s.selected_card();
    let cursor = s.ui.cursor;
    // The cursor's space in words too (screen readers, text captures,
    // colour-blind players).
    let title = if human {
        format!(" Board · cursor {cursor} ")
    } else {
        " Board ".to_string()
    };
    let block = Block::default().borders(Borders::ALL).title(title);
    let inner = block.inner(area);
    s.ui.board_inner = inner;
    f.render_widget(block, area);
    let g = s.m.game();
    let marks = Marks {
        targets: match (human, selected) {
            (true, Some(c)) => g.targets(c),
            _ => Bitboard(0),
        },
        last: g.last_move().and_then(|(_, m)| match m {
            Move::Place { at, .. } | Move::Remove { at, .. } => Some(at),
            _ => None,
        }),
        locked: g.locked(),
        cursor: human.then_some(cursor),
    };
    let mut lines = vec![];
    let mut header = String::from("   ");
    for c in 0..10u8 {
        header.push_str(&format!(" {}   ", (b'a' + c) as char));
    }
    lines.push(Line::from(header));
    for r in 0..10u8 {
        let mut spans = vec![Span::raw(format!("{:>2} ", r + 1))];
        for c in 0..10u8 {
            let Some(sp) = Space::new(r, c) else { continue };
            spans.extend(cell(g, sp, &marks));
        }
        lines.push(Line::from(spans));
    }
    f.render_widget(Paragraph::new(lines), inner);
}

/// One space: card label (2), marker (1), chip letter (1), gap (1).
/// Markers: `+` playable, `x` removable, `#` chip of a sequence, `>` the
/// last move. Corners show `**`.
fn cell(g: &Game, s: Space, marks: &Marks) -> Vec<Span<'static>> {
    let label = match g.layout().card_at(s) {
        Some(c) => c.pretty(),
        None => "**".into(),
    };
    let chip = g.chip_at(s);
    let target = marks.targets.contains(s);
    let locked = marks.locked.contains(s);
    let last = marks.last == Some(s);
    let marker = match chip {
        Some(_) if target => 'x',
        None if target => '+',
        Some(_) if locked => '#',
        _ if last => '>',
        _ => ' ',
    };
    let mut base = Style::new();
    if s.is_corner() {
        base = base.fg(Color::Yellow);
    }
    if last {
        base = base.bg(Color::DarkGray);
    }
    if target {
        base = base.bg(Color::Yellow).fg(Color::Black);
    }
    if marks.cursor == Some(s) {
        base = base.add_modifier(Modifier::REVERSED | Modifier::BOLD);
    }
    let chip_span = match chip {
        Some(t) => {
            let mut st = base.fg(team_color(t)).add_modifier(Modifier::BOLD);
            if target {
                st = st.bg(Color::Yellow);
            }
            if locked {
                st = st.add_modifier(Modifier::UNDERLINED);
            }
            Span::styled(t.letter().to_string(), st)
        }
        None => Span::styled(" ", base),
    };
    vec![
        Span::styled(format!("{label}{marker}"), base),
        chip_span,
        Span::raw(" "),
    ]
}

/// The table (sequences, draw pile, discard tops) over the hand.
fn draw_side(s: &mut ClassicScreen, f: &mut Frame, area: Rect) {
    let g = s.m.game();
    let mut lines: Vec<Line> = vec![];
    lines.push(Line::from(format!(
        "Sequences (need {})",
        g.win_sequences()
    )));
    let mut seq = vec![Span::raw(" ")];
    for t in 0..g.teams() {
        let team = Team(t);
        seq.push(Span::styled(
            format!("{} {} ", team.letter(), team.colour()),
            Style::new()
                .fg(team_color(team))
                .add_modifier(Modifier::BOLD),
        ));
        seq.push(Span::raw(format!("{}  ", g.sequence_count(team))));
    }
    lines.push(Line::from(seq));
    lines.push(Line::from(format!(
        "Draw pile: {} cards",
        g.draw_pile_len()
    )));
    lines.push(Line::from("Discard tops:"));
    let per_line = if g.players() <= 4 { 1 } else { 2 };
    let mut row = vec![];
    for p in 0..g.players() {
        let seat = Seat(p);
        let top = g
            .discard_pile(seat)
            .last()
            .map(|c| c.pretty())
            .unwrap_or_else(|| "—".into());
        let team = g.team_of(seat);
        row.push(Span::styled(
            format!(" P{}{}", p + 1, team.letter()),
            Style::new().fg(team_color(team)),
        ));
        let mark = if g.to_act() == Some(seat) { "◂" } else { " " };
        row.push(Span::raw(format!(" {top:<3}{mark}")));
        if row.len() == per_line * 2 || p + 1 == g.players() {
            lines.push(Line::from(std::mem::take(&mut row)));
        }
    }
    let info_h = (lines.len() as u16 + 2).min(area.height.saturating_sub(4));
    let [info, hand] =
        Layout::vertical([Constraint::Length(info_h), Constraint::Min(3)]).areas(area);
    f.render_widget(
        Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(" Table ")),
        info,
    );
    s.ui.hand_area = hand;
    draw_hand(s, f, hand);
}

fn draw_hand(s: &ClassicScreen, f: &mut Frame, area: Rect) {
    let g = s.game();
    let (title, lines) = match s.viewer() {
        Some(v) if !matches!(s.seen(), Seen::PassDevice(_)) => {
            let title = format!(" Hand of P{} {} ", v.0 + 1, g.team_of(v).colour());
            let mut lines = vec![];
            for (i, c) in g.hand(v).iter().enumerate() {
                let sel = i == s.ui.selected;
                let note = if c.is_one_eyed_jack() {
                    "removes a chip"
                } else if c.is_two_eyed_jack() {
                    "any empty space"
                } else if g.is_dead(*c) {
                    "DEAD (x)"
                } else {
                    ""
                };
                let mut st = Style::new();
                if c.suit().is_red() {
                    st = st.fg(Color::Red);
                }
                if g.is_dead(*c) {
                    st = st.add_modifier(Modifier::DIM | Modifier::CROSSED_OUT);
                }
                if sel {
                    st = st.add_modifier(Modifier::REVERSED);
                }
                lines.push(Line::from(vec![
                    Span::raw(if sel { "›" } else { " " }),
                    Span::styled(format!("{} {}", i + 1, c.pretty()), st),
                    Span::raw(format!(" {note}")),
                ]));
            }
            (title, lines)
        }
        _ => (" Hand ".to_string(), vec![Line::from(" (hidden)")]),
    };
    f.render_widget(
        Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(title)),
        area,
    );
}

/// The message, or the open C8a choice: each way to count the sequence.
pub(super) fn prompt_line(s: &ClassicScreen) -> String {
    let Some(d) = &s.ui.declare else {
        return s.message.clone();
    };
    let len = s.game().sequence_length();
    let opts: Vec<String> = d
        .choices
        .iter()
        .enumerate()
        .map(|(i, ws)| {
            let t: Vec<String> = ws
                .iter()
                .map(|w| format!("{}-{}", w.start, w.last(len)))
                .collect();
            format!(
                "{}{}:{}",
                if i == d.index { "›" } else { " " },
                i + 1,
                t.join("+")
            )
        })
        .collect();
    format!("Sequence (C8a): {}  Enter", opts.join(" "))
}
