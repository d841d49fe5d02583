//! The object-safe core the Python classes hold: [`DynGame`], [`DynView`]
//! and [`DynBot`], implemented once for every game the workspace
//! registers ([`sequence_bots::with_game`]; each game's encodings are its
//! [`EnvGame`]), with moves as [`sequence_common::AnyMove`] and every
//! refusal as a [`Failure`] carrying a stable code. The entry points
//! ([`new_game`], [`game_from_record`], [`verify`], [`replay`],
//! [`new_bot`]) turn a [`GameKind`] into the game's type through that
//! registration; nothing here names a game.

use crate::env::{self, EnvGame, ObsPart};
use crate::session::Session;
use sequence_bots::{with_game, ForGame};
use sequence_common::{GameKind, MoveList, Outcome, Rules, Seat, TableConfig};
use serde_json::Value;
use std::any::Any;
use std::sync::Arc;

mod failure;
mod start;
mod view;

pub use failure::{Failure, FailureKind, RecordDetail};
pub use sequence_bots::env::MoveFields;
pub use sequence_common::AnyMove;
pub use start::{
    action_text, game_from_pickle, game_from_record, move_from_state, move_keys, new_bot, new_game,
    no_teams, option_failure, read_record, record_kind, replay, setup_codes, verify, written_with,
    Step,
};
pub use view::{boxed_view, DynBot, DynView, ViewBox};

/// Room for one observation or one mask on the stack: every registered
/// game's fit ([`Fits`]).
pub const MAX_BUF: usize = 1024;

/// Checked when the game's [`DynGame`] is made (so for every registered
/// game): its observation and its mask fit in [`MAX_BUF`].
struct Fits<G>(std::marker::PhantomData<G>);

impl<G: EnvGame> Fits<G> {
    const OK: () = assert!(G::OBS_LEN <= MAX_BUF && G::ACTIONS <= MAX_BUF);
}

/// A move of `G` at the table `config`, as the Python classes hold it.
pub(crate) fn wrap<G: EnvGame>(m: G::Move, config: &G::Config) -> AnyMove {
    AnyMove::at::<G>(m, Arc::new(config.clone()))
}

/// A move's parts by name ([`EnvGame::move_fields`]), for the Python
/// `Move`'s properties.
pub fn move_fields(mv: &AnyMove) -> MoveFields {
    struct Fields<'a>(&'a AnyMove);
    impl ForGame for Fields<'_> {
        type Out = MoveFields;
        fn call<G: EnvGame>(self) -> MoveFields {
            match (self.0.get::<G>(), self.0.table::<G>()) {
                (Some(m), Some(c)) => G::move_fields(&m, c),
                _ => MoveFields::default(),
            }
        }
    }
    with_game(mv.kind(), Fields(mv))
}

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

/// A live game of either game (see [`Session`]).
pub trait DynGame: Send + Sync {
    /// Which game.
    fn kind(&self) -> GameKind;
    /// An independent copy (same generator state: the copy reshuffles as
    /// the original would).
    fn boxed_clone(&self) -> Box<dyn DynGame>;
    /// Seats.
    fn players(&self) -> u8;
    /// Teams (classic), `None` in Stacks.
    fn teams(&self) -> Option<u8>;
    /// Sides: teams, or seats.
    fn sides(&self) -> u8;
    /// The side of a seat.
    ///
    /// # Errors
    /// A seat not at the table.
    fn side_of(&self, seat: u8) -> Result<u8, Failure>;
    /// The dealer.
    fn dealer(&self) -> u8;
    /// The rule options as a record writes them.
    fn options(&self) -> Value;
    /// The seat that must decide; `None` once over.
    fn to_act(&self) -> Option<u8>;
    /// Where the game stands.
    fn outcome(&self) -> Outcome;
    /// Moves made.
    fn ply(&self) -> u32;
    /// The last move and its seat.
    fn last_move(&self) -> Option<(u8, AnyMove)>;
    /// The legal moves of the seat to act.
    fn legal_moves(&self) -> Vec<AnyMove>;
    /// The seat to act's legal moves' engine keys, into `out`.
    fn legal_keys(&self, out: &mut Vec<usize>);
    /// The move of an engine key among the legal moves, if legal.
    fn legal_move_of_key(&self, key: usize) -> Option<AnyMove>;
    /// Whether `seat` (default: the seat to act) may make `mv`; the seat.
    ///
    /// # Errors
    /// The rule it breaks.
    fn check(&self, seat: Option<u8>, mv: &AnyMove) -> Result<u8, Failure>;
    /// Checks and makes `mv`.
    ///
    /// # Errors
    /// The rule it breaks; nothing changes then.
    fn play(&mut self, seat: Option<u8>, mv: &AnyMove) -> Result<(), Failure>;
    /// Reads a move entry (record or input form); without `seat` the move
    /// is the seat to act's.
    ///
    /// # Errors
    /// [`FailureKind::Notation`] naming the field.
    fn parse_move(&self, v: &Value) -> Result<(u8, AnyMove), Failure>;
    /// What `seat` may see (`None`: a spectator).
    ///
    /// # Errors
    /// A seat not at the table.
    fn view(&self, seat: Option<u8>) -> Result<Box<dyn DynView>, Failure>;
    /// The record so far (JSON).
    ///
    /// # Errors
    /// A game without a record (one dealt from a view).
    fn record(&self) -> Result<Value, Failure>;
    /// The moves recorded so far.
    fn history(&self) -> Vec<(u8, AnyMove)>;
    /// What `sequence verify` prints for this game after its moves.
    fn summary(&self) -> Value;
    /// The public state as text.
    fn render(&self) -> String;
    /// Actions in the action space.
    fn actions(&self) -> usize;
    /// The observation's parts.
    fn obs_layout(&self) -> Vec<ObsPart>;
    /// The observation's length.
    fn obs_len(&self) -> usize;
    /// Each observation entry's largest value.
    fn obs_high(&self) -> Vec<u8>;
    /// What `seat` may see, encoded into `out` (length [`DynGame::obs_len`]).
    ///
    /// # Errors
    /// A seat not at the table, or `out` of the wrong length.
    fn observe(&self, seat: u8, out: &mut [u8]) -> Result<(), Failure>;
    /// The mask of the seat to act into `out`; the number of legal moves.
    fn action_mask(&self, out: &mut [u8]) -> usize;
    /// The action index of a move of the seat to act.
    ///
    /// # Errors
    /// The game is over, or the move is the other game's.
    fn action_of(&self, mv: &AnyMove) -> Result<usize, Failure>;
    /// The legal move an action stands for now.
    ///
    /// # Errors
    /// [`FailureKind::Action`]: outside the mask.
    fn move_of_action(&self, action: i64) -> Result<AnyMove, Failure>;
    /// What an action index means.
    fn action_text(&self, action: usize) -> String;
    /// Makes the legal move an action stands for.
    ///
    /// # Errors
    /// [`FailureKind::Action`]: outside the mask; nothing changes then.
    fn play_action(&mut self, action: i64) -> Result<(), Failure>;
    /// A uniformly random legal move drawn from the game's own generator.
    fn random_move(&mut self) -> Option<AnyMove>;
    /// Plays random legal moves (from the game's generator) until the end
    /// or `max_moves`; how many were made.
    fn playout(&mut self, max_moves: u32) -> u32;
    /// +1 / −1 / 0 for `seat` (its side won, lost, or neither).
    ///
    /// # Errors
    /// A seat not at the table.
    fn reward(&self, seat: u8) -> Result<f32, Failure>;
    /// For downcasting (bots).
    fn as_any(&self) -> &dyn Any;
    /// The generator later reshuffles draw from (pickling).
    fn rng(&self) -> sequence_common::rng::GameRng;
    /// Replaces that generator (unpickling).
    fn set_rng(&mut self, rng: sequence_common::rng::GameRng);
    /// For a game without a record that can be rebuilt (a `replay` step,
    /// a Stacks determinization): its trail's JSON
    /// ([`crate::trail::Trail::to_json`]).
    fn trail(&self) -> Option<Value>;
    /// The moves made since the record's last entry that records do not
    /// write (Stacks: the declines of a Block window still open, S5b), as
    /// input entries (pickling: [`game_from_pickle`]).
    fn unwritten(&self) -> Vec<Value>;
}

impl<G: EnvGame> DynGame for Session<G> {
    fn kind(&self) -> GameKind {
        G::KIND
    }

    fn boxed_clone(&self) -> Box<dyn DynGame> {
        Box::new(self.clone())
    }

    fn players(&self) -> u8 {
        self.game().players()
    }

    fn teams(&self) -> Option<u8> {
        self.game().config().team_count()
    }

    fn sides(&self) -> u8 {
        self.game().sides()
    }

    fn side_of(&self, seat: u8) -> Result<u8, Failure> {
        let s = check_seat(self.players(), seat)?;
        Ok(self.game().side_of(s))
    }

    fn dealer(&self) -> u8 {
        self.game().dealer().0
    }

    fn options(&self) -> Value {
        G::options_to_json(self.game().config().rule_options())
    }

    fn to_act(&self) -> Option<u8> {
        self.game().to_act().map(|s| s.0)
    }

    fn outcome(&self) -> Outcome {
        self.game().outcome()
    }

    fn ply(&self) -> u32 {
        self.game().ply()
    }

    fn last_move(&self) -> Option<(u8, AnyMove)> {
        let c = self.game().config();
        self.game().last_move().map(|(s, m)| (s.0, wrap::<G>(m, c)))
    }

    fn legal_moves(&self) -> Vec<AnyMove> {
        let mut v = Vec::new();
        self.game().legal_moves(&mut v);
        let c = Arc::new(self.game().config().clone());
        v.into_iter()
            .map(|m| AnyMove::at::<G>(m, c.clone()))
            .collect()
    }

    fn legal_keys(&self, out: &mut Vec<usize>) {
        let mut list: MoveList<G::Move, 256> = MoveList::new();
        self.game().legal_moves(&mut list);
        out.clear();
        out.extend(list.iter().map(G::move_key));
    }

    fn legal_move_of_key(&self, key: usize) -> Option<AnyMove> {
        let mut list: MoveList<G::Move, 256> = MoveList::new();
        self.game().legal_moves(&mut list);
        let c = self.game().config();
        list.iter()
            .find(|m| G::move_key(m) == key)
            .map(|m| wrap::<G>(*m, c))
    }

    fn check(&self, seat: Option<u8>, mv: &AnyMove) -> Result<u8, Failure> {
        let (seat, m) = seat_and_move(self, seat, mv)?;
        self.game()
            .check(seat, m)
            .map(|()| seat.0)
            .map_err(|e| Failure::rule(&e))
    }

    fn play(&mut self, seat: Option<u8>, mv: &AnyMove) -> Result<(), Failure> {
        let (seat, m) = seat_and_move(self, seat, mv)?;
        Session::play(self, seat, m).map_err(|e| Failure::rule(&e))
    }

    fn parse_move(&self, v: &Value) -> Result<(u8, AnyMove), Failure> {
        let mut v = v.clone();
        if let Value::Object(o) = &mut v {
            if !o.contains_key("seat") {
                // Once over no seat acts: seat 0 stands in, so that the
                // move reads and `play` can say the game is over.
                o.insert("seat".into(), Value::from(self.to_act().unwrap_or(0)));
            }
        }
        let c = self.game().config();
        G::move_from_input(&v, c)
            .map(|(s, m)| (s.0, wrap::<G>(m, c)))
            .map_err(|e| Failure::new(FailureKind::Notation, e.code(), e.to_string()))
    }

    fn view(&self, seat: Option<u8>) -> Result<Box<dyn DynView>, Failure> {
        let view = match seat {
            Some(s) => self.game().view(check_seat(self.players(), s)?),
            None => self.game().spectator_view(),
        };
        Ok(boxed_view::<G>(view, self.game().config().clone()))
    }

    fn record(&self) -> Result<Value, Failure> {
        Session::record(self).map(|r| r.to_json()).ok_or_else(|| {
            Failure::usage(
                "record.none",
                "this game has no record (it was dealt from a view, not from a seed or a record)",
            )
        })
    }

    fn history(&self) -> Vec<(u8, AnyMove)> {
        let c = Arc::new(self.game().config().clone());
        Session::history(self)
            .iter()
            .map(|(s, m)| (s.0, AnyMove::at::<G>(*m, c.clone())))
            .collect()
    }

    fn summary(&self) -> Value {
        self.game().summary(Session::history(self).len())
    }

    fn render(&self) -> String {
        self.game().render()
    }

    fn actions(&self) -> usize {
        G::ACTIONS
    }

    fn obs_layout(&self) -> Vec<ObsPart> {
        G::obs_layout(self.game().config())
    }

    fn obs_len(&self) -> usize {
        let () = Fits::<G>::OK;
        G::obs_len(self.game().config())
    }

    fn obs_high(&self) -> Vec<u8> {
        G::obs_high(self.game().config())
    }

    fn observe(&self, seat: u8, out: &mut [u8]) -> Result<(), Failure> {
        let s = check_seat(self.players(), seat)?;
        if out.len() != self.obs_len() {
            return Err(Failure::usage(
                "env.observation_length",
                format!(
                    "the observation has {} entries, not {}",
                    self.obs_len(),
                    out.len()
                ),
            ));
        }
        self.game().observe(s, out);
        Ok(())
    }

    fn action_mask(&self, out: &mut [u8]) -> usize {
        env::action_mask(self.game(), out)
    }

    fn action_of(&self, mv: &AnyMove) -> Result<usize, Failure> {
        let m = mv.get::<G>().ok_or_else(|| wrong_game(G::KIND, mv))?;
        let seat = self
            .game()
            .to_act()
            .ok_or_else(|| game_over::<G>(self.game(), m))?;
        Ok(self.game().action_of(seat, &m))
    }

    fn move_of_action(&self, action: i64) -> Result<AnyMove, Failure> {
        env::legal_move_of(self.game(), action)
            .map(|(_, m)| wrap::<G>(m, self.game().config()))
            .map_err(|e| Failure::new(FailureKind::Action, e.code, e.to_string()))
    }

    fn action_text(&self, action: usize) -> String {
        G::action_text(action)
    }

    fn play_action(&mut self, action: i64) -> Result<(), Failure> {
        let (seat, m) = env::legal_move_of(self.game(), action)
            .map_err(|e| Failure::new(FailureKind::Action, e.code, e.to_string()))?;
        Session::play(self, seat, m).map_err(|e| Failure::rule(&e))
    }

    fn random_move(&mut self) -> Option<AnyMove> {
        Session::random_move(self).map(|m| wrap::<G>(m, self.game().config()))
    }

    fn playout(&mut self, max_moves: u32) -> u32 {
        let mut n = 0;
        while n < max_moves {
            let Some(seat) = self.game().to_act() else {
                break;
            };
            let Some(m) = Session::random_move(self) else {
                break;
            };
            if Session::play(self, seat, m).is_err() {
                break;
            }
            n += 1;
        }
        n
    }

    fn reward(&self, seat: u8) -> Result<f32, Failure> {
        let s = check_seat(self.players(), seat)?;
        Ok(env::reward(self.game(), s))
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn rng(&self) -> sequence_common::rng::GameRng {
        Session::rng(self).clone()
    }

    fn set_rng(&mut self, rng: sequence_common::rng::GameRng) {
        Session::set_rng(self, rng)
    }

    fn trail(&self) -> Option<Value> {
        Session::trail(self).map(|t| t.to_json(self.game().config()))
    }

    fn unwritten(&self) -> Vec<Value> {
        Session::unwritten(self)
    }
}

/// The seat that makes `mv` in `s` — `seat` (checked against the
/// players), else the seat to act — and the move as the game `G`'s.
///
/// # Errors
/// A move of another game, a seat out of range, the game over.
fn seat_and_move<G: EnvGame>(
    s: &Session<G>,
    seat: Option<u8>,
    mv: &AnyMove,
) -> Result<(Seat, G::Move), Failure> {
    let m = mv.get::<G>().ok_or_else(|| wrong_game(G::KIND, mv))?;
    if let Some(seat) = seat {
        check_seat(s.players(), seat)?;
    }
    match seat.or_else(|| s.to_act()) {
        Some(seat) => Ok((Seat(seat), m)),
        None => Err(game_over::<G>(s.game(), m)),
    }
}

fn game_over<G: Rules>(g: &G, m: G::Move) -> Failure {
    // The engine's own refusal names the rule (C9 / S7).
    match g.check(Seat(0), m) {
        Err(e) => Failure::rule(&e),
        Ok(()) => Failure::usage("game.over", "the game is over"),
    }
}
