//! The entry points that pick the game: each turns a [`GameKind`] (given,
//! or read from a record's `format`) into the game's type through the
//! workspace's one registration ([`with_game`]) and gives the game, the
//! replay, the summary or the bot behind one type.

use super::{Failure, FailureKind, Game};
use crate::env::any::AnyEnv;
use crate::env::EnvGame;
use sequence_bots::{with_game, AnyBot, ForGame};
use sequence_common::record::{detect_kind, Match, ReplayError, UnwrittenError};
use sequence_common::rng::GameRng;
use sequence_common::trail::Origin;
use sequence_common::{AnyMove, GameKind};
use serde_json::Value;
use std::sync::Arc;

/// Room for one observation or one mask on the stack: every registered
/// game's fit ([`Fits`]).
pub const MAX_BUF: usize = 1024;

/// Checked when a game of `G` is made (so for every registered game): its
/// observation and its mask fit in [`MAX_BUF`].
struct Fits<G>(std::marker::PhantomData<G>);

impl<G: EnvGame> Fits<G> {
    const OK: () = assert!(G::OBS_LEN <= MAX_BUF && G::ACTIONS <= MAX_BUF);
}

/// A match of `G` as the Python classes hold it.
fn game<G: EnvGame>(m: Match<G>) -> Game {
    let () = Fits::<G>::OK;
    Game::from(Box::new(m) as Box<dyn AnyEnv>)
}

/// A move of `G` at the table `config`.
fn wrap<G: EnvGame>(m: G::Move, config: &G::Config) -> AnyMove {
    AnyMove::at::<G>(m, Arc::new(config.clone()))
}

/// The refusal of rule options that cannot be read (an unknown name, a
/// value of the wrong type): the game's option rule (C11, S3a;
/// [`EnvGame::SETUP_CODES`]).
pub fn option_failure<G: EnvGame>(message: String) -> Failure {
    Failure::new(FailureKind::Setup, G::SETUP_CODES[2], message)
}

/// A new game dealt from `seed` (ChaCha8, as the rules say: the same deal
/// as `sequence selfplay --seed`).
///
/// # Errors
/// [`FailureKind::Setup`] for a table or options that break the rules; a
/// team count given to a game without teams (Stacks).
pub fn new_game(
    kind: GameKind,
    players: u8,
    teams: Option<u8>,
    options: Option<&Value>,
    seed: u64,
) -> Result<Game, Failure> {
    struct New<'a>(u8, Option<u8>, Option<&'a Value>, u64);
    impl ForGame for New<'_> {
        type Out = Result<Game, Failure>;
        fn call<G: EnvGame>(self) -> Self::Out {
            let New(players, teams, options, seed) = self;
            let options = G::options_from_json(options).map_err(option_failure::<G>)?;
            let config = G::table(players, teams, options).map_err(|e| Failure::setup(&e))?;
            Ok(game(Match::<G>::new(config, seed)))
        }
    }
    with_game(kind, New(players, teams, options, seed))
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
pub fn game_from_record(v: &Value, seed: u64) -> Result<Game, Failure> {
    struct FromRecord<'a>(&'a Value, u64);
    impl ForGame for FromRecord<'_> {
        type Out = Result<Game, Failure>;
        fn call<G: EnvGame>(self) -> Self::Out {
            Match::<G>::from_record_json(self.0, self.1)
                .map(game)
                .map_err(|e| Failure::from_replay(&e))
        }
    }
    with_game(record_kind(v)?, FromRecord(v, seed))
}

/// Rebuilds a pickled game: its record as it stood after its last entry
/// (a Stacks Block window left open, S5b), then the `unwritten` moves made
/// since ([`sequence_common::AnyGame::unwritten`]), with `rng` as its
/// generator.
///
/// # Errors
/// [`FailureKind::Record`] for a record that does not replay;
/// [`FailureKind::Usage`] `pickle.state` for unwritten moves that cannot
/// be made.
pub fn game_from_pickle(v: &Value, unwritten: &[Value], rng: GameRng) -> Result<Game, Failure> {
    struct FromPickle<'a>(&'a Value, &'a [Value], GameRng);
    impl ForGame for FromPickle<'_> {
        type Out = Result<Game, Failure>;
        fn call<G: EnvGame>(self) -> Self::Out {
            Match::<G>::from_record_and_unwritten(self.0, self.1, self.2)
                .map(game)
                .map_err(|e| match e {
                    UnwrittenError::Record(e) => Failure::from_replay(&e),
                    UnwrittenError::Move(m) => Failure::usage("pickle.state", m),
                })
        }
    }
    with_game(record_kind(v)?, FromPickle(v, unwritten, rng))
}

/// Verifies a record: the summary `sequence verify` prints.
///
/// # Errors
/// [`FailureKind::Record`] with `sequence verify`'s message and exit code.
pub fn verify(v: &Value) -> Result<Value, Failure> {
    sequence_bots::verify_record(record_kind(v)?, v).map_err(|e| Failure::from_replay(&e))
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
    pub game: Game,
}

/// Replays a record move by move, keeping the game after each move.
///
/// # Errors
/// [`FailureKind::Record`] with `sequence verify`'s message.
pub fn replay(v: &Value) -> Result<Vec<Step>, Failure> {
    struct Replay<'a>(&'a Value);
    impl ForGame for Replay<'_> {
        type Out = Result<Vec<Step>, Failure>;
        fn call<G: EnvGame>(self) -> Self::Out {
            let v = self.0;
            let mut steps = Vec::new();
            let record = Arc::new(v.clone());
            let origin = |index| Origin::Replay {
                record: record.clone(),
                index,
            };
            sequence_common::record::replay::<G>(v, |i, seat, m, g| {
                steps.push(Step {
                    index: i,
                    seat: seat.0,
                    mv: wrap::<G>(*m, g.config()),
                    game: game(Match::with_origin(g.clone(), 0, origin(i))),
                })
            })
            .map_err(|e| Failure::from_replay(&e))
            .map(|(_, last)| {
                // The record's silence (Stacks: an open Block window let
                // stand, S5b) is made after its last move: the last step
                // shows the game as the record ends it.
                if let Some(step) = steps.last_mut() {
                    step.game = game(Match::with_origin(last, 0, origin(step.index)));
                }
            })?;
            Ok(steps)
        }
    }
    with_game(record_kind(v)?, Replay(v))
}

/// Builds a bot by name (`random`, `greedy`, `greedy:40%`, `search:500it`,
/// `search:200ms`, `level:1` … `level:5`, `cmd:PROGRAM`) with its own
/// generator seeded by `seed`.
///
/// # Errors
/// [`FailureKind::Bot`] naming what is wrong with the name.
pub fn new_bot(kind: GameKind, spec: &str, seed: u64) -> Result<Box<dyn AnyBot>, Failure> {
    sequence_bots::any_bot(kind, spec, seed)
        .map_err(|e| Failure::new(FailureKind::Bot, "bot.spec", e.to_string()))
}

/// The rule codes of a game's setup refusals ([`EnvGame::SETUP_CODES`]):
/// player count, team count, options.
pub fn setup_codes(kind: GameKind) -> [&'static str; 3] {
    struct Codes;
    impl ForGame for Codes {
        type Out = [&'static str; 3];
        fn call<G: EnvGame>(self) -> Self::Out {
            G::SETUP_CODES
        }
    }
    with_game(kind, Codes)
}

/// A game's number of actions and what `action` means in it, in words
/// (`None` for an index outside the action space).
pub fn action_text(kind: GameKind, action: usize) -> (usize, Option<String>) {
    struct Text(usize);
    impl ForGame for Text {
        type Out = (usize, Option<String>);
        fn call<G: EnvGame>(self) -> Self::Out {
            (
                G::ACTIONS,
                (self.0 < G::ACTIONS).then(|| G::action_text(self.0)),
            )
        }
    }
    with_game(kind, Text(action))
}

/// A pickled `Move` read back: its record entry by some seat and what of
/// the table it is written with ([`EnvGame::written_with`]).
///
/// # Errors
/// A message naming what does not read.
pub fn move_from_state(kind: GameKind, entry: &Value, context: u8) -> Result<AnyMove, String> {
    struct Read<'a>(&'a Value, u8);
    impl ForGame for Read<'_> {
        type Out = Result<AnyMove, String>;
        fn call<G: EnvGame>(self) -> Self::Out {
            let config = G::table_written_with(self.1)?;
            let (_, m) = G::move_from_json(self.0, &config).map_err(|e| e.to_string())?;
            Ok(wrap::<G>(m, &config))
        }
    }
    with_game(kind, Read(entry, context))
}

/// What of its table a move is written with ([`EnvGame::written_with`]; 0
/// for a move made at no known table).
pub fn written_with(mv: &AnyMove) -> u8 {
    struct Context<'a>(&'a AnyMove);
    impl ForGame for Context<'_> {
        type Out = u8;
        fn call<G: EnvGame>(self) -> u8 {
            self.0.table::<G>().map_or(0, G::written_with)
        }
    }
    with_game(mv.kind(), Context(mv))
}

/// A game's number of move keys ([`Rules::MOVE_KEYS`]).
pub fn move_keys(kind: GameKind) -> usize {
    struct Keys;
    impl ForGame for Keys {
        type Out = usize;
        fn call<G: EnvGame>(self) -> usize {
            G::MOVE_KEYS
        }
    }
    with_game(kind, Keys)
}
