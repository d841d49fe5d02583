//! The Sequence Stacks screen: the piles in progress (S3), the hand and the
//! top of the own discard pile (S4), every seat's discard top, chips per
//! player and the supply, action cards (S5) and the Block window (S5b) as
//! a prompt.

use crate::bots::{BotChoice, BotJob, BotReply, BotView};
use crate::seating::Seating;
use crate::setup::SeatKind;
use crate::ui::{self, Seen};
use crossterm::event::{KeyCode, KeyEvent, MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use ratatui::Frame;
use sequence_common::{Direction, Seat};
use sequence_stacks::{Card, Colour, Decision, Game, Match, Source, Status};

/// What the player picks a decision for: a hand card or the top of the own
/// discard pile.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Pick {
    /// The `i`-th card of the hand (kind order).
    Hand(usize),
    /// The top of the own discard pile.
    DiscardTop,
}

/// The state of a Stacks game on screen.
pub struct StacksScreen {
    m: Match,
    seating: Seating,
    pick: Pick,
    option: usize,
    log: Vec<String>,
    /// The line of help or error under the table.
    pub message: String,
    hand_area: Rect,
}

/// Style of a Stacks card: blue, red, or magenta for action cards.
pub fn card_style(c: Card) -> Style {
    match c.colour() {
        Some(Colour::Blue) => Style::new().fg(Color::Blue).add_modifier(Modifier::BOLD),
        Some(Colour::Red) => Style::new().fg(Color::Red).add_modifier(Modifier::BOLD),
        None => Style::new().fg(Color::Magenta).add_modifier(Modifier::BOLD),
    }
}

impl StacksScreen {
    /// A screen for a match; `seats` says who plays each seat.
    pub fn new(m: Match, seats: Vec<SeatKind>) -> StacksScreen {
        let mut s = StacksScreen {
            m,
            seating: Seating::new(seats),
            pick: Pick::Hand(0),
            option: 0,
            log: vec![],
            message: String::new(),
            hand_area: Rect::default(),
        };
        let turn = s.name(s.game().turn());
        if s.m.moves() > 0 {
            s.log.push(format!(
                "Resumed after {} moves: {turn} to play.",
                s.m.moves()
            ));
        } else {
            s.log.push(format!(
                "{} deals. {turn} plays first.",
                s.name(s.game().dealer())
            ));
        }
        s.after_change();
        s
    }

    /// The match (game and record).
    pub fn game_match(&self) -> &Match {
        &self.m
    }

    /// The game.
    pub fn game(&self) -> &Game {
        self.m.game()
    }

    /// The log of moves in words, oldest first.
    pub fn log(&self) -> &[String] {
        &self.log
    }

    /// The seat whose hand is on screen, if any.
    pub fn viewer(&self) -> Option<Seat> {
        self.seating.viewer
    }

    /// A seat's name: `P1`, `P2`, …
    pub fn name(&self, seat: Seat) -> String {
        format!("P{}", seat.0 + 1)
    }

    fn who(&self, seat: Seat) -> String {
        self.seating.who(seat)
    }

    /// Who plays each seat, seat 0 first.
    pub fn seats(&self) -> &[SeatKind] {
        self.seating.kinds()
    }

    /// What is on screen now.
    pub fn seen(&self) -> Seen {
        self.seating.seen(self.game().to_act())
    }

    /// Text of the end of the game, if it ended.
    pub fn result_text(&self) -> Option<String> {
        match self.game().status() {
            Status::Playing => None,
            Status::Won(s) => {
                let c = self.game().chips(s);
                Some(format!(
                    "{} wins with {} blue and {} red chips (S7)!",
                    self.name(s),
                    c[0],
                    c[1]
                ))
            }
            Status::Draw => {
                Some("Draw: nothing left to draw and a round without a pile play (S6a).".into())
            }
        }
    }

    /// The legal decisions of the seat to act.
    pub fn legal(&self) -> Vec<Decision> {
        self.game().legal().to_vec()
    }

    /// The cards of the hand on screen, kind order.
    pub fn hand(&self) -> Vec<Card> {
        self.seating
            .viewer
            .map(|v| self.game().hand(v))
            .unwrap_or_default()
    }

    /// The decisions for the current pick.
    pub fn options(&self) -> Vec<Decision> {
        let legal = self.legal();
        if self.game().block_offer().is_some() {
            return legal;
        }
        if legal.contains(&Decision::End) {
            return vec![Decision::End];
        }
        match self.pick {
            Pick::Hand(i) => {
                let Some(card) = self.hand().get(i).copied() else {
                    return vec![];
                };
                legal
                    .into_iter()
                    .filter(|d| d.card() == Some(card) && source(d) != Some(Source::Discard))
                    .collect()
            }
            Pick::DiscardTop => legal
                .into_iter()
                .filter(|d| source(d) == Some(Source::Discard))
                .collect(),
        }
    }

    fn after_change(&mut self) {
        let n = self.hand().len();
        if let Pick::Hand(i) = self.pick {
            if i >= n {
                self.pick = Pick::Hand(0);
            }
        }
        if self.pick == Pick::DiscardTop && self.options().is_empty() {
            self.pick = Pick::Hand(0);
        }
        let k = self.options().len();
        if self.option >= k {
            self.option = 0;
        }
        if let Seen::Human(_) = self.seen() {
            self.message = self.instruction();
        }
    }

    fn instruction(&self) -> String {
        let g = self.game();
        if let Some(w) = g.block_offer() {
            return format!(
                "{} completed a {} pile. Block it (S5)? b = play Block, n or Enter = let it stand.",
                self.name(w.completer),
                w.colour
            );
        }
        if self.legal().contains(&Decision::End) {
            return "Your hand is empty and nothing is left to draw: Enter ends the turn (S4)."
                .into();
        }
        let skips = if g.pending_skips() > 0 {
            format!(" ({} skip(s) pending)", g.pending_skips())
        } else {
            String::new()
        };
        format!("Choose a card (1-9, d = discard top), an action (↑↓), Enter. Discarding ends the turn{skips}.")
    }

    /// Handles a key during a game. Returns whether it was used.
    pub fn handle_key(&mut self, key: KeyEvent) -> bool {
        match self.seen() {
            Seen::PassDevice(seat) => {
                if matches!(key.code, KeyCode::Enter | KeyCode::Char(' ')) {
                    self.seating.viewer = Some(seat);
                    self.pick = Pick::Hand(0);
                    self.option = 0;
                    self.after_change();
                    return true;
                }
                false
            }
            Seen::Human(seat) => self.human_key(seat, key),
            Seen::Bot(_) | Seen::Over => false,
        }
    }

    fn set_pick(&mut self, p: Pick) {
        self.pick = p;
        self.option = 0;
        self.message = self.instruction();
        if self.options().is_empty() {
            if let Some(c) = self.picked_card() {
                self.message = format!("{c} cannot be played now; pick it and Discard to end the turn, or pick another.");
            }
        }
    }

    fn picked_card(&self) -> Option<Card> {
        match self.pick {
            Pick::Hand(i) => self.hand().get(i).copied(),
            Pick::DiscardTop => self.seating.viewer.and_then(|v| self.game().discard_top(v)),
        }
    }

    fn human_key(&mut self, seat: Seat, key: KeyEvent) -> bool {
        if self.game().block_offer().is_some() {
            match key.code {
                KeyCode::Char('b') => {
                    if self.legal().contains(&Decision::Block) {
                        self.play(seat, Decision::Block);
                    } else {
                        self.message =
                            "You hold no Block card (S5): press n to let it stand.".into();
                    }
                }
                KeyCode::Char('n') | KeyCode::Enter => {
                    self.play(seat, Decision::Pass);
                }
                _ => return false,
            }
            return true;
        }
        let n = self.hand().len();
        match key.code {
            KeyCode::Char(ch @ '1'..='9') => {
                let i = ch as usize - '1' as usize;
                if i < n {
                    self.set_pick(Pick::Hand(i));
                }
            }
            KeyCode::Char('d') | KeyCode::Char('0') => {
                if self.game().discard_top(seat).is_some() {
                    self.set_pick(Pick::DiscardTop);
                } else {
                    self.message = "Your discard pile is empty.".into();
                }
            }
            KeyCode::Left | KeyCode::BackTab => {
                let i = match self.pick {
                    Pick::Hand(i) => i,
                    Pick::DiscardTop => n,
                };
                self.set_pick(Pick::Hand((i + n.max(1) - 1) % n.max(1)));
            }
            KeyCode::Right | KeyCode::Tab => {
                let i = match self.pick {
                    Pick::Hand(i) => i,
                    Pick::DiscardTop => n,
                };
                self.set_pick(Pick::Hand((i + 1) % n.max(1)));
            }
            KeyCode::Up => {
                let k = self.options().len().max(1);
                self.option = (self.option + k - 1) % k;
            }
            KeyCode::Down => {
                let k = self.options().len().max(1);
                self.option = (self.option + 1) % k;
            }
            KeyCode::Char('e') => {
                if self.legal().contains(&Decision::End) {
                    self.play(seat, Decision::End);
                } else {
                    self.message = "The turn ends with a discard while you hold cards (S4).".into();
                }
            }
            KeyCode::Enter | KeyCode::Char(' ') => match self.options().get(self.option).copied() {
                Some(d) => {
                    self.play(seat, d);
                }
                None => self.message = "Nothing to do with that card now: pick another.".into(),
            },
            _ => return false,
        }
        true
    }

    /// A decision in words, e.g. "P2 plays B3 on blue-a".
    pub fn describe(&self, seat: Seat, d: &Decision) -> String {
        let who = self.name(seat);
        let from = |s: Source| {
            if s == Source::Discard {
                " from the discard pile"
            } else {
                ""
            }
        };
        match *d {
            Decision::Pile {
                card,
                from: f,
                place,
            } => format!("{who} plays {card}{} on {place}", from(f)),
            Decision::Skip { from: f } => {
                let next = self
                    .game()
                    .turn()
                    .next(self.game().players(), self.game().direction());
                format!(
                    "{who} plays SKIP{}: {} loses a turn",
                    from(f),
                    self.name(next)
                )
            }
            Decision::Reverse { from: f } => {
                format!("{who} plays REVERSE{}: play changes direction", from(f))
            }
            Decision::StealCard { from: f, target } => {
                let top = self
                    .game()
                    .discard_top(target)
                    .map(|c| c.to_string())
                    .unwrap_or_default();
                format!(
                    "{who} plays STEAL-CARD{}: takes {top} from {}'s discard pile",
                    from(f),
                    self.name(target)
                )
            }
            Decision::StealChip {
                from: f,
                target,
                colour,
            } => {
                format!(
                    "{who} plays STEAL-CHIP{}: takes a {colour} chip from {}",
                    from(f),
                    self.name(target)
                )
            }
            Decision::Block => format!("{who} plays BLOCK: the pile is set aside, no chip (S5)"),
            Decision::Pass => format!("{who} does not block"),
            Decision::Discard { card } => format!("{who} discards {card} and ends the turn"),
            Decision::End => format!("{who} ends the turn with an empty hand"),
        }
    }

    /// Plays a decision for `seat` and logs it. Returns whether it was
    /// legal.
    pub fn play(&mut self, seat: Seat, d: Decision) -> bool {
        let text = self.describe(seat, &d);
        let turn = self.game().turn();
        let chips_before = self.game().chips(turn);
        let window_before = self.game().block_offer().is_some();
        match self.m.play(seat, d) {
            Ok(()) => {
                let opened = self.game().block_offer().filter(|_| !window_before);
                if d != Decision::Pass {
                    let mut line = text;
                    if let Some(w) = opened {
                        line += &format!(" — completes a {} pile (Block window, S5b)", w.colour);
                    }
                    self.log.push(line);
                }
                let chips_after = self.game().chips(turn);
                let same_turn = self.game().turn() == turn;
                if chips_after != chips_before
                    && !matches!(d, Decision::StealChip { .. })
                    && same_turn
                {
                    if let Some(c) = Colour::ALL
                        .iter()
                        .find(|c| chips_after[c.index()] > chips_before[c.index()])
                    {
                        let line = format!(
                            "{} takes a {c} chip (now {} blue, {} red)",
                            self.name(turn),
                            chips_after[0],
                            chips_after[1]
                        );
                        self.log.push(line);
                    }
                }
                if let Some(r) = self.result_text() {
                    self.log.push(r);
                }
                let ends = matches!(
                    d,
                    Decision::Discard { .. } | Decision::End | Decision::Pass | Decision::Block
                );
                if ends {
                    self.seating.turn_ended(seat);
                }
                if self.game().to_act() != Some(seat) {
                    self.pick = Pick::Hand(0);
                    self.option = 0;
                }
                self.message.clear();
                self.after_change();
                if let Some(r) = self.result_text() {
                    self.message = format!("{r} s saves the record, q quits.");
                }
                true
            }
            Err(e) => {
                self.message = format!("Not allowed: {e}");
                false
            }
        }
    }

    /// The next bot job, if a bot is to act and none is being computed.
    pub fn bot_job(&mut self) -> Option<BotJob> {
        let (id, seat, level) = self.seating.start_job(self.seen())?;
        Some(BotJob {
            id,
            seat,
            level,
            view: BotView::Stacks(Box::new(self.game().view(seat))),
        })
    }

    /// Plays a bot's reply; an illegal or stale one is replaced by the first
    /// legal decision so a faulty bot cannot stop the game.
    pub fn bot_reply(&mut self, r: BotReply) {
        if !self.seating.finish_job(r.id) {
            return;
        }
        let legal = self.legal();
        let d = match r.choice {
            Some(BotChoice::Stacks(d))
                if legal.contains(&d) && Some(r.seat) == self.game().to_act() =>
            {
                d
            }
            other => {
                // Shown in the log, not on stderr (which would break the
                // full-screen display).
                tracing::debug!(?other, "bot gave no legal decision");
                self.log.push(format!(
                    "({}'s bot gave no legal decision; its first legal decision is played)",
                    self.name(r.seat)
                ));
                match legal.first() {
                    Some(d) => *d,
                    None => return,
                }
            }
        };
        self.play(r.seat, d);
    }

    /// A click on a hand card picks it.
    pub fn handle_mouse(&mut self, ev: MouseEvent) -> bool {
        if ev.kind != MouseEventKind::Down(MouseButton::Left)
            || !matches!(self.seen(), Seen::Human(_))
        {
            return false;
        }
        let h = self.hand_area;
        if ev.column >= h.x && ev.column < h.x + h.width && ev.row > h.y && ev.row < h.y + h.height
        {
            let i = (ev.row - h.y - 1) as usize;
            if i < self.hand().len() {
                self.set_pick(Pick::Hand(i));
                return true;
            }
        }
        false
    }

    // ----- drawing ---------------------------------------------------------

    /// Draws the screen into `area`.
    pub fn draw(&mut self, f: &mut Frame, area: Rect) {
        let [title, body, prompt] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Min(10),
            Constraint::Length(2),
        ])
        .areas(area);
        let [left, right] =
            Layout::horizontal([Constraint::Percentage(60), Constraint::Percentage(40)])
                .areas(body);
        let places = self.game().places().count() as u16;
        let players = self.game().players() as u16;
        let [piles, table, log] = Layout::vertical([
            Constraint::Length(places + 3),
            Constraint::Length(players + 4),
            Constraint::Min(3),
        ])
        .areas(left);
        f.render_widget(Paragraph::new(self.title_line()), title);
        self.draw_piles(f, piles);
        self.draw_table(f, table);
        self.draw_log(f, log);
        self.draw_hand(f, right);
        self.draw_prompt(f, prompt);
        match self.seen() {
            Seen::PassDevice(seat) => {
                let why = match self.game().block_offer() {
                    Some(w) => format!(
                        "{} may block {}'s completed pile (S5b).",
                        self.name(seat),
                        self.name(w.completer)
                    ),
                    None => format!("It is {}'s turn.", self.name(seat)),
                };
                ui::popup(
                    f,
                    area,
                    "Next player",
                    vec![
                        Line::from(format!("Pass the device to {}.", self.name(seat))),
                        Line::from(why),
                        Line::from("Hands stay hidden until then."),
                        Line::from(format!("{}: press Enter when ready.", self.name(seat))),
                    ],
                );
            }
            Seen::Over => {
                if let Some(r) = self.result_text() {
                    ui::popup(
                        f,
                        area,
                        "Game over",
                        vec![Line::from(r), Line::from("s: save   q: quit")],
                    );
                }
            }
            _ => {}
        }
    }

    fn title_line(&self) -> Line<'static> {
        let g = self.game();
        let state = match self.seen() {
            Seen::Over => self.result_text().unwrap_or_default(),
            Seen::Bot(s) => format!("{} ({}) is thinking…", self.name(s), self.who(s)),
            Seen::Human(s) | Seen::PassDevice(s) => match g.block_offer() {
                Some(_) => format!("{} ({}) may Block", self.name(s), self.who(s)),
                None => format!("{} ({}) to play", self.name(s), self.who(s)),
            },
        };
        Line::from(vec![
            Span::styled(
                " SEQUENCE STACKS ",
                Style::new().add_modifier(Modifier::BOLD | Modifier::REVERSED),
            ),
            Span::raw(format!(" {} players · ", g.players())),
            Span::styled(state, Style::new().add_modifier(Modifier::BOLD)),
        ])
    }

    fn draw_piles(&self, f: &mut Frame, area: Rect) {
        let g = self.game();
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

    fn draw_table(&self, f: &mut Frame, area: Rect) {
        let g = self.game();
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
        for s in 0..g.players() {
            let seat = Seat(s);
            let c = g.chips(seat);
            let mark = if g.to_act() == Some(seat) { "▸" } else { " " };
            let mut spans = vec![
                Span::raw(format!("{mark}{:<3}{:<7}", self.name(seat), self.who(seat))),
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

    fn draw_log(&self, f: &mut Frame, area: Rect) {
        let block = Block::default().borders(Borders::ALL).title(" Moves ");
        let n = block.inner(area).height as usize;
        let start = self.log.len().saturating_sub(n);
        let lines: Vec<Line> = self.log[start..]
            .iter()
            .map(|l| Line::from(l.clone()))
            .collect();
        f.render_widget(Paragraph::new(lines).block(block), area);
    }

    fn draw_hand(&mut self, f: &mut Frame, area: Rect) {
        let human = matches!(self.seen(), Seen::Human(_));
        let [hand_area, opts_area] =
            Layout::vertical([Constraint::Min(5), Constraint::Min(5)]).areas(area);
        self.hand_area = hand_area;
        let visible = self
            .seating
            .viewer
            .filter(|_| !matches!(self.seen(), Seen::PassDevice(_)));
        let (title, lines) = match visible {
            Some(v) => {
                let mut lines = vec![];
                for (i, c) in self.game().hand(v).iter().enumerate() {
                    let sel = human && self.pick == Pick::Hand(i);
                    let mut st = card_style(*c);
                    if sel {
                        st = st.add_modifier(Modifier::REVERSED);
                    }
                    lines.push(Line::from(vec![
                        Span::raw(if sel { "›" } else { " " }),
                        Span::styled(format!("{} {c}", i + 1), st),
                    ]));
                }
                if let Some(top) = self.game().discard_top(v) {
                    let sel = human && self.pick == Pick::DiscardTop;
                    let mut st = card_style(top);
                    if sel {
                        st = st.add_modifier(Modifier::REVERSED);
                    }
                    lines.push(Line::from(vec![
                        Span::raw(if sel { "›" } else { " " }),
                        Span::styled(format!("d {top}"), st),
                        Span::raw(" (top of your discard pile)"),
                    ]));
                }
                (format!(" Hand of {} ", self.name(v)), lines)
            }
            None => (" Hand ".to_string(), vec![Line::from(" (hidden)")]),
        };
        f.render_widget(
            Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(title)),
            hand_area,
        );
        let mut lines = vec![];
        if human {
            for (i, d) in self.options().iter().enumerate() {
                let sel = i == self.option;
                let text = match d {
                    Decision::Pass => "let it stand (n)".to_string(),
                    Decision::Block => "BLOCK it (b)".to_string(),
                    Decision::Discard { card } => format!("discard {card} (ends turn)"),
                    Decision::Pile { card, place, .. } => format!("{card} on {place}"),
                    Decision::Skip { .. } => {
                        let g = self.game();
                        let next = g.turn().next(g.players(), g.direction());
                        format!("SKIP: {} loses a turn", self.name(next))
                    }
                    Decision::Reverse { .. } => "REVERSE the direction".to_string(),
                    Decision::StealCard { target, .. } => {
                        let top = self
                            .game()
                            .discard_top(*target)
                            .map(|c| c.to_string())
                            .unwrap_or_default();
                        format!("STEAL-CARD {top} from {}", self.name(*target))
                    }
                    Decision::StealChip { target, colour, .. } => {
                        format!("STEAL-CHIP: a {colour} chip from {}", self.name(*target))
                    }
                    Decision::End => "end the turn (e)".to_string(),
                };
                let st = if sel {
                    Style::new().add_modifier(Modifier::REVERSED)
                } else {
                    Style::new()
                };
                lines.push(Line::from(vec![
                    Span::raw(if sel { "›" } else { " " }),
                    Span::styled(text, st),
                ]));
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

    fn draw_prompt(&self, f: &mut Frame, area: Rect) {
        let keys = match self.seen() {
            Seen::Human(_) if self.game().block_offer().is_some() => {
                "b block  n let it stand   s save  q quit  ? rules"
            }
            Seen::Human(_) => {
                "1-9/d card  ↑↓ action  Enter play  e end  s save  q quit  ? rules  u (why no undo)"
            }
            Seen::PassDevice(_) => "Enter: show the hand   s save  q quit  ? rules",
            Seen::Bot(_) => "bots are playing…   s save  q quit  ? rules",
            Seen::Over => "s save the record  q quit",
        };
        f.render_widget(
            Paragraph::new(vec![
                Line::from(Span::styled(
                    self.message.clone(),
                    Style::new().add_modifier(Modifier::BOLD),
                )),
                Line::from(Span::styled(keys, Style::new().fg(Color::Gray))),
            ]),
            area,
        );
    }
}

fn source(d: &Decision) -> Option<Source> {
    match *d {
        Decision::Pile { from, .. }
        | Decision::Skip { from }
        | Decision::Reverse { from }
        | Decision::StealCard { from, .. }
        | Decision::StealChip { from, .. } => Some(from),
        Decision::Discard { .. } => Some(Source::Hand),
        _ => None,
    }
}

/// The rules summary shown by `?` (RULES.md Part 2).
pub const HELP: &[&str] = &[
    "Sequence Stacks — rules summary (RULES.md Part 2)",
    "",
    "S3  Piles are shared: blue-a, blue-b, red-a, red-b. A pile starts with",
    "    a 1 or a wild (BW/RW) of its colour and goes up by one; the 5",
    "    completes it and you take a chip of that colour.",
    "S4  Your turn: draw up to 5, play as many cards as you like from your",
    "    hand or the top of your own discard pile, then discard one card to",
    "    end the turn. An emptied hand draws 5 more.",
    "S5  SKIP: the next player loses a turn. REVERSE: direction changes.",
    "    STEAL-CARD: take the top of an opponent's discard pile.",
    "    STEAL-CHIP: take a chip from an opponent (never to win, S5a).",
    "    BLOCK: right after an opponent completes a pile, cancel it (S5b);",
    "    every opponent is asked in turn, holding a Block or not.",
    "S6  An empty draw pile is rebuilt from the completed piles.",
    "S7  Win with 5 chips, at least 2 blue and 2 red.",
    "",
    "Keys: 1-9 pick a hand card, d the top of your discard pile; ↑↓ choose",
    "      what to do with it; Enter plays. b/n answer a Block window.",
    "      s saves; q quits (saving); u explains why there is no undo.",
];
