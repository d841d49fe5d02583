//! The object-safe core the Python classes hold: [`DynGame`], [`DynView`]
//! and [`DynBot`], implemented once for every [`DynEngine`] (both games),
//! with moves as [`AnyMove`] and every refusal as a [`Failure`] carrying a
//! stable code. The only `match` on [`GameKind`] is in the entry points
//! ([`new_game`], [`game_from_record`], [`verify`], [`replay`],
//! [`new_bot`]) that pick the concrete game.

use crate::env::{self, EnvGame, ObsPart};
use crate::session::Session;
use sequence_common::record::{detect_kind, ReplayError};
use sequence_common::{GameKind, MoveList, Notation, Outcome, Rules, Seat, TableConfig};
use serde_json::Value;
use std::any::Any;

mod anymove;
mod failure;
mod view;

pub use anymove::{AnyMove, MoveFields};
pub use failure::{Failure, FailureKind, RecordDetail};
use view::BotBox;
pub use view::{boxed_view, DynBot, DynView, ViewBox};

/// What a game needs to be held behind [`DynGame`]: its environment
/// encodings, its notation, its bots, and the wrapping of its moves.
pub trait DynEngine: EnvGame + Notation {
    /// Wraps a move.
    fn wrap(m: Self::Move, config: &Self::Config) -> AnyMove;
    /// The move, if it is one of this game's.
    fn unwrap(m: &AnyMove) -> Option<Self::Move>;
}

impl DynEngine for sequence_classic::Game {
    fn wrap(m: sequence_classic::Move, config: &sequence_classic::Config) -> AnyMove {
        AnyMove::Classic(m, config.sequence_length())
    }

    fn unwrap(m: &AnyMove) -> Option<sequence_classic::Move> {
        match m {
            AnyMove::Classic(m, _) => Some(*m),
            AnyMove::Stacks(_) => None,
        }
    }
}

impl DynEngine for sequence_stacks::Game {
    fn wrap(d: sequence_stacks::Decision, _config: &sequence_stacks::Config) -> AnyMove {
        AnyMove::Stacks(d)
    }

    fn unwrap(m: &AnyMove) -> Option<sequence_stacks::Decision> {
        match m {
            AnyMove::Stacks(d) => Some(*d),
            AnyMove::Classic(..) => None,
        }
    }
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

impl<G: DynEngine> DynGame for Session<G> {
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
        self.game().last_move().map(|(s, m)| (s.0, G::wrap(m, c)))
    }

    fn legal_moves(&self) -> Vec<AnyMove> {
        let mut v = Vec::new();
        self.game().legal_moves(&mut v);
        let c = self.game().config();
        v.into_iter().map(|m| G::wrap(m, c)).collect()
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
            .map(|m| G::wrap(*m, c))
    }

    fn check(&self, seat: Option<u8>, mv: &AnyMove) -> Result<u8, Failure> {
        let m = G::unwrap(mv).ok_or_else(|| wrong_game(G::KIND, mv))?;
        if let Some(s) = seat {
            check_seat(self.players(), s)?;
        }
        let seat = match seat.or_else(|| self.to_act()) {
            Some(s) => Seat(s),
            None => return Err(game_over::<G>(self.game(), m)),
        };
        self.game()
            .check(seat, m)
            .map(|()| seat.0)
            .map_err(|e| Failure::rule(&e))
    }

    fn play(&mut self, seat: Option<u8>, mv: &AnyMove) -> Result<(), Failure> {
        let m = G::unwrap(mv).ok_or_else(|| wrong_game(G::KIND, mv))?;
        if let Some(s) = seat {
            check_seat(self.players(), s)?;
        }
        let seat = match seat.or_else(|| self.to_act()) {
            Some(s) => Seat(s),
            None => return Err(game_over::<G>(self.game(), m)),
        };
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
            .map(|(s, m)| (s.0, G::wrap(m, c)))
            .map_err(|e| Failure::new(FailureKind::Notation, e.code(), e.to_string()))
    }

    fn view(&self, seat: Option<u8>) -> Result<Box<dyn DynView>, Failure> {
        Ok(Box::new(ViewBox::<G> {
            view: match seat {
                Some(s) => self.game().view(check_seat(self.players(), s)?),
                None => self.game().spectator_view(),
            },
            config: self.game().config().clone(),
        }))
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
        let c = self.game().config();
        Session::history(self)
            .iter()
            .map(|(s, m)| (s.0, G::wrap(*m, c)))
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
        let m = G::unwrap(mv).ok_or_else(|| wrong_game(G::KIND, mv))?;
        let seat = self
            .game()
            .to_act()
            .ok_or_else(|| game_over::<G>(self.game(), m))?;
        Ok(self.game().action_of(seat, &m))
    }

    fn move_of_action(&self, action: i64) -> Result<AnyMove, Failure> {
        env::legal_move_of(self.game(), action)
            .map(|(_, m)| G::wrap(m, self.game().config()))
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
        Session::random_move(self).map(|m| G::wrap(m, self.game().config()))
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

fn game_over<G: Rules>(g: &G, m: G::Move) -> Failure {
    // The engine's own refusal names the rule (C9 / S7).
    match g.check(Seat(0), m) {
        Err(e) => Failure::rule(&e),
        Ok(()) => Failure::usage("game.over", "the game is over"),
    }
}

/// The refusal of rule options that cannot be read (an unknown name, a
/// value of the wrong type): the game's option rule (C11, S3a).
pub fn option_failure(kind: GameKind, message: String) -> Failure {
    let code = match kind {
        GameKind::Classic => "C11.option",
        GameKind::Stacks => "S3a.option",
    };
    Failure::new(FailureKind::Setup, code, message)
}

fn new_session<G: DynEngine>(
    players: u8,
    teams: Option<u8>,
    options: Option<&Value>,
    seed: u64,
) -> Result<Box<dyn DynGame>, Failure> {
    let options = G::options_from_json(options).map_err(|m| option_failure(G::KIND, m))?;
    let config = G::table(players, teams, options).map_err(|e| Failure::setup(&e))?;
    Ok(Box::new(Session::<G>::new(config, seed)))
}

/// A new game dealt from `seed` (ChaCha8, as the rules say: the same deal
/// as `sequence selfplay --seed`).
///
/// # Errors
/// [`FailureKind::Setup`] for a table or options that break the rules; a
/// team count given to Stacks.
pub fn new_game(
    kind: GameKind,
    players: u8,
    teams: Option<u8>,
    options: Option<&Value>,
    seed: u64,
) -> Result<Box<dyn DynGame>, Failure> {
    match kind {
        GameKind::Classic => new_session::<sequence_classic::Game>(players, teams, options, seed),
        GameKind::Stacks => {
            if teams.is_some() {
                return Err(Failure::new(
                    FailureKind::Setup,
                    "S1.teams",
                    "Sequence Stacks has no teams: each seat plays alone (S1)",
                ));
            }
            new_session::<sequence_stacks::Game>(players, None, options, seed)
        }
    }
}

/// Reads a record's text: its game and JSON.
///
/// # Errors
/// [`FailureKind::Record`] (malformed, exit code 2).
pub fn read_record(text: &str) -> Result<(GameKind, Value), Failure> {
    detect_kind(text).map_err(|e| Failure::from_replay(&ReplayError::Malformed(e)))
}

/// Tells which game a record (already parsed) is.
///
/// # Errors
/// [`FailureKind::Record`] (malformed, exit code 2).
pub fn record_kind(v: &Value) -> Result<GameKind, Failure> {
    let text = v.to_string();
    read_record(&text).map(|(k, _)| k)
}

/// Replays a record into a live game that goes on (later reshuffles drawn
/// from `seed`).
///
/// # Errors
/// [`FailureKind::Record`] with `sequence verify`'s message.
pub fn game_from_record(v: &Value, seed: u64) -> Result<Box<dyn DynGame>, Failure> {
    fn go<G: DynEngine>(v: &Value, seed: u64) -> Result<Box<dyn DynGame>, Failure> {
        Session::<G>::from_record(v, seed)
            .map(|s| Box::new(s) as Box<dyn DynGame>)
            .map_err(|e| Failure::from_replay(&e))
    }
    match record_kind(v)? {
        GameKind::Classic => go::<sequence_classic::Game>(v, seed),
        GameKind::Stacks => go::<sequence_stacks::Game>(v, seed),
    }
}

/// Rebuilds a pickled game: its record as it stood after its last entry
/// (a Stacks Block window left open, S5b), then the `unwritten` moves made
/// since ([`DynGame::unwritten`]), with `rng` as its generator.
///
/// # Errors
/// [`FailureKind::Record`] for a record that does not replay;
/// [`FailureKind::Usage`] `pickle.state` for unwritten moves that cannot
/// be made.
pub fn game_from_pickle(
    v: &Value,
    unwritten: &[Value],
    rng: sequence_common::rng::GameRng,
) -> Result<Box<dyn DynGame>, Failure> {
    fn go<G: DynEngine>(
        v: &Value,
        unwritten: &[Value],
        rng: sequence_common::rng::GameRng,
    ) -> Result<Box<dyn DynGame>, Failure> {
        use crate::session::UnwrittenError;
        Session::<G>::from_record_and_unwritten(v, unwritten, rng)
            .map(|s| Box::new(s) as Box<dyn DynGame>)
            .map_err(|e| match e {
                UnwrittenError::Record(e) => Failure::from_replay(&e),
                UnwrittenError::Move(m) => Failure::usage("pickle.state", m),
            })
    }
    match record_kind(v)? {
        GameKind::Classic => go::<sequence_classic::Game>(v, unwritten, rng),
        GameKind::Stacks => go::<sequence_stacks::Game>(v, unwritten, rng),
    }
}

/// Verifies a record: the summary `sequence verify` prints.
///
/// # Errors
/// [`FailureKind::Record`] with `sequence verify`'s message and exit code.
pub fn verify(v: &Value) -> Result<Value, Failure> {
    let r = match record_kind(v)? {
        GameKind::Classic => sequence_common::record::verify::<sequence_classic::Game>(v),
        GameKind::Stacks => sequence_common::record::verify::<sequence_stacks::Game>(v),
    };
    r.map_err(|e| Failure::from_replay(&e))
}

/// One move of a replay: its index, seat, move and the game after it.
pub struct Step {
    /// Index in the record's `moves`.
    pub index: usize,
    /// The seat that moved.
    pub seat: u8,
    /// The move.
    pub mv: AnyMove,
    /// The game after the move (no record of its own).
    pub game: Box<dyn DynGame>,
}

/// Replays a record move by move, keeping the game after each move.
///
/// # Errors
/// [`FailureKind::Record`] with `sequence verify`'s message.
pub fn replay(v: &Value) -> Result<Vec<Step>, Failure> {
    fn go<G: DynEngine>(v: &Value) -> Result<Vec<Step>, Failure> {
        let mut steps = Vec::new();
        let record = std::sync::Arc::new(v.clone());
        let origin = |index| crate::trail::Origin::Replay {
            record: record.clone(),
            index,
        };
        sequence_common::record::replay::<G>(v, |i, seat, m, g| {
            steps.push(Step {
                index: i,
                seat: seat.0,
                mv: G::wrap(*m, g.config()),
                game: Box::new(Session::with_origin(g.clone(), 0, origin(i))),
            })
        })
        .map_err(|e| Failure::from_replay(&e))
        .map(|(_, last)| {
            // The record's silence (Stacks: an open Block window let stand,
            // S5b) is made after its last move: the last step shows the
            // game as the record ends it.
            if let Some(step) = steps.last_mut() {
                step.game = Box::new(Session::with_origin(last, 0, origin(step.index)));
            }
        })?;
        Ok(steps)
    }
    match record_kind(v)? {
        GameKind::Classic => go::<sequence_classic::Game>(v),
        GameKind::Stacks => go::<sequence_stacks::Game>(v),
    }
}

/// Builds a bot by name (`random`, `greedy`, `greedy:40%`, `ismcts:500it`,
/// `ismcts:200ms`, `level:1` … `level:5`, `cmd:PROGRAM`) with its own
/// generator seeded by `seed`.
///
/// # Errors
/// [`FailureKind::Bot`] naming what is wrong with the name.
pub fn new_bot(kind: GameKind, spec: &str, seed: u64) -> Result<Box<dyn DynBot>, Failure> {
    fn go<G: DynEngine>(spec: &str, seed: u64) -> Result<Box<dyn DynBot>, Failure> {
        sequence_bots::bot::<G>(spec, seed)
            .map(|bot| Box::new(BotBox { bot }) as Box<dyn DynBot>)
            .map_err(|e| Failure::new(FailureKind::Bot, "bot.spec", e.to_string()))
    }
    match kind {
        GameKind::Classic => go::<sequence_classic::Game>(spec, seed),
        GameKind::Stacks => go::<sequence_stacks::Game>(spec, seed),
    }
}
