//! The notation layer: how a game's moves, cards, options and results are
//! written in records (RECORD.md, RECORD-STACKS.md), in views and in the
//! bot protocol. Each engine implements [`Notation`] in its own `notation`
//! module, apart from its rules; [`crate::record`] reads and writes whole
//! records over it, once for both games.

use crate::game::Rules;
use crate::reshuffle::Reshuffler;
use crate::seat::Seat;
use serde_json::{Map, Value};

/// Why a record entry (a move, or a code inside one) could not be read.
/// The `Display` text names the field; [`NotationError::code`] is stable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// The entry is not a JSON object.
    #[error("a move must be a JSON object")]
    NotAnObject,
    /// A required field is absent.
    #[error("field `{0}` is missing")]
    Missing(&'static str),
    /// A required field is absent; `why` says what it is for (with the
    /// rule id).
    #[error("field `{field}` is missing ({why})")]
    MissingFor {
        /// The field.
        field: &'static str,
        /// What it is for, e.g. `STEAL-CHIP names a colour, S5`.
        why: &'static str,
    },
    /// A field holds a value of the wrong kind or out of range.
    #[error("field `{field}`: {why}")]
    Field {
        /// The field, e.g. `at` or `declare`.
        field: String,
        /// What is wrong, quoting the value (cut, see [`crate::json::echo`]).
        why: String,
    },
    /// A key no move has.
    #[error("unknown key `{0}`")]
    UnknownKey(String),
    /// A key of another kind of move.
    #[error("`{key}` does not go with `{kind}` (this move takes {takes})")]
    DoesNotGoWith {
        /// The key given.
        key: String,
        /// The kind of move the entry is (its deciding key).
        kind: String,
        /// The keys this kind takes, quoted.
        takes: String,
    },
    /// The entry says no kind of move.
    #[error("{0}")]
    NoKind(&'static str),
    /// A combination the rules never allow, e.g. a Block played from the
    /// discard pile (S5).
    #[error("{0}")]
    Rule(&'static str),
}

impl NotationError {
    /// A stable code for clients: `notation.not_an_object`,
    /// `notation.missing`, `notation.field`, `notation.unknown_key`,
    /// `notation.does_not_go_with`, `notation.no_kind`, `notation.rule`.
    pub fn code(&self) -> &'static str {
        match self {
            NotationError::NotAnObject => "notation.not_an_object",
            NotationError::Missing(_) | NotationError::MissingFor { .. } => "notation.missing",
            NotationError::Field { .. } => "notation.field",
            NotationError::UnknownKey(_) => "notation.unknown_key",
            NotationError::DoesNotGoWith { .. } => "notation.does_not_go_with",
            NotationError::NoKind(_) => "notation.no_kind",
            NotationError::Rule(_) => "notation.rule",
        }
    }

    /// A [`NotationError::Field`].
    pub fn field(field: impl Into<String>, why: impl Into<String>) -> NotationError {
        NotationError::Field {
            field: field.into(),
            why: why.into(),
        }
    }
}

/// The seat of a move entry: `seat`, a number.
///
/// # Errors
/// [`NotationError`] when it is missing or not a seat number.
pub fn seat_field(o: &Map<String, Value>) -> Result<Seat, NotationError> {
    match o.get("seat") {
        None => Err(NotationError::Missing("seat")),
        Some(s) => match s.as_u64() {
            Some(n) if n < 256 => Ok(Seat(n as u8)),
            _ => Err(NotationError::field(
                "seat",
                format!(
                    "expected a seat number, found {}",
                    crate::json::echo(&s.to_string())
                ),
            )),
        },
    }
}

/// The string field `k` of a move entry parsed as a `T` (a card code, a
/// space name…); `what` names the expected string in the message
/// ("a card code").
///
/// # Errors
/// [`NotationError::Missing`] when absent; [`NotationError::Field`] when not
/// a string (`expected {what} string, found …`) or when `T` refuses it (its
/// own message).
pub fn parsed_field<T>(
    o: &Map<String, Value>,
    k: &'static str,
    what: &str,
) -> Result<T, NotationError>
where
    T: std::str::FromStr,
    T::Err: std::fmt::Display,
{
    match o.get(k) {
        Some(Value::String(s)) => s
            .parse::<T>()
            .map_err(|e| NotationError::field(k, e.to_string())),
        Some(v) => Err(NotationError::field(
            k,
            format!(
                "expected {what} string, found {}",
                crate::json::echo(&v.to_string())
            ),
        )),
        None => Err(NotationError::Missing(k)),
    }
}

/// Checks that a move entry chosen by its key `kind` (`remove`, `play`, …)
/// holds no key outside `allowed`; a key that other moves use (one of
/// `move_keys`) is named as a combination that does not go together.
///
/// # Errors
/// [`NotationError::DoesNotGoWith`] or [`NotationError::UnknownKey`].
pub fn deny_unknown_move(
    obj: &Map<String, Value>,
    allowed: &[&str],
    kind: &str,
    move_keys: &[&str],
) -> Result<(), NotationError> {
    for k in obj.keys() {
        if allowed.contains(&k.as_str()) {
            continue;
        }
        if move_keys.contains(&k.as_str()) {
            let takes: Vec<String> = allowed.iter().map(|a| format!("`{a}`")).collect();
            return Err(NotationError::DoesNotGoWith {
                key: k.clone(),
                kind: kind.to_string(),
                takes: takes.join(", "),
            });
        }
        return Err(NotationError::UnknownKey(crate::json::echo(k)));
    }
    Ok(())
}

/// How one game writes its records: implemented by each engine on its
/// `Game`. [`crate::record`] reads, writes and replays records over it.
pub trait Notation: Rules {
    /// Whether records carry a `teams` field (classic, RECORD.md).
    const TEAMS: bool;
    /// Whether the game has the table-talk penalty (C10: classic's, for a
    /// team of two or more; Sequence Stacks has no teams, S1). Default:
    /// no.
    const TABLE_TALK_PENALTY: bool = false;
    /// The rule a replay cites when `reshuffles` lists more than happened
    /// (C7, S6).
    const RESHUFFLE_RULE: &'static str;

    /// Reads a card code (any case): `7H`, `JS`; `B3`, `RW`, `SKIP`.
    ///
    /// # Errors
    /// A message quoting the code.
    fn parse_card(code: &str) -> Result<Self::Card, String>;

    /// The card's code as records write it (upper case).
    fn card_code(card: Self::Card) -> String {
        card.to_string()
    }

    /// The options as a record's `options` object: only what differs from
    /// the defaults.
    fn options_to_json(options: &Self::Options) -> Value;

    /// Reads a record's `options` (absent: the defaults).
    ///
    /// # Errors
    /// A message naming the bad option (`field `options`: …`).
    fn options_from_json(v: Option<&Value>) -> Result<Self::Options, String>;

    /// `mv` by `seat` as a record entry, e.g. `{"seat":0,"card":"7H","at":"d6"}`.
    fn move_to_json(seat: Seat, mv: &Self::Move, config: &Self::Config) -> Value;

    /// Whether records write this move (Stacks: a declined Block window is
    /// not written, S5b). Default: every move.
    fn is_recorded(_mv: &Self::Move) -> bool {
        true
    }

    /// Reads one `moves` entry: its seat and move.
    ///
    /// # Errors
    /// [`NotationError`] naming the field that is missing, unknown or
    /// malformed.
    fn move_from_json(
        v: &Value,
        config: &Self::Config,
    ) -> Result<(Seat, Self::Move), NotationError>;

    /// Reads a move sent by a player or a program (the server's API, the
    /// bot protocol): a record entry, or a move records leave out (Stacks:
    /// `{"seat": S, "pass": true}`, a declined Block). Default:
    /// [`Notation::move_from_json`].
    ///
    /// # Errors
    /// As [`Notation::move_from_json`].
    fn move_from_input(
        v: &Value,
        config: &Self::Config,
    ) -> Result<(Seat, Self::Move), NotationError> {
        Self::move_from_json(v, config)
    }

    /// A move in words for people, e.g. `7♥ on d6`, `J♠ removes e5`,
    /// `B3 to blue-a`.
    fn move_text(mv: &Self::Move) -> String;

    /// A side as `result.winner` writes it: a colour (classic) or a seat.
    fn side_to_json(side: u8) -> Value;

    /// Reads a non-null `result.winner`.
    ///
    /// # Errors
    /// A message naming `result.winner` and what it must be.
    fn side_from_json(v: &Value, config: &Self::Config) -> Result<u8, String>;

    /// The summary `sequence verify` prints (RECORD.md, RECORD-STACKS.md
    /// "Verifying") after `moves` moves.
    fn summary(&self, moves: usize) -> Value;

    /// Before the recorded move `mv` of `seat`: makes the moves the
    /// record leaves out there because the rules imply them (Stacks: the
    /// seats asked in an open Block window whom the record skips let the
    /// completion stand, S5b), so that the game is where `seat` decides
    /// `mv`. Default: nothing (every move is written).
    ///
    /// # Errors
    /// As [`Rules::play`].
    fn play_silence_before<S: Reshuffler<Self::Card> + ?Sized>(
        &mut self,
        _seat: Seat,
        _mv: &Self::Move,
        _reshuffler: &mut S,
    ) -> Result<(), Self::Error> {
        Ok(())
    }

    /// Plays one recorded move: first what the record's silence before
    /// it means ([`Notation::play_silence_before`]), then the move.
    ///
    /// # Errors
    /// As [`Rules::play`].
    fn play_recorded<S: Reshuffler<Self::Card> + ?Sized>(
        &mut self,
        seat: Seat,
        mv: Self::Move,
        reshuffler: &mut S,
    ) -> Result<(), Self::Error> {
        self.play_silence_before(seat, &mv, reshuffler)?;
        self.play(seat, mv, reshuffler).map(|_| ())
    }

    /// The table-talk penalty (C10, RULES.md): `seat` discards `card`, a
    /// card of its choice, out of turn, and draws none, so that it plays
    /// on one card short. Records write it as a `moves` entry
    /// `{"seat": S, "penalty": CARD}` (RECORD.md). `None` when the game
    /// has no such penalty (the default: Sequence Stacks has no teams);
    /// nothing changes on error.
    fn penalty_discard(
        &mut self,
        _seat: Seat,
        _card: Self::Card,
    ) -> Option<Result<(), Self::Error>> {
        None
    }

    /// Whether `seat` holds a card: a member of a team given the
    /// table-talk penalty (C10) who holds none has nothing to discard.
    /// Default: true.
    fn holds_a_card(&self, _seat: Seat) -> bool {
        true
    }

    /// The cards `seat` may discard for the table-talk penalty (C10): each
    /// card of its hand once, in hand order. Default: none (a game without
    /// the penalty).
    fn penalty_cards(&self, _seat: Seat) -> Vec<Self::Card> {
        vec![]
    }

    /// After the last move of a record of a finished game: makes the moves
    /// its silence means (Stacks: an open Block window is let stand by
    /// every seat still to be asked, S5b). Replay keeps the result only
    /// when it ends the game as the record's `result` says; otherwise the
    /// record ends inside the window, which stays open. Default: nothing.
    ///
    /// # Errors
    /// As [`Rules::play`].
    fn finish_recorded<S: Reshuffler<Self::Card> + ?Sized>(
        &mut self,
        _reshuffler: &mut S,
    ) -> Result<(), Self::Error> {
        Ok(())
    }
}
