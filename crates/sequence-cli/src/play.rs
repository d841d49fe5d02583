//! `sequence play`'s arguments, read into the terminal UI's
//! [`PlayConfig`].

use clap::Args;
use sequence_tui::PlayConfig;
use std::path::PathBuf;

/// `sequence play`: a terminal game, hot seat and bots.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// Game: `classic` (the default) or `stacks`.
    #[arg(long)]
    pub game: Option<String>,
    /// Number of players (classic 2, 3, 4, 6, 8, 9, 10 or 12 — C3; Stacks
    /// 2–6 — S1). Default: the people plus the bots, at least 2.
    #[arg(long)]
    pub players: Option<u8>,
    /// Number of teams (classic, C3): 2 or 3 where the player count allows
    /// both (6 and 12). Stacks has no teams.
    #[arg(long)]
    pub teams: Option<u8>,
    /// Bot levels (1 beginner … 5 very strong), one per bot seat after the
    /// people, e.g. `3,3`. Seats left over get level-1 bots. A list that
    /// takes every seat is refused unless `--humans 0` asks for a game of
    /// bots only. Default: level 1 for every seat but one. With `--load`,
    /// give the levels again: a record does not keep them.
    #[arg(long)]
    pub bots: Option<String>,
    /// People at this keyboard (hot seat); they take the first seats.
    /// Default: the seats `--bots` leaves, or 1.
    #[arg(long)]
    pub humans: Option<u8>,
    /// Seed of the deal (ChaCha8); default from the clock. A game with the
    /// same seed and moves is the same game.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Rule options as JSON, e.g. `{"sequence_length":4}` (RECORD.md /
    /// RECORD-STACKS.md `options`).
    #[arg(long)]
    pub options: Option<String>,
    /// Resume a saved unfinished game (a record file); `s` and `q` save back
    /// into it. The game, players, teams and options are the record's:
    /// `--game`, `--players`, `--teams` and `--options` may only repeat
    /// them. The record does not keep bot levels: its bots play at level 1
    /// (as in a new game) unless `--bots` gives their levels again.
    #[arg(long)]
    pub load: Option<PathBuf>,
    /// Where `s` and `q` save the record (default
    /// `sequence-<game>-<time>.json` in the current folder).
    #[arg(long)]
    pub save: Option<PathBuf>,
    /// Milliseconds a bot's move waits before it is shown.
    #[arg(long, default_value_t = sequence_tui::DEFAULT_PAUSE_MS)]
    pub pause: u64,
    /// Skip the start screen and deal at once.
    #[arg(long)]
    pub no_menu: bool,
}

impl From<PlayArgs> for PlayConfig {
    fn from(a: PlayArgs) -> Self {
        PlayConfig {
            game: a.game,
            players: a.players,
            teams: a.teams,
            bots: a.bots,
            humans: a.humans,
            seed: a.seed,
            options: a.options,
            load: a.load,
            save: a.save,
            pause: a.pause,
            no_menu: a.no_menu,
        }
    }
}
