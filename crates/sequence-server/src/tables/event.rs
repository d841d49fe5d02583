//! The changes of a table as its event log stores them ([`Event`]), and
//! who made a move for a seat whose holder did not ([`Auto`]); the clock
//! events are stamped with ([`now_ms`]).

use sequence_common::{AnyEntry, AnyGame, NotationError, PlayError, Seat};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One change of a table, as stored in the event log.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum Event {
    /// A person takes a seat; `token` is the SHA-256 of its token (hex).
    Seat {
        /// The seat.
        seat: u8,
        /// The name (escaped).
        name: String,
        /// SHA-256 of the token, hex.
        token: String,
        /// The account (user id) of a person signed in when they sat
        /// (absent for a guest, and in events stored before accounts): a
        /// game is rated only when every seat is a different account's.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        account: Option<i64>,
    },
    /// A bot takes a seat.
    Bot {
        /// The seat.
        seat: u8,
        /// The bot level.
        level: String,
    },
    /// The person at a seat left.
    Leave {
        /// The seat.
        seat: u8,
    },
    /// A game starts, dealt from `seed` (never sent to players).
    Start {
        /// The seed of ChaCha8 for dealing and reshuffles.
        seed: u64,
    },
    /// An accepted move in record format (with `seat`), made by the seat's
    /// holder (a person or a bot).
    Move {
        /// The move.
        mv: StoredMove,
    },
    /// A move the server made for a seat whose holder did not (its time
    /// ran out, or it is away), in record format (with `seat`).
    Auto {
        /// The move.
        mv: StoredMove,
        /// Why the server made it.
        auto: Auto,
    },
    /// The person of a seat marked away is back (their next action).
    Back {
        /// The seat.
        seat: u8,
    },
    /// The host gives team `team` the table-talk penalty (C10): each of
    /// its members who holds a card must discard one of their choice
    /// (`{"seat", "penalty": CARD}` moves, in seat order) before play goes
    /// on; they play on one card short.
    Penalty {
        /// The team (its number; views name it by colour).
        team: u8,
    },
    /// The analysis of a finished game, stored so that a second visit
    /// needs no search (docs/api.md "Analysis").
    Analysis {
        /// The game's number at the table.
        game: u32,
        /// The analysis.
        result: Value,
    },
    /// The host starts a new game at the same table.
    Rematch,
    /// The operators closed the table (`sequence admin close`): nothing
    /// more happens at it; `reason` is shown to its players.
    Close {
        /// Why, in the operators' words.
        reason: String,
    },
    /// The operators renamed the person at `seat` (an abusive name).
    Rename {
        /// The seat.
        seat: u8,
        /// The new name (cleaned as a joining name is).
        name: String,
    },
}

/// A move as the event log stores it ([`Event::Move`], [`Event::Auto`]):
/// a `moves` entry in record format with its `seat` (RECORD.md,
/// RECORD-STACKS.md; a table-talk penalty discard `{"seat", "penalty":
/// CARD}`, C10). A move a request brought keeps the seat of its token and
/// the engine's reading of it for that seat ([`AnyGame::read_entry`], not
/// stored), a bot's move the decision the bot made; either is read once
/// however many times its change is checked (a lost race checks it
/// again). One read back from the log is read when played.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(from = "Value", into = "Value")]
pub struct StoredMove {
    json: Value,
    seat: Option<Seat>,
    read: Option<Result<AnyEntry, PlayError>>,
}

impl StoredMove {
    /// A move in record format with its `seat` (the server's for a seat
    /// whose window closed, one read back from the log).
    pub fn new(json: Value) -> StoredMove {
        let seat = json
            .get("seat")
            .and_then(Value::as_u64)
            .and_then(|s| u8::try_from(s).ok())
            .map(Seat);
        StoredMove {
            json,
            seat,
            read: None,
        }
    }

    /// `seat`'s move `json` (record format; its `seat` may be left out)
    /// as the engine of `live` reads it for that seat, read now: a
    /// request's move.
    pub fn read(seat: u8, json: Value, live: &dyn AnyGame) -> StoredMove {
        let read = Some(live.read_entry(Seat(seat), &json));
        StoredMove {
            json,
            seat: Some(Seat(seat)),
            read,
        }
    }

    /// A decision a bot made (its typed move or penalty discard), stored
    /// as its entry ([`AnyEntry::to_json`]) and played as it is; `None`
    /// for a move made at no known table.
    pub fn of_entry(entry: AnyEntry) -> Option<StoredMove> {
        Some(StoredMove {
            json: entry.to_json()?,
            seat: Some(entry.seat()),
            read: Some(Ok(entry)),
        })
    }

    /// The seat that makes it (`None`: the entry names no seat, which the
    /// engine's reading then refuses).
    pub fn seat(&self) -> Option<Seat> {
        self.seat
    }

    /// The engine's reading of the move for `live` (made once for a
    /// request's or a bot's move).
    ///
    /// # Errors
    /// [`PlayError::Malformed`] with the notation's code.
    pub fn entry(&self, live: &dyn AnyGame) -> Result<AnyEntry, PlayError> {
        match (&self.read, self.seat) {
            (Some(read), _) => read.clone(),
            (None, Some(seat)) => live.read_entry(seat, &self.json),
            (None, None) => {
                let e = NotationError::Missing("seat");
                Err(PlayError::Malformed {
                    code: e.code(),
                    message: format!("malformed move: {e}"),
                })
            }
        }
    }
}

impl From<Value> for StoredMove {
    fn from(json: Value) -> StoredMove {
        StoredMove::new(json)
    }
}

/// The log stores a move with its seat (one a request left it out of has
/// the token's).
impl From<StoredMove> for Value {
    fn from(mv: StoredMove) -> Value {
        let mut json = mv.json;
        if let (Some(o), Some(seat)) = (json.as_object_mut(), mv.seat) {
            o.entry("seat").or_insert_with(|| Value::from(seat.0));
        }
        json
    }
}

/// Who made a move for a seat when its holder did not (see
/// [`Event::Move`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Auto {
    /// The seat's time ran out: a level-2 bot played this one move.
    Timeout,
    /// The seat is away (three timeouts in a row): a bot plays for it.
    Away,
    /// A window asked out of turn (the Stacks Block window) closed by
    /// itself when its time ran out: the default answer (no Block).
    Window,
}

impl Auto {
    /// `timeout`, `away` or `window`, as logs write it.
    pub fn name(self) -> &'static str {
        match self {
            Auto::Timeout => "timeout",
            Auto::Away => "away",
            Auto::Window => "window",
        }
    }
}

/// Timeouts in a row after which a seat is marked away and a bot plays
/// for it until its person acts again.
pub const AWAY_AFTER: u8 = 3;

/// Current Unix time in ms.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}
