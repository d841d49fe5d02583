//! The application as a pure state machine: [`App::handle_key`] and
//! [`App::handle_mouse`] change the state and return [`Effect`]s (save a
//! file, quit) for the terminal shell to carry out; [`App::draw`] renders
//! into any ratatui backend; bots are asked through [`App::bot_job`] /
//! [`App::bot_reply`]. No terminal, clock or file is touched here, so tests
//! drive it with a `TestBackend` and scripted keys.

use crate::bots::{BotJob, BotReply};
use crate::classic::ClassicScreen;
use crate::game::{entry, TuiGame};
use crate::setup::{SeatKind, Setup, StartScreen};
use crate::shell::{AnyScreen, GameScreen};
use crate::stacks::StacksScreen;
use crate::ui::{self, Seen};
use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseEvent};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use ratatui::Frame;
use sequence_common::record::detect_kind;
use std::path::PathBuf;

/// What the shell must do after a key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Write `text` (a game record, RECORD.md / RECORD-STACKS.md) to `path`,
    /// then call [`App::saved`].
    Save {
        /// Where to write.
        path: PathBuf,
        /// The record's JSON text.
        text: String,
    },
    /// Leave the program.
    Quit,
}

/// A screen on top of the game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Overlay {
    Help,
    NoUndo,
    QuitConfirm,
}

/// The screen shown.
enum Screen {
    Start(StartScreen),
    /// A game of either kind.
    Game(Box<dyn AnyScreen>),
}

/// The whole terminal application.
pub struct App {
    screen: Screen,
    overlay: Option<Overlay>,
    save_path: Option<PathBuf>,
    notice: String,
}

impl App {
    /// The start screen with `setup` preselected. `save_path` is where `s`
    /// and `q` save the record. (The file name must not reveal the seed of
    /// an unfinished game.)
    pub fn start(setup: Setup, save_path: PathBuf) -> App {
        App {
            screen: Screen::Start(StartScreen::new(setup)),
            overlay: None,
            save_path: Some(save_path),
            notice: String::new(),
        }
    }

    /// A new game dealt from `setup` (the start screen skipped).
    ///
    /// # Errors
    /// A table or options the rules do not allow (C3, S1, option ranges).
    pub fn new_game(setup: Setup, save_path: PathBuf) -> anyhow::Result<App> {
        Ok(App {
            screen: Screen::Game((entry(setup.game).deal)(&setup)?),
            overlay: None,
            save_path: Some(save_path),
            notice: String::new(),
        })
    }

    /// Resumes a saved game from its record text. `seats` says who plays
    /// each seat (missing seats are level-1 bots); `seed` seeds later
    /// reshuffles. Saving writes back to `path`.
    ///
    /// # Errors
    /// A record that is malformed or whose moves do not replay, naming the
    /// field or move; a finished game.
    pub fn load(text: &str, seats: Vec<SeatKind>, seed: u64, path: PathBuf) -> anyhow::Result<App> {
        let (kind, v) =
            detect_kind(text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        let screen = (entry(kind).load)(&v, seats, seed, &path)?;
        Ok(App {
            screen: Screen::Game(screen),
            overlay: None,
            save_path: Some(path),
            notice: String::new(),
        })
    }

    /// The screen of the game `G`, when a game of `G` is on.
    pub fn screen<G: TuiGame>(&self) -> Option<&GameScreen<G>> {
        match &self.screen {
            Screen::Game(g) => g.as_any().downcast_ref(),
            Screen::Start(_) => None,
        }
    }

    /// The classic screen, when a classic game is on.
    pub fn classic(&self) -> Option<&ClassicScreen> {
        self.screen()
    }

    /// The Stacks screen, when a Stacks game is on.
    pub fn stacks(&self) -> Option<&StacksScreen> {
        self.screen()
    }

    /// Who plays each seat of the game on screen (on the start screen, the
    /// table chosen so far).
    pub fn seats(&self) -> &[SeatKind] {
        match &self.screen {
            Screen::Start(st) => &st.setup.seats,
            Screen::Game(g) => g.seats(),
        }
    }

    /// Whether the start screen is shown.
    pub fn on_start_screen(&self) -> bool {
        matches!(self.screen, Screen::Start(_))
    }

    /// What the game screen shows (`None` on the start screen).
    pub fn seen(&self) -> Option<Seen> {
        match &self.screen {
            Screen::Start(_) => None,
            Screen::Game(g) => Some(g.seen()),
        }
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.seen() == Some(Seen::Over)
    }

    /// Where `s` saves.
    pub fn save_path(&self) -> Option<&PathBuf> {
        self.save_path.as_ref()
    }

    /// The record of the game so far as JSON text (`None` on the start
    /// screen).
    pub fn record_text(&self) -> Option<String> {
        match &self.screen {
            Screen::Start(_) => None,
            Screen::Game(g) => Some(
                g.game()
                    .record_json()
                    .map(|r| r.to_string())
                    .unwrap_or_default(),
            ),
        }
    }

    fn save_effect(&self) -> Option<Effect> {
        Some(Effect::Save {
            path: self.save_path.clone()?,
            text: self.record_text()?,
        })
    }

    /// Shows `text` on the line under the game until the next key.
    pub fn notify(&mut self, text: impl Into<String>) {
        self.notice = text.into();
    }

    /// Reports the outcome of an [`Effect::Save`].
    pub fn saved(&mut self, result: Result<PathBuf, String>) {
        self.notice = match result {
            Ok(p) => format!("Saved to {}", p.display()),
            Err(e) => format!("Could not save: {e}"),
        };
    }

    /// Handles a key press.
    pub fn handle_key(&mut self, key: KeyEvent) -> Vec<Effect> {
        if key.kind == KeyEventKind::Release {
            return vec![];
        }
        if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
            // Ctrl-C: leave at once, saving a game in progress.
            return self
                .save_effect()
                .into_iter()
                .chain([Effect::Quit])
                .collect();
        }
        if let Some(o) = self.overlay {
            match o {
                Overlay::QuitConfirm => match key.code {
                    KeyCode::Char('y') | KeyCode::Char('Y') | KeyCode::Enter => {
                        return self
                            .save_effect()
                            .into_iter()
                            .chain([Effect::Quit])
                            .collect();
                    }
                    _ => self.overlay = None,
                },
                _ => self.overlay = None,
            }
            return vec![];
        }
        self.notice.clear();
        if let Screen::Start(st) = &mut self.screen {
            match key.code {
                KeyCode::Up => st.select(-1),
                KeyCode::Down | KeyCode::Tab => st.select(1),
                KeyCode::Left | KeyCode::Char('-') => st.change(-1),
                KeyCode::Right | KeyCode::Char('+') | KeyCode::Char(' ') => st.change(1),
                KeyCode::Char('q') | KeyCode::Esc => return vec![Effect::Quit],
                KeyCode::Char('?') => self.overlay = Some(Overlay::Help),
                KeyCode::Enter => {
                    let mut setup = st.setup.clone();
                    if setup.seats.len() != setup.players as usize {
                        setup
                            .seats
                            .resize(setup.players as usize, SeatKind::Bot(st.level));
                    }
                    match (entry(setup.game).deal)(&setup) {
                        Ok(screen) => self.screen = Screen::Game(screen),
                        Err(e) => st.message = format!("{e:#}"),
                    }
                }
                _ => {}
            }
            return vec![];
        }
        let used = match &mut self.screen {
            Screen::Game(g) => g.handle_key(key),
            Screen::Start(_) => false,
        };
        if used {
            return vec![];
        }
        match key.code {
            KeyCode::Char('?') | KeyCode::F(1) => self.overlay = Some(Overlay::Help),
            KeyCode::Char('u') => self.overlay = Some(Overlay::NoUndo),
            KeyCode::Char('s') => return self.save_effect().into_iter().collect(),
            KeyCode::Char('q') | KeyCode::Esc => self.overlay = Some(Overlay::QuitConfirm),
            _ => {}
        }
        vec![]
    }

    /// Handles a mouse event (clicks on the board and the hand).
    pub fn handle_mouse(&mut self, ev: MouseEvent) -> Vec<Effect> {
        if self.overlay.is_some() {
            return vec![];
        }
        if let Screen::Game(g) = &mut self.screen {
            g.handle_mouse(ev);
        }
        vec![]
    }

    /// The next decision a bot must take, if any (it is then marked as
    /// being computed until [`App::bot_reply`]). Bots wait while an overlay
    /// (rules, quit question) is open.
    pub fn bot_job(&mut self) -> Option<BotJob> {
        if self.overlay.is_some() {
            return None;
        }
        match &mut self.screen {
            Screen::Game(g) => g.bot_job(),
            Screen::Start(_) => None,
        }
    }

    /// Plays a bot's decision.
    pub fn bot_reply(&mut self, r: BotReply) {
        if let Screen::Game(g) = &mut self.screen {
            g.bot_reply(r);
        }
    }

    /// Draws everything; a terminal smaller than [`ui::MIN_W`] ×
    /// [`ui::MIN_H`] gets a message instead.
    pub fn draw(&mut self, f: &mut Frame) {
        let area = f.area();
        if area.width < ui::MIN_W || area.height < ui::MIN_H {
            ui::too_small(f, area);
            return;
        }
        match &mut self.screen {
            Screen::Start(st) => draw_start(f, st),
            Screen::Game(g) => g.draw(f, area),
        }
        if !self.notice.is_empty() {
            let r = ratatui::layout::Rect {
                x: area.x,
                y: area.y + area.height - 2,
                width: area.width,
                height: 1,
            };
            f.render_widget(ratatui::widgets::Clear, r);
            f.render_widget(
                Paragraph::new(Span::styled(
                    self.notice.clone(),
                    Style::new().add_modifier(Modifier::BOLD),
                )),
                r,
            );
        }
        match self.overlay {
            Some(Overlay::Help) => {
                let kind = match &self.screen {
                    Screen::Start(st) => st.setup.game,
                    Screen::Game(g) => g.game().kind(),
                };
                ui::page(f, area, "Rules (?)", entry(kind).help);
            }
            Some(Overlay::NoUndo) => ui::page(f, area, "No undo (u)", ui::NO_UNDO),
            Some(Overlay::QuitConfirm) => {
                let where_ = match (&self.save_path, &self.screen) {
                    (Some(p), Screen::Game(_)) => {
                        format!("The game is saved to {}.", p.display())
                    }
                    _ => String::new(),
                };
                ui::popup(
                    f,
                    area,
                    "Quit?",
                    vec![
                        Line::from("Quit the game?"),
                        Line::from(where_),
                        Line::from("y = quit    any other key = play on"),
                    ],
                );
            }
            None => {}
        }
    }
}

/// Width of the start screen's box.
const START_W: u16 = 76;

fn draw_start(f: &mut Frame, st: &StartScreen) {
    let area = f.area();
    let mut lines = vec![
        Line::from(Span::styled(
            "SEQUENCE",
            Style::new().add_modifier(Modifier::BOLD),
        )),
        Line::from("classic Sequence and Sequence Stacks in the terminal"),
        Line::from(""),
    ];
    for field in st.fields() {
        let sel = field == st.field;
        let style = if sel {
            Style::new().add_modifier(Modifier::REVERSED)
        } else {
            Style::new()
        };
        lines.push(Line::from(vec![
            Span::raw(if sel { " › " } else { "   " }),
            Span::raw(format!("{:<9}", StartScreen::label(field))),
            Span::styled(format!("‹ {} ›", st.value(field)), style),
        ]));
    }
    lines.push(Line::from(""));
    let seats: Vec<String> = st
        .setup
        .seats
        .iter()
        .enumerate()
        .map(|(i, k)| match k {
            SeatKind::Human => format!("P{} person", i + 1),
            SeatKind::Bot(l) => format!("P{} bot L{l}", i + 1),
        })
        .collect();
    lines.push(Line::from(format!("Seats: {}", seats.join(", "))));
    lines.push(Line::from(""));
    lines.push(Line::from(
        "↑↓ choose a setting   ←→ change it   Enter start   ? rules   q quit",
    ));
    if !st.message.is_empty() {
        lines.push(Line::from(""));
        // Wrapped to the box: a long refusal must be read whole.
        for part in ui::wrap(&st.message, START_W as usize - 2) {
            lines.push(Line::from(Span::styled(
                part,
                Style::new().add_modifier(Modifier::BOLD),
            )));
        }
    }
    let r = ui::centered(area, START_W, lines.len() as u16 + 2);
    f.render_widget(
        Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(" New game ")),
        r,
    );
}
