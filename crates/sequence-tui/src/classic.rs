//! The classic Sequence screen: board, hand, discard tops, draw pile, turn,
//! sequences per team, the log of moves in words, and the keys of a turn
//! (C6: choose a card, choose a space, confirm; exchange a dead card; C8a:
//! choose which spaces form a sequence when there is a choice).

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
use sequence_classic::record::Match;
use sequence_classic::{Card, Declaration, Game, Move, Seat, Space, Status, Team, Window};

/// A C8a choice in progress: the placement and the window sets to choose
/// from.
#[derive(Clone, Debug)]
struct DeclareChoice {
    card: Card,
    at: Space,
    choices: Vec<Vec<Window>>,
    index: usize,
}

/// The state of a classic game on screen.
pub struct ClassicScreen {
    m: Match,
    seating: Seating,
    /// Index into the viewer's hand.
    selected: usize,
    cursor: Space,
    /// A space being typed: its column, and a first row digit `1` that may
    /// become `10`.
    typing: Option<(u8, Option<u8>)>,
    /// A space being typed that cannot exist (its column is past `j`), as
    /// typed so far, e.g. `k1`: its digits are taken as part of it.
    bad_space: Option<String>,
    declare: Option<DeclareChoice>,
    log: Vec<String>,
    /// The last line of help or error shown under the board.
    pub message: String,
    board_inner: Rect,
    hand_area: Rect,
}

/// The message for a typed space whose column is past `j`, e.g. `k11`.
fn bad_space_message(typed: &str) -> String {
    if typed.len() == 1 {
        format!("No column {typed}: columns are a to j (type a space like e5).")
    } else {
        format!("No space {typed}: columns are a to j, rows 1 to 10.")
    }
}

/// Colour of a team's chips on screen.
pub fn team_color(t: Team) -> Color {
    match t.0 {
        0 => Color::Blue,
        1 => Color::Green,
        _ => Color::Red,
    }
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

impl ClassicScreen {
    /// A screen for a match; `seats` says who plays each seat.
    pub fn new(m: Match, seats: Vec<SeatKind>) -> ClassicScreen {
        let mut s = ClassicScreen {
            m,
            seating: Seating::new(seats),
            selected: 0,
            cursor: Space::new(4, 4)
                .unwrap_or_else(|| Space::all().next().unwrap_or_else(|| unreachable!())),
            typing: None,
            bad_space: None,
            declare: None,
            log: vec![],
            message: String::new(),
            board_inner: Rect::default(),
            hand_area: Rect::default(),
        };
        let moves = s.m.record().moves.len();
        let turn = s.name(s.m.game().turn());
        if moves > 0 {
            s.log
                .push(format!("Resumed after {moves} moves: {turn} to play."));
        } else {
            s.log.push(format!(
                "{} deals. {turn} plays first.",
                s.name(s.m.game().dealer())
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

    /// The cursor's space.
    pub fn cursor(&self) -> Space {
        self.cursor
    }

    /// The selected card of the hand on screen.
    pub fn selected_card(&self) -> Option<Card> {
        let v = self.seating.viewer?;
        self.game().hand(v).get(self.selected).copied()
    }

    /// How a seat is named in the log: the colour alone when everyone plays
    /// alone ("green"), else seat number and colour ("P3 green").
    pub fn name(&self, seat: Seat) -> String {
        let g = self.game();
        let colour = g.team_of(seat).colour();
        if g.teams() == g.players() {
            colour.to_string()
        } else {
            format!("P{} {colour}", seat.0 + 1)
        }
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
        let g = self.game();
        self.seating.seen((!g.is_over()).then(|| g.turn()))
    }

    /// Text of the end of the game, if it ended.
    pub fn result_text(&self) -> Option<String> {
        match self.game().status() {
            Status::Playing => None,
            Status::Won(t) => {
                let n = self.game().sequence_count(t);
                Some(format!(
                    "{} wins with {n} sequence{}!",
                    capitalised(t.colour()),
                    if n == 1 { "" } else { "s" }
                ))
            }
            Status::Draw => Some("Draw: a full round went by with no legal play (C6a).".into()),
        }
    }

    fn after_change(&mut self) {
        self.typing = None;
        self.declare = None;
        if let Some(v) = self.seating.viewer {
            let n = self.game().hand(v).len();
            if self.selected >= n {
                self.selected = 0;
            }
        }
        if let Seen::Human(_) = self.seen() {
            self.jump_to_target(false);
            self.message = self.instruction();
        }
    }

    /// The legal moves of the seat to move.
    fn legal(&self) -> Vec<Move> {
        let mut l = sequence_classic::MoveList::new();
        self.game().legal_moves(&mut l);
        l.as_slice().to_vec()
    }

    fn instruction(&self) -> String {
        let legal = self.legal();
        if legal == [Move::Pass] {
            return "No card can be played: press Enter to pass (C6a).".into();
        }
        if legal.iter().all(|m| matches!(m, Move::Discard { .. })) {
            return "No card can be played: choose a card and press Enter to discard it (C6a)."
                .into();
        }
        match self.selected_card() {
            Some(c) if self.game().is_dead(c) && !self.game().dead_exchanged() => {
                format!(
                    "{} is dead (both spaces covered): press x to exchange it (C6).",
                    c.pretty()
                )
            }
            Some(c) if self.game().is_dead(c) => {
                format!("{} is dead; one exchange per turn (C6).", c.pretty())
            }
            Some(c) if c.is_one_eyed_jack() => {
                format!(
                    "{}: one-eyed jack, choose an opponent's chip (x) to remove, Enter.",
                    c.pretty()
                )
            }
            Some(c) if c.is_two_eyed_jack() => format!(
                "{}: two-eyed jack, choose any empty space, Enter.",
                c.pretty()
            ),
            Some(c) if self.game().targets(c).count() == 0 => {
                format!("{} has no free space now.", c.pretty())
            }
            Some(c) => format!("{}: choose a space marked + and press Enter.", c.pretty()),
            None => String::new(),
        }
    }

    /// Moves the cursor to the next playable space of the selected card (the
    /// first after the cursor in reading order); with `force` false, only
    /// when the cursor is not on one already.
    fn jump_to_target(&mut self, force: bool) {
        let Some(c) = self.selected_card() else {
            return;
        };
        let t = self.game().targets(c);
        if t.count() == 0 || (!force && t.contains(self.cursor)) {
            return;
        }
        let here = self.cursor.reading_index();
        let mut all: Vec<Space> = t.iter().collect();
        all.sort_by_key(|s| s.reading_index());
        let next = all
            .iter()
            .find(|s| s.reading_index() > here)
            .or(all.first());
        if let Some(s) = next {
            self.cursor = *s;
        }
    }

    fn select(&mut self, i: usize) {
        if let Some(v) = self.seating.viewer {
            if i < self.game().hand(v).len() {
                self.selected = i;
                self.declare = None;
                // Only the person to move gets advice for the card: while a
                // bot thinks or after the end, the legal moves are not theirs
                // (the end screen said "No card can be played …").
                if matches!(self.seen(), Seen::Human(_)) {
                    self.jump_to_target(false);
                    self.message = self.instruction();
                }
            }
        }
    }

    fn move_cursor(&mut self, dr: i8, dc: i8) {
        let r = (self.cursor.row() as i8 + dr).rem_euclid(10) as u8;
        let c = (self.cursor.col() as i8 + dc).rem_euclid(10) as u8;
        if let Some(s) = Space::new(r, c) {
            self.cursor = s;
        }
    }

    fn set_cursor(&mut self, row: u8, col: u8) {
        if let Some(s) = Space::new(row, col) {
            self.cursor = s;
        }
    }

    /// Handles a key during a game (overlays and save/quit are handled by
    /// the app). Returns whether the key was used.
    pub fn handle_key(&mut self, key: KeyEvent) -> bool {
        match self.seen() {
            Seen::PassDevice(seat) => {
                if matches!(key.code, KeyCode::Enter | KeyCode::Char(' ')) {
                    self.seating.viewer = Some(seat);
                    self.selected = 0;
                    self.after_change();
                    return true;
                }
                false
            }
            Seen::Human(seat) => self.human_key(seat, key),
            Seen::Bot(_) | Seen::Over => {
                if let KeyCode::Char(ch @ '1'..='9') = key.code {
                    self.select(ch as usize - '1' as usize);
                    return true;
                }
                false
            }
        }
    }

    fn human_key(&mut self, seat: Seat, key: KeyEvent) -> bool {
        // A C8a choice is open: digits or arrows choose, Enter confirms.
        if let Some(d) = &mut self.declare {
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
                    let d = d.clone();
                    let mv = Move::Place {
                        card: d.card,
                        at: d.at,
                        declare: Some(Declaration::new(&d.choices[d.index])),
                    };
                    self.declare = None;
                    self.play(seat, mv);
                }
                KeyCode::Esc => {
                    self.declare = None;
                    self.message = "Placement cancelled.".into();
                }
                _ => return false,
            }
            return true;
        }
        // Typing a space such as `e5` or `j10`.
        if let Some((col, first)) = self.typing {
            if let KeyCode::Char(ch @ '0'..='9') = key.code {
                let d = ch as u8 - b'0';
                let letter = (b'a' + col) as char;
                match (first, d) {
                    (None, 1) => {
                        self.set_cursor(0, col);
                        self.typing = Some((col, Some(1)));
                    }
                    (None, 0) => {
                        self.typing = None;
                        self.message = format!("No space {letter}0: rows are 1 to 10.");
                    }
                    (None, d) => {
                        self.set_cursor(d - 1, col);
                        self.typing = None;
                    }
                    (Some(1), 0) => {
                        self.set_cursor(9, col);
                        self.typing = None;
                    }
                    (Some(_), d) => {
                        // `a11` is not a space (it used to select card 1).
                        self.typing = None;
                        self.message = format!("No space {letter}1{d}: rows are 1 to 10.");
                    }
                }
                return true;
            }
            self.typing = None;
        }
        // Digits after a column past `j` belong to that (bad) space.
        if let Some(typed) = &mut self.bad_space {
            if let KeyCode::Char(ch @ '0'..='9') = key.code {
                if typed.len() < 3 {
                    typed.push(ch);
                    self.message = bad_space_message(typed);
                    return true;
                }
            }
            self.bad_space = None;
        }
        match key.code {
            KeyCode::Char(ch @ 'a'..='j') => {
                let col = ch as u8 - b'a';
                self.typing = Some((col, None));
                self.set_cursor(self.cursor.row(), col);
                self.message = format!("Space {ch}…: type the row (1-10).");
            }
            // Not a column, and not a key of its own (n, x here; q, s, u
            // for the app): the start of a space that does not exist.
            KeyCode::Char(ch @ 'k'..='z') if !matches!(ch, 'n' | 'q' | 's' | 'u' | 'x') => {
                let typed = ch.to_string();
                self.message = bad_space_message(&typed);
                self.bad_space = Some(typed);
            }
            KeyCode::Char(ch @ '1'..='9') => self.select(ch as usize - '1' as usize),
            KeyCode::Tab => {
                let n = self.game().hand(seat).len().max(1);
                self.select((self.selected + 1) % n);
            }
            KeyCode::BackTab => {
                let n = self.game().hand(seat).len().max(1);
                self.select((self.selected + n - 1) % n);
            }
            KeyCode::Up => self.move_cursor(-1, 0),
            KeyCode::Down => self.move_cursor(1, 0),
            KeyCode::Left => self.move_cursor(0, -1),
            KeyCode::Right => self.move_cursor(0, 1),
            KeyCode::Char('n') => self.jump_to_target(true),
            KeyCode::Char('x') => self.exchange_dead(seat),
            KeyCode::Enter | KeyCode::Char(' ') => self.confirm(seat),
            _ => return false,
        }
        true
    }

    fn exchange_dead(&mut self, seat: Seat) {
        let Some(c) = self.selected_card() else {
            return;
        };
        if !self.game().is_dead(c) {
            self.message = format!(
                "{} is not dead: a dead card has both its spaces covered (C6).",
                c.pretty()
            );
            return;
        }
        self.play(seat, Move::Dead { card: c });
    }

    fn confirm(&mut self, seat: Seat) {
        let legal = self.legal();
        if legal == [Move::Pass] {
            self.play(seat, Move::Pass);
            return;
        }
        let Some(card) = self.selected_card() else {
            return;
        };
        if legal.iter().all(|m| matches!(m, Move::Discard { .. })) {
            self.play(seat, Move::Discard { card });
            return;
        }
        if self.game().is_dead(card) {
            self.message = self.instruction();
            return;
        }
        let at = self.cursor;
        let mv = if card.is_one_eyed_jack() {
            Move::Remove { card, at }
        } else {
            Move::place(card, at)
        };
        if let Err(e) = self.game().check(mv) {
            self.message = format!("{} on {at}: {e}", card.pretty());
            return;
        }
        if let Move::Place { .. } = mv {
            if let Some(c) = self.game().completions_at(at) {
                let choices = c.all_choices();
                if choices.len() > 1 {
                    self.message = "Several ways to count the sequence (C8a): choose one (1-9 or arrows) and press Enter."
                        .into();
                    self.declare = Some(DeclareChoice {
                        card,
                        at,
                        choices,
                        index: 0,
                    });
                    return;
                }
            }
        }
        self.play(seat, mv);
    }

    /// Describes a move in words, e.g. "green plays 7♥ on d6".
    pub fn describe(&self, seat: Seat, mv: &Move) -> String {
        let who = self.name(seat);
        match *mv {
            Move::Place { card, at, .. } if card.is_two_eyed_jack() => {
                format!("{who} plays {} (two-eyed jack) on {at}", card.pretty())
            }
            Move::Place { card, at, .. } => format!("{who} plays {} on {at}", card.pretty()),
            Move::Remove { card, at } => {
                let whose = self.game().chip_at(at).map(|t| t.colour()).unwrap_or("a");
                format!(
                    "{who} plays {} and removes {whose} chip from {at}",
                    card.pretty()
                )
            }
            Move::Dead { card } => format!("{who} exchanges dead card {}", card.pretty()),
            Move::Pass => format!("{who} cannot play and passes"),
            Move::Discard { card } => format!("{who} cannot play and discards {}", card.pretty()),
        }
    }

    /// Plays a move for `seat`, logs it, and hides the hand after a human's
    /// turn when several people share the keyboard. Returns whether it was
    /// legal.
    pub fn play(&mut self, seat: Seat, mv: Move) -> bool {
        let text = self.describe(seat, &mv);
        match self.m.play(seat, mv) {
            Ok(played) => {
                let mut line = text;
                if played.new_sequences > 0 {
                    let team = self.game().team_of(seat);
                    line += &format!(
                        " — sequence{}! ({} of {})",
                        if played.new_sequences == 1 { "" } else { "s" },
                        self.game().sequence_count(team),
                        self.game().win_sequences()
                    );
                }
                if played.reshuffled {
                    line += " (new draw pile, C7)";
                }
                tracing::debug!(seat = seat.0, "{line}");
                self.log.push(line);
                if let Some(r) = self.result_text() {
                    self.log.push(r);
                }
                if mv.ends_turn() {
                    self.seating.turn_ended(seat);
                }
                if self.seating.kind(seat) == SeatKind::Human && mv.ends_turn() {
                    self.selected = 0;
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

    /// The next bot job, if a bot is to move and none is being computed.
    pub fn bot_job(&mut self) -> Option<BotJob> {
        let (id, seat, level) = self.seating.start_job(self.seen())?;
        Some(BotJob {
            id,
            seat,
            level,
            view: BotView::Classic(Box::new(self.game().view(seat))),
        })
    }

    /// Plays a bot's reply (a stale or illegal reply is dropped: the first
    /// legal move is played instead, so a faulty bot cannot stop the game).
    pub fn bot_reply(&mut self, r: BotReply) {
        if !self.seating.finish_job(r.id) {
            return;
        }
        let legal = self.legal();
        let mv = match r.choice {
            Some(BotChoice::Classic(m))
                if self.game().check(m).is_ok() && r.seat == self.game().turn() =>
            {
                m
            }
            other => {
                // Shown in the log, not on stderr (which would break the
                // full-screen display).
                tracing::debug!(?other, "bot gave no legal move");
                self.log.push(format!(
                    "({}'s bot gave no legal move; its first legal move is played)",
                    self.name(r.seat)
                ));
                match legal.first() {
                    Some(m) => *m,
                    None => return,
                }
            }
        };
        self.play(r.seat, mv);
    }

    /// Handles a mouse click: on the board it moves the cursor (a second
    /// click on the same space confirms); on the hand it selects a card.
    pub fn handle_mouse(&mut self, ev: MouseEvent) -> bool {
        if ev.kind != MouseEventKind::Down(MouseButton::Left) {
            return false;
        }
        let Seen::Human(seat) = self.seen() else {
            return false;
        };
        let b = self.board_inner;
        if ev.column >= b.x + 3 && ev.column < b.x + 3 + 50 && ev.row > b.y && ev.row <= b.y + 10 {
            let col = ((ev.column - b.x - 3) / 5) as u8;
            let row = (ev.row - b.y - 1) as u8;
            if let Some(s) = Space::new(row, col) {
                if s == self.cursor && self.declare.is_none() {
                    self.confirm(seat);
                } else {
                    self.cursor = s;
                }
                return true;
            }
        }
        let h = self.hand_area;
        if ev.column >= h.x && ev.column < h.x + h.width && ev.row > h.y && ev.row < h.y + h.height
        {
            self.select((ev.row - h.y - 1) as usize);
            return true;
        }
        false
    }

    // ----- drawing ---------------------------------------------------------

    /// Draws the screen into `area` (at least [`ui::MIN_W`] × [`ui::MIN_H`]).
    pub fn draw(&mut self, f: &mut Frame, area: Rect) {
        let [title, body, prompt] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Min(10),
            Constraint::Length(2),
        ])
        .areas(area);
        let [left, right] =
            Layout::horizontal([Constraint::Length(55), Constraint::Min(25)]).areas(body);
        let [board, log] =
            Layout::vertical([Constraint::Length(13), Constraint::Min(3)]).areas(left);
        f.render_widget(Paragraph::new(self.title_line()), title);
        self.draw_board(f, board);
        self.draw_log(f, log);
        self.draw_side(f, right);
        self.draw_prompt(f, prompt);
        match self.seen() {
            Seen::PassDevice(seat) => {
                let text = vec![
                    Line::from(format!(
                        "Pass the device to {} ({}).",
                        self.name(seat),
                        self.who(seat)
                    )),
                    Line::from(""),
                    Line::from("Hands stay hidden until then."),
                    Line::from(format!("{}: press Enter when ready.", self.name(seat))),
                ];
                ui::popup(f, area, "Next player", text);
            }
            Seen::Over => {
                if let Some(r) = self.result_text() {
                    ui::popup(
                        f,
                        board,
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
        let turn = g.turn();
        let state = match self.seen() {
            Seen::Over => self.result_text().unwrap_or_default(),
            Seen::Bot(s) => format!("{} ({}) is thinking…", self.name(s), self.who(s)),
            Seen::Human(s) | Seen::PassDevice(s) => {
                format!("{} ({}) to play", self.name(s), self.who(s))
            }
        };
        let _ = turn;
        Line::from(vec![
            Span::styled(
                " SEQUENCE ",
                Style::new().add_modifier(Modifier::BOLD | Modifier::REVERSED),
            ),
            // The move being played; at the end, the moves played.
            Span::raw(format!(
                " {} players · move {} · ",
                g.players(),
                if g.is_over() { g.ply() } else { g.ply() + 1 }
            )),
            Span::styled(state, Style::new().add_modifier(Modifier::BOLD)),
        ])
    }

    fn draw_board(&mut self, f: &mut Frame, area: Rect) {
        let g = self.m.game();
        // The cursor's space in words too (screen readers, text captures,
        // colour-blind players).
        let title = if matches!(self.seen(), Seen::Human(_)) {
            format!(" Board · cursor {} ", self.cursor)
        } else {
            " Board ".to_string()
        };
        let block = Block::default().borders(Borders::ALL).title(title);
        let inner = block.inner(area);
        self.board_inner = inner;
        f.render_widget(block, area);
        let human = matches!(self.seen(), Seen::Human(_));
        let targets = match (human, self.selected_card()) {
            (true, Some(c)) => g.targets(c),
            _ => sequence_classic::Bitboard(0),
        };
        let last = g.last_move().and_then(|(_, m)| match m {
            Move::Place { at, .. } | Move::Remove { at, .. } => Some(at),
            _ => None,
        });
        let locked = g.locked();
        let mut lines = vec![];
        let mut header = String::from("   ");
        for c in 0..10u8 {
            header.push_str(&format!(" {}   ", (b'a' + c) as char));
        }
        lines.push(Line::from(header));
        for r in 0..10u8 {
            let mut spans = vec![Span::raw(format!("{:>2} ", r + 1))];
            for c in 0..10u8 {
                let Some(s) = Space::new(r, c) else { continue };
                spans.extend(self.cell(g, s, targets, last, locked));
            }
            lines.push(Line::from(spans));
        }
        f.render_widget(Paragraph::new(lines), inner);
    }

    /// One space: card label (2), marker (1), chip letter (1), gap (1).
    /// Markers: `+` playable, `x` removable, `#` chip of a sequence, `>` the
    /// last move. Corners show `**`.
    fn cell(
        &self,
        g: &Game,
        s: Space,
        targets: sequence_classic::Bitboard,
        last: Option<Space>,
        locked: sequence_classic::Bitboard,
    ) -> Vec<Span<'static>> {
        let human = matches!(self.seen(), Seen::Human(_));
        let label = match g.layout().card_at(s) {
            Some(c) => c.pretty(),
            None => "**".into(),
        };
        let chip = g.chip_at(s);
        let marker = if targets.contains(s) {
            if chip.is_some() {
                'x'
            } else {
                '+'
            }
        } else if locked.contains(s) && chip.is_some() {
            '#'
        } else if last == Some(s) {
            '>'
        } else {
            ' '
        };
        let mut base = Style::new();
        if s.is_corner() {
            base = base.fg(Color::Yellow);
        }
        if last == Some(s) {
            base = base.bg(Color::DarkGray);
        }
        if targets.contains(s) {
            base = base.bg(Color::Yellow).fg(Color::Black);
        }
        if human && s == self.cursor {
            base = base.add_modifier(Modifier::REVERSED | Modifier::BOLD);
        }
        let chip_span = match chip {
            Some(t) => {
                let mut st = base.fg(team_color(t)).add_modifier(Modifier::BOLD);
                if targets.contains(s) {
                    st = st.bg(Color::Yellow);
                }
                if locked.contains(s) {
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

    fn draw_log(&self, f: &mut Frame, area: Rect) {
        let block = Block::default().borders(Borders::ALL).title(" Moves ");
        let inner = block.inner(area);
        let n = inner.height as usize;
        let start = self.log.len().saturating_sub(n);
        let lines: Vec<Line> = self.log[start..]
            .iter()
            .map(|l| Line::from(l.clone()))
            .collect();
        f.render_widget(Paragraph::new(lines).block(block), area);
    }

    fn draw_side(&mut self, f: &mut Frame, area: Rect) {
        let g = self.m.game();
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
        for s in 0..g.players() {
            let seat = Seat(s);
            let top = g
                .discard_pile(seat)
                .last()
                .map(|c| c.pretty())
                .unwrap_or_else(|| "—".into());
            let team = g.team_of(seat);
            row.push(Span::styled(
                format!(" P{}{}", s + 1, team.letter()),
                Style::new().fg(team_color(team)),
            ));
            let mark = if g.turn() == seat && !g.is_over() {
                "◂"
            } else {
                " "
            };
            row.push(Span::raw(format!(" {top:<3}{mark}")));
            if row.len() == per_line * 2 || s + 1 == g.players() {
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
        self.hand_area = hand;
        self.draw_hand(f, hand);
    }

    fn draw_hand(&self, f: &mut Frame, area: Rect) {
        let g = self.m.game();
        let (title, lines) = match self.seating.viewer {
            Some(v) if !matches!(self.seen(), Seen::PassDevice(_)) => {
                let team = g.team_of(v);
                let title = format!(" Hand of P{} {} ", v.0 + 1, team.colour());
                let mut lines = vec![];
                for (i, c) in g.hand(v).iter().enumerate() {
                    let sel = i == self.selected;
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

    fn draw_prompt(&self, f: &mut Frame, area: Rect) {
        let mut first = self.message.clone();
        if let Some(d) = &self.declare {
            let len = self.game().sequence_length();
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
            first = format!("Sequence (C8a): {}  Enter", opts.join(" "));
        }
        let keys = match self.seen() {
            Seen::Human(_) => {
                "1-7 card  arrows/e5 space  n next  Enter play  x dead  s save  q quit  ? rules"
            }
            Seen::PassDevice(_) => "Enter: show the hand   s save  q quit  ? rules",
            Seen::Bot(_) => "bots are playing…   s save  q quit  ? rules  u (why no undo)",
            Seen::Over => "s save the record  q quit",
        };
        f.render_widget(
            Paragraph::new(vec![
                Line::from(Span::styled(
                    first,
                    Style::new().add_modifier(Modifier::BOLD),
                )),
                Line::from(Span::styled(keys, Style::new().fg(Color::Gray))),
            ]),
            area,
        );
    }
}

/// The rules summary shown by `?` (RULES.md Part 1).
pub const HELP: &[&str] = &[
    "Sequence — rules summary (RULES.md Part 1)",
    "",
    "C6  On your turn play one card and put a chip on one of the two spaces",
    "    showing it. Two-eyed jacks (J♦ J♣) go on any empty space; one-eyed",
    "    jacks (J♠ J♥) remove an opponent's chip that is not in a sequence.",
    "    Then a card is drawn for you.",
    "C6  A dead card (both its spaces covered) may be exchanged once per",
    "    turn before playing: select it and press x.",
    "C6a No legal play: you pass; a full round of passes is a draw.",
    "C7  An empty draw pile is rebuilt from the discard piles.",
    "C8  A sequence is 5 chips in a row, column or diagonal; the corners",
    "    (**) count for everyone. A second sequence may share one space.",
    "C8a If a line is longer than 5 you choose which 5 count.",
    "C9  Two players or teams need 2 sequences; three need 1.",
    "",
    "Board: 7♥+ playable  7♥xB removable chip  7♥#B chip in a sequence",
    "       7♥>B last move   B/G/R = blue/green/red chip",
    "Keys: 1-7 or Tab choose a card; arrows or a space like e5 move the",
    "      cursor; n jumps to the next playable space; Enter plays;",
    "      x exchanges a dead card; s saves; q quits (saving); u tells why there is no undo.",
    "Mouse: click a card, click a space; click it again to play.",
];
