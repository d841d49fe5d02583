//! Why the table core refuses something: [`TableError`]. It knows nothing
//! of HTTP; the HTTP layer (`crate::error`) turns each variant into a
//! status code, in one place.

use sequence_common::PlayError;

/// A refusal of the table core, with its message in words. Refusals of a
/// move (malformed or illegal) also carry the stable code of the notation
/// or the rule (`notation.missing`, `C6.space_taken`) so that a client can
/// translate them.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// A request the table cannot take as it is: a bad configuration, name
    /// or bot level.
    #[error("{0}")]
    Invalid(String),
    /// A move refused as the engine refuses it ([`PlayError`]): one that
    /// cannot be read (a field missing, unknown or of the wrong kind; the
    /// notation's code, `notation.field`, …) or a well-formed move the
    /// rules refuse (the rule's code, `C6.space_taken`,
    /// `S5.steal_from_self`, …).
    #[error(transparent)]
    Refused(#[from] PlayError),
    /// No seat token, or one that is malformed or not of this table.
    #[error("{0}")]
    Unauthorized(String),
    /// A valid seat that may not do this (not the host; a record of an
    /// unfinished game).
    #[error("{0}")]
    Forbidden(String),
    /// No such table, seat or game.
    #[error("{0}")]
    NotFound(String),
    /// The table's state does not allow it now: not this seat's turn, a
    /// stale `move_number`, a seat taken, a write that lost a race.
    #[error("{0}")]
    Conflict(String),
    /// A seat someone else took first (code `seat.taken`); the seat is
    /// numbered from 0 as in the API.
    #[error("seat {0} is taken (seats are numbered from 0): choose another")]
    SeatTaken(u8),
    /// A join without a seat at a table with no free seat (code
    /// `seat.table_full`).
    #[error("the table is full")]
    TableFull,
    /// A move for a position that is not the table's now: a stale or early
    /// `move_number`, not this seat's turn, or a race lost to another move
    /// (another connection or server instance); `move_number` is the
    /// table's now.
    #[error("{message}")]
    Stale {
        /// What is wrong, with the table's `move_number`.
        message: String,
        /// The table's `move_number` now.
        move_number: u32,
    },
    /// The database cannot be reached now (restarting, connection lost):
    /// nothing changed that was not committed; retry shortly.
    #[error("{0}")]
    Unavailable(String),
    /// The server failed (the database, a stored table that does not
    /// replay).
    #[error("{0}")]
    Internal(String),
}

impl TableError {
    /// The message in words.
    pub fn message(&self) -> std::borrow::Cow<'_, str> {
        match self {
            TableError::SeatTaken(_) | TableError::TableFull => self.to_string().into(),
            TableError::Invalid(m)
            | TableError::Unauthorized(m)
            | TableError::Forbidden(m)
            | TableError::NotFound(m)
            | TableError::Conflict(m)
            | TableError::Unavailable(m)
            | TableError::Internal(m) => m.into(),
            TableError::Refused(e) => e.message().into(),
            TableError::Stale { message, .. } => message.into(),
        }
    }

    /// The stable code of a refused move (`None` for other refusals).
    pub fn code(&self) -> Option<&'static str> {
        match self {
            TableError::Refused(e) => Some(e.code()),
            TableError::SeatTaken(_) => Some("seat.taken"),
            TableError::TableFull => Some("seat.table_full"),
            _ => None,
        }
    }

    /// The table's `move_number` of a [`TableError::Stale`] refusal.
    pub fn move_number(&self) -> Option<u32> {
        match self {
            TableError::Stale { move_number, .. } => Some(*move_number),
            _ => None,
        }
    }

    /// Whether the refusal is a conflict with the table's state (a 409).
    pub fn is_conflict(&self) -> bool {
        matches!(
            self,
            TableError::Conflict(_)
                | TableError::Stale { .. }
                | TableError::SeatTaken(_)
                | TableError::TableFull
        )
    }

    /// A move that cannot be read ([`PlayError::Malformed`]), with the
    /// notation's stable `code`.
    pub fn malformed(code: &'static str, message: impl Into<String>) -> TableError {
        TableError::Refused(PlayError::Malformed {
            code,
            message: message.into(),
        })
    }

    /// A move the rules refuse ([`PlayError::Illegal`]), with the rule's
    /// stable `code`.
    pub fn illegal(code: &'static str, message: impl Into<String>) -> TableError {
        TableError::Refused(PlayError::Illegal {
            code,
            message: message.into(),
        })
    }

    /// The `code` label of a refused move in the metrics
    /// ([`crate::telemetry::move_done`]): the engine's code
    /// (`C6.space_taken`, `notation.missing`), else the kind of refusal.
    pub fn label(&self) -> &'static str {
        if let Some(code) = self.code() {
            return code;
        }
        match self {
            TableError::Stale { .. } => "stale",
            TableError::Conflict(_) => "conflict",
            TableError::Unauthorized(_) => "unauthorized",
            TableError::Forbidden(_) => "forbidden",
            TableError::NotFound(_) => "not_found",
            TableError::Unavailable(_) => "unavailable",
            TableError::Invalid(_) => "invalid",
            TableError::Internal(_) => "internal",
            TableError::Refused(_) | TableError::SeatTaken(_) | TableError::TableFull => "refused",
        }
    }

    /// A [`TableError::Conflict`].
    pub fn conflict(message: impl Into<String>) -> TableError {
        TableError::Conflict(message.into())
    }
}
