//! Drawing the Stacks table: the piles in progress (S3), every seat's chips,
//! hand size and discard top, the supply, and the hand with the actions of
//! the pick.

use super::{next_seat, top_of, Pick, StacksScreen};
use crate::game::Areas;
use crate::ui::Seen;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use ratatui::Frame;
use sequence_common::{Direction, Seat};
use sequence_stacks::{Card, Colour, Decision, Game};

/// Style of a Stacks card: blue, red, or magenta for action cards.
pub fn card_style(c: Card) -> Style {
    match c.colour() {
        Some(Colour::Blue) => Style::new().fg(Color::Blue).add_modifier(Modifier::BOLD),
        Some(Colour::Red) => Style::new().fg(Color::Red).add_modifier(Modifier::BOLD),
        None => Style::new().fg(Color::Magenta).add_modifier(Modifier::BOLD),
    }
}

/// The piles, the players and the log on the left, the hand and the
/// actions on the right.
pub(super) fn table(s: &mut StacksScreen, f: &mut Frame, body: Rect) -> Areas {
    let [left, right] =
        Layout::horizontal([Constraint::Percentage(60), Constraint::Percentage(40)]).areas(body);
    let places = s.game().places().count() as u16;
    let players = s.game().players() as u16;
    let [piles, table, log] = Layout::vertical([
        Constraint::Length(places + 3),
        Constraint::Length(players + 4),
        Constraint::Min(3),
    ])
    .areas(left);
    draw_piles(s.game(), f, piles);
    draw_players(s, f, table);
    draw_hand(s, f, right);
    Areas { log, end: None }
}

fn draw_piles(g: &Game, f: &mut Frame, area: Rect) {
    let mut lines = vec![];
    for p in g.places() {
        let cards = g.pile(p);
        let mut spans = vec![Span::raw(format!("{:<7} ", p.name()))];
        if cards.is_empty() {
            spans.push(Span::styled("free", Style::new().fg(Color::DarkGray)));
        } else {
            for c in cards {
                spans.push(Span::styled(format!("{c} "), card_style(*c)));
            }
            spans.push(Span::raw(format!(" ({} of 5)", cards.len())));
        }
        lines.push(Line::from(spans));
    }
    let done: u32 = g.completed_counts().iter().map(|n| *n as u32).sum();
    let actions: u32 = g.action_discard_counts().iter().map(|n| *n as u32).sum();
    lines.push(Line::from(format!(
        "Completed piles: {done} cards · action discards: {actions}"
    )));
    f.render_widget(
        Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(" Piles ")),
        area,
    );
}

fn draw_players(s: &StacksScreen, f: &mut Frame, area: Rect) {
    let g = s.game();
    let mut lines = vec![];
    let dir = match g.direction() {
        Direction::Clockwise => "clockwise",
        Direction::Counterclockwise => "counter-clockwise",
    };
    let sup = g.supply();
    lines.push(Line::from(format!(
        "Draw pile {} · supply B{} R{} · {dir}{}",
        g.draw_pile_len(),
        sup[0],
        sup[1],
        if g.pending_skips() > 0 {
            format!(" · skips {}", g.pending_skips())
        } else {
            String::new()
        }
    )));
    for p in 0..g.players() {
        let seat = Seat(p);
        let c = g.chips(seat);
        let mark = if g.to_act() == Some(seat) { "▸" } else { " " };
        let mut spans = vec![
            Span::raw(format!("{mark}{:<3}{:<7}", s.name(seat), s.who(seat))),
            Span::styled(format!("B{}", c[0]), Style::new().fg(Color::Blue)),
            Span::raw(" "),
            Span::styled(format!("R{}", c[1]), Style::new().fg(Color::Red)),
            Span::raw(format!("  hand {}  discard ", g.hand_len(seat))),
        ];
        match g.discard_top(seat) {
            Some(top) => spans.push(Span::styled(top.to_string(), card_style(top))),
            None => spans.push(Span::raw("—")),
        }
        lines.push(Line::from(spans));
    }
    f.render_widget(
        Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(" Players ")),
        area,
    );
}

/// A line of a list, marked and reversed when selected.
fn choice_line(sel: bool, text: String, style: Style) -> Vec<Span<'static>> {
    let style = if sel {
        style.add_modifier(Modifier::REVERSED)
    } else {
        style
    };
    vec![
        Span::raw(if sel { "›" } else { " " }),
        Span::styled(text, style),
    ]
}

/// The hand (and the own discard top) over the actions of the pick.
fn draw_hand(s: &mut StacksScreen, f: &mut Frame, area: Rect) {
    let human = matches!(s.seen(), Seen::Human(_));
    let [hand_area, opts_area] =
        Layout::vertical([Constraint::Min(5), Constraint::Min(5)]).areas(area);
    s.ui.hand_area = hand_area;
    let g = s.game();
    let visible = s
        .viewer()
        .filter(|_| !matches!(s.seen(), Seen::PassDevice(_)));
    let (title, lines) = match visible {
        Some(v) => {
            let mut lines = vec![];
            for (i, c) in g.hand(v).iter().enumerate() {
                let sel = human && s.ui.pick == Pick::Hand(i);
                lines.push(Line::from(choice_line(
                    sel,
                    format!("{} {c}", i + 1),
                    card_style(*c),
                )));
            }
            if let Some(top) = g.discard_top(v) {
                let sel = human && s.ui.pick == Pick::DiscardTop;
                let mut spans = choice_line(sel, format!("d {top}"), card_style(top));
                spans.push(Span::raw(" (top of your discard pile)"));
                lines.push(Line::from(spans));
            }
            (format!(" Hand of {} ", s.name(v)), lines)
        }
        None => (" Hand ".to_string(), vec![Line::from(" (hidden)")]),
    };
    f.render_widget(
        Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(title)),
        hand_area,
    );
    let mut lines = vec![];
    if human {
        for (i, d) in s.options().iter().enumerate() {
            let text = action_text(s, d);
            lines.push(Line::from(choice_line(
                i == s.ui.option,
                text,
                Style::new(),
            )));
        }
    }
    f.render_widget(
        Paragraph::new(lines).block(
            Block::default()
                .borders(Borders::ALL)
                .title(" Actions (↑↓ Enter) "),
        ),
        opts_area,
    );
}

/// A decision as the list of actions words it.
fn action_text(s: &StacksScreen, d: &Decision) -> String {
    let g = s.game();
    match *d {
        Decision::Pass => "let it stand (n)".to_string(),
        Decision::Block => "BLOCK it (b)".to_string(),
        Decision::Discard { card } => format!("discard {card} (ends turn)"),
        Decision::Pile { card, place, .. } => format!("{card} on {place}"),
        Decision::Skip { .. } => format!("SKIP: {} loses a turn", s.name(next_seat(g))),
        Decision::Reverse { .. } => "REVERSE the direction".to_string(),
        Decision::StealCard { target, .. } => {
            format!("STEAL-CARD {} from {}", top_of(g, target), s.name(target))
        }
        Decision::StealChip { target, colour, .. } => {
            format!("STEAL-CHIP: a {colour} chip from {}", s.name(target))
        }
        Decision::End => "end the turn (e)".to_string(),
    }
}
