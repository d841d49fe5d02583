//! What the screen shell asks of a game: [`TuiGame`], implemented by both
//! engines (`sequence_classic::Game` in [`crate::classic`],
//! `sequence_stacks::Game` in [`crate::stacks`]). Everything else — seats,
//! turns, bots, the log, saving and loading, the end of the game — is the
//! game interface ([`sequence_common::Rules`], [`sequence_common::Notation`],
//! [`sequence_common::record::Match`]) driven by [`GameScreen`].
//!
//! Also where a [`GameKind`] becomes an engine type: `rules`, what the
//! app needs of a game's rules before a screen exists, through the one
//! registration of games ([`sequence_bots::with_game`]); `entry`, the
//! game's screen.

use crate::setup::{SeatKind, Setup};
use crate::shell::{AnyScreen, GameScreen};
use anyhow::anyhow;
use crossterm::event::KeyEvent;
use ratatui::layout::Rect;
use ratatui::Frame;
use sequence_bots::{with_game, BotGame, ForGame};
use sequence_common::record::Match;
use sequence_common::{GameKind, RuleError, Seat, TableConfig};
use serde_json::Value;
use std::path::Path;

/// What a key (or a click) did on a game screen.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Key<M> {
    /// Not a key of the game: the app may use it (`s`, `q`, `?`, …).
    Unused,
    /// Used: the selection, the cursor or the message changed.
    Used,
    /// The person chose this move: the shell plays it.
    Play(M),
}

/// Where a game drew its table, for the shell to draw the rest.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Areas {
    /// Where the log of moves goes.
    pub log: Rect,
    /// Where the end-of-game box is centred (`None`: the whole screen).
    pub end: Option<Rect>,
}

/// What is game-specific on a game screen: naming seats and results,
/// describing moves for the log, reading keys and clicks into a move, and
/// drawing the board or the piles. [`GameScreen`] does the rest, the same
/// for both games.
///
/// The hooks that read keys or draw take the whole screen: they read the
/// game (`s.game()`), who is looking (`s.seen()`, `s.viewer()`) and keep
/// their own state in `s.ui` ([`TuiGame::Ui`]) and the message line in
/// `s.message`; they never play a move themselves (they return
/// [`Key::Play`]).
pub trait TuiGame: BotGame {
    /// The screen's own state for this game: the selected card, the
    /// cursor, where the clickable parts were drawn.
    type Ui: Default + Send + 'static;

    /// The game's name in the title bar, e.g. ` SEQUENCE `.
    const BANNER: &'static str;
    /// The game's name on the start screen, e.g. `Sequence (classic)`.
    const MENU_NAME: &'static str;
    /// The rules summary shown by `?`.
    const HELP: &'static [&'static str];
    /// What one decision is called in messages: `move` or `decision`.
    const MOVE_WORD: &'static str;

    // ----- words ---------------------------------------------------------------

    /// How a seat is named on screen and in the log, e.g. `green`, `P2`.
    fn seat_name(&self, seat: Seat) -> String;

    /// How a side (a team or a seat, see [`sequence_common::Outcome`]) is
    /// named, e.g. `blue`, `P1`.
    fn side_name(&self, side: u8) -> String;

    /// The end of the game in words, once it has ended.
    fn result_text(&self) -> Option<String>;

    /// The log's lines for `mv` made by `seat`: `before` is the game before
    /// the move (for naming what the move took), `after` after it, and
    /// `effects` what the engine says the move did ([`sequence_common::Rules::play`]:
    /// sequences made, a new draw pile, a Block window, a chip taken).
    fn log_lines(
        before: &Self,
        after: &Self,
        seat: Seat,
        mv: &Self::Move,
        effects: &Self::Effects,
    ) -> Vec<String>;

    /// Whether `mv` ends its seat's turn (then, with several people at the
    /// keyboard, that person's hand leaves the screen).
    fn ends_turn(mv: &Self::Move) -> bool;

    /// What the title bar says after the number of players, e.g.
    /// `move 12 · ` (default: nothing).
    fn title_note(&self) -> String {
        String::new()
    }

    /// What the seat to act is asked in the title bar (default `to play`).
    fn to_play(&self) -> &'static str {
        "to play"
    }

    /// The first two lines of the "pass the device" box for `seat`, played
    /// by `who` (`person`, …): whom to pass it to, and why.
    fn pass_device_lines(&self, seat: Seat, who: &str) -> [String; 2];

    // ----- the screen's state and keys -------------------------------------------

    /// Forgets the selection: a person took the device, or a person's turn
    /// passed.
    fn reset(ui: &mut Self::Ui);

    /// After any change: keeps the selection within the hand and, when a
    /// person is to act, puts the advice for the selection on the message
    /// line.
    fn refresh(s: &mut GameScreen<Self>);

    /// A key of the person at the keyboard deciding for `seat`.
    fn key(s: &mut GameScreen<Self>, seat: Seat, key: KeyEvent) -> Key<Self::Move>;

    /// A key while no person is to act (a bot thinks, or the game is over);
    /// returns whether it was used. Default: none is.
    fn idle_key(_s: &mut GameScreen<Self>, _key: KeyEvent) -> bool {
        false
    }

    /// A left click at (`column`, `row`) of the person deciding for `seat`.
    fn click(s: &mut GameScreen<Self>, seat: Seat, column: u16, row: u16) -> Key<Self::Move>;

    // ----- drawing -----------------------------------------------------------------

    /// Draws the board or piles, the table and the hand into `body`; says
    /// where the log and the end-of-game box go.
    fn draw_table(s: &mut GameScreen<Self>, f: &mut Frame, body: Rect) -> Areas;

    /// The bold line under the game (default: the message).
    fn prompt_line(s: &GameScreen<Self>) -> String {
        s.message.clone()
    }

    /// The keys line under it while a person decides for the seat shown
    /// (the other lines are the shell's: [`GameScreen::keys_help`]).
    fn human_keys(s: &GameScreen<Self>) -> &'static str;
}

/// What the app needs of a game's rules before a screen exists (the
/// command line, the start screen): [`rules`] gives it for a
/// [`GameKind`] through the one registration of games
/// ([`sequence_bots::with_game`]), so a new game needs no line here.
pub(crate) struct TableRules {
    /// Whether the game has teams (C3; Stacks has none, S1).
    pub teams: bool,
    /// The player counts the rules allow (C3, S1).
    pub player_counts: fn() -> Vec<u8>,
    /// The rule that sets the player counts: `C3`, `S1`.
    pub players_rule: fn() -> &'static str,
    /// Teams at a table of this many players when none are asked for
    /// (C3); the players themselves for a game without teams or a table
    /// the rules refuse.
    pub default_teams: fn(u8) -> u8,
    /// Checks `--options` (JSON text; `None`: the official rules) and gives
    /// them back written as records write them.
    pub options: fn(Option<&str>) -> anyhow::Result<Value>,
    /// Checks a table: players, teams (`None`: the default) and options.
    pub check_table: fn(u8, Option<u8>, Option<&str>) -> anyhow::Result<()>,
}

/// The rules of the game of `kind` ([`TableRules`]).
pub(crate) fn rules(kind: GameKind) -> TableRules {
    /// [`TableRules`] of the game it is called for.
    struct RulesOf;
    impl ForGame for RulesOf {
        type Out = TableRules;
        fn call<G: BotGame>(self) -> TableRules {
            TableRules {
                teams: G::TEAMS,
                player_counts: || {
                    (0..=u8::MAX)
                        .filter(|&p| G::table(p, None, G::Options::default()).is_ok())
                        .collect()
                },
                players_rule: || match G::table(0, None, G::Options::default()) {
                    // `C3.players` → `C3`.
                    Err(e) => e.code().split_once('.').map_or(e.code(), |(rule, _)| rule),
                    Ok(_) => "",
                },
                default_teams: |players| {
                    G::table(players, None, G::Options::default()).map_or(players, |c| c.sides())
                },
                options: |text| options::<G>(text).map(|o| G::options_to_json(&o)),
                check_table: |players, teams, text| table::<G>(players, teams, text).map(drop),
            }
        }
    }
    with_game(kind, RulesOf)
}

/// A game screen made by [`GameEntry`], or why it could not be.
type Made = anyhow::Result<Box<dyn AnyScreen>>;

/// What the app needs of a game's screen ([`TuiGame`]) before one exists
/// (the start screen, a new deal, loading), by [`GameKind`]: see
/// [`entry`].
pub(crate) struct GameEntry {
    /// The game's name on the start screen, e.g. `Sequence (classic)`.
    pub menu_name: &'static str,
    /// The rules summary.
    pub help: &'static [&'static str],
    /// Deals a new game.
    pub deal: fn(&Setup) -> Made,
    /// Resumes a record (JSON) read from `path`; later reshuffles draw from
    /// `seed`.
    pub load: fn(&Value, Vec<SeatKind>, u64, &Path) -> Made,
}

/// The screen of the game of `kind`: the one place the terminal UI names
/// a game, because each game draws its own screen ([`TuiGame`], in its
/// module). Everything else about a game comes through [`rules`].
pub(crate) fn entry(kind: GameKind) -> GameEntry {
    match kind {
        GameKind::Classic => GameEntry::of::<sequence_classic::Game>(),
        GameKind::Stacks => GameEntry::of::<sequence_stacks::Game>(),
    }
}

impl GameEntry {
    fn of<G: TuiGame>() -> GameEntry {
        GameEntry {
            menu_name: G::MENU_NAME,
            help: G::HELP,
            deal: deal::<G>,
            load: load::<G>,
        }
    }
}

/// The rule options of `--options` for `G` (`None`: the official rules).
///
/// # Errors
/// Text that is not a JSON object, or an unknown option or bad value,
/// quoting the text.
fn options<G: BotGame>(text: Option<&str>) -> anyhow::Result<G::Options> {
    let value = crate::setup::options_json(text)?;
    G::options_from_json(Some(&value)).map_err(|e| {
        // The argument is named already: not `field `options`` again.
        let e = e.strip_prefix("field `options`: ").unwrap_or(&e);
        anyhow!("--options {:?}: {e}", text.unwrap_or("{}"))
    })
}

/// The table of `players` in `teams` under `--options` `text`.
///
/// # Errors
/// Bad options, or a table the rules do not allow, naming the argument.
fn table<G: BotGame>(
    players: u8,
    teams: Option<u8>,
    text: Option<&str>,
) -> anyhow::Result<G::Config> {
    G::table(players, teams, options::<G>(text)?).map_err(|e| match teams {
        Some(t) if e.code().ends_with(".teams") => anyhow!("--teams {t}: {e}"),
        _ => anyhow!("--options: {e}"),
    })
}

/// Deals the game of `setup`.
fn deal<G: TuiGame>(setup: &Setup) -> Made {
    let config = table::<G>(setup.players, setup.teams, setup.options.as_deref())?;
    let m = Match::<G>::new(config, setup.seed);
    Ok(Box::new(GameScreen::new(m, setup.seats.clone())))
}

/// Resumes the game of the record `v`: `seats` says who plays each seat
/// (missing seats are level-1 bots).
fn load<G: TuiGame>(
    v: &Value,
    seats: Vec<SeatKind>,
    seed: u64,
    path: &Path,
) -> anyhow::Result<Box<dyn AnyScreen>> {
    let m =
        Match::<G>::from_record_json(v, seed).map_err(|e| anyhow!("{}: {e}", path.display()))?;
    let g = m.game();
    if g.is_over() {
        let how = match g.outcome().winner() {
            Some(side) => format!("{} won", g.side_name(side)),
            None => "drawn".into(),
        };
        anyhow::bail!(
            "{}: this game has already ended ({how}); nothing to resume",
            path.display()
        );
    }
    let players = g.players() as usize;
    Ok(Box::new(GameScreen::new(m, fit_seats(seats, players))))
}

/// Seats for a loaded record: the given kinds, padded with level-1 bots.
fn fit_seats(mut seats: Vec<SeatKind>, n: usize) -> Vec<SeatKind> {
    seats.truncate(n);
    seats.resize(n, SeatKind::Bot(1));
    seats
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_game_knows_its_tables() {
        let classic = rules(GameKind::Classic);
        assert_eq!((classic.player_counts)(), [2, 3, 4, 6, 8, 9, 10, 12]);
        assert_eq!((classic.players_rule)(), "C3");
        assert!(classic.teams);
        let stacks = rules(GameKind::Stacks);
        assert_eq!((stacks.player_counts)(), [2, 3, 4, 5, 6]);
        assert_eq!((stacks.players_rule)(), "S1");
        assert!(!stacks.teams);
        assert!((classic.check_table)(6, Some(3), None).is_ok());
        let e = (classic.check_table)(4, Some(3), None).unwrap_err();
        assert!(e.to_string().starts_with("--teams 3: "), "{e}");
    }
}
