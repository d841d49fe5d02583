//! What the Python classes hold, over the workspace's one type-erased
//! game: a [`Game`] is a `Box<dyn AnyEnv>` (a [`sequence_common::AnyGame`]
//! with its environment encodings, `sequence_bots::env::any`), a [`View`]
//! a `Box<dyn AnyView>`, a bot a `Box<dyn AnyBot>`; this module only says
//! each refusal as a [`Failure`] with a stable code (each a Python
//! exception) and gives seats as the integers Python sees. The entry
//! points ([`new_game`], [`game_from_record`], [`verify`], [`replay`],
//! [`new_bot`]) turn a [`GameKind`] into the game's type through the
//! workspace's registration ([`sequence_bots::with_game`]); nothing here
//! names a game.

use sequence_bots::env::any::{self as anyenv, AnyEnv};
use sequence_bots::{AnyBot, AnyBotError};
use sequence_common::{AnyView, GameKind, Refusal, Seat};
use serde_json::Value;
use std::ops::Deref;

mod failure;
mod start;

pub use failure::{Failure, FailureKind, RecordDetail};
pub use sequence_bots::env::any::move_fields;
pub use sequence_bots::env::MoveFields;
pub use sequence_common::AnyMove;
pub use start::{
    action_text, game_from_pickle, game_from_record, move_from_state, move_keys, new_bot, new_game,
    option_failure, read_record, record_kind, replay, setup_codes, verify, written_with, Step,
    MAX_BUF,
};

fn check_seat(players: u8, seat: u8) -> Result<Seat, Failure> {
    if seat < players {
        Ok(Seat(seat))
    } else {
        Err(Failure::usage(
            "seat.no_such_seat",
            format!(
                "seat {seat} does not exist ({players} players: seats 0 to {})",
                players - 1
            ),
        ))
    }
}

fn wrong_game(want: GameKind, got: &AnyMove) -> Failure {
    Failure::usage(
        "move.wrong_game",
        format!("a {} move given to a {} game", got.kind(), want),
    )
}

impl Failure {
    fn refusal(r: &Refusal) -> Failure {
        Failure::new(FailureKind::IllegalMove, r.code, r.text.clone())
    }
}

/// A live game of either kind as a Python `Game` holds it. The game's own
/// methods ([`AnyEnv`], [`sequence_common::AnyGame`]) are reached through
/// it; the methods here take and give seats as integers and refuse with a
/// [`Failure`].
pub struct Game(Box<dyn AnyEnv>);

impl Deref for Game {
    type Target = dyn AnyEnv;
    fn deref(&self) -> &(dyn AnyEnv + 'static) {
        self.0.as_ref()
    }
}

impl From<Box<dyn AnyEnv>> for Game {
    fn from(g: Box<dyn AnyEnv>) -> Game {
        Game(g)
    }
}

impl Game {
    /// An independent copy (same generator state: the copy reshuffles as
    /// the original would).
    pub fn boxed_clone(&self) -> Game {
        Game(self.0.clone_env())
    }

    /// The side of a seat.
    ///
    /// # Errors
    /// A seat not at the table.
    pub fn side_of(&self, seat: u8) -> Result<u8, Failure> {
        Ok(self.0.side_of(check_seat(self.0.players(), seat)?))
    }

    /// The dealer.
    pub fn dealer(&self) -> u8 {
        self.0.dealer().0
    }

    /// The rule options as a record writes them.
    pub fn options(&self) -> Value {
        self.0.options_json()
    }

    /// The seat that must decide; `None` once over.
    pub fn to_act(&self) -> Option<u8> {
        self.0.to_act().map(|s| s.0)
    }

    /// The last move and its seat.
    pub fn last_move(&self) -> Option<(u8, AnyMove)> {
        self.0.last_move().map(|(s, m)| (s.0, m))
    }

    /// The moves recorded so far.
    pub fn history(&self) -> Vec<(u8, AnyMove)> {
        self.0
            .history()
            .into_iter()
            .map(|(s, m)| (s.0, m))
            .collect()
    }

    /// The seat that makes `mv` — `seat` (checked against the players),
    /// else the seat to act.
    ///
    /// # Errors
    /// A move of another game, a seat out of range, the game over.
    fn seat_for(&self, seat: Option<u8>, mv: &AnyMove) -> Result<Seat, Failure> {
        if mv.kind() != self.0.kind() {
            return Err(wrong_game(self.0.kind(), mv));
        }
        if let Some(seat) = seat {
            check_seat(self.0.players(), seat)?;
        }
        match seat.map(Seat).or_else(|| self.0.to_act()) {
            Some(seat) => Ok(seat),
            None => Err(self.game_over(mv)),
        }
    }

    fn game_over(&self, mv: &AnyMove) -> Failure {
        // The engine's own refusal names the rule (C9 / S7).
        match self.0.check(Seat(0), mv) {
            Err(e) => Failure::refusal(&e),
            Ok(()) => Failure::usage("game.over", "the game is over"),
        }
    }

    /// Whether `seat` (default: the seat to act) may make `mv`; the seat.
    ///
    /// # Errors
    /// The rule it breaks.
    pub fn check(&self, seat: Option<u8>, mv: &AnyMove) -> Result<u8, Failure> {
        let seat = self.seat_for(seat, mv)?;
        self.0
            .check(seat, mv)
            .map(|()| seat.0)
            .map_err(|e| Failure::refusal(&e))
    }

    /// Checks and makes `mv`.
    ///
    /// # Errors
    /// The rule it breaks; nothing changes then.
    pub fn play(&mut self, seat: Option<u8>, mv: &AnyMove) -> Result<(), Failure> {
        let seat = self.seat_for(seat, mv)?;
        self.0.play_move(seat, mv).map_err(|e| Failure::refusal(&e))
    }

    /// Reads a move entry (record or input form); without `seat` the move
    /// is the seat to act's.
    ///
    /// # Errors
    /// [`FailureKind::Notation`] naming the field.
    pub fn parse_move(&self, v: &Value) -> Result<(u8, AnyMove), Failure> {
        let mut v = v.clone();
        if let Value::Object(o) = &mut v {
            if !o.contains_key("seat") {
                // Once over no seat acts: seat 0 stands in, so that the
                // move reads and `play` can say the game is over.
                o.insert("seat".into(), Value::from(self.to_act().unwrap_or(0)));
            }
        }
        self.0
            .parse_move(&v)
            .map(|(s, m)| (s.0, m))
            .map_err(|e| Failure::new(FailureKind::Notation, e.code(), e.to_string()))
    }

    /// What `seat` may see (`None`: a spectator).
    ///
    /// # Errors
    /// A seat not at the table.
    pub fn view(&self, seat: Option<u8>) -> Result<View, Failure> {
        let seat = seat.map(|s| check_seat(self.0.players(), s)).transpose()?;
        Ok(View(self.0.view(seat)))
    }

    /// The record so far (JSON).
    ///
    /// # Errors
    /// A game without a record (one dealt from a view).
    pub fn record(&self) -> Result<Value, Failure> {
        self.0.record_json().ok_or_else(|| {
            Failure::usage(
                "record.none",
                "this game has no record (it was dealt from a view, not from a seed or a record)",
            )
        })
    }

    /// What `seat` may see, encoded into `out` (length
    /// [`AnyEnv::obs_len`]).
    ///
    /// # Errors
    /// A seat not at the table, or `out` of the wrong length.
    pub fn observe(&self, seat: u8, out: &mut [u8]) -> Result<(), Failure> {
        let s = check_seat(self.0.players(), seat)?;
        if out.len() != self.0.obs_len() {
            return Err(Failure::usage(
                "env.observation_length",
                format!(
                    "the observation has {} entries, not {}",
                    self.0.obs_len(),
                    out.len()
                ),
            ));
        }
        self.0.observe(s, out);
        Ok(())
    }

    /// The action index of a move of the seat to act.
    ///
    /// # Errors
    /// The game is over, or the move is the other game's.
    pub fn action_of(&self, mv: &AnyMove) -> Result<usize, Failure> {
        if mv.kind() != self.0.kind() {
            return Err(wrong_game(self.0.kind(), mv));
        }
        let seat = self.0.to_act().ok_or_else(|| self.game_over(mv))?;
        self.0
            .action_of(seat, mv)
            .ok_or_else(|| wrong_game(self.0.kind(), mv))
    }

    /// The legal move an action stands for now.
    ///
    /// # Errors
    /// [`FailureKind::Action`]: outside the mask.
    pub fn move_of_action(&self, action: i64) -> Result<AnyMove, Failure> {
        self.0
            .move_of_action(action)
            .map(|(_, m)| m)
            .map_err(|e| Failure::new(FailureKind::Action, e.code, e.to_string()))
    }

    /// Makes the legal move an action stands for.
    ///
    /// # Errors
    /// [`FailureKind::Action`]: outside the mask; nothing changes then.
    pub fn play_action(&mut self, action: i64) -> Result<(), Failure> {
        self.0
            .play_action(action)
            .map_err(|e| Failure::new(FailureKind::Action, e.code, e.to_string()))
    }

    /// +1 / −1 / 0 for `seat` (its side won, lost, or neither).
    ///
    /// # Errors
    /// A seat not at the table.
    pub fn reward(&self, seat: u8) -> Result<f32, Failure> {
        Ok(self.0.reward(check_seat(self.0.players(), seat)?))
    }

    /// Replaces the generator later reshuffles draw from (unpickling).
    pub fn set_rng(&mut self, rng: sequence_common::rng::GameRng) {
        self.0.set_rng(rng);
    }

    /// A uniformly random legal move drawn from the game's own generator.
    pub fn random_move(&mut self) -> Option<AnyMove> {
        self.0.random_move()
    }

    /// Plays random legal moves (from the game's generator) until the end
    /// or `max_moves`; how many were made.
    pub fn playout(&mut self, max_moves: u32) -> u32 {
        self.0.playout(max_moves)
    }
}

/// What one seat (or a spectator) may see, of either game, as a Python
/// `View` holds it.
pub struct View(Box<dyn AnyView>);

impl Deref for View {
    type Target = dyn AnyView;
    fn deref(&self) -> &(dyn AnyView + 'static) {
        self.0.as_ref()
    }
}

impl View {
    /// The view behind [`AnyView`] (its table known, so that its moves
    /// write their entries).
    pub fn new(view: Box<dyn AnyView>) -> View {
        View(view)
    }

    /// A copy.
    pub fn boxed_clone(&self) -> View {
        View(self.0.clone_box())
    }

    /// The view's seat; `None` for a spectator.
    pub fn seat(&self) -> Option<u8> {
        self.0.seat().map(|s| s.0)
    }

    /// The seat that must decide now.
    pub fn to_act(&self) -> Option<u8> {
        self.0.to_act().map(|s| s.0)
    }

    /// A whole game consistent with the view, the unseen cards dealt from
    /// `seed`; it reshuffles from the same seed and keeps no record.
    ///
    /// # Errors
    /// A view that does not add up (never for a view made here).
    pub fn determinize(&self, seed: u64) -> Result<Game, Failure> {
        anyenv::determinize(self.0.as_ref(), seed)
            .map(Game)
            .map_err(|e| Failure::usage("view.inconsistent", e.to_string()))
    }
}

/// One of the view's legal moves, chosen by `bot`.
///
/// # Errors
/// A view of the other game, a view whose seat need not decide, or a
/// program bot that failed.
pub fn choose(bot: &mut dyn AnyBot, view: &View) -> Result<AnyMove, Failure> {
    if bot.kind() != view.kind() {
        return Err(Failure::usage(
            "bot.wrong_game",
            format!("a {} bot was given a {} view", bot.kind(), view.kind()),
        ));
    }
    if view.seat().is_none() || view.to_act() != view.seat() {
        return Err(Failure::usage(
            "bot.not_to_act",
            "the view's seat does not have to decide now (give the bot the view of the seat to act)",
        ));
    }
    bot.choose_any(view.0.as_ref()).map_err(|e| match e {
        AnyBotError::WrongGame { .. } => Failure::usage("bot.wrong_game", e.to_string()),
        AnyBotError::Failed(f) => Failure::new(FailureKind::Bot, "bot.failed", f.to_string()),
    })
}
