//! The pure core of the browser engine: [`Session`] (a live game of
//! either kind, moves and views as JSON) over the workspace's
//! [`AnyGame`], as the server's tables hold their games, and the entry
//! points that pick the concrete game through [`with_game`] ([`new_game`],
//! [`resume`], [`verify`], [`positions`], [`analysis`], [`random_games`]).
//! Every refusal is a [`Failure`] with a stable code.
//!
//! The JSON is the server's, byte for byte: a seat's view is the engine's
//! `SeatView::to_json` with the classic board layout added (`layout`, C2),
//! as the server's table adds it; a move played gives the server's move
//! log entry with its effects; moves are record entries (RECORD.md,
//! RECORD-STACKS.md) read with `Notation::move_from_input`, as the server
//! reads them; records are `Match::to_json`.

use sequence_bots::{replay, with_game, BotGame, ForGame, SearchConfig};
use sequence_common::record::{detect_kind, Match, ReplayError};
use sequence_common::{play_logged, AnyGame, GameKind, RuleError, Seat};
use serde_json::{json, Value};

/// The bot levels the page offers, as the server's tables: `random`,
/// `greedy`, `level:1` (beginner) … `level:5` (the search).
pub const LEVELS: [&str; 7] = [
    "random", "greedy", "level:1", "level:2", "level:3", "level:4", "level:5",
];

/// A refusal: a stable code (`C6.space_taken`, `notation.missing`,
/// `record.malformed`, `record.malformed_move`, …) and the English message. For records, the exit
/// code `sequence verify` gives (2 malformed, 1 illegal or mismatched).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The stable code.
    pub code: String,
    /// The message, naming the rule or the field.
    pub message: String,
    /// `sequence verify`'s exit code, for a record that does not verify.
    pub exit_code: Option<i32>,
}

impl Failure {
    fn new(code: impl Into<String>, message: impl Into<String>) -> Failure {
        Failure {
            code: code.into(),
            message: message.into(),
            exit_code: None,
        }
    }

    /// A record error with the message and exit code of `sequence verify`.
    pub fn from_replay(e: &ReplayError) -> Failure {
        let code = match e {
            ReplayError::Malformed(_) => "record.malformed",
            ReplayError::Move(m) => m.code(),
            ReplayError::ResultMismatch(_) => "record.mismatch",
        };
        Failure {
            code: code.into(),
            message: e.to_string(),
            exit_code: Some(e.exit_code()),
        }
    }

    /// The failure as JSON: `{"code", "message"}` and `exit_code` when set.
    pub fn to_json(&self) -> Value {
        let mut v = json!({"code": self.code, "message": self.message});
        if let Some(c) = self.exit_code {
            v["exit_code"] = json!(c);
        }
        v
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Failure {}

/// A live game of either kind that keeps its record, as the page plays
/// it: the workspace's [`AnyGame`] (a [`Match`] behind one type: the
/// server's tables hold the same), with what takes a bot or a search
/// reached through [`with_game`]. Everything is the server's JSON.
pub struct Session {
    live: Box<dyn AnyGame>,
}

impl Session {
    /// The session of a live game.
    pub fn new(live: Box<dyn AnyGame>) -> Session {
        Session { live }
    }

    /// The game behind it.
    pub fn game(&self) -> &dyn AnyGame {
        self.live.as_ref()
    }

    /// Which game.
    pub fn kind(&self) -> GameKind {
        self.live.kind()
    }

    /// Seats at the table.
    pub fn players(&self) -> u8 {
        self.live.players()
    }

    /// The seat that must decide now (in Stacks also a seat asked in a
    /// Block window, S5b); `None` once the game is over.
    pub fn to_act(&self) -> Option<u8> {
        self.live.to_act().map(|s| s.0)
    }

    /// Where the game stands: `{"status": "playing"|"won"|"draw",
    /// "winner": side as records write it or null, "move_number"}`.
    pub fn outcome(&self) -> Value {
        json!({
            "status": self.live.outcome().name(),
            "winner": self.live.winner_json(),
            "move_number": self.live.ply(),
        })
    }

    /// The legal moves of `seat` as the API takes them (record entries with
    /// `seat`; a declined Block as `{"seat", "pass": true}`); empty when the
    /// seat has no decision to make.
    pub fn legal_moves(&self, seat: u8) -> Vec<Value> {
        let seat = Seat(seat);
        if self.live.to_act() != Some(seat) {
            return vec![];
        }
        let view = self.live.view(Some(seat));
        view.legal_moves()
            .iter()
            .filter_map(|m| self.live.move_json(seat, m))
            .collect()
    }

    /// Reads a move (as [`Session::legal_moves`] gives them) and plays it;
    /// what it did for the move log, as the server's table logs it
    /// ([`sequence_common::play_logged`]): `{"entry": {"seat", "move",
    /// "text", and its public effects: sequences made, chips taken, …} or
    /// null for a move records do not write (a declined Block),
    /// "previous": fields for the log's last entry}`. Nothing changes on
    /// error.
    ///
    /// # Errors
    /// `notation.*` codes for a move that cannot be read, the rule's code
    /// (e.g. `C6.space_taken`) for one the rules refuse.
    pub fn play(&mut self, mv: &Value) -> Result<Value, Failure> {
        play_logged(self.live.as_mut(), mv)
            .map(|logged| logged.to_json())
            .map_err(|e| Failure::new(e.code(), e.message()))
    }

    /// The view of `seat` (`None` or a seat not at the table: the
    /// spectator's), as the server sends it: the engine's view with the
    /// game's table facts (the classic board `layout`, C2).
    pub fn view(&self, seat: Option<u8>) -> Value {
        let mut v = self.live.view_json(seat.map(Seat));
        self.live.decorate_view(&mut v);
        v
    }

    /// The record so far (RECORD.md, RECORD-STACKS.md), `result` set.
    pub fn record(&self) -> Value {
        // the browser's sessions are dealt from a seed or read from a
        // record: each keeps one
        self.live.record_json().unwrap_or_default()
    }

    /// The move a bot of `level` (see [`LEVELS`]) chooses for `seat` from
    /// that seat's view only, seeded with `seed`; `null` when the seat has
    /// no decision to make.
    ///
    /// # Errors
    /// `bot.level` for a level not in [`LEVELS`].
    pub fn bot_move(&self, seat: u8, level: &str, seed: u64) -> Result<Value, Failure> {
        if !LEVELS.contains(&level) {
            return Err(Failure::new(
                "bot.level",
                format!("unknown bot level {level:?} (expected one of {LEVELS:?})"),
            ));
        }
        if self.live.to_act() != Some(Seat(seat)) {
            return Ok(Value::Null);
        }
        let job = BotMove {
            live: self.live.as_ref(),
            seat: Seat(seat),
            level,
            seed,
        };
        with_game(self.kind(), job).unwrap_or(Ok(Value::Null))
    }

    /// Each seat's side as records write it (classic: its team's colour,
    /// C3; Stacks: `null`, the seat is its own side, S1), for the table
    /// info's `team`.
    pub fn seat_teams(&self) -> Vec<Value> {
        let teams = with_game(self.kind(), HasTeams);
        (0..self.players())
            .map(|s| {
                if teams {
                    self.live.side_json(self.live.side_of(Seat(s)))
                } else {
                    Value::Null
                }
            })
            .collect()
    }

    /// The public facts of the end of the game per side, as the server's
    /// end screen gets them (`final_sides`): classic `[{"side": colour,
    /// "sequences"}]`, Stacks `[{"side": seat, "chips": {"blue", "red"}}]`.
    pub fn final_sides(&self) -> Value {
        self.live.final_sides()
    }

    /// The search's best moves for `seat` from its view, as the server's
    /// practice hint ([`sequence_bots::replay::hint`]): `{"iterations",
    /// "moves": [{"move", "text", "win", "visits"}]}` best first, at most
    /// `top`; `{"moves": []}` when the seat has no decision to make.
    pub fn hint(&self, seat: u8, iterations: u64, top: usize, seed: u64) -> Value {
        if self.live.to_act() != Some(Seat(seat)) {
            return json!({"moves": []});
        }
        let job = HintOf {
            live: self.live.as_ref(),
            seat: Seat(seat),
            iterations: iterations.max(1),
            top: top.max(1),
            seed,
        };
        with_game(self.kind(), job).unwrap_or_else(|| json!({"moves": []}))
    }
}

/// Whether the game has teams (C3) or each seat plays alone (S1).
struct HasTeams;

impl ForGame for HasTeams {
    type Out = bool;
    fn call<G: BotGame>(self) -> bool {
        G::TEAMS
    }
}

/// [`Session::bot_move`] with the game's type.
struct BotMove<'a> {
    live: &'a dyn AnyGame,
    seat: Seat,
    level: &'a str,
    seed: u64,
}

impl ForGame for BotMove<'_> {
    type Out = Option<Result<Value, Failure>>;
    fn call<G: BotGame>(self) -> Self::Out {
        let game = self.live.as_any().downcast_ref::<Match<G>>()?.game();
        let bot = sequence_bots::parse_spec(self.level).and_then(|spec| {
            sequence_bots::bot_from::<G>(self.level, spec, self.seed, &SearchConfig::default())
        });
        Some(match bot {
            Ok(mut bot) => {
                let mv = bot.choose(&game.view(self.seat));
                Ok(G::move_to_json(self.seat, &mv, game.config()))
            }
            Err(e) => Err(Failure::new("bot.level", e.to_string())),
        })
    }
}

/// [`Session::hint`] with the game's type.
struct HintOf<'a> {
    live: &'a dyn AnyGame,
    seat: Seat,
    iterations: u64,
    top: usize,
    seed: u64,
}

impl ForGame for HintOf<'_> {
    type Out = Option<Value>;
    fn call<G: BotGame>(self) -> Option<Value> {
        let game = self.live.as_any().downcast_ref::<Match<G>>()?.game();
        let view = game.view(self.seat);
        Some(replay::hint::<G>(
            &view,
            game.config(),
            self.iterations,
            self.top,
            self.seed,
        ))
    }
}

/// The game named `game` (`classic` or `stacks`).
///
/// # Errors
/// `setup.game` naming what was given.
pub fn kind_of(game: &str) -> Result<GameKind, Failure> {
    game.parse::<GameKind>()
        .map_err(|e| Failure::new("setup.game", e))
}

/// A new game of `game` for `players` seats in `teams` teams (`None`: the
/// default), under the rule options `options` (a record's `options`
/// object; `null`: the official rules), dealt from `seed` with ChaCha8 as
/// the server deals (`Match::new`). The lobby's shorthands are replaced
/// first, as the server's table does (`"board": "random"`: a layout drawn
/// from `seed ^` [`BOARD_SEED`], C11, written into the record's options).
///
/// # Errors
/// `setup.game` for an unknown game, `setup.options` for options that
/// cannot be read, the engine's setup code (C3, S1) for a table the rules
/// do not allow.
pub fn new_game(
    game: &str,
    players: u8,
    teams: Option<u8>,
    options: &Value,
    seed: u64,
) -> Result<Session, Failure> {
    let deal = Deal {
        players,
        teams,
        options,
        seed,
    };
    with_game(kind_of(game)?, deal).map(Session::new)
}

/// Mixed into a game's seed for the random board the lobby may ask for
/// (C11), so that the layout and the deal come from different streams.
pub const BOARD_SEED: u64 = 0xB0A2_D5EE_D000_0C11;

/// [`new_game`] with the game's type.
struct Deal<'a> {
    players: u8,
    teams: Option<u8>,
    options: &'a Value,
    seed: u64,
}

impl ForGame for Deal<'_> {
    type Out = Result<Box<dyn AnyGame>, Failure>;
    fn call<G: BotGame>(self) -> Self::Out {
        let mut options = self.options.clone();
        G::prepare_options(&mut options, self.seed ^ BOARD_SEED);
        let options = G::options_from_json((!options.is_null()).then_some(&options))
            .map_err(|e| Failure::new("setup.options", e))?;
        let config = G::table(self.players, self.teams, options)
            .map_err(|e| Failure::new(e.code(), e.to_string()))?;
        Ok(Box::new(Match::<G>::new(config, self.seed)))
    }
}

/// What is done with a record once its game is known ([`on_record`]).
enum RecordJob {
    /// Taken up again, later reshuffles from this seed ([`resume`]).
    Resume(u64),
    /// Verified ([`verify`]).
    Verify,
    /// Replayed position by position ([`positions`]).
    Positions,
    /// Analysed ([`analysis`]): iterations per position, seed.
    Analysis(u64, u64),
}

/// What a [`RecordJob`] gives.
enum RecordOut {
    Game(Box<dyn AnyGame>),
    Json(Value),
    Analysis(Box<dyn replay::Analysis>),
}

struct OnRecord<'a> {
    record: &'a Value,
    job: RecordJob,
}

impl ForGame for OnRecord<'_> {
    type Out = Result<RecordOut, Failure>;
    fn call<G: BotGame>(self) -> Self::Out {
        let replayed = |e: String| Failure::new("record.replay", e);
        Ok(match self.job {
            RecordJob::Resume(seed) => RecordOut::Game(Box::new(
                Match::<G>::from_record_json(self.record, seed)
                    .map_err(|e| Failure::from_replay(&e))?,
            )),
            RecordJob::Verify => RecordOut::Json(
                sequence_common::record::verify::<G>(self.record)
                    .map_err(|e| Failure::from_replay(&e))?,
            ),
            RecordJob::Positions => {
                RecordOut::Json(replay::positions::<G>(self.record).map_err(replayed)?)
            }
            RecordJob::Analysis(iterations, seed) => RecordOut::Analysis(
                replay::analysis::<G>(self.record, iterations, seed).map_err(replayed)?,
            ),
        })
    }
}

/// Reads the record `text`, finds its game and does `job` with it.
fn on_record(text: &str, job: RecordJob) -> Result<RecordOut, Failure> {
    let (kind, record) = detect_kind(text).map_err(|e| Failure::from_replay(&e.into()))?;
    with_game(
        kind,
        OnRecord {
            record: &record,
            job,
        },
    )
}

/// A saved game taken up again: the record `text` replayed (as `sequence
/// verify` does); later reshuffles come from ChaCha8 seeded with `seed`.
///
/// # Errors
/// The record's failure, with `sequence verify`'s message and exit code.
pub fn resume(text: &str, seed: u64) -> Result<Session, Failure> {
    match on_record(text, RecordJob::Resume(seed))? {
        RecordOut::Game(live) => Ok(Session::new(live)),
        _ => unreachable!("a resumed record gives a game"),
    }
}

/// Verifies the record `text`: its summary, as `sequence verify` prints
/// it.
///
/// # Errors
/// As `sequence verify`: the same message, and its exit code (2 for a
/// malformed record, 1 for an illegal move or a result that does not
/// match).
pub fn verify(text: &str) -> Result<Value, Failure> {
    match on_record(text, RecordJob::Verify)? {
        RecordOut::Json(v) => Ok(v),
        _ => unreachable!("a verified record gives its summary"),
    }
}

/// The positions of a finished game's record `text`, as the server's
/// replay gives them ([`sequence_bots::replay::positions`]):
/// `{"positions": [one more than the written moves: the spectator's view
/// less the table's facts, every hand, "to_act"], "extras": {"layout"}}`.
///
/// # Errors
/// A record that cannot be read (as [`verify`]) or does not replay
/// (`record.replay`).
pub fn positions(text: &str) -> Result<Value, Failure> {
    match on_record(text, RecordJob::Positions)? {
        RecordOut::Json(v) => Ok(v),
        _ => unreachable!("a replayed record gives its positions"),
    }
}

/// The analysis of a finished game's record `text`, `iterations` of the
/// search per position, seeded with `seed`, to run a position at a time
/// ([`replay::Analysis::step`]): the server's analysis.
///
/// # Errors
/// As [`positions`].
pub fn analysis(
    text: &str,
    iterations: u64,
    seed: u64,
) -> Result<Box<dyn replay::Analysis>, Failure> {
    match on_record(text, RecordJob::Analysis(iterations.max(1), seed))? {
        RecordOut::Analysis(a) => Ok(a),
        _ => unreachable!("an analysed record gives its analysis"),
    }
}

/// `games` random games of `game` with `players` seats and the default
/// rules, as `sequence bench` plays them (dealt and played out with the
/// PCG64 playout generator seeded with `seed`): `(games finished, moves)`.
///
/// # Errors
/// As [`new_game`].
pub fn random_games(game: &str, players: u8, games: u32, seed: u64) -> Result<(u32, u64), Failure> {
    /// [`random_games`] with the game's type.
    struct Run {
        players: u8,
        games: u32,
        seed: u64,
    }
    impl ForGame for Run {
        type Out = Result<(u32, u64), Failure>;
        fn call<G: BotGame>(self) -> Self::Out {
            let config = G::table(self.players, None, G::Options::default())
                .map_err(|e| Failure::new(e.code(), e.to_string()))?;
            let mut rng = sequence_common::rng::playout_rng(self.seed);
            let (proto, _) = G::deal(&config, &mut rng);
            let (mut finished, mut moves) = (0, 0);
            for _ in 0..self.games {
                let mut g = proto.fresh_deal(&mut rng);
                moves += u64::from(g.playout(&mut rng, 1_000_000));
                finished += u32::from(g.is_over());
            }
            Ok((finished, moves))
        }
    }
    let run = Run {
        players,
        games,
        seed,
    };
    with_game(kind_of(game)?, run)
}
