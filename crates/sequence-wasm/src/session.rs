//! The pure core of the browser engine, written once over the game
//! interface: [`Session`] (a live game of either kind, moves and views as
//! JSON), implemented for [`Match<G>`] of both games, and the entry points
//! that pick the concrete game ([`new_game`], [`resume`], [`verify`],
//! [`random_games`]). Every refusal is a [`Failure`] with a stable code.
//!
//! The JSON is the server's, byte for byte: a seat's view is the engine's
//! `SeatView::to_json` with the classic board layout added (`layout`, C2),
//! as the server's table adds it; moves are record entries (RECORD.md,
//! RECORD-STACKS.md) read with `Notation::move_from_input`, as the server
//! reads them; records are `Match::to_json`.

use sequence_bots::{BotGame, Budget, SearchConfig, SearchSpec};
use sequence_common::record::{detect_kind, Match, ReplayError};
use sequence_common::{GameKind, RuleError, Rules, Seat, SeatView};
use serde_json::{json, Map, Value};

/// The bot levels the page offers, as the server's tables: `random`,
/// `greedy`, `level:1` (beginner) … `level:5` (the search).
pub const LEVELS: [&str; 7] = [
    "random", "greedy", "level:1", "level:2", "level:3", "level:4", "level:5",
];

/// A refusal: a stable code (`C6.space_taken`, `notation.missing`,
/// `record.malformed`, …) and the English message. For records, the exit
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
            ReplayError::Move(_) => "record.illegal_move",
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

/// A live game of either kind that keeps its record ([`Match`]), with
/// everything as JSON for the page.
pub trait Session {
    /// Which game.
    fn kind(&self) -> GameKind;

    /// Seats at the table.
    fn players(&self) -> u8;

    /// The seat that must decide now (in Stacks also a seat asked in a
    /// Block window, S5b); `None` once the game is over.
    fn to_act(&self) -> Option<u8>;

    /// Where the game stands: `{"status": "playing"|"won"|"draw",
    /// "winner": side as records write it or null, "move_number"}`.
    fn outcome(&self) -> Value;

    /// The legal moves of `seat` as the API takes them (record entries with
    /// `seat`; a declined Block as `{"seat", "pass": true}`); empty when the
    /// seat has no decision to make.
    fn legal_moves(&self, seat: u8) -> Vec<Value>;

    /// Reads a move (as [`Session::legal_moves`] gives them) and plays it;
    /// returns the log entry `{"seat", "move", "text"}` of what was played
    /// (with the sequences a placement declared), or `null` for a move
    /// records do not write (a declined Block). Nothing changes on error.
    ///
    /// # Errors
    /// `notation.*` codes for a move that cannot be read, the rule's code
    /// (e.g. `C6.space_taken`) for one the rules refuse.
    fn play(&mut self, mv: &Value) -> Result<Value, Failure>;

    /// The view of `seat` (`None` or a seat not at the table: the
    /// spectator's), as the server sends it: the engine's view with the
    /// classic board layout.
    fn view(&self, seat: Option<u8>) -> Value;

    /// The record so far (RECORD.md, RECORD-STACKS.md), `result` set.
    fn record(&self) -> Value;

    /// The move a bot of `level` (see [`LEVELS`]) chooses for `seat` from
    /// that seat's view only, seeded with `seed`; `null` when the seat has
    /// no decision to make.
    ///
    /// # Errors
    /// `bot.level` for a level not in [`LEVELS`].
    fn bot_move(&self, seat: u8, level: &str, seed: u64) -> Result<Value, Failure>;

    /// Each seat's side as records write it (classic: its team's colour,
    /// C3; Stacks: the seat itself, S1), for the table info's `team`
    /// (`null` in a game without teams).
    fn seat_teams(&self) -> Vec<Value>;

    /// The public facts of the end of the game per side, as the server's
    /// end screen gets them (`final_sides`): classic `[{"side": colour,
    /// "sequences"}]`, Stacks `[{"side": seat, "chips": {"blue", "red"}}]`.
    fn final_sides(&self) -> Value;

    /// The search's best moves for `seat` from its view, as the server's
    /// practice hint: `{"iterations", "moves": [{"move", "text", "win",
    /// "visits"}]}` best first, at most `top`; `{"moves": []}` when the
    /// seat has no decision to make.
    fn hint(&self, seat: u8, iterations: u64, top: usize, seed: u64) -> Value;
}

impl<G: BotGame> Session for Match<G> {
    fn kind(&self) -> GameKind {
        G::KIND
    }

    fn players(&self) -> u8 {
        self.game().players()
    }

    fn to_act(&self) -> Option<u8> {
        self.game().to_act().map(|s| s.0)
    }

    fn outcome(&self) -> Value {
        let o = self.game().outcome();
        json!({
            "status": o.name(),
            "winner": o.winner().map_or(Value::Null, G::side_to_json),
            "move_number": self.game().ply(),
        })
    }

    fn legal_moves(&self, seat: u8) -> Vec<Value> {
        if self.game().to_act() != Some(Seat(seat)) {
            return vec![];
        }
        let config = self.game().config();
        self.game()
            .view(Seat(seat))
            .legal_moves()
            .iter()
            .map(|m| G::move_to_json(Seat(seat), m, config))
            .collect()
    }

    fn play(&mut self, mv: &Value) -> Result<Value, Failure> {
        let (seat, m) = G::move_from_input(mv, self.game().config())
            .map_err(|e| Failure::new(e.code(), format!("malformed move: {e}")))?;
        self.play(seat, m)
            .map_err(|e| Failure::new(e.code(), naming_the_rule(&e.to_string(), e.code())))?;
        if !G::is_recorded(&m) {
            return Ok(Value::Null);
        }
        let written = self
            .game()
            .last_move()
            .filter(|(s, _)| *s == seat)
            .map_or(m, |(_, w)| w);
        Ok(json!({
            "seat": seat.0,
            "move": G::move_to_json(seat, &written, self.game().config()),
            "text": G::move_text(&written),
        }))
    }

    fn view(&self, seat: Option<u8>) -> Value {
        let game = self.game();
        let mut v = match seat {
            Some(s) if s < game.players() => game.view(Seat(s)).to_json(),
            _ => game.spectator_view().to_json(),
        };
        if let (Some(o), Some(extra)) = (v.as_object_mut(), view_extras(game)) {
            o.extend(extra);
        }
        v
    }

    fn record(&self) -> Value {
        self.to_json()
    }

    fn bot_move(&self, seat: u8, level: &str, seed: u64) -> Result<Value, Failure> {
        if !LEVELS.contains(&level) {
            return Err(Failure::new(
                "bot.level",
                format!("unknown bot level {level:?} (expected one of {LEVELS:?})"),
            ));
        }
        if self.game().to_act() != Some(Seat(seat)) {
            return Ok(Value::Null);
        }
        let spec = sequence_bots::parse_spec(level)
            .map_err(|e| Failure::new("bot.level", e.to_string()))?;
        let mut bot = sequence_bots::bot_from::<G>(level, spec, seed, &SearchConfig::default())
            .map_err(|e| Failure::new("bot.level", e.to_string()))?;
        let mv = bot.choose(&self.game().view(Seat(seat)));
        Ok(G::move_to_json(Seat(seat), &mv, self.game().config()))
    }

    fn seat_teams(&self) -> Vec<Value> {
        let g = self.game();
        (0..g.players())
            .map(|s| {
                if G::TEAMS {
                    G::side_to_json(g.side_of(Seat(s)))
                } else {
                    Value::Null
                }
            })
            .collect()
    }

    fn final_sides(&self) -> Value {
        let any = self.game() as &dyn std::any::Any;
        if let Some(g) = any.downcast_ref::<sequence_classic::Game>() {
            let teams: Vec<Value> = (0..g.teams())
                .map(|t| {
                    let team = sequence_classic::Team(t);
                    json!({"side": team.colour(), "sequences": g.sequence_count(team)})
                })
                .collect();
            return json!(teams);
        }
        if let Some(g) = any.downcast_ref::<sequence_stacks::Game>() {
            let seats: Vec<Value> = (0..g.players())
                .map(|s| {
                    let c = g.chips(Seat(s));
                    json!({"side": s, "chips": {"blue": c[0], "red": c[1]}})
                })
                .collect();
            return json!(seats);
        }
        json!([])
    }

    fn hint(&self, seat: u8, iterations: u64, top: usize, seed: u64) -> Value {
        if self.game().to_act() != Some(Seat(seat)) {
            return json!({"moves": []});
        }
        let view = self.game().view(Seat(seat));
        let search = SearchSpec::new(Budget::Iterations(iterations.max(1)), Some(1));
        let Some(report) = G::analyse(&view, seed, &search) else {
            return json!({"moves": []});
        };
        let config = self.game().config();
        json!({
            "iterations": report.iterations,
            "moves": report.moves.iter().take(top.max(1)).map(|(m, visits, win)| json!({
                "move": G::move_to_json(Seat(seat), m, config),
                "text": G::move_text(m),
                "win": (win * 1000.0).round() / 1000.0,
                "visits": visits,
            })).collect::<Vec<_>>(),
        })
    }
}

/// What the server's table adds to every view of the game: the classic
/// board layout (`layout`, 10 rows of card codes, C2), which a random
/// board (C11) changes.
fn view_extras<G: Rules>(game: &G) -> Option<Map<String, Value>> {
    let classic = (game as &dyn std::any::Any).downcast_ref::<sequence_classic::Game>()?;
    let mut o = Map::new();
    o.insert("layout".into(), json!(classic.layout().to_rows()));
    Some(o)
}

/// A refusal's message naming its rule, as the server words it: the
/// engine's text, with the rule of `code` (`C6.not_in_hand` → `(C6)`)
/// added when the text does not name it.
fn naming_the_rule(text: &str, code: &str) -> String {
    let rule = code.split('.').next().unwrap_or_default();
    if rule.is_empty() || text.contains(rule) {
        format!("illegal move: {text}")
    } else {
        format!("illegal move: {text} ({rule})")
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
/// the server deals (`Match::new`).
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
) -> Result<Box<dyn Session>, Failure> {
    match kind_of(game)? {
        GameKind::Classic => start::<sequence_classic::Game>(players, teams, options, seed),
        GameKind::Stacks => start::<sequence_stacks::Game>(players, teams, options, seed),
    }
}

fn start<G: BotGame>(
    players: u8,
    teams: Option<u8>,
    options: &Value,
    seed: u64,
) -> Result<Box<dyn Session>, Failure> {
    let options = G::options_from_json((!options.is_null()).then_some(options))
        .map_err(|e| Failure::new("setup.options", e))?;
    let config =
        G::table(players, teams, options).map_err(|e| Failure::new(e.code(), e.to_string()))?;
    Ok(Box::new(Match::<G>::new(config, seed)))
}

/// A saved game taken up again: the record `text` replayed (as `sequence
/// verify` does); later reshuffles come from ChaCha8 seeded with `seed`.
///
/// # Errors
/// The record's failure, with `sequence verify`'s message and exit code.
pub fn resume(text: &str, seed: u64) -> Result<Box<dyn Session>, Failure> {
    let (kind, v) = detect_kind(text).map_err(|e| Failure::from_replay(&e.into()))?;
    let r: Result<Box<dyn Session>, ReplayError> = match kind {
        GameKind::Classic => Match::<sequence_classic::Game>::from_record_json(&v, seed)
            .map(|m| Box::new(m) as Box<dyn Session>),
        GameKind::Stacks => Match::<sequence_stacks::Game>::from_record_json(&v, seed)
            .map(|m| Box::new(m) as Box<dyn Session>),
    };
    r.map_err(|e| Failure::from_replay(&e))
}

/// Verifies the record `text`: its summary, as `sequence verify` prints
/// it.
///
/// # Errors
/// As `sequence verify`: the same message, and its exit code (2 for a
/// malformed record, 1 for an illegal move or a result that does not
/// match).
pub fn verify(text: &str) -> Result<Value, Failure> {
    let (kind, v) = detect_kind(text).map_err(|e| Failure::from_replay(&e.into()))?;
    match kind {
        GameKind::Classic => sequence_common::record::verify::<sequence_classic::Game>(&v),
        GameKind::Stacks => sequence_common::record::verify::<sequence_stacks::Game>(&v),
    }
    .map_err(|e| Failure::from_replay(&e))
}

/// `games` random games of `game` with `players` seats and the default
/// rules, as `sequence bench` plays them (dealt and played out with the
/// PCG64 playout generator seeded with `seed`): `(games finished, moves)`.
///
/// # Errors
/// As [`new_game`].
pub fn random_games(game: &str, players: u8, games: u32, seed: u64) -> Result<(u32, u64), Failure> {
    fn run<G: Rules>(players: u8, games: u32, seed: u64) -> Result<(u32, u64), Failure> {
        let config = G::table(players, None, G::Options::default())
            .map_err(|e| Failure::new(e.code(), e.to_string()))?;
        let mut rng = sequence_common::rng::playout_rng(seed);
        let (proto, _) = G::deal(&config, &mut rng);
        let (mut finished, mut moves) = (0, 0);
        for _ in 0..games {
            let mut g = proto.fresh_deal(&mut rng);
            moves += u64::from(g.playout(&mut rng, 1_000_000));
            finished += u32::from(g.is_over());
        }
        Ok((finished, moves))
    }
    match kind_of(game)? {
        GameKind::Classic => run::<sequence_classic::Game>(players, games, seed),
        GameKind::Stacks => run::<sequence_stacks::Game>(players, games, seed),
    }
}
