//! Full-screen terminal play (`sequence play`) for classic Sequence and
//! Sequence Stacks: hot seat for people sharing one keyboard (a "pass the
//! device" screen between people's turns keeps hands hidden) and bots of
//! levels 1–5.
//!
//! * [`App`]: the application as a pure state machine — keys and mouse in,
//!   [`Effect`]s out, drawn into any ratatui backend. Tests drive it with a
//!   `TestBackend`.
//! * [`GameScreen<G>`]: the screen of a game in progress, written once for
//!   both games over the game interface (`sequence_common::Rules`,
//!   `Notation`, `record::Match`): seats, turns, bots, the log, saving, the
//!   end of the game. A game supplies only what is its own through
//!   [`TuiGame`] — names, moves in words, keys read into moves, the board
//!   or piles drawn — in [`classic`] and [`stacks`].
//! * [`bots::BotPool`]: the bots behind bot seats (one per seat, seeded), for
//!   either game: one job type carries the seat's view boxed.
//! * [`run`]: the terminal shell (crossterm): raw mode, alternate screen,
//!   mouse, resize, a worker thread for the bots and a short pause before a
//!   bot's move is shown.

pub mod app;
pub mod bots;
pub mod classic;
pub mod game;
mod seating;
pub mod setup;
pub mod shell;
pub mod stacks;
pub mod ui;

pub use app::{App, Effect};
pub use game::TuiGame;
pub use sequence_common::GameKind;
pub use setup::{SeatKind, Setup};
pub use shell::GameScreen;

use anyhow::{bail, Context};
use bots::{BotJob, BotPool, BotReply};
use crossterm::event::{self, DisableMouseCapture, EnableMouseCapture, Event};
use crossterm::execute;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// `sequence play`: a terminal game, hot seat and bots. The `sequence`
/// binary reads its command line into this (one field a flag: `game` is
/// `--game`, `no_menu` `--no-menu`); [`Default`] is a new game with no
/// flag given. Checked by [`app_from_config`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayConfig {
    /// Game: `classic` (the default) or `stacks`.
    pub game: Option<String>,
    /// Number of players (classic 2, 3, 4, 6, 8, 9, 10 or 12 — C3; Stacks
    /// 2–6 — S1). Default: the people plus the bots, at least 2.
    pub players: Option<u8>,
    /// Number of teams (classic, C3): 2 or 3 where the player count allows
    /// both (6 and 12). Stacks has no teams.
    pub teams: Option<u8>,
    /// Bot levels (1 beginner … 5 very strong), one per bot seat after the
    /// people, e.g. `3,3`. Seats left over get level-1 bots. A list that
    /// takes every seat is refused unless `--humans 0` asks for a game of
    /// bots only. Default: level 1 for every seat but one. With `--load`,
    /// give the levels again: a record does not keep them.
    pub bots: Option<String>,
    /// People at this keyboard (hot seat); they take the first seats.
    /// Default: the seats `--bots` leaves, or 1.
    pub humans: Option<u8>,
    /// Seed of the deal (ChaCha8); default from the clock. A game with the
    /// same seed and moves is the same game.
    pub seed: Option<u64>,
    /// Rule options as JSON, e.g. `{"sequence_length":4}` (RECORD.md /
    /// RECORD-STACKS.md `options`).
    pub options: Option<String>,
    /// Resume a saved unfinished game (a record file); `s` and `q` save back
    /// into it. The game, players, teams and options are the record's:
    /// `--game`, `--players`, `--teams` and `--options` may only repeat
    /// them. The record does not keep bot levels: its bots play at level 1
    /// (as in a new game) unless `--bots` gives their levels again.
    pub load: Option<PathBuf>,
    /// Where `s` and `q` save the record (default
    /// `sequence-<game>-<time>.json` in the current folder).
    pub save: Option<PathBuf>,
    /// Milliseconds a bot's move waits before it is shown (default
    /// [`DEFAULT_PAUSE_MS`]).
    pub pause: u64,
    /// Skip the start screen and deal at once.
    pub no_menu: bool,
}

/// Milliseconds a bot's move waits before it is shown unless `--pause`
/// says otherwise.
pub const DEFAULT_PAUSE_MS: u64 = 500;

impl Default for PlayConfig {
    fn default() -> Self {
        PlayConfig {
            game: None,
            players: None,
            teams: None,
            bots: None,
            humans: None,
            seed: None,
            options: None,
            load: None,
            save: None,
            pause: DEFAULT_PAUSE_MS,
            no_menu: false,
        }
    }
}

fn bot_levels(args: &PlayConfig) -> anyhow::Result<Vec<u8>> {
    match &args.bots {
        Some(b) => setup::parse_bots(b),
        None => Ok(vec![]),
    }
}

/// Refuses table-shaping arguments that differ from the loaded record `v`
/// of `game` (a loaded game keeps its table and rules).
fn check_load_args(
    args: &PlayConfig,
    game: GameKind,
    v: &serde_json::Value,
    path: &std::path::Path,
) -> anyhow::Result<()> {
    let file = path.display();
    if let Some(g) = &args.game {
        if setup::parse_game(g)? != game {
            bail!(
                "--game {g}: {file} is a saved {} game; a loaded game keeps its game (leave out --game)",
                game.name()
            );
        }
    }
    let players = v.get("players").and_then(|p| p.as_u64());
    if let Some(p) = args.players {
        if players != Some(p as u64) {
            bail!(
                "--players {p}: the game saved in {file} has {} players; a loaded game keeps its table (leave out --players)",
                players.unwrap_or_default()
            );
        }
    }
    setup::check_teams(game, args.teams)?;
    if let Some(t) = args.teams {
        let teams = v.get("teams").and_then(|p| p.as_u64());
        if teams != Some(t as u64) {
            bail!(
                "--teams {t}: the game saved in {file} has {} teams; a loaded game keeps its table (leave out --teams)",
                teams.unwrap_or_default()
            );
        }
    }
    if let Some(text) = &args.options {
        let given = setup::parse_options(game, Some(text))?;
        let saved = v.get("options").cloned().unwrap_or(serde_json::json!({}));
        if setup::parse_options(game, Some(&saved.to_string())).ok() != Some(given) {
            bail!(
                "--options {text}: the game saved in {file} has the options {saved}; a loaded game keeps its rules (leave out --options)"
            );
        }
    }
    Ok(())
}

/// The app `args` ask for: a loaded game, a new game, or the start screen.
/// Every argument is checked here, before any screen opens.
///
/// # Errors
/// Bad arguments (game, players, teams, bots, humans, options), arguments
/// that differ from a loaded record, or a record that cannot be read or
/// replayed, each naming what is wrong.
pub fn app_from_config(args: &PlayConfig) -> anyhow::Result<(App, u64)> {
    let seed = args.seed.unwrap_or_else(setup::clock_seed);
    if let Some(path) = &args.load {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let save = args.save.clone().unwrap_or_else(|| path.clone());
        // The record first: a broken file is named before the arguments.
        let app = App::load(&text, vec![], seed, save.clone())?;
        let (game, v) = sequence_common::record::detect_kind(&text)
            .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        check_load_args(args, game, &v, path)?;
        let Some(players) = v
            .get("players")
            .and_then(|p| p.as_u64())
            .and_then(|p| u8::try_from(p).ok())
        else {
            // App::load read the record, so this does not happen.
            return Ok((app, seed));
        };
        let seats = setup::seats_for(
            players,
            args.humans,
            &bot_levels(args)?,
            args.bots.is_some(),
        )?;
        let any_bot = seats.iter().any(|s| matches!(s, SeatKind::Bot(_)));
        let mut app = App::load(&text, seats, seed, save)?;
        if args.bots.is_none() && any_bot {
            app.notify(
                "Resumed: the bots play at level 1 (a record keeps no bot levels; give them with --bots).",
            );
        }
        return Ok((app, seed));
    }
    let setup = Setup::from_args(
        args.game.as_deref().unwrap_or("classic"),
        args.players,
        args.teams,
        args.bots.as_deref(),
        args.humans,
        Some(seed),
        args.options.clone(),
    )?;
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let save = args
        .save
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("sequence-{}-{stamp}.json", setup.game.name())));
    if args.no_menu {
        Ok((App::new_game(setup, save)?, seed))
    } else {
        Ok((App::start(setup, save), seed))
    }
}

/// Runs `sequence play`: [`app_from_config`], then [`run_app`].
///
/// # Errors
/// Bad arguments or record (before the screen opens), not a terminal, or a
/// terminal error.
pub fn run(args: PlayConfig) -> anyhow::Result<()> {
    let (app, seed) = app_from_config(&args)?;
    run_app(app, seed, Duration::from_millis(args.pause))
}

/// Plays `app` in the terminal; bots are seeded from `seed` and each bot
/// move waits `pause` before it is shown.
///
/// # Errors
/// Not a terminal, or a terminal error.
pub fn run_app(app: App, seed: u64, pause: Duration) -> anyhow::Result<()> {
    if !std::io::stdout().is_terminal() {
        anyhow::bail!("`sequence play` needs a terminal (stdout is not one)");
    }
    let mut terminal = ratatui::init();
    let _ = execute!(std::io::stdout(), EnableMouseCapture);
    let result = event_loop(&mut terminal, app, seed, pause);
    let _ = execute!(std::io::stdout(), DisableMouseCapture);
    ratatui::restore();
    if let Ok(Some(msg)) = &result {
        println!("{msg}");
    }
    result.map(|_| ())
}

/// The terminal loop: draws when something changed, reads keys, mouse and
/// resizes, sends bot jobs to a worker thread and shows each bot move after
/// `pause`. Returns the last notice (e.g. where the game was saved).
fn event_loop(
    terminal: &mut ratatui::DefaultTerminal,
    mut app: App,
    seed: u64,
    pause: Duration,
) -> anyhow::Result<Option<String>> {
    let (job_tx, job_rx) = mpsc::channel::<BotJob>();
    let (reply_tx, reply_rx) = mpsc::channel::<BotReply>();
    std::thread::Builder::new()
        .name("bots".into())
        .spawn(move || {
            let mut pool = BotPool::new(seed);
            for job in job_rx {
                let reply = pool.decide(&job);
                if reply_tx.send(reply).is_err() {
                    break;
                }
            }
        })?;
    let mut pending: Option<(Instant, Option<BotReply>)> = None;
    let mut dirty = true;
    let mut last_notice = None;
    loop {
        if dirty {
            terminal.draw(|f| app.draw(f))?;
            dirty = false;
        }
        if pending.is_none() {
            if let Some(job) = app.bot_job() {
                job_tx.send(job).context("the bot thread stopped")?;
                pending = Some((Instant::now(), None));
            }
        }
        if let Some((since, reply)) = &mut pending {
            if reply.is_none() {
                if let Ok(r) = reply_rx.try_recv() {
                    *reply = Some(r);
                }
            }
            if reply.is_some() && since.elapsed() >= pause {
                if let Some(r) = reply.take() {
                    app.bot_reply(r);
                }
                pending = None;
                dirty = true;
            }
        }
        if !event::poll(Duration::from_millis(25))? {
            continue;
        }
        let effects = match event::read()? {
            Event::Key(k) => app.handle_key(k),
            Event::Mouse(m) => app.handle_mouse(m),
            Event::Resize(_, _) => {
                terminal.autoresize()?;
                vec![]
            }
            _ => vec![],
        };
        dirty = true;
        for e in effects {
            match e {
                Effect::Save { path, text } => {
                    let r = std::fs::write(&path, text + "\n")
                        .map(|_| path.clone())
                        .map_err(|e| e.to_string());
                    last_notice = Some(match &r {
                        Ok(p) => format!("Game saved to {}", p.display()),
                        Err(e) => format!("Could not save to {}: {e}", path.display()),
                    });
                    tracing::info!("{last_notice:?}");
                    app.saved(r);
                }
                Effect::Quit => return Ok(last_notice),
            }
        }
    }
}
