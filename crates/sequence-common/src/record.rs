//! Game records (RECORD.md, RECORD-STACKS.md), once for both games over
//! [`Notation`]: [`Record`] read and written, [`replay`] checking a record
//! move by move, and [`Match`], a live game dealt from a seed that keeps
//! its own record. Also the `format` field that tells the games apart and
//! the error of a replay that stops at an illegal or malformed move.

use crate::game::{GameKind, Rules, TableConfig};
use crate::notation::Notation;
use crate::reshuffle::RecordedReshuffles;
use crate::seat::Seat;
use serde_json::{json, Map, Value};
use std::fmt;

pub use crate::live::{Match, UnwrittenError};

/// The `format` value of a classic record.
pub const CLASSIC_FORMAT: &str = "sequence-record/1";
/// The `format` value of a Sequence Stacks record.
pub const STACKS_FORMAT: &str = "sequence-stacks-record/1";

/// Why bytes that are not UTF-8 are not a record (exit code 2 in
/// `sequence verify`, and the Python package's `RecordError`).
pub const NOT_UTF8: &str = "not UTF-8 text (a record is UTF-8 JSON)";

/// Why the record file at `path` could not be read, as `sequence verify`
/// and the Python package's `RecordError` (`record.unreadable`) say it:
/// `PATH: no such file`, `PATH: a directory, not a record file`, `PATH:`
/// [`NOT_UTF8`], else `PATH:` and the system's message. Formats only; the
/// caller did the reading.
pub fn unreadable(path: &std::path::Path, e: &std::io::Error) -> String {
    let why = match e.kind() {
        std::io::ErrorKind::InvalidData => NOT_UTF8.into(),
        std::io::ErrorKind::IsADirectory => "a directory, not a record file".into(),
        std::io::ErrorKind::NotFound => "no such file".into(),
        _ => e.to_string(),
    };
    format!("{}: {why}", path.display())
}

/// A file that is not a valid record of either game (exit code 2 in
/// `sequence verify`). The message names the field or JSON position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct MalformedRecord(pub String);

/// Parses `text` as JSON and tells which game's record it is.
///
/// # Errors
/// [`MalformedRecord`] when the text is empty or not JSON (with line and
/// column; a key repeated in one object counts as not JSON, see
/// [`crate::json::parse_strict`]), not an object, or has a missing or
/// unknown `format`.
pub fn detect_kind(text: &str) -> Result<(GameKind, Value), MalformedRecord> {
    let value = crate::json::parse_strict(text).map_err(MalformedRecord)?;
    let Some(obj) = value.as_object() else {
        return Err(MalformedRecord("a record must be a JSON object".into()));
    };
    match obj.get("format").and_then(Value::as_str) {
        Some(f) => match GameKind::from_record_format(f) {
            Some(k) => Ok((k, value)),
            None => {
                let formats: Vec<String> = GameKind::ALL
                    .iter()
                    .map(|k| format!("{:?}", k.record_format()))
                    .collect();
                Err(MalformedRecord(format!(
                    "field `format`: unknown format {f:?} (expected {})",
                    crate::table::or_list(&formats)
                )))
            }
        },
        None => Err(MalformedRecord(
            "field `format`: missing or not a string".into(),
        )),
    }
}

/// A replay stopped at move `index` (0-based): the move's JSON and why it
/// is illegal or malformed, naming the rule id where one applies.
/// `sequence verify` prints it as `move 17 {...}: why` and exits 1 for
/// both (RECORD.md "Verifying": "the first illegal or malformed entry");
/// [`MoveError::malformed`] tells them apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveError {
    /// Index of the offending entry in `moves`.
    pub index: usize,
    /// The entry as compact JSON.
    pub json: String,
    /// Why it was refused, e.g. `space e5 is taken (C6)`, or for an entry
    /// that could not be read `malformed move: unknown key `extra``.
    pub why: String,
    /// For an entry that could not be read as a move (an unknown key, a
    /// missing or bad field): the notation's stable code, e.g.
    /// `notation.unknown_key` ([`crate::NotationError::code`]); `None` for
    /// a move that was read but the rules refuse.
    pub malformed: Option<&'static str>,
}

impl MoveError {
    /// The stable code clients get: `record.malformed_move` for an entry
    /// that could not be read, `record.illegal_move` for one the rules
    /// refuse.
    pub fn code(&self) -> &'static str {
        if self.malformed.is_some() {
            "record.malformed_move"
        } else {
            "record.illegal_move"
        }
    }
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "move {} {}: {}", self.index, self.json, self.why)
    }
}

impl std::error::Error for MoveError {}

/// Longest move entry quoted in a [`MoveError`], in characters.
pub const MAX_ENTRY: usize = 200;

/// A move entry as compact JSON for a [`MoveError`], cut to [`MAX_ENTRY`]
/// characters ("…" marks a cut): a record from outside may hold a huge
/// entry, and the message is passed on (the server sends it to clients).
pub fn entry_text(entry: &Value) -> String {
    let full = entry.to_string();
    let mut out: String = full.chars().take(MAX_ENTRY).collect();
    if full.chars().nth(MAX_ENTRY).is_some() {
        out.push('…');
    }
    out
}

/// Why a record could not be replayed: malformed (exit 2) or an illegal
/// move (exit 1).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// The file is not a valid record.
    #[error(transparent)]
    Malformed(#[from] MalformedRecord),
    /// A move is illegal or malformed.
    #[error(transparent)]
    Move(#[from] MoveError),
    /// The replay is legal but the record disagrees with it (its `result`,
    /// or reshuffles it lists that the replay never reached).
    #[error("the record does not match its replay: {0}")]
    ResultMismatch(String),
}

impl ReplayError {
    /// The exit code `sequence verify` uses for this error (RECORD.md).
    pub fn exit_code(&self) -> i32 {
        match self {
            ReplayError::Malformed(_) => 2,
            ReplayError::Move(_) | ReplayError::ResultMismatch(_) => 1,
        }
    }
}

/// Reads a required unsigned integer field of a JSON object, naming it in
/// the error.
///
/// # Errors
/// When the field is missing, not an integer, or above `max`.
pub fn req_uint(
    obj: &serde_json::Map<String, Value>,
    field: &str,
    max: u64,
) -> Result<u64, String> {
    match obj.get(field) {
        None => Err(format!("field `{field}` is missing")),
        Some(v) => match v.as_u64() {
            Some(n) if n <= max => Ok(n),
            Some(n) => Err(format!(
                "field `{field}`: {n} is out of range (at most {max})"
            )),
            None => Err(format!(
                "field `{field}`: expected a non-negative integer, found {}",
                crate::json::echo(&v.to_string())
            )),
        },
    }
}

/// Checks that `obj` holds no key outside `allowed`.
///
/// # Errors
/// Names the first unknown key and `what` holds it.
pub fn deny_unknown(
    obj: &serde_json::Map<String, Value>,
    allowed: &[&str],
    what: &str,
) -> Result<(), String> {
    for k in obj.keys() {
        if !allowed.contains(&k.as_str()) {
            return Err(format!("{what}: unknown key `{}`", crate::json::echo(k)));
        }
    }
    Ok(())
}

/// Opens a record of one game: `v` must be a JSON object whose keys are all
/// in `allowed` and whose `format` is `format` (RECORD.md,
/// RECORD-STACKS.md).
///
/// # Errors
/// [`MalformedRecord`] naming the unknown key or the wrong `format`.
pub fn open_record<'a>(
    v: &'a Value,
    format: &str,
    allowed: &[&str],
) -> Result<&'a serde_json::Map<String, Value>, MalformedRecord> {
    let o = v
        .as_object()
        .ok_or_else(|| MalformedRecord("a record must be a JSON object".into()))?;
    deny_unknown(o, allowed, "record").map_err(MalformedRecord)?;
    match o.get("format").and_then(Value::as_str) {
        Some(f) if f == format => Ok(o),
        other => Err(MalformedRecord(format!(
            "field `format`: expected {format:?}, found {other:?}"
        ))),
    }
}

/// A table-talk penalty discard (C10) in a record: before the written
/// move of index `before` (so `moves.len()` for one after the last move),
/// `seat` discarded `card` out of turn and drew none. Records write it as
/// a `moves` entry `{"seat": S, "penalty": CARD}` (RECORD.md).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Penalty<C> {
    /// Index of the written move it comes before.
    pub before: usize,
    /// The seat that discarded.
    pub seat: Seat,
    /// The card discarded.
    pub card: C,
}

/// A game record of either game (RECORD.md, RECORD-STACKS.md), typed: the
/// table, the dealer, the deck order, every reshuffle's order and every
/// written move with its seat. It replays to exactly one game.
pub struct Record<G: Rules> {
    /// The table: players, teams, rule options as the record gives them.
    pub config: G::Config,
    /// The dealer's seat (C5, S2).
    pub dealer: Seat,
    /// Every card in draw order, top first.
    pub deck: Vec<G::Card>,
    /// Each reshuffle's new draw pile, top first, in the order they happen
    /// (C7, S6).
    pub reshuffles: Vec<Vec<G::Card>>,
    /// Every written move with its seat.
    pub moves: Vec<(Seat, G::Move)>,
    /// Table-talk penalty discards (C10) among the moves, in order; empty
    /// in most games.
    pub penalties: Vec<Penalty<G::Card>>,
    /// `Some(Some(side))` a win, `Some(None)` a draw or an unfinished game,
    /// `None` when the record has no `result`.
    pub result: Option<Option<u8>>,
}

impl<G: Rules> Clone for Record<G> {
    fn clone(&self) -> Self {
        Record {
            config: self.config.clone(),
            dealer: self.dealer,
            deck: self.deck.clone(),
            reshuffles: self.reshuffles.clone(),
            moves: self.moves.clone(),
            penalties: self.penalties.clone(),
            result: self.result,
        }
    }
}

impl<G: Rules> fmt::Debug for Record<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Record")
            .field("config", &self.config)
            .field("dealer", &self.dealer)
            .field("deck", &self.deck)
            .field("reshuffles", &self.reshuffles)
            .field("moves", &self.moves)
            .field("penalties", &self.penalties)
            .field("result", &self.result)
            .finish()
    }
}

impl<G: Rules> PartialEq for Record<G> {
    fn eq(&self, o: &Self) -> bool {
        self.config == o.config
            && self.dealer == o.dealer
            && self.deck == o.deck
            && self.reshuffles == o.reshuffles
            && self.moves == o.moves
            && self.penalties == o.penalties
            && self.result == o.result
    }
}

impl<G: Rules> Eq for Record<G> {}

impl<G: Notation> Record<G> {
    /// The record as JSON, in the layout of the game's record format.
    pub fn to_json(&self) -> Value {
        let cards = |cs: &[G::Card]| -> Value {
            Value::Array(cs.iter().map(|c| json!(G::card_code(*c))).collect())
        };
        let mut o = Map::new();
        o.insert("format".into(), json!(G::KIND.record_format()));
        o.insert("players".into(), json!(self.config.players()));
        if G::TEAMS {
            o.insert("teams".into(), json!(self.config.sides()));
        }
        o.insert(
            "options".into(),
            G::options_to_json(self.config.rule_options()),
        );
        o.insert("dealer".into(), json!(self.dealer.0));
        o.insert("deck".into(), cards(&self.deck));
        if !self.reshuffles.is_empty() {
            o.insert(
                "reshuffles".into(),
                Value::Array(self.reshuffles.iter().map(|r| cards(r)).collect()),
            );
        }
        let mut moves = Vec::with_capacity(self.moves.len() + self.penalties.len());
        let mut penalties = self.penalties.iter().peekable();
        for (i, (s, m)) in self.moves.iter().enumerate() {
            while let Some(p) = penalties.next_if(|p| p.before <= i) {
                moves.push(penalty_json::<G>(p));
            }
            moves.push(G::move_to_json(*s, m, &self.config));
        }
        moves.extend(penalties.map(penalty_json::<G>));
        o.insert("moves".into(), Value::Array(moves));
        if let Some(r) = self.result {
            o.insert(
                "result".into(),
                json!({"winner": r.map_or(Value::Null, G::side_to_json)}),
            );
        }
        Value::Object(o)
    }

    /// The record as one line of JSON text.
    pub fn to_json_string(&self) -> String {
        self.to_json().to_string()
    }

    /// Reads and replays a record from JSON text (see [`replay`]).
    ///
    /// # Errors
    /// As [`replay`]; text that is not JSON is [`ReplayError::Malformed`]
    /// with the line and column.
    pub fn from_json_str(text: &str) -> Result<(Record<G>, G), ReplayError> {
        let v = crate::json::parse_strict(text).map_err(MalformedRecord)?;
        replay(&v, |_, _, _, _| {})
    }
}

/// A penalty discard (C10) as a record's `moves` entry.
pub fn penalty_json<G: Notation>(p: &Penalty<G::Card>) -> Value {
    penalty_entry::<G>(p.seat, p.card)
}

/// `seat`'s discard of `card` for the table-talk penalty (C10) as a
/// record's `moves` entry: `{"seat": S, "penalty": CARD}`.
pub fn penalty_entry<G: Notation>(seat: Seat, card: G::Card) -> Value {
    penalty_code_entry(seat, &G::card_code(card))
}

/// [`penalty_entry`] of the card written `code`.
pub fn penalty_code_entry(seat: Seat, code: &str) -> Value {
    json!({"seat": seat.0, "penalty": code})
}

/// Reads a `moves` entry that is a penalty discard (C10): `Ok(None)` for
/// an entry of another kind (one without `penalty`).
///
/// # Errors
/// [`crate::NotationError`] for a penalty entry that cannot be read.
pub fn penalty_from_json<G: Notation>(
    v: &Value,
) -> Result<Option<(Seat, G::Card)>, crate::NotationError> {
    use crate::NotationError;
    let Some(o) = v.as_object() else {
        return Ok(None);
    };
    let Some(code) = o.get("penalty") else {
        return Ok(None);
    };
    crate::notation::deny_unknown_move(o, &["seat", "penalty"], "penalty", &[])?;
    let seat = crate::notation::seat_field(o)?;
    let code = code.as_str().ok_or_else(|| {
        NotationError::field(
            "penalty",
            format!(
                "expected a card code string, found {}",
                crate::json::echo(&code.to_string())
            ),
        )
    })?;
    let card = G::parse_card(code).map_err(|e| NotationError::field("penalty", e))?;
    Ok(Some((seat, card)))
}

/// A list of card codes, field `what` of a record.
fn cards_field<G: Notation>(
    v: Option<&Value>,
    what: &str,
) -> Result<Vec<G::Card>, MalformedRecord> {
    let a = v.and_then(Value::as_array).ok_or_else(|| {
        MalformedRecord(format!(
            "field `{what}`: missing or not a list of card codes"
        ))
    })?;
    a.iter()
        .enumerate()
        .map(|(i, c)| {
            let code = c.as_str().ok_or_else(|| {
                MalformedRecord(format!(
                    "field `{what}`[{i}]: {} is not a card code string",
                    crate::json::echo(&c.to_string())
                ))
            })?;
            G::parse_card(code).map_err(|e| MalformedRecord(format!("field `{what}`[{i}]: {e}")))
        })
        .collect()
}

/// The keys a record may have: every game's, and `teams` where the game
/// has teams.
fn record_keys<G: Notation>() -> &'static [&'static str] {
    const KEYS: &[&str] = &[
        "teams",
        "format",
        "players",
        "options",
        "dealer",
        "deck",
        "reshuffles",
        "moves",
        "result",
    ];
    if G::TEAMS {
        KEYS
    } else {
        &KEYS[1..]
    }
}

/// A side's name in messages: a colour or a seat number; `null` for none.
fn side_text<G: Notation>(side: Option<u8>) -> String {
    match side.map(G::side_to_json) {
        None => "null".into(),
        Some(Value::String(s)) => s,
        Some(v) => v.to_string(),
    }
}

/// Replays a record given as JSON: checks the header (exit 2 on error),
/// then plays each move in turn, calling `on_move(index, seat, move,
/// game_after)`; stops at the first illegal or malformed move (exit 1).
/// A record may end inside a Stacks Block window (S5b), which then stays
/// open (its seats decide next), unless closing it
/// ([`Notation::finish_recorded`]) ends the game as `result` says: a
/// finished game's window was let stand. Finally checks that every
/// reshuffle was used and that `result`, when present, matches the
/// replay.
///
/// # Errors
/// [`ReplayError::Malformed`] for a bad header (unknown key, a table that
/// breaks C3 or S1, bad options, a deck that is not the game's cards, …),
/// [`ReplayError::Move`] naming the move index and the rule,
/// [`ReplayError::ResultMismatch`].
pub fn replay<G: Notation>(
    v: &Value,
    mut on_move: impl FnMut(usize, Seat, &G::Move, &G),
) -> Result<(Record<G>, G), ReplayError> {
    replay_entries(v, |i, seat, m, g| {
        if let Some(m) = m {
            on_move(i, seat, m, g);
        }
    })
}

/// Checks that a table-talk penalty discard (C10) by `seat` comes when
/// the rule allows it: the first discard of a penalty is by the first
/// member, in seat order, of a team of two or more players, and sets
/// `owed` to every member holding a card; each member then discards in
/// seat order (and no move of play comes in between, which the caller
/// checks). The discard itself is the caller's.
///
/// # Errors
/// The message for the move error, naming C10.
fn penalty_turn<G: Notation>(game: &G, owed: &mut Vec<Seat>, seat: Seat) -> Result<(), String> {
    if owed.is_empty() {
        *owed = crate::penalty::owed_by(game, game.side_of(seat))
            .map_err(|e| e.to_string())?
            .seats;
    }
    if owed.is_empty() {
        return Err(format!("seat {} holds no card to discard (C10)", seat.0));
    }
    crate::penalty::check_next(owed, seat).map_err(|e| e.to_string())
}

/// [`replay`], calling `on_entry(index, seat, move, game_after)` after
/// every entry of `moves`: a written move (`Some(move)`) or a table-talk
/// penalty discard (C10, `None`).
///
/// # Errors
/// As [`replay`].
pub fn replay_entries<G: Notation>(
    v: &Value,
    on_entry: impl FnMut(usize, Seat, Option<&G::Move>, &G),
) -> Result<(Record<G>, G), ReplayError> {
    replay_with(v, |_, _, _, _| {}, on_entry)
}

/// [`replay`], calling `decided(index, seat, move, game_before)` with the
/// position in which each entry of `moves` is decided: for a written move
/// (`Some(move)`), after what the record's silence before it means
/// (Stacks: the seats that let a completion stand, S5b), so that `seat`
/// is the one to act there; for a table-talk penalty discard (C10,
/// `None`), before it, `seat` being the member that discards — the
/// position a replay shows and an analysis judges before that entry.
///
/// # Errors
/// As [`replay`].
pub fn replay_decided<G: Notation>(
    v: &Value,
    mut decided: impl FnMut(usize, Seat, Option<&G::Move>, &G),
) -> Result<(Record<G>, G), ReplayError> {
    replay_with(v, &mut decided, |_, _, _, _| {})
}

/// A record's parts before its moves, read and checked: the table, the
/// dealer, the deck, the reshuffles, the `moves` entries and the result
/// (`Some(None)`: a draw).
struct Header<'a, G: Rules> {
    config: G::Config,
    dealer: Seat,
    deck: Vec<G::Card>,
    reshuffles: Vec<Vec<G::Card>>,
    moves: &'a Vec<Value>,
    result: Option<Option<u8>>,
}

/// Reads everything of a record but its moves.
fn read_header<G: Notation>(v: &Value) -> Result<Header<'_, G>, ReplayError> {
    let o = open_record(v, G::KIND.record_format(), record_keys::<G>())?;
    let players = req_uint(o, "players", 255).map_err(MalformedRecord)? as u8;
    let teams = match o.get("teams") {
        Some(_) if G::TEAMS => Some(req_uint(o, "teams", 255).map_err(MalformedRecord)? as u8),
        _ => None,
    };
    let options = G::options_from_json(o.get("options")).map_err(MalformedRecord)?;
    let config = G::table(players, teams, options).map_err(|e| MalformedRecord(e.to_string()))?;
    let dealer = Seat(req_uint(o, "dealer", 255).map_err(MalformedRecord)? as u8);
    let deck = cards_field::<G>(o.get("deck"), "deck")?;
    let reshuffles: Vec<Vec<G::Card>> = match o.get("reshuffles") {
        None => vec![],
        Some(Value::Array(a)) => a
            .iter()
            .enumerate()
            .map(|(i, l)| cards_field::<G>(Some(l), &format!("reshuffles[{i}]")))
            .collect::<Result<_, _>>()?,
        Some(_) => {
            return Err(MalformedRecord(
                "field `reshuffles`: expected a list of lists of card codes".into(),
            )
            .into())
        }
    };
    let moves = o
        .get("moves")
        .and_then(Value::as_array)
        .ok_or_else(|| MalformedRecord("field `moves`: missing or not a list".into()))?;
    let result: Option<Option<u8>> = match o.get("result") {
        None => None,
        Some(Value::Object(r)) => {
            deny_unknown(r, &["winner"], "field `result`").map_err(MalformedRecord)?;
            match r.get("winner") {
                None | Some(Value::Null) => Some(None),
                Some(w) => Some(Some(
                    G::side_from_json(w, &config).map_err(MalformedRecord)?,
                )),
            }
        }
        Some(_) => return Err(MalformedRecord("field `result`: expected an object".into()).into()),
    };
    Ok(Header {
        config,
        dealer,
        deck,
        reshuffles,
        moves,
        result,
    })
}

/// Plays a record's table-talk penalty discard (C10) by `seat`: out of
/// turn, no draw; `owed` is the seats that still owe one, in order.
///
/// # Errors
/// Why the discard is refused (a seat not at the table, not its turn to
/// discard, a game without the penalty, a card not in hand).
fn replay_penalty<G: Notation>(
    game: &mut G,
    owed: &mut Vec<Seat>,
    players: u8,
    seat: Seat,
    card: G::Card,
) -> Result<(), String> {
    if seat.0 >= players {
        return Err(format!(
            "seat {} does not exist ({players} players)",
            seat.0
        ));
    }
    if G::TABLE_TALK_PENALTY {
        penalty_turn(game, owed, seat)?;
    }
    match game.penalty_discard(seat, card) {
        None => Err(format!(
            "{} has no table-talk penalty (C10 is classic Sequence's)",
            G::KIND.title()
        )),
        Some(Err(e)) => Err(format!("{e} (C10)")),
        Some(Ok(())) => {
            if !owed.is_empty() {
                owed.remove(0);
            }
            Ok(())
        }
    }
}

/// The replay of [`replay_entries`] and [`replay_decided`].
fn replay_with<G: Notation>(
    v: &Value,
    mut decided: impl FnMut(usize, Seat, Option<&G::Move>, &G),
    mut on_entry: impl FnMut(usize, Seat, Option<&G::Move>, &G),
) -> Result<(Record<G>, G), ReplayError> {
    let header = read_header::<G>(v)?;
    let (moves, reshuffles, result) = (header.moves, header.reshuffles, header.result);
    let players = header.config.players();
    let mut game = G::from_deck(&header.config, header.dealer, &header.deck)
        .map_err(|e| MalformedRecord(e.to_string()))?;
    let mut rec = Record {
        config: header.config,
        dealer: header.dealer,
        deck: header.deck,
        reshuffles: vec![],
        moves: Vec::with_capacity(moves.len()),
        penalties: vec![],
        result,
    };
    let mut resh = RecordedReshuffles::new(&reshuffles);
    // the seats that still owe a table-talk penalty discard (C10)
    let mut owed: Vec<Seat> = vec![];
    for (i, mv) in moves.iter().enumerate() {
        let err = |why: String| MoveError {
            index: i,
            json: entry_text(mv),
            why,
            malformed: None,
        };
        // an entry that is not a move at all names what is wrong with it
        let unreadable = |e: crate::NotationError| MoveError {
            index: i,
            json: entry_text(mv),
            why: format!("malformed move: {e}"),
            malformed: Some(e.code()),
        };
        // a table-talk penalty discard (C10): out of turn, no draw
        if let Some((seat, card)) = penalty_from_json::<G>(mv).map_err(unreadable)? {
            decided(i, seat, None, &game);
            replay_penalty(&mut game, &mut owed, players, seat, card).map_err(err)?;
            rec.penalties.push(Penalty {
                before: rec.moves.len(),
                seat,
                card,
            });
            on_entry(i, seat, None, &game);
            continue;
        }
        let (seat, m) = G::move_from_json(mv, &rec.config).map_err(unreadable)?;
        if seat.0 >= players {
            return Err(err(format!(
                "seat {} does not exist ({players} players)",
                seat.0
            ))
            .into());
        }
        if let Some(first) = owed.first() {
            return Err(err(format!(
                "seat {} must first discard a card for the table-talk penalty (C10)",
                first.0
            ))
            .into());
        }
        game.play_silence_before(seat, &m, &mut resh)
            .map_err(|e| err(e.to_string()))?;
        decided(i, seat, Some(&m), &game);
        game.play(seat, m, &mut resh)
            .map_err(|e| err(e.to_string()))?;
        rec.moves.push((seat, m));
        on_entry(i, seat, Some(&m), &game);
    }
    // A record that ends inside an open Block window (S5b) ends there: a
    // decline is written by nothing, only implied by a later entry
    // (RECORD-STACKS.md), so the window stays open — unless the record's
    // `result` is the end the window's closing makes (the winning chip, or
    // the last chip and S7's draw): the game is over, so every seat let the
    // completion stand. (An unfinished game whose window would end it in a
    // draw reads as that draw: `{"winner": null}` is written for both.)
    if let Some(r) = result {
        if !game.is_over() {
            let mut closed = game.clone();
            let mut no_reshuffle = RecordedReshuffles::<G::Card>::new(&[]);
            if closed.finish_recorded(&mut no_reshuffle).is_ok()
                && closed.is_over()
                && closed.outcome().winner() == r
            {
                game = closed;
            }
        }
    }
    if resh.used() != reshuffles.len() {
        return Err(ReplayError::ResultMismatch(format!(
            "`reshuffles` lists {} but {} happened ({})",
            reshuffles.len(),
            resh.used(),
            G::RESHUFFLE_RULE
        )));
    }
    rec.reshuffles = reshuffles;
    if let Some(r) = result {
        let actual = game.outcome().winner();
        if r != actual {
            return Err(ReplayError::ResultMismatch(format!(
                "record says winner {}, replay gives {}",
                side_text::<G>(r),
                side_text::<G>(actual)
            )));
        }
    }
    Ok((rec, game))
}

/// Verifies a record (JSON) and returns its summary: what `sequence
/// verify` prints.
///
/// # Errors
/// As [`replay`].
pub fn verify<G: Notation>(v: &Value) -> Result<Value, ReplayError> {
    let mut moves = 0;
    let (_, game) = replay_entries::<G>(v, |_, _, _, _| moves += 1)?;
    Ok(game.summary(moves))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_both_formats_and_refuses_others() {
        assert_eq!(
            detect_kind(r#"{"format":"sequence-record/1"}"#).unwrap().0,
            GameKind::Classic
        );
        assert_eq!(
            detect_kind(r#"{"format":"sequence-stacks-record/1"}"#)
                .unwrap()
                .0,
            GameKind::Stacks
        );
        assert!(detect_kind(r#"{"format":"chess"}"#)
            .unwrap_err()
            .0
            .contains("unknown format"));
        assert!(detect_kind(r#"{"format": "#)
            .unwrap_err()
            .0
            .contains("line 1"));
        assert!(detect_kind("[1]").is_err());
    }
}
