//! The screen of a game in progress, written once for both games over the
//! game interface: [`GameScreen<G>`] keeps the live game and its record
//! ([`Match`]), who plays each seat and whose hand is on screen (hot seat),
//! the bot request in flight, the log of moves and the message line; it
//! plays moves, asks and answers bots, and draws the title bar, the log,
//! the prompt, the "pass the device" box and the end of the game. The game
//! ([`TuiGame`]) names things, reads keys into moves and draws its board or
//! piles.

use crate::bots::{BotJob, BotReply};
use crate::game::{Key, TuiGame};
use crate::seating::Seating;
use crate::setup::SeatKind;
use crate::ui::{self, Seen};
use crossterm::event::{KeyCode, KeyEvent, MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use ratatui::Frame;
use sequence_common::record::Match;
use sequence_common::{AnyGame, Seat};
use std::any::Any;

/// A game on screen: the game `G` and everything around it.
pub struct GameScreen<G: TuiGame> {
    pub(crate) m: Match<G>,
    pub(crate) seating: Seating,
    log: Vec<String>,
    /// The line of help or error under the game.
    pub message: String,
    /// The game's own state of the screen (selection, cursor, …).
    pub(crate) ui: G::Ui,
}

impl<G: TuiGame> GameScreen<G> {
    /// A screen for a match; `seats` says who plays each seat.
    pub fn new(m: Match<G>, seats: Vec<SeatKind>) -> GameScreen<G> {
        let mut s = GameScreen {
            m,
            seating: Seating::new(seats),
            log: vec![],
            message: String::new(),
            ui: G::Ui::default(),
        };
        let g = s.m.game();
        let turn = g.to_act().map(|t| g.seat_name(t)).unwrap_or_default();
        let first = if s.m.moves() > 0 {
            format!("Resumed after {} moves: {turn} to play.", s.m.moves())
        } else {
            format!("{} deals. {turn} plays first.", g.seat_name(g.dealer()))
        };
        s.log.push(first);
        s.after_change();
        s
    }

    /// The match (game and record).
    pub fn game_match(&self) -> &Match<G> {
        &self.m
    }

    /// The game.
    pub fn game(&self) -> &G {
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

    /// How a seat is named on screen and in the log.
    pub fn name(&self, seat: Seat) -> String {
        self.game().seat_name(seat)
    }

    /// Who plays `seat`, in words: "you", "person" (hot seat) or "bot L3".
    pub fn who(&self, seat: Seat) -> String {
        self.seating.who(seat)
    }

    /// Who plays each seat, seat 0 first.
    pub fn seats(&self) -> &[SeatKind] {
        self.seating.kinds()
    }

    /// The keys line under the prompt, for what is on screen now: the
    /// game's own ([`TuiGame::human_keys`]) while a person decides.
    pub fn keys_help(&self) -> &'static str {
        match self.seen() {
            Seen::Human(_) => G::human_keys(self),
            Seen::PassDevice(_) => "Enter: show the hand   s save  q quit  ? rules",
            Seen::Bot(_) => "bots are playing…   s save  q quit  ? rules  u (why no undo)",
            Seen::Over => "s save the record  q quit",
        }
    }

    /// What is on screen now.
    pub fn seen(&self) -> Seen {
        self.seating.seen(self.game().to_act())
    }

    /// Text of the end of the game, if it ended.
    pub fn result_text(&self) -> Option<String> {
        self.game().result_text()
    }

    /// The legal moves of the seat to act.
    pub fn legal(&self) -> Vec<G::Move> {
        let mut out = vec![];
        self.game().legal_moves(&mut out);
        out
    }

    /// After any change: the game's selection and advice.
    fn after_change(&mut self) {
        G::refresh(self);
    }

    /// Handles a key during a game (overlays and save/quit are the app's).
    /// Returns whether the key was used.
    pub fn handle_key(&mut self, key: KeyEvent) -> bool {
        match self.seen() {
            Seen::PassDevice(seat) => {
                if matches!(key.code, KeyCode::Enter | KeyCode::Char(' ')) {
                    self.seating.viewer = Some(seat);
                    G::reset(&mut self.ui);
                    self.after_change();
                    return true;
                }
                false
            }
            Seen::Human(seat) => {
                let k = G::key(self, seat, key);
                self.take(seat, k)
            }
            Seen::Bot(_) | Seen::Over => G::idle_key(self, key),
        }
    }

    /// Handles a mouse event: a left click of the person to act goes to the
    /// game. Returns whether it was used.
    pub fn handle_mouse(&mut self, ev: MouseEvent) -> bool {
        if ev.kind != MouseEventKind::Down(MouseButton::Left) {
            return false;
        }
        let Seen::Human(seat) = self.seen() else {
            return false;
        };
        let k = G::click(self, seat, ev.column, ev.row);
        self.take(seat, k)
    }

    /// Carries out what a key or click did; returns whether it was used.
    fn take(&mut self, seat: Seat, k: Key<G::Move>) -> bool {
        match k {
            Key::Unused => false,
            Key::Used => true,
            Key::Play(mv) => {
                self.play(seat, mv);
                true
            }
        }
    }

    /// Plays a move for `seat` and logs it in the words of the game, from
    /// what the engine says the move did ([`TuiGame::log_lines`]); after a
    /// person's turn with several people at the keyboard, the hand leaves
    /// the screen. Returns whether it was legal (else the message says
    /// why).
    pub fn play(&mut self, seat: Seat, mv: G::Move) -> bool {
        let before = self.game().clone();
        let effects = match self.m.play(seat, mv) {
            Ok(fx) => fx,
            Err(e) => {
                self.message = format!("Not allowed: {e}");
                return false;
            }
        };
        for line in G::log_lines(&before, self.m.game(), seat, &mv, &effects) {
            tracing::debug!(seat = seat.0, "{line}");
            self.log.push(line);
        }
        let result = self.result_text();
        if let Some(r) = &result {
            self.log.push(r.clone());
        }
        if G::ends_turn(&mv) {
            self.seating.turn_ended(seat);
        }
        if self.seating.kind(seat) == SeatKind::Human && self.game().to_act() != Some(seat) {
            G::reset(&mut self.ui);
        }
        self.message.clear();
        self.after_change();
        if let Some(r) = result {
            self.message = format!("{r} s saves the record, q quits.");
        }
        true
    }

    /// The next bot job, if a bot is to act and none is being computed.
    pub fn bot_job(&mut self) -> Option<BotJob> {
        let (id, seat, level) = self.seating.start_job(self.seen())?;
        Some(BotJob::new(
            id,
            seat,
            level,
            AnyGame::view(&self.m, Some(seat)),
        ))
    }

    /// Plays a bot's reply. A stale reply is dropped; an illegal one is
    /// replaced by the first legal move, so that a faulty bot cannot stop
    /// the game.
    pub fn bot_reply(&mut self, r: BotReply) {
        if !self.seating.finish_job(r.id) {
            return;
        }
        let chosen = r.choice.and_then(|c| c.get::<G>());
        let mv = match chosen {
            Some(mv) if self.game().check(r.seat, mv).is_ok() => mv,
            other => {
                // Shown in the log, not on stderr (which would break the
                // full-screen display).
                tracing::debug!(
                    choice = other.map(|m| G::move_text(&m)),
                    "bot gave no legal move"
                );
                self.log.push(format!(
                    "({}'s bot gave no legal {w}; its first legal {w} is played)",
                    self.name(r.seat),
                    w = G::MOVE_WORD
                ));
                match self.legal().first() {
                    Some(mv) => *mv,
                    None => return,
                }
            }
        };
        self.play(r.seat, mv);
    }

    // ----- drawing -------------------------------------------------------------

    /// Draws the screen into `area` (at least [`ui::MIN_W`] × [`ui::MIN_H`]).
    pub fn draw(&mut self, f: &mut Frame, area: Rect) {
        let [title, body, prompt] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Min(10),
            Constraint::Length(2),
        ])
        .areas(area);
        f.render_widget(Paragraph::new(self.title_line()), title);
        let areas = G::draw_table(self, f, body);
        self.draw_log(f, areas.log);
        self.draw_prompt(f, prompt);
        match self.seen() {
            Seen::PassDevice(seat) => {
                let name = self.name(seat);
                let [first, why] = self.game().pass_device_lines(seat, &self.who(seat));
                let text = vec![
                    Line::from(first),
                    Line::from(why),
                    Line::from("Hands stay hidden until then."),
                    Line::from(format!("{name}: press Enter when ready.")),
                ];
                ui::popup(f, area, "Next player", text);
            }
            Seen::Over => {
                if let Some(r) = self.result_text() {
                    ui::popup(
                        f,
                        areas.end.unwrap_or(area),
                        "Game over",
                        vec![Line::from(r), Line::from("s: save   q: quit")],
                    );
                }
            }
            Seen::Human(_) | Seen::Bot(_) => {}
        }
    }

    fn title_line(&self) -> Line<'static> {
        let g = self.game();
        let state = match self.seen() {
            Seen::Over => self.result_text().unwrap_or_default(),
            Seen::Bot(s) => format!("{} ({}) is thinking…", self.name(s), self.who(s)),
            Seen::Human(s) | Seen::PassDevice(s) => {
                format!("{} ({}) {}", self.name(s), self.who(s), g.to_play())
            }
        };
        Line::from(vec![
            Span::styled(
                G::BANNER,
                Style::new().add_modifier(Modifier::BOLD | Modifier::REVERSED),
            ),
            Span::raw(format!(" {} players · {}", g.players(), g.title_note())),
            Span::styled(state, Style::new().add_modifier(Modifier::BOLD)),
        ])
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

    fn draw_prompt(&self, f: &mut Frame, area: Rect) {
        f.render_widget(
            Paragraph::new(vec![
                Line::from(Span::styled(
                    G::prompt_line(self),
                    Style::new().add_modifier(Modifier::BOLD),
                )),
                Line::from(Span::styled(self.keys_help(), Style::new().fg(Color::Gray))),
            ]),
            area,
        );
    }
}

/// A game screen of either game, as the app holds it: the game itself is
/// the workspace's one type-erased game ([`AnyGame`]: its kind, seats,
/// turn, record); this trait erases only what is the screen's — keys,
/// clicks, bots' turns and drawing, which each game does its own way
/// ([`TuiGame`]).
pub(crate) trait AnyScreen {
    /// The game on screen.
    fn game(&self) -> &dyn AnyGame;
    /// Who plays each seat.
    fn seats(&self) -> &[SeatKind];
    /// What is on screen now.
    fn seen(&self) -> Seen;
    /// See [`GameScreen::handle_key`].
    fn handle_key(&mut self, key: KeyEvent) -> bool;
    /// See [`GameScreen::handle_mouse`].
    fn handle_mouse(&mut self, ev: MouseEvent) -> bool;
    /// See [`GameScreen::bot_job`].
    fn bot_job(&mut self) -> Option<BotJob>;
    /// See [`GameScreen::bot_reply`].
    fn bot_reply(&mut self, r: BotReply);
    /// See [`GameScreen::draw`].
    fn draw(&mut self, f: &mut Frame, area: Rect);
    /// The screen, to be downcast to its [`GameScreen`] (the app's typed
    /// accessors, for tests).
    fn as_any(&self) -> &dyn Any;
}

impl<G: TuiGame> AnyScreen for GameScreen<G> {
    fn game(&self) -> &dyn AnyGame {
        &self.m
    }

    fn seats(&self) -> &[SeatKind] {
        GameScreen::seats(self)
    }

    fn seen(&self) -> Seen {
        GameScreen::seen(self)
    }

    fn handle_key(&mut self, key: KeyEvent) -> bool {
        GameScreen::handle_key(self, key)
    }

    fn handle_mouse(&mut self, ev: MouseEvent) -> bool {
        GameScreen::handle_mouse(self, ev)
    }

    fn bot_job(&mut self) -> Option<BotJob> {
        GameScreen::bot_job(self)
    }

    fn bot_reply(&mut self, r: BotReply) {
        GameScreen::bot_reply(self, r)
    }

    fn draw(&mut self, f: &mut Frame, area: Rect) {
        GameScreen::draw(self, f, area)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
